"""The legal actions of every decision (§9.1), per row, and the forced ones.

Each ``legal_<phase>(s, r, mask, hand, held)`` sets the legal actions of the decision in
the row's cleared ``mask`` (161,), from the acting seat's point of view; the ones that read
its goods and its face-down cards take them as ``hand`` (4,) and ``held`` (21,): its own
(``legal``), or what every seat knows of them (``public_holdings``), from which ``forced``
judges on public data alone whether the decision has a single legal action.
"""

from __future__ import annotations

import numpy as np

from envs.core.driver import count_true
from envs.core.jit import local_zeros, njit
from envs.junk.data import (
    GOODS_ANY,
    HELPER_TRACK,
    K_LOAD,
    LOAD_ONE,
    MAX_HELPERS,
    MONEY_AT,
    MOVE_STRIP,
    NUM_ALWAYS,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_MERCHANTS,
    NUM_PILES,
    NUM_ROUNDS,
    NUM_SPECIAL_TYPES,
    SLOTS,
)
from envs.junk.state import (
    A_BID,
    A_DONE,
    A_GOODS,
    A_GOODS_ANY,
    A_LOAD_ONE,
    A_MAIN_HELPER,
    A_MONEY_AT,
    A_MOVE_STRIP,
    A_PASS_BID,
    A_PILE,
    A_RETURN,
    A_SETUP_JUNK,
    A_SPECIAL,
    A_TAKE_3_YUAN,
    MAX_BID,
    MOVE_SRC,
    NUM_ACTIONS,
    Phase,
)

NUM_MAIN = A_LOAD_ONE  # MAIN_MERCHANT (3) and MAIN_HELPER (10) actions: 0..12


def _needs_strips() -> np.ndarray:
    """(11, 5) bool per round (0 = setup): the figures whose action loads strips (the LOAD
    merchant, and a helper on a LOAD space)."""
    table = np.zeros((NUM_ROUNDS + 1, NUM_MERCHANTS + MAX_HELPERS), dtype=np.bool_)
    table[:, 0] = True  # the LOAD merchant
    table[1:, NUM_MERCHANTS:] = (HELPER_TRACK[:, :, 0] == K_LOAD).T
    return table


NEEDS_STRIPS = _needs_strips()


# ---------------------------------------------------------------- the setup and Phase 1
@njit
def legal_setup_junk(s, r, mask, hand, held):
    """SETUP_JUNK (§5.6): a junk whose bottom layer has room."""
    for j in range(NUM_JUNKS):
        filled = 0
        for slot in range(SLOTS):
            if s.cargo[r, j, 0, slot] >= 0:
                filled += 1
        mask[A_SETUP_JUNK + j] = filled < SLOTS


@njit
def legal_exch_return(s, r, mask, hand, held):
    """EXCH_RETURN (§5.1): a good in hand, or DONE."""
    for g in range(NUM_GOODS):
        mask[A_RETURN + g] = hand[g] > 0
    mask[A_DONE] = True


@njit
def legal_stacks(s, r, mask, hand, held):
    """EXCH_TAKE, GREY_TYPE and SUPPLY_PICK: a good whose stack is not empty."""
    for g in range(NUM_GOODS):
        mask[A_GOODS + g] = s.stack[r, g] > 0


@njit
def legal_event_pile(s, r, mask, hand, held):
    """EVENT_PILE (§5.2): a pile no seat chose in this event, if one is left; else any
    pile that is not empty."""
    fresh = False
    for q in range(NUM_PILES):
        fresh = fresh or (s.pile_size[r, q] > 0 and not s.event_chosen[r, q])
    for q in range(NUM_PILES):
        mask[A_PILE + q] = s.pile_size[r, q] > 0 and not (fresh and s.event_chosen[r, q])


@njit
def legal_special_pick(s, r, mask, hand, held):
    """SPECIAL_PICK: a type of card in the pile searched."""
    pile = s.pick_pile[r]
    for t in range(NUM_SPECIAL_TYPES):
        mask[A_SPECIAL + t] = s.pile_cards[r, pile, t] > 0


# ---------------------------------------------------------------- Phase 2 (§5.3)
@njit
def _main_actions(s, r, mask):
    """The legal MAIN_MERCHANT and MAIN_HELPER actions (public data only): an unused figure
    (the upper helper with 4 seats only) whose action needs no strips, or the seat has some;
    a helper on one of the junks no merchant stands on (used or not, §8 #30). Returns how
    many there are."""
    seat = s.current_player[r]
    players = s.hand.shape[1]
    loads = s.strips[r, seat] > 0
    needs = NEEDS_STRIPS[s.round[r]]
    merchants = s.merchant_junk[r]
    count = 0
    for figure in range(min(NUM_MERCHANTS + MAX_HELPERS, players + 1)):
        if s.fig_used[r, figure] or not (loads or not needs[figure]):
            continue
        if figure < NUM_MERCHANTS:
            mask[figure] = True
            count += 1
            continue
        base = A_MAIN_HELPER + NUM_JUNKS * (figure - NUM_MERCHANTS)
        for j in range(NUM_JUNKS):
            free = True
            for m in range(NUM_MERCHANTS):
                free = free and merchants[m] != j
            if free:
                mask[base + j] = True
                count += 1
    return count


