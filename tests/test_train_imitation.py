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
    assert demos.masks[np.arange(600), demos.actions].all(), "every action was legal"
    # The toy game pays only a rank reward at the end: +1, 0 or -1 (or a shared split).
    assert set(np.unique(demos.returns)) <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert demos.returns.mean() == pytest.approx(0.0, abs=0.15), "zero-sum over seats"
    # HighestCardFirst plays the highest legal card whenever it holds one.
    playing = demos.masks[:, :4].any(axis=1)
    highest = np.where(demos.masks[:, :4], np.arange(4), -1).max(axis=1)
    np.testing.assert_array_equal(demos.actions[playing], highest[playing])


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
