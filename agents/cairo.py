"""Scripted baselines of Kairo (``cairo``), from the rules spec's §11 "Scripted baseline ideas".

    import agents
    agent = agents.make_agent("greedy", "cairo", num_players=3, seed=0)

Three strategies, each answering every decision of the multi-step flow (§9.2):

* ``greedy`` (``GreedyVPBuilderAgent``): at the start of a turn it values every legal main
  action in VP-equivalents and takes the best one. An expansion is worth its size ``N`` plus
  the medal VP it gains, a little less when it needs 2:1 coins, a joker fee or three cards; a
  lure is worth the coins it brings, a new stall a fixed 1.5 (+0.5 with its customer on the
  board); below 1 it draws. In the final phase it builds while it can, largest VP first.
* ``economist`` (``EconomistAgent``), "cash then build": it expands a colour only with at least
  ``N`` coins of it (never 2:1 in the main phase), otherwise lures customers to its own groups
  of two or more tiles, places its stalls early, and keeps four useful cards in hand.
* ``medal_hunter`` (``MedalHunterAgent``): the greedy valuation with medal swings counted
  twice (the medals score again at the end), 2:1 coins spent only to win a medal, coins given
  to opponents counted double, new stalls in colours whose medals are unclaimed, expansions
  that wall in an opponent's unexpanded stall preferred, and an eye on the end trigger: it
  does not end the game while it trails on the public score, and hurries the end while it
  leads.

Two deliberate extensions of §11, both for all three: a coin is worth more than the 1/3 VP it
scores at the end when it brings an expansion of its colour within reach (otherwise greedy
luring to one-tile groups would never pay and the agent would only draw), and the sub-decisions
§11 leaves open are answered the same way by all three (see ``CairoScriptedAgent``): cheap
card modes first, cells with room to grow, the least useful card discarded, fees and 2:1
coins paid in the colours the agent has no use for.

Information: an agent reads the public board and counts, its own hand and money, and the other
seats' money only when the game's ``reveal_money`` option is on (otherwise it estimates them
from the public trays). It never reads other hands or the draw pile (``deck``); the legal
mask it starts from reads only what the acting seat may know. Ties are broken by a tiny noise
from the agent's own seeded generator. All work is vectorised over the rows the seat is to
act in; the Python loops run over the six colours at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from agents.base import NEG, Handler, ScoredAgent
from envs.cairo.board import NEIGHBOURS, OUTSIDE, Board, board_of, colour_planes, walk_distances
from envs.cairo.data import (
    CARD_COVER,
    GOLD,
    MARKET,
    MAX_GROUP_SIZE,
    MEDAL_VP,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    NUM_SECTIONS,
    NUM_STANDARD_TYPES,
    PURPLE,
    RESTAURANT,
    SECTION,
    SILVER,
    WIDTH,
)
from envs.cairo.rules import queries
from envs.cairo.state import ACTIONS, CairoState, Phase, Stage, Verb
from envs.core.game import Game

COIN_VP = 1.0 / 3.0  # a coin left at the end scores 1/3 VP (§7.2)
HAND_LIMIT = 4

_AREA = np.stack([RESTAURANT if c == PURPLE else MARKET for c in range(NUM_COLOURS)])  # (6, 182)
_X = np.arange(NUM_CELLS) % WIDTH
_Y = np.arange(NUM_CELLS) // WIDTH
# (183, 183) Manhattan distance between cells; the extra index (OUTSIDE, or -1 for a customer
# off the board) is "far" from everything.
_FAR = 30
MANHATTAN = np.full((NUM_CELLS + 1, NUM_CELLS + 1), _FAR, dtype=np.int16)
MANHATTAN[:NUM_CELLS, :NUM_CELLS] = np.abs(_X[:, None] - _X[None, :]) + np.abs(
    _Y[:, None] - _Y[None, :]
)
_SECTION_ONEHOT = np.eye(NUM_SECTIONS, dtype=np.float64)[SECTION]  # (182, 9)
_CARD_COVER = CARD_COVER.astype(np.float64)  # (15, 9)
_JOKER = np.arange(NUM_CARD_TYPES) >= NUM_STANDARD_TYPES  # (15,)


def _neighbours(mask: np.ndarray) -> np.ndarray:
    """(R, 182) -> (R, 182, 4): the value at the N, E, S, W neighbour (0/False off the grid)."""
    padded = np.concatenate([mask, np.zeros((mask.shape[0], 1), dtype=mask.dtype)], axis=1)
    return padded[:, NEIGHBOURS]


def _put(scores: np.ndarray, mask: np.ndarray, rows: np.ndarray, start: int,
         values: np.ndarray) -> None:
    """Write ``values`` (n, k) into the action block at ``start`` of ``rows``, legal ones only."""
    block = slice(start, start + values.shape[1])
    scores[rows, block] = np.where(mask[rows, block], values, NEG)


class _View:
    """What the acting seat knows in the rows it is to act in, computed once per call.

    Every array has the selected rows first (R rows: ``idx`` of the full batch).
    """

    def __init__(self, game: Game, state: CairoState, idx: np.ndarray):
        self.game, self.state, self.idx = game, state, idx
        self.players = game.num_players
        self.seat = state.current_player[idx].astype(np.intp)  # (R,)
        rows = np.arange(idx.size)
        self.rows = rows
        self.hand = state.hand[idx, self.seat].astype(np.int64)  # (R, 15) own hand
        self.money = state.money[idx, self.seat].astype(np.int64)  # (R, 6) own money
        self.sizes = state.group_size[idx].astype(np.int64)  # (R, 5, 6) public
        self.size = self.sizes[rows, self.seat]  # (R, 6) own groups
        self.supply = state.supply[idx].astype(np.int64)  # (R, 6)
        self.medal = state.medal[idx].astype(np.int64)  # (R, 6, 2)
        self.customer = state.customer[idx].astype(np.intp)  # (R, 6), -1 off the board
        self.barkers = state.barkers[idx, self.seat].astype(np.int64)  # (R,)
        # The trays are public (§6); their sum is what the seats hold together.
        self.tray = MONEY_PER_COLOUR - state.money[idx].sum(axis=1).astype(np.int64)  # (R, 6)
        self.final = state.stage[idx] == Stage.FINAL  # (R,)
        self.cost = self.size + 1  # (R, 6) price (and VP) of the next expansion
        self.growable = (self.size > 0) & (self.supply > 0) & (self.size < MAX_GROUP_SIZE)
        self._lure_costs_of: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    # ---------------------------------------------------------------- board facts
    # The view is one call's (of one or several agents sharing it), so what it works out
    # once stays true: the facts below are cached properties.
    @cached_property
    def board(self) -> Board:
        return board_of(self.state, self.idx)

    @cached_property
    def expansion_cells(self) -> np.ndarray:
        """(R, 6, 182) bool: cells next to the own group where the board allows an expansion.

        §5.4 preconditions 2-4 only (no cards, money or reachability): where the group can
        still grow, which is what the cards in hand should cover.
        """
        codes = queries.growth_codes(self.game, self.state, self.idx, self.seat)
        return colour_planes(codes) & self.growable[:, :, None]

    @cached_property
    def expansion_sections(self) -> np.ndarray:
        """(R, 6, 9) bool: the section holds a cell where the colour's group can grow."""
        return (self.expansion_cells.astype(np.float64) @ _SECTION_ONEHOT) > 0

    @cached_property
    def section_need(self) -> np.ndarray:
        """(R, 9) how much a card of each section is worth to the seat now."""
        ready = 1.0 + 0.5 * (self.money >= self.cost)  # (R, 6) colours near an expansion
        need = (self.expansion_sections * ready[:, :, None]).sum(axis=1)
        return need + 0.1

    def hand_cover(self) -> np.ndarray:
        """(R, 9) number of own cards covering each section (standard or joker)."""
        return self.hand.astype(np.float64) @ _CARD_COVER

    def card_gain(self) -> np.ndarray:
        """(R, 15) value of adding one card of each type to the hand."""
        need = self.section_need
        fresh = need * np.where(self.hand_cover() > 0, 0.3, 1.0)  # (R, 9)
        per_section = fresh[:, None, :] * _CARD_COVER[None]  # (R, 15, 9)
        return per_section.max(axis=2) + 0.05 * per_section.sum(axis=2)

    @cached_property
    def card_keep(self) -> np.ndarray:
        """(R, 15) value of keeping one card of each type (copies share their sections)."""
        share = self.section_need / np.maximum(self.hand_cover(), 1.0)  # (R, 9)
        keep = (share[:, None, :] * _CARD_COVER[None]).max(axis=2)
        return keep + 0.05 * _JOKER

    def colour_use(self) -> np.ndarray:
        """(R, 6) how much the seat needs coins of each colour (0: spend these first)."""
        short = np.maximum(self.cost - self.money, 0)
        return self.growable * (1.0 + 0.2 * np.minimum(short, 3))

    # ---------------------------------------------------------------- scores
    def estimated_scores(self) -> np.ndarray:
        """(R, P) public estimate of the final score: VP, held medals and coins / 3.

        Other seats' coins are read only when the game reveals money; otherwise each gets an
        equal share of what the trays say the other seats hold together.
        """
        state, idx = self.state, self.idx
        vp = state.vp[idx].astype(np.float64)
        seats = np.arange(self.players)
        for kind in (GOLD, SILVER):
            vp += MEDAL_VP[kind] * (self.medal[:, :, kind, None] == seats).sum(axis=1)
        if self.game.options["reveal_money"]:
            coins = state.money[idx].sum(axis=2).astype(np.float64)
        else:
            held = (MONEY_PER_COLOUR - self.tray).sum(axis=1) - self.money.sum(axis=1)
            coins = np.repeat((held / max(self.players - 1, 1))[:, None], self.players, axis=1)
            coins[self.rows, self.seat] = self.money.sum(axis=1)
        return vp + np.floor(coins / 3.0)

    @cached_property
    def medal_gain(self) -> tuple[np.ndarray, np.ndarray]:
        """(R, 6) medal VP an expansion of each colour gains now, and the VP it takes away
        from the other seats (§5.5)."""
        others = self.sizes[:, : self.players].copy()
        others[self.rows, self.seat] = -1
        largest = others.max(axis=1)  # (R, 6)
        gold = (self.cost > largest) & (self.medal[:, :, GOLD] != self.seat[:, None])
        silver = (self.cost >= largest) & (self.medal[:, :, SILVER] != self.seat[:, None])
        gain = MEDAL_VP[GOLD] * gold + MEDAL_VP[SILVER] * silver
        lost = (MEDAL_VP[GOLD] * (gold & (self.medal[:, :, GOLD] >= 0))
                + MEDAL_VP[SILVER] * (silver & (self.medal[:, :, SILVER] >= 0)))
        return gain.astype(np.float64), lost.astype(np.float64)

    def expansion_card_modes(self) -> tuple[np.ndarray, np.ndarray]:
        """(R, 6) bool each: some growth cell is covered by a standard card / by a joker."""
        sections = self.expansion_sections
        standard = (sections & (self.hand[:, None, :NUM_STANDARD_TYPES] > 0)).any(axis=2)
        jokers = (sections & queries.joker_sections(self.hand)[:, None, :]).any(axis=2)
        return standard, jokers

    def ends_game(self) -> np.ndarray:
        """(R, 6) bool: expanding the colour now triggers the final phase (§7.1)."""
        out = np.zeros((self.idx.size, NUM_COLOURS), dtype=bool)
        for c in range(NUM_COLOURS):
            after = self.supply.copy()
            after[:, c] -= 1
            out[:, c] = (after == 0).any(axis=1) | ((after == 1).sum(axis=1) >= 2)
        return out

    # ---------------------------------------------------------------- lures
    def coin_value(self, colour: np.ndarray, coins: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Value of ``coins`` (n, k) coins of ``colour`` (n,) to the seat in ``rows`` (n,).

        Coins the next expansion of the colour still needs are worth 0.55 each, the rest the
        1/3 VP they score at the end; bringing the expansion within reach without 2:1 coins
        adds 0.8.
        """
        held = self.money[rows, colour][:, None]
        cost = self.cost[rows, colour][:, None]
        growable = self.growable[rows, colour][:, None]
        needed = np.where(growable, np.clip(cost - held, 0, None), 0)
        useful = np.minimum(coins, needed)
        enables = growable & (held < cost) & (held + coins >= cost)
        return 0.55 * useful + COIN_VP * (coins - useful) + 0.8 * enables

    def lure_slots(self, rows: np.ndarray, colour: np.ndarray, cost: np.ndarray,
                   legal: np.ndarray, opponent_weight: float, barker_weight: float
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Value of luring the customer of ``colour`` to each owner slot's entrance.

        Args:
            rows: (n,) view rows.
            colour: (n,) customer colour.
            cost: (n, 5) barkers needed per owner slot.
            legal: (n, 5) bool, a legal target for the seat.
            opponent_weight: VP lost per coin an opponent receives.
            barker_weight: VP lost per barker played.

        Returns:
            ``values`` (n, 5) (NEG where not legal) and ``own_coins`` (n, 5) coins received.
        """
        seat = self.seat[rows]
        sizes = self.sizes[rows, :, colour]  # (n, 5)
        tray = self.tray[rows, colour][:, None]
        own = np.arange(NUM_OWNERS)[None, :] == seat[:, None]
        mine = np.minimum(np.where(own, sizes, 1), tray)
        theirs = np.where(own | (np.arange(NUM_OWNERS) == NEUTRAL)[None, :], 0,
                          np.minimum(sizes, tray - mine))
        values = (self.coin_value(colour, mine, rows) - opponent_weight * theirs
                  - barker_weight * cost)
        return np.where(legal, values, NEG), mine

    def lure_table(self, rows: np.ndarray, opponent_weight: float, barker_weight: float,
                   lure_mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(n, 6) best lure value per customer colour and (n, 6) size of the own group it
        reaches (0 when the best target is not the seat's own), NEG where no target.

        ``lure_mask`` (n, 6) bool limits the work to the colours that may be lured."""
        n = rows.size
        cost, legal = self.lure_costs(rows, lure_mask)
        # All colours in one call: one (row, colour) pair per line, n * 6 lines.
        values, _ = self.lure_slots(np.repeat(rows, NUM_COLOURS),
                                    np.tile(np.arange(NUM_COLOURS), n),
                                    cost.reshape(-1, NUM_OWNERS), legal.reshape(-1, NUM_OWNERS),
                                    opponent_weight, barker_weight)
        values = values.reshape(n, NUM_COLOURS, NUM_OWNERS)
        best = values.max(axis=2)
        mine = values.argmax(axis=2) == self.seat[rows][:, None]
        own_size = np.where(mine & (best > NEG / 2), self.size[rows], 0).astype(np.float64)
        return best, own_size

    def lure_costs(self, rows: np.ndarray, lure_mask: np.ndarray | None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """(n, 6, 5) barkers a lure of each customer colour to each owner slot costs, and
        whether it is legal for the seat; the same for every strategy, so computed once per
        (rows, mask) in a view that agents share."""
        key = (rows.tobytes(), None if lure_mask is None else lure_mask.tobytes())
        if key not in self._lure_costs_of:
            self._lure_costs_of[key] = self._lure_costs(rows, lure_mask)
        return self._lure_costs_of[key]

    def _lure_costs(self, rows: np.ndarray, lure_mask: np.ndarray | None
                    ) -> tuple[np.ndarray, np.ndarray]:
        n = rows.size
        idx = self.idx[rows]
        state = self.state
        cells = state.entrance_cell[idx].astype(np.intp)  # (n, 5, 6)
        occupied = np.zeros((n, NUM_CELLS + 1), dtype=bool)
        on_board = self.customer[rows] >= 0
        r_on, c_on = np.nonzero(on_board)
        occupied[r_on, self.customer[rows][r_on, c_on]] = True
        valid = (cells >= 0) & ~np.take_along_axis(
            occupied, np.where(cells >= 0, cells, NUM_CELLS).reshape(n, -1), axis=1
        ).reshape(cells.shape)
        valid &= on_board[:, None, :]
        if lure_mask is not None:
            valid &= lure_mask[:, None, :]
        # Distances decide barker costs only where a customer has two or more candidates:
        # one distance search per such (row, colour).
        goal_valid = np.moveaxis(valid, 2, 1)  # (n, 6, 5)
        dist = np.where(goal_valid, 0, -1).astype(np.int32)
        r, c = np.nonzero(goal_valid.sum(axis=2) >= 2)
        if r.size:
            walk = MARKET & (state.tile[idx[r]] < 0)
            dist[r, c] = walk_distances(walk, self.customer[rows][r, c],
                                        np.maximum(cells[r, :, c], 0), goal_valid[r, c])
        ok = np.moveaxis(valid, 2, 1) & (dist >= 0)  # (n, 6, 5)
        nearer = ok[:, :, None, :] & (dist[:, :, None, :] < dist[:, :, :, None])
        cost = nearer.sum(axis=3)  # (n, 6, 5)
        legal = ok & (cost <= self.barkers[rows][:, None, None])
        return cost, legal


class CairoScriptedAgent(ScoredAgent):
    """Shared machinery of the Kairo baselines: one decision per call, for a batch of rows.

    The main action (``_turn``) is each strategy's own; the other decisions of the flow are
    answered here, the same way for every strategy unless a subclass says otherwise:

    * setup colour: a colour whose customer is on the board and has few stalls of its colour;
    * stall cell and entrance: a section paid by a standard card (then a joker), the entrance
      close to the customer of the colour, room around the tile to grow;
    * expansion cell: the same card preference, then room to keep growing;
    * card mode: standard, then joker, then three cards; three-card picks and hand-limit
      discards: the card least useful for the own groups' growth (copies first);
    * joker fee and 2:1 coins: colours of no use to the seat, richest first; the group's own
      colour whenever it may pay;
    * lure target: the entrance the turn decision valued highest;
    * draw sources: a display card that covers a section where an own group can grow and the
      hand does not cover yet, else (per strategy) a barker, else the deck.
    """

    # Lure valuation: VP lost per coin an opponent receives, per barker played.
    opponent_weight = 0.25
    barker_weight = 0.3
    # Draw sources: a barker's value when holding none / some; the deck's value.
    barker_when_none = 0.6
    barker_when_some = 0.1
    deck_value = 0.35
    # A new stall of a colour nobody has expanded yet opens a race for both its medals.
    fresh_colour_bonus = 0.0
    # Expansions that trigger the final phase: bonus while leading, penalty while trailing.
    end_lead = 0.0
    end_behind = 0.0

    view_key = _View

    def _view(self, game: Game, state: CairoState, idx: np.ndarray) -> _View:
        return _View(game, state, idx)

    def _handlers(self) -> Sequence[tuple[int, Handler]]:
        return ((Phase.PLACE_COLOUR, self._place_colour),
                (Phase.STALL_CELL, self._stall_cell),
                (Phase.STALL_DIR, self._stall_dir),
                (Phase.TURN, self._turn),
                (Phase.EXPAND_CELL, self._expand_cell),
                (Phase.CARD_MODE, self._card_mode),
                (Phase.THREE_PICK, self._discard),
                (Phase.FEE_COLOUR, self._fee_colour),
                (Phase.PAYMENT, self._payment),
                (Phase.LURE_TARGET, self._lure_target),
                (Phase.DRAW_SOURCE, self._draw_source),
                (Phase.DISCARD, self._discard))

    # ---------------------------------------------------------------- the main action
    def _turn(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        raise NotImplementedError

    def _put_turn(self, view: _View, rows: np.ndarray, mask: np.ndarray, scores: np.ndarray,
                  expand: np.ndarray, lure: np.ndarray, new: np.ndarray, move: np.ndarray,
                  draw: np.ndarray) -> None:
        """Write the turn values (n, 6) / (n,) into the scores; PASS is worth 0."""
        _put(scores, mask, rows, ACTIONS.NEW.start, new)
        _put(scores, mask, rows, ACTIONS.EXPAND.start, expand)
        _put(scores, mask, rows, ACTIONS.MOVE.start, move)
        _put(scores, mask, rows, ACTIONS.LURE.start, lure)
        _put(scores, mask, rows, ACTIONS.DRAW.start, draw[:, None])
        _put(scores, mask, rows, ACTIONS.PASS.start, np.zeros((rows.size, 1)))

    def _draw_value(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n,) value of drawing: 1 (the §11 threshold) with room in hand, else 0.55."""
        hand = view.hand[rows].sum(axis=1)
        return np.where(hand < HAND_LIMIT, 1.0, 0.55)

    def _new_stall_value(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 6) §11: 1.5, +0.5 with the customer of the colour on the board; little when
        the colour's expansions are nearly gone."""
        near = view.customer[rows] >= 0
        fresh = view.medal[rows, :, GOLD] < 0
        value = 1.5 + 0.5 * near + self.fresh_colour_bonus * fresh
        return np.where(view.supply[rows] >= 2, value, 0.3)

    def _end_adjustment(self, view: _View, rows: np.ndarray,
                        expand: np.ndarray) -> np.ndarray:
        """(n, 6) added to expansions that would trigger the final phase: ``end_lead`` while
        the seat would lead the public score estimate after it, ``end_behind`` otherwise."""
        if not (self.end_lead or self.end_behind):
            return np.zeros_like(expand)
        scores = view.estimated_scores()[rows]  # (n, P)
        n = rows.size
        mine = scores[np.arange(n), view.seat[rows]]
        others = scores.copy()
        others[np.arange(n), view.seat[rows]] = -np.inf
        lead = (mine[:, None] + expand) - others.max(axis=1)[:, None]  # after this expansion
        ends = view.ends_game()[rows]
        return np.where(ends, np.where(lead > 0, self.end_lead, self.end_behind), 0.0)

    # ---------------------------------------------------------------- setup
    def _place_colour(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                      scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        stalls = (state.stall_cell[idx] >= 0).sum(axis=1)  # (n, 6) on the board, any owner
        value = 1.0 * (view.customer[rows] >= 0) - 0.4 * stalls
        _put(scores, mask, rows, ACTIONS.NEW.start, value)

    def _stall_cell(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                    scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        n = rows.size
        colour = state.colour[idx].astype(np.intp)
        options = queries.stall_options(view.game, state, idx)  # (n, 182, 4)
        entrance = NEIGHBOURS  # (182, 4)
        target = view.customer[rows, colour]  # (n,)
        dist = MANHATTAN[np.where(target >= 0, target, NUM_CELLS)][:, entrance]  # (n, 182, 4)
        dist = np.where(options, dist, _FAR).min(axis=2).astype(np.float64)
        free = view.board.free[rows] & _AREA[colour]
        room = _neighbours(free).sum(axis=2)
        hand = view.hand[rows]
        standard = hand[:, :NUM_STANDARD_TYPES][:, SECTION] > 0
        joker = queries.joker_sections(hand)[:, SECTION]
        paid = np.where(state.verb[idx] == Verb.PLACE, 0, 1)[:, None]
        value = paid * (2.0 * standard + 1.0 * (joker & ~standard)) - 0.25 * dist + 0.3 * room
        _put(scores, mask, rows, ACTIONS.CELL.start, value.reshape(n, NUM_CELLS))

    def _stall_dir(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                   scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        colour = state.colour[idx].astype(np.intp)
        entrance = NEIGHBOURS[state.target[idx].astype(np.intp)]  # (n, 4)
        target = view.customer[rows, colour]
        dist = MANHATTAN[np.where(target >= 0, target, NUM_CELLS)[:, None], entrance]
        # An entrance on a free cell next to the tile takes a cell the group could grow into.
        _put(scores, mask, rows, ACTIONS.DIR.start, -dist.astype(np.float64))

    # ---------------------------------------------------------------- builds
    def _expand_cell_value(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 182) preference among expansion cells: card cost, then room to grow."""
        state, idx = view.state, view.idx[rows]
        colour = state.colour[idx].astype(np.intp)
        hand = view.hand[rows]
        standard = hand[:, :NUM_STANDARD_TYPES][:, SECTION] > 0
        joker = queries.joker_sections(hand)[:, SECTION]
        grow = view.expansion_cells[rows, colour]  # (n, 182)
        room = _neighbours(grow).sum(axis=2)
        return 2.0 * standard + 1.0 * (joker & ~standard) + 0.15 * room

    def _expand_cell(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                     scores: np.ndarray) -> None:
        _put(scores, mask, rows, ACTIONS.CELL.start, self._expand_cell_value(view, rows))

    def _card_mode(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                   scores: np.ndarray) -> None:
        keep = view.card_keep[rows]  # (n, 15)
        value = np.concatenate([np.where(_JOKER, 1.0, 3.0)[None, :] - 0.1 * keep,
                                np.zeros((rows.size, 1))], axis=1)
        _put(scores, mask, rows, ACTIONS.CARD.start, value)

    def _discard(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                 scores: np.ndarray) -> None:
        _put(scores, mask, rows, ACTIONS.CARD.start, -view.card_keep[rows])

    def _coin_order(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 6) preference among colours to pay with: useless and plentiful first."""
        return -view.colour_use()[rows] + 0.02 * view.money[rows]

    def _fee_colour(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                    scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        value = self._coin_order(view, rows)
        expanding = state.verb[idx] == Verb.EXPAND
        own = np.arange(NUM_COLOURS)[None, :] == state.colour[idx][:, None]
        value = value - 2.0 * (own & expanding[:, None])
        _put(scores, mask, rows, ACTIONS.COLOUR.start, value)

    def _payment(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                 scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        own = np.arange(NUM_COLOURS)[None, :] == state.colour[idx][:, None]
        value = np.where(own, 5.0, self._coin_order(view, rows))
        _put(scores, mask, rows, ACTIONS.COLOUR.start, value)

    # ---------------------------------------------------------------- lure and draw
    def _lure_target(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                     scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        cells, legal, cost = queries.lure_options(view.game, state, idx)
        colour = state.colour[idx].astype(np.intp)
        values, _ = view.lure_slots(rows, colour, cost, legal, self.opponent_weight,
                                    self.barker_weight)
        values = values + self._lure_extra(view, rows, colour, cells, legal)
        block = np.full((rows.size, NUM_CELLS), NEG)
        r, slot = np.nonzero(legal)
        block[r, cells[r, slot]] = values[r, slot]
        _put(scores, mask, rows, ACTIONS.CELL.start, block)

    def _lure_extra(self, view: _View, rows: np.ndarray, colour: np.ndarray,
                    cells: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """(n, 5) strategy-specific bonus per owner slot of a lure target (none here)."""
        return np.zeros(cells.shape)

    def _draw_source(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                     scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        display = state.display[idx].astype(np.intp)  # (n, 4), -1 empty
        gain = view.card_gain()[rows]  # (n, 15)
        shown = np.where(display >= 0,
                         np.take_along_axis(gain, np.maximum(display, 0), axis=1), NEG)
        full = view.hand[rows].sum(axis=1) >= HAND_LIMIT
        # With a full hand a drawn card only replaces the least useful one.
        shown = shown - np.where(full, view.card_keep[rows].min(axis=1), 0.0)[:, None]
        deck = np.full((rows.size, 1), self.deck_value)
        barker = np.where(view.barkers[rows] == 0, self.barker_when_none,
                          self.barker_when_some)[:, None]
        _put(scores, mask, rows, ACTIONS.DISPLAY.start, np.concatenate([shown, deck, barker],
                                                                         axis=1))


class GreedyVPBuilderAgent(CairoScriptedAgent):
    """§11, idea 1: Greedy VP builder: the best-valued legal main action, drawing below 1 VP."""

    name = "greedy"
    medal_weight = 1.0
    short_penalty = 0.35  # VP lost per tile of an expansion paid 2:1
    short_penalty_medal = 0.35  # the same when the expansion gains a medal

    def _expansion_value(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 6) VP-equivalent of expanding each colour now (legality is the mask's)."""
        cost = view.cost[rows].astype(np.float64)
        gain, lost = view.medal_gain
        short = np.maximum(cost - view.money[rows], 0)  # tiles paid 2:1
        standard, joker = view.expansion_card_modes()
        card_penalty = np.where(standard[rows], 0.0, np.where(joker[rows], 0.3, 0.8))
        short_penalty = np.where(gain[rows] > 0, self.short_penalty_medal, self.short_penalty)
        return (cost + self.medal_weight * gain[rows] - short_penalty * short - card_penalty
                + self._medal_swing(gain[rows], lost[rows]))

    def _medal_swing(self, gain: np.ndarray, lost: np.ndarray) -> np.ndarray:
        return np.zeros_like(gain)

    def _turn(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        final = view.final[rows]
        expand = self._expansion_value(view, rows)
        expand = expand + self._end_adjustment(view, rows, expand)
        lure, _ = view.lure_table(rows, self.opponent_weight, self.barker_weight,
                                  mask[rows, ACTIONS.LURE.start:ACTIONS.LURE.stop])
        new = self._new_stall_value(view, rows)
        move = np.full((rows.size, NUM_COLOURS), 0.9)
        draw = self._draw_value(view, rows)
        # Final phase: every expansion gains VP, so build while possible, largest first;
        # a new or moved stall gains nothing there, so pass instead.
        expand = np.where(final[:, None], 100.0 + expand, expand)
        new = np.where(final[:, None], -1.0, new)
        move = np.where(final[:, None], -1.0, move)
        self._put_turn(view, rows, mask, scores, expand, lure, new, move, draw)


class EconomistAgent(CairoScriptedAgent):
    """§11, idea 2: Economist, "cash then build": coins first, expansions only paid in full."""

    name = "economist"
    barker_when_none = 0.45
    opponent_weight = 0.4

    def _turn(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        final = view.final[rows]
        cost = view.cost[rows].astype(np.float64)
        gain, _ = view.medal_gain
        rich = view.money[rows] >= view.cost[rows]
        # Build: in the main phase only a colour held in full (never 2:1), largest first;
        # in the final phase any expansion, since every one gains VP.
        expand = 10.0 + cost + gain[rows]
        expand = expand + self._end_adjustment(view, rows, cost + gain[rows])
        expand = np.where(rich | final[:, None], expand, NEG)
        expand = np.where(final[:, None], 100.0 + expand, expand)
        # Cash: lure to an own group of two or more tiles (at most one barker per 2 coins),
        # then to a one-tile group, and other seats' stalls only as a last resort.
        value, own_size = view.lure_table(
            rows, self.opponent_weight, self.barker_weight,
            mask[rows, ACTIONS.LURE.start:ACTIONS.LURE.stop])
        lure = np.where(own_size >= 2, 5.0 + own_size,
                        np.where(own_size == 1, 2.0, np.minimum(value, 0.3)))
        lure = np.where(value > NEG / 2, lure, NEG)
        # Stalls early: every unplaced stall goes down before the main phase is old.
        early = view.state.turn[view.idx[rows]] < 12 * view.players
        new = np.where(early[:, None], 4.0, 0.5) * (view.supply[rows] >= 2)
        new = np.where(final[:, None], -1.0, new)
        move = np.where(final[:, None], -1.0, 0.9)
        move = np.broadcast_to(move, (rows.size, NUM_COLOURS))
        hand = view.hand[rows].sum(axis=1)
        draw = np.where(hand <= 2, 3.0, np.where(hand < HAND_LIMIT, 1.0, 0.5))
        self._put_turn(view, rows, mask, scores, expand, lure, new, move, draw)

    def _place_colour(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                      scores: np.ndarray) -> None:
        """Near the customer currently farthest from any entrance of its colour."""
        state, idx = view.state, view.idx[rows]
        entrances = state.entrance_cell[idx].astype(np.intp)  # (n, 5, 6)
        target = np.where(view.customer[rows] >= 0, view.customer[rows], NUM_CELLS)
        dist = MANHATTAN[target[:, None, :], np.where(entrances >= 0, entrances, NUM_CELLS)]
        nearest = dist.min(axis=1)  # (n, 6), _FAR when none or off the board
        value = np.where(view.customer[rows] >= 0, np.minimum(nearest, 12) / 6.0, -1.0)
        _put(scores, mask, rows, ACTIONS.NEW.start, value)


class MedalHunterAgent(GreedyVPBuilderAgent):
    """§11, idea 3: Medal hunter / blocker: greedy with medal swings doubled, blocking expansions,
    and the end trigger pulled only while leading."""

    name = "medal_hunter"
    medal_weight = 2.0
    end_lead = 2.0
    end_behind = -6.0
    # 2:1 coins only to win a medal; coins to opponents count double; new stalls in
    # colours whose medals are still in the supply.
    short_penalty = 3.0
    opponent_weight = 0.5
    fresh_colour_bonus = 1.0

    def _medal_swing(self, gain: np.ndarray, lost: np.ndarray) -> np.ndarray:
        # A medal taken from an opponent also costs them its end-of-game value.
        return 0.5 * lost

    def _expand_cell_value(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """Greedy's cell preference, plus walling in an opponent's unexpanded stall."""
        value = super()._expand_cell_value(view, rows)
        state, idx = view.state, view.idx[rows]
        n = rows.size
        seat = view.seat[rows]
        stalls = state.stall_cell[idx, : view.players].astype(np.intp)  # (n, P, 6)
        lonely = (view.sizes[rows, : view.players] == 1) & (stalls >= 0)
        lonely &= np.arange(view.players)[None, :, None] != seat[:, None, None]
        free = view.board.free[rows]
        free_pad = np.concatenate([free, np.zeros((n, 1), dtype=bool)], axis=1)
        around = NEIGHBOURS[np.maximum(stalls, 0)]  # (n, P, 6, 4)
        open_cells = np.take_along_axis(free_pad, around.reshape(n, -1), axis=1)
        open_cells = open_cells.reshape(around.shape) & lonely[..., None]
        last = open_cells.sum(axis=3) == 1  # exactly one free neighbour left
        r, p, c = np.nonzero(last)
        d = np.argmax(open_cells[r, p, c], axis=1)
        cell = around[r, p, c, d]
        keep = cell != OUTSIDE
        np.add.at(value, (r[keep], cell[keep]), 1.0)
        return value


BASELINES = {
    "greedy": GreedyVPBuilderAgent,
    "economist": EconomistAgent,
    "medal_hunter": MedalHunterAgent,
}

# The search agent's defaults for cairo (agents.ismcts): guided by the strongest baseline.
ISMCTS = {"guide": "medal_hunter"}