@njit
def _extra_actions(s, r, mask, held):
    """The legal EXTRA actions (13..47): no EXTRA card played this round, a face-down card
    held, and a card of the kind (LOAD_ONE with a strip left, MOVE_STRIP from a junk where
    the seat owns a strip of the top layer)."""
    seat = s.current_player[r]
    if s.extra_used[r, seat] or s.hidden[r, seat] == 0:
        return
    load = held[LOAD_ONE] > 0 and s.strips[r, seat] > 0
    goods = held[GOODS_ANY] > 0
    for j in range(NUM_JUNKS):
        mask[A_LOAD_ONE + j] = load
        mask[A_GOODS_ANY + j] = goods
        mask[A_MONEY_AT + j] = held[MONEY_AT + j] > 0
    if held[MOVE_STRIP] > 0:
        layers = s.layers[r]
        for i in range(MOVE_SRC.shape[0]):
            mask[A_MOVE_STRIP + i] = layers[MOVE_SRC[i], 0, seat] > 0


@njit
def legal_p2_main(s, r, mask, hand, held):
    """P2_MAIN: a main action, an EXTRA card before it, or DONE when no main action is
    legal."""
    main = _main_actions(s, r, mask)
    _extra_actions(s, r, mask, held)
    mask[A_DONE] = main == 0


@njit
def legal_p2_after(s, r, mask, hand, held):
    """P2_AFTER: an EXTRA card after the main action, or DONE."""
    _extra_actions(s, r, mask, held)
    mask[A_DONE] = True


# ---------------------------------------------------------------- Phase 4 (§5.5)
@njit
def legal_bid(s, r, mask, hand, held):
    """BID: PASS_BID always; BID[g][n] iff g is unsold and the hand holds n cards of g."""
    mask[A_PASS_BID] = True
    for g in range(NUM_GOODS):
        if s.sold[r, g]:
            continue
        for n in range(min(hand[g], MAX_BID)):
            mask[A_BID + MAX_BID * g + n] = True


@njit
def legal_award_pile(s, r, mask, hand, held):
    """AWARD_PILE: a pile that is not empty; in round 10 also the 3 Yuan."""
    for q in range(NUM_PILES):
        mask[A_PILE + q] = s.pile_size[r, q] > 0
    mask[A_TAKE_3_YUAN] = s.round[r] == NUM_ROUNDS


# ---------------------------------------------------------------- dispatch
@njit
def legal_with(s, r, mask, hand, held):
    """The legal actions of the decision asked in row ``r`` into ``mask``, for the acting
    seat's ``hand`` and ``held`` (its own, or their public bound)."""
    phase = s.phase[r]
    if phase == Phase.SETUP_JUNK:
        legal_setup_junk(s, r, mask, hand, held)
    elif phase == Phase.EXCH_RETURN:
        legal_exch_return(s, r, mask, hand, held)
    elif phase == Phase.EXCH_TAKE or phase == Phase.GREY_TYPE or phase == Phase.SUPPLY_PICK:
        legal_stacks(s, r, mask, hand, held)
    elif phase == Phase.EVENT_PILE:
        legal_event_pile(s, r, mask, hand, held)
    elif phase == Phase.SPECIAL_PICK:
        legal_special_pick(s, r, mask, hand, held)
    elif phase == Phase.P2_MAIN:
        legal_p2_main(s, r, mask, hand, held)
    elif phase == Phase.P2_AFTER:
        legal_p2_after(s, r, mask, hand, held)
    elif phase == Phase.BID:
        legal_bid(s, r, mask, hand, held)
    elif phase == Phase.AWARD_PILE:
        legal_award_pile(s, r, mask, hand, held)


@njit
def legal(s, r, mask):
    """The legal actions of the decision asked in row ``r`` (the driver's ``legal``)."""
    seat = s.current_player[r]
    legal_with(s, r, mask, s.hand[r, seat], s.held[r, seat])


@njit
def public_holdings(s, r, hand, held):
    """Write into ``hand`` (4,) and ``held`` (21,) what every seat knows of the acting
    seat's goods and face-down cards (§6): the hand's size for every type (each unknown card
    could be any good) and, for every EXTRA and END type, the number of its face-down cards
    (each could be any of them; an ALWAYS card lies face up, so never there).

    A mask that only grows with the goods and the cards is, from the bound, a superset of
    the seat's real mask read from public data alone: where it has a single action, so has
    the real one (design.md, forced decisions)."""
    seat = s.current_player[r]
    for g in range(NUM_GOODS):
        hand[g] = s.hand_size[r, seat]
    for t in range(NUM_SPECIAL_TYPES):
        held[t] = s.hidden[r, seat] if t >= NUM_ALWAYS else 0


@njit
def forced(s, r, mask):
    """Whether public information alone leaves the decision its single legal action
    (design.md, forced decisions). SETUP_JUNK, EXCH_TAKE, EVENT_PILE, GREY_TYPE,
    SUPPLY_PICK and AWARD_PILE read only public data (the holds, the stacks' emptiness, the
    piles' sizes), so their masks are public themselves. A SPECIAL_PICK offers one type per
    card at most, so a pile of one card (its size is public) leaves one action whatever the
    card. EXCH_RETURN, P2_MAIN, P2_AFTER and BID are judged by the same legal function on
    the public bound of the seat's goods and cards (``public_holdings``)."""
    phase = s.phase[r]
    if phase == Phase.SPECIAL_PICK:
        return s.pile_size[r, s.pick_pile[r]] == 1
    if not (phase == Phase.EXCH_RETURN or phase == Phase.P2_MAIN or phase == Phase.P2_AFTER
            or phase == Phase.BID):
        return True
    hand = local_zeros(NUM_GOODS, np.int8)  # the state's types: one compiled legal function
    held = local_zeros(NUM_SPECIAL_TYPES, np.int8)
    public_holdings(s, r, hand, held)
    bound = local_zeros(NUM_ACTIONS, np.bool_)
    legal_with(s, r, bound, hand, held)
    return count_true(bound) == 1
