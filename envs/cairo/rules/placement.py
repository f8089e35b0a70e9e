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
from envs.core.jit import njit

SECTION_OF = SECTION.astype(np.int64)


class Reach(NamedTuple):
    """One board's analysis (scratch arrays, filled by ``analyse``)."""

    tile: np.ndarray  # (182,) int8 the tiles (a copy: a move lifts its stall here)
    entrance: np.ndarray  # (182,) int8 the entrances (likewise)
    customers: np.ndarray  # (182,) bool a customer stands on the cell
    walk: np.ndarray  # (4,) uint64 walkable cells
    targets: np.ndarray  # (4,) uint64 customers and entrances
    candidates: np.ndarray  # (182,) bool the free cells
    safe: np.ndarray  # (182,) bool a tile there keeps the targets connected
    connected: np.ndarray  # (182, 4) bool its neighbour that way stays connected to them


@njit
def new_reach():
    """Scratch for one board's analysis."""
    return Reach(np.empty(NUM_CELLS, np.int8), np.empty(NUM_CELLS, np.int8),
                 np.empty(NUM_CELLS, np.bool_), np.empty(4, np.uint64),
                 np.empty(4, np.uint64), np.empty(NUM_CELLS, np.bool_),
                 np.empty(NUM_CELLS, np.bool_), np.empty((NUM_CELLS, 4), np.bool_))


@njit
def load_board(s, r, reach):
    """Copy row ``r``'s tiles, entrances and customers into ``reach``."""
    reach.tile[:] = s.tile[r]
    reach.entrance[:] = s.entrance[r]
    reach.customers[:] = False
    for c in range(NUM_COLOURS):
        if s.customer[r, c] >= 0:
            reach.customers[s.customer[r, c]] = True


@njit
def analyse(s, r, reach):
    """The reachability of a tile on every free cell of the board in ``reach``."""
    board_bits(reach.tile, reach.entrance, s.customer[r], reach.walk, reach.targets)
    for k in range(NUM_CELLS):
        reach.candidates[k] = is_free(reach, k)
    placements_row(reach.walk, reach.targets, reach.candidates, reach.safe, reach.connected)


@njit
def is_free(reach, k):
    """§5.1 free: no tile, no entrance, no customer."""
    return reach.tile[k] < 0 and reach.entrance[k] < 0 and not reach.customers[k]


@njit
def tile_near(reach, k):
    for d in range(4):
        n = NEIGHBOURS[k, d]
        if n != OUTSIDE and reach.tile[n] >= 0:
            return True
    return False


@njit
def stall_direction_ok(reach, k, d):
    """A stall tile on ``k`` with its entrance towards ``d`` is legal on the board, by §5.3
    preconditions 3, 4 and 7: the cell is free with no tile orthogonally adjacent (R11), the
    entrance's cell is a free market cell, and every customer and entrance (the new one too)
    stays in one walkable component."""
    n = NEIGHBOURS[k, d]
    return (n != OUTSIDE and is_free(reach, k) and not tile_near(reach, k) and reach.safe[k]
            and reach.connected[k, d] and MARKET[n] and is_free(reach, n))


@njit
def stall_cell_ok(reach, k):
    """Some direction of ``stall_direction_ok`` at ``k``."""
    for d in range(4):
        if stall_direction_ok(reach, k, d):
            return True
    return False


@njit
def main_stall_colours(stall_cell, section):
    """The colour set of the main stalls (any owner) standing in ``section``."""
    out = 0
    for owner in range(stall_cell.shape[0]):
        for c in range(NUM_COLOURS):
            cell = stall_cell[owner, c]
            if cell >= 0 and SECTION_OF[cell] == section:
                out |= 1 << c
    return out


@njit
def open_colours(stall_cell, k):
    """The colours a new stall tile may have on ``k`` by §5.3 preconditions 2 and 5: the
    colour's area holds the cell, and no main stall of the colour (any owner, ``stall_cell``
    (owners, 6)) stands in its section."""
    return int(AREA_CODE[k]) & ~main_stall_colours(stall_cell, SECTION_OF[k])


@njit
def setup_sections(stall_cell):
    """§5.9.1: the 9-bit set of the sections holding fewer than two main stalls (any owner,
    neutral included), where a setup or neutral stall may go."""
    counts = np.zeros(NUM_SECTIONS, np.int64)
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
    stall_cell = s.stall_cell[r]
    room = setup_sections(stall_cell)
    out = 0
    for k in range(NUM_CELLS):
        if room >> SECTION_OF[k] & 1 and stall_cell_ok(reach, k):
            out |= open_colours(stall_cell, k)
    return out


@njit
def new_sections(s, r, reach, out):
    """Per colour into ``out`` (6,): the 9-bit set of the sections with a cell where a new
    stall of the colour may stand on the analysed board (cards aside)."""
    out[:] = 0
    stall_cell = s.stall_cell[r]
    for k in range(NUM_CELLS):
        if stall_cell_ok(reach, k):
            colours = open_colours(stall_cell, k)
            for c in range(NUM_COLOURS):
                if colours >> c & 1:
                    out[c] |= 1 << SECTION_OF[k]


@njit
def expansion_colours(reach, seat, k):
    """The colours c whose group of ``seat`` may grow onto ``k`` (§5.4 preconditions 2–4
    and 6): ``growth_colours`` where a tile keeps the targets connected."""
    return growth_colours(reach, seat, k) if reach.safe[k] else 0


@njit
def growth_colours(reach, seat, k):
    """The colours c whose group of ``seat`` may grow onto ``k`` by §5.4 preconditions 2–4
    (reachability aside): a free cell of c's area, orthogonally adjacent to a tile of the
    seat's group of c and to no tile of another group of c (another seat's or a neutral
    one; tiles of other colours do not matter, R12)."""
    if not is_free(reach, k):
        return 0
    own = 0
    rival = 0
    for d in range(4):
        n = NEIGHBOURS[k, d]
        if n == OUTSIDE or reach.tile[n] < 0:
            continue
        group = reach.tile[n]
        if group // NUM_COLOURS == seat:
            own |= 1 << group % NUM_COLOURS
        else:
            rival |= 1 << group % NUM_COLOURS
    return own & ~rival & int(AREA_CODE[k])


@njit
def expand_sections(reach, seat, out):
    """Per colour into ``out`` (6,): the sections holding a cell the seat's group of the
    colour may grow onto (``expansion_colours``)."""
    out[:] = 0
    for k in range(NUM_CELLS):
        colours = expansion_colours(reach, seat, k)
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
def move_cell_ok(s, r, seat, colour, reach, k):
    """Cell ``k`` takes the moved stall by area and section on the lifted board in
    ``reach``: open to its colour with the stall no longer counting against its own section,
    and not its old cell."""
    old = s.stall_cell[r, seat, colour]
    if k == old or not AREA_CODE[k] >> colour & 1:
        return False
    section = SECTION_OF[k]
    for owner in range(NUM_OWNERS):
        cell = s.stall_cell[r, owner, colour]
        if cell >= 0 and SECTION_OF[cell] == section and owner != seat:
            return False
    return True


@njit
def move_sections(s, r, seat, colour, reach):
    """The 9-bit set of the sections holding a legal destination of ``seat``'s stall of
    ``colour``, whatever the cards (§5.6 precondition 3); ``reach`` is scratch."""
    lift(s, r, seat, colour, reach)
    out = 0
    for k in range(NUM_CELLS):
        if move_cell_ok(s, r, seat, colour, reach, k) and stall_cell_ok(reach, k):
            out |= 1 << SECTION_OF[k]
    return out
