"""The floor baseline: uniform over the legal actions, vectorised over the batch."""

from __future__ import annotations

import numpy as np

from envs.core.game import Game
from envs.core.sampling import sample_actions
from envs.core.state import BatchState


class RandomAgent:
    """Picks uniformly among the legal actions of each row."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.generator = np.random.default_rng(seed)

    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        return sample_actions(game.legal_action_mask(state), self.generator)
