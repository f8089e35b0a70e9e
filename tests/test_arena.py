"""Batched play of fixed agents (agents.arena) on the toy game."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from agents.arena import play_match
from agents.random_agent import RandomAgent


class HighestCardFirst:
    """Toy strategy: play the highest card held, draw from the market when it is worth 2+."""

    name = "highest_first"

    def act(self, game, state, player):
        mask = game.legal_action_mask(state)
        play = np.where(mask[:, :4], np.arange(4), -1).max(axis=1)
        market_good = mask[:, 5] & (state.market >= 2)
        draw = np.where(market_good | ~mask[:, 4], 5, 4)
        return np.where(play >= 0, play, draw)


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
