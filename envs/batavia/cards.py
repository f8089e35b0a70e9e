"""Ship cards: the draw pile, reshuffles, hands and displays (§2.3, §5.4, §5.8, §5.9, §6.1).

Hands are per-company counts. Each hand is split into ``known`` cards (won at auction, so
public) and ``unknown`` ones (dealt or drawn face down), the latter by the *generation* of
the pile they came from: the first deal is generation 0 and every reshuffle starts the next
(§6.1). A generation lives in one of ``GENERATION_SLOTS`` slots while some hand or the draw
pile holds its cards; a reshuffle takes a free slot. A seat that displays a card gives up a
known card of that company first, then an unknown one of its oldest generation (§6.1 step 1).

Every function works on an index array of rows (any number of them) and the seat acting in
each.
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import CARDS_PER_COMPANY, DIE_FACES, NUM_CARDS, NUM_COMPANIES
from envs.batavia.state import BataviaState
from envs.core.rng import random_bits

MAX_TAKE = DIE_FACES  # the most cards one event takes off the pile (a flip of d <= 6)
_COMPANIES = np.arange(NUM_COMPANIES)
_TAKE = np.arange(MAX_TAKE)
_POSITIONS = np.arange(NUM_CARDS)
_NO_WORD = np.uint64(1 << 33)  # above every 32-bit word: unused places sort last
_OLDEST = np.iinfo(np.int16).max
_SLOT_STRIDE = np.arange(64) * NUM_COMPANIES  # a slot's step in a (..., G, 5) array


def words32(state: BataviaState, rows: np.ndarray, n: int) -> np.ndarray:
    """(R, n) uint64: the next ``n`` chance words of each row, 32 random bits each (§9.6)."""
    return random_bits(state.rng, rows, n) >> np.uint64(32)


def company_counts(cards: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """(R, 5) int8 counts of the companies in ``cards`` (R, n) where ``valid`` (R, n)."""
    onehot = (cards[:, :, None] == _COMPANIES) & valid[:, :, None]
    return onehot.sum(axis=1, dtype=np.int8)


def _pop(state: BataviaState, rows: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Take up to ``n`` (R,) <= 6 cards off the top of each pile, no reshuffle: their
    per-company counts (R, 5) and how many were there (R,)."""
    size = state.deck_size[rows].astype(np.intp)
    k = np.minimum(n, size)
    place = size[:, None] - 1 - _TAKE
    valid = k[:, None] > _TAKE
    place = np.where(valid, place, 0)
    cards = state.deck[rows[:, None], place]
    r, j = np.nonzero(valid)
    state.deck[rows[r], place[r, j]] = -1
    state.deck_size[rows] = size - k
    return company_counts(cards, valid), k


def reshuffle(state: BataviaState, rows: np.ndarray) -> None:
    """Chance (§5.9, §9.6): the discard pile, shuffled by 110 words, becomes the draw pile of
    a new generation. Only called on rows whose draw pile is empty."""
    counts = state.discard[rows].astype(np.int64)
    ends = np.cumsum(counts, axis=1)  # (R, 5)
    listed = (_POSITIONS[None, None, :] >= ends[:, :, None]).sum(axis=1)  # (R, 110) companies
    size = ends[:, -1]
    valid = _POSITIONS[None, :] < size[:, None]
    keys = np.where(valid, words32(state, rows, NUM_CARDS), _NO_WORD)
    order = np.argsort(keys, axis=1, kind="stable")  # first = the top of the new pile
    shuffled = np.take_along_axis(listed, order, axis=1)
    # Stored bottom first: place j holds the card (size - 1 - j) of the sorted order.
    back = np.clip(size[:, None] - 1 - _POSITIONS[None, :], 0, NUM_CARDS - 1)
    state.deck[rows] = np.where(valid, np.take_along_axis(shuffled, back, axis=1), -1)
    state.deck_size[rows] = size
    state.discard[rows] = 0
    _new_generation(state, rows)


def _new_generation(state: BataviaState, rows: np.ndarray) -> None:
    """Give the new draw pile of ``rows`` a free generation slot.

    A slot is free when no hand holds an unknown card of it (the old pile is empty). If all
    are taken, the two oldest generations are merged into one slot (the approximation the
    game docstring describes; it never changes a legal action or an observation).
    """
    live = state.unknown[rows].sum(axis=(1, 3)) > 0  # (R, G)
    full = live.all(axis=1)
    if full.any():
        merge = rows[full]
        order = np.argsort(state.gen_id[merge], axis=1, kind="stable")
        oldest, second = order[:, 0], order[:, 1]
        state.unknown[merge, :, second] += state.unknown[merge, :, oldest]
        state.unknown[merge, :, oldest] = 0
        live[full, oldest] = False
    slot = np.argmax(~live, axis=1)
    state.generation[rows] += 1
    state.gen_id[rows, slot] = state.generation[rows]
    state.pile_slot[rows] = slot


