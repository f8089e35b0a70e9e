"""Where a tile may stand, per row: new, moved and setup stalls (§5.3, §5.6, §5.9) and
expansions (§5.4 preconditions 2–4 and 6).

Every rule reads one row's board through a ``Reach``: its tiles, targets and free cells as
bitboards (``board``'s layout) and, for every free cell, whether a tile there keeps the
customers and entrances in one walkable component and which of its neighbours stay
connected to them (``board.placement_boards``, the reachability rule of §5.1). Each rule is
a few whole-board operations, not a loop over cells. A move analyses a board of its own,
with the moved stall lifted. Sets of colours are 6-bit ints (bit c: colour c), sets of
sections 9-bit ints.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from envs.cairo.board import (
    AREA_BOARDS,
    CELL_BIT,
    CELL_WORD,
    CELLS_BOARD,
    MARKET_BOARD,
    NUM_WORDS,
    SECTION_BOARDS,
    board_sections,
    cell_bits,
    cells_of,
    component_boards,
    cut_boards,
    difference,
    intersection,
    is_empty,
    load,
    neighbour_board,
    neighbours_of,
    possible_cuts,
    present_word,
    sections_board,
    store,
    union,
)
from envs.cairo.data import (
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    NUM_SECTIONS,
    SECTION,
    SETUP_SECTION_LIMIT,
)
from envs.core.jit import local_zeros, njit

SECTION_OF = SECTION.astype(np.int64)
NUM_GROUPS = NUM_OWNERS * NUM_COLOURS
ALL_SECTIONS = (1 << NUM_SECTIONS) - 1
_ZERO = np.uint64(0)


class Reach(NamedTuple):
    """One board's analysis (scratch arrays: ``load_board`` fills the first five and
    ``main``, ``analyse`` the rest). A board is (4,) uint64, the cells at ``board``'s bits."""

    occupied: np.ndarray  # the tiles (a move lifts its stall here)
    walk: np.ndarray  # §5.1 walkable: market cells without a tile
    targets: np.ndarray  # the set K: customers and entrances
    free: np.ndarray  # §5.1 free: no tile, no entrance, no customer
    groups: np.ndarray  # (30, 4) the tiles of each group, ``owner * 6 + colour``
    component: np.ndarray  # the targets' walkable component
    safe: np.ndarray  # a tile there keeps the targets connected
    connected: np.ndarray  # (4, 4) per direction: its neighbour that way stays connected
    dirs: np.ndarray  # (4, 4) per direction: a stall tile on the cell may face that way
    stall_ok: np.ndarray  # some direction of ``dirs`` (§5.3)
    main: np.ndarray  # (9,) int64 the colour set of the main stalls (any owner) per section


@njit(inline="always")
def new_reach():
    """Scratch for one board's analysis, in the frame of the compiled function that asks
    (this one is inlined there)."""
    return Reach(local_zeros(4, np.uint64), local_zeros(4, np.uint64),
                 local_zeros(4, np.uint64), local_zeros(4, np.uint64),
                 local_zeros((NUM_GROUPS, 4), np.uint64), local_zeros(4, np.uint64),
                 local_zeros(4, np.uint64), local_zeros((4, 4), np.uint64),
                 local_zeros((4, 4), np.uint64), local_zeros(4, np.uint64),
                 local_zeros(NUM_SECTIONS, np.int64))


@njit
def _load_board(s, r, reach, lifted_tile, lifted_entrance):
    """Row ``r``'s tiles, entrances and customers as boards in ``reach``, but for the tile
    on ``lifted_tile`` and the entrance on ``lifted_entrance`` (-1: none), and the main
    stalls' colours per section (a lifted stall among them: its own section stays closed
    to a new stall of its colour)."""
    occupied, targets, groups = reach.occupied, reach.targets, reach.groups
    groups[:] = _ZERO
    tile, entrance = s.tile[r], s.entrance[r]
    for word in range(NUM_WORDS):  # a word at a time, without a branch per cell
        occupied[word] = present_word(tile, word)
        targets[word] = present_word(entrance, word)
    # The groups: a pass over the tiles alone (one over every cell, ORing a bit or 0 into a
    # group, chained each cell's update through memory to the last one's).
    cells = local_zeros(NUM_CELLS, np.int64)
    for i in range(cells_of(load(occupied), cells)):
        k = cells[i]
        groups[tile[k], CELL_WORD[k]] |= CELL_BIT[k]
    if lifted_tile >= 0:
        word, bit = CELL_WORD[lifted_tile], CELL_BIT[lifted_tile]
        occupied[word] &= ~bit
        groups[tile[lifted_tile], word] &= ~bit
    if lifted_entrance >= 0:
        targets[CELL_WORD[lifted_entrance]] &= ~CELL_BIT[lifted_entrance]
    for c in range(NUM_COLOURS):
        k = s.customer[r, c]
        if k >= 0:
            targets[CELL_WORD[k]] |= CELL_BIT[k]
    tiles, goal = load(occupied), load(targets)
    store(difference(load(MARKET_BOARD), tiles), reach.walk)
    store(difference(load(CELLS_BOARD), union(tiles, goal)), reach.free)
    main = reach.main
    main[:] = 0
    for owner in range(s.stall_cell.shape[1]):
        for c in range(NUM_COLOURS):
            cell = s.stall_cell[r, owner, c]
            if cell >= 0:
                main[SECTION_OF[cell]] |= 1 << c


