"""Conformance of every registered game x player count with the batched-game contract.

A game is covered here the moment it registers; nothing in this file names a game.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS
from harness import random_play

import envs
from envs.core.sampling import sample_actions

pytestmark = pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)

BATCH = 16


def test_shapes_dtypes_and_bounds(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    state = game.init(BATCH, seed=3)
    assert 0 < game.num_actions < 1000
    assert state.current_player.shape == (BATCH,)
    assert np.issubdtype(state.current_player.dtype, np.integer)
    assert state.terminated.dtype == bool and state.truncated.dtype == bool
    assert state.rewards.shape == (BATCH, num_players) and state.rewards.dtype == np.float32
    mask = game.legal_action_mask(state)
    assert mask.shape == (BATCH, game.num_actions) and mask.dtype == bool
    assert np.isfinite(game.observation_low).all() and np.isfinite(game.observation_high).all()
    for seat in range(num_players):
        obs = game.observe(state, seat)
        assert obs.shape == (BATCH, *game.observation_shape) and obs.dtype == np.float32
    assert game.scores(state).shape == (BATCH, num_players)
    assert isinstance(game.render(state, 0), str) and game.render(state, BATCH - 1)


def test_random_play_keeps_the_contract(env_id, num_players):
    """Masks, bounds, rewards and finished rows, checked after every step of random play."""
    game = envs.make_game(env_id, num_players)
    low, high = game.observation_low, game.observation_high
    ended_games = 0
    for before, _, after in random_play(game, BATCH, seed=11):
        live = ~after.done
        mask = game.legal_action_mask(after)
        assert mask[live].any(axis=1).all(), "a live row has no legal action"
        assert not mask[~live].any(), "a finished row has a legal action"
        assert (after.current_player[live] >= 0).all()
        assert (after.current_player[~live] == -1).all()
        for seat in range(num_players):
            obs = game.observe(after, seat)
            assert np.isfinite(obs).all()
            assert (obs >= low).all() and (obs <= high).all(), "observation out of bounds"
        ended = after.done & ~before.done
        assert not after.rewards[~ended].any(), "a reward outside the last step of a game"
        if ended.any():
            ended_games += int(ended.sum())
            rewards = after.rewards[ended]
            assert np.allclose(rewards.sum(axis=1), 0, atol=1e-6), "rewards not zero-sum"
            assert (np.abs(rewards) <= 1 + 1e-6).all()
        # Rows that were already over ignore their action: nothing but what says what the
        # step did (the rewards, the step record) changes.
        over = np.flatnonzero(before.done)
        if over.size:
            stayed, now = before.take(over), after.take(over)
            for name in type(now).STEP_FIELDS:
                getattr(now, name)[:] = getattr(stayed, name)
            assert stayed.equals(now), "a finished row changed"
            assert not after.rewards[over].any()
    assert ended_games == BATCH


def test_invariants_hold_after_every_step(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    for _, _, after in random_play(game, BATCH, seed=5):
        problems = game.check_invariants(after)
        assert not problems, problems[:5]


def test_observation_leaks_nothing_hidden(env_id, num_players):
    """Resampling what seat p cannot see leaves observe(state, p) unchanged."""
    game = envs.make_game(env_id, num_players)
    resampled_differently = False
    for step, (_, _, after) in enumerate(random_play(game, 8, seed=7)):
        if step % 5:
            continue
        for seat in range(num_players):
            other = game.resample_hidden(after, seat, seed=step * 10 + seat)
            np.testing.assert_array_equal(game.observe(other, seat), game.observe(after, seat))
            resampled_differently |= not other.equals(after)
    assert resampled_differently == game.HAS_HIDDEN_INFO


def test_terminal_rewards_follow_scores(env_id, num_players):
    """The reward of the ending step ranks the seats by the game's ranking keys."""
    game = envs.make_game(env_id, num_players)
    total = np.zeros((BATCH, num_players))
    for _, _, after in random_play(game, BATCH, seed=2):
        total += after.rewards
    keys = np.asarray(game.ranking_keys(after), dtype=float)
    keys = keys if keys.ndim == 3 else keys[:, :, None]
    for row in range(BATCH):
        for i in range(num_players):
            beats = sum(
                tuple(keys[row, i]) > tuple(keys[row, j]) for j in range(num_players)
            )
            beaten = sum(
                tuple(keys[row, j]) > tuple(keys[row, i]) for j in range(num_players)
            )
            expected = (beats - beaten) / (num_players - 1)
            assert total[row, i] == pytest.approx(expected)


