"""The board: neighbour tables, bitboard flood fills, reachability, distances and cell facts.

The reachability rule (§5.1, R13) and the lure distances (§5.7) are the hot spots of the
game, so they run on bitboards: one board of 182 cells is four ``uint64`` words, row ``y``
occupying bits ``16*(y % 4) .. 16*(y % 4) + 13`` of word ``y // 4`` (so each row is one 16-bit
lane). A 4-neighbour dilation is then a handful of shifts over the rows of M boards at once.
Horizontal shifts never carry a set bit into the wrong row, because columns 0 and 13 are
restaurant cells and every flood is masked by the walkable cells, which are market cells only.

``Reachability.placements`` answers, for many candidate tile cells at once, whether placing a tile
there keeps every customer and entrance in one walkable component, and which neighbouring
cells would still be connected to them (the possible entrances of a new stall). Most cells
are settled by a local test on their 8-cell ring; only the possible cut cells get a flood
fill of their own.

Pure leaf kernels with a small-input form behind one signature: ``grow`` and
``walk_distances`` run on Python-int bitboards (one 256-bit int per board, the same bit
layout) for up to ``_FEW_BOARDS`` boards, and ``Reachability`` for one board
(``_ONE_BOARD``), where five integer operations replace a dozen NumPy calls;
``tests/cairo/test_cairo_board.py`` checks both forms against each other and against a
breadth-first search. The cut pieces and components of a walkable board are memoised
(``functools.lru_cache``): pure functions of the tiles, which most turns leave unchanged.

``Board`` gathers the per-cell facts of §5.1 (free, walkable, the target set K) that the
placement rules (``stalls.py``, ``expansion.py``) read.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from envs.cairo.data import (
    COLOUR_AREA,
    DIRECTIONS,
    HEIGHT,
    MARKET,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_SECTIONS,
    SECTION,
    WIDTH,
)
from envs.cairo.state import CairoState

OUTSIDE = NUM_CELLS  # sentinel index of a cell off the grid; arrays get a False column there
# Steps of the local detour search before a possible cut cell gets a whole-board flood fill:
# enough to walk around a group of up to 7 tiles in most shapes.
_NEARBY_STEPS = 10


def _neighbour_table() -> np.ndarray:
    """Orthogonal neighbours (N, E, S, W) of every cell, OUTSIDE off the grid."""
    neighbours = np.full((NUM_CELLS, 4), OUTSIDE, dtype=np.intp)
    for k in range(NUM_CELLS):
        x, y = k % WIDTH, k // WIDTH
        for i, (dx, dy) in enumerate(DIRECTIONS):
            if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT:
                neighbours[k, i] = WIDTH * (y + dy) + x + dx
    return neighbours


NEIGHBOURS = _neighbour_table()  # (182, 4) intp
_NEAR_ON_GRID = np.where(NEIGHBOURS == OUTSIDE, 0, NEIGHBOURS)  # off-grid neighbours as cell 0


# ---------------------------------------------------------------- bitboards
NUM_WORDS = 4
_BIT_INDEX = np.array(
    [64 * (k // WIDTH // 4) + 16 * (k // WIDTH % 4) + k % WIDTH for k in range(NUM_CELLS)],
    dtype=np.intp,
)  # (182,) position of each cell in the 256-bit board
CELL_WORD = (_BIT_INDEX // 64).astype(np.intp)  # (182,) word holding each cell
CELL_BIT = (np.uint64(1) << (_BIT_INDEX % 64).astype(np.uint64)).astype(np.uint64)  # (182,)


def pack(mask: np.ndarray) -> np.ndarray:
    """(M, 182) bool -> (M, 4) uint64 bitboards."""
    # Cell (x, y) is bit 16y + x: the grid laid into 16 × 16 bits by one block copy (a
    # scatter through ``_BIT_INDEX`` costs twice as much), then packed.
    num = mask.shape[0]
    buf = np.zeros((num, 16, 16), dtype=bool)
    buf[:, :HEIGHT, :WIDTH] = mask.reshape(num, HEIGHT, WIDTH)
    return np.packbits(buf.reshape(num, -1), axis=1, bitorder="little").view("<u8")


def unpack(boards: np.ndarray) -> np.ndarray:
    """(M, 4) uint64 bitboards -> (M, 182) bool."""
    bits = np.unpackbits(np.ascontiguousarray(boards).view(np.uint8), axis=1, bitorder="little")
    return bits[:, _BIT_INDEX].view(bool)  # 0 and 1 bytes: a bool view, no copy


_ONE = np.uint64(1)


class Growth:
    """4-neighbour growth steps of M bitboards kept inside ``walk`` (both (M, 4) uint64), on
    two buffers allocated once: each step is seven in-place NumPy calls on flat word arrays
    and allocates nothing (a flood makes dozens of steps of a few hundred boards, where the
    allocations and views of a step cost as much as its arithmetic).

    Each grid row is one 16-bit lane (row y: bits 16y .. 16y + 13), so the boards laid end to
    end are one flat array of rows: a horizontal step shifts whole words (a bit leaving its
    lane lands on column 14 or 15, which hold no cell and ``walk`` clears, or falls off the
    word), a vertical one ORs in the rows before and after, and every NumPy call is one
    contiguous loop. Across a boundary between two boards, the vertical step moves
    row 15 of one (never set: boards hold cell bits only) into row 0 of the next, and row 0
    of the next into row 15, which ``walk`` clears.

    The boards are not masked by ``walk`` first.
    """

    def __init__(self, boards: np.ndarray, walk: np.ndarray):
        self.shape = boards.shape
        self._walk = np.ascontiguousarray(walk, dtype=np.uint64).reshape(-1)
        self._shifted = np.empty_like(self._walk)
        # Per buffer: its words, and its rows but the last and but the first.
        buffers = []
        for words in (np.array(boards, dtype=np.uint64).reshape(-1), np.empty_like(self._walk)):
            rows = words.view("<u2")
            buffers.append((words, rows[:-1], rows[1:]))
        self._current, self._spare = buffers

    @property
    def boards(self) -> np.ndarray:
        """The boards grown so far, (M, 4) (a view the next step overwrites)."""
        return self._current[0].reshape(self.shape)

    def step(self) -> np.ndarray:
        """One growth step; returns ``boards``."""
        words, before, after = self._current
        out, out_before, out_after = self._spare
        np.left_shift(words, _ONE, out=out)
        np.right_shift(words, _ONE, out=self._shifted)
        np.bitwise_or(out, self._shifted, out=out)
        np.bitwise_or(out, words, out=out)
        np.bitwise_or(out_after, before, out=out_after)  # each row gets the row before
        np.bitwise_or(out_before, after, out=out_before)  # and the row after
        np.bitwise_and(out, self._walk, out=out)
        self._current, self._spare = self._spare, self._current
        return self.boards


# Up to this many boards, growth runs on Python integers (one 256-bit int per board, the
# same bit layout: row y at bits 16y .. 16y + 13), where a dilation is five integer operations
# instead of a dozen NumPy calls. Both forms give the same cells: boards only hold cell bits,
# and a bit carried across a word boundary lands on a non-cell bit that ``walk`` clears.
_FEW_BOARDS = 16
# ``Reachability`` takes its Python-int form for one board alone: its cut tests loop over the
# board's possible cut cells (a dozen or so), and their memoised pieces are new whenever the
# tiles are, as after most analyses (they follow a build), so for two boards or more the
# array form, whose calls serve every board at once, is the faster (three times at 16).
_ONE_BOARD = 1


def to_ints(boards: np.ndarray) -> list[int]:
    """(M, 4) uint64 bitboards -> M Python ints (256-bit, little-endian words)."""
    raw = np.ascontiguousarray(boards, dtype="<u8").tobytes()
    return [int.from_bytes(raw[i : i + 32], "little") for i in range(0, len(raw), 32)]


def mask_ints(mask: np.ndarray) -> list[int]:
    """(M, 182) bool -> M Python ints, as ``to_ints(pack(mask))`` gives them.

    Cell (x, y) sits at bit 16y + x, so each grid row of 14 cells packs into two bytes whose
    top two bits stay clear: one ``packbits`` call instead of the bit scatter of ``pack``.
    """
    raw = np.packbits(mask.reshape(-1, WIDTH), axis=1, bitorder="little").tobytes()
    size = 2 * HEIGHT
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, len(raw), size)]


def from_ints(values: list[int]) -> np.ndarray:
    """M Python ints (256-bit) -> (M, 4) uint64 bitboards (a fresh, writable array)."""
    raw = bytearray(b"".join(v.to_bytes(32, "little") for v in values))
    return np.frombuffer(raw, dtype="<u8").reshape(len(values), NUM_WORDS)


def _grow_int(current: int, walk: int, steps: int | None, until: int = 0) -> int:
    """``steps`` dilations of one integer board inside ``walk`` (None: to the fixed point).

    With ``until``, growth stops as soon as every bit of it is reached: the board is then a
    subset of the full answer that already holds those bits, all a caller asking only about
    them (and about bits that can never be reached) needs. A flood adds a cell every step
    until it stops, so NUM_CELLS steps always reach the fixed point.
    """
    for _ in range(NUM_CELLS if steps is None else steps):
        grown = (current | current << 1 | current >> 1 | current << 16 | current >> 16) & walk
        if grown == current:
            return current
        current = grown
        if until and current & until == until:
            return current
    return current


def grow(boards: np.ndarray, walk: np.ndarray, steps: int | None = None) -> np.ndarray:
    """``steps`` dilations of (M, 4) bitboards inside ``walk`` (None: flood to the fixed point).

    The boards are not masked by ``walk`` first (``flood`` does that).
    """
    if boards.shape[0] <= _FEW_BOARDS:
        return from_ints([_grow_int(b, w, steps) for b, w in
                          zip(to_ints(boards), to_ints(walk), strict=True)])
    growth = Growth(boards, walk)
    if steps is not None:
        for _ in range(steps):
            growth.step()
        return growth.boards
    while True:
        previous = growth.boards.tobytes()  # a byte comparison: a third of array_equal's cost
        for _ in range(4):
            growth.step()
        if growth.boards.tobytes() == previous:
            return growth.boards


def flood(seed: np.ndarray, walk: np.ndarray) -> np.ndarray:
    """The walkable cells connected to ``seed`` (both (M, 4) uint64), by repeated dilation."""
    return grow(seed & walk, walk)


def has_cell(boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Whether each board holds the given cell: boards (M, 4), cells (M,) or (M, n) ints >= 0."""
    cells = np.asarray(cells)
    rows = np.arange(boards.shape[0]).reshape((-1,) + (1,) * (cells.ndim - 1))
    # ``take`` on the flat words and tables: a third less than two-axis fancy indexing.
    words = np.ascontiguousarray(boards).reshape(-1).take(rows * NUM_WORDS + CELL_WORD.take(cells))
    return (words & CELL_BIT.take(cells)) != 0


