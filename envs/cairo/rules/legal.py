"""The legal actions of every decision (§4.2 D1–D12, §9.2), per row, and the forced ones.

Each ``legal_<phase>(s, r, mask, hand, money)`` sets the legal actions of the decision in
the row's cleared ``mask`` (240,), from the acting seat's point of view; the ones that read
its cards and money take them as ``hand`` (15,) and ``money`` (6,): its own (``legal``), or
what every seat knows of them (``cards.public_holdings``), from which ``forced`` judges on
public data alone whether the decision has a single legal action. The masks are
lookahead-safe: a cell is offered only if some direction and some payable card mode complete
it, a card mode only if its fee (and, for an expansion, the cost after it) can be paid.
"""

from __future__ import annotations

import numpy as np

from envs.cairo.board import (
    board_sections,
    cell_bits,
    cells_of,
    difference,
    has_bit,
    intersection,
    is_empty,
    load,
    sections_board,
    union,
)
from envs.cairo.data import (
    DISPLAY_SLOTS,
    NUM_BARKERS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    SECTION,
)
from envs.cairo.rules import cards, placement
from envs.cairo.rules.lure import lure_available, lure_options
from envs.cairo.state import ACTIONS, P_MOVE_REQUIRES_BLOCKED, P_REVEAL_MONEY, Phase, Stage, Verb
from envs.core.driver import count_true
from envs.core.jit import local_zeros, njit

NEW, EXPAND, MOVE, LURE = (ACTIONS.NEW.start, ACTIONS.EXPAND.start, ACTIONS.MOVE.start,
                           ACTIONS.LURE.start)
DRAW, PASS = ACTIONS.DRAW.start, ACTIONS.PASS.start
CELL, DIR = ACTIONS.CELL.start, ACTIONS.DIR.start
CARD, THREE, COLOUR = ACTIONS.CARD.start, ACTIONS.THREE.start, ACTIONS.COLOUR.start
DISPLAY, DECK, BARKER = ACTIONS.DISPLAY.start, ACTIONS.DECK.start, ACTIONS.BARKER.start
NUM_ACTIONS = ACTIONS.size
SECTION_OF = SECTION.astype(np.int64)


@njit
def pending_cost(s, r):
    """The cost ``N`` of the pending expansion, 0 for a pending stall."""
    if s.verb[r] != Verb.EXPAND:
        return 0
    return s.group_size[r, s.current_player[r], s.colour[r]] + 1


# ---------------------------------------------------------------- stall placements
@njit
def legal_place_colour(s, r, mask, hand, money):
    """D1: the seat's unplaced colours with a legal setup placement (§5.9.1)."""
    reach = placement.new_reach()
    placement.load_board(s, r, reach)
    placement.analyse(reach, sections_board(placement.setup_sections(s.stall_cell[r])))
    colours = placement.setup_colours(s, r, reach)
    seat = s.current_player[r]
    for c in range(NUM_COLOURS):
        mask[NEW + c] = s.stall_cell[r, seat, c] < 0 and colours >> c & 1 == 1


@njit
def _stall_cells(s, r, reach, sections):
    """The cells the pending stall may stand on by area and section (the board aside) in
    the 9-bit set ``sections``, its board loaded in ``reach`` (``_stall_board``). The
    pending verb says which rules apply: PLACE (setup or neutral: at most two stalls a
    section, ``sections``), NEW (the sections the cards pay for) or MOVE (the same, with
    the stall lifted: ``placement.move_cells``)."""
    if s.verb[r] == Verb.MOVE:
        return placement.move_cells(s, r, s.current_player[r], s.colour[r], sections)
    return placement.colour_cells(reach.main, s.colour[r], sections)


@njit
def _stall_board(s, r, reach, sections):
    """Load the board the pending stall goes on into ``reach``: as it is, or for a move
    with the stall lifted (``placement.lift``); return ``_stall_cells``."""
    if s.verb[r] == Verb.MOVE:
        placement.lift(s, r, s.current_player[r], s.colour[r], reach)
    else:
        placement.load_board(s, r, reach)
    return _stall_cells(s, r, reach, sections)


