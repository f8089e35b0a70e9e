"""Which builds, cells, card modes and payments are legal (§5.2–§5.6, §9.2), vectorised.

Everything here is a pure function of arrays for a selection of R rows (the rows asking a
given decision), always from the point of view of the seat to act. The masks are
lookahead-safe: a cell is offered only if some direction and some payable card mode complete
it, a card mode only if its fee (and, for an expansion, the cost after it) can be paid.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable

import numpy as np

from envs.cairo.board import (
    CELLS_INT,
    Reachability,
    any_direction,
    any_neighbour,
    any_neighbour_int,
    from_ints,
    goal_component,
    locally_cut,
    mask_ints,
    neighbour_int,
    neighbour_planes,
    placements_int,
    unpack,
    walk_distances,
    walk_distances_int,
)
from envs.cairo.data import (
    CUSTOMER_STARTS,
    JOKER_COVER,
    MARKET,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    NUM_SECTIONS,
    NUM_STANDARD_TYPES,
    PURPLE,
    RESTAURANT,
    SECTION,
    SETUP_SECTION_LIMIT,
    THREE_CARDS,
)
from envs.cairo.state import ACTIONS, CairoState, Phase, Stage, Verb
from envs.core.arrays import last_axis_sums, second_last_axis_sums
from envs.core.game import Game

_COLOURS = np.arange(NUM_COLOURS)
_COLOURS_U8 = _COLOURS.astype(np.uint8)
_COLOUR_WEIGHTS = np.uint8(1) << _COLOURS_U8  # the bit of each colour in a colour set
_ALL_COLOURS = np.uint8((1 << NUM_COLOURS) - 1)
_AREA = np.stack([RESTAURANT if c == PURPLE else MARKET for c in range(NUM_COLOURS)])  # (6, 182)
_AREA_CODE = (_AREA.astype(np.uint8) << _COLOURS_U8[:, None]).sum(axis=0, dtype=np.uint8)


# The bit of each group id (owner * 6 + colour) in a 30-bit set, index 0 (no tile) giving 0.
_GROUP_BIT = np.append(0, np.uint32(1) << np.arange(NUM_OWNERS * NUM_COLOURS, dtype=np.uint32))
# Colour of each group id, index -1 (no tile) giving -1: a lookup, not an int8 division.
_TILE_COLOUR = np.append(np.arange(NUM_OWNERS * NUM_COLOURS) % NUM_COLOURS, -1).astype(np.int8)
# Python-int bitboards (the ``board.mask_ints`` layout) of the market and of each colour's
# area, for the one-row paths.
_MARKET_INT = mask_ints(MARKET[None])[0]
_AREA_INTS = mask_ints(_AREA)
_SECTION_OF_CELL = SECTION.tolist()
# Sets of sections as 9-bit ints (bit s: section s): each joker's, and the bitboard of the
# cells of every set.
_JOKER_SECTION_BITS = [sum(1 << int(s) for s in np.flatnonzero(row)) for row in JOKER_COVER]
_ALL_SECTIONS = (1 << NUM_SECTIONS) - 1
_CELL_INT = mask_ints(np.eye(NUM_CELLS, dtype=bool))  # the bit of each cell
_SECTION_SET_CELLS = mask_ints(
    (np.arange(_ALL_SECTIONS + 1)[:, None] >> SECTION[None, :].astype(np.int64)) & 1 > 0)
_SECTION_BITS = np.arange(NUM_SECTIONS)  # shift of section s in a 9-bit section set
_SECTION_SET_OF_CELL = np.left_shift(1, SECTION.astype(np.int64))  # (182,) each cell's section
_JOKER_COVER_INT = JOKER_COVER.astype(np.int32)
_JOKER_COVER_ROWS = JOKER_COVER.tolist()
_MOVE = int(Verb.MOVE)
_EXPAND = int(Verb.EXPAND)
_PLACE = int(Verb.PLACE)
_MAIN = int(Stage.MAIN)
_TURN = int(Phase.TURN)
_LURE_ROW = "lure_row"  # Game.state_cache entry of the one-row lure options
# Game.scratch entries: the lure options, new-stall options and setup colours of the rows
# asked about, and the rows whose "summary" entry (``_board_summaries``) is known current.
_LURE_OPTIONS, _STALL_OPTIONS, _SETUP_COLOURS = "lure_options", "stall_options", "setup_colours"
_CHECKED_SUMMARIES = "checked_summaries"
_TURN_ROW = "turn_row"  # Game.state_cache entry of the one-row turn analysis, as bitboards
_TILES_ROW = "tiles_row"  # Game.state_cache entry of the one-row tile bitboards
_STALL_ROW = "stall_row"  # Game.state_cache entry of the one-row stall options
# The D4 actions lead the action layout in this order, so one slice assignment sets them.
_TURN_ACTIONS = (ACTIONS.NEW, ACTIONS.EXPAND, ACTIONS.MOVE, ACTIONS.LURE, ACTIONS.DRAW,
                 ACTIONS.PASS)
assert _TURN_ACTIONS[0].start == 0 and all(
    a.stop == b.start for a, b in itertools.pairwise(_TURN_ACTIONS))
_TURN_ACTIONS_STOP = ACTIONS.PASS.stop


# ---------------------------------------------------------------- per-row caches
# The analysis made at the start of a turn (D4) is reused by the later decisions of the same
# turn (the lure options of a D10 mask go to its step through ``Game.scratch``). Each entry
# holds, per batch row, a byte copy of every array it was computed from; a row is reused only
# while that copy still equals the state's arrays, so any edit (a step, ``put``, a test) makes
# the row recompute.
def _fingerprint(arrays: list[np.ndarray], idx: np.ndarray) -> np.ndarray:
    """(R, F) uint8: the bytes of rows ``idx`` of the given per-row arrays, row by row."""
    if idx.size == 1:  # plain bytes cost a fraction of the fancy indexing below
        return np.frombuffer(Game.row_bytes(int(idx[0]), arrays), np.uint8)[None]
    num = idx.size
    return np.concatenate(
        [np.ascontiguousarray(a[idx]).reshape(num, -1).view(np.uint8) for a in arrays], axis=1)


def _turn_arrays(state: CairoState) -> list[np.ndarray]:
    """Everything the cached parts of ``turn_mask`` derive from; the board's arrays first,
    so that a turn fingerprint starts with the board fingerprint."""
    return [state.tile, state.entrance, state.customer, state.stall_cell, state.current_player,
            state.hand, state.money, state.group_size]


def _turn_fingerprint(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """Bytes of everything the cached parts of ``turn_mask`` derive from, for rows ``idx``."""
    return _fingerprint(_turn_arrays(state), idx)


def _board_key(state: CairoState, idx: np.ndarray, customers: np.ndarray | None = None
               ) -> np.ndarray:
    """(R, 364) uint8: the tiles and the target cells (customers and entrances, the set K of
    §9.2) of rows ``idx``, all that a placement's legality reads from the board: a customer
    walking from one entrance to another changes neither. ``customers`` is the rows'
    ``customer_cells`` when the caller has them already."""
    if customers is None:
        customers = customer_cells(state, idx)
    targets = customers | (state.entrance[idx] >= 0)
    return np.concatenate([state.tile[idx], targets.view(np.int8)], axis=1).view(np.uint8)


def _lure_arrays(state: CairoState) -> list[np.ndarray]:
    """Everything ``lure_options`` derives from."""
    return [state.tile, state.entrance_cell, state.customer, state.current_player,
            state.colour, state.barkers]


def _cache_store(state: CairoState, name: str, idx: np.ndarray, key: np.ndarray,
                 **values: np.ndarray) -> None:
    """Remember ``values`` (R, ...) for rows ``idx`` under ``name``, checked against ``key``."""
    if not idx.size:
        return
    cache = Game.state_cache(state)
    entry = cache.get(name)
    batch = state.batch_size
    if entry is None or entry["key"].shape[1] != key.shape[1]:
        entry = {"key": np.zeros((batch, key.shape[1]), dtype=np.uint8),
                 "ok": np.zeros(batch, dtype=bool)}
        cache[name] = entry
    rows: np.ndarray | slice = idx
    if idx.size == 1:  # a slice: basic indexing costs a fraction of a fancy one
        rows = slice(int(idx[0]), int(idx[0]) + 1)
    for field, value in values.items():
        if field not in entry:
            entry[field] = np.zeros((batch, *value.shape[1:]), dtype=value.dtype)
        entry[field][rows] = value
    entry["key"][rows] = key
    entry["ok"][rows] = True


def _store_turn_row(state: CairoState) -> None:
    """Store the "stalls" and "turn" entries of the last one-row turn analysis, which
    ``_turn_mask_row`` keeps as bitboards (with the turn fingerprint bytes it made them from)."""
    pending = Game.state_cache(state).pop(_TURN_ROW, None)
    if pending is None:
        return
    row, raw, ints = pending
    idx = np.array([row])
    key = np.frombuffer(raw, np.uint8)[None]
    bits = unpack(from_ints(ints))  # (1 + 4 + 6 + 1, 182), the targets last
    board_key = np.concatenate([key[:, :NUM_CELLS], bits[None, -1].view(np.uint8)], axis=1)
    _cache_store(state, "stalls", idx, board_key, candidates=bits[0:1], dirs=bits[1:5].T[None])
    _cache_store(state, "turn", idx, key, expand=_colour_bits(bits[None, 5:11], axis=1))


def _colour_bits(flags: np.ndarray, axis: int = -1) -> np.ndarray:
    """uint8 colour sets (bit c: colour c) of bool ``flags`` with the six colours on ``axis``."""
    # A product with the bits' weights: a sum along the short axis costs several times more.
    return np.moveaxis(flags, axis, -1).view(np.uint8) @ _COLOUR_WEIGHTS


def _colours_of(codes: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the colours of (R,) uint8 colour sets."""
    return (codes[:, None] >> _COLOURS_U8 & 1).view(bool)


