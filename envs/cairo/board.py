"""The board: neighbour tables, bitboard flood fills, reachability, distances and cell facts.

The reachability rule (§5.1, R13) and the lure distances (§5.7) are the hot spots of the
game, so they run on bitboards inside compiled per-row functions: one board of 182 cells is
four ``uint64`` words, row ``y`` occupying bits ``16*(y % 4) .. 16*(y % 4) + 13`` of word
``y // 4`` (so each row is one 16-bit lane and the grid is one 256-bit number, cell ``(x, y)``
at bit ``16y + x``). A 4-neighbour dilation is then a handful of shifts and a carry between
words. Horizontal shifts never carry a set bit into the wrong row, because columns 0 and 13
are restaurant cells and every flood is masked by the walkable cells, which are market cells
only; the lanes' columns 14 and 15 and the rows past 12 hold no cell, so a shift that reads
them reads False, as off the grid.

The per-row functions take (4,) ``uint64`` boards and write their results into arrays they
are given: ``board_bits`` (the walkable cells and the target set K of one row's state;
``walk_bits`` the walkable cells alone),
``has_bit``, ``flood_bits``, ``component_bits``, ``ring_cut_bits``, ``placements_row`` and
``walk_distances_row``, ``mask_bits`` (a (182,) bool mask as a board). Inside them a board
is a tuple of four words, which numba keeps in registers: they allocate nothing, so the
rules' per-row kernels can call them for every row, in parallel or not. The rules
(``rules/placement.py``) work on such tuples themselves: ``load``/``store``, ``union``,
``intersection``, ``difference``, ``neighbours_of``, ``sections_board`` and ``cells_of``
(the cells of a board, by a de Bruijn lookup of each lowest bit) turn a rule over cells into
a few whole-board operations.

``placement_boards`` answers, for every candidate tile cell of a board, whether placing a
tile there keeps every customer and entrance in one walkable component, and which
neighbouring cells would still be connected to them (the possible entrances of a new
stall). Most cells are settled by a bit-parallel test on their 8-cell ring; only the
possible cut cells get a detour search (a walk around the cell, which most often closes
within a few steps), and the true cut cells a flood fill from the first target (the detour's
piece, when it holds it). ``placements_row`` gives its answer as cell arrays.

The NumPy-facing forms (``Reachability``, ``walk_distances``, ``flood``, ``Board``) run one
compiled call over all their rows. ``Board`` gathers the per-cell facts of §5.1 (free,
walkable, the target set K) that the placement rules (``stalls.py``, ``expansion.py``) read;
the neighbour planes, section unions and colour sets below serve those NumPy callers.
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
from envs.core.jit import local_zeros, njit

OUTSIDE = NUM_CELLS  # sentinel index of a cell off the grid; arrays get a False column there


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

# ---------------------------------------------------------------- bitboard layout
NUM_WORDS = 4
_LANE = 16  # bits per grid row
_BIT_INDEX = np.array(
    [64 * (k // WIDTH // 4) + _LANE * (k // WIDTH % 4) + k % WIDTH for k in range(NUM_CELLS)],
    dtype=np.intp,
)  # (182,) position of each cell in the 256-bit board
CELL_WORD = (_BIT_INDEX // 64).astype(np.intp)  # (182,) word holding each cell
CELL_BIT = (np.uint64(1) << (_BIT_INDEX % 64).astype(np.uint64)).astype(np.uint64)  # (182,)
# (5,) the first cell of each word, then NUM_CELLS: word i holds cells WORD_CELLS[i]..[i+1]
WORD_CELLS = np.searchsorted(CELL_WORD, np.arange(NUM_WORDS + 1)).astype(np.intp)
# (182, 4) uint64: each cell alone as a board, so setting or clearing a cell is a whole-board
# OR or AND NOT of tuples, without a branch on its word.
_CELL_BOARD = np.zeros((NUM_CELLS, NUM_WORDS), dtype=np.uint64)
_CELL_BOARD[np.arange(NUM_CELLS), CELL_WORD] = CELL_BIT

# Every constant that meets a word is a uint64: numba turns a mix of uint64 and int64 into
# float64.
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_SHIFT_ROW = np.uint64(_LANE)  # one grid row
_SHIFT_CARRY = np.uint64(64 - _LANE)  # the top row of a word to the bottom of the next
_SHIFT_COLUMN = np.uint64(1)

# The 8-cell ring of a cell, N, NE, E, SE, S, SW, W, NW, and the orthogonal neighbours N, E,
# S, W, as bit offsets (dx + 16 dy). They are read from arrays, so a call gets an int64: numba
# compiles a function once more for every literal int it is called with.
_RING_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_RING_SHIFTS = np.array([dx + _LANE * dy for dx, dy in _RING_STEPS], dtype=np.int64)
_NEIGHBOUR_SHIFTS = np.array([dx + _LANE * dy for dx, dy in DIRECTIONS], dtype=np.int64)

def _cells_board(cells: np.ndarray) -> np.ndarray:
    """(4,) uint64: the board of the cells where ``cells`` (182,) bool is set."""
    return np.bitwise_or.reduce(_CELL_BOARD[cells], axis=0)


CELLS_BOARD = _cells_board(np.ones(NUM_CELLS, dtype=bool))  # (4,) every cell of the grid
MARKET_BOARD = _cells_board(MARKET)  # (4,) the market cells
SECTION_BOARDS = np.stack([_cells_board(k == SECTION) for k in range(NUM_SECTIONS)])  # (9, 4)
AREA_BOARDS = np.stack([_cells_board(area) for area in COLOUR_AREA])  # (6, 4) §5.1 areas

# The cells of a board one by one: a word's lowest set bit, isolated, times a de Bruijn
# constant holds the bit's index in its top six bits (``_DEBRUIJN_INDEX``); ``BIT_CELL`` maps
# a board bit to its cell.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_INDEX[((1 << _bit) * int(_DEBRUIJN) & (1 << 64) - 1) >> 58] = _bit
_SHIFT_DEBRUIJN = np.uint64(58)
BIT_CELL = np.full(NUM_WORDS * 64, -1, dtype=np.int64)  # (256,) the cell at each bit, -1 none
BIT_CELL[_BIT_INDEX] = np.arange(NUM_CELLS)
for _table in (NEIGHBOURS, CELL_WORD, CELL_BIT, WORD_CELLS, _CELL_BOARD, _RING_SHIFTS,
               _NEIGHBOUR_SHIFTS, CELLS_BOARD, MARKET_BOARD, SECTION_BOARDS, AREA_BOARDS,
               _DEBRUIJN_INDEX, BIT_CELL):
    _table.flags.writeable = False


# ---------------------------------------------------------------- per-row bitboards
# A board inside the functions below is a tuple of its four words (numba keeps it in
# registers); the public ones read and write (4,) uint64 arrays.
@njit
def load(board: np.ndarray) -> tuple:
    """The four words of a (4,) board as a tuple."""
    return board[0], board[1], board[2], board[3]


@njit
def store(bits: tuple, out: np.ndarray) -> None:
    """Write a board tuple into ``out`` (4,) uint64."""
    for i in range(NUM_WORDS):
        out[i] = bits[i]


@njit
def cell_bits(cell: int) -> tuple:
    """The board holding ``cell`` alone."""
    return load(_CELL_BOARD[cell])


@njit
def union(a: tuple, b: tuple) -> tuple:
    return a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]


@njit
def intersection(a: tuple, b: tuple) -> tuple:
    return a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]


@njit
def difference(a: tuple, b: tuple) -> tuple:
    """The cells of ``a`` not in ``b``."""
    return a[0] & ~b[0], a[1] & ~b[1], a[2] & ~b[2], a[3] & ~b[3]


@njit
def is_empty(a: tuple) -> bool:
    return (a[0] | a[1] | a[2] | a[3]) == _ZERO


@njit
def _same(a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3]


@njit
def _word(board: tuple | np.ndarray, i: int) -> np.uint64:
    """Word ``i`` (0..3) of ``board``.

    Branches on the index rather than ``board[i]``: numba reads a tuple at a variable
    index through a copy on the stack, which made ``has_bit`` five times slower.
    """
    if i == 0:
        return board[0]
    if i == 1:
        return board[1]
    if i == 2:
        return board[2]
    return board[3]


@njit
def has_bit(board: np.ndarray | tuple, cell: int) -> bool:
    """Whether ``board`` ((4,) uint64, or a tuple of its words) holds ``cell`` (0..181)."""
    return (_word(board, CELL_WORD[cell]) & CELL_BIT[cell]) != _ZERO


@njit
def mask_bits(mask: np.ndarray, out: np.ndarray) -> None:
    """Write the cells of ``mask`` (182,) bool into the board ``out`` (4,) uint64."""
    for i in range(NUM_WORDS):
        out[i] = _ZERO
    for cell in range(NUM_CELLS):
        if mask[cell]:
            out[CELL_WORD[cell]] |= CELL_BIT[cell]


@njit
def present_word(values: np.ndarray, word: int) -> np.uint64:
    """Word ``word`` of the board of the cells where ``values`` (182,) holds an id (>= 0).

    Built without a branch per cell: a board makes such branches random, and their
    mispredictions cost more than the cells' work.
    """
    bits = _ZERO
    # Unsigned cells: numba skips its test for a negative index, and LLVM vectorises.
    for cell in range(np.uint64(WORD_CELLS[word]), np.uint64(WORD_CELLS[word + 1])):
        bits |= CELL_BIT[cell] if values[cell] >= 0 else _ZERO
    return bits


@njit
def walk_bits(tile: np.ndarray, walk: np.ndarray) -> None:
    """One row's walkable cells (§5.1: market cells without a tile, ``tile`` (182,) int8)
    into ``walk`` (4,) uint64."""
    for word in range(NUM_WORDS):
        walk[word] = MARKET_BOARD[word] & ~present_word(tile, word)


@njit
def board_bits(tile: np.ndarray, entrance: np.ndarray, customer: np.ndarray,
               walk: np.ndarray, targets: np.ndarray) -> None:
    """One row's walkable cells and target set K as boards (§5.1, §9.2).

    Args:
        tile: (182,) int8, group id of the tile on each cell, -1 none.
        entrance: (182,) int8, group id of the stall whose entrance is on the cell, -1 none.
        customer: (6,) int16, cell of each colour's customer, -1 off the board.
        walk: (4,) uint64, written: the walkable cells, market cells without a tile.
        targets: (4,) uint64, written: the customer and entrance cells.
    """
    walk_bits(tile, walk)
    for word in range(NUM_WORDS):
        targets[word] = present_word(entrance, word)
    for colour in range(customer.shape[0]):
        if customer[colour] >= 0:
            targets[CELL_WORD[customer[colour]]] |= CELL_BIT[customer[colour]]


@njit
def _dilated_word(below: np.uint64, word: np.uint64, above: np.uint64,
                  walk: np.uint64) -> np.uint64:
    """One word of a dilation: its cells, their row neighbours and the rows next to them
    (the top row of the word ``below`` and the bottom row of the word ``above`` included),
    inside ``walk``."""
    return (word | word << _SHIFT_COLUMN | word >> _SHIFT_COLUMN | word << _SHIFT_ROW
            | word >> _SHIFT_ROW | below >> _SHIFT_CARRY | above << _SHIFT_CARRY) & walk


@njit
def _dilate(board: tuple, walk: tuple) -> tuple:
    """One 4-neighbour growth step of ``board`` inside ``walk``."""
    return (_dilated_word(_ZERO, board[0], board[1], walk[0]),
            _dilated_word(board[0], board[1], board[2], walk[1]),
            _dilated_word(board[1], board[2], board[3], walk[2]),
            _dilated_word(board[2], board[3], _ZERO, walk[3]))


@njit
def _flood_towards(seed: tuple, walk: tuple, goal: tuple) -> tuple:
    """Grow ``seed`` inside ``walk`` until it holds every cell of ``goal`` or stops growing.

    Returns:
        The board grown so far, and whether it holds ``goal``; when it does not, the board
        is every cell of ``walk`` connected to the seed. A flood adds a cell every step until
        it stops, so it ends within 182 steps.
    """
    board = seed
    while not is_empty(difference(goal, board)):
        grown = _dilate(board, walk)
        if _same(grown, board):
            return board, False
        board = grown
    return board, True


# A goal that no flood reaches (bit 14 of row 0: a lane bit past the grid's columns), so that
# ``_flood_towards`` runs to the end.
_UNREACHABLE = (np.uint64(1) << np.uint64(WIDTH), _ZERO, _ZERO, _ZERO)


@njit
def _flood(seed: tuple, walk: tuple) -> tuple:
    """The cells of ``walk`` connected to ``seed`` (the seed's cells outside ``walk`` left
    out)."""
    return _flood_towards(intersection(seed, walk), walk, _UNREACHABLE)[0]


@njit
def flood_bits(seed: np.ndarray, walk: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` the cells of ``walk`` connected to ``seed`` (all (4,) uint64)."""
    store(_flood(load(seed), load(walk)), out)


