"""The agent protocol: an agent chooses one action per row of a batch of games."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from envs.core.game import Game
from envs.core.state import BatchState


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
