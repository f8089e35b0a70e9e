"""Action hints: scripted agents' valuations of every action, as extra inputs of a policy.

A policy network reads the flat observation; what a scripted baseline computes from it (how
many coins a lure brings after the nearest-entrance race, what an expansion does to the
medals, which cell walls in an opponent) is many layers deep for an MLP. ``--hints
greedy,economist,medal_hunter`` hands those valuations to the network as inputs, the way
TD-Gammon's expert features did: for each named agent and each action, ``exp(-(best - v))``
where ``v`` is the agent's value of the action and ``best`` that of its choice, so the agent's
choice reads 1, a close second close to 1, and illegal actions 0. The policy is free to weigh
and overrule them; PPO learns when.

The values come from ``agent.action_values(game, state, player)`` (the scripted agents of a
game provide it), which read only what the seat may observe, so the hints add no hidden
information. ``ActionHints(())`` is the plain observation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import ScoredAgent
from envs.core.game import Game
from envs.core.state import BatchState


def parse_hints(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """Agent names from ``"a,b"`` or a sequence (empty for None or "")."""
    if text is None:
        return ()
    parts = text.split(",") if isinstance(text, str) else list(text)
    return tuple(part.strip() for part in parts if part.strip())


class ActionHints:
    """The policy's input: the game's observation, then each hint agent's action values.

    Args:
        names: scripted agents of the game (``agents.list_agents``) whose values are shown;
            empty for the plain observation.
    """

    def __init__(self, names: str | Sequence[str] | None = ()):
        self.names = parse_hints(names)
        self._agents: dict[tuple[str, int], list] = {}

    def __bool__(self) -> bool:
        return bool(self.names)

    def _hint_agents(self, game: Game) -> list:
        key = (game.ENV_ID, game.num_players)
        if key not in self._agents:
            from agents import list_baselines, make_agent

            valid = list_baselines(game.ENV_ID)
            agents = []
            for name in self.names:
                if name not in valid:
                    raise ValueError(f"hint agent {name!r}: {game.ENV_ID} has the scripted "
                                     f"agents {valid}")
                agent = make_agent(name, game.ENV_ID, game.num_players, seed=0)
                if not hasattr(agent, "action_values"):
                    raise ValueError(f"hint agent {name!r} of {game.ENV_ID} has no "
                                     "action_values(game, state, player) to read hints from")
                agents.append(agent)
            self._agents[key] = agents
        return self._agents[key]

    def check(self, game: Game) -> None:
        """Raise ValueError unless every name is a scripted agent of ``game`` with values."""
        self._hint_agents(game)

    def size(self, game: Game) -> int:
        """Hint features added to the observation of ``game``."""
        return len(self.names) * game.num_actions

    def shape(self, game: Game) -> tuple[int, ...]:
        """The policy's input shape: the flat observation and the hints."""
        if not self:
            return tuple(game.observation_shape)
        return (int(np.prod(game.observation_shape)) + self.size(game),)

    def bounds(self, game: Game) -> tuple[np.ndarray, np.ndarray]:
        """float32 lower and upper bounds of the policy's input."""
        if not self:
            return game.observation_low, game.observation_high
        extra = self.size(game)
        low = np.concatenate([game.observation_low.ravel(), np.zeros(extra, np.float32)])
        high = np.concatenate([game.observation_high.ravel(), np.ones(extra, np.float32)])
        return low, high

    def features(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """(B, size) float32 hints for the seat ``player`` (zeros where it is not to act)."""
        parts = []
        shared: dict[object, object] = {}  # one view of the state for agents that share it
        for agent in self._hint_agents(game):
            if isinstance(agent, ScoredAgent):
                values = agent.action_values(game, state, player, shared)
            else:
                values = agent.action_values(game, state, player)
            legal = values > -1e8  # the agents' illegal value is -1e9
            best = np.where(legal, values, -np.inf).max(axis=1, keepdims=True)
            gap = np.where(legal, best - values, np.inf)
            parts.append(np.exp(-gap).astype(np.float32))
        return np.concatenate(parts, axis=1)

    def observe(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """(B, *shape) float32: ``game.observe(state, player)`` followed by the hints."""
        return self.extend(game, state, player, game.observe(state, player))

    def extend(self, game: Game, state: BatchState, player: int | np.ndarray,
               obs: np.ndarray) -> np.ndarray:
        """``obs``, the game's observation of ``state`` by ``player`` already made, followed
        by the hints (``obs`` itself without hints)."""
        if not self:
            return obs
        return np.concatenate([obs.reshape(obs.shape[0], -1),
                               self.features(game, state, player)], axis=1)