# ---------------------------------------------------------------- neighbourhood shifts
_RING_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
# Per direction N, E, S, W: the flat index offset of the neighbour, and the grid column that a
# shifted slice of the flat cells fills from the next or previous row (its neighbour that way
# lies off the grid), to be cleared; None for N and S, which shift whole rows.
_STEP = [dx + WIDTH * dy for dx, dy in DIRECTIONS]
_OFF_COLUMN = [None if dx == 0 else (WIDTH - 1 if dx > 0 else 0) for dx, _ in DIRECTIONS]


def _neighbour_values(mask: np.ndarray, direction: int, out: np.ndarray) -> None:
    """Write into ``out`` (M, 182), zero beforehand, the value of ``mask`` (M, 182) at each
    cell's neighbour in ``direction`` (0 off the grid), by one shifted slice of the flat cells
    (bool or integer values)."""
    step = _STEP[direction]
    if step > 0:
        out[:, :-step] = mask[:, step:]
    else:
        out[:, -step:] = mask[:, :step]
    column = _OFF_COLUMN[direction]
    if column is not None:  # a plain copy and one column cleared: a product costs twice that
        out[..., column::WIDTH] = 0


def neighbour_planes(mask: np.ndarray) -> np.ndarray:
    """(M, 182) -> (M, 182, 4): the value at the N, E, S, W neighbour (False off the grid)."""
    planes = np.zeros((*mask.shape, 4), dtype=mask.dtype)
    for d in range(len(DIRECTIONS)):
        _neighbour_values(mask, d, planes[..., d])
    return planes


