"""Self-play rollouts on Ray (``train.ray_env``): the sharded env plays the local env's games."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from toy_agents import HighestCardFirst, LowestCardFirst

import envs
from envs.core.sampling import sample_actions

pytest.importorskip("ray")
pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.policy import checkpoint_info, load_policy_agent
from train.config import resolve
from train.pool import OpponentPool
from train.ray_env import RaySelfPlayVecEnv
from train.selfplay import main
from train.vec_env import SelfPlayVecEnv

torch.set_num_threads(1)


def toy_pool(weights: dict[str, float], deterministic: bool = False) -> OpponentPool:
    """The toy scripted agents (deterministic, so shards and the local env play alike)."""
    pool = OpponentPool(weights, opponent_deterministic=deterministic, seed=3)
    pool.add("scripted", "highest_first", HighestCardFirst())
    pool.add("scripted", "lowest_first", LowestCardFirst())
    return pool


def assert_same_rows(local: SelfPlayVecEnv, sharded: RaySelfPlayVecEnv) -> None:
    for name in ("episodes", "learner_seat", "opponent_id"):
        np.testing.assert_array_equal(getattr(sharded, name), getattr(local, name), name)
    np.testing.assert_array_equal(sharded.game_seeds(), local.game_seeds())


def assert_same_steps(local: SelfPlayVecEnv, sharded: RaySelfPlayVecEnv, steps: int,
                      seed: int) -> list[str]:
    """Step both with the same learner actions; returns the opponents of the games ended."""
    generator = np.random.default_rng(seed)
    met = []
    for _ in range(steps):
        masks = local.action_masks()
        np.testing.assert_array_equal(sharded.action_masks(), masks)
        actions = sample_actions(masks, generator)
        (obs, rewards, dones, infos), expected = sharded.step(actions), local.step(actions)
        np.testing.assert_array_equal(obs, expected[0])
        np.testing.assert_array_equal(rewards, expected[1])
        np.testing.assert_array_equal(dones, expected[2])
        for info, want in zip(infos, expected[3], strict=True):
            assert info.keys() == want.keys()
            for key in info.keys() - {"episode"}:
                np.testing.assert_array_equal(info[key], want[key], key)
            if "episode" in info:
                assert (info["episode"]["r"], info["episode"]["l"]) == (
                    want["episode"]["r"], want["episode"]["l"])
                met.append(info["opponent"])
        assert_same_rows(local, sharded)
    return met


def test_sharded_rollouts_match_the_local_env_step_for_step(local_ray):
    """Row i's k-th game: seed ``seed + i + k * B``, learner seat ``(i + k) % P``, the opponent
    drawn from that seed, and the same play, whichever shard holds the row."""
    game = envs.make_game("toy", 3)
    local = SelfPlayVecEnv(game, 7, toy_pool({"scripted": 1.0}), seed=2)
    sharded = RaySelfPlayVecEnv(game, 7, toy_pool({"scripted": 1.0}), seed=2, num_workers=2)
    rows = np.arange(7)
    try:
        np.testing.assert_array_equal(sharded.reset(), local.reset())
        assert_same_rows(local, sharded)
        np.testing.assert_array_equal(sharded.game_seeds(), 2 + rows)
        met = assert_same_steps(local, sharded, 40, seed=0)
        assert len(met) > 20 and set(met) == {"highest_first", "lowest_first"}
        # A resumed run's counters, and SB3's seed() at setup, reach every shard.
        counters = rows * 3 + 1
        for env in (local, sharded):
            env.restore_episodes(counters)
            env.reset()
        assert_same_rows(local, sharded)
        np.testing.assert_array_equal(sharded.game_seeds(), 2 + rows + counters * 7)
        np.testing.assert_array_equal(sharded.learner_seat, (rows + counters) % 3)
        for env in (local, sharded):
            env.seed(9)
            env.reset()
        assert_same_rows(local, sharded)
        np.testing.assert_array_equal(sharded.game_seeds(), 9 + rows)
        assert_same_steps(local, sharded, 10, seed=1)
    finally:
        sharded.close()


def test_policy_opponents_in_the_shards_follow_the_learner(local_ray):
    """Argmax policy opponents play alike in the shards and locally, as long as the shards get
    every snapshot and the learner's new weights (``sync_opponents``)."""
    game = envs.make_game("toy", 3)
    space = SelfPlayVecEnv(game, 1, toy_pool({"scripted": 1.0}))
    policy = MaskableActorCriticPolicy(space.observation_space, space.action_space,
                                       lambda _: 3e-4, net_arch=[16])
    weights = {"scripted": 1.0, "self": 1.0, "snapshot": 1.0}
    pools = [toy_pool(weights, deterministic=True) for _ in range(2)]
    for pool in pools:
        pool.set_learner(policy)
        pool.add_snapshot(policy, 0)
    local = SelfPlayVecEnv(game, 12, pools[0], seed=5)
    sharded = RaySelfPlayVecEnv(game, 12, pools[1], seed=5, num_workers=2)
    try:
        np.testing.assert_array_equal(sharded.reset(), local.reset())
        met = assert_same_steps(local, sharded, 12, seed=1)
        # An update: the live policy changes and a snapshot of it joins both pools.
        with torch.no_grad():
            for param in policy.parameters():
                param.add_(torch.randn_like(param))
        for pool in pools:
            pool.add_snapshot(policy, 100)
        sharded.sync_opponents()
        met += assert_same_steps(local, sharded, 20, seed=2)
        assert {"self", "snapshot@0", "snapshot@100"} <= set(met)
    finally:
        sharded.close()


# ---------------------------------------------------------------------- the command
RAY_RUN = ["--env", "toy", "--players", "3", "--num-envs", "16", "--n-steps", "32",
           "--batch-size", "128", "--net-arch", "32,32", "--snapshot-every", "1",
           "--checkpoint-every", "1", "--eval-games", "3", "--elo-games", "0", "--no-progress",
           "--ray", "--ray-workers", "2"]


def test_selfplay_on_ray_trains_checkpoints_and_resumes(local_ray, toy_baselines, tmp_path):
    run = main([*RAY_RUN, "--timesteps", "1024", "--out", str(tmp_path / "runs")])
    final = run / "checkpoints" / "final.zip"
    info = checkpoint_info(final)
    assert (info["timesteps"], info["updates"]) == (1024, 2)
    assert info["config"]["ray"] and info["config"]["ray_workers"] == 2
    episodes = np.array(info["env_episodes"])
    assert episodes.shape == (16,) and (episodes > 0).all()
    load_policy_agent(final, "toy", 3)
    # Resume a copy: the counters go back to the shards, which continue from them.
    run = Path(shutil.copytree(run, tmp_path / "copy" / run.name))
    assert main(["--resume", str(run / "checkpoints" / "latest.zip"), "--timesteps", "2048",
                 "--no-progress"]) == run
    info = checkpoint_info(run / "checkpoints" / "final_2048.zip")
    assert (info["timesteps"], info["updates"]) == (2048, 4)
    assert (np.array(info["env_episodes"]) > episodes).all()
    assert len(list((run / "pool").glob("snapshot_*.pt"))) == 2  # after updates 1 and 3


def test_ray_options_are_checked_before_ray_starts():
    assert resolve(["--env", "toy", "--ray-address", "10.0.0.1:6379"])[0].ray
    with pytest.raises(SystemExit, match="--ray-workers 17 exceeds --num-envs 16"):
        main([*RAY_RUN, "--ray-workers", "17"])