@njit
def component_bits(walk: np.ndarray, targets: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` the walkable component(s) of the targets: ``flood_bits(targets,
    walk, out)`` (the rules keep K in one component, §5.1)."""
    flood_bits(targets, walk, out)


@njit
def _shifted_word(below: np.uint64, word: np.uint64, above: np.uint64,
                  shift: int) -> np.uint64:
    """One word of a board shifted toward bit 0 by ``shift`` bits (away from it when
    negative, 0 < |shift| < 64), the words ``below`` and ``above`` carried in."""
    if shift > 0:
        return word >> np.uint64(shift) | above << np.uint64(64 - shift)
    return word << np.uint64(-shift) | below >> np.uint64(64 + shift)


@njit
def _shifted(board: tuple, shift: int) -> tuple:
    """``board`` shifted by ``shift`` bits: at every cell, the value of the cell ``shift``
    bits on (``_RING_SHIFTS``). A cell whose cell that way is off the grid reads a bit that
    holds no cell, or one shifted in as 0."""
    return (_shifted_word(_ZERO, board[0], board[1], shift),
            _shifted_word(board[0], board[1], board[2], shift),
            _shifted_word(board[1], board[2], board[3], shift),
            _shifted_word(board[2], board[3], _ZERO, shift))


@njit
def ring_cut_word(north: np.uint64, north_east: np.uint64, east: np.uint64,
                  south_east: np.uint64, south: np.uint64, south_west: np.uint64,
                  west: np.uint64, north_west: np.uint64) -> np.uint64:
    """The cells whose walkable orthogonal neighbours do not all stay linked around their
    8-cell ring, from the ring's values at every cell (one word of boards each, or 0/1).

    Consecutive ring cells are orthogonally adjacent, so two walkable orthogonal neighbours
    stay linked without the cell when the diagonal cell between them is walkable too. The
    walkable orthogonal neighbours thus form arcs on the ring; an arc starts at one not linked
    to the one before it, and the ring fails when two or more arcs start. Only such cells can
    split the walkable cells around them.
    """
    linked_north = west & north_west & north  # W and N linked through NW, and so on
    linked_east = north & north_east & east
    linked_south = east & south_east & south
    linked_west = south & south_west & west
    start_north = north & ~linked_north  # an arc starts at N: N not linked to W before it
    start_east = east & ~linked_east
    start_south = south & ~linked_south
    start_west = west & ~linked_west
    return ((start_north | start_east) & (start_south | start_west)
            | start_north & start_east | start_south & start_west)


@njit
def _ring_cut(walk: tuple) -> tuple:
    """The cells of a board whose ring fails (``ring_cut_word``): the possible cut cells."""
    n, ne = _shifted(walk, _RING_SHIFTS[0]), _shifted(walk, _RING_SHIFTS[1])
    e, se = _shifted(walk, _RING_SHIFTS[2]), _shifted(walk, _RING_SHIFTS[3])
    s, sw = _shifted(walk, _RING_SHIFTS[4]), _shifted(walk, _RING_SHIFTS[5])
    w, nw = _shifted(walk, _RING_SHIFTS[6]), _shifted(walk, _RING_SHIFTS[7])
    return (ring_cut_word(n[0], ne[0], e[0], se[0], s[0], sw[0], w[0], nw[0]),
            ring_cut_word(n[1], ne[1], e[1], se[1], s[1], sw[1], w[1], nw[1]),
            ring_cut_word(n[2], ne[2], e[2], se[2], s[2], sw[2], w[2], nw[2]),
            ring_cut_word(n[3], ne[3], e[3], se[3], s[3], sw[3], w[3], nw[3]))


@njit
def ring_cut_bits(walk: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` the cells whose walkable neighbours do not all stay linked around
    their ring (``ring_cut_word``): only they can cut ``walk`` apart (both (4,) uint64)."""
    store(_ring_cut(load(walk)), out)


@njit(inline="always")
def _low_bit(word: np.uint64) -> int:
    """The index (0..63) of the lowest set bit of a nonzero ``word``."""
    return _DEBRUIJN_INDEX[((word & (~word + _ONE)) * _DEBRUIJN) >> _SHIFT_DEBRUIJN]


@njit
def cells_of(board: tuple, out: np.ndarray) -> int:
    """Write the cells of ``board`` (a tuple of its words, cells only) into ``out`` (182,)
    int64 in increasing order; return how many there are."""
    count = 0
    for i in range(NUM_WORDS):
        word = _word(board, i)
        while word != _ZERO:
            out[count] = BIT_CELL[64 * i + _low_bit(word)]
            count += 1
            word &= word - _ONE
    return count


@njit
def first_cell(board: tuple) -> int:
    """The lowest cell of ``board`` (cells only), -1 when it is empty."""
    for i in range(NUM_WORDS):
        word = _word(board, i)
        if word != _ZERO:
            return BIT_CELL[64 * i + _low_bit(word)]
    return -1


@njit
def sections_board(sections: int) -> tuple:
    """The board of the cells of a 9-bit set of sections."""
    out = (_ZERO, _ZERO, _ZERO, _ZERO)
    for section in range(NUM_SECTIONS):
        if sections >> section & 1:
            out = union(out, load(SECTION_BOARDS[section]))
    return out


@njit
def board_sections(board: tuple) -> int:
    """The 9-bit set of the sections holding a cell of ``board``."""
    out = 0
    for section in range(NUM_SECTIONS):
        if not is_empty(intersection(board, load(SECTION_BOARDS[section]))):
            out |= 1 << section
    return out


@njit
def neighbours_of(board: tuple) -> tuple:
    """The cells with an orthogonal neighbour in ``board`` (cells only)."""
    out = (_ZERO, _ZERO, _ZERO, _ZERO)
    for d in range(4):
        out = union(out, _shifted(board, _NEIGHBOUR_SHIFTS[d]))
    return intersection(out, load(CELLS_BOARD))


@njit
def neighbour_board(board: tuple, direction: int) -> tuple:
    """The cells whose neighbour in ``direction`` (N, E, S, W) lies in ``board`` (cells
    only; a board bit past the grid holds no cell and reads False)."""
    return intersection(_shifted(board, _NEIGHBOUR_SHIFTS[direction]), load(CELLS_BOARD))


@njit
def component_boards(walk: tuple, goal: tuple, connected: np.ndarray) -> tuple:
    """K's walkable component (``goal`` assumed to lie in one, as the rules keep it), and
    into ``connected`` (4, 4) uint64, per direction N, E, S, W, the board of the cells whose
    neighbour that way lies in it: where a tile on the cell cannot cut K apart, the
    neighbours that stay connected to K (``cut_boards`` corrects the others)."""
    component = _flood(goal, walk)
    for d in range(4):
        store(neighbour_board(component, d), connected[d])
    return component


@njit
def possible_cuts(walk: tuple, component: tuple) -> tuple:
    """The cells of K's component whose ring fails (``ring_cut_word``): only a tile on one
    of them can split K."""
    return intersection(_ring_cut(walk), component)


@njit
def cut_boards(walk: tuple, goal: tuple, component: tuple, candidates: tuple,
               connected: np.ndarray) -> tuple:
    """The candidate cells where a tile splits K (§5.1 reachability, §9.2), with their
    ``connected`` neighbours corrected to those that stay linked to K.

    A tile can only split K on a ``possible_cuts`` cell. For such a cell, a walk without it
    from one of its walkable neighbours that reaches all the others proves that nothing is
    cut off (usually within a few steps); otherwise the flood from the first target, without
    the cell, finds what stays linked to K.

    Args:
        walk: the walkable cells.
        goal: the set K (customers and entrances).
        component: K's walkable component (``component_boards``).
        candidates: the cells asked about (free cells: no customer or entrance).
        connected: (4, 4) uint64 from ``component_boards``; its bits of the candidates that
            might cut K are rewritten.
    """
    cut = (_ZERO, _ZERO, _ZERO, _ZERO)
    suspects = intersection(possible_cuts(walk, component), candidates)
    first = first_cell(goal)
    if is_empty(suspects) or first < 0:
        return cut
    cells = local_zeros(NUM_CELLS, np.int64)
    for i in range(cells_of(suspects, cells)):
        cell = cells[i]
        without = difference(walk, cell_bits(cell))
        # The detour search: from the first walkable neighbour (a suspect has two or more)
        # to the others, most often met within a few steps; when they are not met, the
        # start's piece of the board without the cell is complete, and the flood from the
        # first target is that piece if it holds the target.
        start, around = -1, (_ZERO, _ZERO, _ZERO, _ZERO)
        for d in range(4):
            near = NEIGHBOURS[cell, d]
            if near != OUTSIDE and has_bit(walk, near):
                around = union(around, cell_bits(near))
                if start < 0:
                    start = near
        piece, met = _flood_towards(cell_bits(start), without, around)
        if met:
            continue  # the neighbours meet again: nothing is cut off
        reached = piece if has_bit(piece, first) else _flood(cell_bits(first), without)
        if not is_empty(difference(goal, reached)):
            cut = union(cut, cell_bits(cell))
        word, bit = CELL_WORD[cell], CELL_BIT[cell]
        for d in range(4):
            near = NEIGHBOURS[cell, d]
            if near != OUTSIDE and has_bit(reached, near):
                connected[d, word] |= bit
            else:
                connected[d, word] &= ~bit
    return cut


@njit
def placement_boards(walk: tuple, goal: tuple, candidates: tuple,
                     connected: np.ndarray) -> tuple:
    """Effect of one tile on each candidate cell of one board (§5.1 reachability, §9.2):
    the board of the cells where a tile leaves K in one component (every cell but the
    candidates that split it, ``cut_boards``), and into ``connected`` (4, 4) uint64, per
    direction N, E, S, W, the cells whose neighbour that way would lie in K's component
    with a tile on the cell (the entrance test of a new stall); for a cell that cannot split
    K, whether it lies in K's component now. Read only its cells."""
    component = component_boards(walk, goal, connected)
    cut = cut_boards(walk, goal, component, candidates, connected)
    return difference(load(CELLS_BOARD), cut)


@njit
def placements_row(walk: np.ndarray, targets: np.ndarray, candidates: np.ndarray,
                   safe: np.ndarray, connected: np.ndarray) -> None:
    """``placement_boards`` of one board as cell arrays.

    Args:
        walk: (4,) uint64, the walkable cells.
        targets: (4,) uint64, the set K (customers and entrances).
        candidates: (182,) bool, the cells asked about (free cells: no customer or entrance).
        safe: (182,) bool, written: a tile on the cell leaves K in one component (True for
            cells that are not candidates).
        connected: (182, 4) bool, written: the neighbour in direction N, E, S, W would lie
            in K's component with the tile placed; for a cell that cannot split K, whether
            it lies in K's component now.
    """
    free = local_zeros(NUM_WORDS, np.uint64)
    mask_bits(candidates, free)
    boards = local_zeros((4, NUM_WORDS), np.uint64)
    safe_bits = placement_boards(load(walk), load(targets), load(free), boards)
    for cell in range(NUM_CELLS):
        safe[cell] = has_bit(safe_bits, cell)
        for d in range(4):
            connected[cell, d] = has_bit(boards[d], cell)


@njit
def walk_distances_row(walk: np.ndarray, source: int, goals: np.ndarray,
                       goal_valid: np.ndarray, out: np.ndarray) -> None:
    """Walking distance from one cell to several goal cells of one board (§5.1 ``dist``).

    Args:
        walk: (4,) uint64, the walkable cells.
        source: the start cell (walkable).
        goals: (n,) int, goal cells (any value where ``goal_valid`` is False).
        goal_valid: (n,) bool.
        out: (n,) int32, written: the distances, -1 for invalid or unreachable goals.
    """
    pending = (_ZERO, _ZERO, _ZERO, _ZERO)
    for j in range(goals.shape[0]):
        out[j] = -1
        if goal_valid[j]:
            pending = union(pending, cell_bits(goals[j]))
    open_cells = load(walk)
    reached = cell_bits(source)
    step = 0
    while not is_empty(pending):
        # Most steps reach no goal: one test against their union skips the scan.
        if not is_empty(intersection(reached, pending)):
            for j in range(goals.shape[0]):
                if goal_valid[j] and out[j] < 0 and has_bit(reached, goals[j]):
                    out[j] = step
            pending = difference(pending, reached)
        grown = _dilate(reached, open_cells)
        if _same(grown, reached):
            return
        reached = grown
        step += 1


# ---------------------------------------------------------------- batches of boards
@njit
def _placements_rows(walk: np.ndarray, targets: np.ndarray, candidates: np.ndarray,
                     safe: np.ndarray, connected: np.ndarray) -> None:
    """``placements_row`` of every row of (M, 182) bool masks."""
    walk_board = local_zeros(NUM_WORDS, np.uint64)
    target_board = local_zeros(NUM_WORDS, np.uint64)
    for r in range(walk.shape[0]):
        mask_bits(walk[r], walk_board)
        mask_bits(targets[r], target_board)
        placements_row(walk_board, target_board, candidates[r], safe[r], connected[r])


@njit
def _walk_distances_rows(walk: np.ndarray, sources: np.ndarray, goals: np.ndarray,
                         goal_valid: np.ndarray, out: np.ndarray) -> None:
    """``walk_distances_row`` of every row of (M, 182) bool walkable cells."""
    walk_board = local_zeros(NUM_WORDS, np.uint64)
    for r in range(walk.shape[0]):
        mask_bits(walk[r], walk_board)
        walk_distances_row(walk_board, sources[r], goals[r], goal_valid[r], out[r])


@njit
def _flood_rows(seed: np.ndarray, walk: np.ndarray, out: np.ndarray) -> None:
    """``flood_bits`` of every row of (M, 4) boards."""
    for r in range(seed.shape[0]):
        flood_bits(seed[r], walk[r], out[r])


def pack(mask: np.ndarray) -> np.ndarray:
    """(M, 182) bool -> (M, 4) uint64 bitboards."""
    # Cell (x, y) is bit 16y + x: the grid laid into 16 × 16 bits by one block copy, then
    # packed.
    num = mask.shape[0]
    buf = np.zeros((num, 16, 16), dtype=bool)
    buf[:, :HEIGHT, :WIDTH] = mask.reshape(num, HEIGHT, WIDTH)
    return np.packbits(buf.reshape(num, -1), axis=1, bitorder="little").view("<u8")


def unpack(boards: np.ndarray) -> np.ndarray:
    """(M, 4) uint64 bitboards -> (M, 182) bool."""
    bits = np.unpackbits(np.ascontiguousarray(boards).view(np.uint8), axis=1, bitorder="little")
    return bits[:, _BIT_INDEX].view(bool)  # 0 and 1 bytes: a bool view, no copy


def flood(seed: np.ndarray, walk: np.ndarray) -> np.ndarray:
    """The walkable cells connected to ``seed``: (M, 4) uint64 boards, ``flood_bits`` per
    row."""
    out = np.empty((seed.shape[0], NUM_WORDS), dtype=np.uint64)
    _flood_rows(np.ascontiguousarray(seed, dtype=np.uint64),
                np.ascontiguousarray(walk, dtype=np.uint64), out)
    return out


class Reachability:
    """Reachability of tiles placed on candidate cells, for M boards at once.

    Args:
        walk: (M, 182) bool, walkable cells (market cells without a tile).
        targets: (M, 182) bool, customer and entrance cells (the set K of §9.2); they are
            assumed to lie in one walkable component, as the rules keep them.
    """

    def __init__(self, walk: np.ndarray, targets: np.ndarray):
        self.walk = walk
        self.targets = targets

    def placements(self, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Effect of one tile on each candidate cell (``placements_row`` of every board).

        Returns:
            ``safe`` (M, 182) bool: a tile on the cell leaves K in one component (True for
            cells that are not candidates); ``connected`` (M, 182, 4) bool: the neighbour in
            direction N, E, S, W would lie in K's component with the tile placed (the
            entrance test of a new stall). Only candidate entries are meaningful.
        """
        num = self.walk.shape[0]
        safe = np.empty((num, NUM_CELLS), dtype=bool)
        connected = np.empty((num, NUM_CELLS, 4), dtype=bool)
        _placements_rows(np.ascontiguousarray(self.walk, dtype=bool),
                         np.ascontiguousarray(self.targets, dtype=bool),
                         np.ascontiguousarray(candidates, dtype=bool), safe, connected)
        return safe, connected


def walk_distances(
    walk: np.ndarray, sources: np.ndarray, goals: np.ndarray, goal_valid: np.ndarray
) -> np.ndarray:
    """Walking distance from one source cell to several goal cells per board (§5.1 ``dist``),
    ``walk_distances_row`` of every board.

    Args:
        walk: (M, 182) bool walkable cells.
        sources: (M,) int start cells (walkable).
        goals: (M, n) int goal cells (any value where ``goal_valid`` is False).
        goal_valid: (M, n) bool.

    Returns:
        (M, n) int32 distances; -1 for invalid or unreachable goals.
    """
    goals = np.asarray(goals)
    dist = np.empty(goals.shape, dtype=np.int32)
    _walk_distances_rows(np.ascontiguousarray(walk, dtype=bool),
                         np.ascontiguousarray(sources, dtype=np.int64),
                         np.ascontiguousarray(goals, dtype=np.int64),
                         np.ascontiguousarray(goal_valid, dtype=bool), dist)
    return dist


# ---------------------------------------------------------------- neighbourhood shifts
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


# ---------------------------------------------------------------- colour sets
# A set of colours is a uint8 (bit c: colour c): one byte per cell stands for six planes.
_COLOURS_U8 = np.arange(NUM_COLOURS, dtype=np.uint8)
AREA_CODE = (COLOUR_AREA.astype(np.uint8) << _COLOURS_U8[:, None]).sum(axis=0, dtype=np.uint8)
"""(182,) uint8: the colours whose area (§5.1) holds the cell."""


def colour_planes(codes: np.ndarray) -> np.ndarray:
    """(..., 6, n) bool: the six colour planes of (..., n) uint8 colour sets."""
    return (codes[..., None, :] >> _COLOURS_U8[:, None] & 1).view(bool)
