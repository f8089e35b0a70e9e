"""The legal actions of every decision (§4.2 D1–D12, §9.2), vectorised over R rows.

Each mask combines the rules of ``stalls.py`` (where a stall may stand), ``expansion.py``
(where a group may grow), ``lure.py`` and ``cards.py`` (what the cards and money pay for),
always from the point of view of the seat to act. The masks are lookahead-safe: a cell is
offered only if some direction and some payable card mode complete it, a card mode only if
its fee (and, for an expansion, the cost after it) can be paid. A mask that reads the seat's
cards and money takes them as ``holdings``: its own by default, or what every seat knows of
them (``cards.public_holdings``), from which the forced-decision predicates compute the same
mask on public data alone.

The board analysis (``board_analysis``) is the costly part: the reachability rule (§5.1) for
a tile on every free cell of the board. It depends only on the tiles, the target cells (the
customers and entrances) and the main stalls, which most turns (a draw, most lures) leave as
they are, so it covers every seat and is kept per row, checked row by row against those
arrays, for the next decisions and turns on the same board.
"""

from __future__ import annotations

import math

import numpy as np

from envs.cairo import cards, lure, stalls
from envs.cairo.board import (
    Board,
    any_direction,
    colours_of,
    customer_cells,
    has_colour,
    section_union,
)
from envs.cairo.data import (
    NUM_BARKERS,
    NUM_CELLS,
    NUM_COLOURS,
    SECTION,
)
from envs.cairo.expansion import expansion_codes
from envs.cairo.state import ACTIONS, STAGE, VERB, CairoState
from envs.core import memo
from envs.core.arrays import last_axis_sums

_COLOURS = np.arange(NUM_COLOURS)
_COLOURS_U8 = _COLOURS.astype(np.uint8)
# The colours of D4's builds: an expansion of each colour, then a stall (colour unread).
_BUILD_COLOURS = np.append(_COLOURS, 0)[None, :]
# ``board_analysis``'s values, in the order the memo keeps them.
_ANALYSIS = ("dirs", "setup_colours", "new_sections", "expand_codes", "expand_sections")


# ---------------------------------------------------------------- the board analysis
def _row_bytes(parts: list[np.ndarray]) -> np.ndarray:
    """(R, F) uint8: each row's bytes of the (R, ...) C-contiguous ``parts``, joined."""
    return np.concatenate([part.reshape(len(part), math.prod(part.shape[1:])).view(np.uint8)
                           for part in parts], axis=1)


def _board_key(state: CairoState, rows: np.ndarray, customers: np.ndarray,
               *more: np.ndarray) -> np.ndarray:
    """(R, F) uint8: the memo key of a board: the bytes of its tiles, of its target cells
    (``customers`` and entrances, one bit a cell) and of its main stalls, then those of the
    ``more`` arrays (R, ...) given."""
    targets = np.packbits(customers | (state.entrance[rows] >= 0), axis=1)
    parts = [state.tile[rows], targets, state.stall_cell[rows], *more]
    return _row_bytes(parts)


def colour_sections(codes: np.ndarray) -> np.ndarray:
    """(..., 6) int32: per colour, the 9-bit set of the sections holding a cell whose colour
    set (``codes`` (..., 182) uint8) has the colour."""
    per_section = section_union(codes)  # (..., 9) the colours present in each section
    return (per_section[..., None, :] >> _COLOURS_U8[:, None] & 1) @ cards.SECTION_BIT


