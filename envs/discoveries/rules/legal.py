"""The legal actions of every decision (§4.3, §5), per row, and the forced ones (§4.5).

Each ``legal_<phase>(s, r, mask, cards, flags)`` sets the legal actions of the decision in
the row's cleared ``mask`` (134,) for the acting seat, given what it may hold of the two
things the table cannot see, as bit sets: ``cards`` (bit c: contract c may be in its hand)
and ``flags`` (bit f: its flagship may be F f). ``legal`` passes its real hand and
flagship; ``forced`` passes the public bound (``public_holdings``: the cards taken from the
display plus, if a hand card is hidden, every contract the table has not seen; the flagship
if revealed, else every flagship not yet revealed), so the same functions judge on public
data alone whether a decision has a single legal action. Everything else a mask reads
(coins, ships, Jokers, the market, the expeditions) is public.
"""

from __future__ import annotations

import numpy as np

from envs.core.driver import count_true, first_true
from envs.core.jit import njit
from envs.discoveries.data import (
    CONTRACT_COLOUR,
    CONTRACT_TV,
    EXP_LIMIT,
    FLAG_CARRIES,
    FLAG_COLOURS,
    FLAGSHIP_FEE,
    HAND_LIMIT,
    MARKET_SLOTS,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_FLAGSHIPS,
    NUM_TVS,
    NUM_TYPES,
    SHIP_FEE,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.rules.feasibility import FLAG_OFF, NO_FLAG, feasible
from envs.discoveries.state import (
    ACTIONS,
    NUM_RES_SLOTS,
    RES_DISPLAY,
    Flag,
    Main,
    Open,
    Phase,
)

END_TURN, TAKE_COINS = ACTIONS.END_TURN.start, ACTIONS.TAKE_COINS.start
TAKE_DISPLAY, TAKE_BLIND = ACTIONS.TAKE_DISPLAY.start, ACTIONS.TAKE_BLIND.start
BUY, SEND, PLAY = ACTIONS.BUY.start, ACTIONS.SEND.start, ACTIONS.PLAY.start
PICK_SHIP, PICK_FLAGSHIP = ACTIONS.PICK_SHIP.start, ACTIONS.PICK_FLAGSHIP.start
RESERVE = ACTIONS.RESERVE_OFFER.start  # RESERVE_* = RESERVE + reservation slot
NUM_ACTIONS = ACTIONS.size
COINS, CONTRACT, BUYING, DISPATCH = (int(Main.COINS), int(Main.CONTRACT), int(Main.BUY),
                                     int(Main.DISPATCH))
OPEN_BUY, OPEN_DISPATCH = int(Open.BUY), int(Open.DISPATCH)
FLAG_IDLE = int(Flag.IDLE)
# Main actions used, by the 4-bit ``used`` value.
NUM_USED = np.array([bin(u).count("1") for u in range(16)], dtype=np.int8)
NO_TV = 9  # "no idle ship of this colour": above every free TV
ALL_FLAGSHIPS = (1 << NUM_FLAGSHIPS) - 1
# The contracts of colour k are cards PER_COLOUR * k .. PER_COLOUR * (k + 1) - 1.
PER_COLOUR = NUM_CONTRACTS // NUM_COLOURS
COLOUR_SET = (1 << PER_COLOUR) - 1
assert (np.arange(NUM_CONTRACTS) // PER_COLOUR == CONTRACT_COLOUR).all()


# ---------------------------------------------------------------- what the seat may hold
@njit
def own_holdings(s, r):
    """The acting seat's real hand and flagship, as the bit sets (``cards``, ``flags``)."""
    seat = s.current_player[r]
    hand = s.hand[r, seat]
    cards = 0
    for k in range(HAND_LIMIT):
        if hand[k] >= 0:
            cards |= 1 << int(hand[k])
    return cards, 1 << int(s.flag_id[r, seat])


@njit
def public_holdings(s, r):
    """What every seat knows the acting seat may hold (§4.5, §6), as the bit sets
    (``cards``, ``flags``). Cards: those it took from the display, and, when some hand card
    is hidden, every contract of the public unseen set (the deck and every seat's hidden
    hand cards). Flagships: its own once revealed, else every flagship not yet revealed.

    Every mask grows with the cards and flagships, so the mask from this bound holds the
    real one, read from public data alone: where it has a single action, so has the real
    one (design.md, forced decisions).
    """
    seat = s.current_player[r]
    players = s.hand.shape[1]
    # The rows read in loops as locals: numba indexes them more cheaply than ``s``'s arrays.
    hands, public, contracts = s.hand[r], s.hand_public[r], s.contracts[r]
    cards = 0
    hidden = False
    for k in range(HAND_LIMIT):
        card = hands[seat, k]
        if card >= 0:
            if public[seat, k]:
                cards |= 1 << int(card)
            else:
                hidden = True
    if hidden:
        for pos in range(s.deck_pos[r], NUM_CONTRACTS):
            cards |= 1 << int(contracts[pos])
        for q in range(players):
            for k in range(HAND_LIMIT):
                if hands[q, k] >= 0 and not public[q, k]:
                    cards |= 1 << int(hands[q, k])
    ids, revealed = s.flag_id[r], s.flag_revealed[r]
    if revealed[seat]:
        return cards, 1 << int(ids[seat])
    flags = ALL_FLAGSHIPS
    for q in range(players):
        if revealed[q]:
            flags &= ~(1 << int(ids[q]))
    return cards, flags


# ---------------------------------------------------------------- MAIN (§4.3, §5.1-§5.7)
@njit
def turn_options(used, open_type):
    """By the two-action rule (§4.3): TAKE_COINS legal, a contract may be taken, BUY steps
    and DISPATCH steps allowed (open, or a new main action may begin)."""
    room = NUM_USED[used] < 2
    return (room and (used & COINS) == 0, room and (used & CONTRACT) == 0,
            open_type == OPEN_BUY or (room and (used & BUYING) == 0),
            open_type == OPEN_DISPATCH or (room and (used & DISPATCH) == 0))


@njit
def slot_card(s, r, slot):
    """The card on reservation slot ``slot``: a ship type (offer 0..4, refill 5..9) or a
    contract id (display 10..13); -1 empty."""
    if slot < MARKET_SLOTS:
        return s.offer[r, slot]
    if slot < RES_DISPLAY:
        return s.refill[r, slot - MARKET_SLOTS]
    return s.display[r, slot - RES_DISPLAY]


@njit
def may_sail(s, r, seat):
    """The seat has a coin and an idle ship or flagship, without which no SEND or PLAY is
    legal, whatever its hand or flagship."""
    if s.coins[r, seat] < 1:
        return False
    if s.flag_where[r, seat] == FLAG_IDLE:
        return True
    idle = s.idle[r, seat]
    for t in range(NUM_TYPES):
        if idle[t] > 0:
            return True
    return False


@njit
def carries(flags, colour):
    """Some flagship of the bit set ``flags`` carries ``colour``."""
    for f in range(NUM_FLAGSHIPS):
        if flags >> f & 1 and FLAG_CARRIES[f, colour]:
            return True
    return False


@njit
def lowest_tv(idle, colour):
    """The lowest TV among the idle ships ``idle`` (18,) of ``colour``, ``NO_TV`` if none."""
    for t in range(NUM_TVS):
        if idle[colour * NUM_TVS + t] > 0:
            return t + 1
    return NO_TV


@njit
def legal_send(s, r, mask, flags):
    """SEND_TO_EXPEDITION(e) (§5.4): the expeditions with a legal pick, regular (the lowest
    idle TV of an allowed colour fits) or the flagship (a colour it may declare fits)."""
    seat = s.current_player[r]
    idle = s.idle[r, seat]
    coins, jokers = s.coins[r, seat], s.jokers[r, seat]
    lowest_any = NO_TV
    for c in range(NUM_COLOURS):
        lowest_any = min(lowest_any, lowest_tv(idle, c))
    flag_idle = s.flag_where[r, seat] == FLAG_IDLE and coins >= FLAGSHIP_FEE
    for e in range(NUM_EXPEDITIONS):
        established = s.exp_colour_set[r, e]
        free = EXP_LIMIT[e] - s.exp_used[r, e]
        anything = established < 0 or jokers >= 1
        need = lowest_any if anything else lowest_tv(idle, established)
        regular = need <= free and coins >= 1
        flag = flag_idle and free >= 1 and (anything or carries(flags, established))
        mask[SEND + e] = regular or flag


@njit
def fleet_split(idle, colour):
    """The idle ships ``idle`` (18,) of ``colour`` per TV 1..3, then those of the other
    colours per TV: what FEASIBLE reads (§5.5)."""
    m1, m2, m3 = idle[colour * 3], idle[colour * 3 + 1], idle[colour * 3 + 2]
    o1, o2, o3 = -m1, -m2, -m3
    for c in range(NUM_COLOURS):
        o1 += idle[c * 3]
        o2 += idle[c * 3 + 1]
        o3 += idle[c * 3 + 2]
    return m1, m2, m3, o1, o2, o3


@njit
def legal_play(s, r, mask, cards, flags):
    """PLAY_CONTRACT(c, d) (§5.5): every duration of each contract it may hold that some
    legal fleet completes. A colour's contracts are cards ``4 k .. 4 k + 3`` (TV 3..6), so
    the fleet's split and whether a flagship may declare the colour are read once a
    colour, for up to four contracts (the public bound holds most of them)."""
    seat = s.current_player[r]
    idle = s.idle[r, seat]
    coins, jokers = s.coins[r, seat], s.jokers[r, seat]
    flag_idle = s.flag_where[r, seat] == FLAG_IDLE
    for colour in range(NUM_COLOURS):
        held = cards >> (PER_COLOUR * colour) & COLOUR_SET
        if held == 0:
            continue
        flag = NO_FLAG
        if flag_idle:
            flag = FLAG_OFF + carries(flags, colour)
        m1, m2, m3, o1, o2, o3 = fleet_split(idle, colour)
        for k in range(PER_COLOUR):
            c = PER_COLOUR * colour + k
            if held >> k & 1 and feasible(m1, m2, m3, o1, o2, o3, jokers, coins, flag,
                                          CONTRACT_TV[c]):
                for d in range(3):
                    mask[PLAY + 3 * c + d] = True


@njit
def legal_main(s, r, mask, cards, flags):
    """MAIN (§4.2): END_TURN, TAKE_COINS, the takes (§5.2), BUY (§5.3), the reservations
    (§5.7) from the 14 card slots and their markers, and SEND and PLAY (§5.4, §5.5)."""
    seat = s.current_player[r]
    coins_ok, contract_ok, buy_ok, dispatch_ok = turn_options(s.used[r], s.open_type[r])
    coins = s.coins[r, seat]
    mask[END_TURN] = True
    mask[TAKE_COINS] = coins_ok
    take = contract_ok and s.hand_size[r, seat] < HAND_LIMIT and coins >= 1
    reserve = s.reserves[r, seat] >= 1
    owners = s.res_owner[r]
    for slot in range(NUM_RES_SLOTS):
        card = slot_card(s, r, slot)
        if card < 0:
            continue
        owner = owners[slot]
        open_to_seat = owner < 0 or owner == seat
        if slot < MARKET_SLOTS:
            mask[BUY + slot] = open_to_seat and buy_ok and TYPE_PRICE[card] <= coins
        elif slot >= RES_DISPLAY:
            mask[TAKE_DISPLAY + slot - RES_DISPLAY] = open_to_seat and take
        mask[RESERVE + slot] = owner < 0 and reserve
    mask[TAKE_BLIND] = take and s.deck_pos[r] < NUM_CONTRACTS
    if dispatch_ok and may_sail(s, r, seat):
        legal_send(s, r, mask, flags)
        legal_play(s, r, mask, cards, flags)


# ---------------------------------------------------------------- PICK_EXP_SHIP (§5.4)
@njit
def legal_pick_exp_ship(s, r, mask, cards, flags):
    """PICK_SHIP(type) and PICK_FLAGSHIP(slot, tv) for the target expedition."""
    expedition_picks(s, r, s.target[r], mask, flags)


@njit
def expedition_picks(s, r, target, mask, flags):
    """The picks of the acting seat onto expedition ``target``: the ship fits the free TV,
    in the established colour or with a Joker, and its fee is paid."""
    seat = s.current_player[r]
    free = EXP_LIMIT[target] - s.exp_used[r, target]
    established = s.exp_colour_set[r, target]
    anything = established < 0 or s.jokers[r, seat] >= 1
    coins = s.coins[r, seat]
    if coins >= SHIP_FEE:
        idle = s.idle[r, seat]
        for t in range(NUM_TYPES):
            mask[PICK_SHIP + t] = (idle[t] > 0 and free >= TYPE_TV[t]
                                   and (anything or established == TYPE_COLOUR[t]))
    if s.flag_where[r, seat] != FLAG_IDLE or coins < FLAGSHIP_FEE:
        return
    for f in range(NUM_FLAGSHIPS):
        if not flags >> f & 1:
            continue
        for slot in range(2):
            if anything or FLAG_COLOURS[f, slot] == established:
                for tv in range(1, min(free, NUM_TVS) + 1):
                    mask[PICK_FLAGSHIP + 3 * slot + tv - 1] = True


# ---------------------------------------------------------------- BUILD_CONTRACT (§5.5)
@njit
def legal_pick_build(s, r, mask, flag):
    """The picks of BUILD_CONTRACT that keep the contract FEASIBLE, the flagship being
    ``flag``: each pick paid (a ship 1 coin, the flagship 2, a Joker for another colour)
    and the rest still completable with what is left."""
    seat = s.current_player[r]
    idle = s.idle[r, seat]
    card = s.build_card[r]
    colour = CONTRACT_COLOUR[card]
    remaining = CONTRACT_TV[card] - s.build_tv[r]
    coins, jokers = s.coins[r, seat], s.jokers[r, seat]
    flag_idle = s.flag_where[r, seat] == FLAG_IDLE
    m1, m2, m3, o1, o2, o3 = fleet_split(idle, colour)
    flag_state = NO_FLAG
    if flag_idle:
        flag_state = FLAG_OFF + (FLAG_COLOURS[flag, 0] == colour or
                                 FLAG_COLOURS[flag, 1] == colour)
    if coins >= SHIP_FEE:
        for t in range(NUM_TYPES):
            tv = TYPE_TV[t]
            after = remaining - tv
            if idle[t] == 0 or after < 0:
                continue
            if TYPE_COLOUR[t] == colour:
                ok = feasible(m1 - (tv == 1), m2 - (tv == 2), m3 - (tv == 3), o1, o2, o3,
                              jokers, coins - SHIP_FEE, flag_state, after)
            else:
                ok = jokers >= 1 and feasible(
                    m1, m2, m3, o1 - (tv == 1), o2 - (tv == 2), o3 - (tv == 3), jokers - 1,
                    coins - SHIP_FEE, flag_state, after)
            mask[PICK_SHIP + t] |= ok
    if not flag_idle or coins < FLAGSHIP_FEE:
        return
    for slot in range(2):
        joker = FLAG_COLOURS[flag, slot] != colour
        if joker and jokers < 1:
            continue
        for tv in range(1, NUM_TVS + 1):
            after = remaining - tv
            if after >= 0 and feasible(m1, m2, m3, o1, o2, o3, jokers - joker,
                                       coins - FLAGSHIP_FEE, NO_FLAG, after):
                mask[PICK_FLAGSHIP + 3 * slot + tv - 1] = True


@njit
def legal_build_contract(s, r, mask, cards, flags):
    """BUILD_CONTRACT: the picks that keep the contract FEASIBLE for some flagship it may
    have (``legal_pick_build``)."""
    for f in range(NUM_FLAGSHIPS):
        if flags >> f & 1:
            legal_pick_build(s, r, mask, f)


# ---------------------------------------------------------------- dispatch
@njit
def legal_with(s, r, mask, cards, flags):
    """The legal actions of the decision asked in row ``r`` into ``mask``, for the hand
    ``cards`` and the flagships ``flags`` the acting seat may hold."""
    phase = s.phase[r]
    if phase == Phase.MAIN:
        legal_main(s, r, mask, cards, flags)
    elif phase == Phase.PICK_EXP_SHIP:
        legal_pick_exp_ship(s, r, mask, cards, flags)
    elif phase == Phase.BUILD_CONTRACT:
        legal_build_contract(s, r, mask, cards, flags)


@njit
def legal(s, r, mask):
    """The legal actions of the decision asked in row ``r`` (the driver's ``legal``)."""
    cards, flags = own_holdings(s, r)
    legal_with(s, r, mask, cards, flags)


@njit
def forced(s, r, mask):
    """Whether public information alone leaves the decision its single legal action
    (design.md, forced decisions; §4.5): the same legal function on the public bound of
    the seat's hand and flagship (``public_holdings``). The bound's mask is worked out in
    ``mask`` itself, which holds the single real action and gets it back."""
    action = first_true(mask)
    cards, flags = public_holdings(s, r)
    mask[:] = False
    legal_with(s, r, mask, cards, flags)
    single = count_true(mask) == 1
    mask[:] = False
    mask[action] = True
    return single
