"""The scripted baselines of Batavia (agents/batavia.py): legal, blind to hidden information,
and stronger than random."""

from __future__ import annotations

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden, assert_agent_plays_legally

import agents
import envs
from agents.arena import play_mixed
from agents.random_agent import RandomAgent

BASELINES = ["greedy", "pirate_aware", "set_collector"]


def test_list_agents_names_the_batavia_baselines():
    assert agents.list_baselines("batavia") == BASELINES
    assert agents.list_agents("batavia") == ["random", *BASELINES, "ismcts"]
    for name in BASELINES:
        assert agents.make_agent(name, "batavia", num_players=4, seed=0).name == name


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_plays_legally_and_blind_in_every_seat(name):
    """Every seat against random opponents, the hidden-information check at every one of
    the agent's decisions (3 players: the most decisions per game are its own)."""
    game = envs.make_game("batavia", num_players=3)
    agent = agents.make_agent(name, "batavia", num_players=3, seed=1)
    assert_agent_plays_legally(game, agent, num_games=4, seed=11)


def test_baselines_ignore_hidden_cards_and_tiles_in_games_among_themselves():
    """At positions from games among the baselines (5 players), redrawing the other hands,
    the pile and the face-down tiles never changes a baseline's action."""
    game = envs.make_game("batavia", num_players=5)
    seat_agents = [agents.make_agent(BASELINES[s % 3], "batavia", 5, seed=s) for s in range(5)]
    state = game.init(6, seed=5)
    phases = set()
    for step in range(game.max_decisions):
        if state.done.all():
            break
        if step % 7 == 0:
            for seat, agent in enumerate(seat_agents):
                if (~state.done & (state.current_player == seat)).any():
                    assert_agent_ignores_hidden(game, agent, state, seat, seeds=(step,))
            phases.update(int(p) for p in state.phase[~state.done])
        chosen = np.stack([agent.act(game, state, seat) for seat, agent in enumerate(seat_agents)])
        state = game.step(state, chosen[np.maximum(state.current_player, 0), np.arange(6)])
    assert state.terminated.all() and len(phases) == 4, phases


def test_action_values_rank_the_action_played_first():
    game = envs.make_game("batavia", num_players=4)
    agent = agents.make_agent("greedy", "batavia", 4, seed=0)
    state = game.init(16, seed=3)
    for _ in range(40):
        values = agent.action_values(game, state, state.current_player)
        mask = game.legal_action_mask(state)
        live = ~state.done
        assert (values[~mask] <= -1e8).all() and (values[mask] > -1e8).all()
        chosen = agent.act(game, state, state.current_player)
        best = values.max(axis=1)
        np.testing.assert_allclose(values[np.arange(16), chosen][live], best[live], atol=1e-5)
        state = game.step(state, chosen)


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_beats_random(name):
    """Seat-balanced, 4 players: the baseline in one seat, random in the others; it must
    finish first far more often than the 1/4 of equals and average a rank reward > +0.3."""
    game = envs.make_game("batavia", num_players=4)
    pool = [agents.make_agent(name, "batavia", 4, seed=0), RandomAgent(1)]
    num_games = 48
    seats = np.ones((num_games, 4), dtype=np.int64)
    seats[np.arange(num_games), np.arange(num_games) % 4] = 0
    result = play_mixed(game, pool, seats, np.arange(num_games) + 500)
    mine = seats == 0
    assert result.first_place[mine].mean() > 0.5
    assert result.rewards[mine].mean() > 0.3
    assert not result.truncated.any()


def test_the_selfplay_preset_resolves_for_batavia():
    """train/presets.py: the default run's hint and warm-start agents exist, 4 players."""
    from train.config import resolve

    cfg, _ = resolve(["--env", "batavia"])
    assert (cfg.players, cfg.hints, cfg.imitate) == (4, "greedy", "greedy")
