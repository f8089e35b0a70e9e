"""The scripted baselines of Age of Discoveries (agents/discoveries.py): legal, blind to
hidden information, and stronger than random; and the soak's contract-biased policy."""

from __future__ import annotations

import numpy as np
import pytest
from agent_checks import assert_agent_ignores_hidden, assert_agent_plays_legally

import agents
import envs
from agents.arena import play_mixed
from agents.discoveries import SOAK_POLICIES
from agents.random_agent import RandomAgent
from envs.discoveries.state import ACTIONS, PHASE

BASELINES = ["trader_explorer", "expedition_rusher"]


def test_list_agents_names_the_discoveries_baselines():
    assert agents.list_agents("discoveries") == ["random", *BASELINES, "ismcts"]
    assert agents.list_baselines("discoveries") == BASELINES
    for name in BASELINES:
        assert agents.make_agent(name, "discoveries", num_players=3, seed=0).name == name


@pytest.mark.parametrize(("players", "name"), [(2, BASELINES[0]), (4, BASELINES[1])])
def test_baseline_plays_legally_in_every_seat(players, name):
    game = envs.make_game("discoveries", num_players=players)
    agent = agents.make_agent(name, "discoveries", num_players=players, seed=1)
    assert_agent_plays_legally(game, agent, num_games=2, seed=11, check_hidden=False)


def test_baselines_ignore_hands_flagships_tasks_deck_and_piles():
    """At positions from every decision of games among the baselines (and random), redrawing
    what the seat cannot see never changes a baseline's action."""
    game = envs.make_game("discoveries", num_players=3)
    pool = [agents.make_agent(n, "discoveries", 3, seed=k) for k, n in enumerate(BASELINES)]
    pool.append(RandomAgent(3))
    state = game.init(9, seed=5)
    seats = np.stack([np.roll(np.arange(3), k) for k in range(9)])  # (9, 3) pool index
    checked = set()
    for step in range(game.max_decisions):
        if state.done.all():
            break
        building = (~state.done & (state.phase == PHASE.BUILD_CONTRACT)).any()
        if step % 15 == 0 or building:
            for name in BASELINES:
                agent = agents.make_agent(name, "discoveries", 3, seed=3)
                for seat in range(3):
                    if (~state.done & (state.current_player == seat)).any():
                        assert_agent_ignores_hidden(game, agent, state, seat, seeds=(step,))
            checked.update(int(p) for p in state.phase[~state.done])
        owner = seats[np.arange(9), np.maximum(state.current_player, 0)]
        actions = np.zeros(9, dtype=np.int64)
        for k, agent in enumerate(pool):
            actions = np.where(owner == k, agent.act(game, state, state.current_player), actions)
        state = game.step(state, actions)
    assert checked == {PHASE.MAIN, PHASE.PICK_EXP_SHIP, PHASE.BUILD_CONTRACT}


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_beats_random_in_every_seat(name):
    """Seat-balanced: the baseline holds each seat in a third of the games against two
    random seats; its mean rank reward must be above +0.8 (random among equals: 0)."""
    game = envs.make_game("discoveries", num_players=3)
    agent = agents.make_agent(name, "discoveries", 3, seed=0)
    num_games = 18
    seats = np.ones((num_games, 3), dtype=np.int64)
    seats[np.arange(num_games), np.arange(num_games) % 3] = 0
    result = play_mixed(game, [agent, RandomAgent(1)], seats, 2024 + np.arange(num_games))
    assert result.rewards[seats == 0].mean() > 0.8
    assert not result.truncated.any()


def test_action_values_mark_the_choice_and_only_legal_actions():
    game = envs.make_game("discoveries", num_players=3)
    state = game.init(16, seed=8)
    generator = np.random.default_rng(0)
    for _ in range(60):
        state = game.step(state, RandomAgent(int(generator.integers(1e6))).act(game, state, 0))
    for name in BASELINES:
        agent = agents.make_agent(name, "discoveries", 3, seed=0)
        for seat in range(3):
            values = agent.action_values(game, state, seat)
            rows = ~state.done & (state.current_player == seat)
            mask = game.legal_action_mask(state)
            assert (values[~rows] <= -1e8).all()
            assert ((values > -1e8) == mask)[rows].all()
            chosen = agent.act(game, state, seat)
            best = values.argmax(axis=1)
            np.testing.assert_array_equal(chosen[rows], best[rows])


def test_contract_biased_policy_plays_contracts():
    """The soak's biased random policy: legal, and far more contracts than uniform play."""
    game = envs.make_game("discoveries", num_players=3)
    policy = SOAK_POLICIES["contract_biased"](3, 0)
    state = game.init(24, seed=1)
    plays = 0
    while not state.done.all():
        actions = policy.act(game, state, state.current_player)
        mask = game.legal_action_mask(state)
        live = ~state.done
        assert mask[np.arange(24), actions][live].all()
        plays += int(((actions >= ACTIONS.PLAY.start) & (actions < ACTIONS.PLAY.stop)
                      & live).sum())
        state = game.step(state, actions)
    assert plays / 24 > 4 and state.completed.sum() / 24 > 3  # uniform: about 1.6 and 1.5
