"""The legal actions of every decision (§4.2 D1–D12, §9.2), vectorised over R rows.

Each mask combines the rules of ``stalls.py`` (where a stall may stand), ``expansion.py``
(where a group may grow), ``lure.py`` and ``cards.py`` (what the cards and money pay for),
always from the point of view of the seat to act. The masks are lookahead-safe: a cell is
offered only if some direction and some payable card mode complete it, a card mode only if
its fee (and, for an expansion, the cost after it) can be paid.

The board analysis (``board_analysis``) is the costly part: the reachability rule (§5.1) for
a tile on every free cell of the board. It depends only on the tiles, the target cells (the
customers and entrances) and the main stalls, which most turns (a draw, most lures) leave as
they are, so it covers every seat and is kept per row, checked row by row against those
arrays, for the next decisions and turns on the same board.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.cairo import cards, lure, stalls
from envs.cairo.board import (
    any_direction,
    board_of,
    colour_bits,
    colours_of,
    customer_cells,
    has_colour,
)
from envs.cairo.data import (
    NUM_BARKERS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_SECTIONS,
    SECTION,
)
from envs.cairo.expansion import expansion_codes
from envs.cairo.state import ACTIONS, STAGE, VERB, CairoState
from envs.core.arrays import last_axis_sums
from envs.core.game import Game

_COLOURS = np.arange(NUM_COLOURS)
# Every cell's position in the cells sorted by section, and where each section starts there:
# a section-wise reduction is then one ``reduceat``.
_BY_SECTION = np.argsort(SECTION, kind="stable")
_SECTION_STARTS = np.searchsorted(SECTION[_BY_SECTION], np.arange(NUM_SECTIONS))
_ANALYSIS = "board_analysis"  # Game.state_cache entry of ``board_analysis``
_ANALYSIS_FIELDS = ("dirs", "new_sections", "expand_codes", "expand_sections")
_LURE_OPTIONS = "lure_options"  # Game.scratch entry: a D10 mask's options, for its step


# ---------------------------------------------------------------- per-row entries
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
    for field, value in values.items():
        if field not in entry:
            entry[field] = np.zeros((batch, *value.shape[1:]), dtype=value.dtype)
        entry[field][idx] = value
    entry["key"][idx] = key
    entry["ok"][idx] = True


def _cached_rows(state: CairoState, name: str, idx: np.ndarray, key: np.ndarray,
                 compute: Callable[[np.ndarray], dict[str, np.ndarray]], fields: tuple[str, ...]
                 ) -> list[np.ndarray]:
    """``fields`` of the entry ``name`` for rows ``idx`` (each (R, ...)): the rows whose
    ``key`` is unchanged from their entry, the rest from ``compute(miss)`` (a dict of every
    field for the rows ``idx[miss]``, (R,) bool ``miss``), which is stored for them."""
    entry = Game.state_cache(state).get(name)
    found = np.zeros(idx.size, dtype=bool)
    if entry is not None and entry["key"].shape[1] == key.shape[1]:
        found = entry["ok"][idx] & (entry["key"][idx] == key).all(axis=1)
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


# ---------------------------------------------------------------- the board analysis
def section_sets(codes: np.ndarray) -> np.ndarray:
    """(..., 9) uint8: the union of the cells' colour sets (..., 182) in each section."""
    return np.bitwise_or.reduceat(codes[..., _BY_SECTION], _SECTION_STARTS, axis=-1)


