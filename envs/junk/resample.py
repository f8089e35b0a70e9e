"""Hidden-state resampling (design.md ``resample_hidden``; spec §6, "Resampling hidden
information").

What seat p cannot see, and how it is redrawn:

1. The other seats' goods: their initial cards are dealt again (per type they were dealt
   ``D - init[p][g]`` together, each seat 8), keeping every seat's public net flow, so hand
   sizes, stacks and flows stay; a deal must give each seat at least the cards its flow has
   proven (``-flow_min``). Several shuffles are tried at once and the first that keeps the
   bounds is taken; a row where none does places the lower bounds first and deals the rest
   at random. Neither ever looks at the true deal.
2. The other seats' committed bids: each is redrawn uniformly among the bids legal for its
   new hand (a seat with an empty hand keeps PASS_BID).
3. Special cards: the types of the cards in the piles and face down with other seats are
   permuted within p's knowledge classes (``card_key``: one class per search of a pile by p,
   one for everything p never saw), so every composition p saw, the cards taken since, and
   every public card stay; a card face down with another seat only receives an EXTRA or END
   type (an ALWAYS card would lie face up). The other seats' memories of the piles
   (``seen``) are then recounted from the new types (``cards.pile_memories``): each
   remembers the cards that are now where it looked, so no seat remembers a card its pile
   never held.
4. The unrevealed market cards are shuffled.
5. In the variable setup, while the merchants lie face down, they are permuted among their
   junks.

The draw depends only on what p knows: every pool is built from counts and sorted values p
can work out (its own deal, the public flows and bounds, the sorted types of each knowledge
class, the set of unrevealed market cards, the set of junks under the merchants), never from
the order in which the true state stores them; so any state p cannot tell from the true one
draws the same state for the same seed. Everything else is kept, and the rows get a fresh
random key (future chance). A finished game is kept whole: its final scoring showed every
END card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.rng import choice, make_rng, random_bits
from envs.junk.data import (
    HAND_START,
    NUM_GOODS,
    NUM_MARKET_CARDS,
    NUM_PILES,
    NUM_SPECIAL_CARDS,
    NUM_SPECIAL_TYPES,
    dealt_per_type,
)
from envs.junk.rules import cards, queries
from envs.junk.state import LOC_HIDDEN, A, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

TRIES = 8  # shuffles tried per row before the lower-bound deal
_LOW_BITS = np.uint64((1 << 40) - 1)


def resample_hidden(game: JunkGame, state: JunkState, player: int, seed: int) -> JunkState:
    """A copy of ``state`` with everything ``player`` cannot see redrawn (module doc)."""
    num = state.batch_size
    seeds = np.arange(num, dtype=np.int64) + int(seed)
    out = state.copy()
    out.rng = make_rng(seeds)

    def draws(salt: int, copies: int = 1) -> np.ndarray:
        """A generator per row (per copy of a row), apart from the rows' new keys."""
        return make_rng((np.repeat(seeds, copies) * copies + np.tile(np.arange(copies), num))
                        * 8 + salt + 1)

    others = np.array([s for s in range(game.num_players) if s != player], dtype=np.intp)
    _redeal_goods(game, out, player, others, draws(0, TRIES), draws(1))
    _redraw_bids(game, out, others, draws(2))
    _permute_cards(out, player, others, draws(3))
    _shuffle_market(out, draws(4))
    _permute_merchants(out, draws(5))
    over = np.flatnonzero(state.done)  # final scoring showed everything that matters
    if over.size:
        kept = state.take(over)
        kept.rng = out.rng[over]
        out.put(over, kept)
    game.refresh(out)
    return out