def test_batch_equals_single_games(env_id, num_players):
    """Row i of a batch of 32 seeded s plays exactly like a single game seeded s + i."""
    game = envs.make_game(env_id, num_players)
    batch_size, seed = 32, 100
    history = [(before.copy(), actions) for before, actions, _ in
               random_play(game, batch_size, seed)]
    final = game.init(batch_size, seed)
    for _, actions in history:
        final = game.step(final, actions)
    singles = [game.init(1, seed + i) for i in range(batch_size)]
    for before, actions in history:
        for i in np.flatnonzero(~before.done):
            single = singles[i]
            np.testing.assert_array_equal(
                game.legal_action_mask(single)[0], game.legal_action_mask(before)[i]
            )
            singles[i] = game.step(single, actions[i : i + 1])
    for i, single in enumerate(singles):
        row = final.take(i)
        for name in type(row).STEP_FIELDS:  # the batch stepped on past the end of the game
            getattr(row, name)[:] = 0
            getattr(single, name)[:] = 0
        assert single.equals(row), f"row {i} differs from the single game seeded {seed + i}"


def test_reset_rows_starts_the_seeded_games_in_place(env_id, num_players):
    """``reset_rows`` makes in its rows the games ``init_rows`` makes apart (every field,
    masks and step record included), mid-game rows and finished ones alike, and leaves the
    other rows as they were."""
    game = envs.make_game(env_id, num_players)
    state = game.init(BATCH, seed=7)
    generator = np.random.default_rng(1)
    for _ in range(40):
        game.step(state, sample_actions(game.legal_action_mask(state), generator))
    state.terminated[5] = True  # a finished row restarts like a live one
    rows, seeds = np.array([11, 0, 5, 15]), np.array([3, 900, 12, 3])
    expected = state.copy()
    game.put(expected, rows, game.init_rows(seeds))
    assert game.reset_rows(state, rows, seeds) is state
    assert state.equals(expected)


def test_same_seed_same_trajectory(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    for seed in (0, 1, 12345):
        runs = []
        for _ in range(2):
            trace = [(a.copy(), after.copy()) for _, a, after in random_play(game, 4, seed)]
            runs.append(trace)
        assert len(runs[0]) == len(runs[1])
        for (a0, s0), (a1, s1) in zip(*runs, strict=True):
            np.testing.assert_array_equal(a0, a1)
            assert s0.equals(s1)


def test_picture_of_the_board(env_id, num_players):
    """``draw`` gives an RGB picture that changes with the board and, in a seat's view, not
    with what that seat cannot see; the AEC env shows it as ``render_mode="rgb_array"``."""
    game = envs.make_game(env_id, num_players)
    first = game.init(2, seed=5)
    picture = game.draw(first, 0)
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    assert picture.shape[0] >= 100 and picture.shape[1] >= 100
    later = first.copy()
    for _ in range(12):
        later = game.step(later, sample_actions(game.legal_action_mask(later),
                                                np.random.default_rng(0)))
    assert not np.array_equal(game.draw(later, 0), picture)
    other = game.resample_hidden(later, 0, seed=3)
    np.testing.assert_array_equal(game.draw(other, 0, seat=0), game.draw(later, 0, seat=0))
    env = envs.make_env(env_id, num_players, render_mode="rgb_array", render_seat=1)
    env.reset(seed=5)
    np.testing.assert_array_equal(env.render(), game.draw(game.init(1, seed=5), 0, seat=1))


def test_pickle_round_trip(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    state = game.init(4, seed=9)
    state = game.step(state, sample_actions(game.legal_action_mask(state),
                                            np.random.default_rng(0)))
    game2, state2 = pickle.loads(pickle.dumps((game, state)))
    assert state2.equals(state)
    np.testing.assert_array_equal(game2.legal_action_mask(state2), game.legal_action_mask(state))
    env = envs.make_env(env_id, num_players)
    env.reset(seed=4)
    env2 = pickle.loads(pickle.dumps(env))
    agent = env.agent_selection
    assert env2.agent_selection == agent
    np.testing.assert_array_equal(env2.observe(agent)["observation"],
                                  env.observe(agent)["observation"])
