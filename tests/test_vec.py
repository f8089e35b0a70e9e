"""The auto-resetting vector adapter."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS

import envs
from envs.core.sampling import sample_actions


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_vec_autoreset_reports_final_observations(env_id, num_players):
    vec = envs.make_vec(env_id, num_envs=8, num_players=num_players, seed=0)
    game = vec.game
    obs, info = vec.reset()
    assert obs.shape == (8, *game.observation_shape)
    generator = np.random.default_rng(0)
    finished = 0
    for _ in range(3 * game.max_decisions):
        actions = sample_actions(info["action_mask"], generator)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        done = terminated | truncated
        assert info["action_mask"][np.arange(8)].any(axis=1).all(), "all rows live after reset"
        assert (info["current_player"] >= 0).all()
        assert rewards.shape == (8, num_players)
        assert np.allclose(rewards[done].sum(axis=1), 0, atol=1e-6)
        assert not rewards[~done].any()
        assert not info["final_observation"][~done].any()
        if done.any():
            assert info["final_observation"][done].any()
        finished += int(done.sum())
        if finished >= 16:
            break
    assert finished >= 16


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_vec_final_observations_are_each_seats_view_of_the_ended_game(env_id, num_players):
    vec = envs.make_vec(env_id, num_envs=6, num_players=num_players, seed=3)
    game = vec.game
    _, info = vec.reset()
    generator = np.random.default_rng(1)
    checked = 0
    for _ in range(3 * game.max_decisions):
        actions = sample_actions(info["action_mask"], generator)
        before = vec.state.copy()
        _, _, terminated, truncated, info = vec.step(actions)
        rows = np.flatnonzero(terminated | truncated)
        if not rows.size:
            continue
        ended = game.step(before, actions).take(rows)
        for seat in range(num_players):
            np.testing.assert_array_equal(info["final_observation"][rows, seat],
                                          game.observe(ended, seat))
        np.testing.assert_array_equal(info["final_scores"][rows], game.scores(ended))
        checked += rows.size
        if checked >= 8:
            break
    assert checked >= 8


def test_vec_rows_match_single_games_and_reseed():
    """Row i's first game is the game seeded seed + i; its k-th is seeded seed + i + k * B."""
    vec = envs.make_vec("toy", num_envs=4, num_players=2, seed=10)
    game = vec.game
    obs, info = vec.reset()
    np.testing.assert_array_equal(
        obs[2], game.observe(game.init(1, 12), game.init(1, 12).current_player)[0]
    )
    generator = np.random.default_rng(1)
    while True:
        obs, _, terminated, truncated, info = vec.step(
            sample_actions(info["action_mask"], generator)
        )
        done = np.flatnonzero(terminated | truncated)
        if done.size:
            row = int(done[0])
            fresh = game.init(1, 10 + row + 4)
            np.testing.assert_array_equal(obs[row], game.observe(fresh, fresh.current_player)[0])
            break


def test_vec_restarted_games_are_the_seeded_games():
    """A row's k-th game is the game seeded seed + i + k * B, through many restarts and
    after a reset with a new seed."""
    num = 24
    vec = envs.make_vec("toy", num_envs=num, num_players=3, seed=5)
    game = vec.game
    generator = np.random.default_rng(2)
    for seed in (5, 900):
        _, info = vec.reset(seed=seed)
        episodes = np.zeros(num, dtype=np.int64)
        started = 0
        while started < 3 * num:
            _, _, terminated, truncated, info = vec.step(
                sample_actions(info["action_mask"], generator))
            rows = np.flatnonzero(terminated | truncated)
            episodes[rows] += 1
            expected = game.init_rows(seed + rows + episodes[rows] * num)
            assert vec.state.take(rows).equals(expected)
            started += rows.size


def test_vec_step_before_reset_is_an_error():
    vec = envs.make_vec("toy", num_envs=2, num_players=2)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(2, dtype=np.int64))
