"""Phase 4 (§5.5): the goods auction, with secret bids committed in turn order.

Each bidding round asks every seat, from the start player on, one flat BID (PASS_BID or
``BID[g][n]``); a seat with an empty hand passes automatically. A commit writes the bid into
the seat's hidden ``pending`` register and sets its public ``committed`` flag, nothing else:
the cards stay in the hand and every count derived from the hands keeps its value. The step
of the last commit reveals every bid and resolves all four goods at once (WIN_TIES as owned
at the start of the resolution), writes the "last reveal" block, and goes on to the S award,
the next bidding round or the end of the round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.arrays import last_axis_sums, second_last_axis_sums
from envs.junk.data import LAST_ROUND_YUAN, MARKET_CARDS, NUM_GOODS, NUM_ROUNDS, WIN_TIES
from envs.junk.state import ACTIONS, MAX_BID, PHASE, A, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

_COUNTS = np.arange(1, MAX_BID + 1)  # n of BID[g][n]


def start_auction(game: JunkGame, state: JunkState, rows: np.ndarray) -> None:
    if not rows.size:
        return
    state.bid_round[rows] = 0
    _start_bidding_round(game, state, rows)


def _start_bidding_round(game: JunkGame, state: JunkState, rows: np.ndarray) -> None:
    if not rows.size:
        return
    state.bid_round[rows] += 1
    state.pos[rows] = 0
    state.phase[rows] = PHASE.BID
    state.current_player[rows] = game.seat_at(state, rows, 0)


def bid_mask(hand: np.ndarray, sold: np.ndarray) -> np.ndarray:
    """(R, A) bool: PASS_BID always; BID[g][n] iff g is unsold and n <= the cards of g in
    ``hand`` (R, 4): one comparison of the count range against the hand."""
    open_goods = np.where(sold, 0, hand)
    mask = np.zeros((hand.shape[0], ACTIONS.size), dtype=bool)
    mask[:, A.PASS_BID] = True
    mask[:, A.BID:A.BID + NUM_GOODS * MAX_BID] = (
        _COUNTS[None, None, :] <= open_goods[:, :, None]).reshape(hand.shape[0], -1)
    return mask


def legal_bid(state: JunkState, rows: np.ndarray) -> np.ndarray:
    return bid_mask(state.hand[rows, state.current_player[rows]], state.sold[rows])


def apply_bid(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    """Commit the bid; the last commit of the bidding round reveals and resolves."""
    seats = state.current_player[rows]
    state.pending[rows, seats] = actions
    state.committed[rows, seats] = True
    last = state.pos[rows] >= game.num_players - 1
    going = rows[~last]
    state.pos[going] += 1
    state.current_player[going] = game.seat_at(state, going, state.pos[going])
    if last.any():
        resolve(game, state, rows[last])


def bid_amounts(pending: np.ndarray) -> np.ndarray:
    """(R, P, 4) int: the cards of each good in each seat's bid action ``pending`` (R, P)."""
    is_bid = pending >= A.BID
    offset = np.where(is_bid, pending - A.BID, 0)
    goods, count = offset // MAX_BID, offset % MAX_BID + 1
    return np.where(is_bid[:, :, None] & (goods[:, :, None] == np.arange(NUM_GOODS)),
                    count[:, :, None], 0)


def resolve(game: JunkGame, state: JunkState, rows: np.ndarray) -> None:
    """The reveal: every good resolved simultaneously, bid cards back on the stacks."""
    players = game.num_players
    pending = state.pending[rows]
    amount = bid_amounts(pending)  # (R, P, 4)
    high = amount[:, 0]
    for seat in range(1, players):
        high = np.maximum(high, amount[:, seat])  # (R, 4)
    top = (amount == high[:, None, :]) & (high[:, None, :] >= 1)  # T of each good
    owns_ties = state.always[rows, :, WIN_TIES] > 0  # (R, P), before any award
    tie_winner = top & owns_ties[:, :, None]
    winners = np.where(tie_winner.any(axis=1, keepdims=True), tie_winner, top)
    count = second_last_axis_sums(winners)  # (R, 4)
    price = MARKET_CARDS[state.market_order[rows, state.round[rows] - 1]].astype(np.int64)
    share = np.where(count == 1, price, price // np.maximum(count, 1))  # §5.5: rounded down
    payout = last_axis_sums(winners * share[:, None, :].astype(np.int16))  # (R, P); S: 0
    state.money[rows] += payout.astype(np.int16)
    award = winners & ((price == 0) & (count == 1))[:, None, :]  # S good won alone
    has_award = award.any(axis=(1, 2))
    taker = np.argmax(award.any(axis=2), axis=1)
    sold_now = high >= 1
    state.sold[rows] |= sold_now
    # Every bid card, the winners' and the losers', goes back onto its stack.
    game.give_back(state, rows, slice(None), amount)
    state.lr_round[rows] = state.round[rows]
    state.lr_bid_round[rows] = state.bid_round[rows]
    state.lr_bid[rows] = pending
    state.lr_payout[rows] = payout
    state.lr_sold[rows] = sold_now
    state.lr_taker[rows] = np.where(has_award, taker, -1)
    state.lr_pile[rows] = -1
    state.lr_yuan[rows] = False
    state.had_bid[rows] = sold_now.any(axis=1)
    state.pending[rows] = -1
    state.committed[rows] = False
    state.revealed[rows] = True
    # The S award: a pile (rounds 1-9, if one is left) or, in round 10, a pile or 3 Yuan.
    piles_left = (state.pile_size[rows] > 0).any(axis=1)
    asked = has_award & (piles_left | (state.round[rows] == NUM_ROUNDS))
    award_rows = rows[asked]
    state.phase[award_rows] = PHASE.AWARD_PILE
    state.current_player[award_rows] = taker[asked]
    after_bidding_round(game, state, rows[~asked])


def after_bidding_round(game: JunkGame, state: JunkState, rows: np.ndarray) -> None:
    """§5.5: another bidding round iff a good is unsold and this one had a valid bid."""
    if not rows.size:
        return
    again = (~state.sold[rows]).any(axis=1) & state.had_bid[rows]
    _start_bidding_round(game, state, rows[again])
    game.end_round(state, rows[~again])


def legal_award(state: JunkState, rows: np.ndarray) -> np.ndarray:
    mask = ACTIONS.block_mask(ACTIONS.PILE, state.pile_size[rows] > 0)
    mask[:, A.TAKE_3_YUAN] = state.round[rows] == NUM_ROUNDS
    return mask


def forced_award(state: JunkState, rows: np.ndarray) -> np.ndarray:
    """Rounds 1-9: one pile left; round 10: no pile left (only the 3 Yuan)."""
    piles = (state.pile_size[rows] > 0).sum(axis=1)
    return np.where(state.round[rows] == NUM_ROUNDS, piles == 0, piles == 1)


def apply_award(game: JunkGame, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
    yuan = actions == A.TAKE_3_YUAN
    cash = rows[yuan]
    seats = state.current_player[cash]
    state.money[cash, seats] += LAST_ROUND_YUAN
    state.lr_payout[cash, seats] += LAST_ROUND_YUAN
    state.lr_yuan[cash] = True
    after_bidding_round(game, state, cash)
    pick = rows[~yuan]
    piles = actions[~yuan] - A.PILE
    state.lr_pile[pick] = piles
    game.enter_pick(state, pick, piles, award=True)