@njit
def _stall_sections(s, r, hand, money):
    """The sections a pending stall may go to: the setup limit, or what the cards pay for."""
    if s.verb[r] == Verb.PLACE:
        return placement.setup_sections(s.stall_cell[r])
    return cards.stall_cover(hand, money)


@njit
def stall_options(s, r, hand, money, out):
    """D2 and D3: the legal (cell, direction) of the pending stall into ``out`` (182, 4)
    bool: a cell it may stand on by area and section where the board takes a stall."""
    reach = placement.new_reach()
    cells = _stall_board(s, r, reach, _stall_sections(s, r, hand, money))
    placement.analyse(reach, cells)
    for d in range(4):
        facing = intersection(cells, load(reach.dirs[d]))
        for k in range(NUM_CELLS):
            out[k, d] = has_bit(facing, k)


@njit
def legal_stall_cell(s, r, mask, hand, money):
    reach = placement.new_reach()
    cells = _stall_board(s, r, reach, _stall_sections(s, r, hand, money))
    placement.analyse(reach, cells)
    _mark_cells(intersection(cells, load(reach.stall_ok)), mask)


@njit
def legal_stall_dir(s, r, mask, hand, money):
    """D3 at the chosen cell. Public: it reads the cards only as the sections they pay for,
    and the chosen cell's section is one (D2 offered it)."""
    reach = placement.new_reach()
    k = s.target[r]
    cells = intersection(_stall_board(s, r, reach, _stall_sections(s, r, hand, money)),
                         cell_bits(k))
    placement.analyse(reach, cells)
    for d in range(4):
        mask[DIR + d] = has_bit(cells, k) and has_bit(reach.dirs[d], k)


@njit
def _mark_cells(cells, mask):
    """Set the CELL actions of the cells of the board ``cells`` in ``mask``."""
    found = local_zeros(NUM_CELLS, np.int64)
    for i in range(cells_of(cells, found)):
        mask[CELL + found[i]] = True


# ---------------------------------------------------------------- the turn (D4)
@njit
def _turn_cells(s, r, reach, growth, cover_new, cover):
    """The cells whose cut test can change D4's mask after ``placement.open_analysis``
    (certain cells are exact, and the uncertain ones can only turn illegal): for each
    colour, the uncertain cells where a new or moved stall of it may stand that the cards
    pay for, and those where its group may grow, unless the certain cells already settle
    the question (a section paid for holds one). ``cover`` (6,): the sections where an
    expansion of each colour is paid for."""
    seat = s.current_player[r]
    blocked_only = s.params[P_MOVE_REQUIRES_BLOCKED] != 0
    uncertain = placement.uncertain_cells(reach)
    stall_ok = load(reach.stall_ok)
    out = (np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0))
    for c in range(NUM_COLOURS):
        size = s.group_size[r, seat, c]
        # NEW and MOVE: a cell where a new stall of the colour may stand, paid for.
        if s.stall_cell[r, seat, c] < 0 or size == 1:
            cells = intersection(stall_ok, placement.colour_cells(reach.main, c, cover_new))
            if is_empty(difference(cells, uncertain)):
                out = union(out, intersection(cells, uncertain))
        # EXPAND: a cell the group may grow onto, paid for; R22's "blocked": any such cell.
        grow = load(growth[c])
        certain = board_sections(difference(grow, uncertain))
        expand_open = (size > 0 and s.supply[r, c] > 0 and certain & cover[c] == 0
                       and cover[c] != 0)
        blocked_open = blocked_only and size == 1 and certain == 0
        if expand_open or blocked_open:
            out = union(out, intersection(grow, uncertain))
    return out


