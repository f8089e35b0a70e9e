"""The flow of a game (§4), per row: rounds, turns and phases, and the goods moves.

Where a decision's effect leaves the game (a turn over, an exchange done, a bidding round
resolved), these functions set up the next decision: the seat at each turn position, the
exchange window and the event of Phase 1, the turns of Phase 2, the supply picks of Phase 3,
the bidding rounds of Phase 4, and the end of a round (Phases 5 and 6) or of the game. Both
the effects of the decisions (``effects.py``) and the setup use them; they call nothing of
``effects.py``.
"""

from __future__ import annotations

from envs.core.jit import njit
from envs.junk.data import (
    EVENT_S,
    EVENT_Y,
    EVENTS,
    EXCHANGE,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_MERCHANTS,
    NUM_ROUNDS,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
)
from envs.junk.rules import cards
from envs.junk.state import P_HIDE_MONEY, Phase


# ---------------------------------------------------------------- goods moves
@njit
def gain(s, r, seat, good, count):
    """Seat ``seat`` takes ``count`` goods of type ``good`` from its stack (public)."""
    s.hand[r, seat, good] += count
    s.hand_size[r, seat] += count
    s.flow[r, seat, good] += count
    s.stack[r, good] -= count


@njit
def give_back(s, r, seat, good, count):
    """Seat ``seat`` puts ``count`` goods of type ``good`` from its hand onto the stack
    (public): its flow falls, and with it perhaps its lowest flow."""
    s.hand[r, seat, good] -= count
    s.hand_size[r, seat] -= count
    flow = s.flow[r, seat, good] - count
    s.flow[r, seat, good] = flow
    s.flow_min[r, seat, good] = min(s.flow_min[r, seat, good], flow)
    s.stack[r, good] += count


@njit
def any_left(counts):
    """One of ``counts`` (a row's goods stacks, or its piles' sizes) is not empty."""
    for k in range(counts.shape[0]):
        if counts[k] > 0:
            return True
    return False


# ---------------------------------------------------------------- seats and rounds
@njit
def seat_at(s, r, pos):
    """The seat at turn position ``pos`` of the row's round (0 = the start player, seat
    ``(round - 1) mod N``; seat 0 during the setup)."""
    return (max(s.round[r] - 1, 0) + pos) % s.hand.shape[1]


@njit
def start_round(s, r):
    """Phase 1a: the next market card is turned (every seat sees it); the goods are unsold
    again; then the exchange window."""
    s.round[r] += 1
    s.unrevealed[r, s.market_order[r, s.round[r] - 1]] = False
    s.sold[r, :] = False
    s.revealed[r, :] = True
    seek_exchange(s, r, 0)


@njit
def seek_exchange(s, r, slot):
    """Phase 1b: the next exchange from ``slot`` (2 × turn position + second) on: one per
    EXCHANGE card of each seat, in turn order; then the event."""
    players = s.hand.shape[1]
    for k in range(slot, 2 * players):
        pos = k // 2
        if k % 2 < s.always[r, seat_at(s, r, pos), EXCHANGE]:
            s.phase[r] = Phase.EXCH_RETURN
            s.pos[r] = pos
            s.second_exchange[r] = k % 2 == 1
            s.current_player[r] = seat_at(s, r, pos)
            s.returned[r] = 0
            s.takes_left[r] = 0
            return
    start_event(s, r)


@njit
def end_exchange(s, r):
    s.returned[r] = 0
    s.takes_left[r] = 0
    slot = 2 * s.pos[r] + (1 if s.second_exchange[r] else 0) + 1
    s.second_exchange[r] = False
    seek_exchange(s, r, slot)


@njit
def start_event(s, r):
    """Phase 1c: the event of the lower helper's space (§2.4)."""
    event = EVENTS[s.round[r] - 1]
    if event == EVENT_Y:  # everyone's money is announced
        for p in range(s.money.shape[1]):
            s.announced[r, p] = s.money[r, p]
        s.announce_round[r] = s.round[r]
        if s.params[P_HIDE_MONEY]:
            s.revealed[r, :] = True
    if event == EVENT_S:
        s.event_chosen[r, :] = False
        seek_event(s, r, 0)
    else:
        start_phase2(s, r)