def any_neighbour(mask: np.ndarray) -> np.ndarray:
    """(M, 182) bool: some orthogonal neighbour of the cell is set in ``mask``.

    An unsigned integer ``mask`` gives the bitwise OR of the neighbours' values instead.
    """
    out = np.zeros_like(mask)
    value = np.zeros_like(mask)
    for d in range(len(DIRECTIONS)):
        _neighbour_values(mask, d, value)
        out |= value
    return out


def any_direction(planes: np.ndarray) -> np.ndarray:
    """(..., 4) bool -> (...): ``planes.any(axis=-1)``, read as one 4-byte word per cell (a
    reduction along a short last axis costs several times more)."""
    return np.ascontiguousarray(planes).view(np.uint32)[..., 0] != 0


_CELL_BITS = _BIT_INDEX.tolist()  # bit of each cell in a Python-int board
_CELL_OF_BIT = dict(zip(_CELL_BITS, range(NUM_CELLS), strict=True))
# Bits of the N, E, S, W neighbours of every cell, -1 off the grid.
_NEAR_BITS = [[_CELL_BITS[n] if n != OUTSIDE else -1 for n in row] for row in NEIGHBOURS.tolist()]


# ---------------------------------------------------------------- reachability (§5.1, §9.2)
@functools.lru_cache(maxsize=1 << 13)
def _cut_pieces(walk: int, cell: int) -> tuple[int, ...] | None:
    """The walkable cells of a Python-int board that stay linked to the neighbours of ``cell``
    once a tile stands on it: None when those neighbours meet again close by (nothing is cut
    off), else one component of the board without the cell per group of linked neighbours.

    A pure function of the walkable cells alone, so it is memoised: the same board comes back
    turn after turn (a lure or a draw leaves the tiles as they are), whatever its targets.
    """
    walk &= ~(1 << _CELL_BITS[cell])
    open_bits = [1 << bit for bit in _NEAR_BITS[cell] if bit >= 0 and walk >> bit & 1]
    wanted = sum(open_bits)
    if _grow_int(open_bits[0], walk, _NEARBY_STEPS, wanted) & wanted == wanted:
        return None
    pieces: list[int] = []
    for bit in open_bits:
        if not any(bit & piece for piece in pieces):
            pieces.append(_grow_int(bit, walk, None))
    return tuple(pieces)


