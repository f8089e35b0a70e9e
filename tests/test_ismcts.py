"""The search agent (agents.ismcts): on every game, legal, blind to hidden information,
seeded, and stronger than random."""

from __future__ import annotations

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden
from conftest import ENV_CASES, ENV_IDS
from harness import random_play

import agents
import envs
from agents.arena import play_match
from agents.ismcts import parse_options

TINY = {"simulations": 6, "rollout_depth": 2, "wave": 3}


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_ismcts_plays_legally_and_blind_on_every_game(env_id, num_players):
    game = envs.make_game(env_id, num_players)
    agent = agents.make_agent("ismcts", env_id, num_players, seed=1, **TINY)
    checked = 0
    for step, (_, _, state) in enumerate(random_play(game, 4, seed=3)):
        if step % 15 or state.done.all():
            continue
        seat = int(state.current_player[np.flatnonzero(~state.done)[0]])
        actions = agent.act(game, state, seat)
        rows = ~state.done & (state.current_player == seat)
        assert game.legal_action_mask(state)[rows, actions[rows]].all()
        assert_agent_ignores_hidden(game, agent, state, seat, seeds=(step,))
        checked += 1
        if checked == 3:
            break
    assert checked


def test_ismcts_beats_random_in_a_small_budget():
    game = envs.make_game("cairo", 3)
    search = agents.make_agent("ismcts:simulations=12:rollout_depth=4", "cairo", 3, seed=0)
    result = play_match(game, [search, agents.make_agent("random", "cairo", 3, seed=1),
                               agents.make_agent("random", "cairo", 3, seed=2)], 6, seed=5)
    assert result.first_place[:, 0].mean() >= 5 / 6


def test_the_same_seed_gives_the_same_search():
    game = envs.make_game("cairo", 3)
    state = game.init(3, seed=2)
    first = agents.make_agent("ismcts", "cairo", 3, seed=4, **TINY).act(game, state, 0)
    again = agents.make_agent("ismcts", "cairo", 3, seed=4, **TINY).act(game, state, 0)
    np.testing.assert_array_equal(first, again)


def test_ismcts_is_listed_but_no_baseline_and_takes_options():
    assert agents.list_agents("cairo")[-1] == "ismcts"
    assert "ismcts" not in agents.list_baselines("cairo")
    agent = agents.make_agent("ismcts:simulations=7:guide=greedy", "cairo", 3)
    assert (agent.simulations, agent.name) == (7, "ismcts:simulations=7:guide=greedy")
    assert agent.guide is not None  # cairo's default guide, overridden by the name
    assert agents.make_agent("ismcts", "cairo", 3, simulations=9).simulations == 9
    assert parse_options("rollout_depth=3:bias=0.5") == {"rollout_depth": 3, "bias": 0.5}
    for text, message in (("depth=3", "write name=value"), ("simulations=x", "not a int")):
        with pytest.raises(ValueError, match=message):
            parse_options(text)
    with pytest.raises(ValueError, match="simulations must be >= 1"):
        agents.make_agent("ismcts", "cairo", 3, simulations=0)
    with pytest.raises(ValueError, match="not a scripted baseline"):
        agents.make_agent("ismcts", "cairo", 3, guide="nobody")
    with pytest.raises(ValueError, match="takes no options"):
        agents.make_agent("random", "cairo", 3, simulations=5)
