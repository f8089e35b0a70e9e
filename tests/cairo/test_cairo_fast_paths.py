"""The one-row paths of the rules (scalar indexing at B = 1) against the batched ones."""

from __future__ import annotations

import numpy as np
import pytest

from envs.cairo import CairoGame


@pytest.mark.parametrize("players", [2, 4])
def test_single_games_match_batch_rows_at_every_step(players):
    """Row i of a batch and the game of the same seed alone agree on the state, the mask and
    the acting seat's observation after every step, not only at the end."""
    game = CairoGame(players)
    rows = 4
    batch = game.init(rows, seed=70)
    singles = [game.init(1, seed=70 + i) for i in range(rows)]
    rng = np.random.default_rng(1)
    for _ in range(game.max_decisions):
        if batch.done.all():
            break
        mask = game.legal_action_mask(batch)
        seats = np.maximum(batch.current_player, 0)
        obs = game.observe(batch, seats)
        for i, single in enumerate(singles):
            if single.done[0]:
                continue  # the batch zeroes a finished row's rewards on later steps
            assert single.equals(batch.take(i))
            assert np.array_equal(game.legal_action_mask(single)[0], mask[i])
            assert np.array_equal(game.observe(single, int(seats[i]))[0], obs[i])
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        game.step(batch, actions)
        for i, single in enumerate(singles):
            if not single.done[0]:
                game.step(single, actions[i : i + 1])
                assert single.equals(batch.take(i))
    assert batch.done.all()
