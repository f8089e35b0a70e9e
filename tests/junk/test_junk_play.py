"""Batched random play: the §10 invariants after every step, including the ones that compare
a state with the one before it (money never falls, sold flags only turn on, a commit
changes nothing but the committed flags), and termination within the cap."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_actions
from envs.junk import JunkGame
from envs.junk.state import PHASE


def _play_checked(game: JunkGame, games: int, seed: int) -> np.ndarray:
    """Random games, every invariant checked after every step; returns decisions per game."""
    state = game.init(games, seed=seed)
    generator = np.random.default_rng(seed)
    low, high = game.observation_low, game.observation_high
    steps = 0
    while not state.done.all():
        before = state.copy()
        actions = sample_actions(game.legal_action_mask(state), generator)
        state = game.step(state, actions)
        steps += 1
        assert steps <= game.max_decisions
        problems = game.check_invariants(state)
        assert not problems, problems[:3]
        live = ~before.done
        assert (state.money[live] >= before.money[live]).all(), "money fell"
        same_round = live & (state.round == before.round)
        assert (state.sold[same_round] >= before.sold[same_round]).all(), "a sold flag fell"
        # §10 #11: a commit that does not reveal changes no hand, stack, flow or money.
        quiet = live & (before.phase == PHASE.BID) & (state.phase == PHASE.BID) & (
            state.bid_round == before.bid_round)
        for name in ("hand", "stack", "flow", "money"):
            np.testing.assert_array_equal(getattr(state, name)[quiet],
                                          getattr(before, name)[quiet])
        obs = game.observe(state, np.maximum(state.current_player, 0))
        assert ((obs >= low) & (obs <= high)).all()
        assert np.abs(state.rewards.sum(axis=1)).max() < 1e-5
    assert state.terminated.all() and not state.truncated.any(), "a game hit the cap"
    assert (game.scores(state) >= state.money).all()
    return state.decisions


@pytest.mark.parametrize("players", [3, 4])
def test_random_play_keeps_invariants(players):
    decisions = _play_checked(JunkGame(players), 8, seed=players)
    assert decisions.max() < JunkGame(players).max_decisions


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_random_play_keeps_invariants_in_200_games(players):
    """§10 after every step of 200 random games per player count."""
    decisions = _play_checked(JunkGame(players), 200, seed=1000 + players)
    assert decisions.max() < JunkGame(players).max_decisions


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"setup": "variable"}, {"hide_money": True,
                                                             "hide_stacks": True}])
def test_random_play_keeps_invariants_with_options(options):
    for players in (3, 4):
        _play_checked(JunkGame(players, **options), 100, seed=2000 + players)