@njit
def load_board(s, r, reach):
    """Row ``r``'s tiles, entrances and customers as boards in ``reach``."""
    _load_board(s, r, reach, -1, -1)


@njit
def place_stalls(reach):
    """§5.3 preconditions 3, 4 and 7 on the analysed board into ``dirs`` and ``stall_ok``:
    a stall tile on a free cell with no tile orthogonally adjacent (R11), its entrance on a
    free market cell, every customer and entrance (the new one too) in one walkable
    component."""
    free = load(reach.free)
    cell_ok = difference(intersection(free, load(reach.safe)),
                         neighbours_of(load(reach.occupied)))
    entrance_ok = intersection(free, load(MARKET_BOARD))
    stall_ok = (_ZERO, _ZERO, _ZERO, _ZERO)
    for d in range(4):
        facing = intersection(intersection(cell_ok, neighbour_board(entrance_ok, d)),
                              load(reach.connected[d]))
        store(facing, reach.dirs[d])
        stall_ok = union(stall_ok, facing)
    store(stall_ok, reach.stall_ok)


@njit
def open_analysis(reach):
    """The first part of ``analyse`` on the board loaded in ``reach``: the targets'
    component, and every cell taken for safe (its ``connected`` neighbours those in the
    component), as if no tile could cut the targets apart. Exact but for the
    ``uncertain_cells``."""
    store(component_boards(load(reach.walk), load(reach.targets), reach.connected),
          reach.component)
    store(load(CELLS_BOARD), reach.safe)


@njit
def uncertain_cells(reach):
    """The free cells where a tile might cut the targets apart (``board.possible_cuts``):
    the only ones ``settle_cuts`` may change after ``open_analysis``."""
    return intersection(possible_cuts(load(reach.walk), load(reach.component)),
                        load(reach.free))


@njit
def settle_cuts(reach, cells):
    """The second part of ``analyse``: the cells of ``cells`` that might cut the targets
    apart tested, their ``safe`` and ``connected`` made exact (``board.cut_boards``)."""
    cut = cut_boards(load(reach.walk), load(reach.targets), load(reach.component),
                     intersection(load(reach.free), cells), reach.connected)
    store(difference(load(reach.safe), cut), reach.safe)


@njit
def analyse(reach, cells):
    """Analyse the board loaded in ``reach`` for the board ``cells``: the reachability of a
    tile on each of their free cells, and where a stall may stand (``dirs``, ``stall_ok``).

    A rule asks only about the cells its cards pay for (and the test of a cell that might
    cut the board apart is the costly part): outside ``cells`` such a cell counts as safe,
    so a rule reads the analysis only inside them (``board.CELLS_BOARD`` for the whole board).
    """
    open_analysis(reach)
    settle_cuts(reach, cells)
    place_stalls(reach)


@njit
def open_sections(main, colour):
    """§5.3 precondition 5: the 9-bit set of the sections where no main stall of
    ``colour`` (any owner; ``main`` the analysed board's colours per section) stands."""
    out = 0
    for section in range(NUM_SECTIONS):
        if main[section] >> colour & 1 == 0:
            out |= 1 << section
    return out


@njit
def colour_cells(main, colour, sections):
    """The cells a new stall tile of ``colour`` may have by §5.3 preconditions 2 and 5, in
    the 9-bit set ``sections``: the colour's area, the sections open to it."""
    return intersection(load(AREA_BOARDS[colour]),
                        sections_board(sections & open_sections(main, colour)))


@njit
def _section_colours(stall_ok, main, section):
    """The colours a new stall tile may have on a cell of ``stall_ok`` in ``section``
    (``colour_cells``)."""
    cells = intersection(stall_ok, load(SECTION_BOARDS[section]))
    out = 0
    if is_empty(cells):
        return out
    for c in range(NUM_COLOURS):
        if (main[section] >> c & 1 == 0
                and not is_empty(intersection(cells, load(AREA_BOARDS[c])))):
            out |= 1 << c
    return out


