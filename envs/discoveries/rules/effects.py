"""The effects of every decision (§5), the setup (§3) and the turn's end and start (§4.2,
§5.8, §5.9), per row.

``apply_<phase>(s, r, action)`` applies a validated action and all that follows it up to the
next decision: the end of a turn, the scorings, the next turn or the end of the game. All
chance is drawn in ``init_row`` (§3), so a step never consults the generator: the piles and
the contract deck are read from the drawn orders.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import local_zeros, njit
from envs.core.rng import next_integer, next_permutation
from envs.discoveries.data import (
    COINS_ACTION,
    CONTRACT_COLOUR,
    CONTRACT_FEE,
    CONTRACT_REVENUE,
    CONTRACT_TV,
    DISPLAY_SLOTS,
    DURATIONS,
    EXP_COLOUR,
    FINAL_CARD,
    FIRST_CARD,
    FLAG_COLOURS,
    FLAGSHIP_FEE,
    HAND_LIMIT,
    MARKET_SLOTS,
    MAX_TURNS,
    NUM_CONTRACTS,
    NUM_FLAGSHIPS,
    NUM_SHIPS,
    NUM_TASK_KINDS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_START,
    SHIP_CARD_TYPE,
    SHIP_FEE,
    SHIPS_BEFORE_PILES,
    SHIPS_PER_PILE,
    START_HAND,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.rules.legal import (
    BUY,
    BUYING,
    COINS,
    CONTRACT,
    DISPATCH,
    END_TURN,
    OPEN_BUY,
    OPEN_DISPATCH,
    PICK_SHIP,
    PLAY,
    RESERVE,
    SEND,
    TAKE_COINS,
    TAKE_DISPLAY,
)
from envs.discoveries.rules.scoring import final_scoring, first_scoring
from envs.discoveries.state import NONE, NUM_RES_SLOTS, RES_DISPLAY, Flag, Open, Phase, Played

OPEN_NONE = int(Open.NONE)
FLAG_IDLE, FLAG_BUILD, FLAG_VOYAGE, FLAG_EXPEDITION = (int(Flag.IDLE), int(Flag.BUILD),
                                                       int(Flag.VOYAGE), int(Flag.EXPEDITION))
ACTIVE, COMPLETED = int(Played.ACTIVE), int(Played.COMPLETED)
FIRST_PILE_SHIPS, FINAL_PILE_SHIPS = SHIPS_PER_PILE[2], SHIPS_PER_PILE[4]


# ---------------------------------------------------------------- setup (§3)
@njit
def init_row(s, r):
    """Deal row ``r``: the draws in the spec's order (§3, "All chance is drawn at setup"):
    the start player, the 42 ship cards, the places of the two scoring cards in piles 3
    and 5, the contracts, the tasks and the flagships."""
    players = s.coins.shape[1]
    start = next_integer(s.rng, r, players)
    ships = local_zeros(NUM_SHIPS, np.int64)
    next_permutation(s.rng, r, ships)
    first_at = next_integer(s.rng, r, FIRST_PILE_SHIPS + 1)
    final_at = next_integer(s.rng, r, FINAL_PILE_SHIPS + 1)
    contracts = local_zeros(NUM_CONTRACTS, np.int64)
    next_permutation(s.rng, r, contracts)
    tasks = local_zeros(NUM_TASK_KINDS, np.int64)
    next_permutation(s.rng, r, tasks)
    flags = local_zeros(NUM_FLAGSHIPS, np.int64)
    next_permutation(s.rng, r, flags)
    s.start_player[r] = start
    s.current_player[r] = start
    s.own_turns[r, start] = 1  # the start player's TURN_START
    for slot in range(MARKET_SLOTS):
        s.offer[r, slot] = SHIP_CARD_TYPE[ships[slot]]
        s.refill[r, slot] = SHIP_CARD_TYPE[ships[MARKET_SLOTS + slot]]
    # The 32 pile ships dealt 6, 6, 6, 7, 7 into piles 1-5, the First Scoring card at
    # ``first_at`` (0 = top) of pile 3 and the Final at ``final_at`` of pile 5, as one
    # sequence in draw order.
    dealt = SHIPS_BEFORE_PILES
    for pile in range(len(SHIPS_PER_PILE)):
        count, at = SHIPS_PER_PILE[pile], PILE_START[pile]
        card = -1
        if pile == 2:
            card, place = FIRST_CARD, first_at
        elif pile == 4:
            card, place = FINAL_CARD, final_at
        k = 0
        for j in range(count + (card >= 0)):
            if card >= 0 and j == place:
                s.piles[r, at + j] = card
            else:
                ship = SHIP_CARD_TYPE[ships[dealt + k]]
                s.piles[r, at + j] = ship
                s.pile_ships[r, ship] += 1
                k += 1
        dealt += count
    for k in range(NUM_CONTRACTS):
        s.contracts[r, k] = contracts[k]
    for slot in range(DISPLAY_SLOTS):
        s.display[r, slot] = contracts[slot]
    for i in range(players):  # the i-th seat dealt, from the start player on
        seat = (start + i) % players
        for k in range(START_HAND):
            s.hand[r, seat, k] = contracts[DISPLAY_SLOTS + START_HAND * i + k]
        s.hand_size[r, seat] = START_HAND
        s.flag_id[r, seat] = flags[i]
        s.task[r, seat] = tasks[i]
    s.deck_pos[r] = DISPLAY_SLOTS + START_HAND * players


# ---------------------------------------------------------------- MAIN (§5.1-§5.7)
@njit
def begin(s, r, bit, open_type):
    """Take a step of main action ``bit``: it is used, and open (or nothing is)."""
    s.used[r] |= bit
    s.open_type[r] = open_type


@njit
def take_coins(s, r):
    """TAKE_COINS (§5.1)."""
    seat = s.current_player[r]
    s.coins[r, seat] += COINS_ACTION
    s.income_coins[r, seat] += COINS_ACTION
    begin(s, r, COINS, OPEN_NONE)


@njit
def take_contract(s, r, slot):
    """TAKE_DISPLAY(j) and TAKE_BLIND (``slot`` 4): pay 1, the card goes to the first empty
    hand slot; a display slot is refilled from the deck (§5.2)."""
    seat = s.current_player[r]
    blind = slot == DISPLAY_SLOTS
    has_deck = s.deck_pos[r] < NUM_CONTRACTS
    top = s.contracts[r, min(s.deck_pos[r], NUM_CONTRACTS - 1)]
    card = top if blind else s.display[r, slot]
    free = 0
    while free < HAND_LIMIT - 1 and s.hand[r, seat, free] >= 0:
        free += 1
    s.hand[r, seat, free] = card
    s.hand_public[r, seat, free] = not blind
    s.hand_size[r, seat] += 1
    if blind:
        s.revealed[r, seat] = True
    else:
        s.display[r, slot] = top if has_deck else NONE
        s.res_owner[r, RES_DISPLAY + slot] = NONE
        if has_deck:
            s.revealed[r, :] = True
    if has_deck:
        s.deck_pos[r] += 1
    s.coins[r, seat] -= CONTRACT_FEE
    s.contracts_taken[r, seat] += 1
    begin(s, r, CONTRACT, OPEN_NONE)


@njit
def draw_ship(s, r):
    """DRAW() of §5.3: the next ship of the pile sequence, a scoring card on the way setting
    its reveal turn (the two are never adjacent); -1 when all are gone."""
    for _ in range(2):
        pos = s.pile_pos[r]
        if pos >= PILE_CARDS:
            return NONE
        drawn = s.piles[r, pos]
        s.pile_pos[r] += 1
        if drawn == FIRST_CARD:
            s.first_reveal[r] = s.turn[r]
        elif drawn == FINAL_CARD:
            s.final_reveal[r] = s.turn[r]
        else:
            s.pile_ships[r, drawn] -= 1
            return drawn
    return NONE


@njit
def buy(s, r, slot):
    """BUY(i) (§5.3): pay, the refill card slides down with its marker, a new one is drawn."""
    seat = s.current_player[r]
    ship = s.offer[r, slot]
    price = TYPE_PRICE[ship]
    s.coins[r, seat] -= price
    s.paid_prices[r, seat] += price
    s.ships_bought[r, seat] += 1
    s.idle[r, seat, ship] += 1
    s.bought[r] += 1
    above = slot + MARKET_SLOTS
    s.offer[r, slot] = s.refill[r, slot]
    s.res_owner[r, slot] = s.res_owner[r, above]
    s.res_turn[r, slot] = s.res_turn[r, above]
    s.res_owner[r, above] = NONE
    drawing = s.refill[r, slot] >= 0
    s.refill[r, slot] = NONE
    if drawing:
        s.refill[r, slot] = draw_ship(s, r)
        s.revealed[r, :] = True
    begin(s, r, BUYING, OPEN_BUY)


@njit
def send(s, r, expedition):
    """SEND_TO_EXPEDITION(e) (§5.4): the pick of the ship follows."""
    s.target[r] = expedition
    s.phase[r] = Phase.PICK_EXP_SHIP
    begin(s, r, DISPATCH, OPEN_DISPATCH)


@njit
def play(s, r, offset):
    """PLAY_CONTRACT(c, d) (§5.5): the card leaves the hand face up; the build begins."""
    seat = s.current_player[r]
    card = offset // 3
    slot = 0
    while s.hand[r, seat, slot] != card:
        slot += 1
    if not s.hand_public[r, seat, slot]:
        for q in range(s.coins.shape[1]):
            if q != seat:
                s.revealed[r, q] = True
    s.hand[r, seat, slot] = NONE
    s.hand_public[r, seat, slot] = False
    s.hand_size[r, seat] -= 1
    s.build_card[r] = card
    s.build_duration[r] = offset % 3 + 1
    s.phase[r] = Phase.BUILD_CONTRACT
    begin(s, r, DISPATCH, OPEN_DISPATCH)


@njit
def reserve(s, r, slot):
    """RESERVE_*(slot) (§5.7): the seat's marker on the card, placed in this own turn."""
    seat = s.current_player[r]
    s.res_owner[r, slot] = seat
    s.res_turn[r, slot] = s.own_turns[r, seat]
    s.reserves[r, seat] -= 1


