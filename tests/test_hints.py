"""Action hints (``agents.hints``): the scripted agents' action values as policy inputs."""

from __future__ import annotations

import numpy as np
import pytest
from toy_agents import TOY_BASELINES

import agents
import envs
from agents.hints import ActionHints, parse_hints
from envs.cairo.state import Phase

CAIRO_HINTS = "greedy,economist,medal_hunter"


def _cairo_positions(num_players: int, batch: int, moves: int, seed: int):
    """A batch of cairo positions after ``moves`` steps of medal_hunter play."""
    game = envs.make_game("cairo", num_players)
    state = game.init(batch, seed=seed)
    player = agents.make_agent("medal_hunter", "cairo", num_players, seed=seed)
    for _ in range(moves):
        state = game.step(state, player.act(game, state, np.maximum(state.current_player, 0)))
    return game, state


def test_parse_hints_and_bad_names():
    assert parse_hints(None) == () and parse_hints("") == ()
    assert parse_hints(" greedy, medal_hunter ,") == ("greedy", "medal_hunter")
    assert parse_hints(["economist"]) == ("economist",)
    game = envs.make_game("cairo", 3)
    with pytest.raises(ValueError, match=r"hint agent 'nope': cairo has the scripted agents"):
        ActionHints("greedy,nope").check(game)
    with pytest.raises(ValueError, match="hint agent 'random'"):
        ActionHints("random").check(game)


def test_plain_hints_are_the_observation():
    game, state = _cairo_positions(3, 4, 30, seed=1)
    hints = ActionHints()
    assert not hints and hints.shape(game) == tuple(game.observation_shape)
    np.testing.assert_array_equal(hints.observe(game, state, 1), game.observe(state, 1))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_cairo_hints_mark_each_agents_choice(num_players):
    """Every hint is in [0, 1], 0 on illegal actions and for seats not to act, and exactly 1
    on the action the agent plays (its tie noise only picks among the 1s)."""
    game, state = _cairo_positions(num_players, 24, 40 + 20 * num_players, seed=num_players)
    hints = ActionHints(CAIRO_HINTS)
    seat = np.maximum(state.current_player, 0)
    obs = hints.observe(game, state, seat)
    size = game.observation_shape[0]
    assert obs.shape == (24, size + 3 * game.num_actions) == (24, *hints.shape(game))
    np.testing.assert_array_equal(obs[:, :size], game.observe(state, seat))
    low, high = hints.bounds(game)
    assert (obs >= low).all() and (obs <= high).all()
    features = obs[:, size:].reshape(24, 3, game.num_actions)
    mask = game.legal_action_mask(state)
    live = np.flatnonzero(~state.done)
    assert live.size > 12
    assert (features[:, :, ~mask.any(axis=0)] == 0).all()
    assert (features * ~mask[:, None, :] == 0).all()
    for k, name in enumerate(parse_hints(CAIRO_HINTS)):
        chosen = agents.make_agent(name, "cairo", num_players, seed=3).act(game, state, seat)
        assert (features[live, k, chosen[live]] == 1.0).all(), name
        assert (features[live, k].max(axis=1) == 1.0).all()
    # A seat that is not to act reads no hints.
    other = (seat + 1) % num_players
    assert (hints.features(game, state, other)[live] == 0).all()


def test_cairo_agents_sharing_one_view_value_as_each_alone():
    """The hints' three agents build one view of the state (``shared``): every value is the
    one the agent gives alone, in every phase the positions reach, lures included."""
    game, state = _cairo_positions(3, 48, 150, seed=5)
    seat = np.maximum(state.current_player, 0)
    phases = set(state.phase[~state.done].tolist())
    assert len(phases) >= 4 and int(Phase.TURN) in phases
    shared: dict[object, object] = {}
    for name in parse_hints(CAIRO_HINTS):
        agent = agents.make_agent(name, "cairo", 3, seed=0)
        together = agent.action_values(game, state, seat, shared)
        np.testing.assert_array_equal(together, agent.action_values(game, state, seat), name)
    assert len(shared) == 1  # one view, built by the first agent


def test_cairo_hints_read_no_hidden_information():
    game, state = _cairo_positions(3, 16, 80, seed=7)
    hints = ActionHints(CAIRO_HINTS)
    for seat in range(3):
        expected = hints.observe(game, state, seat)
        for seed in (0, 1):
            other = game.resample_hidden(state, seat, seed)
            np.testing.assert_array_equal(hints.observe(game, other, seat), expected)


def test_self_play_env_and_policy_agent_read_the_hints(toy_baselines):
    from sb3_contrib import MaskablePPO

    from agents.policy import PolicyAgent
    from train.pool import OpponentPool
    from train.vec_env import SelfPlayVecEnv

    game = envs.make_game("toy", 3)
    hints = ActionHints("highest_first")
    pool = OpponentPool({"self": 1.0, "scripted": 1.0}, seed=0, hints=hints)
    pool.add_baselines("toy", 3)
    env = SelfPlayVecEnv(game, 8, pool, seed=0)
    assert env.observation_space.shape == (game.observation_shape[0] + game.num_actions,)
    obs = env.reset()
    np.testing.assert_array_equal(obs, hints.observe(game, env.state, env.learner_seat))
    chosen = TOY_BASELINES["highest_first"](3, 0).act(game, env.state, env.learner_seat)
    assert (obs[np.arange(8), game.observation_shape[0] + chosen] == 1.0).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu")
    pool.set_learner(model.policy)
    assert pool.learner().agent.hints is hints
    model.learn(64)  # the learner and its live copy among the opponents both read hints
    agent = PolicyAgent(model.policy, hints=hints)
    state = game.init(8, seed=3)
    actions = agent.act(game, state, state.current_player)
    assert game.legal_action_mask(state)[np.arange(8), actions].all()