@njit
def seek_event(s, r, pos):
    """The S event's pile choice of the seat at ``pos``; past the last seat, or with every
    pile empty, Phase 2."""
    if pos < s.hand.shape[1] and any_left(s.pile_size[r]):
        s.phase[r] = Phase.EVENT_PILE
        s.pos[r] = pos
        s.current_player[r] = seat_at(s, r, pos)
    else:
        start_phase2(s, r)


@njit
def enter_pick(s, r, pile, award):
    """The seat to act searches pile ``pile`` and is asked its SPECIAL_PICK."""
    cards.search(s, r, s.current_player[r], pile)
    s.phase[r] = Phase.SPECIAL_PICK
    s.pick_pile[r] = pile
    s.pick_award[r] = award


# ---------------------------------------------------------------- Phase 2 (§5.3)
@njit
def start_phase2(s, r):
    s.pos[r] = 0
    start_turn(s, r)


@njit
def start_turn(s, r):
    """Phase 2: the turn of the seat at ``pos`` begins with its P2_MAIN."""
    s.phase[r] = Phase.P2_MAIN
    s.main_done[r] = False
    s.grey_from_extra[r] = False
    s.current_player[r] = seat_at(s, r, s.pos[r])


@njit
def after_main(s, r):
    """§5.3: on to P2_AFTER iff the public gate holds (no EXTRA card played this round, a
    face-down card held), else the turn ends."""
    seat = s.current_player[r]
    if not s.extra_used[r, seat] and s.hidden[r, seat] > 0:
        s.phase[r] = Phase.P2_AFTER
    else:
        end_turn(s, r)


@njit
def after_extra(s, r):
    """After an EXTRA card (and the GREY_TYPE chain it began): the turn ends if its main
    action is done, else its P2_MAIN is asked again."""
    if s.main_done[r]:
        end_turn(s, r)
    else:
        s.phase[r] = Phase.P2_MAIN


@njit
def end_turn(s, r):
    s.pos[r] += 1
    if s.pos[r] >= s.hand.shape[1]:
        s.pos[r] = 0
        seek_supply(s, r)
    else:
        start_turn(s, r)


# ---------------------------------------------------------------- Phase 3 (§5.4)
@njit
def seek_supply(s, r):
    """Phase 3: the supply picks of the seat at ``pos``; past the last seat, or with every
    stack empty, the auction."""
    if s.pos[r] < s.hand.shape[1] and any_left(s.stack[r]):
        seat = seat_at(s, r, s.pos[r])
        s.phase[r] = Phase.SUPPLY_PICK
        s.current_player[r] = seat
        s.picks_left[r] = SUPPLY_CARDS + s.always[r, seat, SUPPLY_PLUS]
    else:
        s.bid_round[r] = 0
        start_bidding_round(s, r)


# ---------------------------------------------------------------- Phase 4 (§5.5)
@njit
def start_bidding_round(s, r):
    s.bid_round[r] += 1
    s.pos[r] = 0
    s.phase[r] = Phase.BID
    s.current_player[r] = seat_at(s, r, 0)


@njit
def after_bidding_round(s, r):
    """§5.5: another bidding round iff a good is unsold and this one had a valid bid."""
    unsold = False
    for good in range(NUM_GOODS):
        unsold = unsold or not s.sold[r, good]
    if unsold and s.had_bid[r]:
        start_bidding_round(s, r)
    else:
        end_round(s, r)


# ---------------------------------------------------------------- Phases 5 and 6
@njit
def end_round(s, r):
    """Phases 5 and 6: the merchants move one junk clockwise, the figures and EXTRA cards
    are fresh again, the start player passes on; after round 10 the game ends."""
    for m in range(NUM_MERCHANTS):
        s.merchant_junk[r, m] = (s.merchant_junk[r, m] + 1) % NUM_JUNKS
    s.fig_used[r, :] = False
    s.extra_used[r, :] = False
    s.bid_round[r] = 0
    if s.round[r] >= NUM_ROUNDS:
        s.terminated[r] = True
        s.phase[r] = Phase.GAME_OVER
        s.revealed[r, :] = True  # final scoring shows the END cards (and all money)
    else:
        start_round(s, r)
