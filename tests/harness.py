"""Random-play drivers shared by the conformance tests."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from envs.core.game import Game
from envs.core.sampling import sample_actions
from envs.core.state import BatchState


def random_play(
    game: Game, batch_size: int, seed: int
) -> Iterator[tuple[BatchState, np.ndarray, BatchState]]:
    """Play a batch with uniform legal actions until every row is over.

    Yields ``(before, actions, after)`` per step, ``before`` being a copy. Fails if a game runs
    past ``game.max_decisions``.
    """
    state = game.init(batch_size, seed=seed)
    generator = np.random.default_rng(seed)
    for _ in range(game.max_decisions + 1):
        if state.done.all():
            return
        before = state.copy()
        actions = sample_actions(game.legal_action_mask(state), generator)
        state = game.step(state, actions)
        yield before, actions, state
    raise AssertionError(f"{game!r}: a game ran past max_decisions={game.max_decisions}")