@njit
def apply_main(s, r, action):
    """MAIN: the action's block says its handler."""
    if action == END_TURN:
        end_turn(s, r)
    elif action == TAKE_COINS:
        take_coins(s, r)
    elif action < BUY:
        take_contract(s, r, action - TAKE_DISPLAY)
    elif action < SEND:
        buy(s, r, action - BUY)
    elif action < PLAY:
        send(s, r, action - SEND)
    elif action < PICK_SHIP:
        play(s, r, action - PLAY)
    else:
        reserve(s, r, action - RESERVE)


# ---------------------------------------------------------------- picks (§5.4, §5.5)
@njit
def pick(s, r, action):
    """Take the picked ship out of the idle fleet and pay its fee; returns whether it is
    the flagship, and the ship's (declared) colour and TV."""
    seat = s.current_player[r]
    offset = action - PICK_SHIP
    flag = offset >= NUM_TYPES
    if flag:
        slot = offset - NUM_TYPES
        colour = FLAG_COLOURS[s.flag_id[r, seat], slot // 3]
        tv = slot % 3 + 1
        fee = FLAGSHIP_FEE
        if not s.flag_revealed[r, seat]:  # its first use shows it to the other seats
            for q in range(s.coins.shape[1]):
                if q != seat:
                    s.revealed[r, q] = True
        s.flag_revealed[r, seat] = True
    else:
        colour = TYPE_COLOUR[offset]
        tv = TYPE_TV[offset]
        fee = SHIP_FEE
        s.idle[r, seat, offset] -= 1
    s.coins[r, seat] -= fee
    s.paid_fees[r, seat] += fee
    s.placed[r] += 1
    return flag, colour, tv


@njit
def apply_pick_exp_ship(s, r, action):
    """The ship joins the target expedition for good (§5.4)."""
    seat = s.current_player[r]
    flag, colour, tv = pick(s, r, action)
    target = s.target[r]
    established = s.exp_colour_set[r, target]
    joker = established >= 0 and colour != established
    s.jokers[r, seat] -= joker
    s.jokers_used_exp[r, seat] += joker
    at = s.exp_size[r, target]
    s.exp_owner[r, target, at] = seat
    s.exp_colour[r, target, at] = colour
    s.exp_tv[r, target, at] = tv
    s.exp_flag[r, target, at] = flag
    s.exp_joker[r, target, at] = joker
    s.exp_turn[r, target, at] = s.turn[r]
    s.exp_size[r, target] += 1
    s.exp_used[r, target] += tv
    if established < 0:
        s.exp_colour_set[r, target] = colour
    s.exp_count[r, target, seat] += 1
    s.exp_same[r, target, seat] += colour == EXP_COLOUR[target]
    if flag:
        s.flag_where[r, seat] = FLAG_EXPEDITION
    s.target[r] = NONE
    s.phase[r] = Phase.MAIN


@njit
def apply_build_contract(s, r, action):
    """The ship is attached; at the exact requirement the contract sails (§5.5)."""
    seat = s.current_player[r]
    flag, colour, tv = pick(s, r, action)
    card = s.build_card[r]
    joker = colour != CONTRACT_COLOUR[card]
    s.jokers[r, seat] -= joker
    s.jokers_used_con[r, seat] += joker
    s.build_jokers[r] += joker
    if flag:
        s.build_flag_tv[r] = tv
        s.build_flag_colour[r] = colour
        s.flag_where[r, seat] = FLAG_BUILD
    else:
        s.build_ships[r, action - PICK_SHIP] += 1
    s.build_tv[r] += tv
    if s.build_tv[r] == CONTRACT_TV[card]:
        sail(s, r, seat, card)


@njit
def sail(s, r, seat, card):
    """The built contract becomes active with its revenue and timer d; back to MAIN."""
    duration = s.build_duration[r]
    s.con_state[r, card] = ACTIVE
    s.con_owner[r, card] = seat
    s.con_due[r, card] = s.own_turns[r, seat] + duration
    s.con_duration[r, card] = duration
    s.con_revenue[r, card] = CONTRACT_REVENUE[card, duration - 1]
    s.con_flag_tv[r, card] = s.build_flag_tv[r]
    s.con_flag_colour[r, card] = s.build_flag_colour[r]
    s.con_jokers[r, card] = s.build_jokers[r]
    with_flag = s.build_flag_tv[r] > 0
    if with_flag:
        s.flag_where[r, seat] = FLAG_VOYAGE
    timer = duration - 1
    s.voyage_revenue[r, seat, timer] += s.con_revenue[r, card]
    ships = 0
    for t in range(NUM_TYPES):
        count = s.build_ships[r, t]
        s.con_ships[r, card, t] = count
        s.voyage_fleet[r, seat, timer, t] += count
        ships += count
        s.build_ships[r, t] = 0
    s.voyage_ships[r, seat, timer] += ships + with_flag
    s.build_card[r] = NONE
    s.build_duration[r] = 0
    s.build_tv[r] = 0
    s.build_flag_tv[r] = 0
    s.build_flag_colour[r] = NONE
    s.build_jokers[r] = 0
    s.phase[r] = Phase.MAIN


# ---------------------------------------------------------------- turn end and start
@njit
def end_turn(s, r):
    """END_TURN and TURN_END (§5.8): expiry, the scorings, the next turn or the end."""
    seat = s.current_player[r]
    for slot in range(NUM_RES_SLOTS):  # the seat's markers placed in its previous turn go
        if (s.res_owner[r, slot] == seat
                and s.res_turn[r, slot] == s.own_turns[r, seat] - 1):
            s.res_owner[r, slot] = NONE
    due = s.turn[r] - s.coins.shape[1]  # a card revealed then is due now
    if s.first_reveal[r] == due:
        first_scoring(s, r)
    final = s.final_reveal[r] == due
    s.turn[r] += 1
    capped = not final and s.turn[r] >= MAX_TURNS
    if final or capped:
        final_scoring(s, r)
        s.revealed[r, :] = True  # the tasks are shown
        s.terminated[r] = final
        s.truncated[r] = capped
        s.phase[r] = Phase.GAME_OVER
        s.open_type[r] = OPEN_NONE
    else:
        start_turn(s, r)


@njit
def start_turn(s, r):
    """TURN_START (§4.2): the next seat's turn counter and contract tick (§5.9)."""
    players = s.coins.shape[1]
    seat = (s.start_player[r] + s.turn[r]) % players
    s.current_player[r] = seat
    s.own_turns[r, seat] += 1
    s.used[r] = 0
    s.open_type[r] = OPEN_NONE
    s.bought[r] = 0
    s.placed[r] = 0
    s.phase[r] = Phase.MAIN
    for timer in range(DURATIONS):
        if s.voyage_ships[r, seat, timer] > 0:
            tick(s, r, seat)
            break


@njit
def tick(s, r, seat):
    """The contract tick (§5.9) of a seat with voyages: those due now come back with their
    revenue, the others move one timer field on."""
    revenue = s.voyage_revenue[r, seat, 0]
    s.coins[r, seat] += revenue
    s.income_revenue[r, seat] += revenue
    due = s.voyage_ships[r, seat, 0] > 0
    for t in range(NUM_TYPES):
        s.idle[r, seat, t] += s.voyage_fleet[r, seat, 0, t]
    for timer in range(DURATIONS):
        last = timer == DURATIONS - 1
        s.voyage_revenue[r, seat, timer] = 0 if last else s.voyage_revenue[r, seat, timer + 1]
        s.voyage_ships[r, seat, timer] = 0 if last else s.voyage_ships[r, seat, timer + 1]
        for t in range(NUM_TYPES):
            s.voyage_fleet[r, seat, timer, t] = (
                0 if last else s.voyage_fleet[r, seat, timer + 1, t])
    if not due:
        return
    flag_back = False
    for c in range(NUM_CONTRACTS):
        if (s.con_due[r, c] == s.own_turns[r, seat] and s.con_owner[r, c] == seat
                and s.con_state[r, c] == ACTIVE):
            s.completed[r, seat] += 1
            s.con_state[r, c] = COMPLETED
            s.con_due[r, c] = 0
            flag_back |= s.con_flag_tv[r, c] > 0
    if flag_back:
        s.flag_where[r, seat] = FLAG_IDLE


# ---------------------------------------------------------------- dispatch
@njit
def apply(s, r, action):
    """The effect of ``action`` in row ``r`` (the driver's ``apply``)."""
    phase = s.phase[r]
    if phase == Phase.MAIN:
        apply_main(s, r, action)
    elif phase == Phase.PICK_EXP_SHIP:
        apply_pick_exp_ship(s, r, action)
    elif phase == Phase.BUILD_CONTRACT:
        apply_build_contract(s, r, action)


@njit
def phase(s, r):
    """The decision asked in row ``r`` (the step record's key)."""
    return s.phase[r]
