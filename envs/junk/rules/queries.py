"""The rules' answers for many rows at once, for the scripted agents, the resampler and the
tests: each a compiled loop over rows calling the per-row rule (no second implementation)."""

from __future__ import annotations

import numpy as np

from envs.core.compiled import CompiledGame
from envs.core.jit import local_zeros, njit
from envs.core.stateref import state_ref
from envs.junk.data import MAX_LAYERS, MAX_PLAYERS, NUM_SPECIAL_TYPES, SLOTS
from envs.junk.rules import flow, hold, scoring
from envs.junk.rules.legal import legal_bid
from envs.junk.state import NUM_ACTIONS, JunkState


@njit
def _bid_masks_rows(view, rows, seats, out):
    s = state_ref(view)
    held = local_zeros(NUM_SPECIAL_TYPES, np.int8)
    for i in range(rows.shape[0]):
        r = rows[i]
        legal_bid(s, r, out[i], s.hand[r, seats[i]], held)


@njit
def _place_rows(view, rows, junks, owners):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        hold.place(s, rows[i], junks[i], owners[i])


@njit
def _remove_top_rows(view, rows, junks, owners):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        hold.remove_top(s, rows[i], junks[i], owners[i])


@njit
def _refresh_rows(view, rows, junks):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        hold.refresh(s, rows[i], junks[i])


@njit
def _vis_after_rows(view, rows, junks, seats, strips, out):
    s = state_ref(view)
    cargo = local_zeros((MAX_LAYERS, SLOTS), np.int8)
    layers = local_zeros((3, MAX_PLAYERS), np.int8)  # seats past P stay 0
    for i in range(rows.shape[0]):
        r, junk, seat = rows[i], junks[i], seats[i]
        for k in range(MAX_LAYERS):
            for slot in range(SLOTS):
                cargo[k, slot] = s.cargo[r, junk, k, slot]
        height = s.height[r, junk]
        if strips[i] < 0:
            height = hold.remove_strip(cargo, height, seat)
        for _ in range(strips[i]):
            if height == MAX_LAYERS - 1 and cargo[height, SLOTS - 1] >= 0:
                break  # no room: only an illegal action's value asks (every strip is there)
            height = hold.place_strip(cargo, height, seat)
        hold.junk_counts(cargo, height, layers, out[i])


@njit
def _end_round_rows(view, rows):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        flow.end_round(s, rows[i])


@njit
def _bonuses_rows(held, vis, presence, end):
    for i in range(vis.shape[0]):
        presence[i] = scoring.presence_bonus(vis[i])
        end[i] = scoring.end_bonus(held[i], vis[i])


def _ints(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def bid_masks(game: CompiledGame, state: JunkState, rows: np.ndarray,
              seats: np.ndarray) -> np.ndarray:
    """(R, 161) bool: the BID masks of ``seats`` (R,) in ``rows`` for their hands (the
    legal function of the decision, ``legal.legal_bid``)."""
    out = np.zeros((len(rows), NUM_ACTIONS), dtype=bool)
    _bid_masks_rows(game.view(state), _ints(rows), _ints(seats), out)
    return out


def place(game: CompiledGame, state: JunkState, rows: np.ndarray, junks: np.ndarray,
          owners: np.ndarray) -> None:
    """One strip of colour ``owners[i]`` onto junk ``junks[i]`` of row ``rows[i]``."""
    _place_rows(game.view(state), _ints(rows), _ints(junks), _ints(owners))


def remove_top(game: CompiledGame, state: JunkState, rows: np.ndarray, junks: np.ndarray,
               owners: np.ndarray) -> None:
    """One strip of ``owners[i]`` out of the top layer of junk ``junks[i]``."""
    _remove_top_rows(game.view(state), _ints(rows), _ints(junks), _ints(owners))


def refresh_holds(game: CompiledGame, state: JunkState, rows: np.ndarray,
                  junks: np.ndarray) -> None:
    """Recompute the kept counts of junk ``junks[i]`` of row ``rows[i]`` from its cargo."""
    _refresh_rows(game.view(state), _ints(rows), _ints(junks))


def end_round(game: CompiledGame, state: JunkState, rows: np.ndarray) -> None:
    """Phases 5 and 6 in ``rows``: the next round begins (or the game ends)."""
    _end_round_rows(game.view(state), _ints(rows))


def vis_after(game: CompiledGame, state: JunkState, rows: np.ndarray, junks: np.ndarray,
              seats: np.ndarray, strips: np.ndarray | int) -> np.ndarray:
    """(R, P) int64 every seat's visible crates on junk ``junks[i]`` of row ``rows[i]`` had
    seat ``seats[i]`` placed ``strips[i]`` strips there, or (``strips[i] = -1``) taken one
    of its strips off the top layer (``hold.place_strip``, ``hold.remove_strip``); the
    state is not changed."""
    rows = _ints(rows)
    out = np.zeros((rows.size, game.num_players), dtype=np.int8)
    _vis_after_rows(game.view(state), rows, _ints(junks), _ints(seats),
                    _ints(np.broadcast_to(strips, rows.shape)), out)
    return out.astype(np.int64)


def top_layer_owner(state: JunkState, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(R, 5) bool: seat ``seats[i]`` owns a strip in the top layer of each junk (its fully
    visible strips, §2.3)."""
    return state.layers[rows, :, 0, seats] > 0


def bonuses(held: np.ndarray, vis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) int64 presence bonus and (n,) int64 END cards' bonus of face-down cards ``held``
    (n, 21) with one seat's visible crates ``vis`` (n, 5) each (§7)."""
    presence = np.zeros(len(vis), dtype=np.int64)
    end = np.zeros(len(vis), dtype=np.int64)
    _bonuses_rows(_ints(held), _ints(vis), presence, end)
    return presence, end
