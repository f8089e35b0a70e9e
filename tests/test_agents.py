"""The agent registry (agents.list_agents / make_agent) and the scripted-agent checks."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden, assert_agent_plays_legally
from toy_agents import (
    TOY_BASELINES,
    DeckPeeker,
    HighestCardFirst,
    LowestCardFirst,
    ValueDrawer,
)
from toy_game import Phase

import agents
import envs
from agents.base import NEG
from agents.random_agent import RandomAgent


@pytest.fixture
def toy_baselines():
    agents.register_baselines("toy", TOY_BASELINES)
    yield list(TOY_BASELINES)
    agents.unregister_baselines("toy")


@pytest.fixture
def fake_policy_module(monkeypatch):
    """An ``agents.policy`` whose loader returns an agent that says what it was made for."""
    module = types.ModuleType("agents.policy")
    calls = []

    def load_policy_agent(path, env_id, num_players, seed=0):
        calls.append((path, env_id, num_players, seed))
        agent = RandomAgent(seed)
        agent.env_id, agent.num_players = module.trained_on
        return agent

    module.load_policy_agent = load_policy_agent
    module.trained_on = ("toy", 2)
    module.calls = calls
    monkeypatch.setitem(sys.modules, "agents.policy", module)
    return module


# ----------------------------------------------------------------------- list_agents
def test_list_agents_puts_random_first_then_the_baselines_then_search(toy_baselines):
    assert agents.list_agents("toy") == ["random", *toy_baselines, "ismcts"]
    assert agents.list_baselines("toy") == toy_baselines


def test_a_game_without_baselines_has_random_and_search_only():
    assert agents.list_agents("toy") == ["random", "ismcts"]


def test_baselines_module_is_imported_lazily_and_listed_before_registered(monkeypatch):
    module = types.ModuleType("agents.toy")
    module.BASELINES = {"from_module": lambda num_players, seed: HighestCardFirst()}
    monkeypatch.setitem(sys.modules, "agents.toy", module)
    agents.register_baselines("toy", {"registered": lambda n, s: LowestCardFirst()})
    try:
        assert agents.list_baselines("toy") == ["from_module", "registered"]
        assert isinstance(agents.make_agent("from_module", "toy", 2), HighestCardFirst)
    finally:
        agents.unregister_baselines("toy")


def test_unknown_env_id_raises_the_registry_error():
    with pytest.raises(ValueError, match=r"unknown env id 'nope'; valid: .*toy"):
        agents.list_agents("nope")
    with pytest.raises(ValueError, match="unknown env id 'nope'"):
        agents.make_agent("random", "nope", 2)


# ----------------------------------------------------------------------- make_agent
def test_make_agent_builds_random_and_baselines_that_act_on_a_batch(toy_baselines):
    game = envs.make_game("toy", 3)
    state = game.init(16, seed=3)
    for name in agents.list_agents("toy"):
        agent = agents.make_agent(name, "toy", 3, seed=1)  # ismcts with its default budget
        assert agent.name == name
        actions = agent.act(game, state, 0)
        assert actions.shape == (16,)
        mask = game.legal_action_mask(state)
        assert mask[np.arange(16), actions].all()


def test_make_agent_seeds_the_random_agent():
    game = envs.make_game("toy", 2)
    state = game.init(64, seed=0)
    first = agents.make_agent("random", "toy", 2, seed=5).act(game, state, 0)
    again = agents.make_agent("random", "toy", 2, seed=5).act(game, state, 0)
    other = agents.make_agent("random", "toy", 2, seed=6).act(game, state, 0)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_unknown_agent_name_lists_the_valid_names(toy_baselines):
    with pytest.raises(ValueError, match=r"unknown agent 'greedy'.*random, highest_first, "
                                         r"lowest_first, ismcts, the guest "
                                         r"openspiel_ismcts, or the path of a trained-policy"):
        agents.make_agent("greedy", "toy", 2)


def test_make_agent_rejects_an_unsupported_player_count():
    with pytest.raises(ValueError, match="unsupported num_players=5; valid: 2, 3"):
        agents.make_agent("random", "toy", 5)


def test_register_baselines_rejects_reserved_repeated_and_malformed_names(toy_baselines):
    for bad in ("random", "ismcts", "highest_first", "a,b", "runs/x", "best.zip", ""):
        with pytest.raises(ValueError):
            agents.register_baselines("toy", {bad: TOY_BASELINES["highest_first"]})
    with pytest.raises(ValueError, match="must be callable"):
        agents.register_baselines("toy", {"ok_name": "not a factory"})
    with pytest.raises(ValueError, match="unknown env id"):
        agents.register_baselines("nope", {"x": TOY_BASELINES["highest_first"]})
    assert agents.list_baselines("toy") == toy_baselines


# ----------------------------------------------------------------------- checkpoints
def test_a_missing_checkpoint_file_is_a_clear_error():
    with pytest.raises(ValueError, match=r"no checkpoint file at 'runs/none\.zip'"):
        agents.make_agent("runs/none.zip", "toy", 2)


def test_checkpoints_without_the_policy_module_say_what_is_missing(tmp_path, monkeypatch):
    checkpoint = tmp_path / "best.zip"
    checkpoint.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "agents.policy", None)  # as if it were not installed
    with pytest.raises(ImportError, match=r"needs the module agents\.policy"):
        agents.make_agent(str(checkpoint), "toy", 2)


def test_a_checkpoint_loads_through_the_policy_module(tmp_path, fake_policy_module):
    checkpoint = tmp_path / "best.zip"
    checkpoint.write_bytes(b"")
    agent = agents.make_agent(str(checkpoint), "toy", 2, seed=7)
    assert fake_policy_module.calls == [(str(checkpoint), "toy", 2, 7)]
    game = envs.make_game("toy", 2)
    assert agent.act(game, game.init(4), 0).shape == (4,)


def test_a_checkpoint_for_another_player_count_is_refused(tmp_path, fake_policy_module):
    checkpoint = tmp_path / "best.zip"
    checkpoint.write_bytes(b"")
    fake_policy_module.trained_on = ("toy", 3)
    with pytest.raises(ValueError, match="is for num_players=3, not 2"):
        agents.make_agent(str(checkpoint), "toy", 2)


# ----------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("num_players", [2, 3])
@pytest.mark.parametrize("strategy", [HighestCardFirst, LowestCardFirst])
def test_toy_baselines_play_legally_on_what_their_seat_sees(strategy, num_players):
    assert_agent_plays_legally(envs.make_game("toy", num_players), strategy(), num_games=24)


def test_the_random_agent_passes_the_hidden_information_check():
    # The check acts on deep copies, so the agent's generator does not make a false alarm.
    game = envs.make_game("toy", 3)
    assert_agent_plays_legally(game, RandomAgent(3), num_games=8)


def test_the_hidden_information_check_catches_an_agent_that_peeks():
    game = envs.make_game("toy", 2)
    state = game.init(64, seed=0)
    rows = state.current_player == 0
    state.phase[rows] = 1  # DRAW: the peeker reads the hidden top of the deck here
    game.refresh(state)
    with pytest.raises(AssertionError, match="'deck_peeker' as seat 0 reads hidden"):
        assert_agent_ignores_hidden(game, DeckPeeker(), state, player=0)
    assert_agent_ignores_hidden(game, HighestCardFirst(), state, player=0)


def test_the_hidden_information_check_compares_only_rows_where_the_seat_acts():
    game = envs.make_game("toy", 2)
    state = game.init(64, seed=0)
    state.phase[:] = 1  # DRAW everywhere: the peeker compares the market with the deck's top
    seat_0 = np.arange(64) >= 60
    state.current_player[:] = np.where(seat_0, 0, 1)
    state.deck_pos[seat_0] = 12  # seat 0's rows: an empty deck, nothing hidden to peek at
    game.refresh(state)
    assert_agent_ignores_hidden(game, DeckPeeker(), state, player=0, seeds=range(8))
    with pytest.raises(AssertionError, match="'deck_peeker' as seat 1 reads hidden"):
        assert_agent_ignores_hidden(game, DeckPeeker(), state, player=1, seeds=range(8))
    state.current_player[:] = 1
    game.refresh(state)
    with pytest.raises(AssertionError, match="no row of the batch has seat 0 to act"):
        assert_agent_ignores_hidden(game, DeckPeeker(), state, player=0)


# ----------------------------------------------------------------------- the scored base
def test_a_scored_agent_values_the_acting_rows_and_plays_the_best_legal_action():
    game = envs.make_game("toy", 2)
    state = game.init(64, seed=5)
    agent = ValueDrawer(2, seed=0)
    seen = set()
    for _ in range(4):  # PLAY and DRAW decisions in turn
        mask = np.asarray(game.legal_action_mask(state))
        phase = np.asarray(state.phase)
        seen |= set(phase.tolist())
        for seat in (0, 1):
            acting = ~state.done & (state.current_player == seat)
            values = agent.action_values(game, state, seat)
            assert (values[~acting] == NEG).all() and (values[~mask] == NEG).all()
            play = acting & (phase == Phase.PLAY)
            # card 0 would score -2: floored at least_value, -1.5; cards 1-3 score -1, 0, 1
            expected = np.where(mask[play][:, :4], [-1.5, -1.0, 0.0, 1.0], NEG)
            assert (values[play][:, :4] == expected).all()
            actions = agent.act(game, state, seat)
            assert (actions[~acting] == 0).all()
            assert mask[acting, actions[acting]].all()
            highest = 3 - np.argmax(mask[play][:, 3::-1], axis=1)
            assert (actions[play] == highest).all()
        state = game.step(state, agent.act(game, state, state.current_player))
    assert seen == {Phase.PLAY, Phase.DRAW}


def test_a_scored_agent_breaks_exact_ties_with_its_own_generator():
    game = envs.make_game("toy", 2)
    state = game.init(256, seed=1)
    rng = np.random.default_rng(0)
    while True:  # to a batch where some seat draws with both piles open
        mask = np.asarray(game.legal_action_mask(state))
        both = ~state.done & (state.phase == Phase.DRAW) & mask[:, 4] & mask[:, 5]
        if both.sum() >= 20:
            break
        state = game.step(state, np.argmax(rng.random(mask.shape) * mask, axis=1))
    seat = int(state.current_player[np.flatnonzero(both)[0]])
    rows = both & (state.current_player == seat)
    picks = [ValueDrawer(2, seed=s).act(game, state, seat)[rows] for s in (0, 0, 1)]
    assert (picks[0] == picks[1]).all()  # the same seed, the same tie-breaks
    assert set(picks[0].tolist()) == {4, 5} and (picks[0] != picks[2]).any()
