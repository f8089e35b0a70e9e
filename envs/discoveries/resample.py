"""Hidden-state resampling from one seat's point of view (design.md ``resample_hidden``, §6).

Seat p sees the board, every public card and its own hand, flagship and task. What it cannot
see is redrawn uniformly over what the rules allow, as §6 describes:

1. contracts: p's unseen set (the deck and the other seats' hidden hand cards) is shuffled
   and dealt back, each other seat keeping its number of hidden cards, the rest the deck;
2. ship piles: the ships left in the piles are shuffled and dealt back, every pile keeping
   its size, and each unrevealed scoring card goes to a uniform place of its own pile;
3. flagships: every other seat whose flagship is face down gets one of the flagships p has
   not seen (neither revealed nor its own), without replacement;
4. tasks: the other seats get the other kinds of the player-count set, without replacement
   (kept once the game is over: the Final Scoring shows them).

Only step 3 can break a position: an opponent of p in the middle of a dispatch with a face-down
flagship may have no legal pick with the flagship drawn. Such rows draw step 3 again (from
what p sees alone, never from the true deal, which always passes, so this ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.rng import integers, make_rng, random_bits
from envs.discoveries.data import (
    FINAL_PILE,
    FIRST_PILE,
    NUM_CONTRACTS,
    NUM_FLAGSHIPS,
    NUM_TASK_KINDS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_END,
    PILE_START,
)
from envs.discoveries.state import PHASE, DiscoveriesState

if TYPE_CHECKING:
    from envs.discoveries.game import DiscoveriesGame

_SALT = 0x5EED_D15C
_TOP = np.iinfo(np.uint64).max
MAX_REDRAWS = 200  # flagship redraws of a row before giving up (each passes with p >= 1/5)


def resample_hidden(game: DiscoveriesGame, state: DiscoveriesState, player: int,
                    seed: int) -> DiscoveriesState:
    """A copy of ``state`` with what ``player`` cannot see redrawn (module doc) and every
    row's random key redrawn (future chance)."""
    num = state.batch_size
    seeds = np.arange(num, dtype=np.int64) + int(seed)
    out = state.copy()
    out.rng = make_rng(seeds)
    draw = make_rng(seeds + _SALT)
    _contracts(out, player, draw)
    _piles(out, draw)
    _tasks(out, player, draw)
    rows = np.arange(num)
    _flagships(out, player, rows, draw)
    game.refresh(out)  # the legal masks, from the compiled rules
    # Rows where the acting opponent's pick may now be impossible.
    acting = out.current_player
    seat = np.maximum(acting, 0)
    check = rows[~out.done & (acting != player) & (out.phase != PHASE.MAIN)
                 & ~out.flag_revealed[rows, seat]]
    for _ in range(MAX_REDRAWS):
        check = check[~out.legal_mask[check].any(axis=1)]
        if not check.size:
            break
        _flagships(out, player, check, draw)
        game.refresh(out)
    if check.size:
        raise RuntimeError(f"discoveries: resample_hidden found no consistent flagship deal "
                           f"for rows {check.tolist()} in {MAX_REDRAWS} draws")
    return out


