"""Shared fixtures: the test-only toy game joins the registry for the test session only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import envs
from envs.core.registry import game_class

sys.path.insert(0, str(Path(__file__).parent))

from toy_agents import TOY_BASELINES
from toy_game import ToyGame

if "toy" not in envs.list_envs():
    envs.register("toy", ToyGame)

# Every registered env id x player count: a newly registered game is covered at once.
ENV_CASES = [
    (env_id, num_players)
    for env_id in envs.list_envs()
    for num_players in game_class(env_id).PLAYER_COUNTS
]
ENV_IDS = [f"{env_id}-{p}p" for env_id, p in ENV_CASES]


@pytest.fixture(scope="module")
def toy_baselines():
    """The toy game's scripted baselines registered for one test module."""
    import agents

    agents.register_baselines("toy", TOY_BASELINES)
    yield
    agents.unregister_baselines("toy")


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray of 2 CPUs for the tests of one module (skipped without Ray)."""
    ray = pytest.importorskip("ray")
    from benchmarks.tournament import init_ray

    init_ray(num_cpus=2, include_dashboard=False)
    yield ray
    ray.shutdown()
