"""The two scorings, the special tasks and the final ranking (§2.7, §7)."""

from __future__ import annotations

import numpy as np

from envs.discoveries.data import (
    ALL,
    AT_LEAST_ONE,
    FINAL_OFF,
    FINAL_SAME,
    FIRST_OFF,
    FIRST_SAME,
    HALF,
    MAJORITY,
    NUM_TASK_KINDS,
    TRACK,
)
from envs.discoveries.state import FLAG, PHASE, PLAYED, DiscoveriesState


def expedition_points(state: DiscoveriesState, rows: np.ndarray, same: np.ndarray,
                      off: np.ndarray) -> np.ndarray:
    """(R, P) points of the ships on expeditions, ``same`` (12,) per ship of the card's
    colour and ``off`` (12,) per other ship."""
    count = state.exp_count[rows].astype(np.int16)  # (R, 12, P)
    matching = state.exp_same[rows].astype(np.int16)
    return (matching * same[:, None] + (count - matching) * off[:, None]).sum(axis=1)


def qualifying(count: np.ndarray, size: np.ndarray) -> np.ndarray:
    """(..., 12, P, 4) bool: expedition e meets each task kind for each seat (§2.7).

    Args:
        count: (..., 12, P) the seat's ships on the expedition, s_p(e).
        size: (..., 12) all ships on it, S(e).
    """
    total = size[..., None]
    kinds = np.zeros((*count.shape, NUM_TASK_KINDS), dtype=bool)
    kinds[..., AT_LEAST_ONE] = count >= 1
    kinds[..., HALF] = (count >= 1) & (2 * count >= total)
    kinds[..., MAJORITY] = count > total - count
    kinds[..., ALL] = (count == total) & (total >= 1)
    return kinds


def task_points(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R, P) special-task bonus: qualifying expeditions x track(completed) (§2.7, §2.8)."""
    kinds = qualifying(state.exp_count[rows].astype(np.int16),
                       state.exp_size[rows].astype(np.int16))  # (R, 12, P, 4)
    task = state.task[rows].astype(np.intp)  # (R, P)
    own = np.take_along_axis(kinds, task[:, None, :, None], axis=3)[..., 0]  # (R, 12, P)
    return own.sum(axis=1) * TRACK[state.completed[rows]]


def ships_not_on_expeditions(state: DiscoveriesState, rows: np.ndarray | None = None
                             ) -> np.ndarray:
    """(R, P) owned ships not on an expedition: idle and on voyages (regular), the flagship
    unless it is on an expedition (§7.2 step 3, the tie-break)."""
    rows = slice(None) if rows is None else rows
    idle = state.idle[rows].sum(axis=2, dtype=np.int16)
    on_voyages = state.voyage_fleet[rows].sum(axis=(2, 3), dtype=np.int16)
    seats = np.arange(state.coins.shape[1])
    in_build = state.build_ships[rows].sum(axis=1, dtype=np.int16)
    building = (state.phase[rows] == PHASE.BUILD_CONTRACT)[:, None] & (
        seats == state.current_player[rows][:, None])
    flag = state.flag_where[rows] != FLAG.EXPEDITION
    return idle + on_voyages + in_build[:, None] * building + flag


def voyage_timers(state: DiscoveriesState) -> np.ndarray:
    """(B, 24) int: the timer of every active contract (its owner's ticks to go, 1..3), 0 for
    the others."""
    turns = state.own_turns[np.arange(state.batch_size)[:, None], np.maximum(state.con_owner, 0)]
    return np.where(state.con_state == PLAYED.ACTIVE, state.con_due - turns, 0)


def first_scoring(state: DiscoveriesState, rows: np.ndarray) -> None:
    """§7.1: every ship on an expedition scores its First value."""
    state.vp_first[rows] = expedition_points(state, rows, FIRST_SAME, FIRST_OFF)
    state.first_done[rows] = True


def final_scoring(state: DiscoveriesState, rows: np.ndarray) -> None:
    """§7.2 steps 0-3: unfinished voyages boxed (their ships return), the Final values, the
    special tasks and one point per ship not on an expedition."""
    active = state.con_state[rows] == PLAYED.ACTIVE  # (R, 24)
    back = np.flatnonzero(active.any(axis=1))
    if back.size:
        sub, act = rows[back], active[back]
        state.idle[sub] += state.voyage_fleet[sub].sum(axis=2, dtype=np.int8)
        state.voyage_revenue[sub] = 0
        state.voyage_ships[sub] = 0
        state.voyage_fleet[sub] = 0
        state.con_state[sub] = np.where(act, PLAYED.DISCARDED, state.con_state[sub])
        state.con_due[sub] = np.where(act, 0, state.con_due[sub])
        state.contracts_discarded[sub] += act.sum(axis=1, dtype=np.int8)
        voyage = state.flag_where[sub] == FLAG.VOYAGE
        state.flag_where[sub] = np.where(voyage, FLAG.IDLE, state.flag_where[sub])
    state.vp_final[rows] = (expedition_points(state, rows, FINAL_SAME, FINAL_OFF)
                            + task_points(state, rows) + ships_not_on_expeditions(state, rows))
