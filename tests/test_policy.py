"""The trained-policy agent and the checkpoint format (agents.policy, train.checkpoint)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import agents
import envs

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

from agents.policy import (
    METADATA_ENTRY,
    PolicyAgent,
    checkpoint_info,
    load_policy_agent,
    sample_from_log_probs,
)
from train.checkpoint import save_checkpoint
from train.pool import OpponentPool
from train.vec_env import SelfPlayVecEnv

torch.set_num_threads(1)


def metadata(**overrides) -> dict:
    return {"env_id": "toy", "num_players": 3, "version": 1, "options": {}, "timesteps": 123,
            **overrides}


@pytest.fixture(scope="module")
def model():
    pool = OpponentPool({"random": 1.0})
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(envs.make_game("toy", 3), 4, pool, seed=0)
    return MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu",
                       policy_kwargs={"net_arch": [16]})


@pytest.fixture(scope="module")
def checkpoint(model, tmp_path_factory) -> Path:
    return save_checkpoint(model, tmp_path_factory.mktemp("ckpt") / "agent.zip", metadata())


def test_checkpoint_info_reads_the_metadata_entry(checkpoint):
    info = checkpoint_info(checkpoint)
    assert (info["env_id"], info["num_players"], info["timesteps"]) == ("toy", 3, 123)
    assert info["version"] == info["VERSION"] == 1
    assert info["format"] == 1
    with zipfile.ZipFile(checkpoint) as archive:
        assert {"data", "policy.pth", METADATA_ENTRY} <= set(archive.namelist())
    # Still an ordinary SB3 checkpoint.
    assert MaskablePPO.load(str(checkpoint), device="cpu").observation_space.shape == (21,)


def test_policy_agent_acts_legally_on_a_batch_for_any_seat(checkpoint):
    game = envs.make_game("toy", 3)
    state = game.init(200, seed=4)
    for deterministic in (True, False):
        agent = load_policy_agent(checkpoint, "toy", 3, deterministic=deterministic, seed=1)
        for _ in range(30):
            mask = game.legal_action_mask(state)
            seats = state.current_player
            actions = agent.act(game, state, seats)  # one call, a seat per row
            assert actions.shape == (200,) and actions.dtype == np.int64
            live = ~state.done
            assert mask[np.flatnonzero(live), actions[live]].all()
            for seat in range(3):  # one seat at a time, as the arena asks
                rows = live & (seats == seat)
                seat_actions = agent.act(game, state, seat)
                assert mask[np.flatnonzero(rows), seat_actions[rows]].all()
            state = game.step(state, np.where(live, actions, 0))
            if state.done.all():
                break


def test_deterministic_agent_plays_the_argmax_of_the_network(checkpoint, model):
    game = envs.make_game("toy", 3)
    state = game.init(64, seed=0)
    agent = load_policy_agent(checkpoint, "toy", 3)
    obs = game.observe(state, state.current_player)
    masks = np.array(game.legal_action_mask(state))
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(agent.act(game, state, state.current_player), expected)


def test_policies_reading_one_input_act_as_each_would_alone(checkpoint):
    """``act_by_owner`` observes once for the policies that read the same input (a pool's
    snapshots); each still acts, its draws included, as it would on its own rows alone."""
    from toy_agents import LowestCardFirst

    from agents.arena import _input_groups, act_by_owner

    game = envs.make_game("toy", 3)
    state = game.init(60, seed=3)
    owner = np.arange(60) % 3  # policies 0 and 1, a script 2

    def field():
        return {0: load_policy_agent(checkpoint, "toy", 3, deterministic=False, seed=1),
                1: load_policy_agent(checkpoint, "toy", 3, deterministic=False, seed=2),
                2: LowestCardFirst()}

    shared, alone = field(), field()
    assert _input_groups(shared, [0, 1, 2]) == [[0, 1], [2]]
    for _ in range(6):
        actions = act_by_owner(game, state, shared, owner)
        expected = np.zeros(60, dtype=np.int64)
        for k, agent in alone.items():
            rows = np.flatnonzero(owner == k)
            sub = game.take(state, rows)
            expected[rows] = agent.act(game, sub, sub.current_player.astype(np.int64))
        np.testing.assert_array_equal(actions, expected)
        state = game.step(state, np.where(state.done, 0, actions))


def test_checkpoint_says_whether_its_agent_samples(checkpoint, model, tmp_path):
    assert load_policy_agent(checkpoint, "toy", 3).deterministic, "argmax unless told"
    sampling = save_checkpoint(model, tmp_path / "s.zip", metadata(deterministic=False))
    assert not load_policy_agent(sampling, "toy", 3).deterministic
    assert load_policy_agent(sampling, "toy", 3, deterministic=True).deterministic


def test_make_agent_loads_a_checkpoint_path(checkpoint):
    agent = agents.make_agent(str(checkpoint), "toy", 3)
    assert isinstance(agent, PolicyAgent)
    assert (agent.env_id, agent.num_players) == ("toy", 3)


def test_checkpoint_of_another_game_count_or_version_is_refused(checkpoint, model, tmp_path):
    with pytest.raises(ValueError, match="3 players, not 2"):
        load_policy_agent(checkpoint, "toy", 2)
    with pytest.raises(ValueError, match="not 'nope'"):
        load_policy_agent(checkpoint, "nope", 3)
    other = save_checkpoint(model, tmp_path / "other.zip", metadata(env_id="cairo"))
    with pytest.raises(ValueError, match="trained on env 'cairo', not 'toy'"):
        load_policy_agent(other, "toy", 3)
    old = save_checkpoint(model, tmp_path / "old.zip", metadata(version=0))
    with pytest.raises(ValueError, match="v0"):
        load_policy_agent(old, "toy", 3)
    with pytest.raises(ValueError, match="not 2"):
        agents.make_agent(str(checkpoint), "toy", 2)


def test_files_that_are_not_checkpoints_are_refused(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        checkpoint_info(tmp_path / "missing.zip")
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as archive:
        archive.writestr("data", "{}")
    with pytest.raises(ValueError, match="not a Tradewinds checkpoint"):
        checkpoint_info(bare)
    text = tmp_path / "notes.zip"
    text.write_text("hello")
    with pytest.raises(ValueError, match="not a checkpoint zip"):
        checkpoint_info(text)


def test_a_failed_save_leaves_the_previous_checkpoint_whole(checkpoint, tmp_path):
    target = tmp_path / "ckpt.zip"
    target.write_bytes(checkpoint.read_bytes())

    class DiskFull:
        def save(self, path):
            Path(path).write_bytes(b"half a zip")
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        save_checkpoint(DiskFull(), target, metadata())
    assert target.read_bytes() == checkpoint.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.zip"], "no temp file left"
    with pytest.raises(ValueError, match="lacks"):
        save_checkpoint(DiskFull(), target, {"env_id": "toy"})
    assert json.loads(zipfile.ZipFile(target).read(METADATA_ENTRY))["timesteps"] == 123


def test_sampling_never_picks_a_masked_action():
    generator = np.random.default_rng(0)
    with np.errstate(divide="ignore"):
        logits = np.log(np.array([[0.0, 0.5, 0.0, 0.5], [1e-9, 0.0, 0.0, 1.0 - 1e-9]]))
    draws = np.stack([sample_from_log_probs(logits, generator) for _ in range(2000)])
    assert set(np.unique(draws[:, 0])) == {1, 3}
    assert set(np.unique(draws[:, 1])) <= {0, 3}
    assert abs((draws[:, 0] == 1).mean() - 0.5) < 0.05
