"""Shared fixtures: the test-only toy game joins the registry for the test session only.

Before the whole suite, the games' serial kernels are compiled several games at once
(``pytest_sessionstart``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import envs
from envs.core.registry import game_class

sys.path.insert(0, str(Path(__file__).parent))

from toy_agents import TOY_BASELINES
from toy_game import ToyGame

GAMES = [env_id for env_id in envs.list_envs() if env_id != "toy"]  # the suite's own
if "toy" not in envs.list_envs():
    envs.register("toy", ToyGame)

# Every registered env id x player count: a newly registered game is covered at once.
ENV_CASES = [
    (env_id, num_players)
    for env_id in envs.list_envs()
    for num_players in game_class(env_id).PLAYER_COUNTS
]
ENV_IDS = [f"{env_id}-{p}p" for env_id, p in ENV_CASES]


def pytest_sessionstart(session: pytest.Session) -> None:
    """For the whole suite (``pytest`` with no paths), compile every game's serial kernels
    first, one game a core: numba compiles on one core, and the tests would compile the four
    games one after the other (most of a fresh clone's test run). A warm cache loads them in
    seconds; a run of chosen tests compiles only what they use."""
    from numba.core import config

    if config.DISABLE_JIT or session.config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    from envs.compile import compile_envs

    compile_envs(GAMES, jobs=min(len(os.sched_getaffinity(0)), len(GAMES)), threads=(1,))


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
