"""The rules' answers for many rows at once, for the resampler, the invariants, the scripted
agents and the tests: each a compiled loop over rows calling the per-row rule (no second
implementation)."""

from __future__ import annotations

import numpy as np

from envs.batavia.data import NUM_COMPANIES
from envs.batavia.rules import cards, effects, legal, scoring
from envs.batavia.state import BataviaState
from envs.core.compiled import CompiledGame
from envs.core.jit import njit
from envs.core.stateref import state_ref


@njit
def _playable_rows(view, rows, out):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        r = rows[i]
        out[i] = legal.playable(s, r, s.hand[r, s.current_player[r]])


@njit
def _can_play_rows(view, rows, seats, hands, out):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        for c in range(NUM_COMPANIES):
            out[i, c] = legal.can_play(s, rows[i], seats[i], hands[i], c)


@njit
def _companies_rows(view, rows, seats, hands, potential, ahead):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        for c in range(NUM_COMPANIES):
            potential[i, c] = legal.potential(s, rows[i], seats[i], hands[i], c)
            ahead[i, c] = legal.post_ahead(s, rows[i], seats[i], c)


@njit
def _recount_seals_rows(view, rows):
    s = state_ref(view)
    for i in range(rows.shape[0]):
        cards.recount_seals(s, rows[i])


@njit
def _score_parts_rows(view, out):
    s = state_ref(view)
    for r in range(out.shape[0]):
        scoring.score_parts_row(s, r, out[r])


@njit
def _route_words_rows(routes, out):
    for i in range(routes.shape[0]):
        effects.route_words(routes[i], out[i])


def _rows(rows: np.ndarray) -> np.ndarray:
    return np.asarray(rows, dtype=np.int64).reshape(-1)


def playable(game: CompiledGame, state: BataviaState, rows: np.ndarray) -> np.ndarray:
    """(R,) bool: the acting seat's hand in ``rows`` can make (or finish) a play
    (``legal.playable``, §5.3)."""
    rows = _rows(rows)
    out = np.zeros(rows.size, dtype=bool)
    _playable_rows(game.view(state), rows, out)
    return out


def can_play(game: CompiledGame, state: BataviaState, rows: np.ndarray, seats: np.ndarray,
             hands: np.ndarray) -> np.ndarray:
    """(R, 5) bool: ``legal.can_play`` of each seat (R,) with each hand (R, 5) per company
    (§5.3, §5.7)."""
    rows = _rows(rows)
    out = np.zeros((rows.size, NUM_COMPANIES), dtype=bool)
    _can_play_rows(game.view(state), rows, np.asarray(seats, dtype=np.int64),
                   np.ascontiguousarray(hands, dtype=np.int64), out)
    return out


def companies(game: CompiledGame, state: BataviaState, rows: np.ndarray, seats: np.ndarray,
              hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(R, 5) bool twice: ``legal.potential`` of each seat (R,) with each hand (R, 5) (it
    holds the company's seal or could win it, §5.3), and ``legal.post_ahead`` (a post of
    the company lies ahead of its merchant, §5.5)."""
    rows = _rows(rows)
    potential = np.zeros((rows.size, NUM_COMPANIES), dtype=bool)
    ahead = np.zeros((rows.size, NUM_COMPANIES), dtype=bool)
    _companies_rows(game.view(state), rows, np.asarray(seats, dtype=np.int64),
                    np.ascontiguousarray(hands, dtype=np.int64), potential, ahead)
    return potential, ahead


def recount_seals(game: CompiledGame, state: BataviaState, rows: np.ndarray) -> None:
    """Cubes, cannon, top counts and seals of ``rows`` recomputed from the displays."""
    _recount_seals_rows(game.view(state), _rows(rows))


def score_parts(game: CompiledGame, state: BataviaState) -> dict[str, np.ndarray]:
    """(B, P) int64 of each part of the §7 score (``scoring.PARTS``), on the state as it
    stands."""
    out = np.zeros((state.batch_size, len(scoring.PARTS), game.num_players), dtype=np.int64)
    _score_parts_rows(game.view(state), out)
    return {name: out[:, k] for k, name in enumerate(scoring.PARTS)}


def route_words(route: np.ndarray) -> np.ndarray:
    """(R, 5) int64, the ``remaining`` words of routes (R, 35) of tile ids (-1 empty)
    (``effects.route_words``)."""
    out = np.zeros((route.shape[0], NUM_COMPANIES), dtype=np.int64)
    _route_words_rows(np.ascontiguousarray(route, dtype=np.int8), out)
    return out
