"""``--value-warmup``: the first PPO updates train the value function alone."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

import envs
from train.callbacks import ValueWarmup
from train.pool import OpponentPool
from train.vec_env import SelfPlayVecEnv

torch.set_num_threads(1)


def _params(module: torch.nn.Module) -> torch.Tensor:
    return torch.cat([p.detach().flatten().clone() for p in module.parameters()])


def _updates(warmup: ValueWarmup, count: int) -> list[tuple[bool, bool]]:
    """Whether the policy's and the value function's layers changed in each of ``count``
    PPO updates on the toy game."""
    pool = OpponentPool({"random": 1.0})
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(envs.make_game("toy", 3), 4, pool)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=2, seed=0,
                        policy_kwargs={"net_arch": {"pi": [16], "vf": [16]}}, device="cpu")
    policy = model.policy
    actor = torch.nn.ModuleList([policy.mlp_extractor.policy_net, policy.action_net])
    critic = torch.nn.ModuleList([policy.mlp_extractor.value_net, policy.value_net])
    changed = []
    for _ in range(count):
        actor_before, critic_before = _params(actor), _params(critic)
        model.learn(16 * 4, callback=warmup, reset_num_timesteps=False)  # one update
        changed.append((not torch.equal(_params(actor), actor_before),
                        not torch.equal(_params(critic), critic_before)))
    return changed


def test_value_warmup_freezes_the_policy_for_its_updates_only():
    warmup = ValueWarmup(updates=2)
    # Two updates move the value function alone; the third moves both.
    assert _updates(warmup, 3) == [(False, True), (False, True), (True, True)]
    assert warmup.done == 3


def test_a_resumed_warmup_counts_the_updates_already_made():
    assert _updates(ValueWarmup(updates=2, done=1), 2) == [(False, True), (True, True)]
