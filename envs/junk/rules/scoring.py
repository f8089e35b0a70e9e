"""Final scoring (§7), per row: money, the END cards whose conditions hold, and the presence
bonus; the ranking on (score, goods cards left in hand).

``score_row`` applies the formula to the state as it stands, at any time (a game stopped by
the safety cap is ranked on it).
"""

from __future__ import annotations

from envs.core.jit import njit
from envs.junk.data import (
    ALL_PRESENCE_VALUE,
    BONUS8,
    BONUS8_NEED,
    BONUS8_VALUE,
    BONUS12,
    BONUS12_NEED_A,
    BONUS12_NEED_B,
    BONUS12_PAIRS,
    BONUS12_VALUE,
    NUM_JUNKS,
    PRESENCE_VALUE,
)


@njit
def presence_bonus(vis):
    """Presence bonus of one seat's visible crates ``vis`` (5,): 4 per junk with a visible
    own crate, 25 for all five (§7, §8 #35)."""
    present = 0
    for j in range(NUM_JUNKS):
        if vis[j] > 0:
            present += 1
    return ALL_PRESENCE_VALUE if present == NUM_JUNKS else PRESENCE_VALUE * present


@njit
def end_bonus(held, vis):
    """The END cards' bonuses of face-down cards ``held`` (21,) with one seat's visible
    crates ``vis`` (5,): every card whose condition holds now."""
    total = 0
    for j in range(NUM_JUNKS):
        if vis[j] >= BONUS8_NEED:
            total += BONUS8_VALUE * held[BONUS8 + j]
        if vis[BONUS12_PAIRS[j, 0]] >= BONUS12_NEED_A and vis[BONUS12_PAIRS[j, 1]] >= \
                BONUS12_NEED_B:
            total += BONUS12_VALUE * held[BONUS12 + j]
    return total


@njit
def seat_score(s, r, seat):
    """The score of §7 of one seat."""
    vis = s.vis[r, :, seat]
    return s.money[r, seat] + end_bonus(s.held[r, seat], vis) + presence_bonus(vis)


@njit
def score_row(s, r, out):
    """Every seat's score into ``out`` (P,) float64 (the driver's ``score_row``)."""
    for seat in range(out.shape[0]):
        out[seat] = seat_score(s, r, seat)


@njit
def ranking(s, r, keys):
    """§7: (score, goods cards left in hand) of every seat into ``keys`` (P, 2), compared in
    that order (the driver's ``ranking``)."""
    for seat in range(keys.shape[0]):
        keys[seat, 0] = seat_score(s, r, seat)
        keys[seat, 1] = s.hand_size[r, seat]