@njit
def setup_sections(stall_cell):
    """§5.9.1: the 9-bit set of the sections holding fewer than two main stalls (any owner,
    neutral included), where a setup or neutral stall may go."""
    counts = local_zeros(NUM_SECTIONS, np.int64)
    for owner in range(stall_cell.shape[0]):
        for c in range(NUM_COLOURS):
            if stall_cell[owner, c] >= 0:
                counts[SECTION_OF[stall_cell[owner, c]]] += 1
    out = 0
    for section in range(NUM_SECTIONS):
        if counts[section] < SETUP_SECTION_LIMIT:
            out |= 1 << section
    return out


@njit
def setup_colours(s, r, reach):
    """The colours with a legal setup or neutral placement on the analysed board: a cell
    where a stall may stand, open to the colour, in a section with room (§5.9.1)."""
    room = setup_sections(s.stall_cell[r])
    stall_ok = load(reach.stall_ok)
    out = 0
    for section in range(NUM_SECTIONS):
        if room >> section & 1:
            out |= _section_colours(stall_ok, reach.main, section)
    return out


@njit
def new_sections(s, r, reach, out):
    """Per colour into ``out`` (6,): the 9-bit set of the sections with a cell where a new
    stall of the colour may stand on the analysed board (cards aside)."""
    out[:] = 0
    stall_ok = load(reach.stall_ok)
    for section in range(NUM_SECTIONS):
        colours = _section_colours(stall_ok, reach.main, section)
        for c in range(NUM_COLOURS):
            if colours >> c & 1:
                out[c] |= 1 << section


@njit
def growth_cells(reach, seat, colour):
    """The cells ``seat``'s group of ``colour`` may grow onto by §5.4 preconditions 2–4
    (reachability aside): free cells of the colour's area, orthogonally adjacent to a tile of
    the group and to no tile of another group of the colour (another seat's or a neutral
    one; tiles of other colours do not matter, R12)."""
    own = (_ZERO, _ZERO, _ZERO, _ZERO)
    rival = own
    for owner in range(NUM_OWNERS):
        group = load(reach.groups[owner * NUM_COLOURS + colour])
        if owner == seat:
            own = group
        else:
            rival = union(rival, group)
    near = difference(neighbours_of(own), neighbours_of(rival))
    return intersection(intersection(near, load(reach.free)), load(AREA_BOARDS[colour]))


@njit
def growth_boards(reach, seat, out):
    """``growth_cells`` of every colour into ``out`` (6, 4) uint64."""
    for c in range(NUM_COLOURS):
        store(growth_cells(reach, seat, c), out[c])


@njit
def expand_sections(reach, growth, out):
    """Per colour into ``out`` (6,): the sections holding a cell the seat's group of the
    colour may grow onto on the analysed board (§5.4 preconditions 2–4 and 6): a cell of
    its ``growth_boards`` (6, 4) where a tile keeps the targets connected."""
    safe = load(reach.safe)
    for c in range(NUM_COLOURS):
        out[c] = board_sections(intersection(load(growth[c]), safe))


@njit
def lift(s, r, seat, colour, reach):
    """Load row ``r``'s board into ``reach`` with ``seat``'s stall of ``colour`` and its
    entrance taken off (§5.6 precondition 3)."""
    _load_board(s, r, reach, s.stall_cell[r, seat, colour], s.entrance_cell[r, seat, colour])


@njit
def move_sections_open(s, r, seat, colour):
    """The 9-bit set of the sections the moved stall of ``seat``'s ``colour`` may go to by
    §5.3 precondition 5: those holding no other main stall of the colour (its own no longer
    counts against its section)."""
    out = ALL_SECTIONS
    for owner in range(NUM_OWNERS):
        cell = s.stall_cell[r, owner, colour]
        if cell >= 0 and owner != seat:
            out &= ~(1 << SECTION_OF[cell])
    return out


@njit
def move_cells(s, r, seat, colour, sections):
    """The cells that take ``seat``'s moved stall of ``colour`` by area and section, in the
    9-bit set ``sections``: the colour's area, the sections open to it
    (``move_sections_open``), not its old cell."""
    open_cells = intersection(load(AREA_BOARDS[colour]),
                              sections_board(sections & move_sections_open(s, r, seat, colour)))
    return difference(open_cells, cell_bits(s.stall_cell[r, seat, colour]))


@njit
def move_sections(s, r, seat, colour, sections):
    """The sections of the 9-bit set ``sections`` holding a legal destination of ``seat``'s
    stall of ``colour`` (§5.6 precondition 3).

    It analyses a board of its own: a caller's ``Reach`` passed to a call that is not
    inlined would have to live in memory, and the caller's analysis, inlined, runs slower.
    """
    cells = move_cells(s, r, seat, colour, sections)
    if is_empty(cells):
        return 0
    reach = new_reach()
    lift(s, r, seat, colour, reach)
    analyse(reach, cells)
    return board_sections(intersection(load(reach.stall_ok), cells))