def board_analysis(state: CairoState, rows: np.ndarray, customers: np.ndarray | None = None
                   ) -> dict[str, np.ndarray]:
    """What the boards of ``rows`` allow any seat, whatever its cards and money:

    * ``dirs`` (R, 182, 4) bool: ``stalls.stall_directions`` of every cell;
    * ``new_sections`` (R, 9) uint8: per section, the colours with a legal new-stall cell
      there (``dirs`` and ``stalls.open_colours``);
    * ``expand_codes`` (R, P, 182) uint8: per seat, ``expansion_codes`` of the cells where a
      tile keeps the targets connected (§5.4 preconditions 2–4 and 6);
    * ``expand_sections`` (R, P, 9) uint8: those codes' union per section.

    Kept per row while the tiles, the target cells and the main stalls stay as they are.
    ``customers`` is the rows' ``customer_cells`` when the caller has them already.
    """
    if customers is None:
        customers = customer_cells(state, rows)
    targets = customers | (state.entrance[rows] >= 0)
    num = rows.size
    key = np.concatenate([state.tile[rows], targets.view(np.int8),
                          state.stall_cell[rows].reshape(num, -1).view(np.int8)],
                         axis=1).view(np.uint8)
    players = state.hand.shape[1]

    def analyse(miss: np.ndarray) -> dict[str, np.ndarray]:
        miss_rows = rows[miss]
        board = board_of(state, miss_rows, customers[miss])
        reach = board.placements(board.free)
        dirs = stalls.stall_directions(board, np.ones(board.free.shape, dtype=bool), reach)
        new_cells = stalls.open_colours(state.stall_cell[miss_rows]) * any_direction(
            dirs).view(np.uint8)
        codes = expansion_codes(board, players) * reach[0][:, None, :].view(np.uint8)
        return {"dirs": dirs, "new_sections": section_sets(new_cells), "expand_codes": codes,
                "expand_sections": section_sets(codes)}

    values = _cached_rows(state, _ANALYSIS, rows, key, analyse, _ANALYSIS_FIELDS)
    return dict(zip(_ANALYSIS_FIELDS, values, strict=True))


