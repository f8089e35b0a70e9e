"""The scripted baselines of Kairo (agents/cairo.py): legal, blind to hidden information,
and stronger than random."""

from __future__ import annotations

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden, assert_agent_plays_legally

import agents
import envs
from agents.arena import play_mixed
from agents.random_agent import RandomAgent

BASELINES = ["greedy", "economist", "medal_hunter"]


def test_list_agents_names_the_cairo_baselines():
    assert agents.list_agents("cairo") == ["random", *BASELINES, "ismcts"]
    assert agents.list_baselines("cairo") == BASELINES
    for name in BASELINES:
        agent = agents.make_agent(name, "cairo", num_players=3, seed=0)
        assert agent.name == name


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_plays_legally_in_every_seat_two_players(name):
    game = envs.make_game("cairo", num_players=2)
    agent = agents.make_agent(name, "cairo", num_players=2, seed=1)
    assert_agent_plays_legally(game, agent, num_games=3, seed=11, check_hidden=False)


def test_baselines_play_legally_together_with_four_players():
    game = envs.make_game("cairo", num_players=4)
    pool = [agents.make_agent(n, "cairo", 4, seed=k) for k, n in enumerate(BASELINES)]
    pool.append(RandomAgent(7))
    num_games = 16
    seats = np.random.default_rng(4).integers(0, len(pool), size=(num_games, 4))
    seats[:, 0] = np.arange(num_games) % len(BASELINES)  # every baseline plays
    # Every action goes through game.step, which raises on an illegal one.
    result = play_mixed(game, pool, seats, 400 + np.arange(num_games))
    assert not result.truncated.any(), "scripted games end by the rules, not by the cap"


def test_baselines_ignore_hidden_money_hands_and_deck():
    """With ``reveal_money=False``, at positions from every stage of games among the
    baselines, redrawing the other seats' hands and money and the draw pile never changes
    a baseline's action."""
    game = envs.make_game("cairo", num_players=3, reveal_money=False)
    pool = [agents.make_agent(n, "cairo", 3, seed=k) for k, n in enumerate(BASELINES)]
    num_games = 9
    seats = np.stack([np.roll(np.arange(3), k) for k in range(num_games)])
    checked_phases = set()

    def check_hidden(state, step):
        if step % 10:
            return
        for name in BASELINES:
            agent = agents.make_agent(name, "cairo", 3, seed=3)
            for seat in range(3):
                if (~state.done & (state.current_player == seat)).any():
                    assert_agent_ignores_hidden(game, agent, state, seat, seeds=(step,))
        checked_phases.update(int(p) for p in state.phase[~state.done])

    play_mixed(game, pool, seats, 5 + np.arange(num_games), on_step=check_hidden)
    assert len(checked_phases) >= 8, f"positions covered too few decisions: {checked_phases}"


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_beats_random_playing_legally_and_blind_in_every_seat(name):
    """Seat-balanced: the baseline holds each seat in a third of the games, random the rest.

    Every action is legal; every 25 decisions the baseline's choices must not change when
    the hidden parts of the state are redrawn; and against random, whose expected rank
    reward among equals is 0, the baseline must average above +0.5.
    """
    game = envs.make_game("cairo", num_players=3)
    agent = agents.make_agent(name, "cairo", 3, seed=0)
    pool = [agent, RandomAgent(1)]
    num_games = 72
    seats = np.ones((num_games, 3), dtype=np.int64)
    seats[np.arange(num_games), np.arange(num_games) % 3] = 0

    checked = []

    def check_hidden(state, step):
        if step % 25 == 0:
            for seat in range(3):
                # Rows where seat holds the baseline and acts; the others are random's.
                rows = (seats[:, seat] == 0) & ~state.done & (state.current_player == seat)
                if rows.any():
                    assert_agent_ignores_hidden(game, agent, state.take(rows), seat,
                                                seeds=(step,))
                    checked.append(int(rows.sum()))

    rewards = play_mixed(game, pool, seats, 2024 + np.arange(num_games),
                         on_step=check_hidden).rewards
    assert sum(checked) >= 50, f"the hidden-information check saw {sum(checked)} positions"
    mean = rewards[seats == 0].mean()
    assert mean > 0.5, f"{name}: mean rank reward {mean:+.3f} against random"