def _has_colour(codes: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """(R, 182) bool: the cells' colour sets (R, 182) hold the row's ``colour`` (R,)."""
    return (codes >> colour.astype(np.uint8)[:, None] & 1).view(bool)


def _cell_words(planes: np.ndarray) -> np.ndarray:
    """(R, 182) uint32: the four direction flags of (R, 182, 4) bool planes, a word a cell."""
    return np.ascontiguousarray(planes).view(np.uint32)[..., 0]


def _cache_hits(state: CairoState, name: str, idx: np.ndarray, key: np.ndarray
                ) -> tuple[np.ndarray, dict | None]:
    """(R,) bool rows of ``idx`` whose entry under ``name`` is still valid, and the entry."""
    entry = Game.state_cache(state).get(name)
    if entry is None or entry["key"].shape[1] != key.shape[1] or not idx.size:
        return np.zeros(idx.size, dtype=bool), None
    return entry["ok"][idx] & (entry["key"][idx] == key).all(axis=1), entry


def _cached_rows(state: CairoState, name: str, idx: np.ndarray, key: np.ndarray,
                 compute: Callable[[np.ndarray], dict[str, np.ndarray]], fields: tuple[str, ...]
                 ) -> list[np.ndarray]:
    """``fields`` of the entry ``name`` for rows ``idx`` (each (R, ...)): the rows whose
    ``key`` is unchanged from their entry, the rest from ``compute(miss)`` (a dict of every
    field for the rows ``idx[miss]``, (R,) bool ``miss``), which is stored for them."""
    found, entry = _cache_hits(state, name, idx, key)
    if found.all():
        return [entry[field][idx] for field in fields]
    miss = ~found
    fresh = compute(miss)
    _cache_store(state, name, idx[miss], key[miss], **fresh)
    if miss.all():
        return [fresh[field] for field in fields]
    out = [entry[field][idx] for field in fields]
    for full, field in zip(out, fields, strict=True):
        full[miss] = fresh[field]
    return out


@dataclasses.dataclass
class Board:
    """The board of R rows, with the per-cell facts every placement rule needs.

    Attributes:
        tile: (R, 182) int8, group id ``owner*6 + colour`` of the tile on each cell, -1 none.
        entrance: (R, 182) int8, group id of the stall whose entrance is on the cell, -1 none.
        customers: (R, 182) bool, a customer stands on the cell.
    """

    tile: np.ndarray
    entrance: np.ndarray
    customers: np.ndarray

    def __post_init__(self) -> None:
        self.occupied = self.tile >= 0  # (R, 182) a tile is on the cell
        self.free = ~self.occupied & (self.entrance < 0) & ~self.customers  # §5.1 free cell
        self.walk = MARKET & ~self.occupied  # §5.1 walkable cell
        self.targets = self.customers | (self.entrance >= 0)  # the set K of §9.2

        self._reach: Reachability | None = None
        self._placed: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    # Derived on first use: an expansion analysis needs no stall facts, a stall no colours.
    @functools.cached_property
    def tile_near(self) -> np.ndarray:
        """(R, 182) bool: some tile is orthogonally adjacent."""
        return any_neighbour(self.occupied)

    @functools.cached_property
    def entrance_free(self) -> np.ndarray:
        """(R, 182, 4) bool: the neighbour in the direction is a free market cell, where an
        entrance can go."""
        return neighbour_planes(self.free & MARKET)

    @functools.cached_property
    def tile_colour(self) -> np.ndarray:
        """(R, 182) int8: colour of the tile on the cell, -1 where none."""
        return _TILE_COLOUR[self.tile]

    def placement_reach(self, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``Reachability.placements`` on this board: (safe (R, 182), connected (R, 182, 4)).

        Only the candidate entries are meaningful: a call whose candidates all lie within the
        previous call's reuses that answer (each cell's verdict depends on the board alone).
        """
        if self._placed is not None and (self._placed[0] is None
                                         or not (candidates & ~self._placed[0]).any()):
            return self._placed[1], self._placed[2]
        if self._reach is None:
            self._reach = Reachability(self.walk, self.targets)
        safe, connected = self._reach.placements(candidates)
        self._placed = (candidates, safe, connected)
        return safe, connected

    def select(self, keep: np.ndarray) -> Board:
        """The board of the rows ``keep`` ((R,) bool), with what ``placement_reach`` knows."""
        board = Board(self.tile[keep], self.entrance[keep], self.customers[keep])
        if self._placed is not None:
            candidates, safe, connected = self._placed
            board.reuse_placements(None if candidates is None else candidates[keep],
                                   safe[keep], connected[keep])
        return board

    def reuse_placements(self, candidates: np.ndarray | None, safe: np.ndarray,
                         connected: np.ndarray) -> None:
        """Take ``placement_reach(candidates)``'s answer as known (computed elsewhere); None:
        the answer for every free cell, which holds every candidate."""
        self._placed = (candidates, safe, connected)

    def stall_cells(self, candidates: np.ndarray) -> np.ndarray:
        """(R, 182) bool: the candidate cells that are free with no tile orthogonally adjacent
        (§5.3 preconditions 3 and 4)."""
        return candidates & self.free & ~self.tile_near

    def stall_directions(self, candidates: np.ndarray) -> np.ndarray:
        """(R, 182, 4) bool: stall tile on the cell with its entrance in the direction is legal.

        Checks §5.3 preconditions 3, 4 and 7 (free cells, no adjacent tile, reachability) for
        the candidate cells; area, section and card rules are the caller's.
        """
        candidates = self.stall_cells(candidates)
        safe, connected = self.placement_reach(candidates)
        # The four direction flags of a cell as one 4-byte word: a quarter of the elements.
        ok = (candidates & safe).view(np.uint8) * np.uint32(0x01010101)
        ok &= _cell_words(connected)
        ok &= _cell_words(self.entrance_free)
        return ok.view(bool).reshape(*ok.shape, 4)

    def expansion_candidates(self, group: np.ndarray) -> np.ndarray:
        """(R, 182) or (R, K, 182) bool: §5.4 preconditions 2, 3 and 4 for group ids (R,) or
        (R, K).

        Reachability (precondition 6) is left to ``placement_reach``.
        """
        num = group.shape[0]
        groups = group.reshape(num, -1 if num else 1, 1)  # (R, K, 1)
        own = self.tile[:, None, :] == groups  # (R, K, 182)
        rival = (self.tile_colour[:, None, :] == groups % NUM_COLOURS) & ~own
        near = any_neighbour(np.concatenate([own, rival], axis=1).reshape(-1, NUM_CELLS))
        near = near.reshape(num, 2, -1, NUM_CELLS)
        area = _AREA[groups[:, :, 0] % NUM_COLOURS]
        out = self.free[:, None, :] & area & near[:, 0] & ~near[:, 1]
        return out.reshape((*group.shape, NUM_CELLS))

    def expansion_codes(self, players: int) -> np.ndarray:
        """(R, P, 182) uint8: for each seat, bit c set where the cell is an
        ``expansion_candidates`` cell of the seat's colour c; one byte per cell stands for six
        boolean planes.

        One neighbour pass over each cell's set of groups (30 bits) finds every seat's own and
        rival neighbours at once.
        """
        near = any_neighbour(np.take(_GROUP_BIT, self.tile + 1))  # groups next to the cell
        owners = [(near >> np.uint32(NUM_COLOURS * q)).astype(np.uint8) & _ALL_COLOURS
                  for q in range(NUM_OWNERS)]  # per owner slot, its colours next to the cell
        open_cells = _AREA_CODE * self.free.view(np.uint8)
        out = np.empty((self.tile.shape[0], players, NUM_CELLS), dtype=np.uint8)
        for seat in range(players):
            rival = functools.reduce(np.bitwise_or, owners[:seat] + owners[seat + 1:])
            np.bitwise_and(owners[seat], ~rival, out=out[:, seat])  # own group near, no rival
            out[:, seat] &= open_cells
        return out


def main_stall_sections(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 9, 6) bool: the section holds a main stall of the colour (any owner).

    Args:
        stall_cell: (R, owners, 6) int16 main stall cells, -1 where not on the board.
    """
    rows, _, colours = np.nonzero(stall_cell >= 0)
    sections = SECTION[stall_cell[stall_cell >= 0]]
    out = np.zeros((stall_cell.shape[0], NUM_SECTIONS, NUM_COLOURS), dtype=bool)
    out[rows, sections, colours] = True
    return out


def stall_counts(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 9) int: main stalls per section (for the setup limit, §5.9.1)."""
    placed = stall_cell >= 0
    rows = np.nonzero(placed)[0]
    slots = rows * NUM_SECTIONS + SECTION[stall_cell[placed]]  # one bincount, not add.at
    num = stall_cell.shape[0]
    counts = np.bincount(slots, minlength=num * NUM_SECTIONS)
    return counts.reshape(num, NUM_SECTIONS).astype(np.int32)


# ---------------------------------------------------------------- cards and money (§5.2, §5.4)
def per_row(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[r, index[r, ...]]`` for (R, n) values and (R,) or (R, ...) index (what
    ``np.take_along_axis`` gives, at a fraction of its call overhead)."""
    rows = np.arange(len(index)).reshape((-1,) + (1,) * (index.ndim - 1))
    return values[rows, index]


def colour_money(money: np.ndarray, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's money (R, 6) in ``colour`` (R,) or (R, K), and its money in the others."""
    h = per_row(money, colour)
    return h, last_axis_sums(money).reshape((-1,) + (1,) * (colour.ndim - 1)) - h


def affordable(h: np.ndarray, others: np.ndarray, n: np.ndarray) -> np.ndarray:
    """§5.4 precondition 7: colour money ``h``, other money ``others``, cost ``n``."""
    return (h >= 1) & (others >= 2 * (n - np.minimum(n, h)))


def fee_colours(money: np.ndarray, colour: np.ndarray, n: np.ndarray | None) -> np.ndarray:
    """(R, 6) or (R, K, 6) bool: fee colours that can be paid and, for an expansion, leave it
    affordable.

    Args:
        money: (R, 6) the player's money.
        colour: (R,) or (R, K) the expansion's colour (ignored when ``n`` is None).
        n: cost of the expansion, shaped like ``colour``, or None for a new or moved stall
            (fee only).
    """
    can_pay = money >= 1
    if n is None:
        return can_pay
    h, others = colour_money(money, colour)
    same = affordable(h - 1, others, n)
    other = affordable(h, others - 1, n)
    is_colour = colour[..., None] == _COLOURS
    can_pay = can_pay.reshape((money.shape[0],) + (1,) * (colour.ndim - 1) + (NUM_COLOURS,))
    return can_pay & np.where(is_colour, same[..., None], other[..., None])


def joker_sections(hand: np.ndarray) -> np.ndarray:
    """(R, 9) bool: sections covered by some joker in ``hand`` (R, 15)."""
    return (hand[:, NUM_STANDARD_TYPES:] > 0) @ _JOKER_COVER_INT > 0


def coverage(hand: np.ndarray, fee_ok: np.ndarray) -> np.ndarray:
    """(R, 9) or (R, K, 9) bool: sections some card mode can pay for (§5.2).

    THREE is only a fallback for sections the other modes cannot reach, so the covered set is
    simply the union of all three modes.

    Args:
        hand: (R, 15) the player's stall cards by type.
        fee_ok: (R,) or (R, K) bool, a joker fee could be paid (see ``fee_colours``).
    """
    shape = (hand.shape[0],) + (1,) * (fee_ok.ndim - 1) + (NUM_SECTIONS,)
    held, joker = card_sections(hand)
    return held.reshape(shape) | (joker.reshape(shape) & fee_ok[..., None])


def card_sections(hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(R, 9) bool each: the sections a standard card (or three cards) of ``hand`` (R, 15)
    pays for, and those a joker pays for once its fee is paid."""
    three = last_axis_sums(hand) >= THREE_CARDS
    return (hand[:, :NUM_STANDARD_TYPES] > 0) | three[:, None], joker_sections(hand)


def card_modes(hand: np.ndarray, section: np.ndarray, fee_ok: np.ndarray) -> np.ndarray:
    """(R, 16) bool: legal D6 choices S0..S8, J0..J5, THREE for a target in ``section`` (R,).

    Args:
        hand: (R, 15) stall cards by type.
        section: (R,) section of the target cell.
        fee_ok: (R,) bool, a joker fee can be paid (and keep an expansion affordable).
    """
    rows = np.arange(hand.shape[0])
    out = np.zeros((hand.shape[0], NUM_STANDARD_TYPES + JOKER_COVER.shape[0] + 1), dtype=bool)
    out[rows, section] = hand[rows, section] > 0
    out[:, NUM_STANDARD_TYPES:-1] = (
        (hand[:, NUM_STANDARD_TYPES:] > 0) & JOKER_COVER[:, section].T & fee_ok[:, None]
    )
    out[:, -1] = ~out[:, :-1].any(axis=1) & (last_axis_sums(hand) >= THREE_CARDS)
    return out


def card_modes_row(state: CairoState, row: int) -> list[bool]:
    """``card_modes`` of one row's pending build (D6), on plain ints: the seat's hand and
    money, the target's section and the joker fee's test as ``_fee_ok`` makes it."""
    seat = int(state.current_player[row])
    hand = state.hand[row, seat].tolist()
    money = state.money[row, seat].tolist()
    section = _SECTION_OF_CELL[int(state.target[row])]
    if state.verb[row] == _EXPAND:  # the fee must keep the expansion affordable
        colour = int(state.colour[row])
        cost = int(state.group_size[row, seat, colour]) + 1
        h, others = money[colour], sum(money) - money[colour]
        fee_ok = _affordable_int(h - 1, others, cost) or _affordable_int(h, others - 1, cost)
    else:
        fee_ok = sum(money) >= 1
    modes = [False] * (NUM_CARD_TYPES + 1)
    modes[section] = hand[section] > 0
    for j, cover in enumerate(_JOKER_COVER_ROWS):
        card = NUM_STANDARD_TYPES + j
        modes[card] = fee_ok and hand[card] > 0 and cover[section]
    modes[-1] = not any(modes) and sum(hand) >= THREE_CARDS
    return modes


def payment_colours(money: np.ndarray, colour: np.ndarray, units: np.ndarray,
                    half: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the D9 masks of §9.2 (one coin per decision).

    Args:
        money: (R, 6) the player's money now.
        colour: (R,) the group's colour c.
        units: (R,) tile units still to pay.
        half: (R,) bool, a 2:1 unit is half paid.
    """
    h, others = colour_money(money, colour)
    own = ~half & (units >= 1) & (h >= 1)
    start_unit = (units >= 1) & (others >= 2) & (h + (others - 2) // 2 >= units - 1)
    substitute = (money >= 1) & (half | start_unit)[:, None]
    is_colour = np.arange(NUM_COLOURS)[None, :] == colour[:, None]
    return np.where(is_colour, own[:, None], substitute)


# ---------------------------------------------------------------- state-level options
def customer_cells(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """(R, 182) bool: cells with a customer on them."""
    out = np.zeros((len(idx), NUM_CELLS), dtype=bool)
    if idx.size == 1:
        cells = state.customer[int(idx[0])]
        out[0, cells[cells >= 0]] = True
        return out
    cells = state.customer[idx]
    rows, colours = np.nonzero(cells >= 0)
    out[rows, cells[rows, colours]] = True
    return out


def board_of(state: CairoState, idx: np.ndarray, customers: np.ndarray | None = None) -> Board:
    """The ``Board`` of the selected rows (R,); ``customers`` is their ``customer_cells`` when
    the caller has them already."""
    if customers is None:
        customers = customer_cells(state, idx)
    return Board(state.tile[idx], state.entrance[idx], customers)


def _stall_directions(state: CairoState, idx: np.ndarray, candidates: np.ndarray
                      ) -> np.ndarray:
    """``Board.stall_directions`` on the boards of rows ``idx`` for ``candidates`` (R, 182).

    The answer is cached: a later decision on the same board (the next setup decisions, or
    the cells of a new stall after the turn's analysis) whose candidates lie within the
    cached ones reuses it, since each cell's verdict depends only on the board and the cell.
    """
    if not idx.size:
        return np.zeros((0, NUM_CELLS, 4), dtype=bool)
    _store_turn_row(state)
    key = _board_key(state, idx)
    found, entry = _cache_hits(state, "stalls", idx, key)
    if found.any():
        found &= ~(candidates & ~entry["candidates"][idx]).any(axis=1)
    if found.all():
        return entry["dirs"][idx] & candidates[:, :, None]
    out = np.zeros((len(idx), NUM_CELLS, 4), dtype=bool)
    if found.any():
        out[found] = entry["dirs"][idx[found]] & candidates[found][:, :, None]
    miss = ~found
    start = miss & _on_start_board(state, idx)  # its answer is made once
    miss &= ~start
    if start.any():
        out[start] = _start_board_directions() & candidates[start][:, :, None]
    if miss.any():
        out[miss] = board_of(state, idx[miss]).stall_directions(candidates[miss])
    fresh = start | miss
    _cache_store(state, "stalls", idx[fresh], key[fresh], candidates=candidates[fresh],
                 dirs=out[fresh])
    return out


_START_CUSTOMERS = np.sort(np.append(CUSTOMER_STARTS, -1))  # one customer waits off the board


def _on_start_board(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """(R,) bool: the rows' board is the one every game starts on: no tile, no entrance, the
    customers on their start cells."""
    return (~(state.tile[idx] >= 0).any(axis=1) & ~(state.entrance[idx] >= 0).any(axis=1)
            & (np.sort(state.customer[idx], axis=1) == _START_CUSTOMERS).all(axis=1))


@functools.cache
def _start_board_directions() -> np.ndarray:
    """(182, 4) bool: ``Board.stall_directions`` of every cell on the board a game starts on."""
    empty = np.full((1, NUM_CELLS), -1, dtype=np.int8)
    customers = np.zeros((1, NUM_CELLS), dtype=bool)
    customers[0, CUSTOMER_STARTS] = True
    dirs = Board(empty, empty, customers).stall_directions(np.ones((1, NUM_CELLS), dtype=bool))[0]
    dirs.flags.writeable = False
    return dirs


@functools.cache
def _start_board_cells() -> int:
    """The cells of ``_start_board_directions`` with some direction, as a Python-int board."""
    return mask_ints(any_direction(_start_board_directions())[None])[0]


def _open_colours(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 182) uint8: per cell, the colours (bits) whose area holds it and whose main stalls
    (``stall_cell`` (R, owners, 6)) leave its section free of one of theirs."""
    return _AREA_CODE & ~_colour_bits(main_stall_sections(stall_cell))[:, SECTION]


def _stall_colours(cells: np.ndarray, stall_cell: np.ndarray) -> np.ndarray:
    """(R, 6) bool: some cell of ``cells`` (R, 182) is open to the colour (``_open_colours``)."""
    return _colours_of(np.bitwise_or.reduce(_open_colours(stall_cell) * cells.view(np.uint8),
                                            axis=1))


def move_destinations(state: CairoState, idx: np.ndarray, seat: np.ndarray,
                      colour: np.ndarray, sections_ok: np.ndarray) -> np.ndarray:
    """(R, 182, 4) bool: legal new (cell, direction) of the seat's stall (§5.6 precondition 3).

    Evaluated on the board with the stall and its entrance removed; the tile must change cell.

    Args:
        state: the batch.
        idx: (R,) rows (one stall each; a row may repeat for several colours).
        seat: (R,) owner seat.
        colour: (R,) stall colour.
        sections_ok: (R, 9) bool, sections the cards in hand can pay for.
    """
    dirs = [_stall_dirs_int(*board)
            for board in _lifted_boards(state, idx, seat, colour, sections_ok)]
    return unpack(from_ints([d for four in dirs for d in four])).reshape(
        len(dirs), 4, NUM_CELLS).transpose(0, 2, 1)


def _lifted_boards(state: CairoState, idx: np.ndarray, seat: np.ndarray, colour: np.ndarray,
                   sections_ok: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Per (row, seat, colour) of ``move_destinations``, the moved stall's board as Python-int
    bitboards: (occupied, entrances, customers, free candidate cells away from every tile)."""
    occupied_all = mask_ints(state.tile[idx] >= 0)
    entrances_all = mask_ints(state.entrance[idx] >= 0)
    customers_all = mask_ints(customer_cells(state, idx))
    sections = (sections_ok << _SECTION_BITS).sum(axis=1).tolist()
    # Per pair: the section set holding a main stall of its colour (any owner).
    colour_cells = state.stall_cell[idx, :, colour]  # (R, 5)
    taken = np.bitwise_or.reduce(np.where(colour_cells >= 0, _SECTION_SET_OF_CELL[colour_cells], 0),
                                 axis=1).tolist()
    old_cells = state.stall_cell[idx, seat, colour].tolist()
    entrance_cells = state.entrance_cell[idx, seat, colour].tolist()
    out = []
    for k, c in enumerate(colour.tolist()):
        occupied, entrances, candidates = _lifted(
            occupied_all[k], entrances_all[k], taken[k], c, sections[k], old_cells[k],
            entrance_cells[k])
        customers = customers_all[k]
        free = CELLS_INT & ~occupied & ~entrances & ~customers
        out.append((occupied, entrances, customers,
                    candidates & free & ~any_neighbour_int(occupied)))
    return out


def seat_cards(state: CairoState, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The acting seat (R,), its hand (R, 15) and its money (R, 6)."""
    seat = state.current_player[idx].astype(np.intp)
    return seat, state.hand[idx, seat], state.money[idx, seat]


def expansion_fee_ok(money: np.ndarray, colour: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """(R,) or (R, K) bool: some joker fee colour leaves the expansion affordable."""
    h, others = colour_money(money, colour)
    return _fee_ok(h, others, cost)


def _fee_ok(h: np.ndarray, others: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """``expansion_fee_ok`` from the colour's money ``h`` and the rest ``others``.

    ``fee_colours(...).any(-1)`` without its per-colour array: money is never negative, so
    each ``affordable`` below already implies a coin of the fee's colour (h - 1 >= 1, or
    others - 1 >= 0 and hence some other colour with a coin).
    """
    return affordable(h - 1, others, cost) | affordable(h, others - 1, cost)


def stall_options(state: CairoState, idx: np.ndarray, limit: np.ndarray | None = None
                  ) -> np.ndarray:
    """(R, 182, 4) bool: legal (cell, direction) of the stall being placed (D2, D3).

    The pending verb says which rules apply: PLACE (setup or neutral, no cards, at most two
    stalls per section), NEW (cards) or MOVE (cards, stall lifted first).
    """
    if idx.size == 1:
        out = unpack(from_ints(_stall_dirs_row(state, int(idx[0])))).T[None]  # (1, 182, 4)
        return out if limit is None else out & limit[:, :, None]
    if not idx.size:
        return np.zeros((0, NUM_CELLS, 4), dtype=bool)
    # Kept in the scratch: the D2 step hands it on (``hand_on_stall_options``) to the D3 mask.
    (out,) = Game.scratch(state).rows(_STALL_OPTIONS, idx,
                                      lambda rows: (_stall_options(state, rows),))
    return out if limit is None else out & limit[:, :, None]


def hand_on_stall_options(state: CairoState, idx: np.ndarray) -> None:
    """Inside the step of D2, which only sets the target: keep the rows' options that its
    mask worked out in the scratch of the state it leaves, for D3."""
    _hand_on(state, _STALL_OPTIONS, idx)


def hand_on_summaries(state: CairoState, idx: np.ndarray) -> None:
    """Inside a step that leaves the board, its target cells and the stalls as they are (D4,
    a draw, a discard, a lure of a customer standing on an entrance): keep the rows'
    summaries checked (``_board_summaries``), for the D5 mask of an expansion and for the
    next turn when this one ends without a build."""
    _hand_on(state, _CHECKED_SUMMARIES, idx)


def _hand_on(state: CairoState, name: str, idx: np.ndarray) -> None:
    """Inside a step: the rows of ``idx`` held by the scratch entry ``name`` of the state
    before (``Game.handed``) go to the scratch of the state it leaves, values unchanged. A row
    handled alone takes the one-row paths, which keep caches of their own."""
    if idx.size <= 1:
        return
    found, values = Game.handed(state).get(name, idx)
    if found.any():
        Game.scratch(state).put(name, idx[found], *(v[found] for v in values))


def _stall_options(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """``stall_options`` of rows ``idx`` (R > 1) computed afresh, every cell."""
    seat, hand, money = seat_cards(state, idx)
    colour = state.colour[idx].astype(np.intp)
    verb = state.verb[idx]
    cover = coverage(hand, last_axis_sums(money) >= 1)
    out = np.zeros((len(idx), NUM_CELLS, 4), dtype=bool)
    move = verb == _MOVE
    if move.any():
        out[move] = move_destinations(state, idx[move], seat[move], colour[move], cover[move])
    rest = ~move
    if rest.any():
        stalls = state.stall_cell[idx[rest]]
        pairs = np.arange(int(rest.sum()))
        sections_ok = ~main_stall_sections(stalls)[pairs, :, colour[rest]]
        placing = (verb[rest] == _PLACE)[:, None]
        sections_ok &= np.where(placing, stall_counts(stalls) < SETUP_SECTION_LIMIT, cover[rest])
        candidates = _AREA[colour[rest]] & sections_ok[:, SECTION]
        out[rest] = _stall_directions(state, idx[rest], candidates)
    return out


def _cover_row(hand: list[int], money: list[int]) -> tuple[int, int]:
    """``coverage`` of one row as section sets: the sections the standard cards (or three
    cards) pay for, and those a joker pays for once its fee is paid."""
    held = _ALL_SECTIONS
    if sum(hand) < THREE_CARDS:
        held = sum(1 << section for section in range(NUM_SECTIONS) if hand[section] > 0)
    joker = 0
    for j, sections in enumerate(_JOKER_SECTION_BITS):
        if hand[NUM_STANDARD_TYPES + j] > 0:
            joker |= sections
    return held, joker


def _stall_sections(stalls: list[list[int]]) -> tuple[list[int], list[int]]:
    """From one row's main stall cells (owner by colour, -1 off the board): per colour the
    9-bit set of sections holding one of its main stalls (one at most per section), and per
    section the number of main stalls in it."""
    taken = [0] * NUM_COLOURS
    counts = [0] * NUM_SECTIONS
    for owner_cells in stalls:
        for colour, cell in enumerate(owner_cells):
            if cell >= 0:
                taken[colour] |= 1 << _SECTION_OF_CELL[cell]
                counts[_SECTION_OF_CELL[cell]] += 1
    return taken, counts


def _customer_bits(cells: list[int]) -> int:
    """The bitboard of a row's customer cells (-1: off the board)."""
    bits = 0
    for cell in cells:
        if cell >= 0:
            bits |= _CELL_INT[cell]
    return bits


def _stall_dirs_int(occupied: int, entrances: int, customers: int, candidates: int
                    ) -> list[int]:
    """``Board.stall_directions`` of one board as bitboards, one per direction N, E, S, W."""
    free = CELLS_INT & ~occupied & ~entrances & ~customers
    cells = candidates & free & ~any_neighbour_int(occupied)
    unsafe, linked = placements_int(_MARKET_INT & ~occupied, customers | entrances, cells)
    cells &= ~unsafe
    entrance_free = free & _MARKET_INT
    return [cells & linked[d] & neighbour_int(entrance_free, d) for d in range(4)]


def _stall_arrays(state: CairoState) -> list[np.ndarray]:
    """Everything ``stall_options`` derives from."""
    return [state.tile, state.entrance, state.customer, state.stall_cell, state.entrance_cell,
            state.current_player, state.colour, state.verb, state.hand, state.money]


def _stall_dirs_row(state: CairoState, row: int) -> list[int]:
    """``stall_options`` of one row as four direction bitboards (kept for the D3 after D2)."""
    return Game.row_cached(state, _STALL_ROW, row, _stall_arrays(state), _stall_dirs_fresh)


def _stall_dirs_fresh(state: CairoState, row: int) -> list[int]:
    """``_stall_dirs_row`` computed afresh."""
    tiles = _tiles_row(state, row)
    seat, colour = int(state.current_player[row]), int(state.colour[row])
    verb = int(state.verb[row])
    occupied, entrances, taken = tiles.occupied, tiles.entrances, tiles.taken[colour]
    if verb == _PLACE:
        sections = tiles.setup_sections
    else:
        money = state.money[row, seat].tolist()
        held, joker = _cover_row(state.hand[row, seat].tolist(), money)
        sections = held | joker if sum(money) >= 1 else held
    if verb == _MOVE:
        old, entrance = tiles.stalls[seat][colour], int(state.entrance_cell[row, seat, colour])
        occupied, entrances, candidates = _lifted(occupied, entrances, taken, colour, sections,
                                                  old, entrance)
    else:
        candidates = _AREA_INTS[colour] & _SECTION_SET_CELLS[sections & ~taken]
    customers = _customer_bits(state.customer[row].tolist())
    return _stall_dirs_int(occupied, entrances, customers, candidates)


def _lifted(occupied: int, entrances: int, taken: int, colour: int, sections: int, old: int,
            entrance: int) -> tuple[int, int, int]:
    """A move's board (§5.6): the occupied and entrance bitboards with the stall on cell
    ``old`` and its entrance lifted, and the candidate cells of its new place: the colour's
    area in ``sections`` without another main stall of the colour (``taken``, the section
    set holding them, the stall's own included), and not the old cell."""
    taken &= ~(1 << _SECTION_OF_CELL[old])
    candidates = _AREA_INTS[colour] & _SECTION_SET_CELLS[sections & ~taken] & ~_CELL_INT[old]
    return occupied & ~_CELL_INT[old], entrances & ~_CELL_INT[entrance], candidates


def can_move(state: CairoState, idx: np.ndarray, seat: np.ndarray, colour: np.ndarray,
             sections_ok: np.ndarray) -> list[bool]:
    """Whether ``move_destinations`` holds some (cell, direction) for each (row, seat, colour).

    A cell that no tile could cut off from the targets (outside their component, or with its
    walkable neighbours linked around its ring) needs no flood fill of its own, and nearly
    every enclosed stall can move to one of them; only a pair with none checks the rest.
    """
    out = []
    for occupied, entrances, customers, cells in _lifted_boards(state, idx, seat, colour,
                                                                sections_ok):
        if not cells:
            out.append(False)
            continue
        walk = _MARKET_INT & ~occupied
        component = goal_component(walk, customers | entrances)
        easy = cells & ~(component & locally_cut(walk))
        entrance_free = CELLS_INT & ~occupied & ~entrances & ~customers & _MARKET_INT
        if any(easy & neighbour_int(component, d) & neighbour_int(entrance_free, d)
               for d in range(4)):
            out.append(True)
            continue
        out.append(any(_stall_dirs_int(occupied, entrances, customers, cells)))
    return out


def _place_colours_row(state: CairoState, row: int) -> list[bool]:
    """``place_colour_mask`` of one row on bitboards."""
    tiles = _tiles_row(state, row)
    unplaced = [cell < 0 for cell in tiles.stalls[int(state.current_player[row])]]
    if not any(unplaced):
        return unplaced
    if not tiles.occupied and _on_start_board(state, np.array([row]))[0]:
        cells = _start_board_cells() & _SECTION_SET_CELLS[tiles.setup_sections]
    else:
        dirs = _stall_dirs_int(tiles.occupied, tiles.entrances,
                               _customer_bits(state.customer[row].tolist()),
                               _SECTION_SET_CELLS[tiles.setup_sections])
        cells = dirs[0] | dirs[1] | dirs[2] | dirs[3]
    return [unplaced[c] and bool(cells & _AREA_INTS[c] & tiles.open_sections[c])
            for c in range(NUM_COLOURS)]


def place_colour_mask(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D1, own unplaced colours with a legal setup placement (§5.9.1)."""
    if idx.size <= 1:
        return np.array([_place_colours_row(state, int(row)) for row in idx], dtype=bool
                        ).reshape(idx.size, NUM_COLOURS)
    # Kept in the scratch: the mask reads what the step's check of the new placement made.
    (colours,) = Game.scratch(state).rows(_SETUP_COLOURS, idx,
                                          lambda rows: (_place_colours(state, rows),))
    return colours


def _place_colours(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """``place_colour_mask`` of rows ``idx`` computed afresh."""
    seat = state.current_player[idx].astype(np.intp)
    stalls = state.stall_cell[idx]
    sections_ok = stall_counts(stalls) < SETUP_SECTION_LIMIT
    unplaced = state.stall_cell[idx, seat] < 0
    candidates = sections_ok[:, SECTION] & unplaced.any(axis=1)[:, None]
    cells = any_direction(_stall_directions(state, idx, candidates))
    return unplaced & _stall_colours(cells, stalls)


def expansion_cover(hand: np.ndarray, money: np.ndarray, colour: np.ndarray,
                    cost: np.ndarray) -> np.ndarray:
    """(R, 9) or (R, K, 9) bool: sections where an expansion of ``colour`` (R,) or (R, K) at
    ``cost`` (shaped like ``colour``) can be paid for."""
    h, others = colour_money(money, colour)
    base = affordable(h, others, cost)
    return coverage(hand, _fee_ok(h, others, cost)) & base[..., None]


def expansion_options(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """(R, 182) bool: D5, legal and payable cells for the pending expansion."""
    colour = state.colour[idx].astype(np.intp)
    _store_turn_row(state)
    if "turn" not in Game.state_cache(state):  # only a one-row turn analysis leaves one
        return _expansion_options(state, idx)
    found, entry = _cache_hits(state, "turn", idx, _turn_fingerprint(state, idx))
    if found.all():
        return _has_colour(entry["expand"][idx], colour)
    out = np.zeros((len(idx), NUM_CELLS), dtype=bool)
    if found.any():
        out[found] = _has_colour(entry["expand"][idx[found]], colour[found])
    miss = ~found
    out[miss] = _expansion_options(state, idx[miss])
    return out


def _expansion_options(state: CairoState, idx: np.ndarray) -> np.ndarray:
    """``expansion_options`` from the rows' board summaries (``_board_summaries``)."""
    seat, hand, money = seat_cards(state, idx)
    colour = state.colour[idx].astype(np.intp)
    (codes,) = _board_summaries(state, idx, ("expand_codes",))
    cells = _has_colour(codes[np.arange(idx.size), seat], colour)
    cost = state.group_size[idx, seat, colour].astype(np.int32) + 1
    return cells & expansion_cover(hand, money, colour, cost)[:, SECTION]


def lure_options(state: CairoState, idx: np.ndarray, in_step: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate entrances of the pending lure and their barker costs (§5.7).

    A mask leaves them in ``Game.scratch``; its step (``in_step``) applies them from there.

    Returns:
        ``cells`` (R, 5) entrance cell of each owner slot's stall of the customer's colour;
        ``legal`` (R, 5) bool, a legal target for the acting seat; ``cost`` (R, 5) barkers.
    """
    if idx.size == 1:
        return _lure_options_one(state, int(idx[0]))
    if in_step:
        found, values = Game.handed(state).get(_LURE_OPTIONS, idx)
        return values if found.all() else _lure_options(state, idx)
    return Game.scratch(state).rows(_LURE_OPTIONS, idx, lambda rows: _lure_options(state, rows))


def _lure_options_one(state: CairoState, row: int) -> tuple[np.ndarray, np.ndarray,
                                                              np.ndarray]:
    """``lure_options`` of one row, from ``lure_row``."""
    cells, legal, cost = lure_row(state, row)
    return (np.array([cells], dtype=state.entrance_cell.dtype), np.array([legal]),
            np.array([cost], dtype=np.intp))


def lure_row(state: CairoState, row: int) -> tuple[list[int], list[bool], list[int]]:
    """``lure_options`` of one row as lists (cells, legal, cost), for the one-row mask and
    step. The cache entry is the plain bytes of the row: the array entry's comparisons cost
    more than the mask's options save its step."""
    return Game.row_cached(state, _LURE_ROW, row, _lure_arrays(state), _lure_lists)


def _lure_options(state: CairoState, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                np.ndarray]:
    """``lure_options`` computed afresh."""
    if idx.size == 1:
        return _lure_options_one(state, int(idx[0]))
    seat = state.current_player[idx].astype(np.intp)
    colour = state.colour[idx].astype(np.intp)
    cells = state.entrance_cell[idx, :, colour]  # (R, 5)
    customers = customer_cells(state, idx)
    valid = (cells >= 0) & ~per_row(customers, np.maximum(cells, 0))
    board_walk = MARKET & (state.tile[idx] < 0)
    dist = walk_distances(board_walk, state.customer[idx, colour], cells, valid)
    valid &= dist >= 0
    nearer = valid[:, None, :] & (dist[:, None, :] < dist[:, :, None])  # (R, e, e')
    cost = last_axis_sums(nearer.view(np.uint8))
    legal = valid & (cost <= state.barkers[idx, seat][:, None])
    return cells, legal, cost


def _lure_lists(state: CairoState, row: int) -> tuple[list[int], list[bool], list[int]]:
    """``_lure_options`` of one row, the candidate bookkeeping on lists."""
    colour = int(state.colour[row])
    cells = state.entrance_cell[row, :, colour].tolist()  # (5,)
    customers = state.customer[row].tolist()
    goals = [cell if cell >= 0 and cell not in customers else None for cell in cells]
    valid = [cell is not None for cell in goals]
    walk = _MARKET_INT & ~_tiles_row(state, row).occupied
    dist = walk_distances_int(walk, customers[colour], goals)
    valid = [ok and d >= 0 for ok, d in zip(valid, dist, strict=True)]
    cost = [sum(1 for ok, d in zip(valid, dist, strict=True) if ok and d < mine) for mine in dist]
    barkers = int(state.barkers[row, state.current_player[row]])
    legal = [ok and c <= barkers for ok, c in zip(valid, cost, strict=True)]
    return cells, legal, cost


def lure_available(state: CairoState, idx: np.ndarray, customers: np.ndarray | None = None
                   ) -> np.ndarray:
    """(R, 6) bool: the customer of the colour is on the board with a free entrance to go to.

    The nearest candidate always costs 0 barkers, so a candidate is all a lure needs.
    ``customers`` is the rows' ``customer_cells`` when the caller has them already.
    """
    if customers is None:
        customers = customer_cells(state, idx)
    cells = state.entrance_cell[idx]  # (R, 5, 6)
    free = (cells >= 0) & ~per_row(customers, np.maximum(cells, 0))
    return (state.customer[idx] >= 0) & (second_last_axis_sums(free.view(np.uint8)) > 0)


def turn_mask(state: CairoState, idx: np.ndarray, move_requires_blocked: bool) -> np.ndarray:
    """(R, 240) bool: D4 at the start of a MAIN or FINAL turn (§9.2).

    What the board allows (``_board_summaries``: per section, the colours with a legal cell
    for a new stall or for an expansion of each seat) is kept per row while the board stays
    as it is; the seat's cards and money then pick the sections they pay for. Each movable
    stall gets a board of its own with the stall lifted.
    """
    num = len(idx)
    if num == 1:
        return _turn_mask_row(state, idx, move_requires_blocked)
    out = np.zeros((num, ACTIONS.size), dtype=bool)
    seat, hand, money = seat_cards(state, idx)
    customers = customer_cells(state, idx)
    new_sections, expand_sections = _board_summaries(
        state, idx, ("new_sections", "expand_sections"), customers)
    expand_sections = expand_sections[np.arange(num), seat]  # (R, 9) the acting seat's
    main = state.stage[idx] == _MAIN
    size = state.group_size[idx, seat].astype(np.int32)  # (R, 6)
    unplaced = state.stall_cell[idx, seat] < 0
    held, joker = card_sections(hand)
    cover_new = held | joker & (last_axis_sums(money) >= 1)[:, None]  # coverage of a stall
    new_ok = unplaced & _colours_of(np.bitwise_or.reduce(
        new_sections * cover_new.view(np.uint8), axis=1))
    # expansion_cover of the six colours as colour sets per section: a standard card pays
    # for the affordable colours, a joker for those that stay affordable after its fee.
    h, others = colour_money(money, _COLOURS[None, :].repeat(num, axis=0))
    affordable_now = affordable(h, others, size + 1)
    with_fee = affordable_now & _fee_ok(h, others, size + 1)
    cover = (np.where(held, _colour_bits(affordable_now)[:, None], 0)
             | np.where(joker, _colour_bits(with_fee)[:, None], 0)).astype(np.uint8)
    expand_ok = _colours_of(np.bitwise_or.reduce(expand_sections & cover, axis=1))
    expand_ok &= (size > 0) & (state.supply[idx] > 0)
    movable = size == 1
    if move_requires_blocked:
        movable &= ~_colours_of(np.bitwise_or.reduce(expand_sections, axis=1))
    move_ok = np.zeros((num, NUM_COLOURS), dtype=bool)
    rows, colours = np.nonzero(movable)
    if rows.size:
        move_ok[rows, colours] = can_move(state, idx[rows], seat[rows], colours, cover_new[rows])
    out[:, ACTIONS.NEW.start:ACTIONS.NEW.stop] = new_ok
    out[:, ACTIONS.EXPAND.start:ACTIONS.EXPAND.stop] = expand_ok
    out[:, ACTIONS.MOVE.start:ACTIONS.MOVE.stop] = move_ok
    lure_ok = lure_available(state, idx, customers) & main[:, None]
    out[:, ACTIONS.LURE.start:ACTIONS.LURE.stop] = lure_ok
    out[:, ACTIONS.DRAW.start] = main
    out[:, ACTIONS.PASS.start] = ~main
    return out


# Every cell's position in the cells sorted by section, and where each section starts there:
# a section-wise reduction is then one ``reduceat``.
_BY_SECTION = np.argsort(SECTION, kind="stable")
_SECTION_STARTS = np.searchsorted(SECTION[_BY_SECTION], np.arange(NUM_SECTIONS))


def prepare_boards(state: CairoState, idx: np.ndarray) -> None:
    """Bring the board analyses of rows ``idx`` up to date in one pass, the finished rows
    left out: ``_board_summaries`` for the rows with a turn next, the "stalls" entry for
    those with a setup or neutral placement next. Their masks then find them."""
    idx = idx[~state.done[idx]]
    turn = state.phase[idx] == _TURN
    # A turn that left the board as it was (a draw, a pass) kept its rows' summaries checked.
    kept = turn & Game.scratch(state).get(_CHECKED_SUMMARIES, idx)[0]
    idx, turn = idx[~kept], turn[~kept]
    if not idx.size:
        return
    customers = customer_cells(state, idx)
    board_key = _board_key(state, idx, customers)
    summary_key = _summary_key(state, idx, board_key)
    stale = np.ones(idx.size, dtype=bool)
    stale[turn] = ~_cache_hits(state, "summary", idx[turn], summary_key[turn])[0]
    placing = ~turn
    found, entry = _cache_hits(state, "stalls", idx[placing], board_key[placing])
    if entry is not None:
        stale[placing] = ~(found & entry["candidates"][idx[placing]].all(axis=1))
    if stale.any():
        rows, fresh_turn = idx[stale], turn[stale]
        board, dirs = _analyse_boards(state, rows, customers[stale], board_key[stale])
        if fresh_turn.any():  # a placement reads the directions alone
            _cache_store(state, "summary", rows[fresh_turn], summary_key[stale][fresh_turn],
                         **_summary_of(state, rows[fresh_turn], board.select(fresh_turn),
                                       dirs[fresh_turn]))
    # The turn masks of the state this step leaves read their summaries without a check.
    Game.scratch(state).put(_CHECKED_SUMMARIES, idx[turn])


def _summary_key(state: CairoState, idx: np.ndarray, board_key: np.ndarray) -> np.ndarray:
    """(R, 424) uint8: ``_board_key`` and the main stalls of rows ``idx``, all that
    ``_board_summaries`` derives from."""
    return np.concatenate([board_key, state.stall_cell[idx].reshape(idx.size, -1).view(np.uint8)],
                          axis=1)


def _analyse_boards(state: CairoState, rows: np.ndarray, customers: np.ndarray,
                    board_key: np.ndarray) -> tuple[Board, np.ndarray]:
    """The boards of ``rows`` with the reachability of every free cell worked out (one
    pass), and every cell's new-stall directions (R, 182, 4), which the "stalls" entry keeps
    for the later decisions of a stall. ``customers`` and ``board_key``: the rows' own."""
    board = board_of(state, rows, customers)
    board.reuse_placements(None, *Reachability(board.walk, board.targets).placements(
        board.free))
    everywhere = np.ones((rows.size, NUM_CELLS), dtype=bool)
    dirs = board.stall_directions(everywhere)
    _cache_store(state, "stalls", rows, board_key, candidates=everywhere, dirs=dirs)
    return board, dirs


def _summary_of(state: CairoState, rows: np.ndarray, board: Board, dirs: np.ndarray
                ) -> dict[str, np.ndarray]:
    """The ``_board_summaries`` fields of ``rows`` from ``_analyse_boards``' answer."""
    new_sections = _section_sets(_open_colours(state.stall_cell[rows])
                                 * any_direction(dirs).view(np.uint8))
    safe, _ = board.placement_reach(board.free)
    codes = board.expansion_codes(state.hand.shape[1]) * safe[:, None, :].view(np.uint8)
    return {"new_sections": new_sections, "expand_codes": codes,
            "expand_sections": _section_sets(codes)}


def _section_sets(codes: np.ndarray) -> np.ndarray:
    """(..., 9) uint8: the union of the cells' colour sets (..., 182) in each section."""
    return np.bitwise_or.reduceat(codes[..., _BY_SECTION], _SECTION_STARTS, axis=-1)


def _board_summaries(state: CairoState, idx: np.ndarray, fields: tuple[str, ...],
                     customers: np.ndarray | None = None) -> list[np.ndarray]:
    """What the board of rows ``idx`` allows any seat, kept per row while the tiles, the
    target cells (``_board_key``) and the main stalls stay as they are (most turns lure or
    draw). The analysis covers every free cell and every seat, so that the next seats' turns
    on the same board find theirs too:

    * ``new_sections`` (R, 9) uint8: per section, the colours (bits) with a legal new-stall
      cell there (§5.3 preconditions 3, 4, 7: free, no tile adjacent, reachability) in the
      colour's area, the section holding no main stall of the colour;
    * ``expand_codes`` (R, P, 182) uint8: per seat, ``Board.expansion_codes`` of the
      cells where a tile keeps the targets connected;
    * ``expand_sections`` (R, P, 9) uint8: those codes' union per section.

    A row computed afresh also leaves every cell's new-stall directions in the "stalls" entry
    for the later decisions of a new stall. ``customers`` is the rows' ``customer_cells``
    when the caller has them already. Rows that the step's ``prepare_boards`` brought up to
    date (marked in ``Game.scratch``) are read without checking their key again.
    """
    if Game.scratch(state).get(_CHECKED_SUMMARIES, idx)[0].all():
        entry = Game.state_cache(state)["summary"]
        return [entry[field][idx] for field in fields]
    if customers is None:
        customers = customer_cells(state, idx)
    board_key = _board_key(state, idx, customers)
    key = _summary_key(state, idx, board_key)

    def summarise(miss: np.ndarray) -> dict[str, np.ndarray]:
        rows = idx[miss]
        return _summary_of(state, rows, *_analyse_boards(state, rows, customers[miss],
                                                         board_key[miss]))

    return _cached_rows(state, "summary", idx, key, summarise, fields)


def _affordable_int(h: int, others: int, n: int) -> bool:
    """``affordable`` for plain ints."""
    return h >= 1 and others >= 2 * (n - min(n, h))


class _TilesRow:
    """The tiles of one row as Python-int bitboards, with what the one-row turn mask derives
    from them alone; kept in the state cache while the row's tiles, entrances and stall cells
    stay as they are (most turns lure or draw)."""

    def __init__(self, state: CairoState, row: int):
        self.groups = [0] * (NUM_OWNERS * NUM_COLOURS)
        tiles = state.tile[row]
        cells = np.flatnonzero(tiles >= 0)
        self.occupied = 0
        for cell, group in zip(cells.tolist(), tiles[cells].tolist(), strict=True):
            self.groups[group] |= _CELL_INT[cell]
            self.occupied |= _CELL_INT[cell]
        self.entrances = 0
        for cell in np.flatnonzero(state.entrance[row] >= 0).tolist():
            self.entrances |= _CELL_INT[cell]
        self.near_occupied = any_neighbour_int(self.occupied)
        self.stalls = state.stall_cell[row].tolist()  # (5, 6)
        # Section sets (9-bit): per colour, the sections holding a main stall of the colour;
        # the sections with room for a setup stall (§5.9.1).
        self.taken, counts = _stall_sections(self.stalls)
        self.setup_sections = sum(1 << section for section, count in enumerate(counts)
                                  if count < SETUP_SECTION_LIMIT)
        # Per colour: the cells of the sections without a main stall of the colour.
        self.open_sections = [_SECTION_SET_CELLS[_ALL_SECTIONS & ~t] for t in self.taken]
        # Per colour: the entrance cells of its stalls on the board.
        self.entrances_of = [[owner[c] for owner in state.entrance_cell[row].tolist()
                              if owner[c] >= 0] for c in range(NUM_COLOURS)]
        self._expandable: dict[int, list[int]] = {}

    def expandable(self, seat: int) -> list[int]:
        """Per colour: the cells in the colour's area next to the seat's group and to no rival
        tile of the colour (``Board.expansion_codes`` before the free-cell test)."""
        cells = self._expandable.get(seat)
        if cells is None:
            cells = []
            for colour in range(NUM_COLOURS):
                rival = 0
                for owner in range(NUM_OWNERS):
                    if owner != seat:
                        rival |= self.groups[owner * NUM_COLOURS + colour]
                own_near = any_neighbour_int(self.groups[seat * NUM_COLOURS + colour])
                cells.append(_AREA_INTS[colour] & own_near & ~any_neighbour_int(rival))
            self._expandable[seat] = cells
        return cells


def _tiles_row(state: CairoState, row: int) -> _TilesRow:
    """The row's ``_TilesRow``, from the state cache while its source bytes are unchanged."""
    return Game.row_cached(state, _TILES_ROW, row, [state.tile, state.entrance, state.stall_cell,
                                                state.entrance_cell], _TilesRow)


def _turn_mask_row(state: CairoState, idx: np.ndarray, move_requires_blocked: bool
                   ) -> np.ndarray:
    """``turn_mask`` of one row: the same analysis with the board as Python-int bitboards and
    the seat's cards, money and groups as lists, a handful of NumPy calls instead of some
    three hundred. It leaves the same cache entries (``_store_turn_row``)."""
    row = int(idx[0])
    seat = int(state.current_player[row])
    tiles = _tiles_row(state, row)
    occupied, entrance_bits = tiles.occupied, tiles.entrances
    customer_cells_row = state.customer[row].tolist()
    customer_bits = _customer_bits(customer_cells_row)
    free = CELLS_INT & ~occupied & ~entrance_bits & ~customer_bits
    hand = state.hand[row, seat].tolist()
    money = state.money[row, seat].tolist()
    size = state.group_size[row, seat].tolist()
    stalls = tiles.stalls
    unplaced = [cell < 0 for cell in stalls[seat]]
    total = sum(money)

    held, joker = _cover_row(hand, money)  # the sections without and with a joker fee
    cover_new = held | joker if total >= 1 else held
    covered = [_SECTION_SET_CELLS[held], _SECTION_SET_CELLS[held | joker]]
    new_candidates = _SECTION_SET_CELLS[cover_new] if any(unplaced) else 0
    stall_cells = new_candidates & free & ~tiles.near_occupied
    # Board.expansion_codes, colour by colour
    expand_candidates = [free & cells if size[colour] > 0 else 0
                         for colour, cells in enumerate(tiles.expandable(seat))]
    expandable = 0
    for cells in expand_candidates:
        expandable |= cells

    # One reachability pass over the new-stall and the expansion cells together.
    walk = _MARKET_INT & ~occupied
    unsafe, linked = placements_int(walk, customer_bits | entrance_bits, stall_cells | expandable)
    entrance_free = free & _MARKET_INT
    new_cells = stall_cells & ~unsafe
    dirs = [new_cells & linked[d] & neighbour_int(entrance_free, d) for d in range(4)]
    reachable = dirs[0] | dirs[1] | dirs[2] | dirs[3]
    new_ok = [unplaced[c] and bool(reachable & _AREA_INTS[c] & tiles.open_sections[c])
              for c in range(NUM_COLOURS)]

    expand_cells, expand = [], []
    for colour in range(NUM_COLOURS):
        cells = expand_candidates[colour] & ~unsafe
        expand_cells.append(cells)
        h, others, cost = money[colour], total - money[colour], size[colour] + 1
        if cells and _affordable_int(h, others, cost):  # expansion_cover
            fee_ok = _affordable_int(h - 1, others, cost) or _affordable_int(h, others - 1, cost)
            cells &= covered[fee_ok]
        else:
            cells = 0
        expand.append(cells)
    # Most turns draw or lure: the arrays of the cache entries wait until a decision reads them.
    key = Game.row_bytes(row, _turn_arrays(state))
    Game.state_cache(state)[_TURN_ROW] = (row, key, [new_candidates, *dirs, *expand,
                                                     customer_bits | entrance_bits])

    supply = state.supply[row].tolist()
    expand_ok = [bool(expand[c]) and size[c] > 0 and supply[c] > 0 for c in range(NUM_COLOURS)]
    movable = [c for c in range(NUM_COLOURS) if size[c] == 1
               and not (move_requires_blocked and expand_cells[c])]
    move_ok = [False] * NUM_COLOURS
    if movable:
        count = len(movable)
        cover = [cover_new >> section & 1 == 1 for section in range(NUM_SECTIONS)]
        verdicts = can_move(state, idx.repeat(count), np.full(count, seat, dtype=np.intp),
                            np.array(movable, dtype=np.intp), np.array([cover] * count))
        for colour, ok in zip(movable, verdicts, strict=True):
            move_ok[colour] = ok
    main = bool(state.stage[row] == _MAIN)
    lure_ok = [False] * NUM_COLOURS
    if main:  # lure_available
        lure_ok = [customer_cells_row[c] >= 0 and any(
            cell not in customer_cells_row for cell in tiles.entrances_of[c])
            for c in range(NUM_COLOURS)]
    out = np.zeros((1, ACTIONS.size), dtype=bool)
    out[0, :_TURN_ACTIONS_STOP] = new_ok + expand_ok + move_ok + lure_ok + [main, not main]
    return out
