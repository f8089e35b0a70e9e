"""What one seat may know (§6, §9.3): the observation encoder and the hidden-state sampler.

The observation is egocentric: seats are relabelled relative to the observer (0 = self, then
the next seats clockwise) and the neutral set, in a 2-player game, comes last. It is one flat
float32 vector of named pieces (``Observer.layout``): first the board, cell-major (182 cells ×
features: colour of the tile or entrance on the cell, its relative owner, a main-stall flag
and an entrance flag; tiles and entrances never share a cell, so they share the colour and
owner features), filled by one table lookup per cell; then small per-seat and per-colour
vectors (customers and the pending cell as coordinates). Private pieces are the observer's
own hand and, with ``reveal_money=False``, the observer's own money only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.cairo.data import (
    CARD_COPIES,
    DISPLAY_SLOTS,
    DRAWS_PER_ACTION,
    EXPANSIONS_PER_COLOUR,
    HAND_LIMIT,
    HEIGHT,
    MAX_GROUP_SIZE,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_BARKERS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    THREE_CARDS,
    WIDTH,
)
from envs.cairo.state import CairoState, Phase, Stage, Verb
from envs.core.layout import ObservationLayout, Piece
from envs.core.rng import make_rng, random_bits

# Content codes of a tile or an entrance by group id, index -1 (none) giving 0.
_TILE_CODE = np.append(np.arange(NUM_OWNERS * NUM_COLOURS) + 1, 0).astype(np.intp)
_ENTRANCE_CODE = np.append(np.arange(NUM_OWNERS * NUM_COLOURS) + 61, 0).astype(np.intp)
VP_SCALE = 100.0  # VP are divided by this; 36 expansions × (7 + 5 medal VP) < 5 × 100
MAX_HAND = HAND_LIMIT + DRAWS_PER_ACTION  # a hand holds at most 6 cards during a Draw
MAX_UNITS = MAX_GROUP_SIZE - 1  # D9 starts with at most 6 unpaid tile units
_STAGE_OVER, _GAME_OVER, _VERB_NONE = int(Stage.OVER), int(Phase.GAME_OVER), int(Verb.NONE)


class Observer:
    """Encodes observations and resamples hidden state for one player count and options."""

    def __init__(self, num_players: int, options: dict[str, Any]):
        self.num_players = num_players
        self.reveal_money = options["reveal_money"]
        self.max_turns = options["max_turns"]
        # Owner slots seen on the board: the seats, plus the neutral set with 2 players.
        self.num_owner_slots = num_players + (num_players == 2)
        players, owners = num_players, self.num_owner_slots
        # Per cell (cell-major, 13 × 14 × features): colour of the tile or entrance, its
        # relative owner, main-stall flag, entrance flag. An expansion is a coloured cell with
        # neither flag; customers and the pending cell are in the vector part.
        self.cell_features = NUM_COLOURS + owners + 2
        self.cell_table = self._cell_table()
        board = Piece("board", (NUM_CELLS, self.cell_features), True, 1.0)
        self.vector_layout = ObservationLayout(
            [
                Piece("to_act", (players,), True, 1.0),
                Piece("stage", (4,), True, 1.0),
                Piece("phase", (len(Phase) - 1,), True, 1.0),
                Piece("verb", (len(Verb) - 1,), True, 1.0),
                Piece("pending_colour", (NUM_COLOURS,), True, 1.0),
                Piece("pending_counts", (4,), True, 1.0),  # picks, units, half, draws
                Piece("customers", (NUM_COLOURS, 3), True, 1.0),  # on board, x, y
                Piece("target", (3,), True, 1.0),  # pending stall/expansion cell: set, x, y
                Piece("money", (players, NUM_COLOURS), False, 1.0),
                Piece("trays", (NUM_COLOURS,), True, 1.0),
                Piece("vp", (players,), True, 5.0),
                Piece("hand", (NUM_CARD_TYPES,), False, 1.0),
                Piece("hand_sizes", (players,), True, 1.0),
                Piece("known", (players - 1, NUM_CARD_TYPES), True, 1.0),
                Piece("barkers", (players + 1,), True, 1.0),  # per seat, then the supply
                Piece("display", (DISPLAY_SLOTS, NUM_CARD_TYPES), True, 1.0),
                Piece("piles", (1 + NUM_CARD_TYPES,), True, 1.0),  # draw size, discard
                Piece("supply", (NUM_COLOURS,), True, 1.0),
                Piece("medals", (NUM_COLOURS, 2, players), True, 1.0),
                Piece("unplaced", (players + 1, NUM_COLOURS), True, 1.0),  # + neutral bag
                Piece("group_size", (owners, NUM_COLOURS), True, 1.0),
                Piece("dropped", (players,), True, 1.0),
                Piece("turn", (1,), True, 1.0),
            ]
        )
        self.layout = ObservationLayout([board, *self.vector_layout.pieces.values()])
        self.board_size = NUM_CELLS * self.cell_features

    # ---------------------------------------------------------------- encoding
    # A cell's content code: 0 empty, 1 + g an expansion of group g, 31 + g a main stall,
    # 61 + g an entrance (group g = owner*6 + colour); 91 codes per observer seat.
    _EXPANSION, _MAIN, _ENTRANCE, _CODES = 1, 31, 61, 91

    def _cell_table(self) -> np.ndarray:
        """(P * 91, F) float32 features of each (observer seat, cell content code)."""
        players, owners = self.num_players, self.num_owner_slots
        table = np.zeros((players, self._CODES, self.cell_features), dtype=np.float32)
        for me in range(players):
            for base in (self._EXPANSION, self._MAIN, self._ENTRANCE):
                for group in range(NUM_OWNERS * NUM_COLOURS):
                    owner, colour = divmod(group, NUM_COLOURS)
                    if owner >= players and owner != NEUTRAL:
                        continue
                    relative = owners - 1 if owner == NEUTRAL else (owner - me) % players
                    row = table[me, base + group]
                    row[colour] = 1.0
                    row[NUM_COLOURS + relative] = 1.0
                    row[-2] = base == self._MAIN
                    row[-1] = base == self._ENTRANCE
        return table.reshape(-1, self.cell_features)

    def _cell_codes(self, state: CairoState, me: np.ndarray) -> np.ndarray:
        """(B, 182) intp row of ``cell_table`` for every cell, as seen by seats ``me`` (B,)."""
        code = _TILE_CODE[state.tile] + _ENTRANCE_CODE[state.entrance]
        code += (me * self._CODES)[:, None]
        rows, owners, colours = np.nonzero(state.stall_cell >= 0)
        code[rows, state.stall_cell[rows, owners, colours]] += self._MAIN - self._EXPANSION
        return code

    def observe(self, state: CairoState, player: int | np.ndarray) -> np.ndarray:
        """(B, size) float32 observation of ``player`` (int or (B,) ints), see the module doc."""
        num, players = state.batch_size, self.num_players
        rows = np.arange(num)
        me = np.broadcast_to(np.asarray(player, dtype=np.int64), (num,))
        order = (me[:, None] + np.arange(players)) % players  # relative -> absolute seat
        # The small vector pieces are filled in a buffer of their own: scattered writes into
        # the wide observation rows would touch a new cache line per row and piece.
        buf = self.vector_layout.new_buffer(num)
        view = lambda name: self.vector_layout.view(buf, name)  # noqa: E731

        acting = state.current_player >= 0
        view("to_act")[rows[acting], (state.current_player[acting] - me[acting]) % players] = 1.0
        live_stage = state.stage < _STAGE_OVER
        view("stage")[rows[live_stage], state.stage[live_stage]] = 1.0
        asked = state.phase < _GAME_OVER
        view("phase")[rows[asked], state.phase[asked]] = 1.0
        verb = state.verb > _VERB_NONE
        view("verb")[rows[verb], state.verb[verb] - 1] = 1.0
        chosen = state.colour >= 0
        view("pending_colour")[rows[chosen], state.colour[chosen]] = 1.0
        counts = view("pending_counts")
        counts[:, 0] = state.picks_left / THREE_CARDS
        counts[:, 1] = state.pay_units / MAX_UNITS
        counts[:, 2] = state.pay_half
        counts[:, 3] = state.draws_left / DRAWS_PER_ACTION
        customers = view("customers")
        on_board = state.customer >= 0
        customers[:, :, 0] = on_board
        customers[:, :, 1] = np.where(on_board, state.customer % WIDTH, 0) / (WIDTH - 1)
        customers[:, :, 2] = np.where(on_board, state.customer // WIDTH, 0) / (HEIGHT - 1)

        money = state.money[rows[:, None], order] / MONEY_PER_COLOUR  # (B, P, 6)
        if not self.reveal_money:
            money[:, 1:] = 0.0
        view("money")[:] = money
        view("trays")[:] = 1.0 - state.money.sum(axis=1) / MONEY_PER_COLOUR
        view("vp")[:] = state.vp[rows[:, None], order] / VP_SCALE
        view("hand")[:] = state.hand[rows, me] / CARD_COPIES.max()
        view("hand_sizes")[:] = state.hand[rows[:, None], order].sum(axis=2) / MAX_HAND
        view("known")[:] = state.known[rows[:, None], order[:, 1:]] / CARD_COPIES.max()
        barkers = view("barkers")
        barkers[:, :players] = state.barkers[rows[:, None], order] / NUM_BARKERS
        barkers[:, players] = 1.0 - state.barkers.sum(axis=1) / NUM_BARKERS
        view("display")[:] = state.display[:, :, None] == np.arange(NUM_CARD_TYPES)
        piles = view("piles")
        piles[:, 0] = state.deck_size / NUM_CARDS
        piles[:, 1:] = state.discard / CARD_COPIES.max()
        view("supply")[:] = state.supply / EXPANSIONS_PER_COLOUR
        holder = state.medal.astype(np.int64)
        view("medals")[:] = (holder >= 0)[..., None] & (
            ((holder - me[:, None, None]) % players)[..., None] == np.arange(players))
        unplaced = view("unplaced")
        unplaced[:, :players] = state.stall_cell[rows[:, None], order] < 0
        unplaced[:, players] = state.neutral_bag
        sizes = view("group_size")
        sizes[:, :players] = state.group_size[rows[:, None], order] / MAX_GROUP_SIZE
        if self.num_owner_slots > players:
            sizes[:, players] = state.group_size[:, NEUTRAL] / MAX_GROUP_SIZE
        view("dropped")[:] = state.dropped[rows[:, None], order]
        view("turn")[:, 0] = np.minimum(state.turn / self.max_turns, 1.0)
        target = view("target")
        pending = state.target >= 0
        target[:, 0] = pending
        target[:, 1] = np.where(pending, state.target % WIDTH, 0) / (WIDTH - 1)
        target[:, 2] = np.where(pending, state.target // WIDTH, 0) / (HEIGHT - 1)
        # Every entry of ``out`` is written below: the board by one table lookup straight into
        # its rows ("wrap" keeps the negative codes of seat -1, a finished game, as indexing
        # does), then the vector part copied in.
        out = np.empty((num, self.layout.size), dtype=np.float32)
        board = out[:, : self.board_size].reshape(num, NUM_CELLS, self.cell_features)  # a view
        np.take(self.cell_table, self._cell_codes(state, me), axis=0, out=board, mode="wrap")
        out[:, self.board_size :] = buf
        return out

    # ---------------------------------------------------------------- hidden information
    def resample_hidden(self, state: CairoState, player: int, seed: int) -> CairoState:
        """A copy with everything ``player`` cannot see redrawn consistently.

        Redrawn: the draw pile's order together with the opponents' hand cards not known from
        the display (hand sizes and known cards kept), the opponents' money when it is hidden
        (each colour's total among them kept, so the trays do not change), and every row's
        random key (future chance).
        """
        out = state.copy()
        num, players = state.batch_size, self.num_players
        seeds = np.arange(num, dtype=np.int64) + int(seed)
        out.rng = make_rng(seeds)
        helper = make_rng(seeds + 0x5EED)
        opponents = [q for q in range(players) if q != player]
        for r in range(num):
            unknown = {q: out.hand[r, q] - out.known[r, q] for q in opponents}
            pool = list(out.deck[r, : out.deck_size[r]])
            for q in opponents:
                pool.extend(np.repeat(np.arange(NUM_CARD_TYPES), unknown[q]))
                out.hand[r, q] = out.known[r, q]
            keys = random_bits(helper, np.array([r]), max(len(pool), 1))[0, : len(pool)]
            shuffled = np.asarray(pool, dtype=np.int8)[np.argsort(keys, kind="stable")]
            start = 0
            for q in opponents:
                count = int(unknown[q].sum())
                np.add.at(out.hand[r, q], shuffled[start:start + count], 1)
                start += count
            out.deck[r] = -1
            out.deck[r, : len(shuffled) - start] = shuffled[start:]
            if not self.reveal_money:
                for c in range(NUM_COLOURS):
                    total = int(out.money[r, opponents, c].sum())
                    picks = random_bits(helper, np.array([r]), max(total, 1))[0, :total]
                    share = np.bincount(picks % np.uint64(len(opponents)),
                                        minlength=len(opponents))
                    out.money[r, opponents, c] = share
        return out