def board_analysis(state: CairoState, rows: np.ndarray, *fields: str) -> tuple[np.ndarray, ...]:
    """What the boards of ``rows`` allow any seat, whatever its cards and money; the
    ``fields`` asked for, of:

    * ``dirs`` (R, 182, 4) bool: ``stalls.stall_directions`` of every cell;
    * ``setup_colours`` (R,) uint8: the colours with a legal setup or neutral placement
      (§5.9.1: a cell of ``dirs`` open to the colour, ``stalls.open_colours``, in a
      section with room, ``stalls.setup_sections``);
    * ``new_sections`` (R, 6) int32: per colour, the 9-bit set of the sections with a legal
      cell for a new stall of the colour (``dirs`` and ``stalls.open_colours``);
    * ``expand_codes`` (R, P, 182) uint8: per seat, ``expansion_codes`` of the cells where a
      tile keeps the targets connected (§5.4 preconditions 2–4 and 6);
    * ``expand_sections`` (R, P, 6) int32: per seat and colour, the sections of those cells.

    Kept per row (``envs.core.memo``) while the tiles, the target cells (customers and
    entrances) and the main stalls stay as they are.
    """
    customers = customer_cells(state, rows)

    def analyse(miss: np.ndarray) -> tuple[np.ndarray, ...]:
        miss_rows = rows[miss]
        stall_cell = state.stall_cell[miss_rows]
        board = Board(state.tile[miss_rows], state.entrance[miss_rows], customers[miss])
        reach = board.placements(board.free)
        dirs = stalls.stall_directions(board, np.ones(board.free.shape, dtype=bool), reach)
        stall_cells = any_direction(dirs)
        open_colours = stalls.open_colours(stall_cell)
        setup_cells = stall_cells & stalls.setup_sections(stall_cell)[:, SECTION]
        setup_colours = np.bitwise_or.reduce(open_colours * setup_cells.view(np.uint8), axis=1)
        players = state.hand.shape[1]
        codes = expansion_codes(board, players) * reach[0][:, None, :].view(np.uint8)
        return (dirs, setup_colours, colour_sections(open_colours * stall_cells.view(np.uint8)),
                codes, colour_sections(codes))

    return memo.rows(state, "cairo_board_analysis", rows, _board_key(state, rows, customers),
                     analyse,
                     tuple(_ANALYSIS.index(field) for field in fields))


def move_analysis(state: CairoState, rows: np.ndarray, move_requires_blocked: bool
                  ) -> tuple[np.ndarray]:
    """Per colour (R, 6) int32: for each stall of the acting seat that may move (§5.6:
    unexpanded, and blocked unless ``move_requires_blocked`` waives it, R22), the 9-bit set
    of the sections holding a destination of its move (``stalls.move_sections``, whatever
    the cards); 0 for the others.

    Kept per row, as ``board_analysis`` is, while the board, the entrances and the seat to
    act stay as they are (the turn's later decisions, and the same seat's next turn when no
    other seat has changed the board). A board changes most turns, so the analysis covers
    the acting seat alone, not every seat as ``board_analysis`` does.
    """
    seat = state.current_player[rows].astype(np.intp)
    # A lifted stall's entrance stops being a target unless a customer stands on it: the
    # key holds the customers' cells and the entrances apart, not only their union.
    customers = customer_cells(state, rows)
    key = _board_key(state, rows, customers, np.packbits(customers, axis=1),
                     state.entrance_cell[rows], seat.astype(np.uint8)[:, None])

    def analyse(miss: np.ndarray) -> tuple[np.ndarray]:
        miss_rows, miss_seat = rows[miss], seat[miss]
        movable = state.group_size[miss_rows, miss_seat] == 1
        if move_requires_blocked:
            (expand_sections,) = board_analysis(state, miss_rows, "expand_sections")
            movable &= expand_sections[np.arange(miss.size), miss_seat] == 0
        out = np.zeros(movable.shape, dtype=np.int32)
        pairs, colours = np.nonzero(movable)
        if pairs.size:
            out[pairs, colours] = stalls.move_sections(state, miss_rows[pairs],
                                                       miss_seat[pairs], colours)
        return (out,)

    name = "cairo_blocked_moves" if move_requires_blocked else "cairo_moves"
    return memo.rows(state, name, rows, key, analyse)


def _holdings(state: CairoState, rows: np.ndarray, holdings: cards.Holdings | None
              ) -> cards.Holdings:
    """The acting seat's cards and money a mask reads: ``holdings`` when given (a public
    bound, ``cards.public_holdings``), else the seat's own (``cards.seat_cards``)."""
    return cards.seat_cards(state, rows) if holdings is None else holdings


