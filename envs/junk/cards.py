"""Special cards (§2.6, §5.2): searching a pile, taking a card from it, playing an EXTRA card.

Every card is tracked by id (``card_type``, ``card_loc``) beside the per-type counts the masks
and the observation read (``pile_cards``, ``held``, ``always``, ``discarded``); both change
together here. Searching a pile gives the searcher a new knowledge class for the cards in it
(``card_key``, the resampler's classes of §6, "Resampling", item 3): key ``1 + 16 q + k`` for
the searcher's k-th search of pile q, 0 for cards the seat has never seen, and ``TAKEN`` (-1)
for the card it picked after a search. A seat's memory of pile q (``seen``, what it left
there) is therefore the types of the cards whose key is that of its last search of q
(``pile_memories``): the resampler recounts the other seats' memories after it redraws the
types, and the invariants check them.
"""

from __future__ import annotations

import numpy as np

from envs.junk.data import NUM_ALWAYS, NUM_PILES, NUM_SPECIAL_TYPES
from envs.junk.state import LOC_DISCARDED, LOC_FACE_UP, LOC_HIDDEN, JunkState

_KEY_STRIDE = 16  # searches of one pile by one seat stay below it (2 events + 10 awards)
TAKEN = -1  # card_key of a card for the seat that picked it from a pile


def last_keys(searched: np.ndarray) -> np.ndarray:
    """(..., 4) the key of each seat's last search of each pile (of ``searched`` (..., 4);
    1 + 16 q where the seat never searched it, a key no card has)."""
    return 1 + _KEY_STRIDE * np.arange(NUM_PILES) + searched.astype(np.int64)


def pile_memories(state: JunkState) -> np.ndarray:
    """(B, P, 4, 21) int8 each seat's memory of each pile by its card keys: the cards that
    were in the pile after its last pick there (while it picks, what it found)."""
    keys = state.card_key[:, :, None, :] == last_keys(state.searched)[..., None]  # (B,P,4,30)
    onehot = state.card_type[..., None] == np.arange(NUM_SPECIAL_TYPES)  # (B, 30, 21)
    return np.matmul(keys.astype(np.int8), onehot[:, None].astype(np.int8))


def search(state: JunkState, rows: np.ndarray, seats: np.ndarray, piles: np.ndarray) -> None:
    """Seat ``seats[i]`` looks through pile ``piles[i]`` (the pile is shown to it alone)."""
    state.searched[rows, seats, piles] += 1
    key = 1 + _KEY_STRIDE * piles + state.searched[rows, seats, piles]
    in_pile = state.card_loc[rows] == piles[:, None]  # (R, 30)
    keys = state.card_key[rows, seats]  # (R, 30)
    state.card_key[rows, seats] = np.where(in_pile, key[:, None], keys)
    state.seen[rows, seats, piles] = state.pile_cards[rows, piles]
    state.revealed[rows, seats] = True


def take(state: JunkState, rows: np.ndarray, seats: np.ndarray, piles: np.ndarray,
         types: np.ndarray) -> None:
    """Seat ``seats[i]`` takes a card of type ``types[i]`` from pile ``piles[i]``: an ALWAYS
    card face up (public at once), any other face down. Every seat sees which of the two it
    was, so the step is marked as showing hidden information to all."""
    match = (state.card_loc[rows] == piles[:, None]) & (state.card_type[rows] == types[:, None])
    card = np.argmax(match, axis=1)
    face_up = types < NUM_ALWAYS
    state.card_loc[rows, card] = np.where(face_up, LOC_FACE_UP + seats, LOC_HIDDEN + seats)
    state.pile_cards[rows, piles, types] -= 1
    state.pile_size[rows, piles] -= 1
    up, down = face_up.nonzero()[0], (~face_up).nonzero()[0]
    state.always[rows[up], seats[up], types[up]] += 1
    state.held[rows[down], seats[down], types[down]] += 1
    state.hidden[rows[down], seats[down]] += 1
    state.taken[rows, seats, piles] += 1
    state.card_key[rows, seats, card] = TAKEN
    state.seen[rows, seats, piles] = state.pile_cards[rows, piles]
    state.revealed[rows] = True


def play_extra(state: JunkState, rows: np.ndarray, seats: np.ndarray,
               types: np.ndarray) -> None:
    """Seat ``seats[i]`` plays its face-down EXTRA card of type ``types[i]``: shown to all,
    then discarded face up; its EXTRA card of the round is used."""
    match = (state.card_loc[rows] == (LOC_HIDDEN + seats)[:, None]) & (
        state.card_type[rows] == types[:, None])
    card = np.argmax(match, axis=1)
    state.card_loc[rows, card] = LOC_DISCARDED
    state.held[rows, seats, types] -= 1
    state.hidden[rows, seats] -= 1
    state.discarded[rows, types] += 1
    state.extra_used[rows, seats] = True
    state.revealed[rows] = True
