"""Ship cards, per row: the draw pile, reshuffles, hands and displays (§2.3, §5.4, §5.8,
§5.9, §6.1).

Hands are per-company counts. Each hand is split into ``known`` cards (won at auction, so
public) and ``unknown`` ones (dealt or drawn face down), the latter by the *generation* of
the pile they came from: the first deal is generation 0 and every reshuffle starts the next
(§6.1). A generation lives in one of ``GENERATION_SLOTS`` slots while some hand or the draw
pile holds its cards; a reshuffle takes a free slot. A seat that displays a card gives up a
known card of that company first, then an unknown one of its oldest generation (§6.1 step 1).

Every function works on row ``r`` of ``s``, the kernels' view of the state.
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import CARDS_PER_COMPANY, NUM_CARDS, NUM_COMPANIES
from envs.batavia.state import GENERATION_SLOTS
from envs.core.jit import local_zeros, njit
from envs.core.rng import argsort_into, next_word

_OLDEST = np.iinfo(np.int16).max


@njit
def word32(s, r):
    """The row's next chance word, 32 random bits (§9.6)."""
    return next_word(s.rng, r) >> np.uint64(32)


@njit
def _pop(s, r, n, counts):
    """Take up to ``n`` <= 6 cards off the top of the pile, no reshuffle, adding their
    companies to ``counts`` (5,); returns how many were there."""
    size = s.deck_size[r]
    k = min(n, size)
    deck = s.deck[r]
    for j in range(k):
        place = size - 1 - j
        counts[deck[place]] += 1
        deck[place] = -1
    s.deck_size[r] = size - k
    return k


@njit
def reshuffle(s, r):
    """Chance (§5.9, §9.6): the discard pile, shuffled by 110 words, becomes the draw pile of
    a new generation. Only called when the draw pile is empty."""
    discard = s.discard[r]
    listed = local_zeros(NUM_CARDS, np.int8)
    size = 0
    for c in range(NUM_COMPANIES):
        for _ in range(discard[c]):
            listed[size] = c
            size += 1
    keys = local_zeros(NUM_CARDS, np.uint64)
    for j in range(NUM_CARDS):  # all 110 words are drawn, whatever the size
        keys[j] = word32(s, r)
    order = local_zeros(NUM_CARDS, np.int64)
    argsort_into(keys[:size], order)  # first: the top of the new pile
    deck = s.deck[r]
    for j in range(NUM_CARDS):
        deck[j] = listed[order[size - 1 - j]] if j < size else -1  # bottom first
    s.deck_size[r] = size
    discard[:] = 0
    _new_generation(s, r)


@njit
def _new_generation(s, r):
    """Give the new draw pile a free generation slot.

    A slot is free when no hand holds an unknown card of it (the old pile is empty). If all
    are taken, the two oldest generations are merged into one slot (the approximation the
    game docstring describes; it never changes a legal action or an observation).
    """
    unknown = s.unknown[r]
    gen_id = s.gen_id[r]
    slots = gen_id.shape[0]
    live = local_zeros(GENERATION_SLOTS, np.bool_)
    for g in range(slots):
        for p in range(unknown.shape[0]):
            for c in range(NUM_COMPANIES):
                if unknown[p, g, c] > 0:
                    live[g] = True
    if live.all():
        order = local_zeros(GENERATION_SLOTS, np.int64)
        argsort_into(gen_id, order)
        oldest, second = order[0], order[1]
        for p in range(unknown.shape[0]):
            for c in range(NUM_COMPANIES):
                unknown[p, second, c] += unknown[p, oldest, c]
                unknown[p, oldest, c] = 0
        live[oldest] = False
    slot = 0
    while live[slot]:  # the first free slot
        slot += 1
    s.generation[r] += 1
    gen_id[slot] = s.generation[r]
    s.pile_slot[r] = slot


