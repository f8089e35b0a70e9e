"""Where a tile may stand, per row: new, moved and setup stalls (§5.3, §5.6, §5.9) and
expansions (§5.4 preconditions 2–4 and 6).

Every rule reads one row's board through a ``Reach``: the walkable cells and targets as
bitboards and, for every free cell, whether a tile there keeps the customers and entrances
in one walkable component and which of its neighbours stay connected to them
(``board.placements_row``, the reachability rule of §5.1). A move analyses a board of its
own, with the moved stall lifted. Sets of colours are 6-bit ints (bit c: colour c), sets of
sections 9-bit ints.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from envs.cairo.board import AREA_CODE, NEIGHBOURS, OUTSIDE, board_bits, placements_row
from envs.cairo.data import (
    MARKET,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    NUM_SECTIONS,
    SECTION,
    SETUP_SECTION_LIMIT,
)
from envs.core.jit import local_zeros, njit

SECTION_OF = SECTION.astype(np.int64)


class Reach(NamedTuple):
    """One board's analysis (scratch arrays, filled by ``analyse``).

    Loops over cells read its arrays through locals taken before the loop, and per-cell
    rules take plain arrays (and are inlined): reading an array out of a tuple, or passing a
    tuple to a call, inside a cell loop costs more than the rule itself (``analyse`` took
    62 µs a board that way, 5.4 µs with locals).
    """

    tile: np.ndarray  # (182,) int8 the tiles (a copy: a move lifts its stall here)
    entrance: np.ndarray  # (182,) int8 the entrances (likewise)
    customers: np.ndarray  # (182,) bool a customer stands on the cell
    walk: np.ndarray  # (4,) uint64 walkable cells
    targets: np.ndarray  # (4,) uint64 customers and entrances
    candidates: np.ndarray  # (182,) bool the free cells
    safe: np.ndarray  # (182,) bool a tile there keeps the targets connected
    connected: np.ndarray  # (182, 4) bool its neighbour that way stays connected to them
    dirs: np.ndarray  # (182, 4) bool a stall tile on the cell may face that way (§5.3)
    stall_ok: np.ndarray  # (182,) bool some direction of ``dirs``
    main: np.ndarray  # (9,) int64 the colour set of the main stalls (any owner) per section


@njit(inline="always")
def new_reach():
    """Scratch for one board's analysis, in the frame of the compiled function that asks
    (this one is inlined there)."""
    return Reach(local_zeros(NUM_CELLS, np.int8), local_zeros(NUM_CELLS, np.int8),
                 local_zeros(NUM_CELLS, np.bool_), local_zeros(4, np.uint64),
                 local_zeros(4, np.uint64), local_zeros(NUM_CELLS, np.bool_),
                 local_zeros(NUM_CELLS, np.bool_), local_zeros((NUM_CELLS, 4), np.bool_),
                 local_zeros((NUM_CELLS, 4), np.bool_), local_zeros(NUM_CELLS, np.bool_),
                 local_zeros(NUM_SECTIONS, np.int64))


@njit
def load_board(s, r, reach):
    """Copy row ``r``'s tiles, entrances and customers into ``reach``."""
    for k in range(NUM_CELLS):  # an array copy would need numba's runtime
        reach.tile[k] = s.tile[r, k]
        reach.entrance[k] = s.entrance[r, k]
    reach.customers[:] = False
    for c in range(NUM_COLOURS):
        if s.customer[r, c] >= 0:
            reach.customers[s.customer[r, c]] = True


@njit
def mark_free(reach):
    """The free cells of the board in ``reach`` into ``reach.candidates`` (§5.1: no tile, no
    entrance, no customer)."""
    tile, entrance, customers, free = reach.tile, reach.entrance, reach.customers, reach.candidates
    for k in range(NUM_CELLS):
        free[k] = tile[k] < 0 and entrance[k] < 0 and not customers[k]


@njit
def analyse(s, r, reach):
    """Analyse the board in ``reach``: the reachability of a tile on every free cell,
    where a stall may stand (``dirs``, ``stall_ok``) and the main stalls' colours per
    section."""
    tile, free, safe, connected = reach.tile, reach.candidates, reach.safe, reach.connected
    board_bits(tile, reach.entrance, s.customer[r], reach.walk, reach.targets)
    mark_free(reach)
    placements_row(reach.walk, reach.targets, free, safe, connected)
    # §5.3 preconditions 3, 4 and 7: a stall tile on a free cell with no tile orthogonally
    # adjacent (R11), its entrance on a free market cell, every customer and entrance (the
    # new one too) in one walkable component.
    dirs, stall_ok = reach.dirs, reach.stall_ok
    for k in range(NUM_CELLS):
        cell_ok = free[k] and safe[k]
        for d in range(4):
            n = NEIGHBOURS[k, d]
            if n != OUTSIDE and tile[n] >= 0:
                cell_ok = False
        stall_ok[k] = False
        for d in range(4):
            n = NEIGHBOURS[k, d]
            dirs[k, d] = (cell_ok and n != OUTSIDE and connected[k, d] and MARKET[n]
                          and free[n])
            stall_ok[k] |= dirs[k, d]
    main = reach.main
    main[:] = 0
    for owner in range(s.stall_cell.shape[1]):
        for c in range(NUM_COLOURS):
            cell = s.stall_cell[r, owner, c]
            if cell >= 0:
                main[SECTION_OF[cell]] |= 1 << c


