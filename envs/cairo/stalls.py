"""Where a stall tile may stand: new stalls, moved stalls and setup placements (§5.3, §5.6,
§5.9).

Each rule is one function over R rows (boards or states): the board's part of a placement
(§5.3 preconditions 3, 4 and 7), the sections open to a colour (preconditions 2 and 5), the
setup limit of two stalls a section (§5.9.1) and the board of a move, with the moved stall
lifted (§5.6). Which sections the cards pay for is ``cards.py``'s; the masks that combine
them are ``legality.py``'s.
"""

from __future__ import annotations

import numpy as np

from envs.cairo.board import (
    AREA_CODE,
    Board,
    any_direction,
    colour_bits,
    customer_cells,
    has_colour,
    section_union,
)
from envs.cairo.cards import section_set
from envs.cairo.data import NUM_CELLS, NUM_SECTIONS, SECTION, SETUP_SECTION_LIMIT
from envs.cairo.state import CairoState


def _cell_words(planes: np.ndarray) -> np.ndarray:
    """(R, 182) uint32: the four direction flags of (R, 182, 4) bool planes, a word a cell."""
    return np.ascontiguousarray(planes).view(np.uint32)[..., 0]


def stall_directions(board: Board, candidates: np.ndarray,
                     reach: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """(R, 182, 4) bool: a stall tile on the cell with its entrance in the direction is legal
    on the board, by §5.3 preconditions 3, 4 and 7: the tile's cell is free with no tile
    orthogonally adjacent (R11), the entrance's cell is a free market cell, and every
    customer and entrance (the new one too) stays in one walkable component.

    Args:
        board: the boards of R rows.
        candidates: (R, 182) bool, the cells asked about (area, section and cards are the
            caller's rules).
        reach: ``board.placements`` of a set of cells holding the candidates, when the caller
            has it already.
    """
    cells = candidates & board.free & ~board.tile_near
    safe, connected = board.placements(cells) if reach is None else reach
    # The four direction flags of a cell as one 4-byte word: a quarter of the elements.
    ok = (cells & safe).view(np.uint8) * np.uint32(0x01010101)
    ok &= _cell_words(connected)
    ok &= _cell_words(board.entrance_free)
    return ok.view(bool).reshape(*ok.shape, 4)


def main_stall_sections(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 9, 6) bool: the section holds a main stall of the colour (any owner).

    Args:
        stall_cell: (R, owners, 6) int16 main stall cells, -1 where not on the board.
    """
    rows, _, colours = np.nonzero(stall_cell >= 0)
    sections = SECTION[stall_cell[stall_cell >= 0]]
    out = np.zeros((stall_cell.shape[0], NUM_SECTIONS, stall_cell.shape[2]), dtype=bool)
    out[rows, sections, colours] = True
    return out


def open_colours(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 182) uint8 colour sets: per cell, the colours a new stall tile may have there by
    §5.3 preconditions 2 and 5: the colour's area holds the cell, and no main stall of the
    colour (``stall_cell`` (R, owners, 6), any owner) stands in its section."""
    return AREA_CODE & ~colour_bits(main_stall_sections(stall_cell))[:, SECTION]


def setup_sections(stall_cell: np.ndarray) -> np.ndarray:
    """(R, 9) bool: §5.9.1, the sections holding fewer than two main stalls (any owner,
    neutral included), where a setup or neutral stall may go."""
    placed = stall_cell >= 0
    rows = np.nonzero(placed)[0]
    slots = rows * NUM_SECTIONS + SECTION[stall_cell[placed]]  # one bincount, not add.at
    num = stall_cell.shape[0]
    counts = np.bincount(slots, minlength=num * NUM_SECTIONS).reshape(num, NUM_SECTIONS)
    return counts < SETUP_SECTION_LIMIT


def lifted_boards(state: CairoState, rows: np.ndarray, seat: np.ndarray, colour: np.ndarray
                  ) -> tuple[Board, np.ndarray]:
    """The boards of moves (§5.6 precondition 3): each seat's stall of the colour and its
    entrance taken off its row's board, and the cells its tile may go to by area and section
    (the stall no longer counting against its own section), its old cell excluded.

    Args:
        state: the batch.
        rows: (R,) rows, one stall each (a row may repeat for several colours).
        seat, colour: (R,) the stall's owner and colour.

    Returns:
        The lifted boards, and (R, 182) bool candidate cells.
    """
    pairs = np.arange(rows.size)
    old = state.stall_cell[rows, seat, colour]
    tile, entrance = state.tile[rows], state.entrance[rows]
    tile[pairs, old] = -1
    entrance[pairs, state.entrance_cell[rows, seat, colour]] = -1
    stalls = state.stall_cell[rows]
    stalls[pairs, seat, colour] = -1
    candidates = has_colour(open_colours(stalls), colour)
    candidates[pairs, old] = False
    return Board(tile, entrance, customer_cells(state, rows)), candidates


def move_destinations(state: CairoState, rows: np.ndarray, seat: np.ndarray,
                      colour: np.ndarray, sections_ok: np.ndarray,
                      limit: np.ndarray | None = None) -> np.ndarray:
    """(R, 182, 4) bool: the legal new (cell, direction) of each seat's stall of the colour
    (§5.6 precondition 3): §5.3 preconditions 2–7 on the board with the stall lifted, in the
    sections ``sections_ok`` (R, 9) the cards pay for, on another cell than its own; only
    the cells of ``limit`` (R, 182) when given."""
    if not rows.size:
        return np.zeros((0, NUM_CELLS, 4), dtype=bool)
    board, candidates = lifted_boards(state, rows, seat, colour)
    candidates &= sections_ok[:, SECTION]
    if limit is not None:
        candidates &= limit
    return stall_directions(board, candidates)


def move_sections(state: CairoState, rows: np.ndarray, seat: np.ndarray, colour: np.ndarray
                  ) -> np.ndarray:
    """(R,) int32: the 9-bit sets of the sections holding a legal destination of each seat's
    stall of the colour (``move_destinations`` in every section, whatever the cards)."""
    everywhere = np.ones((rows.size, NUM_SECTIONS), dtype=bool)
    cells = any_direction(move_destinations(state, rows, seat, colour, everywhere))
    return section_set(section_union(cells))