def _deal(counts: np.ndarray, caps: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """(R, O, 4): ``counts`` (R, 4) goods dealt at random to seats of capacities ``caps``
    (R, O) (equal totals), draws from ``rng`` (R, 2)."""
    num, seats = caps.shape
    size = seats * HAND_START
    place = np.arange(size)
    ends = np.cumsum(counts, axis=1)
    kind = (place[None, None, :] >= ends[:, :, None]).sum(axis=1)  # (R, size), 4 = none
    keys = random_bits(rng, None, size)
    keys[kind == NUM_GOODS] = np.iinfo(np.uint64).max  # no card: sorted last
    cards = np.take_along_axis(kind, np.argsort(keys, axis=1, kind="stable"), axis=1)
    bounds = np.cumsum(caps, axis=1)
    owner = (place[None, None, :] >= bounds[:, :, None]).sum(axis=1)  # (R, size)
    dealt = np.zeros((num, seats + 1, NUM_GOODS + 1), dtype=np.int64)
    np.add.at(dealt, (np.arange(num)[:, None], owner, cards), 1)
    return dealt[:, :seats, :NUM_GOODS]


def _redeal_goods(game: JunkGame, state: JunkState, player: int, others: np.ndarray,
                  tries_rng: np.ndarray, rng: np.ndarray) -> None:
    num = state.batch_size
    dealt = (state.hand - state.flow).astype(np.int64)  # (B, P, 4) the initial deal
    pool = dealt_per_type(game.num_players) - dealt[:, player]  # (B, 4) the others' cards
    low = -state.flow_min[:, others].astype(np.int64)  # (B, O, 4) proven holdings
    caps = np.full((num, others.size), HAND_START, dtype=np.int64)
    tries = _deal(np.repeat(pool, TRIES, axis=0), np.repeat(caps, TRIES, axis=0), tries_rng)
    tries = tries.reshape(num, TRIES, others.size, NUM_GOODS)
    ok = (tries >= low[:, None]).all(axis=(2, 3))  # (B, TRIES)
    new = tries[np.arange(num), np.argmax(ok, axis=1)]
    stuck = np.flatnonzero(~ok.any(axis=1))
    if stuck.size:  # the lower bounds first, the rest at random
        rest = _deal(pool[stuck] - low[stuck].sum(axis=1),
                     caps[stuck] - low[stuck].sum(axis=2), rng[stuck])
        new[stuck] = low[stuck] + rest
    state.hand[:, others] = (new + state.flow[:, others]).astype(np.int8)


def _redraw_bids(game: JunkGame, state: JunkState, others: np.ndarray,
                 rng: np.ndarray) -> None:
    """A committed bid of another seat: uniform over its new hand's legal bids (the BID
    decision's legal function)."""
    for seat in others.tolist():
        rows = np.flatnonzero(state.committed[:, seat])
        if rows.size:
            mask = queries.bid_masks(game, state, rows, np.full(rows.size, seat))
            state.pending[rows, seat] = choice(rng, rows, mask)


def _permute_cards(state: JunkState, player: int, others: np.ndarray,
                   rng: np.ndarray) -> None:
    """Special-card types permuted within the player's knowledge classes (module doc)."""
    loc = state.card_loc
    in_pile = loc < NUM_PILES
    face_down = (loc >= LOC_HIDDEN) & (loc < LOC_HIDDEN + 4) & (loc != LOC_HIDDEN + player)
    hidden = in_pile | face_down
    # Class of every card; each card the player knows is a class of its own.
    cls = np.where(hidden, state.card_key[:, player].astype(np.uint64),
                   np.uint64(128) + np.arange(NUM_SPECIAL_CARDS, dtype=np.uint64))
    # Within a class the pile places come first (in random order), then the face-down ones;
    # the class's types in sorted order (what the player can know of them), the ALWAYS types
    # (0..2) first: they land in piles.
    bits = random_bits(rng, None, NUM_SPECIAL_CARDS) & _LOW_BITS
    place_key = (cls << np.uint64(42)) | (face_down.astype(np.uint64) << np.uint64(41)) | bits
    type_key = (cls << np.uint64(42)) | state.card_type.astype(np.uint64)
    places = np.argsort(place_key, axis=1)
    types = np.sort(type_key, axis=1) & np.uint64(0xFF)
    new_type = np.empty_like(state.card_type)
    np.put_along_axis(new_type, places, types.astype(np.int8), axis=1)
    state.card_type[:] = new_type
    onehot = state.card_type[..., None] == np.arange(NUM_SPECIAL_TYPES)  # (B, 30, 21)
    state.pile_cards[:] = np.stack(
        [(onehot & (loc == q)[..., None]).sum(axis=1) for q in range(NUM_PILES)], axis=1)
    players = state.held.shape[1]
    state.held[:] = np.stack([(onehot & (loc == LOC_HIDDEN + s)[..., None]).sum(axis=1)
                              for s in range(players)], axis=1)
    state.seen[:, others] = cards.pile_memories(state)[:, others]


def _shuffle_market(state: JunkState, rng: np.ndarray) -> None:
    """The market cards not yet turned (a public set), in a new order behind the turned
    ones."""
    place = np.argsort(state.market_order, axis=1)  # each card's round - 1
    keys = random_bits(rng, None, NUM_MARKET_CARDS) | np.uint64(1 << 63)
    keys = np.where(state.unrevealed, keys, place.astype(np.uint64))  # turned cards in front
    state.market_order[:] = np.argsort(keys, axis=1)


def _permute_merchants(state: JunkState, rng: np.ndarray) -> None:
    """The three face-down merchants dealt at random onto the (public) junks they lie on."""
    rows = np.flatnonzero(state.merchants_hidden)
    if rows.size:
        order = np.argsort(random_bits(rng, rows, 3), axis=1)
        junks = np.sort(state.merchant_junk[rows], axis=1)
        state.merchant_junk[rows] = np.take_along_axis(junks, order, axis=1)


assert A.PASS_BID + 1 == A.BID