@njit
def legal_turn(s, r, mask, hand, money):
    """D4 at the start of a MAIN or FINAL turn (§4.1, §9.2): what the board allows meets
    the sections the seat's cards and money pay for. The board is analysed as if no tile
    could cut the targets apart, then only the cells whose cut test can change the mask
    are tested (``_turn_cells``): in a section with a certain legal cell, the others do not
    matter."""
    seat = s.current_player[r]
    cover_new = cards.build_cover(hand, money, 0, 0)  # a stall: no cost but the joker fee
    cover = local_zeros(NUM_COLOURS, np.int64)  # an expansion of each colour
    for c in range(NUM_COLOURS):
        cover[c] = cards.build_cover(hand, money, c, s.group_size[r, seat, c] + 1)
    reach = placement.new_reach()
    placement.load_board(s, r, reach)
    growth = local_zeros((NUM_COLOURS, 4), np.uint64)
    placement.growth_boards(reach, seat, growth)
    placement.open_analysis(reach)
    placement.place_stalls(reach)
    unsettled = _turn_cells(s, r, reach, growth, cover_new, cover)
    if not is_empty(unsettled):
        placement.settle_cuts(reach, unsettled)
        placement.place_stalls(reach)
    new_sections = local_zeros(NUM_COLOURS, np.int64)
    expand_sections = local_zeros(NUM_COLOURS, np.int64)
    placement.new_sections(s, r, reach, new_sections)
    placement.expand_sections(reach, growth, expand_sections)
    main = s.stage[r] == Stage.MAIN
    blocked_only = s.params[P_MOVE_REQUIRES_BLOCKED] != 0
    for c in range(NUM_COLOURS):
        size = s.group_size[r, seat, c]
        # §5.3: an unplaced colour with a legal cell in a section the cards pay for.
        stall_ok = new_sections[c] & cover_new != 0
        mask[NEW + c] = s.stall_cell[r, seat, c] < 0 and stall_ok
        # §5.4: a group, an expansion left, a cell in a section where the colour is paid for.
        mask[EXPAND + c] = (expand_sections[c] & cover[c] != 0 and size > 0
                            and s.supply[r, c] > 0)
        # §5.6: an unexpanded stall, blocked (R22) unless the option waives it, with a
        # destination in a section the cards pay for. Lifting a stall only frees cells and
        # takes a target away, and opens its own section to its colour: a cell where a new
        # stall of the colour may stand is a destination, and only the stalls without one
        # need a board of their own with them lifted.
        movable = size == 1 and not (blocked_only and expand_sections[c] != 0)
        move_ok = movable and stall_ok
        if movable and not stall_ok and cover_new != 0:
            move_ok = placement.move_sections(s, r, seat, c, cover_new) != 0
        mask[MOVE + c] = move_ok
        mask[LURE + c] = main and lure_available(s, r, c)
    mask[DRAW] = main
    mask[PASS] = not main


# ---------------------------------------------------------------- builds
@njit
def legal_expand_cell(s, r, mask, hand, money):
    """D5: the cells the pending expansion may take and pay for."""
    seat = s.current_player[r]
    colour = s.colour[r]
    cover = sections_board(cards.build_cover(hand, money, colour,
                                             s.group_size[r, seat, colour] + 1))
    reach = placement.new_reach()
    placement.load_board(s, r, reach)
    cells = intersection(placement.growth_cells(reach, seat, colour), cover)
    placement.analyse(reach, cells)
    _mark_cells(intersection(cells, load(reach.safe)), mask)


@njit
def legal_card_mode(s, r, mask, hand, money):
    """D6: the card modes that pay for the pending build's target."""
    fee_ok = cards.fee_payable(money, s.colour[r], pending_cost(s, r))
    cards.card_modes(hand, SECTION_OF[s.target[r]], fee_ok, mask[CARD:THREE + 1])


@njit
def legal_cards_in_hand(s, r, mask, hand, money):
    """D7 (a card of three) and D12 (a card to discard): any card in hand."""
    for t in range(NUM_CARD_TYPES):
        mask[CARD + t] = hand[t] > 0


@njit
def legal_fee_colour(s, r, mask, hand, money):
    """D8: the joker fee colours that keep the pending build payable."""
    cost = pending_cost(s, r)
    for c in range(NUM_COLOURS):
        mask[COLOUR + c] = cards.fee_colour_ok(money, s.colour[r], cost, c)