@njit
def take_cards(s, r, n, first, second):
    """Take ``n`` <= 6 cards off the draw pile, reshuffling the discard pile once if the pile
    runs out and it holds cards; fewer when both are empty (§5.9, §8 #15). The counts taken
    before any reshuffle go to ``first`` (5,), those from a reshuffled pile to ``second``;
    returns the generation slot of ``first``'s cards (``s.pile_slot`` is ``second``'s)."""
    old_slot = s.pile_slot[r]
    got = _pop(s, r, n, first)
    if got < n and s.discard[r].sum() > 0:
        reshuffle(s, r)
        _pop(s, r, n - got, second)
    return old_slot


@njit
def draw_to_hand(s, r, seat, n):
    """``seat`` draws ``n`` cards face down (§5.3 DRAW); the drawer sees them."""
    first = local_zeros(NUM_COMPANIES, np.int8)
    second = local_zeros(NUM_COMPANIES, np.int8)
    old_slot = take_cards(s, r, n, first, second)
    new_slot = s.pile_slot[r]
    for c in range(NUM_COMPANIES):
        s.hand[r, seat, c] += first[c] + second[c]
        s.unknown[r, seat, old_slot, c] += first[c]
        s.unknown[r, seat, new_slot, c] += second[c]
    s.revealed[r, seat] = True


@njit
def hand_to_display(s, r, seat, company):
    """``seat`` displays one card of ``company`` (§5.4): hand, display, cube, cannon, the
    turn's count and the seal (a new strict majority takes it; reaching the top count of
    another seat sends it to the board)."""
    s.hand[r, seat, company] -= 1
    held = s.known[r, seat, company]
    if held > 0:
        s.known[r, seat, company] = held - 1
    else:  # the oldest generation's unknown card of that company
        unknown = s.unknown[r, seat]
        gen_id = s.gen_id[r]
        slot, age = 0, _OLDEST
        for g in range(gen_id.shape[0]):
            if unknown[g, company] > 0 and gen_id[g] < age:
                slot, age = g, gen_id[g]
        unknown[slot, company] -= 1
    shown = s.display[r, seat, company] + 1
    s.display[r, seat, company] = shown
    s.cubes[r, company] += 1
    s.played[r, company] += 1
    s.cannon[r] += 1
    top = s.top[r, company]
    if shown > top:
        s.seal[r, company] = seat
        s.top[r, company] = shown
    elif shown == top:
        s.seal[r, company] = -1


@njit
def recount_seals(s, r):
    """Cubes, cannon, top counts and seals of row ``r`` recomputed from the displays."""
    display = s.display[r]
    cannon = 0
    for c in range(NUM_COMPANIES):
        top, leader, leaders, cubes = 0, -1, 0, 0
        for p in range(display.shape[0]):
            shown = display[p, c]
            cubes += shown
            if shown > top:
                top, leader, leaders = shown, p, 1
            elif shown == top:
                leaders += 1
        s.top[r, c] = top
        s.seal[r, c] = leader if leaders == 1 and top > 0 else -1
        s.cubes[r, c] = cubes
        cannon += cubes
    s.cannon[r] = cannon


@njit
def hand_size(s, r, seat):
    """Cards in ``seat``'s hand (public, §6)."""
    size = 0
    for c in range(NUM_COMPANIES):
        size += s.hand[r, seat, c]
    return size


@njit
def public_hand(s, r, seat, out):
    """What every seat knows of ``seat``'s hand (§9.3, design.md's public bound) into
    ``out`` (5,): per company the most cards a hand consistent with the public record can
    hold, its known cards and as many of its face-down ones as the unseen pool allows."""
    size = hand_size(s, r, seat)
    known, cubes, discard, lot = s.known[r], s.cubes[r], s.discard[r], s.lot[r]
    free = size
    for c in range(NUM_COMPANIES):
        free -= known[seat, c]
    for c in range(NUM_COMPANIES):
        pool = CARDS_PER_COMPANY - cubes[c] - discard[c] - lot[c]
        for p in range(known.shape[0]):
            pool -= known[p, c]
        out[c] = known[seat, c] + min(free, pool)
