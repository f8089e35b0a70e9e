"""The effects of every decision (§5), per row, with the setup (§3) and the safety cap.

``apply(s, r, action)`` applies a validated action and everything that follows it up to
the next decision (``flow.py``: the next seat, phase, round, or the end of the game), then
counts the decision against ``max_decisions`` (§9.3). Chance (the deal, the market deck, the
special-card piles, the variable setup's merchants) is drawn from the row's own counter
stream at the setup; nothing is drawn later.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import local_zeros, njit
from envs.core.rng import next_permutation
from envs.junk.data import (
    GOODS_ANY,
    GOODS_OF_JUNK,
    GOODS_PER_TYPE,
    GREY,
    HAND_START,
    HELPER_TRACK,
    INITIAL_CARGO,
    K_GOODS,
    K_LOAD,
    K_MONEY,
    LAST_ROUND_YUAN,
    LOAD_ONE,
    MARKET_CARDS,
    MAX_PLAYERS,
    MERCHANT_LOAD_SIZE,
    MERCHANT_START,
    MINIMUM_TAKE,
    MONEY_AT,
    MOVE_STRIP,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_MARKET_CARDS,
    NUM_MERCHANTS,
    NUM_PILES,
    NUM_ROUNDS,
    NUM_SPECIAL_CARDS,
    NUM_SPECIAL_TYPES,
    PILE_SIZES,
    SLOTS,
    SPECIAL_COUNTS,
    WIN_TIES,
)
from envs.junk.rules import cards, flow, hold
from envs.junk.rules.legal import NUM_MAIN
from envs.junk.state import (
    A_BID,
    A_DONE,
    A_GOODS,
    A_LOAD_ONE,
    A_MAIN_HELPER,
    A_MOVE_STRIP,
    A_PILE,
    A_RETURN,
    A_SETUP_JUNK,
    A_SPECIAL,
    A_TAKE_3_YUAN,
    MAX_BID,
    MOVE_DST,
    MOVE_SRC,
    P_MAX_DECISIONS,
    P_VARIABLE,
    Phase,
)

SETUP_STRIPS = 3  # §3 variable setup: every seat places 3 strips of its right neighbour
PILE_OF_CARD = np.repeat(np.arange(NUM_PILES), PILE_SIZES).astype(np.int8)  # (30,)
CARD_TYPES = np.repeat(np.arange(NUM_SPECIAL_TYPES), SPECIAL_COUNTS).astype(np.int8)  # (30,)
MERCHANT_KIND = np.array([K_LOAD, K_MONEY, K_GOODS], dtype=np.int8)
# Per EXTRA action (offset 0..34 from LOAD_ONE): the card type it plays, and its action kind
# (-1 for MOVE_STRIP, which moves a strip instead).
EXTRA_TYPE = np.concatenate([np.full(NUM_JUNKS, LOAD_ONE), np.full(NUM_JUNKS, GOODS_ANY),
                             MONEY_AT + np.arange(NUM_JUNKS),
                             np.full(MOVE_SRC.size, MOVE_STRIP)]).astype(np.int64)
EXTRA_KIND = np.concatenate([np.full(NUM_JUNKS, K_LOAD), np.full(NUM_JUNKS, K_GOODS),
                             np.full(NUM_JUNKS, K_MONEY),
                             np.full(MOVE_SRC.size, -1)]).astype(np.int64)
NUM_TURN = A_GOODS  # every action of a Phase-2 turn but DONE: 0..47
MAX_DEAL = HAND_START * MAX_PLAYERS  # the goods cards dealt at the most seats


def _initial_cargo() -> np.ndarray:
    """(5, 5, 3) int8 per player count (3, 4 at their index) the layer-0 owners of each
    junk, -1 for an empty slot (§2.9)."""
    table = np.full((5, NUM_JUNKS, 3), -1, dtype=np.int8)
    for players, junks in INITIAL_CARGO.items():
        for junk, owners in enumerate(junks):
            table[players, junk, :len(owners)] = owners
    return table


START_CARGO = _initial_cargo()


# ---------------------------------------------------------------- setup (§3)
@njit
def init_row(s, r):
    """A new game: the market deck, the special cards and the goods shuffled and dealt (the
    merchants too in the variable setup); then the strips of the fixed setup and round 1, or
    the variable setup's first placement."""
    players = s.hand.shape[1]
    market = local_zeros(NUM_MARKET_CARDS, np.int64)
    next_permutation(s.rng, r, market)
    for k in range(NUM_MARKET_CARDS):
        s.market_order[r, k] = market[k]
    order = local_zeros(NUM_SPECIAL_CARDS, np.int64)
    next_permutation(s.rng, r, order)
    for card in range(NUM_SPECIAL_CARDS):
        kind = CARD_TYPES[order[card]]
        s.card_type[r, card] = kind
        s.pile_cards[r, PILE_OF_CARD[card], kind] += 1
    dealt = 2 * players  # D cards of each type (§3, item 5)
    deal = local_zeros(MAX_DEAL, np.int64)[:NUM_GOODS * dealt]
    next_permutation(s.rng, r, deal)
    for k in range(deal.shape[0]):
        s.hand[r, k // HAND_START, deal[k] // dealt] += 1
    for g in range(NUM_GOODS):
        s.stack[r, g] = GOODS_PER_TYPE - dealt
    s.revealed[r, :] = True  # every seat sees its own hand
    if s.params[P_VARIABLE]:
        junks = local_zeros(NUM_JUNKS, np.int64)
        next_permutation(s.rng, r, junks)
        for m in range(NUM_MERCHANTS):
            s.merchant_junk[r, m] = junks[m]
        s.merchants_hidden[r] = True
        s.to_place[r, :] = SETUP_STRIPS
        s.setup_left[r] = SETUP_STRIPS * players
        return
    for m in range(NUM_MERCHANTS):
        s.merchant_junk[r, m] = MERCHANT_START[m]
    for j in range(NUM_JUNKS):
        for slot in range(SLOTS):
            s.cargo[r, j, 0, slot] = START_CARGO[players, j, slot]
        s.height[r, j] = 0
        hold.refresh(s, r, j)
    flow.start_round(s, r)


@njit
def apply_setup_junk(s, r, action):
    """§5.6: the strip (of the placer's right neighbour) goes onto the chosen junk; after
    the last one the merchants are turned face up and round 1 begins."""
    players = s.hand.shape[1]
    placer = s.current_player[r]
    colour = (placer - 1) % players
    hold.place(s, r, action - A_SETUP_JUNK, colour)
    s.to_place[r, colour] -= 1
    s.setup_left[r] -= 1
    s.current_player[r] = (placer + 1) % players
    if s.setup_left[r] == 0:
        s.merchants_hidden[r] = False
        s.revealed[r, :] = True
        flow.start_round(s, r)


# ---------------------------------------------------------------- Phase 1 (§5.1, §5.2)
@njit
def apply_exch_return(s, r, action):
    """A good back onto its stack (at most two), or DONE; then the takes, if any."""
    if action != A_DONE:
        flow.give_back(s, r, s.current_player[r], action - A_RETURN, 1)
        s.returned[r] += 1
        if s.returned[r] < 2:
            return
    if s.returned[r] == 0:
        flow.end_exchange(s, r)
    else:
        s.phase[r] = Phase.EXCH_TAKE
        s.takes_left[r] = s.returned[r]


@njit
def apply_exch_take(s, r, action):
    flow.gain(s, r, s.current_player[r], action - A_GOODS, 1)
    s.takes_left[r] -= 1
    if s.takes_left[r] == 0:
        flow.end_exchange(s, r)


@njit
def apply_event_pile(s, r, action):
    pile = action - A_PILE
    s.event_chosen[r, pile] = True
    flow.enter_pick(s, r, pile, False)


@njit
def apply_special_pick(s, r, action):
    """The card taken; then the S event's next seat, or the auction goes on (an award)."""
    cards.take(s, r, s.current_player[r], s.pick_pile[r], action - A_SPECIAL)
    s.pick_pile[r] = -1
    award = s.pick_award[r]
    s.pick_award[r] = False
    if award:
        flow.after_bidding_round(s, r)
    else:
        flow.seek_event(s, r, s.pos[r] + 1)


# ---------------------------------------------------------------- Phase 2 (§5.3)
@njit
def _count(s, r, seat, junk):
    """Own visible crates on the junk, at least 3 (§5.3)."""
    return max(s.vis[r, junk, seat], MINIMUM_TAKE)


@njit
def _act(s, r, seat, kind, junk, size):
    """The LOAD, MONEY or GOODS action ``kind`` on ``junk`` (-1: none); whether it goes on
    to GREY_TYPE (a goods action on the grey junk with a stack left)."""
    if kind == K_LOAD:  # ``size`` strips, as many as the supply holds
        for _ in range(min(size, s.strips[r, seat])):
            hold.place(s, r, junk, seat)
            s.strips[r, seat] -= 1
    elif kind == K_MONEY:
        s.money[r, seat] += _count(s, r, seat, junk)
    elif kind == K_GOODS:
        owed = _count(s, r, seat, junk)
        if junk != GREY:  # a short stack gives what it has (§8 #8)
            good = GOODS_OF_JUNK[junk]
            flow.gain(s, r, seat, good, min(owed, s.stack[r, good]))
        elif flow.any_left(s.stack[r]):
            s.goods_left[r] = owed
            return True
    return False


@njit
def _main(s, r, action):
    """A MAIN_MERCHANT or MAIN_HELPER action, then GREY_TYPE or the P2_AFTER gate."""
    seat = s.current_player[r]
    if action < A_MAIN_HELPER:  # a merchant: LOAD 2, MONEY, GOODS on its junk
        figure = action
        kind = MERCHANT_KIND[action]
        junk = s.merchant_junk[r, action]
        size = MERCHANT_LOAD_SIZE
    else:  # a helper on a merchant-free junk: its space of this round
        helper = (action - A_MAIN_HELPER) // NUM_JUNKS
        figure = NUM_MERCHANTS + helper
        kind = HELPER_TRACK[helper, s.round[r] - 1, 0]
        size = HELPER_TRACK[helper, s.round[r] - 1, 1]
        junk = (action - A_MAIN_HELPER) % NUM_JUNKS
    s.fig_used[r, figure] = True
    s.main_done[r] = True
    if _act(s, r, seat, kind, junk, size):
        s.phase[r] = Phase.GREY_TYPE
    else:
        flow.after_main(s, r)


@njit
def _extra(s, r, action):
    """An EXTRA card and its target; then back to P2_MAIN, or the end of the turn after the
    main action, or GREY_TYPE."""
    seat = s.current_player[r]
    offset = action - A_LOAD_ONE
    if action >= A_MOVE_STRIP:
        pair = action - A_MOVE_STRIP
        hold.remove_top(s, r, MOVE_SRC[pair], seat)
        hold.place(s, r, MOVE_DST[pair], seat)
    cards.play_extra(s, r, seat, EXTRA_TYPE[offset])
    if _act(s, r, seat, EXTRA_KIND[offset], offset % NUM_JUNKS, 1):
        s.grey_from_extra[r] = True
        s.phase[r] = Phase.GREY_TYPE
    else:
        flow.after_extra(s, r)


@njit
def apply_turn(s, r, action):
    """P2_MAIN and P2_AFTER: a main action, an EXTRA action, or DONE (ends the turn)."""
    if action < NUM_MAIN:
        _main(s, r, action)
    elif action < NUM_TURN:
        _extra(s, r, action)
    else:
        flow.end_turn(s, r)


@njit
def apply_grey_type(s, r, action):
    """GREY_TYPE: take what is owed of the chosen type, up to its stack (§5.3, §8 #9); go on
    while goods are owed and a stack is left, then return where the chain came from."""
    good = action - A_GOODS
    take = min(s.goods_left[r], s.stack[r, good])
    flow.gain(s, r, s.current_player[r], good, take)
    s.goods_left[r] -= take
    if s.goods_left[r] > 0 and flow.any_left(s.stack[r]):
        return
    s.goods_left[r] = 0
    from_extra = s.grey_from_extra[r]
    s.grey_from_extra[r] = False
    if from_extra:
        flow.after_extra(s, r)
    else:
        flow.after_main(s, r)


# ---------------------------------------------------------------- Phase 3 (§5.4)
@njit
def apply_supply_pick(s, r, action):
    flow.gain(s, r, s.current_player[r], action - A_GOODS, 1)
    s.picks_left[r] -= 1
    done = s.picks_left[r] == 0
    if done:
        s.pos[r] += 1
    if done or not flow.any_left(s.stack[r]):
        flow.seek_supply(s, r)


# ---------------------------------------------------------------- Phase 4 (§5.5)
@njit
def apply_bid(s, r, action):
    """Commit the bid; the last commit of the bidding round reveals and resolves."""
    seat = s.current_player[r]
    s.pending[r, seat] = action
    s.committed[r, seat] = True
    if s.pos[r] >= s.hand.shape[1] - 1:
        _resolve(s, r)
    else:
        s.pos[r] += 1
        s.current_player[r] = flow.seat_at(s, r, s.pos[r])


@njit
def _resolve(s, r):
    """The reveal: every good resolved simultaneously (WIN_TIES as owned at the start of
    the resolution), bid cards back on the stacks, the "last reveal" written; then the S
    award, the next bidding round or the end of the round."""
    players = s.hand.shape[1]
    amount = local_zeros((MAX_PLAYERS, NUM_GOODS), np.int64)  # seats past P stay 0
    for p in range(players):
        bid = s.pending[r, p]
        if bid >= A_BID:
            amount[p, (bid - A_BID) // MAX_BID] = (bid - A_BID) % MAX_BID + 1
    price = MARKET_CARDS[s.market_order[r, s.round[r] - 1]]
    payout = local_zeros(MAX_PLAYERS, np.int64)
    taker = -1
    sold_any = False
    for g in range(NUM_GOODS):
        high = 0
        for p in range(players):
            high = max(high, amount[p, g])
        s.lr_sold[r, g] = high >= 1
        if high < 1:
            continue
        sold_any = True
        s.sold[r, g] = True
        top, ties = 0, 0
        for p in range(players):
            if amount[p, g] == high:
                top += 1
                if s.always[r, p, WIN_TIES] > 0:
                    ties += 1
        count = ties if ties > 0 else top
        share = price[g] if count == 1 else price[g] // count  # §5.5: rounded down
        for p in range(players):
            if amount[p, g] == high and (ties == 0 or s.always[r, p, WIN_TIES] > 0):
                payout[p] += share
                if price[g] == 0 and count == 1 and taker < 0:
                    taker = p
    for p in range(players):
        s.money[r, p] += payout[p]
        for g in range(NUM_GOODS):  # every bid card, the winners' and the losers', back
            flow.give_back(s, r, p, g, amount[p, g])
        s.lr_bid[r, p] = s.pending[r, p]
        s.lr_payout[r, p] = payout[p]
        s.pending[r, p] = -1
        s.committed[r, p] = False
    s.lr_round[r] = s.round[r]
    s.lr_bid_round[r] = s.bid_round[r]
    s.lr_taker[r] = taker
    s.lr_pile[r] = -1
    s.lr_yuan[r] = False
    s.had_bid[r] = sold_any
    s.revealed[r, :] = True
    # The S award: a pile (rounds 1-9, if one is left) or, in round 10, a pile or 3 Yuan.
    if taker >= 0 and (flow.any_left(s.pile_size[r]) or s.round[r] == NUM_ROUNDS):
        s.phase[r] = Phase.AWARD_PILE
        s.current_player[r] = taker
    else:
        flow.after_bidding_round(s, r)


@njit
def apply_award_pile(s, r, action):
    if action == A_TAKE_3_YUAN:
        seat = s.current_player[r]
        s.money[r, seat] += LAST_ROUND_YUAN
        s.lr_payout[r, seat] += LAST_ROUND_YUAN
        s.lr_yuan[r] = True
        flow.after_bidding_round(s, r)
    else:
        pile = action - A_PILE
        s.lr_pile[r] = pile
        flow.enter_pick(s, r, pile, True)


# ---------------------------------------------------------------- dispatch
@njit
def apply(s, r, action):
    """The effect of a validated ``action`` in row ``r``, and all that follows up to the
    next decision, counted against the cap (the driver's ``apply``)."""
    phase = s.phase[r]
    if phase == Phase.SETUP_JUNK:
        apply_setup_junk(s, r, action)
    elif phase == Phase.EXCH_RETURN:
        apply_exch_return(s, r, action)
    elif phase == Phase.EXCH_TAKE:
        apply_exch_take(s, r, action)
    elif phase == Phase.EVENT_PILE:
        apply_event_pile(s, r, action)
    elif phase == Phase.SPECIAL_PICK:
        apply_special_pick(s, r, action)
    elif phase == Phase.P2_MAIN or phase == Phase.P2_AFTER:
        apply_turn(s, r, action)
    elif phase == Phase.GREY_TYPE:
        apply_grey_type(s, r, action)
    elif phase == Phase.SUPPLY_PICK:
        apply_supply_pick(s, r, action)
    elif phase == Phase.BID:
        apply_bid(s, r, action)
    elif phase == Phase.AWARD_PILE:
        apply_award_pile(s, r, action)
    # §7, §9.3: every decision, asked or automatic, counts; the cap truncates the game.
    s.decisions[r] += 1
    if s.decisions[r] >= s.params[P_MAX_DECISIONS] and not s.terminated[r]:
        s.truncated[r] = True


@njit
def phase(s, r):
    """The decision asked (``Phase``), for the step record."""
    return s.phase[r]
