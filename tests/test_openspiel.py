"""The OpenSpiel bridge (``envs.openspiel``): OpenSpiel's own checks pass on every game, a
pyspiel state plays exactly like the AEC env, and information states survive resampling."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from agent_checks import assert_agent_ignores_hidden  # noqa: E402
from conftest import ENV_CASES, ENV_IDS  # noqa: E402

import envs  # noqa: E402
import envs.openspiel as bridge  # noqa: E402
from envs import docs  # noqa: E402
from envs.core.registry import game_class  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [e for e in envs.list_envs() if docs.shipped(game_class(e))]
DEFAULT_CASES = [(e, game_class(e).DEFAULT_PLAYERS) for e in envs.list_envs()]


def load(env_id: str, num_players: int, **params) -> pyspiel.Game:
    return pyspiel.load_game(bridge.register(env_id), {"players": num_players, **params})


def random_walk(state: pyspiel.State, generator: np.random.Generator, steps: int):
    """Yield ``state`` before each of up to ``steps`` random legal actions (applied)."""
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply_action(int(generator.choice(state.legal_actions())))


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_openspiel_random_sim_test_passes(env_id, num_players):
    # OpenSpiel's conformance check: clones equal, legal actions sorted and for the acting
    # seat only, unique action strings, observations of every seat finite and of the
    # declared size, rewards adding up to the returns, zero-sum returns within the
    # utilities, the game within max_game_length.
    game = load(env_id, num_players, seed=num_players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_openspiel_random_sim_test_passes_on_many_deals(env_id, num_players):
    for seed in range(1, 6):
        game = load(env_id, num_players, seed=100 * seed + num_players)
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def play_side_by_side(env_id: str, num_players: int, seed: int) -> int:
    """One random game through pyspiel and through the AEC env with the same seed and
    actions; every step they agree. Returns the decisions played."""
    game = load(env_id, num_players, seed=seed)
    state = game.new_initial_state()
    env = envs.make_env(env_id, num_players)
    env.reset(seed=seed)
    generator = np.random.default_rng(seed)
    returns = np.zeros(num_players)
    decisions = 0
    while True:
        for seat, agent in enumerate(env.possible_agents):
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat)),
                                          env.observe(agent)["observation"])
        np.testing.assert_allclose(state.returns(), returns, atol=1e-6)
        if state.is_terminal():
            assert not env.agents or all(env.terminations[a] or env.truncations[a]
                                         for a in env.agents)
            return decisions
        agent = env.agent_selection
        assert state.current_player() == env.possible_agents.index(agent)
        mask = env.observe(agent)["action_mask"]
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        action = int(generator.choice(state.legal_actions()))
        state.apply_action(action)
        env.step(action)
        decisions += 1
        returns += [env.rewards[a] for a in env.possible_agents]


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_a_pyspiel_state_plays_like_the_aec_env(env_id, num_players):
    assert play_side_by_side(env_id, num_players, seed=10 + num_players) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_a_pyspiel_state_plays_like_the_aec_env_on_many_deals(env_id, num_players):
    for seed in range(20, 25):
        play_side_by_side(env_id, num_players, seed)


@pytest.mark.parametrize(("env_id", "num_players"), DEFAULT_CASES)
def test_resampled_states_keep_the_seats_information_state(env_id, num_players):
    # OpenSpiel's ResampleInfostateTest (C++ only), plus what IS-MCTS relies on: the
    # resampled state shows the seat the same observation and legal actions; the other
    # seats' information states follow their own (redrawn) view.
    start = load(env_id, num_players).new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    others_changed = 0
    for state in random_walk(start, np.random.default_rng(1), steps=60):
        for seat in range(num_players):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.current_player() == state.current_player()
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            for q in range(num_players):
                same_view = other.observation_tensor(q) == state.observation_tensor(q)
                same_key = other.information_state_string(q) == state.information_state_string(q)
                assert same_view or not same_key, "one key for two views"
                others_changed += not same_view
    if game_class(env_id).HAS_HIDDEN_INFO:
        assert others_changed, "resampling never changed what another seat sees"


def test_the_information_state_is_the_observation_history():
    state = load("cairo", 3).new_initial_state()
    keys = [state.information_state_string(p) for p in range(3)]
    assert len(set(keys)) == 3  # seats see different hands
    clone = state.clone()
    assert [clone.information_state_string(p) for p in range(3)] == keys
    state.apply_action(state.legal_actions()[0])
    after = [state.information_state_string(p) for p in range(3)]
    assert not set(after) & set(keys)
    # A seat's key is a digest of its view after every step, not of the current view alone:
    # a position taken on its own (state_at) starts a history of its own.
    game = state.get_game()
    fresh = game.state_at(state.tradewinds_state)
    assert fresh.observation_tensor(0) == state.observation_tensor(0)
    assert fresh.information_state_string(0) != state.information_state_string(0)


def test_parameters_are_the_players_the_seed_and_the_options():
    game = load("cairo", 4, seed=5, reveal_money=False, max_turns=50)
    rules = game.tradewinds_game
    assert (rules.num_players, rules.options["reveal_money"], rules.options["max_turns"]) == (
        4, False, 50)
    assert game.num_players() == 4 and game.num_distinct_actions() == rules.num_actions
    assert game.max_game_length() == rules.max_decisions
    assert game.observation_tensor_shape() == [rules.observation_shape[0]]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor
    expected = envs.make_game("cairo", 4, reveal_money=False, max_turns=50).init(1, seed=5)
    assert game.new_initial_state().tradewinds_state.equals(expected)
    with pytest.raises(ValueError, match="unsupported num_players"):
        load("cairo", 7)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        load("cairo", 3, bogus=1)


def test_strings_are_the_games_renders_and_action_names():
    state = load("junk", 3).new_initial_state()
    rules = state.get_game().tradewinds_game
    assert str(state) == rules.render(state.tradewinds_state, 0)
    assert state.observation_string(1) == rules.render(state.tradewinds_state, 0, seat=1)
    action = state.legal_actions()[-1]
    assert state.action_to_string(action) == rules.action_name(action)


def test_without_pyspiel_the_import_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    spec = importlib.util.spec_from_file_location("openspiel_without_pyspiel",
                                                  ROOT / "envs" / "openspiel.py")
    with pytest.raises(ImportError, match="pip install open-spiel"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


@pytest.mark.parametrize("env_id", SHIPPED)
def test_the_game_page_names_the_openspiel_game(env_id):
    assert f"`{bridge.game_string(env_id)}`" in docs.path_of(env_id).read_text()


def test_the_readme_openspiel_example_runs():
    readme = (ROOT / "README.md").read_text()
    (example,) = re.findall(r"```py\n(.*?)```", readme, re.S)
    assert "python_tradewinds_cairo" in example
    exec(compile(example, "README OpenSpiel example", "exec"), {})


@pytest.mark.parametrize(("env_id", "num_players"), DEFAULT_CASES)
def test_openspiel_ismcts_plays_legal_moves_blind_to_hidden_information(env_id, num_players):
    import agents

    game = envs.make_game(env_id, num_players)
    agent = agents.make_agent("openspiel_ismcts", env_id, num_players, seed=0, simulations=6)
    state = game.init(2, seed=4)
    for step in range(3):
        actions = agent.act(game, state, state.current_player.copy())
        assert game.legal_action_mask(state)[np.arange(2), actions].all()
        seat = int(state.current_player[0])
        assert_agent_ignores_hidden(game, agent, state.take(np.array([0])), seat, seeds=(step,))
        game.step(state, actions)


def test_openspiel_ismcts_is_a_guest_with_options_and_a_seed():
    import agents
    from agents.openspiel_ismcts import OpenSpielISMCTSAgent

    assert "openspiel_ismcts" not in agents.list_agents("cairo")
    agent = agents.make_agent("openspiel_ismcts:simulations=5:uct_c=2.0", "cairo", 3)
    assert isinstance(agent, OpenSpielISMCTSAgent) and agent.name.startswith("openspiel_ismcts")
    assert agent.options == {"simulations": 5, "rollout_depth": 6, "uct_c": 2.0}
    with pytest.raises(ValueError, match="openspiel_ismcts option 'guide=greedy'"):
        agents.make_agent("openspiel_ismcts:guide=greedy", "cairo", 3)
    with pytest.raises(ValueError, match="already exists"):
        agents.register_baselines("cairo", {"openspiel_ismcts": agents.RandomAgent})
    game = envs.make_game("discoveries", 3)
    state = game.init(3, seed=8)
    picks = [agents.make_agent("openspiel_ismcts", "discoveries", 3, seed=1, simulations=8)
             .act(game, state, state.current_player) for _ in range(2)]
    np.testing.assert_array_equal(*picks)


def test_the_resampler_draws_a_new_world_every_time_from_its_seed():
    from agents.openspiel_ismcts import Resampler

    state = load("junk", 4).new_initial_state()
    seat = state.current_player()
    worlds = [str(resample(state, seat)) for resample in [Resampler(seed=0)] for _ in range(4)]
    assert len(set(worlds)) == 4
    again = Resampler(seed=0)
    assert [str(again(state, seat)) for _ in range(4)] == worlds


def test_openspiel_ismcts_is_rated_as_a_tournament_guest():
    from benchmarks.tournament import run_tournament

    # (an agent with options needs a label: the list reads label=spec)
    result = run_tournament("toy", 2, "random,random_twin=random", 2, progress=False,
                            bootstrap_samples=10, guests="os4=openspiel_ismcts:simulations=4",
                            guest_games=2)
    assert result.guests == ["os4"] and (result.seat_agents == 2).any()