@njit(inline="always")
def open_colours(main, k):
    """The colours a new stall tile may have on ``k`` by §5.3 preconditions 2 and 5: the
    colour's area holds the cell, and no main stall of the colour (any owner; ``main`` the
    analysed board's colours per section) stands in its section."""
    return int(AREA_CODE[k]) & ~main[SECTION_OF[k]]


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
    stall_ok, main = reach.stall_ok, reach.main
    out = 0
    for k in range(NUM_CELLS):
        if room >> SECTION_OF[k] & 1 and stall_ok[k]:
            out |= open_colours(main, k)
    return out


@njit
def new_sections(s, r, reach, out):
    """Per colour into ``out`` (6,): the 9-bit set of the sections with a cell where a new
    stall of the colour may stand on the analysed board (cards aside)."""
    out[:] = 0
    stall_ok, main = reach.stall_ok, reach.main
    for k in range(NUM_CELLS):
        if stall_ok[k]:
            colours = open_colours(main, k)
            for c in range(NUM_COLOURS):
                if colours >> c & 1:
                    out[c] |= 1 << SECTION_OF[k]


@njit(inline="always")
def growth_colours(tile, free, seat, k):
    """The colours c whose group of ``seat`` may grow onto ``k`` by §5.4 preconditions 2–4
    (reachability aside): a free cell of c's area, orthogonally adjacent to a tile of the
    seat's group of c and to no tile of another group of c (another seat's or a neutral
    one; tiles of other colours do not matter, R12)."""
    if not free[k]:
        return 0
    own = 0
    rival = 0
    for d in range(4):
        n = NEIGHBOURS[k, d]
        if n == OUTSIDE or tile[n] < 0:
            continue
        group = tile[n]
        if group // NUM_COLOURS == seat:
            own |= 1 << group % NUM_COLOURS
        else:
            rival |= 1 << group % NUM_COLOURS
    return own & ~rival & int(AREA_CODE[k])


@njit
def expansion_cells(reach, seat, out):
    """Per cell into ``out`` (182,): the colours whose group of ``seat`` may grow onto it
    (§5.4 preconditions 2–4 and 6): ``growth_colours`` where a tile keeps the targets
    connected."""
    tile, free, safe = reach.tile, reach.candidates, reach.safe
    for k in range(NUM_CELLS):
        out[k] = growth_colours(tile, free, seat, k) if safe[k] else 0


@njit
def expand_sections(reach, seat, out):
    """Per colour into ``out`` (6,): the sections holding a cell the seat's group of the
    colour may grow onto (``expansion_cells``)."""
    out[:] = 0
    tile, free, safe = reach.tile, reach.candidates, reach.safe
    for k in range(NUM_CELLS):
        if not safe[k]:
            continue
        colours = growth_colours(tile, free, seat, k)
        for c in range(NUM_COLOURS):
            if colours >> c & 1:
                out[c] |= 1 << SECTION_OF[k]


@njit
def lift(s, r, seat, colour, reach):
    """Load row ``r``'s board into ``reach`` with ``seat``'s stall of ``colour`` and its
    entrance taken off (§5.6 precondition 3), and analyse it."""
    load_board(s, r, reach)
    reach.tile[s.stall_cell[r, seat, colour]] = -1
    reach.entrance[s.entrance_cell[r, seat, colour]] = -1
    analyse(s, r, reach)


@njit
def move_sections_open(s, r, seat, colour):
    """The 9-bit set of the sections the moved stall of ``seat``'s ``colour`` may go to by
    §5.3 precondition 5: those holding no other main stall of the colour (its own no longer
    counts against its section)."""
    out = (1 << NUM_SECTIONS) - 1
    for owner in range(NUM_OWNERS):
        cell = s.stall_cell[r, owner, colour]
        if cell >= 0 and owner != seat:
            out &= ~(1 << SECTION_OF[cell])
    return out


@njit(inline="always")
def move_cell_ok(old, colour, sections, k):
    """Cell ``k`` takes a moved stall of ``colour`` by area and section: in the colour's
    area, in one of the ``sections`` open to it (``move_sections_open``), not its ``old``
    cell."""
    return (k != old and AREA_CODE[k] >> colour & 1 == 1
            and sections >> SECTION_OF[k] & 1 == 1)


@njit
def move_sections(s, r, seat, colour, reach):
    """The 9-bit set of the sections holding a legal destination of ``seat``'s stall of
    ``colour``, whatever the cards (§5.6 precondition 3); ``reach`` is scratch."""
    lift(s, r, seat, colour, reach)
    old = s.stall_cell[r, seat, colour]
    open_sections = move_sections_open(s, r, seat, colour)
    stall_ok = reach.stall_ok
    out = 0
    for k in range(NUM_CELLS):
        if stall_ok[k] and move_cell_ok(old, colour, open_sections, k):
            out |= 1 << SECTION_OF[k]
    return out