def _shuffled(draw: np.ndarray, rows: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """(R, n) intp: the True positions of ``pool`` (R, n) in a uniform random order, then the
    others."""
    keys = random_bits(draw, rows, pool.shape[1])
    keys[~pool] = _TOP
    return np.argsort(keys, axis=1, kind="stable")


def _contracts(state: DiscoveriesState, player: int, draw: np.ndarray) -> None:
    num, players = state.coins.shape
    b = np.arange(num)[:, None]
    hand = state.hand.reshape(num, -1).astype(np.intp)  # (B, P * 4), seat by seat
    others = np.repeat(np.arange(players) != player, 4)
    hidden = (hand >= 0) & ~state.hand_public.reshape(num, -1) & others
    in_deck = np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None]
    pool = np.zeros((num, NUM_CONTRACTS + 1), dtype=bool)
    pool[b, np.where(in_deck, state.contracts, NUM_CONTRACTS)] = True
    pool[b, np.where(hidden, hand, NUM_CONTRACTS)] = True
    cards = _shuffled(draw, None, pool[:, :NUM_CONTRACTS]).astype(np.int8)  # (B, 24)
    dealt = np.cumsum(hidden, axis=1) - 1  # the k-th hidden slot takes the k-th card
    hand = np.where(hidden, cards[b, np.maximum(dealt, 0)], hand).astype(np.int8)
    state.hand[:] = hand.reshape(state.hand.shape)
    handed = hidden.sum(axis=1)[:, None]
    deck_rank = np.arange(NUM_CONTRACTS) - state.deck_pos[:, None]  # position in the deck
    take = np.clip(handed + deck_rank, 0, NUM_CONTRACTS - 1)
    state.contracts[:] = np.where(in_deck, cards[b, take], state.contracts)


def _piles(state: DiscoveriesState, draw: np.ndarray) -> None:
    num = state.batch_size
    b = np.arange(num)[:, None]
    where = np.arange(PILE_CARDS)
    pos = state.pile_pos.astype(np.int64)[:, None]
    left = where >= pos  # (B, 34)
    piles = state.piles.astype(np.intp)
    ships = left & (piles < NUM_TYPES)
    new = piles.copy()
    # The ships left as a sorted list (what the seat knows: their counts, not their order),
    # then a uniform order of that list, so the draw reads no hidden arrangement.
    known = np.sort(np.where(ships, piles, NUM_TYPES), axis=1)
    count = ships.sum(axis=1)[:, None]
    order = _shuffled(draw, None, where < count)
    scoring = np.zeros((num, PILE_CARDS), dtype=bool)
    for reveal, pile, card in ((state.first_reveal, FIRST_PILE, NUM_TYPES),
                               (state.final_reveal, FINAL_PILE, NUM_TYPES + 1)):
        start = np.maximum(pos[:, 0], int(PILE_START[pile]))
        size = np.maximum(int(PILE_END[pile]) - start, 1)
        inside = reveal < 0
        at = start + integers(draw, None, size)
        scoring[np.flatnonzero(inside), at[inside]] = True
        new[np.flatnonzero(inside), at[inside]] = card
    slots = left & ~scoring
    rank = np.cumsum(slots, axis=1) - 1
    new = np.where(slots, known[b, order[b, np.maximum(rank, 0)]], new)
    state.piles[:] = new.astype(np.int8)


def _tasks(state: DiscoveriesState, player: int, draw: np.ndarray) -> None:
    players = state.coins.shape[1]
    live = np.flatnonzero(~state.done)
    own = state.task[:, player].astype(np.intp)
    pool = np.arange(NUM_TASK_KINDS) != own[:, None]
    kinds = _shuffled(draw, None, pool)  # the other kinds first, in a random order
    others = [s for s in range(players) if s != player]
    state.task[live[:, None], others] = kinds[live, :len(others)].astype(np.int8)


def _flagships(state: DiscoveriesState, player: int, rows: np.ndarray,
               draw: np.ndarray) -> None:
    """Deal the face-down flagships of the seats other than ``player`` afresh in ``rows``."""
    if not rows.size:
        return
    num_players = state.coins.shape[1]
    ids = state.flag_id[rows].astype(np.intp)  # (R, P)
    revealed = state.flag_revealed[rows]
    onehot = ids[:, :, None] == np.arange(NUM_FLAGSHIPS)
    seen = (onehot & revealed[:, :, None]).any(axis=1) | onehot[:, player]
    order = _shuffled(draw, rows, ~seen)  # the unseen flagships first, shuffled
    hidden = ~revealed & (np.arange(num_players) != player)
    dealt = np.cumsum(hidden, axis=1) - 1
    r = np.arange(rows.size)[:, None]
    state.flag_id[rows] = np.where(hidden, order[r, np.maximum(dealt, 0)], ids).astype(np.int8)
