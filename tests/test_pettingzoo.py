"""The AEC adapter of every registered game against PettingZoo's own checks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS
from pettingzoo.test import api_test, seed_test

import envs

pytestmark = pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)

# PettingZoo warns that dict observations (and their Dict space) are not plain arrays, and
# that the mask of a seat not to act (or of a finished game) is all zeros: both are the
# classic-env convention we follow.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
)


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    messages = [str(w.message) for w in caught]
    return [m for m in messages if not m.startswith(EXPECTED_WARNINGS)]


def test_pettingzoo_api_test(env_id, num_players):
    env = envs.make_env(env_id, num_players, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    assert not _unexpected(caught)


def test_pettingzoo_seed_test(env_id, num_players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: envs.make_env(env_id, num_players), num_cycles=200)
    assert not _unexpected(caught)


def _play_to_end(env, generator: np.random.Generator) -> list:
    trace = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        action = None
        if not (termination or truncation):
            action = int(generator.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, obs["observation"].copy(), reward, termination, truncation, action))
        env.step(action)
    return trace


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        x[0] == y[0] and np.array_equal(x[1], y[1]) and x[2:] == y[2:]
        for x, y in zip(a, b, strict=True)
    )


def test_reset_without_seed_continues_the_stream(env_id, num_players):
    """reset(seed=s) then reset() plays the game seeded s + 1, on every fresh env."""
    first = envs.make_env(env_id, num_players)
    first.reset(seed=20)
    _play_to_end(first, np.random.default_rng(0))
    first.reset()
    continued = _play_to_end(first, np.random.default_rng(1))
    second = envs.make_env(env_id, num_players)
    second.reset(seed=21)
    assert _same(continued, _play_to_end(second, np.random.default_rng(1)))


def test_final_rewards_and_scores(env_id, num_players):
    env = envs.make_env(env_id, num_players)
    env.reset(seed=3)
    trace = _play_to_end(env, np.random.default_rng(3))
    final = {}
    for agent, _, reward, termination, truncation, _ in trace:
        if termination or truncation:
            final[agent] = reward
    assert set(final) == set(env.possible_agents)
    assert sum(final.values()) == pytest.approx(0.0, abs=1e-6)
    expected = env.state.rewards[0]  # rewards of the ending step
    for seat, agent in enumerate(env.possible_agents):
        assert final[agent] == pytest.approx(float(expected[seat]))
    assert env.agents == []


def test_scores_in_infos_at_the_end(env_id, num_players):
    env = envs.make_env(env_id, num_players)
    env.reset(seed=8)
    generator = np.random.default_rng(8)
    while not env.state.done[0]:
        obs = env.observe(env.agent_selection)
        env.step(int(generator.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.game.scores(env.state)[0]
    for agent in env.possible_agents:
        np.testing.assert_array_equal(env.infos[agent]["scores"], scores)


def test_illegal_action_raises_and_changes_nothing(env_id, num_players):
    env = envs.make_env(env_id, num_players)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    before = env.state.copy()
    for action in (int(illegal[0]), -1, env.game.num_actions):
        with pytest.raises(envs.IllegalActionError, match=env_id):
            env.step(action)
        assert env.state.equals(before) and env.agent_selection == agent


def test_render_ansi_returns_the_board(env_id, num_players):
    env = envs.make_env(env_id, num_players, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game.render(env.state, 0)
    assert env.metadata["name"] == f"{env_id}_v{env.game.VERSION}"
