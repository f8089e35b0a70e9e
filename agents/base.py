"""The agent protocol (an agent chooses one action per row of a batch of games) and the
scripted baselines' base, ``ScoredAgent``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from envs.core.game import Game
from envs.core.state import BatchState

NEG = -1e9
"""the value of an illegal action (and of every action in a row where the seat is not to act)"""
Handler = Callable[[Any, np.ndarray, np.ndarray, np.ndarray], None]


@runtime_checkable
class Agent(Protocol):
    """Anything that acts for one seat on a batch of games.

    ``act`` is called with the rows where ``player`` is to act (rows where it is not are
    ignored by the caller, so any legal-looking value may be returned there). A scripted
    agent reads only what its seat may observe: the public board and its own private
    information, exactly what ``game.observe(state, player)`` shows.
    """

    name: str

    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """(B,) int64 actions, legal under ``game.legal_action_mask(state)`` where
        ``state.current_player == player``."""
        ...


def acting_rows(game: Game, state: BatchState, player: int | np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """The live rows where ``player`` is to act, (n,) intp, and their (n, A) legal masks
    (the mask is only computed when some row acts)."""
    idx = np.flatnonzero(~state.done & (state.current_player == np.asarray(player)))
    if not idx.size:
        return idx, np.zeros((0, game.num_actions), dtype=bool)
    return idx, np.asarray(game.legal_action_mask(state))[idx]


class ScoredAgent:
    """A scripted baseline that values every legal action and plays the best one.

    The skeleton every game's baselines share: ``action_values`` scores the rows where the
    seat acts, one handler per phase; ``act`` plays the best-valued legal action, ties
    broken by a tiny noise from the agent's own generator. A game's base class supplies
    ``_view`` (what the seat knows in those rows) and ``_handlers`` (which phase each
    handler answers); a strategy sets class parameters or overrides handlers.
    """

    name = "scripted"
    least_value = NEG
    """the least value a legal action is given (a floor under every handler's scores)"""
    view_key: object = None
    """agents whose ``_view`` is the same function of (game, state, rows) share a key, and
    ``action_values(..., shared=...)`` builds that view once for them (None: never shared)"""

    def __init__(self, num_players: int, seed: int = 0):
        self.num_players = num_players
        self.generator = np.random.default_rng(seed)

    # ---------------------------------------------------------------- protocol
    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """(B,) int64: the best-valued legal action in every row where ``player`` is to act
        (ties broken by a noise of 1e-6 at most), 0 elsewhere."""
        actions = np.zeros(state.batch_size, dtype=np.int64)
        idx, mask, scores = self._scores(game, state, player)
        if idx.size:
            noisy = scores + self.generator.random(scores.shape) * 1e-6 * mask
            actions[idx] = np.argmax(np.where(mask, noisy, NEG), axis=1)
        return actions

    def action_values(self, game: Game, state: BatchState, player: int | np.ndarray,
                      shared: dict[object, Any] | None = None) -> np.ndarray:
        """(B, A) float64: the strategy's value of every action, the best one played;
        ``NEG`` for illegal actions and in rows where ``player`` is not to act. No tie noise,
        so the values are a function of what the seat may observe alone.

        ``shared``: one dict passed to several agents valuing the same ``state`` for the
        same ``player`` (action hints); those with the same ``view_key`` build their acting
        rows and view once, in it. The values are the same with it or without."""
        values = np.full((state.batch_size, game.num_actions), NEG)
        idx, mask, scores = self._scores(game, state, player, shared)
        values[idx] = np.where(mask, scores, NEG)
        return values

    def _scores(self, game: Game, state: BatchState, player: int | np.ndarray,
                shared: dict[object, Any] | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows where ``player`` is to act, their (n, A) legal masks and action values
        (0 for a legal action no handler values)."""
        key = self.view_key if shared is not None else None
        if key is not None and key in shared:
            idx, mask, view = shared[key]
        else:
            idx, mask = acting_rows(game, state, player)
            view = self._view(game, state, idx) if idx.size else None
            if key is not None:
                shared[key] = idx, mask, view
        scores = np.zeros(mask.shape)
        if not idx.size:
            return idx, mask, scores
        phase = state.phase[idx]
        for which, handler in self._handlers():
            rows = np.flatnonzero(phase == which)
            if rows.size:
                handler(view, rows, mask, scores)
        return idx, mask, np.maximum(scores, self.least_value)

    # ---------------------------------------------------------------- a game's part
    def _view(self, game: Game, state: BatchState, idx: np.ndarray) -> Any:
        """What the acting seat knows in the rows ``idx`` of the batch (the handlers'
        ``view``)."""
        raise NotImplementedError

    def _handlers(self) -> Sequence[tuple[int, Handler]]:
        """``(phase, handler)`` pairs: ``handler(view, rows, mask, scores)`` writes the
        values of the actions in ``scores[rows]`` (``rows`` index ``view``'s rows and
        ``mask``'s, the rows in that phase)."""
        raise NotImplementedError