@njit
def legal_payment(s, r, mask, hand, money):
    """D9: the colours of the next coin of the pending expansion's cost."""
    for c in range(NUM_COLOURS):
        mask[COLOUR + c] = cards.payment_ok(money, s.colour[r], s.pay_units[r],
                                            s.pay_half[r], c)


# ---------------------------------------------------------------- lures and draws
@njit
def legal_lure_target(s, r, mask, hand, money):
    """D10: the entrances the customer may be lured to."""
    cells = local_zeros(NUM_OWNERS, np.int64)
    legal = local_zeros(NUM_OWNERS, np.bool_)
    cost = local_zeros(NUM_OWNERS, np.int64)
    lure_options(s, r, cells, legal, cost)
    for owner in range(NUM_OWNERS):
        if legal[owner]:
            mask[CELL + cells[owner]] = True


@njit
def legal_draw_source(s, r, mask, hand, money):
    """D11: display slots 0..3, the deck and the barker supply (§5.8.1)."""
    for slot in range(DISPLAY_SLOTS):
        mask[DISPLAY + slot] = s.display[r, slot] >= 0
    mask[DECK] = s.deck_size[r] > 0 or s.discard[r].sum() > 0
    mask[BARKER] = s.barkers[r].sum() < NUM_BARKERS


# ---------------------------------------------------------------- dispatch
@njit
def legal_with(s, r, mask, hand, money):
    """The legal actions of the decision asked in row ``r`` into ``mask``, for the acting
    seat's ``hand`` and ``money`` (its own, or their public bound)."""
    phase = s.phase[r]
    if phase == Phase.PLACE_COLOUR:
        legal_place_colour(s, r, mask, hand, money)
    elif phase == Phase.STALL_CELL:
        legal_stall_cell(s, r, mask, hand, money)
    elif phase == Phase.STALL_DIR:
        legal_stall_dir(s, r, mask, hand, money)
    elif phase == Phase.TURN:
        legal_turn(s, r, mask, hand, money)
    elif phase == Phase.EXPAND_CELL:
        legal_expand_cell(s, r, mask, hand, money)
    elif phase == Phase.CARD_MODE:
        legal_card_mode(s, r, mask, hand, money)
    elif phase == Phase.THREE_PICK or phase == Phase.DISCARD:
        legal_cards_in_hand(s, r, mask, hand, money)
    elif phase == Phase.FEE_COLOUR:
        legal_fee_colour(s, r, mask, hand, money)
    elif phase == Phase.PAYMENT:
        legal_payment(s, r, mask, hand, money)
    elif phase == Phase.LURE_TARGET:
        legal_lure_target(s, r, mask, hand, money)
    elif phase == Phase.DRAW_SOURCE:
        legal_draw_source(s, r, mask, hand, money)


@njit
def legal(s, r, mask):
    """The legal actions of the decision asked in row ``r`` (the driver's ``legal``)."""
    seat = s.current_player[r]
    legal_with(s, r, mask, s.hand[r, seat], s.money[r, seat])


@njit
def forced(s, r, mask):
    """Whether public information alone leaves the decision its single legal action
    (design.md, forced decisions): D1, D3, D10 and D11 read no private data (D3 the cards
    only as the section of the cell D2 offered), so their masks are public themselves; the
    others are judged by the same legal function on the public bound of the seat's cards and
    money (``cards.public_holdings``); D6 only when every seat knows the hand and the money,
    since its THREE is a fallback and a bound on the hand does not bound its mask."""
    phase = s.phase[r]
    if (phase == Phase.PLACE_COLOUR or phase == Phase.STALL_DIR
            or phase == Phase.LURE_TARGET or phase == Phase.DRAW_SOURCE):
        return True
    if phase == Phase.CARD_MODE and not (cards.hand_known(s, r)
                                         and s.params[P_REVEAL_MONEY] != 0):
        return False
    hand = local_zeros(NUM_CARD_TYPES, np.int8)
    money = local_zeros(NUM_COLOURS, np.int16)
    cards.public_holdings(s, r, hand, money)
    bound = local_zeros(NUM_ACTIONS, np.bool_)
    legal_with(s, r, bound, hand, money)
    return count_true(bound) == 1
