"""Paying for a build, per row: card modes, the joker fee, affordability, payment coins.

The rules of §5.2 (card modes: a standard card, a joker and its fee, three cards as the
fallback) and of §5.4 precondition 7 and its payment (D9, one coin a decision), as compiled
functions of the acting seat's ``hand`` (15,) and ``money`` (6,): its own, or the public
bound of them (``public_holdings``) when a forced predicate asks. A build is a stall (new or
moved: no cost but the joker fee) or an expansion of a colour at a cost ``n``; a cost of 0
stands for a stall. Sets of sections are 9-bit ints (bit s: section s).
"""

from __future__ import annotations

import numpy as np

from envs.cairo.data import (
    JOKER_COVER,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_JOKER_TYPES,
    NUM_SECTIONS,
    NUM_STANDARD_TYPES,
    THREE_CARDS,
)
from envs.cairo.state import P_REVEAL_MONEY
from envs.core.jit import njit

ALL_SECTIONS = (1 << NUM_SECTIONS) - 1
# (6,) the section set of each joker
JOKER_SETS = np.array([sum(1 << s for s in range(NUM_SECTIONS) if JOKER_COVER[j, s])
                       for j in range(NUM_JOKER_TYPES)], dtype=np.int64)
NUM_CARD_MODES = NUM_CARD_TYPES + 1  # D6: S0..S8, J0..J5, THREE


@njit
def public_holdings(s, r, hand, money):
    """Write into ``hand`` (15,) int8 and ``money`` (6,) int16 what every seat knows of the
    acting seat's cards and money (§6): per card type the copies known to be in its hand
    (taken from the display) plus every card of unknown type (the hand's size is public),
    and its money, or without ``reveal_money`` every coin of the colour out of the trays.

    A mask that only grows with the cards and the money (all but D6's, whose THREE is a
    fallback) is, from the bound, a superset of the seat's real mask read from public data
    alone: where it has a single action, so has the real one (design.md, forced decisions).
    """
    seat = s.current_player[r]
    unknown = 0
    for t in range(NUM_CARD_TYPES):
        unknown += s.hand[r, seat, t] - s.known[r, seat, t]
    for t in range(NUM_CARD_TYPES):
        hand[t] = s.known[r, seat, t] + unknown
    for c in range(NUM_COLOURS):
        if s.params[P_REVEAL_MONEY]:
            money[c] = s.money[r, seat, c]
        else:
            money[c] = 0
            for p in range(s.money.shape[1]):
                money[c] += s.money[r, p, c]


@njit
def hand_known(s, r):
    """Every card in the acting seat's hand is of a type all seats know it holds."""
    seat = s.current_player[r]
    return s.known[r, seat].sum() == s.hand[r, seat].sum()


@njit(inline="always")
def affordable(h, others, n):
    """§5.4 precondition 7: an expansion costing ``n`` can be paid with ``h`` coins of its
    colour and ``others`` of the other colours (at least 1 of the colour, the rest 2:1)."""
    return h >= 1 and others >= 2 * (n - min(n, h))


@njit(inline="always")
def _payable_after_fee(h, others, cost, same):
    """A build stays payable after a joker fee coin of its own colour (``same``) or of
    another: always for a stall (``cost`` 0), and for an expansion when it is still
    affordable with the coins left (R7, §9.2 D8)."""
    if cost == 0:
        return True
    if same:
        return affordable(h - 1, others, cost)
    return affordable(h, others - 1, cost)


@njit(inline="always")
def colour_money(money, colour):
    """The money in ``colour`` and in the other colours."""
    h = money[colour]
    return h, money.sum() - h


@njit(inline="always")
def fee_colour_ok(money, colour, cost, fee):
    """D8: a joker fee coin of colour ``fee`` can be paid and leaves the build of
    ``colour`` at ``cost`` (0: a stall) payable."""
    h, others = colour_money(money, colour)
    return money[fee] >= 1 and _payable_after_fee(h, others, cost, fee == colour)


@njit
def fee_payable(money, colour, cost):
    """Some joker fee colour is legal (``fee_colour_ok`` for some colour)."""
    h, others = colour_money(money, colour)
    return ((h >= 1 and _payable_after_fee(h, others, cost, True))
            or (others >= 1 and _payable_after_fee(h, others, cost, False)))


@njit
def joker_sections(hand):
    """The 9-bit set of the sections some joker in ``hand`` covers (its fee aside)."""
    out = 0
    for j in range(NUM_JOKER_TYPES):
        if hand[NUM_STANDARD_TYPES + j] > 0:
            out |= JOKER_SETS[j]
    return out


@njit
def coverage(hand, fee_ok):
    """The 9-bit set of the sections some card mode can pay for: a standard card held, a
    joker whose fee is payable (``fee_ok``), and every section with three cards in hand."""
    if hand.sum() >= THREE_CARDS:
        return ALL_SECTIONS
    out = 0
    for t in range(NUM_STANDARD_TYPES):
        if hand[t] > 0:
            out |= 1 << t
    if fee_ok:
        out |= joker_sections(hand)
    return out


@njit
def build_cover(hand, money, colour, cost):
    """The sections where a build can be paid for in cards and money: a stall (``cost`` 0)
    or an expansion of ``colour`` at ``cost``, which must be affordable (§5.4 precondition 7),
    its joker's fee payable."""
    h, others = colour_money(money, colour)
    if cost > 0 and not affordable(h, others, cost):
        return 0
    return coverage(hand, fee_payable(money, colour, cost))


@njit
def stall_cover(hand, money):
    """The sections a stall (new or moved) can be paid for in: any coin pays its fee."""
    return coverage(hand, money.sum() >= 1)


@njit
def card_modes(hand, section, fee_ok, out):
    """D6 into ``out`` (16,) bool: the card modes of §5.2 that pay for a target in
    ``section``: the standard card of the section, a joker covering it (its fee payable),
    or THREE (any three stall cards) when neither can be used (R7)."""
    single = False
    for t in range(NUM_STANDARD_TYPES):
        out[t] = hand[t] > 0 and t == section
        single |= out[t]
    for j in range(NUM_JOKER_TYPES):
        t = NUM_STANDARD_TYPES + j
        out[t] = hand[t] > 0 and fee_ok and JOKER_COVER[j, section]
        single |= out[t]
    out[NUM_CARD_TYPES] = hand.sum() >= THREE_CARDS and not single


@njit(inline="always")
def payment_ok(money, colour, units, half, coin):
    """D9: a coin of colour ``coin`` may be paid next for the pending expansion of ``colour``
    with ``units`` tile units unpaid (``half``: a 2:1 unit is half paid). A coin of the
    group's colour pays a whole unit; one of another colour pays half of a 2:1 unit, and
    starts one only if the rest stays payable."""
    h, others = colour_money(money, colour)
    if coin == colour:
        return not half and units >= 1 and h >= 1
    start_unit = units >= 1 and others >= 2 and h + (others - 2) // 2 >= units - 1
    return money[coin] >= 1 and (half or start_unit)