def take_cards(state: BataviaState, rows: np.ndarray, n: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Take ``n`` (R,) <= 6 cards off the draw pile, reshuffling the discard pile once if the
    pile runs out and it holds cards; fewer when both are empty (§5.9, §8 #15).

    Returns:
        the counts (R, 5) taken before any reshuffle and their generation slot (R,), and the
        counts (R, 5) taken from a reshuffled pile and its slot (R,) (zeros without one).
    """
    old_slot = state.pile_slot[rows].copy()
    first, got = _pop(state, rows, n)
    second = np.zeros_like(first)
    short = np.flatnonzero((got < n) & (state.discard[rows].sum(axis=1) > 0))
    if short.size:
        again = rows[short]
        reshuffle(state, again)
        second[short], _ = _pop(state, again, n[short] - got[short])
    return first, old_slot, second, state.pile_slot[rows]


def draw_to_hand(state: BataviaState, rows: np.ndarray, seat: np.ndarray, n: int) -> None:
    """``seat`` (R,) draws ``n`` cards face down (§5.3 DRAW); the drawer sees them."""
    first, old_slot, second, new_slot = take_cards(state, rows, np.full(rows.size, n))
    state.hand[rows, seat] += first + second
    state.unknown[rows, seat, old_slot] += first
    state.unknown[rows, seat, new_slot] += second
    state.revealed[rows, seat] = True


def flat(array: np.ndarray) -> np.ndarray:
    """A 1-D view of a state array (one-dimensional fancy indexing costs a fraction of the
    multi-dimensional kind at small batches); raises if the array is not contiguous."""
    view = array.view()
    view.shape = (array.size,)  # AttributeError where only a copy could reshape it
    return view


def hand_to_display(state: BataviaState, rows: np.ndarray, seat: np.ndarray,
                    company: np.ndarray) -> None:
    """``seat`` (R,) displays one card of ``company`` (R,) (§5.4): hand, display, cube,
    cannon, the turn's count and the seal (a new strict majority takes it; reaching the top
    count of another seat sends it to the board)."""
    players = state.hand.shape[1]
    card = (rows * players + seat) * NUM_COMPANIES + company  # into (B, P, 5)
    column = rows * NUM_COMPANIES + company  # into (B, 5)
    flat(state.hand)[card] -= 1
    known = flat(state.known)
    held = known[card]
    known[card] = np.maximum(held - 1, 0)
    hidden = np.flatnonzero(held == 0)
    if hidden.size:  # the oldest generation's unknown card of that company
        slots = state.unknown.shape[2]
        first = card[hidden] + (card[hidden] - company[hidden]) * (slots - 1)  # slot 0
        cells = first[:, None] + _SLOT_STRIDE[:slots]  # (H, G) into (B, P, G, 5)
        unknown = flat(state.unknown)
        ages = flat(state.gen_id)[rows[hidden, None] * slots + np.arange(slots)]
        slot = np.argmin(np.where(unknown[cells] > 0, ages, _OLDEST), axis=1)
        unknown[first + slot * NUM_COMPANIES] -= 1
    display = flat(state.display)
    shown = display[card] + 1
    display[card] = shown
    flat(state.cubes)[column] += 1
    flat(state.played)[column] += 1
    state.cannon[rows] += 1
    top_flat, seal_flat = flat(state.top), flat(state.seal)
    top = top_flat[column]
    seal_flat[column] = np.where(shown > top, seat, np.where(shown == top, -1, seal_flat[column]))
    top_flat[column] = np.maximum(top, shown)


def recount_seals(state: BataviaState, rows: np.ndarray) -> None:
    """Cubes, cannon, top counts and seals of ``rows`` recomputed from the displays."""
    display = state.display[rows]
    top = display.max(axis=1)
    leaders = display == top[:, None, :]
    sole = (leaders.sum(axis=1) == 1) & (top > 0)
    state.top[rows] = top
    state.seal[rows] = np.where(sole, np.argmax(leaders, axis=1), -1)
    state.cubes[rows] = display.sum(axis=1)
    state.cannon[rows] = state.cubes[rows].sum(axis=1)


def seat_rows(array: np.ndarray) -> np.ndarray:
    """A (B, P, 5) state array as (B·P, 5): row ``b·P + p`` is seat p of game b."""
    view = array.view()
    view.shape = (array.size // NUM_COMPANIES, NUM_COMPANIES)  # never a copy (see flat)
    return view


def hand_bounds(state: BataviaState, rows: np.ndarray, seat: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """The public record's view of ``seat``'s hand (§9.3): its size (R,) and ``Hmax``
    (R, 5), the most company-c cards a hand consistent with the record can hold."""
    seat_row = rows * state.hand.shape[1] + seat
    own_known = seat_rows(state.known)[seat_row]
    size = seat_rows(state.hand)[seat_row].sum(axis=1)  # hand sizes are public
    pool = (CARDS_PER_COMPANY - state.cubes[rows] - state.discard[rows] - state.lot[rows]
            - state.known[rows].sum(axis=1))
    free = size - own_known.sum(axis=1)
    return size, own_known + np.minimum(free[:, None], pool)