def _cut_test(walk: int, goal: int, cell: int) -> tuple[bool, list[bool]] | None:
    """A tile on ``cell`` of a Python-int board: None when its walkable neighbours meet again
    close by (nothing is cut off), else (the targets ``goal`` stay in one component, which of
    the neighbours N, E, S, W stay connected to them).

    The same detour search and flood fill from the first target as
    ``Reachability.placements`` does for many boards; the flood is the piece of
    ``_cut_pieces`` that holds the first target.
    """
    pieces = _cut_pieces(walk, cell)
    if pieces is None:
        return None
    # The lowest bit is the first target cell: bits and cells share the row-major order.
    first = goal & -goal
    reached = next((piece for piece in pieces if piece & first), None)
    if reached is None:  # the first target lies apart from the cell
        walk &= ~(1 << _CELL_BITS[cell])
        reached = _grow_int(first & walk, walk, None)
    return not goal & ~reached, [bit >= 0 and bool(reached >> bit & 1) for bit in _NEAR_BITS[cell]]


def _ring_int(board: int, step: int) -> int:
    """The value of ``board`` at ring cell ``step`` (``_RING_STEPS``) of every cell.

    A shifted-out cell lands on a bit that holds no cell (columns 14 and 15, rows past 12)
    or falls off the end, so it reads as False, as off the grid.
    """
    dx, dy = _RING_STEPS[step]
    shift = dx + 16 * dy
    return board >> shift if shift >= 0 else board << -shift


def _ring_words(flat: np.ndarray, step: int) -> np.ndarray:
    """``_ring_int`` of bitboards laid end to end as (M * 4,) uint64 words.

    Each 256-bit shift carries across words; across a boundary between two boards it reads
    rows 14 and 15 (never set) or writes there, where the cells' masks clear it.
    """
    dx, dy = _RING_STEPS[step]
    shift = dx + 16 * dy
    if shift >= 0:
        out = flat >> np.uint64(shift)
        out[:-1] |= flat[1:] << np.uint64(64 - shift)
    else:
        out = flat << np.uint64(-shift)
        out[1:] |= flat[:-1] >> np.uint64(64 + shift)
    return out


