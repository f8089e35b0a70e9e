"""Checks every scripted agent must pass, for the tests of each game's baselines.

* ``assert_agent_ignores_hidden``: the agent acts on what its seat may observe only. The
  hidden parts of the state (other hands, deck order) are redrawn with
  ``game.resample_hidden``; the agent's actions for that seat must not change (a cheap form
  of OpenSpiel's ``ResampleInfostateTest``, the same check the observations pass).
* ``assert_agent_plays_legally``: through whole batched games against random opponents,
  every action the agent takes is legal, and the hidden-information check holds at every
  decision of a sample of rows.

The agent is deep-copied before each call, so an agent with its own random generator is
compared from the same generator state.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

import numpy as np

from agents.base import Agent
from agents.random_agent import RandomAgent
from envs.core.game import Game
from envs.core.state import BatchState


def assert_agent_ignores_hidden(
    game: Game, agent: Agent, state: BatchState, player: int, seeds: Iterable[int] = (0, 1, 2)
) -> None:
    """Fail if ``agent``'s actions for ``player`` depend on what that seat cannot see.

    Args:
        game: the rules object.
        agent: the agent under test (not modified: each call acts on a deep copy).
        state: a batch of positions; the rows where ``player`` is to act are compared, and
            there must be at least one.
        player: the seat the agent plays.
        seeds: seeds of ``game.resample_hidden``, one redraw each.

    Raises:
        AssertionError: naming the rows whose action changed (or whose observation changed,
            which would be a bug of ``resample_hidden`` or ``observe``, not of the agent), or
            when no row has ``player`` to act.
    """
    rows = ~state.done & (state.current_player == player)
    if not rows.any():
        raise AssertionError(
            f"{game.ENV_ID}: no row of the batch has seat {player} to act, so the check "
            "would compare nothing; pass states where the seat acts")
    expected = np.asarray(copy.deepcopy(agent).act(game, state.copy(), player))
    observation = game.observe(state, player)
    for seed in seeds:
        other = game.resample_hidden(state, player, seed)
        if not np.array_equal(game.observe(other, player), observation):
            raise AssertionError(
                f"{game.ENV_ID}: resample_hidden(seed={seed}) changed what seat {player} "
                "observes; the check needs a resampling that keeps the observation"
            )
        actions = np.asarray(copy.deepcopy(agent).act(game, other, player))
        changed = np.flatnonzero(rows & (actions != expected))
        if changed.size:
            row = int(changed[0])
            raise AssertionError(
                f"{game.ENV_ID}: agent {getattr(agent, 'name', agent)!r} as seat {player} "
                f"reads hidden information: with the hidden parts redrawn (seed {seed}) it "
                f"chose {game.action_name(int(actions[row]))} instead of "
                f"{game.action_name(int(expected[row]))} in row {row} "
                f"({changed.size} row(s) changed)"
            )


def assert_agent_plays_legally(
    game: Game, agent: Agent, num_games: int = 32, seed: int = 0, check_hidden: bool = True
) -> None:
    """Play ``num_games`` games, the agent in every seat in turn against random opponents.

    Every action the agent takes must be legal; with ``check_hidden`` the agent must also
    pass ``assert_agent_ignores_hidden`` at each of its decisions.
    """
    for seat in range(game.num_players):
        opponents = RandomAgent(seed + 1 + seat)
        state = game.init(num_games, seed=seed + seat * num_games)
        for _ in range(game.max_decisions + 1):
            if state.done.all():
                break
            rows = ~state.done & (state.current_player == seat)
            actions = opponents.act(game, state, seat)
            if rows.any():
                if check_hidden:
                    assert_agent_ignores_hidden(game, agent, state, seat, seeds=(seed,))
                mine = np.asarray(agent.act(game, state, seat))
                mask = game.legal_action_mask(state)
                legal = mask[np.arange(state.batch_size), np.clip(mine, 0, game.num_actions - 1)]
                bad = np.flatnonzero(rows & ~(legal & (mine >= 0) & (mine < game.num_actions)))
                if bad.size:
                    row = int(bad[0])
                    raise AssertionError(
                        f"{game.ENV_ID}: agent {getattr(agent, 'name', agent)!r} as seat "
                        f"{seat} chose illegal action {int(mine[row])} in row {row} "
                        f"(decision {game.decision_name(state, row)!r})"
                    )
                actions = np.where(rows, mine, actions)
            state = game.step(state, actions)
        else:
            raise AssertionError(f"{game!r}: a game ran past max_decisions")
