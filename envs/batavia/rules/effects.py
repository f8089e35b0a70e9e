"""The effects of every decision (§5), per row, with the setup (§3), the automatic steps of
§4 (round start, auction resolution, turn end with its pirate check, final scoring) and the
chance draws (§9.6).

``apply(s, r, action)`` applies a validated action and everything that follows it up to
the next decision: an effect that ends the seat's turn writes ``TURN_OVER`` as the row's
phase, and ``apply`` then ends the turn (the pirates, the next seat, the next round or the
end of the game). Chance draws from the row's own counter stream, 32 bits a word.
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import (
    CARD_COMPANY,
    DRAW_COUNT,
    EXCHANGE_GOLD,
    FIXED_LAYOUT,
    GOAL_SPACE,
    MAX_ROUNDS,
    NUM_BLOCKS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    OPEN_AT_START,
    REVEAL_STEP,
    START_HAND,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.rules.cards import (
    draw_to_hand,
    hand_to_display,
    recount_seals,
    take_cards,
    word32,
)
from envs.batavia.state import (
    BID,
    DRAW,
    END_GOAL,
    END_MOVE,
    EXCHANGE,
    P_OPEN_VARIANT,
    P_RANDOM_AUCTIONEER,
    P_RANDOM_LAYOUT,
    P_THRESHOLD,
    PLAY_CARD,
    TURN_OVER,
    Phase,
)
from envs.core.jit import local_zeros, njit
from envs.core.rng import argsort_into

SETUP_WORDS = 181  # §9.6
_BLOCK = NUM_SPACES // NUM_BLOCKS  # 5 spaces a block
_TILE_COMPANY = TILE_COMPANY.astype(np.int64)
_TILE_GOOD = TILE_GOOD.astype(np.int64)
_CARD_COMPANY = CARD_COMPANY.astype(np.int8)
_FIXED_LAYOUT = FIXED_LAYOUT.astype(np.int8)
_EXCHANGE_GOLD = EXCHANGE_GOLD.astype(np.int64)


# ---------------------------------------------------------------- setup (§3, §9.6)
@njit
def route_words(route, out):
    """The per-company route words (``state.remaining``) of one route (35,) of tile ids
    (-1 empty) into ``out`` (5,): bit s - 1 of word c set while space s holds a c tile."""
    out[:] = 0
    for space in range(NUM_SPACES):
        t = route[space]
        if t >= 0:
            out[_TILE_COMPANY[t]] |= np.int64(1) << np.int64(space)


@njit
def lay_route(s, r):
    """The tile space and the per-company route words of the tiles on ``s.route[r]``."""
    route = s.route[r]
    for space in range(NUM_SPACES):
        if route[space] >= 0:
            s.tile_space[r, route[space]] = space + 1
    route_words(route, s.remaining[r])


@njit
def _deal_route(s, r, words):
    """Tile ids on spaces 1..35 (§3 step 1, §2.8, §9.6 words 0-69): company c's goods in the
    order of words 7c .. 7c + 6, its k-th to block k; block k's tiles, listed by company,
    in the order of its 5 words onto its spaces."""
    if s.params[P_OPEN_VARIANT] != 0 and s.params[P_RANDOM_LAYOUT] == 0:
        for space in range(NUM_SPACES):
            s.route[r, space] = _FIXED_LAYOUT[space]
        return
    stacks = local_zeros((NUM_COMPANIES, NUM_GOODS), np.int64)
    for c in range(NUM_COMPANIES):
        argsort_into(words[NUM_GOODS * c:NUM_GOODS * (c + 1)], stacks[c])
    base = NUM_GOODS * NUM_COMPANIES
    places = local_zeros(_BLOCK, np.int64)
    for k in range(NUM_BLOCKS):
        argsort_into(words[base + _BLOCK * k:base + _BLOCK * (k + 1)], places)
        for j in range(_BLOCK):
            c = places[j]
            s.route[r, _BLOCK * k + j] = NUM_GOODS * c + stacks[c, k]


@njit
def init_row(s, r):
    """Set up row ``r`` (§3): the route, the shuffled cards dealt 10 a seat, the pile, the
    first auctioneer; then the first round starts."""
    players = s.coins.shape[1]
    words = local_zeros(SETUP_WORDS, np.uint64)
    for j in range(SETUP_WORDS):
        words[j] = word32(s, r)
    _deal_route(s, r, words)
    lay_route(s, r)
    base = 2 * NUM_GOODS * NUM_COMPANIES
    order = local_zeros(NUM_CARDS, np.int64)
    argsort_into(words[base:base + NUM_CARDS], order)  # first: the top
    dealt = START_HAND * players
    for i in range(dealt):
        c = _CARD_COMPANY[order[i]]
        s.hand[r, i // START_HAND, c] += 1
        s.unknown[r, i // START_HAND, 0, c] += 1
    size = NUM_CARDS - dealt
    for j in range(size):  # bottom first
        s.deck[r, j] = _CARD_COMPANY[order[NUM_CARDS - 1 - j]]
    s.deck_size[r] = size
    s.gen_id[r, 0] = 0
    if s.params[P_RANDOM_AUCTIONEER] != 0:
        s.ship[r] = (np.uint64(players) * words[SETUP_WORDS - 1]) >> np.uint64(32)
    s.open[r] = NUM_SPACES if s.params[P_OPEN_VARIANT] != 0 else OPEN_AT_START
    s.revealed[r, :] = True  # every seat sees its hand
    start_round(s, r)


# ---------------------------------------------------------------- the auction (§5.1, §5.2)
@njit
def apply_auction_bid(s, r, action):
    """PASS or BID b, then the next bidder, the winner, or the all-pass."""
    players = s.coins.shape[1]
    seat = s.current_player[r]
    if action >= BID:
        s.second_bidder[r] = s.high_bidder[r]
        s.high_bid[r] = action - BID + 1
        s.high_bidder[r] = seat
    else:
        s.passed[r, seat] = True
    still_in = 0
    for p in range(players):
        still_in += not s.passed[r, p]
    if s.high_bidder[r] >= 0 and still_in == 1:
        _resolve_auction(s, r)
    elif still_in == 0:
        s.carried[r] = True  # the lot stays for the next round (§5.2)
        _close_auction(s, r)
    else:
        for j in range(1, players):
            nxt = (seat + j) % players
            if not s.passed[r, nxt]:
                s.current_player[r] = nxt
                break


@njit
def _resolve_auction(s, r):
    """The winner pays, the others share (remainder to the second bidder, else one each
    from the winner's left, §8 #6), the lot goes to his hand and the ship to him."""
    players = s.coins.shape[1]
    others = players - 1
    winner = s.high_bidder[r]
    price = np.int64(s.high_bid[r])
    share, rest = price // others, price % others
    second = s.second_bidder[r]
    for i in range(others):
        s.coins[r, (winner + 1 + i) % players] += share + (second < 0 and i < rest)
    if second >= 0:
        s.coins[r, second] += rest
    s.coins[r, winner] -= price
    for c in range(NUM_COMPANIES):
        s.hand[r, winner, c] += s.lot[r, c]
        s.known[r, winner, c] += s.lot[r, c]  # the lot was face up (§6)
        s.lot[r, c] = 0
    s.carried[r] = False
    s.ship[r] = winner
    _close_auction(s, r)


@njit
def _close_auction(s, r):
    s.high_bid[r] = 0
    s.high_bidder[r] = -1
    s.second_bidder[r] = -1
    s.passed[r, :] = False
    s.turn[r] = 0
    _begin_turn(s, r)


# ---------------------------------------------------------------- a turn (§5.3-§5.6)
@njit
def apply_turn_start(s, r, action):
    """DRAW (the turn ends) or the first PLAY_CARD."""
    seat = s.current_player[r]
    if action == DRAW:
        draw_to_hand(s, r, seat, DRAW_COUNT)
        s.phase[r] = TURN_OVER
    else:
        hand_to_display(s, r, seat, action - PLAY_CARD)
        s.phase[r] = Phase.PLAYING


@njit
def apply_playing(s, r, action):
    """PLAY_CARD, END_MOVE or END_GOAL (both end the turn, unless an exchange is due)."""
    seat = s.current_player[r]
    if action < END_MOVE:
        hand_to_display(s, r, seat, action - PLAY_CARD)
    elif action < END_GOAL:
        _move(s, r, seat, action - END_MOVE)
    else:
        s.pos[r, seat] = GOAL_SPACE
        s.goal_holder[r] = seat
        s.final[r] = True  # the game-end trigger (§5.7)
        s.phase[r] = TURN_OVER


@njit
def _move(s, r, seat, company):
    """END_MOVE c (§5.5): to the nearest c post ahead, take it, place a crate, reveal if
    due; the turn ends unless the post is the seat's first of the company (an exchange to
    decide)."""
    word = s.remaining[r, company]
    pos = np.int64(s.pos[r, seat])
    ahead = (word >> pos) << pos
    lowest = ahead & -ahead
    space = 1
    while lowest >> np.int64(space - 1) != 1:
        space += 1
    tile = s.route[r, space - 1]
    s.route[r, space - 1] = -1
    s.remaining[r, company] = word ^ lowest
    s.pos[r, seat] = space
    s.taken_by[r, tile] = seat
    fresh = s.posts[r, seat, company] == 0
    s.posts[r, seat, company] += 1
    if s.crates[r, seat] > 0:
        s.warehouse[r, _TILE_GOOD[tile], company] = seat
        s.crates[r, seat] -= 1
    opened = s.open[r]
    if opened < NUM_SPACES and space >= opened - (REVEAL_STEP - 1):
        s.open[r] = opened + REVEAL_STEP
        s.revealed[r, :] = True
    s.phase[r] = Phase.EXCHANGE_CHOICE if fresh else TURN_OVER


@njit
def apply_exchange_choice(s, r, action):
    """EXCHANGE (one tile of every company held, k(k+1)/2 gold) or KEEP; the turn ends."""
    if action == EXCHANGE:
        seat = s.current_player[r]
        held = 0
        for c in range(NUM_COMPANIES):
            if s.posts[r, seat, c] > 0:
                held += 1
                s.posts[r, seat, c] -= 1
                first = 0  # the held tile with the lowest good (game docstring, choice 2)
                for g in range(NUM_GOODS):
                    t = NUM_GOODS * c + g
                    if s.taken_by[r, t] == seat and not s.exchanged[r, t]:
                        first = g
                        break
                s.exchanged[r, NUM_GOODS * c + first] = True
        s.gold[r, seat] += _EXCHANGE_GOLD[held]
    s.phase[r] = TURN_OVER


# ---------------------------------------------------------------- automatic steps (§4)
@njit
def _end_turn(s, r):
    """TURN_END: the pirate check, then the next seat or the end of the round."""
    players = s.coins.shape[1]
    _pirates(s, r)
    s.played[r, :] = 0
    s.turn[r] += 1
    if s.turn[r] < players:
        _begin_turn(s, r)
    elif s.final[r] or s.round[r] >= MAX_ROUNDS:
        _final_scoring(s, r)
    else:
        s.round[r] += 1
        start_round(s, r)


@njit
def _pirates(s, r):
    """§5.8: while the displayed total reaches the threshold, every company tied for the
    most displayed cards goes to the discard pile (repeated, §8 #13)."""
    threshold = s.params[P_THRESHOLD]
    cubes = s.cubes[r]
    while s.cannon[r] >= threshold:
        most = cubes[np.argmax(cubes)]
        cannon = 0
        for c in range(NUM_COMPANIES):
            if cubes[c] == most:
                s.discard[r, c] += cubes[c]
                s.display[r, :, c] = 0
                cubes[c] = 0
                s.top[r, c] = 0
                s.seal[r, c] = -1
            cannon += cubes[c]
        s.cannon[r] = cannon


@njit
def start_round(s, r):
    """ROUND_START (chance): the die, d cards flipped onto the lot, then the auction, or
    the turns at once when the lot is empty (§5.1, §8 #15)."""
    players = s.coins.shape[1]
    die = 1 + ((word32(s, r) * np.uint64(6)) >> np.uint64(32))
    s.die[r] = die
    s.turn[r] = 0
    first = local_zeros(NUM_COMPANIES, np.int8)
    second = local_zeros(NUM_COMPANIES, np.int8)
    take_cards(s, r, np.int64(die), first, second)
    lot = 0
    for c in range(NUM_COMPANIES):
        s.lot[r, c] += first[c] + second[c]
        lot += s.lot[r, c]
    s.revealed[r, :] = True
    if lot > 0:
        s.phase[r] = Phase.AUCTION_BID
        s.current_player[r] = (s.ship[r] + 1) % players
    else:
        _begin_turn(s, r)


@njit
def _begin_turn(s, r):
    s.phase[r] = Phase.TURN_START
    s.current_player[r] = (s.ship[r] + s.turn[r]) % s.coins.shape[1]


@njit
def _final_scoring(s, r):
    """FINAL_SCORING (§7 steps 1-2): the hands go onto the displays and the seals are
    recounted; the game is over (truncated at the round cap without the goal taken)."""
    for p in range(s.hand.shape[1]):
        for c in range(NUM_COMPANIES):
            s.display[r, p, c] += s.hand[r, p, c]
    s.hand[r] = 0
    s.known[r] = 0
    s.unknown[r] = 0
    recount_seals(s, r)
    s.phase[r] = Phase.GAME_OVER
    if s.final[r]:
        s.terminated[r] = True
    else:
        s.truncated[r] = True
    s.revealed[r, :] = True  # every hand is shown


# ---------------------------------------------------------------- dispatch
@njit
def apply(s, r, action):
    """The effect of a validated ``action`` in row ``r``, and the end of the turn it ends."""
    phase = s.phase[r]
    if phase == Phase.AUCTION_BID:
        apply_auction_bid(s, r, action)
    elif phase == Phase.TURN_START:
        apply_turn_start(s, r, action)
    elif phase == Phase.PLAYING:
        apply_playing(s, r, action)
    elif phase == Phase.EXCHANGE_CHOICE:
        apply_exchange_choice(s, r, action)
    if s.phase[r] == TURN_OVER:
        _end_turn(s, r)


@njit
def phase(s, r):
    """The key of the decision asked (``Phase``), for the step record."""
    return s.phase[r]
