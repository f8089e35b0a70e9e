"""The rules' answers for many rows at once, for the scripted agents, the invariants and the
tests: each a compiled loop over rows calling the per-row rule (no second implementation)."""

from __future__ import annotations

import numpy as np

from envs.core.compiled import CompiledGame
from envs.core.jit import local_zeros, njit
from envs.core.stateref import state_ref
from envs.discoveries.data import NUM_EXPEDITIONS, NUM_TASK_KINDS, NUM_TYPES
from envs.discoveries.rules import legal, scoring
from envs.discoveries.state import PLAYED, DiscoveriesState

NUM_ACTIONS = legal.NUM_ACTIONS
NUM_PICKS = NUM_TYPES + 6  # PICK_SHIP(18 types), PICK_FLAGSHIP(slot, tv)


@njit
def _seat_values_rows(view, rows, tasks, ships):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        for seat in range(tasks.shape[1]):
            tasks[i, seat] = scoring.task_points(s, rows[i], seat)
            ships[i, seat] = scoring.ships_not_on_expeditions(s, rows[i], seat)


@njit
def _qualifying(count, size, out):
    for i in range(count.shape[0]):
        for kind in range(NUM_TASK_KINDS):
            out[i, kind] = scoring.qualifies(count[i], size[i], kind)


def seat_values(game: CompiledGame, state: DiscoveriesState, rows: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(R, P) int64 each, for ``rows`` (default every row): the special-task bonus
    (``scoring.task_points``) and the ships not on expeditions
    (``scoring.ships_not_on_expeditions``) of every seat."""
    rows = np.arange(state.batch_size) if rows is None else np.asarray(rows, dtype=np.int64)
    tasks = np.zeros((rows.size, game.num_players), dtype=np.int64)
    ships = np.zeros((rows.size, game.num_players), dtype=np.int64)
    _seat_values_rows(game.view(state), rows.astype(np.int64), tasks, ships)
    return tasks, ships


def qualifying(count: np.ndarray, size: np.ndarray) -> np.ndarray:
    """(..., 12, P, 4) bool: expedition e meets each task kind for each seat (§2.7,
    ``scoring.qualifies``).

    Args:
        count: (..., 12, P) the seat's ships on the expedition, s_p(e).
        size: (..., 12) all ships on it, S(e).
    """
    count, size = np.broadcast_arrays(np.asarray(count, dtype=np.int64),
                                      np.asarray(size, dtype=np.int64)[..., None])
    out = np.zeros((count.size, NUM_TASK_KINDS), dtype=bool)
    _qualifying(count.ravel(), size.ravel(), out)
    return out.reshape(*count.shape, NUM_TASK_KINDS)


def voyage_timers(state: DiscoveriesState) -> np.ndarray:
    """(B, 24) int: the timer of every active contract (its owner's ticks to go, 1..3), 0 for
    the others."""
    turns = state.own_turns[np.arange(state.batch_size)[:, None], np.maximum(state.con_owner, 0)]
    return np.where(state.con_state == PLAYED.ACTIVE, state.con_due - turns, 0)


@njit
def _expedition_picks_rows(view, rows, out):
    s = state_ref(view)
    mask = local_zeros(NUM_ACTIONS, np.bool_)
    for i in range(rows.shape[0]):
        r = rows[i]
        flags = 1 << int(s.flag_id[r, s.current_player[r]])
        for e in range(NUM_EXPEDITIONS):
            mask[:] = False
            legal.expedition_picks(s, r, e, mask, flags)
            for k in range(out.shape[2]):
                out[i, e, k] = mask[legal.PICK_SHIP + k]


def expedition_picks(game: CompiledGame, state: DiscoveriesState, rows: np.ndarray
                     ) -> np.ndarray:
    """(R, 12, 24) bool: the acting seat's legal picks (PICK_SHIP, PICK_FLAGSHIP) onto each
    expedition in ``rows`` (``legal.expedition_picks``), as if it sent a ship there."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros((rows.size, NUM_EXPEDITIONS, NUM_PICKS), dtype=bool)
    _expedition_picks_rows(game.view(state), rows, out)
    return out
