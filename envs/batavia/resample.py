"""Hidden-state resampling (design.md ``resample_hidden``; spec §6.1).

What seat o cannot see: the face-down cards of the other hands, the draw pile's order and
content, and the face-down tiles. The resample keeps everything else:

1. **Cards**, per generation (``cards.py``): for each generation slot, the unknown cards
   the other seats hold of it, with the draw pile when it is the pile's generation, are
   shuffled and dealt back, each seat getting as many of that generation as it gave and the
   pile its size. Hand sizes, known cards, per-company totals and every display stay.
2. **The acting seat in the middle of a play** (q ≠ o in PLAYING) must still be able to
   finish it (§6.1 step 2): its new hand must keep ``potential`` in an eligible company
   (``rules.legal.playable``). A row whose deal fails is dealt again, 64 times at once; if
   every try fails, one of the companies whose requirement the generation pools can meet
   is picked at random, q is dealt the cards it needs first, and the rest is dealt as in 1.
3. **Tiles** (standard variant): each company's face-down tiles, taken in the order of
   their ids, are dealt to the face-down blocks in a random order, then each face-down
   block is shuffled over its 5 spaces.
4. **Chance**: every row gets a fresh key from ``seed`` (future dice and reshuffles).

Every draw depends only on what o sees (the pools, the quotas, public counts), never on the
true hidden cards, and the true state is never returned as a fallback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.batavia.data import BLOCK, NUM_BLOCKS, NUM_CARDS, NUM_COMPANIES, NUM_SPACES, TILE_COMPANY
from envs.batavia.rules import queries
from envs.batavia.state import GENERATION_SLOTS, BataviaState, Phase
from envs.core.rng import make_rng, random_bits

if TYPE_CHECKING:
    from envs.batavia.game import BataviaGame

RETRIES = 64  # §6.1 step 2
_SALT = 0x5EED
_POSITIONS = np.arange(NUM_CARDS)
_CODES = GENERATION_SLOTS * NUM_COMPANIES  # a card's (slot, company) code; this one: none
_SPACE_NUMBERS = np.arange(1, NUM_SPACES + 1, dtype=np.int8)


def resample_hidden(game: BataviaGame, state: BataviaState, player: int, seed: int
                    ) -> BataviaState:
    """A copy of ``state`` with what ``player`` cannot see redrawn (module doc)."""
    num = state.batch_size
    seeds = np.arange(num, dtype=np.int64) + int(seed)
    out = state.copy()
    out.rng = make_rng(seeds)
    draw = make_rng(seeds + _SALT)
    rows = np.arange(num)
    others = np.array([q for q in range(game.num_players) if q != player], dtype=np.intp)
    _deal(out, rows, others, draw)
    if game.options["variant"] == "standard":
        _shuffle_tiles(out, rows[out.open < NUM_SPACES], draw)
    game.refresh(out)
    _keep_play_possible(game, out, player, others, seeds)
    game.refresh(out)
    return out


def _pools(state: BataviaState, rows: np.ndarray, others: np.ndarray) -> tuple[np.ndarray, ...]:
    """The quotas (R, O, G) of each other seat's unknown cards per generation slot and the
    pools (R, G, 5) of the cards to deal: the others' unknown cards, the draw pile in its
    slot."""
    unknown = state.unknown[rows][:, others].astype(np.int64)  # (R, O, G, 5)
    size = state.deck_size[rows].astype(np.intp)
    in_pile = size[:, None] > _POSITIONS
    pile = ((state.deck[rows][:, :, None] == np.arange(NUM_COMPANIES)) & in_pile[:, :, None]
            ).sum(axis=1)
    pools = unknown.sum(axis=1)
    pools[np.arange(rows.size), state.pile_slot[rows]] += pile
    return unknown.sum(axis=3), pools


def _deal(state: BataviaState, rows: np.ndarray, others: np.ndarray, rng: np.ndarray,
          fixed: np.ndarray | None = None) -> None:
    """§6.1 step 1 in ``rows`` (in place): per slot, the pool shuffled and dealt back to the
    other seats ``others`` (O,) by their quotas, the rest to the draw pile. ``fixed``
    (R, O, G, 5) are cards given beforehand (step 2's construction), out of pool and quota.
    The shuffles draw from ``rng`` (a per-row generator of the whole batch)."""
    num = rows.size
    quotas, pools = _pools(state, rows, others)
    if fixed is not None:
        quotas = quotas - fixed.sum(axis=3)
        pools = pools - fixed.sum(axis=1)
    flat = pools.reshape(num, _CODES)
    ends = np.cumsum(flat, axis=1)
    total = ends[:, -1]
    # The pool as a list sorted by (slot, company): one searchsorted over all rows at once.
    stride = NUM_CARDS + 1
    base = np.arange(num)[:, None] * stride
    code = np.searchsorted((ends + base).ravel(), (_POSITIONS + base).ravel(), side="right")
    code = code.reshape(num, NUM_CARDS) - np.arange(num)[:, None] * _CODES
    valid = total[:, None] > _POSITIONS
    code = np.where(valid, code, _CODES)
    slot = code // NUM_COMPANIES
    keys = (slot.astype(np.uint64) << np.uint64(33)) | (
        random_bits(rng, rows, NUM_CARDS) >> np.uint64(32))
    order = np.argsort(keys, axis=1, kind="stable")
    code, slot = np.take_along_axis(code, order, 1), np.take_along_axis(slot, order, 1)
    # Within its slot, the card's rank decides its owner: the others by quota, then the pile.
    sizes = pools.sum(axis=2)  # (R, G)
    starts = np.cumsum(sizes, axis=1) - sizes
    rank = _POSITIONS - np.take_along_axis(np.concatenate(
        [starts, np.zeros((num, 1), dtype=starts.dtype)], axis=1), slot, axis=1)
    bounds = np.cumsum(quotas, axis=1)  # (R, O, G)
    bounds = np.concatenate([bounds, np.zeros((num, others.size, 1), bounds.dtype)],
                            axis=2)  # slot index G: the invalid places
    per_card = np.take_along_axis(bounds, np.minimum(slot, GENERATION_SLOTS)[:, None, :]
                                  .repeat(others.size, axis=1), axis=2)  # (R, O, 110)
    owner = (rank[:, None, :] >= per_card).sum(axis=1)  # 0..O-1 a seat, O the pile
    company = code % NUM_COMPANIES
    dealt = valid & (owner < others.size)
    new = np.zeros((num, others.size, GENERATION_SLOTS, NUM_COMPANIES), dtype=np.int64)
    r, k = np.nonzero(dealt)
    np.add.at(new, (r, owner[r, k], slot[r, k], company[r, k]), 1)
    if fixed is not None:
        new += fixed
    state.unknown[rows[:, None], others] = new
    state.hand[rows[:, None], others] = state.known[rows[:, None], others] + new.sum(axis=2)
    to_pile = valid & (owner == others.size)
    place = np.cumsum(to_pile, axis=1) - 1
    deck = np.full((num, NUM_CARDS), -1, dtype=np.int8)
    r, k = np.nonzero(to_pile)
    deck[r, place[r, k]] = company[r, k]
    state.deck[rows] = deck


def _shuffle_tiles(state: BataviaState, rows: np.ndarray, rng: np.ndarray) -> None:
    """§6.1 step 3 in ``rows`` (standard variant, some blocks face down)."""
    if not rows.size:
        return
    num = rows.size
    route = state.route[rows].reshape(num, NUM_BLOCKS, BLOCK)
    down = (np.arange(NUM_BLOCKS) * BLOCK)[None, :] >= state.open[rows, None]  # (R, 7)
    company = TILE_COMPANY[np.maximum(route, 0)]
    by_company = np.take_along_axis(route, np.argsort(company, axis=2, kind="stable"), axis=2)
    # Each company's face-down tiles in a canonical order (by tile id) first, so the draw
    # depends only on which tiles are face down, not on where they lie.
    canon = np.where(down[:, :, None], (1 << 40) + by_company.astype(np.int64),
                     np.arange(NUM_BLOCKS)[:, None])
    by_company = np.take_along_axis(by_company, np.argsort(canon, axis=1, kind="stable"),
                                    axis=1)
    words = (random_bits(rng, rows, 2 * NUM_SPACES) >> np.uint64(32)).reshape(
        num, 2, NUM_BLOCKS, BLOCK).astype(np.int64)
    # Per company, the face-down blocks in a random order; the face-up blocks stay first.
    keys = np.where(down[:, :, None], (1 << 40) + words[:, 0], np.arange(NUM_BLOCKS)[:, None])
    moved = np.take_along_axis(by_company, np.argsort(keys, axis=1, kind="stable"), axis=1)
    laid = np.take_along_axis(moved, np.argsort(words[:, 1], axis=2, kind="stable"), axis=2)
    new_route = np.where(down[:, :, None], laid, route).reshape(num, NUM_SPACES)
    state.route[rows] = new_route
    r, s = np.nonzero(np.repeat(down, BLOCK, axis=1))
    state.tile_space[rows[r], new_route[r, s]] = _SPACE_NUMBERS[s]
    state.remaining[rows] = queries.route_words(new_route)


def _keep_play_possible(game: BataviaGame, state: BataviaState, player: int,
                        others: np.ndarray, seeds: np.ndarray) -> None:
    """§6.1 step 2: rows where another seat is in the middle of a play it could no longer
    finish are dealt again (``RETRIES`` tries at once), else built to let it finish."""
    playing = np.flatnonzero(~state.done & (state.phase == Phase.PLAYING)
                             & (state.current_player != player))
    bad = playing[~queries.playable(game, state, playing)]
    if not bad.size:
        return
    found = np.zeros(bad.size, dtype=bool)
    if RETRIES:
        tries = state.take(np.repeat(bad, RETRIES))
        index = np.arange(tries.batch_size)
        _deal(tries, index, others, make_rng(np.repeat(seeds[bad], RETRIES) * RETRIES
                                             + np.tile(np.arange(RETRIES), bad.size)
                                             + 2 * _SALT))
        game.refresh(tries)
        good = queries.playable(game, tries, index).reshape(bad.size, RETRIES)
        found = good.any(axis=1)
        state.put(bad[found], tries.take(np.flatnonzero(found) * RETRIES
                                         + np.argmax(good[found], axis=1)))
    if not found.all():
        _build_playable(game, state, bad[~found], others, make_rng(seeds + 3 * _SALT))


def _build_playable(game: BataviaGame, state: BataviaState, rows: np.ndarray,
                    others: np.ndarray, rng: np.ndarray) -> None:
    """§6.1 step 2's construction: the acting seat q gets the cards of one company it can
    still be given (picked at random among them) first, the rest is dealt as usual."""
    num = rows.size
    quotas, pools = _pools(state, rows, others)
    seat = state.current_player[rows]
    k = np.argmax(others[None, :] == seat[:, None], axis=1)  # q's index among the others
    quota = quotas[np.arange(num), k]  # (R, G)
    capacity = np.minimum(quota[:, :, None], pools).sum(axis=1)  # (R, 5) c-cards q can get
    # The fewest c-cards beside its known ones that let q play in company c (the rule's own
    # ``can_play``, each company's answer reading only its own count), where q can get them.
    known = state.known[rows, seat].astype(np.int64)
    need = np.full((num, NUM_COMPANIES), np.iinfo(np.int64).max)
    for extra in range(int(capacity.max(initial=0)), -1, -1):
        able = queries.can_play(game, state, rows, seat, known + extra)
        need = np.where(able & (extra <= capacity), extra, need)
    feasible = need <= capacity
    pick = (random_bits(rng, rows, 1)[:, 0] >> np.uint64(32)).astype(np.int64)
    count = feasible.sum(axis=1)
    choice = np.argmax(np.cumsum(feasible, axis=1) > (pick % np.maximum(count, 1))[:, None],
                       axis=1)
    fixed = np.zeros((num, others.size, GENERATION_SLOTS, NUM_COMPANIES), dtype=np.int64)
    left = np.where(feasible.any(axis=1), need[np.arange(num), choice], 0)
    order = np.argsort(state.gen_id[rows], axis=1, kind="stable")
    for j in range(GENERATION_SLOTS):  # oldest generations first
        g = order[:, j]
        give = np.clip(np.minimum(quota[np.arange(num), g],
                                  pools[np.arange(num), g, choice]), 0, np.maximum(left, 0))
        fixed[np.arange(num), k, g, choice] = give
        left -= give
    _deal(state, rows, others, rng, fixed)
