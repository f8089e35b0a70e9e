"""Special cards (§2.6, §5.2), per row: searching a pile, taking a card from it, playing an
EXTRA card.

Every card is tracked by id (``card_type``, ``card_loc``) beside the per-type counts the masks
and the observation read (``pile_cards``, ``held``, ``always``, ``discarded``); both change
together here. Searching a pile gives the searcher a new knowledge class for the cards in it
(``card_key``, the resampler's classes of §6, "Resampling", item 3): key ``1 + 16 q + k`` for
the searcher's k-th search of pile q, 0 for cards the seat has never seen, and ``TAKEN`` (-1)
for the card it picked after a search. A seat's memory of pile q (``seen``, what it left
there) is therefore the types of the cards whose key is that of its last search of q
(``pile_memories``, NumPy over a batch): the resampler recounts the other seats' memories
after it redraws the types, and the invariants check them.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.junk.data import NUM_ALWAYS, NUM_PILES, NUM_SPECIAL_CARDS, NUM_SPECIAL_TYPES
from envs.junk.state import LOC_DISCARDED, LOC_FACE_UP, LOC_HIDDEN, JunkState

KEY_STRIDE = 16  # searches of one pile by one seat stay below it (2 events + 10 awards)
TAKEN = -1  # card_key of a card for the seat that picked it from a pile


@njit
def search(s, r, seat, pile):
    """Seat ``seat`` looks through pile ``pile`` (the pile is shown to it alone)."""
    s.searched[r, seat, pile] += 1
    key = 1 + KEY_STRIDE * pile + s.searched[r, seat, pile]
    loc, keys = s.card_loc[r], s.card_key[r, seat]
    for card in range(NUM_SPECIAL_CARDS):
        if loc[card] == pile:
            keys[card] = key
    for t in range(NUM_SPECIAL_TYPES):
        s.seen[r, seat, pile, t] = s.pile_cards[r, pile, t]
    s.revealed[r, seat] = True


@njit
def _card_at(s, r, where, kind):
    """The lowest card id of type ``kind`` at location ``where`` (§8: which is irrelevant)."""
    loc, types = s.card_loc[r], s.card_type[r]
    for card in range(NUM_SPECIAL_CARDS):
        if loc[card] == where and types[card] == kind:
            return card
    return 0


@njit
def take(s, r, seat, pile, kind):
    """Seat ``seat`` takes a card of type ``kind`` from pile ``pile``: an ALWAYS card face up
    (public at once), any other face down. Every seat sees which of the two it was, so the
    step is marked as showing hidden information to all."""
    card = _card_at(s, r, pile, kind)
    s.pile_cards[r, pile, kind] -= 1
    s.pile_size[r, pile] -= 1
    if kind < NUM_ALWAYS:
        s.card_loc[r, card] = LOC_FACE_UP + seat
        s.always[r, seat, kind] += 1
    else:
        s.card_loc[r, card] = LOC_HIDDEN + seat
        s.held[r, seat, kind] += 1
        s.hidden[r, seat] += 1
    s.taken[r, seat, pile] += 1
    s.card_key[r, seat, card] = TAKEN
    for t in range(NUM_SPECIAL_TYPES):
        s.seen[r, seat, pile, t] = s.pile_cards[r, pile, t]
    s.revealed[r, :] = True


@njit
def play_extra(s, r, seat, kind):
    """Seat ``seat`` plays its face-down EXTRA card of type ``kind``: shown to all, then
    discarded face up; its EXTRA card of the round is used."""
    card = _card_at(s, r, LOC_HIDDEN + seat, kind)
    s.card_loc[r, card] = LOC_DISCARDED
    s.held[r, seat, kind] -= 1
    s.hidden[r, seat] -= 1
    s.discarded[r, kind] += 1
    s.extra_used[r, seat] = True
    s.revealed[r, :] = True


# ---------------------------------------------------------------- memories (NumPy, batches)
def last_keys(searched: np.ndarray) -> np.ndarray:
    """(..., 4) the key of each seat's last search of each pile (of ``searched`` (..., 4);
    1 + 16 q where the seat never searched it, a key no card has)."""
    return 1 + KEY_STRIDE * np.arange(NUM_PILES) + searched.astype(np.int64)


def pile_memories(state: JunkState) -> np.ndarray:
    """(B, P, 4, 21) int8 each seat's memory of each pile by its card keys: the cards that
    were in the pile after its last pick there (while it picks, what it found)."""
    keys = state.card_key[:, :, None, :] == last_keys(state.searched)[..., None]  # (B,P,4,30)
    onehot = state.card_type[..., None] == np.arange(NUM_SPECIAL_TYPES)  # (B, 30, 21)
    return np.matmul(keys.astype(np.int8), onehot[:, None].astype(np.int8))