def _ring_cut(ring: list) -> int | np.ndarray:
    """The cells whose walkable orthogonal neighbours do not all stay linked around their
    8-cell ring, from the ring values (N, NE, E, ..., NW) of every cell as boards.

    Consecutive ring cells are orthogonally adjacent, so two walkable orthogonal neighbours
    stay linked without the cell when the diagonal cell between them is walkable too. The
    walkable orthogonal neighbours thus form arcs on the ring; an arc starts at one not linked
    to the one before it, and the ring fails when two or more arcs start. Only such cells can
    split the walkable cells around them.
    """
    orth, diagonal = ring[0::2], ring[1::2]  # N, E, S, W and NE, SE, SW, NW
    linked = [orth[i] & diagonal[i] & orth[(i + 1) % 4] for i in range(4)]
    starts = [orth[i] & ~linked[i - 1] for i in range(4)]
    return ((starts[0] | starts[1]) & (starts[2] | starts[3]) | starts[0] & starts[1]
            | starts[2] & starts[3])


@functools.lru_cache(maxsize=1 << 10)
def _walk_components(walk: int) -> tuple[int, ...]:
    """The connected components of the walkable cells of a Python-int board (memoised like
    ``_cut_pieces``: it depends on the tiles alone)."""
    components = []
    rest = walk
    while rest:
        component = _grow_int(rest & -rest, walk, None)
        components.append(component)
        rest &= ~component
    return tuple(components)


def _goal_component(walk: int, goal: int) -> int:
    """The walkable cells connected to ``goal``: ``_grow_int(goal & walk, walk, None)``."""
    out = 0
    for component in _walk_components(walk):
        if component & goal:
            out |= component
    return out


@functools.lru_cache(maxsize=1 << 10)
def _locally_cut(walk: int) -> int:
    """``_ring_cut`` of one Python-int board (memoised like ``_walk_components``)."""
    return _ring_cut([_ring_int(walk, step) for step in range(len(_RING_STEPS))])


