"""The legal actions of every decision (§5, §9.1, §9.3), per row, and the forced ones.

Each ``legal_<phase>(s, r, mask, hand)`` sets the legal actions of the decision in the
row's cleared ``mask`` (90,) from the acting seat's point of view; the ones that read its
cards take them as ``hand`` (5,) cards per company: its own (``legal``), or what every seat
knows of them (``cards.public_hand``), from which ``forced`` judges on public data alone
whether the decision has a single legal action (§9.3).
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import NUM_COMPANIES
from envs.batavia.rules.cards import public_hand
from envs.batavia.state import (
    ACTIONS,
    BID,
    DRAW,
    END_GOAL,
    END_MOVE,
    EXCHANGE,
    KEEP,
    PASS,
    PLAY_CARD,
    Phase,
)
from envs.core.driver import count_true
from envs.core.jit import local_zeros, njit

NUM_ACTIONS = ACTIONS.size
NUM_BIDS = ACTIONS.BID.size


@njit
def post_ahead(s, r, seat, company):
    """A post of ``company`` lies ahead of ``seat``'s merchant (§5.5)."""
    return (s.remaining[r, company] >> np.int64(s.pos[r, seat])) != 0


@njit
def potential(s, r, seat, hand, company):
    """``seat`` holds ``company``'s seal or could win it with ``hand`` (§5.3)."""
    return (s.seal[r, company] == seat
            or s.display[r, seat, company] + hand[company] > s.top[r, company])


@njit
def can_play(s, r, seat, hand, company):
    """``can_play`` of §5.3 in one company: ``potential`` in it, with a post of it ahead in
    the final round (§5.7)."""
    return potential(s, r, seat, hand, company) and (
        not s.final[r] or post_ahead(s, r, seat, company))


@njit
def playable(s, r, hand):
    """The acting seat with ``hand`` can make (or finish) a play: ``can_play`` in some
    company (§5.3)."""
    seat = s.current_player[r]
    for c in range(NUM_COMPANIES):
        if can_play(s, r, seat, hand, c):
            return True
    return False


# ---------------------------------------------------------------- the auction (§5.1)
@njit
def legal_auction_bid(s, r, mask, hand):
    """PASS, or a bid above the standing one that the bidder's coins cover."""
    coins = s.coins[r, s.current_player[r]]
    high = s.high_bid[r]
    mask[PASS] = True
    for b in range(1, NUM_BIDS + 1):
        mask[BID + b - 1] = high < b <= coins


# ---------------------------------------------------------------- a turn (§5.3-§5.6)
@njit
def legal_turn_start(s, r, mask, hand):
    """DRAW, or the first card of a play when the hand can make one (§5.3)."""
    mask[DRAW] = True
    if playable(s, r, hand):
        for c in range(NUM_COMPANIES):
            mask[PLAY_CARD + c] = hand[c] > 0


@njit
def legal_playing(s, r, mask, hand):
    """Another card, or an ending: END_MOVE to a company whose seal the seat holds with a
    post ahead, END_GOAL with a seal and no such company outside the final round (§5.5)."""
    seat = s.current_player[r]
    sealed = False
    moves = False
    for c in range(NUM_COMPANIES):
        mask[PLAY_CARD + c] = hand[c] > 0
        own = s.seal[r, c] == seat
        move = own and post_ahead(s, r, seat, c)
        mask[END_MOVE + c] = move
        sealed |= own
        moves |= move
    mask[END_GOAL] = not s.final[r] and sealed and not moves


@njit
def legal_exchange_choice(s, r, mask, hand):
    """EXCHANGE or KEEP (§5.6)."""
    mask[EXCHANGE] = True
    mask[KEEP] = True


# ---------------------------------------------------------------- dispatch
@njit
def legal_with(s, r, mask, hand):
    """The legal actions of the decision asked in row ``r`` into ``mask``, for the acting
    seat's ``hand`` (its own, or its public bound)."""
    phase = s.phase[r]
    if phase == Phase.AUCTION_BID:
        legal_auction_bid(s, r, mask, hand)
    elif phase == Phase.TURN_START:
        legal_turn_start(s, r, mask, hand)
    elif phase == Phase.PLAYING:
        legal_playing(s, r, mask, hand)
    elif phase == Phase.EXCHANGE_CHOICE:
        legal_exchange_choice(s, r, mask, hand)


@njit
def legal(s, r, mask):
    """The legal actions of the decision asked in row ``r`` (the driver's ``legal``)."""
    legal_with(s, r, mask, s.hand[r, s.current_player[r]])


@njit
def forced(s, r, mask):
    """Whether public information alone leaves the decision its single legal action
    (§9.3; design.md, forced decisions): the auction and the exchange read no private data
    (coins are public), so their masks are public themselves; a turn start and a play are
    judged by the same legal function on the public bound of the seat's hand
    (``cards.public_hand``)."""
    phase = s.phase[r]
    if phase != Phase.TURN_START and phase != Phase.PLAYING:
        return True
    hand = local_zeros(NUM_COMPANIES, np.int8)
    public_hand(s, r, s.current_player[r], hand)
    bound = local_zeros(NUM_ACTIONS, np.bool_)
    legal_with(s, r, bound, hand)
    return count_true(bound) == 1
