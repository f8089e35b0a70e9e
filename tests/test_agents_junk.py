"""The scripted baselines of Dschunke (agents/junk.py): legal, blind to hidden information,
and stronger than random."""

from __future__ import annotations

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden, assert_agent_plays_legally

import agents
import envs
from agents.arena import play_mixed
from agents.base import NEG
from agents.random_agent import RandomAgent

BASELINES = ["cashier", "builder"]


def test_list_agents_names_the_junk_baselines():
    assert agents.list_baselines("junk") == BASELINES
    for name in BASELINES:
        assert agents.make_agent(name, "junk", num_players=4, seed=0).name == name


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_plays_legally_and_blind_with_three_players(name):
    game = envs.make_game("junk", 3)
    agent = agents.make_agent(name, "junk", 3, seed=1)
    assert_agent_plays_legally(game, agent, num_games=1, seed=5)


@pytest.mark.parametrize("options", [{"hide_money": True, "hide_stacks": True},
                                     {"setup": "variable"}])
def test_baselines_ignore_hidden_information_under_the_options(options):
    """Positions from games among the baselines: redrawing hands, face-down cards, piles,
    the market deck and pending bids never changes a baseline's action."""
    game = envs.make_game("junk", 4, **options)
    pool = [agents.make_agent(n, "junk", 4, seed=k) for k, n in enumerate(BASELINES)]
    pool.append(RandomAgent(3))
    state = game.init(6, seed=17)
    seats = np.random.default_rng(0).integers(0, len(pool), size=(6, 4))
    rows = np.arange(6)
    phases = set()
    step = 0
    while not state.done.all():
        if step % 13 == 0:
            for agent in pool[:2]:
                for seat in range(4):
                    if (~state.done & (state.current_player == seat)).any():
                        assert_agent_ignores_hidden(game, agent, state, seat, seeds=(step,))
            phases.update(int(p) for p in state.phase[~state.done])
        owner = seats[rows, np.maximum(state.current_player, 0)]
        actions = np.zeros(6, dtype=np.int64)
        for k, agent in enumerate(pool):
            player = np.where(owner == k, state.current_player, -2)
            actions = np.where(owner == k, agent.act(game, state, player), actions)
        state = game.step(state, actions)
        step += 1
    assert len(phases) >= 8, phases


def test_action_values_rank_the_chosen_action_first():
    game = envs.make_game("junk", 4)
    agent = agents.make_agent("cashier", "junk", 4, seed=0)
    state = game.init(16, seed=3)
    generator = np.random.default_rng(1)
    for _ in range(120):
        seat = int(state.current_player[0])
        values = agent.action_values(game, state, seat)
        mask = game.legal_action_mask(state)
        mine = ~state.done & (state.current_player == seat)
        assert ((values > NEG / 2) == (mask & mine[:, None])).all()
        chosen = agent.act(game, state, seat)
        best = values[np.arange(16), chosen]
        np.testing.assert_allclose(best[mine], values[mine].max(axis=1), atol=1e-5)
        actions = RandomAgent(int(generator.integers(1e6))).act(game, state, seat)
        state = game.step(state, np.where(mine, chosen, actions))


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_beats_random(name):
    """Seat-balanced: the baseline holds each seat in a quarter of 32 games against three
    random seats; it must finish first far above chance (25%) and average a positive rank
    reward above +0.4."""
    game = envs.make_game("junk", 4)
    pool = [agents.make_agent(name, "junk", 4, seed=0), RandomAgent(1)]
    seats = np.ones((32, 4), dtype=np.int64)
    seats[np.arange(32), np.arange(32) % 4] = 0
    result = play_mixed(game, pool, seats, np.arange(32) + 900)
    mine = seats == 0
    assert not result.truncated.any()
    assert result.first_place[mine].mean() > 0.55
    assert result.rewards[mine].mean() > 0.4