class Reachability:
    """Reachability of tiles placed on candidate cells, for M boards at once.

    Args:
        walk: (M, 182) bool, walkable cells (market cells without a tile).
        targets: (M, 182) bool, customer and entrance cells (the set K of §9.2); they are
            assumed to lie in one walkable component, as the rules keep them.

    Attributes:
        component: (M, 182) bool, K's component of the walkable cells.
        suspect: (M, 182) bool, the cells of the component whose walkable neighbours do not
            all stay linked around their ring: only these can split K, and only they get a
            detour search and a flood fill of their own.
    """

    def __init__(self, walk: np.ndarray, targets: np.ndarray):
        self.walk = walk
        self.targets = targets
        # Few boards: the Python-int forms of the boards, grown and shifted directly.
        self._ints = None
        if walk.shape[0] <= _ONE_BOARD:
            walks, goals = mask_ints(walk), mask_ints(targets)
            components = [_goal_component(w, t) for t, w in zip(goals, walks, strict=True)]
            self._ints = walks, goals, components
            self.component = unpack(from_ints(components))
            self.suspect = unpack(from_ints([component & _locally_cut(w) for component, w
                                             in zip(components, walks, strict=True)]))
        else:
            self.walk_bits = pack(walk)
            self.target_bits = pack(targets)
            flat = self.walk_bits.reshape(-1)
            ring = [_ring_words(flat, step) for step in range(len(_RING_STEPS))]
            self._ring_cut = _ring_cut(ring).reshape(self.walk_bits.shape)
            self._component_bits: np.ndarray | None = None

    # The few-boards path sets both in ``__init__``. The many-boards one floods K's component
    # inside ``placements``, alongside the pairs' own growth; read before that, it is flooded
    # alone.
    @functools.cached_property
    def component(self) -> np.ndarray:
        if self._component_bits is None:
            self._component_bits = flood(self.target_bits, self.walk_bits)
        return unpack(self._component_bits)

    @functools.cached_property
    def suspect(self) -> np.ndarray:
        return self.component & unpack(self._ring_cut)

    def placements(self, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Effect of one tile on each candidate cell (free cells: no customer or entrance).

        Returns:
            ``safe`` (M, 182) bool: a tile on the cell leaves K in one component (True for
            cells that are not candidates); ``connected`` (M, 182, 4) bool: the neighbour in
            direction N, E, S, W would lie in K's component with the tile placed (the entrance
            test of a new stall). Only candidate entries are meaningful.
        """
        safe = np.ones(candidates.shape, dtype=bool)
        if self._ints is not None:
            boards, cells = np.nonzero(candidates & self.suspect)
            connected = neighbour_planes(self.component)
            self._placements_few(boards.tolist(), cells.tolist(), safe, connected)
            return safe, connected
        if self._component_bits is not None:
            suspect = self.suspect
        else:  # the component comes with the pairs' growth: suspects by their ring alone
            suspect = unpack(self._ring_cut)
        boards, cells = np.nonzero(candidates & suspect)
        num = self.walk_bits.shape[0]
        # The detour search of every pair and K's flood share their growth steps: one NumPy
        # call grows them all (the calls cost more than the cells they touch).
        walk_without, reached, walkable, near, first = self._nearby_start(boards, cells)
        grown = grow(np.concatenate([self.target_bits & self.walk_bits, reached]),
                     np.concatenate([self.walk_bits, walk_without]), _NEARBY_STEPS)
        component, reached = grown[:num], grown[num:]
        met = (has_cell(reached, np.where(walkable, near, first[:, None])) | ~walkable).all(axis=1)
        boards, cells, walk_without = boards[~met], cells[~met], walk_without[~met]
        # The pairs left (usually true cut cells) flood from the first target, alongside the
        # rest of K's flood.
        pairs = np.arange(boards.size)
        first_target = np.argmax(self.targets[boards], axis=1)
        seed = np.zeros_like(walk_without)
        seed[pairs, CELL_WORD[first_target]] = CELL_BIT[first_target]
        grown = flood(np.concatenate([component, seed]),
                      np.concatenate([self.walk_bits, walk_without]))
        self._component_bits, reached = grown[:num], grown[num:]
        in_component = has_cell(self._component_bits[boards], cells)
        boards, cells, reached = boards[in_component], cells[in_component], reached[in_component]
        connected = neighbour_planes(self.component)  # (M, 182, 4)
        safe[boards, cells] = ~(self.target_bits[boards] & ~reached).any(axis=1)
        near = NEIGHBOURS[cells]  # (n, 4)
        inside = near != OUTSIDE
        connected[boards, cells] = inside & has_cell(reached, np.where(inside, near, 0))
        return safe, connected

    def _placements_few(self, boards: list[int], cells: list[int], safe: np.ndarray,
                        connected: np.ndarray) -> None:
        """The suspect (board, cell) pairs of ``placements`` on Python-int boards, one by one:
        the same detour search and flood fill as the many-boards path."""
        walks, goals, _ = self._ints
        for board, cell in zip(boards, cells, strict=True):
            cut = _cut_test(walks[board], goals[board], cell)
            if cut is not None:
                safe[board, cell], connected[board, cell] = cut

    def _nearby_start(self, boards: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, ...]:
        """The detour search of the (board, cell) pairs, before its growth.

        Without the cell, a short walk from one of its walkable neighbours that reaches all
        the others proves that nothing is cut off, so K's component is unchanged. Only the
        pairs left over (usually true cut cells) need a flood fill over the whole board.

        Returns:
            Per pair: its board without the cell (n, 4), the walk's start (n, 4) (the first
            walkable neighbour), which neighbours are walkable (n, 4) and their cells (n, 4),
            and the start cell (n,).
        """
        near = NEIGHBOURS[cells]  # (n, 4)
        # The flat walkable cells read by ``take`` (off-grid neighbours read cell 0 and are
        # then cleared): a third less than two-axis fancy indexing.
        flat_near = boards[:, None] * NUM_CELLS + _NEAR_ON_GRID.take(cells, axis=0)
        walkable = (near != OUTSIDE) & self.walk.reshape(-1).take(flat_near)
        pairs = np.arange(boards.size)
        first = near.reshape(-1).take(pairs * 4 + np.argmax(walkable, axis=1))
        walk_without = self.walk_bits[boards]
        walk_without[pairs, CELL_WORD[cells]] &= ~CELL_BIT[cells]
        reached = np.zeros_like(walk_without)
        reached[pairs, CELL_WORD[first]] = CELL_BIT[first]
        return walk_without, reached, walkable, near, first


def walk_distances(
    walk: np.ndarray, sources: np.ndarray, goals: np.ndarray, goal_valid: np.ndarray
) -> np.ndarray:
    """Walking distance from one source cell to several goal cells per board (§5.1 ``dist``).

    Args:
        walk: (M, 182) bool walkable cells.
        sources: (M,) int start cells (walkable).
        goals: (M, n) int goal cells (any value where ``goal_valid`` is False).
        goal_valid: (M, n) bool.

    Returns:
        (M, n) int32 distances; -1 for invalid or unreachable goals.
    """
    m = walk.shape[0]
    goals = np.where(goal_valid, goals, 0)
    dist = np.full(goals.shape, -1, dtype=np.int32)
    if m <= _FEW_BOARDS:
        _walk_distances_int(mask_ints(walk), sources, goals, goal_valid, dist)
        return dist
    seed = np.zeros((m, NUM_WORDS), dtype=np.uint64)
    seed[np.arange(m), CELL_WORD[sources]] = CELL_BIT[sources]
    growth = Growth(seed, pack(walk))
    # Every goal's word in the flat (M * 4,) boards, and its bit there (0 for no goal).
    word = (np.arange(m)[:, None] * NUM_WORDS + CELL_WORD[goals]).reshape(-1)
    bit = np.where(goal_valid, CELL_BIT[goals], np.uint64(0)).reshape(-1)
    goal_bits = np.zeros(m * NUM_WORDS, dtype=np.uint64)
    np.bitwise_or.at(goal_bits, word, bit)
    # Grow four steps at a time, keeping every step; stop once every goal is reached or the
    # growth stops. A step's boards hold the previous step's, so a goal's distance is the
    # number of kept steps before the first that holds it, counted over all the steps at
    # once: the steps themselves stay a few NumPy calls each. Growth stops within NUM_CELLS
    # steps (it adds a cell a step until then) and is seen to within 8 more.
    layers = np.empty((NUM_CELLS + 8, m * NUM_WORDS), dtype=np.uint64)
    layers[0] = seed.reshape(-1)
    count = 0
    while True:
        for _ in range(4):
            count += 1
            np.copyto(layers[count], growth.step().reshape(-1))
        reached = layers[count]
        if not (goal_bits & ~reached).any():
            break
        if reached.tobytes() == layers[count - 4].tobytes():
            break
    hit = (layers[: count + 1].take(word, axis=1) & bit) != 0  # (S, M * n)
    held = np.add.reduce(hit.view(np.uint8), axis=0).reshape(goals.shape)  # steps holding it
    found = held > 0
    dist[found] = count + 1 - held[found]
    return dist


def _walk_distances_int(walks: list[int], sources: np.ndarray, goals: np.ndarray,
                        goal_valid: np.ndarray, dist: np.ndarray) -> None:
    """``walk_distances`` on Python-int boards, one board at a time, filling ``dist``."""
    for i, (walk, source) in enumerate(zip(walks, sources.tolist(), strict=True)):
        dist[i] = _walk_distances_one(walk, source, [
            goal if valid else None
            for goal, valid in zip(goals[i].tolist(), goal_valid[i].tolist(), strict=True)])


def _walk_distances_one(walk: int, source: int, goals: list[int | None]) -> list[int]:
    """``walk_distances`` of one Python-int board: from cell ``source`` to each goal cell
    (None: no goal), -1 for no goal or an unreachable one."""
    dist = [-1] * len(goals)
    pending = {j: 1 << _CELL_BITS[cell] for j, cell in enumerate(goals) if cell is not None}
    if not pending:
        return dist
    reached = 1 << _CELL_BITS[source]
    goal = 0
    for bit in pending.values():
        goal |= bit
    for step in range(NUM_CELLS):
        # Most steps reach no goal: one test against their union skips the scan.
        if reached & goal:
            for j in [j for j, bit in pending.items() if reached & bit]:
                dist[j] = step
                goal &= ~pending.pop(j)
            if not pending:
                break
        grown = (reached | reached << 1 | reached >> 1 | reached << 16 | reached >> 16) & walk
        if grown == reached:
            break
        reached = grown
    return dist


# ---------------------------------------------------------------- cell facts (§5.1)
@dataclasses.dataclass
class Board:
    """The boards of R rows, with the per-cell facts every placement rule reads.

    Attributes:
        tile: (R, 182) int8, group id ``owner*6 + colour`` of the tile on each cell, -1 none.
        entrance: (R, 182) int8, group id of the stall whose entrance is on the cell, -1 none.
        customers: (R, 182) bool, a customer stands on the cell.
        occupied: (R, 182) bool, a tile is on the cell.
        free: (R, 182) bool, §5.1 free: no tile, no entrance, no customer.
        walk: (R, 182) bool, §5.1 walkable: a market cell without a tile.
        targets: (R, 182) bool, customer and entrance cells (the set K of §9.2).
    """

    tile: np.ndarray
    entrance: np.ndarray
    customers: np.ndarray

    def __post_init__(self) -> None:
        self.occupied = self.tile >= 0
        self.targets = self.customers | (self.entrance >= 0)
        self.free = ~self.occupied & ~self.targets
        self.walk = MARKET & ~self.occupied

    @functools.cached_property
    def tile_near(self) -> np.ndarray:
        """(R, 182) bool: some tile is orthogonally adjacent."""
        return any_neighbour(self.occupied)

    @functools.cached_property
    def entrance_free(self) -> np.ndarray:
        """(R, 182, 4) bool: the neighbour in the direction is a free market cell, where an
        entrance can go."""
        return neighbour_planes(self.free & MARKET)

    def placements(self, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``Reachability.placements`` of tiles on the ``candidates`` (R, 182) of these boards:
        (safe (R, 182), connected (R, 182, 4)), meaningful at the candidates."""
        return Reachability(self.walk, self.targets).placements(candidates)