# ---------------------------------------------------------------- stall placements
def place_colour_mask(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D1, the seat's unplaced colours with a legal setup placement (§5.9.1)."""
    seat = state.current_player[rows].astype(np.intp)
    (setup_colours,) = board_analysis(state, rows, "setup_colours")
    return (state.stall_cell[rows, seat] < 0) & colours_of(setup_colours)


def stall_options(state: CairoState, rows: np.ndarray, cells: np.ndarray | None = None,
                  holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 182, 4) bool: D2 and D3, the legal (cell, direction) of the pending stall; with
    ``cells`` (R,) given, (R, 4) bool: the directions at those cells alone (D3 asks about
    the chosen cell).

    The pending verb says which rules apply: PLACE (setup or neutral: no cards, at most two
    stalls a section), NEW (cards pay for the section) or MOVE (cards, the stall lifted
    first, ``stalls.move_destinations``).
    """
    seat, hand, money = _holdings(state, rows, holdings)
    colour = state.colour[rows].astype(np.intp)
    verb = state.verb[rows]
    cover = cards.sections_of(cards.stall_cover(hand, money))
    move = verb == VERB.MOVE
    if not move.any():
        return _placement_options(state, rows, colour, verb, cover, cells)
    out = np.zeros((rows.size, NUM_CELLS, 4) if cells is None else (rows.size, 4), dtype=bool)
    moving = np.flatnonzero(move)
    limit = None
    if cells is not None:
        limit = np.zeros((moving.size, NUM_CELLS), dtype=bool)
        limit[np.arange(moving.size), cells[moving]] = True
    found = stalls.move_destinations(state, rows[moving], seat[moving], colour[moving],
                                     cover[moving], limit)
    out[moving] = found if cells is None else found[np.arange(moving.size), cells[moving]]
    rest = np.flatnonzero(~move)
    if rest.size:
        out[rest] = _placement_options(state, rows[rest], colour[rest], verb[rest], cover[rest],
                                       None if cells is None else cells[rest])
    return out


def _placement_options(state: CairoState, rows: np.ndarray, colour: np.ndarray,
                       verb: np.ndarray, cover: np.ndarray, cells: np.ndarray | None
                       ) -> np.ndarray:
    """``stall_options`` of rows whose pending stall is placed or new (not moved): the
    board's directions (``board_analysis``) at the cells open to the colour in the sections
    allowed (the setup limit, or the ones the cards pay for, ``cover`` (R, 9))."""
    stall_cell = state.stall_cell[rows]
    placing = (verb == VERB.PLACE)[:, None]
    sections_ok = np.where(placing, stalls.setup_sections(stall_cell), cover)
    candidates = has_colour(stalls.open_colours(stall_cell), colour)
    candidates &= sections_ok[:, SECTION]
    (dirs,) = board_analysis(state, rows, "dirs")
    if cells is None:
        return dirs & candidates[:, :, None]
    at = np.arange(rows.size), cells
    return dirs[at] & candidates[at][:, None]


# ---------------------------------------------------------------- builds
def pending_cost(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R,) the cost ``N`` of each row's pending expansion, 0 for a pending stall."""
    seat = state.current_player[rows]
    colour = state.colour[rows]
    size = state.group_size[rows, seat, colour].astype(np.int32)
    return np.where(state.verb[rows] == VERB.EXPAND, size + 1, 0)


def fee_colours(state: CairoState, rows: np.ndarray,
                holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 6) bool: D8, the joker fee colours that keep the pending build payable."""
    _, _, money = _holdings(state, rows, holdings)
    return cards.fee_colours(money, state.colour[rows].astype(np.intp),
                             pending_cost(state, rows))


def card_mode_mask(state: CairoState, rows: np.ndarray,
                   holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 16) bool: D6, the card modes that pay for the pending build's target."""
    holdings = _holdings(state, rows, holdings)
    section = SECTION[state.target[rows]].astype(np.intp)
    return cards.card_modes(holdings[1], section,
                            fee_colours(state, rows, holdings).any(axis=1))


def expansion_options(state: CairoState, rows: np.ndarray,
                      holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 182) bool: D5, the cells the pending expansion may take and pay for."""
    seat, hand, money = _holdings(state, rows, holdings)
    colour = state.colour[rows].astype(np.intp)
    (codes,) = board_analysis(state, rows, "expand_codes")
    codes = codes[np.arange(rows.size), seat]
    cost = state.group_size[rows, seat, colour].astype(np.int32) + 1
    return has_colour(codes, colour) & cards.cells_of(cards.build_cover(hand, money, colour, cost))


def payment_mask(state: CairoState, rows: np.ndarray,
                 holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 6) bool: D9, the colours of the next coin of the pending expansion's cost."""
    _, _, money = _holdings(state, rows, holdings)
    return cards.payment_colours(money, state.colour[rows].astype(np.intp),
                                 state.pay_units[rows], state.pay_half[rows])


# ---------------------------------------------------------------- lures and draws
def lure_targets(state: CairoState, rows: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lure.lure_options`` of the rows (D10), kept per row for the step that applies the
    chosen target while the board, the customers, the seat and its barkers stay the same."""
    seat = state.current_player[rows]
    parts = [state.tile[rows], state.customer[rows], state.entrance_cell[rows],
             state.colour[rows], seat, state.barkers[rows, seat]]
    key = _row_bytes(parts)
    return memo.rows(state, "cairo_lure_options", rows, key,
                     lambda miss: lure.lure_options(state, rows[miss]))


def draw_sources(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D11, display slots 0..3, the deck and the barker supply (§5.8.1)."""
    deck = (state.deck_size[rows] > 0) | (last_axis_sums(state.discard[rows]) > 0)
    barker = last_axis_sums(state.barkers[rows]) < NUM_BARKERS
    return np.concatenate([state.display[rows] >= 0, deck[:, None], barker[:, None]], axis=1)


# ---------------------------------------------------------------- the turn (D4)
def turn_mask(state: CairoState, rows: np.ndarray, move_requires_blocked: bool,
              holdings: cards.Holdings | None = None) -> np.ndarray:
    """(R, 240) bool: D4 at the start of a MAIN or FINAL turn (§4.1, §9.2).

    What the board allows any seat (``board_analysis``: per section, the colours with a cell
    for a new stall and for an expansion of each seat) meets the sections the seat's cards
    and money pay for. A movable stall to whose colour the board offers no such cell is checked
    on a board of its own with it lifted.
    """
    num = rows.size
    out = np.zeros((num, ACTIONS.size), dtype=bool)
    seat, hand, money = _holdings(state, rows, holdings)
    new_sections, expand_sections = board_analysis(state, rows, "new_sections",
                                                   "expand_sections")
    expand_sections = expand_sections[np.arange(num), seat]  # (R, 6)
    main = state.stage[rows] == STAGE.MAIN
    size = state.group_size[rows, seat].astype(np.int32)  # (R, 6)
    # The sections the cards and money pay for: an expansion of each colour (§5.4), then a
    # stall (cost 0), in one call.
    builds = np.concatenate([size + 1, np.zeros((num, 1), dtype=np.int32)], axis=1)
    colours = np.repeat(_BUILD_COLOURS, num, axis=0)
    cover = cards.build_cover(hand, money, colours, builds)  # (R, 7) section sets
    cover_new = cover[:, NUM_COLOURS:]
    # §5.3: an unplaced colour with a legal cell in a section the cards pay for.
    stall_ok = new_sections & cover_new != 0  # (R, 6) the board and cards allow a stall
    new_ok = (state.stall_cell[rows, seat] < 0) & stall_ok
    # §5.4: a group, an expansion left, a cell in a section where the colour is paid for.
    expand_ok = (expand_sections & cover[:, :NUM_COLOURS] != 0) & (size > 0)
    expand_ok &= state.supply[rows] > 0
    # §5.6: an unexpanded stall, blocked (R22) unless the option waives it, with a
    # destination in a section the cards pay for.
    movable = size == 1
    if move_requires_blocked:
        movable &= expand_sections == 0
    # Lifting a stall only frees cells (its tile, its entrance) and takes a target away
    # (its entrance), and opens its own section to its colour: a cell legal for a new stall
    # of the colour on the board as it is (``stall_ok``) is a legal destination. Only the
    # stalls without one need a board of their own with them lifted, and only where the
    # seat's cards pay for a stall somewhere.
    move_ok = movable & stall_ok
    lifted = movable & ~stall_ok
    moving = np.flatnonzero(lifted.any(axis=1) & (cover_new[:, 0] != 0))
    if moving.size:
        (destinations,) = move_analysis(state, rows[moving], move_requires_blocked)  # (M, 6)
        move_ok[moving] |= lifted[moving] & (destinations & cover_new[moving] != 0)
    out[:, ACTIONS.NEW.start:ACTIONS.NEW.stop] = new_ok
    out[:, ACTIONS.EXPAND.start:ACTIONS.EXPAND.stop] = expand_ok
    out[:, ACTIONS.MOVE.start:ACTIONS.MOVE.stop] = move_ok
    out[:, ACTIONS.LURE.start:ACTIONS.LURE.stop] = (
        lure.lure_available(state, rows) & main[:, None])
    out[:, ACTIONS.DRAW.start] = main
    out[:, ACTIONS.PASS.start] = ~main
    return out
