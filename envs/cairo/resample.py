"""Hidden-state resampling (design.md ``resample_hidden``; spec §6).

A seat knows the board, the display, the discard pile, every hand's size, the cards each
hand took face up from the display (``known``), and its own hand. What it cannot see is the
rest of the opponents' hands and the order of the draw pile: together they are the *unseen
pool*, whose composition the seat can work out (33 cards minus everything it sees). A
resample deals the pool afresh, uniformly, keeping every hand's size and known cards.
Money is derivable from the open play (§6), so it is kept, with ``reveal_money=False`` too.

Consistency with the acting seat's commitments: when an opponent of the seat is in the
middle of a build (it chose a stall, a cell, the three-card mode ...), a deal must still let
it finish what it began, which is the same as its decision having a legal action now (each
choice of a build is legal only if the cards can pay for the rest). Deals that leave it
none are rejected and dealt again, so the resample is uniform over the consistent deals;
the draw depends only on what the seat sees, never on the true hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.cairo.data import NUM_CARD_TYPES, NUM_CARDS
from envs.cairo.state import CairoState
from envs.core.rng import make_rng, random_bits

if TYPE_CHECKING:
    from envs.cairo.game import CairoGame

# Deals tried at once for a row whose first deal is inconsistent. A consistent deal needs at
# worst one given card of the pool (about 25 cards) in a one-card unknown hand: the chance
# that none of the tries finds it is below 1e-9.
RETRIES = 512
_SALT = 0x5EED


def resample_hidden(game: CairoGame, state: CairoState, player: int, seed: int) -> CairoState:
    """A copy of ``state`` with the unseen pool of ``player`` dealt afresh (module doc) and
    every row's random key redrawn (future chance).

    Raises:
        RuntimeError: no consistent deal was found for a row in ``1 + RETRIES`` tries
            (practically impossible, see ``RETRIES``).
    """
    num = state.batch_size
    seeds = np.arange(num, dtype=np.int64) + int(seed)
    out = state.copy()
    out.rng = make_rng(seeds)
    rows = np.arange(num)
    _deal(out, rows, player, make_rng(seeds + _SALT))
    game.refresh(out)
    acting = out.current_player
    check = np.flatnonzero(~out.done & (acting != player))
    if not check.size:
        return out
    bad = check[~game.legal_action_mask(out)[check].any(axis=1)]
    for row in bad.tolist():
        tries = out.take(np.full(RETRIES, row))
        first = (int(seed) * 7919 + row) * RETRIES % (1 << 62)  # any seed: int64 seeds
        retry_seeds = first + np.arange(RETRIES, dtype=np.int64)
        _deal(tries, np.arange(RETRIES), player, make_rng(retry_seeds + 2 * _SALT))
        game.refresh(tries)
        good = np.flatnonzero(game.legal_action_mask(tries).any(axis=1))
        if not good.size:
            raise RuntimeError(f"cairo: resample_hidden found no consistent deal for row {row} "
                               f"in {1 + RETRIES} tries")
        out.put(np.array([row]), tries.take(good[0]))
    game.refresh(out)
    return out


def _deal(state: CairoState, rows: np.ndarray, player: int, rng: np.ndarray) -> None:
    """Deal the unseen pool of ``player`` afresh in ``rows`` of ``state`` (in place), the
    shuffles drawn from ``rng`` (R, 2), a generator per row of ``rows``."""
    players = state.hand.shape[1]
    opponents = np.array([q for q in range(players) if q != player], dtype=np.intp)
    num = rows.size
    unknown = (state.hand[rows][:, opponents] - state.known[rows][:, opponents]).astype(np.int64)
    size = state.deck_size[rows].astype(np.int64)
    positions = np.arange(NUM_CARDS)
    in_deck = positions[None, :] < size[:, None]
    pool = unknown.sum(axis=1) + _counts(state.deck[rows], in_deck)  # (R, 15)
    # The pool as a sorted card list, then shuffled by random keys (invalid places last).
    ends = np.cumsum(pool, axis=1)
    cards = (positions[None, None, :] >= ends[:, :, None]).sum(axis=1)  # (R, 33)
    total = ends[:, -1]
    valid = positions[None, :] < total[:, None]
    keys = random_bits(rng, None, NUM_CARDS)
    keys[~valid] = np.iinfo(np.uint64).max
    shuffled = np.take_along_axis(cards, np.argsort(keys, axis=1, kind="stable"), axis=1)
    # Opponent k takes the next n_k cards, in seat order; the draw pile the rest.
    sizes = unknown.sum(axis=2)  # (R, O)
    starts = np.cumsum(sizes, axis=1) - sizes
    owner = np.full((num, NUM_CARDS), -1, dtype=np.int64)
    for k in range(opponents.size):
        mine = (positions[None, :] >= starts[:, k:k + 1]) & (
            positions[None, :] < starts[:, k:k + 1] + sizes[:, k:k + 1])
        owner[mine] = k
    hands = state.known[rows][:, opponents].astype(np.int64)
    dealt = owner >= 0
    r_idx = np.broadcast_to(np.arange(num)[:, None], owner.shape)
    np.add.at(hands, (r_idx[dealt], owner[dealt], shuffled[dealt]), 1)
    state.hand[rows[:, None], opponents[None, :]] = hands.astype(state.hand.dtype)
    # The draw pile: the cards after the hands' share, bottom first as stored.
    handed = sizes.sum(axis=1)
    deck = np.full((num, NUM_CARDS), -1, dtype=state.deck.dtype)
    take = positions[None, :] + handed[:, None]
    in_new_deck = positions[None, :] < size[:, None]
    deck[in_new_deck] = np.take_along_axis(shuffled, np.minimum(take, NUM_CARDS - 1),
                                           axis=1)[in_new_deck]
    state.deck[rows] = deck


def _counts(cards: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """(R, 15) counts of the card types of ``cards`` (R, N) where ``valid``."""
    onehot = (cards[:, :, None] == np.arange(NUM_CARD_TYPES)) & valid[:, :, None]
    return onehot.sum(axis=1)