# ---------------------------------------------------------------- stall placements
def place_colour_mask(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D1, the seat's unplaced colours with a legal setup placement (§5.9.1):
    some cell of a section with room (``stalls.setup_sections``) open to the colour."""
    seat = state.current_player[rows].astype(np.intp)
    stall_cell = state.stall_cell[rows]
    unplaced = stall_cell[np.arange(rows.size), seat] < 0
    cells = any_direction(board_analysis(state, rows)["dirs"])
    cells &= stalls.setup_sections(stall_cell)[:, SECTION]
    return unplaced & colours_of(np.bitwise_or.reduce(
        stalls.open_colours(stall_cell) * cells.view(np.uint8), axis=1))


def stall_cover(hand: np.ndarray, money: np.ndarray) -> np.ndarray:
    """(R, 9) bool: the sections the seat's cards (and the joker fee) pay for a stall in."""
    none = np.zeros(hand.shape[0], dtype=np.intp)
    return cards.build_cover(hand, money, none, none)


def stall_options(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 182, 4) bool: D2 and D3, the legal (cell, direction) of the pending stall.

    The pending verb says which rules apply: PLACE (setup or neutral: no cards, at most two
    stalls a section), NEW (cards pay for the section) or MOVE (cards, the stall lifted
    first, ``stalls.move_destinations``).
    """
    seat, hand, money = cards.seat_cards(state, rows)
    colour = state.colour[rows].astype(np.intp)
    verb = state.verb[rows]
    cover = stall_cover(hand, money)
    out = np.zeros((rows.size, NUM_CELLS, 4), dtype=bool)
    move = verb == VERB.MOVE
    if move.any():
        out[move] = stalls.move_destinations(state, rows[move], seat[move], colour[move],
                                             cover[move])
    rest = ~move
    if rest.any():
        stall_cell = state.stall_cell[rows[rest]]
        placing = (verb[rest] == VERB.PLACE)[:, None]
        sections_ok = np.where(placing, stalls.setup_sections(stall_cell), cover[rest])
        candidates = has_colour(stalls.open_colours(stall_cell), colour[rest])
        candidates &= sections_ok[:, SECTION]
        out[rest] = board_analysis(state, rows[rest])["dirs"] & candidates[:, :, None]
    return out


# ---------------------------------------------------------------- builds
def pending_cost(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R,) the cost ``N`` of each row's pending expansion, 0 for a pending stall."""
    seat = state.current_player[rows]
    colour = state.colour[rows]
    size = state.group_size[rows, seat, colour].astype(np.int32)
    return np.where(state.verb[rows] == VERB.EXPAND, size + 1, 0)


def fee_colours(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D8, the joker fee colours that keep the pending build payable."""
    _, _, money = cards.seat_cards(state, rows)
    return cards.fee_colours(money, state.colour[rows].astype(np.intp),
                             pending_cost(state, rows))


def card_mode_mask(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 16) bool: D6, the card modes that pay for the pending build's target."""
    _, hand, _ = cards.seat_cards(state, rows)
    section = SECTION[state.target[rows]].astype(np.intp)
    return cards.card_modes(hand, section, fee_colours(state, rows).any(axis=1))


def expansion_options(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 182) bool: D5, the cells the pending expansion may take and pay for."""
    seat, hand, money = cards.seat_cards(state, rows)
    colour = state.colour[rows].astype(np.intp)
    codes = board_analysis(state, rows)["expand_codes"][np.arange(rows.size), seat]
    cost = state.group_size[rows, seat, colour].astype(np.int32) + 1
    return has_colour(codes, colour) & cards.build_cover(hand, money, colour, cost)[:, SECTION]


def payment_mask(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D9, the colours of the next coin of the pending expansion's cost."""
    _, _, money = cards.seat_cards(state, rows)
    return cards.payment_colours(money, state.colour[rows].astype(np.intp),
                                 state.pay_units[rows], state.pay_half[rows])


# ---------------------------------------------------------------- lures and draws
def lure_targets(state: CairoState, rows: np.ndarray, in_step: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lure.lure_options`` of the rows; a D10 mask leaves them in ``Game.scratch``, and its
    step (``in_step``) reads them from there."""
    if in_step:
        found, values = Game.handed(state).get(_LURE_OPTIONS, rows)
        return values if found.all() else lure.lure_options(state, rows)
    return Game.scratch(state).rows(_LURE_OPTIONS, rows,
                                    lambda missing: lure.lure_options(state, missing))


def draw_sources(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R, 6) bool: D11, display slots 0..3, the deck and the barker supply (§5.8.1)."""
    deck = (state.deck_size[rows] > 0) | (last_axis_sums(state.discard[rows]) > 0)
    barker = last_axis_sums(state.barkers[rows]) < NUM_BARKERS
    return np.concatenate([state.display[rows] >= 0, deck[:, None], barker[:, None]], axis=1)


# ---------------------------------------------------------------- the turn (D4)
def turn_mask(state: CairoState, rows: np.ndarray, move_requires_blocked: bool) -> np.ndarray:
    """(R, 240) bool: D4 at the start of a MAIN or FINAL turn (§4.1, §9.2).

    What the board allows any seat (``board_analysis``: per section, the colours with a cell
    for a new stall and for an expansion of each seat) meets the sections the seat's cards
    and money pay for. Each movable stall is checked on a board of its own with it lifted.
    """
    num = rows.size
    out = np.zeros((num, ACTIONS.size), dtype=bool)
    seat, hand, money = cards.seat_cards(state, rows)
    customers = customer_cells(state, rows)
    analysis = board_analysis(state, rows, customers)
    expand_sections = analysis["expand_sections"][np.arange(num), seat]  # (R, 9)
    main = state.stage[rows] == STAGE.MAIN
    size = state.group_size[rows, seat].astype(np.int32)  # (R, 6)
    unplaced = state.stall_cell[rows, seat] < 0
    # §5.3: an unplaced colour with a legal cell in a section the cards pay for.
    cover_new = stall_cover(hand, money)
    new_ok = unplaced & colours_of(np.bitwise_or.reduce(
        analysis["new_sections"] * cover_new.view(np.uint8), axis=1))
    # §5.4: per section, the colours whose expansion there the cards and money pay for.
    colours = np.broadcast_to(_COLOURS, (num, NUM_COLOURS))
    cover = colour_bits(cards.build_cover(hand, money, colours, size + 1), axis=1)
    expand_ok = colours_of(np.bitwise_or.reduce(expand_sections & cover, axis=1))
    expand_ok &= (size > 0) & (state.supply[rows] > 0)
    # §5.6: an unexpanded stall, blocked (R22) unless the option waives it, with a destination.
    movable = size == 1
    if move_requires_blocked:
        movable &= ~colours_of(np.bitwise_or.reduce(expand_sections, axis=1))
    move_ok = np.zeros((num, NUM_COLOURS), dtype=bool)
    pairs, colour = np.nonzero(movable)
    if pairs.size:
        destinations = stalls.move_destinations(state, rows[pairs], seat[pairs], colour,
                                                cover_new[pairs])
        move_ok[pairs, colour] = destinations.reshape(pairs.size, -1).any(axis=1)
    out[:, ACTIONS.NEW.start:ACTIONS.NEW.stop] = new_ok
    out[:, ACTIONS.EXPAND.start:ACTIONS.EXPAND.stop] = expand_ok
    out[:, ACTIONS.MOVE.start:ACTIONS.MOVE.stop] = move_ok
    out[:, ACTIONS.LURE.start:ACTIONS.LURE.stop] = (
        lure.lure_available(state, rows, customers) & main[:, None])
    out[:, ACTIONS.DRAW.start] = main
    out[:, ACTIONS.PASS.start] = ~main
    return out
