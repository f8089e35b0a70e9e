"""Batched play of fixed agents in fixed seats: the loop under tournaments and evaluations."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from agents.base import Agent
from envs.core.game import Game


@dataclasses.dataclass
class MatchResult:
    """Outcome of a batch of games; row i is the game seeded ``seed + i``."""

    scores: np.ndarray  # (G, P) float, the game's own final scores
    rewards: np.ndarray  # (G, P) float32, rank-based terminal rewards (+1 sole winner)
    truncated: np.ndarray  # (G,) bool, the game hit the safety cap
    decisions: int  # decisions taken over all games

    @property
    def first_place(self) -> np.ndarray:
        """(G, P) bool: the seat finished first (shared firsts count)."""
        # The rank reward grows with the number of seats beaten, so the seats nobody beats
        # are exactly those with the row's highest reward.
        return self.rewards == self.rewards.max(axis=1, keepdims=True)


def play_match(game: Game, seat_agents: Sequence[Agent], num_games: int,
               seed: int = 0) -> MatchResult:
    """Play ``num_games`` games at once, ``seat_agents[p]`` acting for seat p.

    All games advance together: each step asks every seat's agent once for the rows where
    that seat is to act.
    """
    if len(seat_agents) != game.num_players:
        raise ValueError(f"{game.ENV_ID}: {len(seat_agents)} agents for "
                         f"{game.num_players} seats")
    state = game.init(num_games, seed=seed)
    rewards = np.zeros((num_games, game.num_players), dtype=np.float32)
    decisions = 0
    while not state.done.all():
        actions = np.zeros(num_games, dtype=np.int64)
        live = ~state.done
        for seat, agent in enumerate(seat_agents):
            rows = live & (state.current_player == seat)
            if rows.any():
                actions[rows] = agent.act(game, state, seat)[rows]
        decisions += int(live.sum())
        state = game.step(state, actions)
        rewards += state.rewards
    return MatchResult(game.scores(state), rewards, state.truncated.copy(), decisions)
