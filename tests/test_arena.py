"""Batched play of fixed agents (agents.arena) on the toy game."""

from __future__ import annotations

import numpy as np
import pytest
from toy_agents import HighestCardFirst

import envs
from agents.arena import play_match
from agents.random_agent import RandomAgent


def test_play_match_is_seeded_and_complete():
    game = envs.make_game("toy", 2)
    first = play_match(game, [RandomAgent(1), RandomAgent(2)], num_games=32, seed=4)
    again = play_match(game, [RandomAgent(1), RandomAgent(2)], num_games=32, seed=4)
    np.testing.assert_array_equal(first.scores, again.scores)
    assert np.allclose(first.rewards.sum(axis=1), 0)
    assert not first.truncated.any() and first.decisions > 32
    assert first.first_place.any(axis=1).all()


def test_a_real_strategy_beats_random():
    game = envs.make_game("toy", 2)
    result = play_match(game, [HighestCardFirst(), RandomAgent(0)], num_games=400, seed=0)
    assert result.rewards[:, 0].mean() > 0.2


def test_play_match_needs_one_agent_per_seat():
    with pytest.raises(ValueError, match="1 agents for 2 seats"):
        play_match(envs.make_game("toy", 2), [RandomAgent()], num_games=1)
