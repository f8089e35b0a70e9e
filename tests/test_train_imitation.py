"""Behaviour-cloning warm start (train.imitation) on the toy game."""

from __future__ import annotations

import numpy as np
import pytest
from toy_agents import HighestCardFirst

import envs

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

from train import imitation
from train.pool import OpponentPool
from train.vec_env import SelfPlayVecEnv

torch.set_num_threads(1)


def test_demonstrations_are_the_teachers_legal_moves_with_their_game_results():
    game = envs.make_game("toy", 3)
    demos = imitation.collect(game, HighestCardFirst(), 600, num_envs=8, seed=5,
                              progress=False)
    assert demos.observations.shape == (600, *game.observation_shape)
    assert demos.observations.dtype == imitation.OBS_DTYPE  # half the memory of float32
    assert len(demos.observations.values) < 600 * game.observation_shape[0]  # zeros not kept
    assert demos.masks[np.arange(600), demos.actions].all(), "every action was legal"
    # The toy game pays only a rank reward at the end: +1, 0 or -1 (or a shared split).
    assert set(np.unique(demos.returns)) <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert demos.returns.mean() == pytest.approx(0.0, abs=0.15), "zero-sum over seats"
    # HighestCardFirst plays the highest legal card whenever it holds one.
    playing = demos.masks[:, :4].any(axis=1)
    highest = np.where(demos.masks[:, :4], np.arange(4), -1).max(axis=1)
    np.testing.assert_array_equal(demos.actions[playing], highest[playing])


def test_demonstrations_are_whole_games_in_the_order_they_ended():
    """The first game to end fills the first rows, move by move: its actions, its
    observations (within float16's precision) and each acting seat's final reward."""
    game = envs.make_game("toy", 3)
    demos = imitation.collect(game, HighestCardFirst(), 300, num_envs=4, seed=9,
                              progress=False)
    env = envs.make_vec("toy", num_envs=4, num_players=3, seed=9)
    obs, info = env.reset(seed=9)
    first_to_end = None
    played = {row: [] for row in range(4)}
    while first_to_end is None:
        actions = HighestCardFirst().act(game, env.state, info["current_player"])
        for row in range(4):
            played[row].append((obs[row].copy(), int(actions[row]),
                                int(info["current_player"][row])))
        obs, rewards, terminated, truncated, info = env.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        if ended.size:
            first_to_end = int(ended[0])
    moves = played[first_to_end]
    np.testing.assert_array_equal(demos.actions[:len(moves)], [a for _, a, _ in moves])
    recorded = demos.observations.dense(np.arange(len(moves)))
    np.testing.assert_allclose(recorded, np.stack([o for o, _, _ in moves]), atol=2.5e-4)
    np.testing.assert_array_equal(demos.returns[:len(moves)],
                                  [rewards[first_to_end, seat] for _, _, seat in moves])


def test_sparse_rows_write_out_the_rows_they_were_joined_from():
    matrix = np.array([[0.0, 0.5, 0.0, 0.0, 2.0],
                       [0.0, 0.0, 0.0, 0.0, 0.0],
                       [1.25, 0.0, 0.0, 3.0, 0.0],
                       [0.0, 0.0, 0.1, 0.0, 0.0]], np.float32)
    nonzero = [np.flatnonzero(row) for row in matrix]
    # Pieces of any length: rows 0-1 in one, rows 2-3 in another.
    rows = imitation.SparseRows.join(
        5, np.array([2, 0, 2, 1]), [np.array([1, 4]), np.array([0, 3, 2])],
        [np.array([0.5, 2.0]), np.array([1.25, 3.0, 0.1])])
    assert rows.shape == (4, 5) and rows.columns.dtype == np.uint8
    assert [len(c) for c in nonzero] == list(np.diff(rows.starts))
    half = matrix.astype(imitation.OBS_DTYPE).astype(np.float32)  # 0.1 is rounded in float16
    np.testing.assert_array_equal(rows.dense(np.arange(4)), half)
    np.testing.assert_array_equal(rows.dense([3, 1, 0, 3]), half[[3, 1, 0, 3]])
    assert rows.dense([1]).tolist() == [[0.0] * 5]
    assert imitation.SparseRows.column_dtype(3030) == np.uint16


def test_fit_clones_a_deterministic_teacher():
    game = envs.make_game("toy", 3)
    demos = imitation.collect(game, HighestCardFirst(), 4000, num_envs=16, seed=1,
                              progress=False)
    pool = OpponentPool({"random": 1.0})
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(game, 4, pool)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, seed=0,
                        device="cpu")
    before = imitation._accuracy(model.policy, demos, torch.arange(4000))
    stats = imitation.fit(model.policy, demos, epochs=10, batch_size=128, seed=0,
                          progress=False)
    assert stats["epoch"] == 10
    assert stats["accuracy"] > 0.9 > before + 0.2