def customer_cells(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 182) bool: the cells of ``rows`` with a customer on them."""
    out = np.zeros((len(rows), NUM_CELLS), dtype=bool)
    cells = state.customer[rows]
    held, colours = np.nonzero(cells >= 0)
    out[held, cells[held, colours]] = True
    return out


def board_of(state: CairoState, rows: np.ndarray, customers: np.ndarray | None = None) -> Board:
    """The ``Board`` of ``rows`` (R,); ``customers`` is their ``customer_cells`` when the caller
    has them already."""
    if customers is None:
        customers = customer_cells(state, rows)
    return Board(state.tile[rows], state.entrance[rows], customers)


# Every cell's position in the cells sorted by section, and where each section starts there:
# a section-wise reduction is then one ``reduceat``.
_BY_SECTION = np.argsort(SECTION, kind="stable")
_SECTION_STARTS = np.searchsorted(SECTION[_BY_SECTION], np.arange(NUM_SECTIONS))


def section_union(cells: np.ndarray) -> np.ndarray:
    """(..., 9): the union (bitwise OR) of the values of the cells (..., 182) of each section:
    whether a section holds a set cell, for bool cells; the colours present, for colour sets."""
    return np.bitwise_or.reduceat(cells[..., _BY_SECTION], _SECTION_STARTS, axis=-1)


# ---------------------------------------------------------------- colour sets
# A set of colours is a uint8 (bit c: colour c): one byte per cell stands for six planes.
_COLOURS_U8 = np.arange(NUM_COLOURS, dtype=np.uint8)
_COLOUR_WEIGHTS = np.uint8(1) << _COLOURS_U8
AREA_CODE = (COLOUR_AREA.astype(np.uint8) << _COLOURS_U8[:, None]).sum(axis=0, dtype=np.uint8)
"""(182,) uint8: the colours whose area (§5.1) holds the cell."""


def colour_bits(flags: np.ndarray, axis: int = -1) -> np.ndarray:
    """uint8 colour sets of bool ``flags`` with the six colours on ``axis``."""
    # A product with the bits' weights: a sum along the short axis costs several times more.
    return np.moveaxis(flags, axis, -1).view(np.uint8) @ _COLOUR_WEIGHTS


def colours_of(codes: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the colours of (R,) uint8 colour sets."""
    return (codes[:, None] >> _COLOURS_U8 & 1).view(bool)


def colour_planes(codes: np.ndarray) -> np.ndarray:
    """(..., 6, n) bool: the six colour planes of (..., n) uint8 colour sets."""
    return (codes[..., None, :] >> _COLOURS_U8[:, None] & 1).view(bool)


def has_colour(codes: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """(R, n) bool: the colour sets (R, n) hold the row's ``colour`` (R,)."""
    return (codes >> colour.astype(np.uint8)[:, None] & 1).view(bool)
