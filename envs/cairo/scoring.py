"""VP, medals, payouts, the end trigger and final scoring (§5.4–§5.7, §7)."""

from __future__ import annotations

import numpy as np

from envs.cairo.data import GOLD, MEDAL_VP, MONEY_PER_COLOUR, SILVER
from envs.cairo.state import CairoState, View
from envs.core.arrays import last_axis_sums, second_last_axis_sums
from envs.core.jit import njit

COIN_SET = 3  # 1 VP per 3 money left at the end (§7.2)


def tray(state: CairoState, idx: np.ndarray | None = None) -> np.ndarray:
    """(B, 6) money left in each colour's tray (the bank, §2.2); (R, 6) of rows ``idx``."""
    money = state.money if idx is None else state.money[idx]
    return MONEY_PER_COLOUR - second_last_axis_sums(money)


@njit
def tray_left(s: View, r: int, colour: int) -> int:
    """Money left in ``colour``'s tray (the bank, §2.2) in row ``r`` of the view ``s``: the
    colour's money that no seat holds."""
    held = 0
    for seat in range(s.money.shape[1]):
        held += s.money[r, seat, colour]
    return MONEY_PER_COLOUR - held


def award_expansion(state: CairoState, idx: np.ndarray, seat: np.ndarray,
                    colour: np.ndarray) -> None:
    """Score an expansion that just grew ``seat``'s ``colour`` group: its size, then medals.

    §5.4 effect 2 and §5.5: a sole largest group takes gold and silver, a tie for the largest
    takes the silver; only medals gained now score at once.

    Args:
        state: the batch, changed in place.
        idx: (R,) row indices.
        seat: (R,) expanding seat.
        colour: (R,) expanded colour.
    """
    num_players = state.vp.shape[1]
    size = state.group_size[idx, seat, colour].astype(np.int32)
    sizes = state.group_size[idx, :num_players, colour].astype(np.int32)  # neutral excluded
    sizes[np.arange(len(idx)), seat] = -1
    largest_other = sizes.max(axis=1)
    holders = state.medal[idx, colour]  # (R, 2)
    takes_gold = size > largest_other
    takes_silver = size >= largest_other
    gained_gold = takes_gold & (holders[:, GOLD] != seat)
    gained_silver = takes_silver & (holders[:, SILVER] != seat)
    state.medal[idx[gained_gold], colour[gained_gold], GOLD] = seat[gained_gold]
    state.medal[idx[gained_silver], colour[gained_silver], SILVER] = seat[gained_silver]
    state.vp[idx, seat] += (
        size + MEDAL_VP[GOLD] * gained_gold + MEDAL_VP[SILVER] * gained_silver
    )


def end_triggered(supply: np.ndarray) -> np.ndarray:
    """(R,) bool: §7.1, some colour has 0 expansions left or at least two have exactly 1."""
    return (last_axis_sums(supply == 0) > 0) | (last_axis_sums(supply == 1) >= 2)


def pay_lure(state: CairoState, idx: np.ndarray, seat: np.ndarray, colour: np.ndarray,
             owner: np.ndarray) -> None:
    """§5.7 payout in the customer's colour; a short tray pays the active seat first (R18).

    Args:
        state: the batch, changed in place.
        idx: (R,) row indices.
        seat: (R,) active seat.
        colour: (R,) colour of the lured customer (and of the stall).
        owner: (R,) owner slot of the entrance reached (a seat or the neutral slot).
    """
    num_players = state.vp.shape[1]
    size = state.group_size[idx, owner, colour].astype(np.int32)
    own = owner == seat
    left = tray(state, idx)[np.arange(idx.size), colour]
    to_active = np.minimum(np.where(own, size, 1), left)
    state.money[idx, seat, colour] += to_active
    other = ~own & (owner < num_players)
    to_owner = np.minimum(size, left - to_active)
    state.money[idx[other], owner[other], colour[other]] += to_owner[other]


def final_scores(state: CairoState) -> np.ndarray:
    """(B, P) §7.2 final VP: in-game VP + held medal values + ⌊money / 3⌋."""
    num_players = state.vp.shape[1]
    seats = np.arange(num_players)[None, :, None]
    medal_vp = np.zeros(state.vp.shape, dtype=np.int64)
    for kind, value in ((GOLD, MEDAL_VP[GOLD]), (SILVER, MEDAL_VP[SILVER])):
        medal_vp += value * (state.medal[:, None, :, kind] == seats).sum(axis=2)
    coins = state.money.sum(axis=2) // COIN_SET
    return (state.vp + medal_vp + coins).astype(np.float64)

