"""What one seat may know (§6, §9.3): the observation encoder (resampling: ``resample.py``).

The observation is egocentric: seats are relabelled relative to the observer (0 = self, then
the next seats clockwise) and the neutral set, in a 2-player game, comes last. It is one flat
float32 vector of named pieces (``Observer.layout``): first the board, cell-major (182 cells ×
features: colour of the tile or entrance on the cell, its relative owner, a main-stall flag
and an entrance flag; tiles and entrances never share a cell, so they share the colour and
owner features), filled by one table lookup per cell; then small per-seat and per-colour
vectors (customers and the pending cell as coordinates); then up to one cell's worth of
zeros ("padding"), which make the whole vector a whole number of cells for the lookup.
Private pieces are the observer's own hand and, with ``reveal_money=False``, the observer's
own money only.
"""

from __future__ import annotations

import functools
import operator
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
from envs.cairo.scoring import tray
from envs.cairo.state import CairoState, Phase, Verb
from envs.core.arrays import last_axis_sums
from envs.core.layout import ObservationLayout, Piece

VP_SCALE = 100.0  # VP are divided by this; 36 expansions × (7 + 5 medal VP) < 5 × 100
MAX_HAND = HAND_LIMIT + DRAWS_PER_ACTION  # a hand holds at most 6 cards during a Draw
MAX_UNITS = MAX_GROUP_SIZE - 1  # D9 starts with at most 6 unpaid tile units
_COPIES = int(CARD_COPIES.max())  # copies of the commonest card type
# (on board, x, y) of every cell, index -1 (off the board) giving zeros.
_CELL_XY = np.zeros((NUM_CELLS + 1, 3), dtype=np.int16)  # int16 like the other sources
_CELL_XY[:NUM_CELLS] = [(1, k % WIDTH, k // WIDTH) for k in range(NUM_CELLS)]


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
        # The one-hot pieces first, then the scaled ones: each kind is then one NumPy call.
        self.vector_layout = ObservationLayout(
            [
                Piece("to_act", (players,), True, 1.0),
                Piece("stage", (4,), True, 1.0),
                Piece("phase", (len(Phase) - 1,), True, 1.0),
                Piece("verb", (len(Verb) - 1,), True, 1.0),
                Piece("pending_colour", (NUM_COLOURS,), True, 1.0),
                Piece("display", (DISPLAY_SLOTS, NUM_CARD_TYPES), True, 1.0),
                Piece("medals", (NUM_COLOURS, 2, players), True, 1.0),
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
                Piece("piles", (1 + NUM_CARD_TYPES,), True, 1.0),  # draw size, discard
                Piece("supply", (NUM_COLOURS,), True, 1.0),
                Piece("unplaced", (players + 1, NUM_COLOURS), True, 1.0),  # + neutral bag
                Piece("group_size", (owners, NUM_COLOURS), True, 1.0),
                Piece("dropped", (players,), True, 1.0),
                Piece("turn", (1,), True, 1.0),
            ]
        )
        self.board_size = NUM_CELLS * self.cell_features
        # A few zeros round the observation up to whole cells, so that one table lookup of
        # whole-cell rows fills the observation's buffer in place, the vector part with zeros
        # that it then overwrites (a lookup into the board part alone writes a strided view,
        # which NumPy fills through a copy).
        padding = -(self.board_size + self.vector_layout.size) % self.cell_features
        self.layout = ObservationLayout([board, *self.vector_layout.pieces.values(),
                                         *[Piece("padding", (padding,), True, 0.0)][:padding]])
        self._row_cells = self.layout.size // self.cell_features  # cells of one observation
        self._vector_part = slice(self.board_size, self.board_size + self.vector_layout.size)
        self._column, one_hot, self._num_one_hot, divisor = self._vector_tables()
        self._divisor = divisor[self._num_one_hot :]
        # Per seat: the one-hot tests' columns and values, the scaled values' columns, apart
        # so that each kind reads a contiguous gather (on a strided slice of one gather, the
        # test and the division cost three to five times as much at B = 1024).
        column, tests = self._source_columns(), self._num_one_hot
        self._seat_columns = [(column[seat, :tests], one_hot[seat, :tests], column[seat, tests:])
                              for seat in range(num_players)]
        self._num_sources = sum(width for _, width in self._source_blocks())

    # ---------------------------------------------------------------- encoding
    # A cell's content code is 30 + tile - entrance (a cell holds a tile or an entrance or
    # neither, never both, and the absent one reads -1): 30 empty, 31 + g an expansion of
    # group g, 29 - g an entrance (group g = owner*6 + colour), and 30 more on a main stall,
    # 61 + g; 91 codes per observer seat. One subtraction makes them.
    _EMPTY, _MAIN, _CODES = 30, 30, 91

    def _cell_table(self) -> np.ndarray:
        """(P * 91, F) float32 features of each (observer seat, cell content code)."""
        players, owners = self.num_players, self.num_owner_slots
        table = np.zeros((players, self._CODES, self.cell_features), dtype=np.float32)
        for me in range(players):
            for group in range(NUM_OWNERS * NUM_COLOURS):
                owner, colour = divmod(group, NUM_COLOURS)
                if owner >= players and owner != NEUTRAL:
                    continue
                relative = owners - 1 if owner == NEUTRAL else (owner - me) % players
                expansion = self._EMPTY + 1 + group
                for code in (expansion, expansion + self._MAIN, self._EMPTY - 1 - group):
                    row = table[me, code]
                    row[colour] = 1.0
                    row[NUM_COLOURS + relative] = 1.0
                    row[-2] = code > expansion  # main stall
                    row[-1] = code < self._EMPTY  # entrance
        return table.reshape(-1, self.cell_features)

    def _cell_codes(self, state: CairoState, me: int | np.ndarray) -> np.ndarray:
        """(B, ``_row_cells``) intp row of ``cell_table`` for every cell, as seen by seats
        ``me`` (B,) or by one seat (an int in [0, P)), then an empty cell's (all zeros) for
        the rest."""
        num = state.batch_size
        code = np.empty((num, self._row_cells), dtype=np.intp)
        # The content in int8 (a third of the cost of int16), then one int16 add of the seat's
        # offset into the index array (an intp add costs three times as much).
        content = np.subtract(state.tile, state.entrance)
        seat = me * self._CODES + self._EMPTY
        np.add(content, np.int16(seat) if isinstance(me, int) else seat.astype(np.int16)[:, None],
               out=code[:, :NUM_CELLS])
        # Main stalls by flat index, one per row and group, in one scatter without first
        # dropping the stalls off the board: cell -1 of row b is the last column of row b - 1
        # (of the last row for row 0), always past the board, and those columns are
        # overwritten after it.
        stalls = state.stall_cell + _row_starts(num, self._row_cells)
        code.reshape(-1)[stalls] += self._MAIN
        code[:, NUM_CELLS:] = self._EMPTY
        return code

    # The vector part is table-driven: the state's small arrays are laid side by side in one
    # float32 "source" row per game (``_sources``), and every vector entry reads one source
    # value ``v`` (at a column that depends on the observer seat) and is either a one-hot
    # test ``v == k`` or a scaled value ``v / divisor``. This keeps the encoder at a fixed few
    # dozen NumPy calls whatever B is. The sources are small integers, exact in float32, and
    # one float32 division of two of them rounds exactly as the float64 division does
    # (double rounding is innocuous when 53 >= 2 * 24 + 2), so the values are those of the
    # float64 formulas of the rules spec cast to float32; "1 - v / d" is read as (d - v) / d
    # and "min(t / m, 1)" as min(t, m) / m, equal in float32 for the integers they take.
    def _source_blocks(self) -> list[tuple[str, int]]:
        """(name, width) of the source columns in the reference order that
        ``_vector_tables`` indexes (``_source_columns`` moves them to the order of
        ``_sources``)."""
        players = self.num_players
        return [("current_player", 1), ("stage", 1), ("phase", 1), ("verb", 1), ("colour", 1),
                ("picks_left", 1), ("pay_units", 1), ("pay_half", 1), ("draws_left", 1),
                ("customer", NUM_COLOURS * 3), ("target", 3),
                ("money", players * NUM_COLOURS), ("trays", NUM_COLOURS), ("vp", players),
                ("hand", players * NUM_CARD_TYPES), ("hand_sizes", players),
                ("known", players * NUM_CARD_TYPES), ("barkers", players),
                ("barker_supply", 1), ("display", DISPLAY_SLOTS), ("deck_size", 1),
                ("discard", NUM_CARD_TYPES), ("supply", NUM_COLOURS), ("medal", NUM_COLOURS * 2),
                ("unplaced", NUM_OWNERS * NUM_COLOURS), ("neutral_bag", NUM_COLOURS),
                ("group_size", NUM_OWNERS * NUM_COLOURS), ("dropped", players), ("turn", 1)]

    # The source rows are laid out by dtype (``_source_columns``): the one-byte arrays (and
    # the stalls off the board), then the int16 ones, then the int32 ones, so that a row of a
    # batch of one is three byte strings joined (``_side_by_side``).
    _ONE_BYTE_SOURCES = ("stage", "phase", "verb", "colour", "picks_left", "pay_units",
                         "pay_half", "draws_left", "known", "display", "deck_size", "discard",
                         "supply", "medal", "neutral_bag", "group_size", "dropped")
    _one_byte_arrays = operator.attrgetter(*_ONE_BYTE_SOURCES)
    _TWO_BYTE_SOURCES = ("money", "trays", "hand_sizes", "barker_supply", "customer", "target",
                         "turn")
    _FOUR_BYTE_SOURCES = ("current_player", "vp")

    def _source_columns(self) -> np.ndarray:
        """(P, V) the ``_column`` table for the layout of ``_sources``."""
        starts, moved = self._source_starts(), []  # old column -> column in the new layout
        for name, width in self._source_blocks():
            moved.extend(range(starts[name], starts[name] + width))
        return np.array(moved, dtype=np.intp)[self._column]

    def _source_starts(self) -> dict[str, int]:
        """First column of each source in the layout of ``_sources``."""
        widths = dict(self._source_blocks())
        order = [*self._ONE_BYTE_SOURCES, "unplaced", "hand", "barkers",
                 *self._TWO_BYTE_SOURCES, *self._FOUR_BYTE_SOURCES]
        assert sorted(order) == sorted(widths)
        starts = np.cumsum([0] + [widths[name] for name in order])
        return {name: int(start) for name, start in zip(order, starts, strict=False)}

    def _sources(self, state: CairoState) -> np.ndarray:
        """(B, S) float32 source rows in the ``_source_columns`` layout."""
        return _side_by_side(
            [[*self._one_byte_arrays(state), state.stall_cell < 0, state.hand, state.barkers],
             [state.money, tray(state), last_axis_sums(state.hand),
              NUM_BARKERS - last_axis_sums(state.barkers), _CELL_XY.take(state.customer, axis=0),
              _CELL_XY.take(state.target, axis=0), np.minimum(state.turn, self.max_turns)],
             [state.current_player, state.vp]],
            state.batch_size, self._num_sources)

    def _vector_tables(self) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        """Per vector entry: source column and one-hot value by observer seat (P, V); how many
        leading entries are one-hot tests; every entry's divisor (V,) (1 for a one-hot one).
        An entry that is always 0 (hidden money) is a value divided by infinity.
        """
        players, owners = self.num_players, self.num_owner_slots
        column, start = {}, 0
        for name, width in self._source_blocks():
            column[name] = start
            start += width
        nan, inf = float("nan"), float("inf")
        rows = []  # per seat: a list of (column, one-hot value, divisor, scaled)
        for me in range(players):
            pieces: dict[str, list[tuple[float, ...]]] = {
                name: [] for name in self.vector_layout.pieces}
            seats = [(me + k) % players for k in range(players)]

            def onehot(piece, name, values, offset=0, _pieces=pieces):
                _pieces[piece].extend((column[name] + offset, float(v), 1.0, 0.0)
                                      for v in values)

            def scaled(piece, name, offsets, divisor, _pieces=pieces):
                _pieces[piece].extend((column[name] + o, nan, float(divisor), 1.0)
                                      for o in offsets)

            onehot("to_act", "current_player", seats)
            onehot("stage", "stage", range(4))
            onehot("phase", "phase", range(len(Phase) - 1))
            onehot("verb", "verb", range(1, len(Verb)))
            onehot("pending_colour", "colour", range(NUM_COLOURS))
            for slot in range(DISPLAY_SLOTS):
                onehot("display", "display", range(NUM_CARD_TYPES), slot)
            for pair in range(NUM_COLOURS * 2):  # (colour, gold/silver) -> relative holder
                onehot("medals", "medal", seats, pair)
            scaled("pending_counts", "picks_left", [0], THREE_CARDS)
            scaled("pending_counts", "pay_units", [0], MAX_UNITS)
            scaled("pending_counts", "pay_half", [0], 1)
            scaled("pending_counts", "draws_left", [0], DRAWS_PER_ACTION)
            for c in range(NUM_COLOURS):  # on board, x, y
                for j, divisor in enumerate((1, WIDTH - 1, HEIGHT - 1)):
                    scaled("customers", "customer", [3 * c + j], divisor)
            for j, divisor in enumerate((1, WIDTH - 1, HEIGHT - 1)):
                scaled("target", "target", [j], divisor)
            for k, seat in enumerate(seats):
                money = range(seat * NUM_COLOURS, (seat + 1) * NUM_COLOURS)
                hidden = k > 0 and not self.reveal_money
                scaled("money", "money", money, inf if hidden else MONEY_PER_COLOUR)
            scaled("trays", "trays", range(NUM_COLOURS), MONEY_PER_COLOUR)
            scaled("vp", "vp", seats, VP_SCALE)
            scaled("hand", "hand", range(me * NUM_CARD_TYPES, (me + 1) * NUM_CARD_TYPES),
                   _COPIES)
            scaled("hand_sizes", "hand_sizes", seats, MAX_HAND)
            for seat in seats[1:]:
                scaled("known", "known",
                       range(seat * NUM_CARD_TYPES, (seat + 1) * NUM_CARD_TYPES), _COPIES)
            scaled("barkers", "barkers", seats, NUM_BARKERS)
            scaled("barkers", "barker_supply", [0], NUM_BARKERS)
            scaled("piles", "deck_size", [0], NUM_CARDS)
            scaled("piles", "discard", range(NUM_CARD_TYPES), _COPIES)
            scaled("supply", "supply", range(NUM_COLOURS), EXPANSIONS_PER_COLOUR)
            for seat in seats:
                scaled("unplaced", "unplaced", range(seat * NUM_COLOURS, (seat + 1) * NUM_COLOURS),
                       1)
            scaled("unplaced", "neutral_bag", range(NUM_COLOURS), 1)
            for seat in seats + ([NEUTRAL] if owners > players else []):
                scaled("group_size", "group_size",
                       range(seat * NUM_COLOURS, (seat + 1) * NUM_COLOURS), MAX_GROUP_SIZE)
            scaled("dropped", "dropped", seats, 1)
            scaled("turn", "turn", [0], self.max_turns)
            for name, piece in self.vector_layout.pieces.items():
                assert len(pieces[name]) == int(np.prod(piece.shape)), name
            rows.append([entry for entries in pieces.values() for entry in entries])
        table = np.array(rows, dtype=np.float64)  # (P, V, 4)
        assert table.shape[1] == self.vector_layout.size
        scaled_entry = table[0, :, 3] > 0
        num_one_hot = int(np.argmax(scaled_entry))
        assert not scaled_entry[:num_one_hot].any() and scaled_entry[num_one_hot:].all()
        return (table[:, :, 0].astype(np.intp), table[:, :, 1].astype(np.float32),
                num_one_hot, table[0, :, 2].astype(np.float32))

    def observe(self, state: CairoState, player: int | np.ndarray) -> np.ndarray:
        """(B, size) float32 observation of ``player`` (int or (B,) ints), see the module doc."""
        num = state.batch_size
        me = self._seats(player, num)
        # The board by one table lookup, then the vector part over the lookup's zeros.
        out = np.take(self.cell_table, self._cell_codes(state, me), axis=0, mode="clip")
        out = out.reshape(num, self.layout.size)
        source, vector = self._sources(state), out[:, self._vector_part]
        if isinstance(me, int):
            self._vector(source, me, vector)
            return out
        for seat in range(self.num_players):  # the rows of each seat read the same columns
            rows = np.flatnonzero(me == seat)
            if rows.size:
                vector[rows] = self._vector(source[rows], seat)
        return out

    def _seats(self, player: int | np.ndarray, num: int) -> int | np.ndarray:
        """The observer seats in [0, P) (seat p + P sees what seat p sees): a Python int when
        one seat observes every row (a NumPy scalar would cost a call wherever it meets an
        array), else (num,) int64."""
        if isinstance(player, int):  # the common case first: the AEC env's seat
            return int(player) % self.num_players
        if np.size(player) == 1:
            return int(np.reshape(player, -1)[0] if np.ndim(player) else player
                       ) % self.num_players
        me = np.asarray(player, dtype=np.int64) % self.num_players
        return me if me.shape == (num,) else np.broadcast_to(me, (num,))

    def _vector(self, source: np.ndarray, seat: int, out: np.ndarray | None = None
                ) -> np.ndarray:
        """The vector part (R, V) seen by ``seat`` from source rows (R, S) (one-hot tests, then
        scaled values, see ``_vector_tables``), into ``out`` when given."""
        if out is None:
            out = np.empty((len(source), self.vector_layout.size), dtype=np.float32)
        # ``take`` gathers C-ordered rows (``source[:, columns]`` F-ordered ones, on which the
        # test and the division cost three to five times as much at B = 1024).
        one_hot_column, one_hot, scaled_column = self._seat_columns[seat]
        tests = self._num_one_hot
        np.equal(source.take(one_hot_column, axis=1), one_hot, out=out[:, :tests])
        np.divide(source.take(scaled_column, axis=1), self._divisor, out=out[:, tests:])
        return out


# Constant arrays of a batch size, made once per size (B seldom changes) and never written.
@functools.lru_cache(maxsize=8)
def _row_starts(num: int, row_cells: int) -> np.ndarray:
    """(num, 1, 1) flat index of each row's first cell in an array of ``row_cells`` cells a
    row, shaped for ``stall_cell``."""
    starts = np.arange(0, num * row_cells, row_cells)[:, None, None]
    starts.flags.writeable = False
    return starts


def _side_by_side(groups: list[list[np.ndarray]], num: int, width: int) -> np.ndarray:
    """(num, width) float32: each row the rows of the arrays of ``groups`` (arrays of num
    rows, of one dtype in each group but for bools among int8) flattened side by side."""
    if num == 1:
        # One row: each group's bytes joined (a tenth of the cost of a concatenate, which
        # costs about 0.3 us an array), read back in the group's dtype. A non-contiguous array
        # or an unexpected dtype (the sizes would not add up) takes the general way.
        try:
            parts = [np.frombuffer(b"".join(group), group[0].dtype) for group in groups]
        except BufferError:
            parts = []
        if sum(map(len, parts)) == width:
            return np.concatenate(parts, dtype=np.float32).reshape(1, width)
    return np.concatenate([block.reshape(num, -1) for group in groups for block in group],
                          axis=1, dtype=np.float32)
