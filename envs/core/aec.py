"""The PettingZoo AEC adapter: any registered game at batch size 1.

It holds no rules: every decision goes through the batched ``Game`` with B = 1. Seeds:
``reset(seed=s)`` starts the game seeded ``s``; a later ``reset()`` without a seed continues
the stream (``s + 1``, ``s + 2``, ...), so a sequence of resets is reproducible.

Render modes: ``"ansi"`` returns the text board, ``"human"`` prints it after every step,
``"rgb_array"`` returns a picture of the board ((H, W, 3) uint8, the game's ``draw``). Each
shows the full view, or with ``render_seat=p`` only what seat p may know.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.core.game import Game

RENDER_MODES = ("human", "ansi", "rgb_array")


class TradewindsAECEnv(AECEnv):
    """``pettingzoo.AECEnv`` over one game of a batched ``Game``.

    Observations are ``{"observation": float32, "action_mask": int8}``; the mask is all zeros
    for agents that are not to act. ``infos[agent]["scores"]`` holds the game's own scores
    once the game ends (by its rules or by the safety cap, reported as truncation).
    """

    def __init__(self, game: Game, render_mode: str | None = None,
                 render_seat: int | None = None):
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"unknown render_mode {render_mode!r}; valid: None, "
                             + ", ".join(map(repr, RENDER_MODES)))
        if render_seat is not None and render_seat not in range(game.num_players):
            raise ValueError(f"render_seat must be None (the full view) or a seat in "
                             f"0..{game.num_players - 1}, got {render_seat!r}")
        self.game = game
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"{game.ENV_ID}_v{game.VERSION}",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    game.observation_low, game.observation_high, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._next_seed = 0
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        self.state = self.game.init(1, seed=self._next_seed)
        self._next_seed += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[int(self.state.current_player[0])]

    def _require_game(self) -> None:
        if self.state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before using the env")

    def last(self, observe: bool = True):
        self._require_game()
        if not self.agents:
            raise RuntimeError(f"{self.metadata['name']}: the game is over and every agent "
                               "has left; call reset() to start a new one")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_game()
        if agent not in self._seat:
            raise ValueError(f"{self.metadata['name']}: unknown agent {agent!r}; valid: "
                             f"{', '.join(self.possible_agents)}")
        seat = self._seat[agent]
        obs = self.game.observe(self.state, seat)[0]
        if agent == self.agent_selection and not (self.state.terminated[0]
                                                  or self.state.truncated[0]):
            mask = self.game.legal_action_mask(self.state)[0].astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        self._require_game()
        if not self.agents:
            raise RuntimeError(f"{self.metadata['name']}: the game is over and every agent "
                               "has left; call reset() to start a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for finished agents")
        self.game.step(self.state, np.asarray([action]))
        self._cumulative_rewards[agent] = 0.0
        step_rewards = self.state.rewards[0].tolist()
        self.rewards = {a: step_rewards[self._seat[a]] for a in self.agents}
        if self.state.terminated[0] or self.state.truncated[0]:
            ended_by_rules = bool(self.state.terminated[0])
            scores = self.game.scores(self.state)[0]
            for a in self.agents:
                self.terminations[a] = ended_by_rules
                self.truncations[a] = not ended_by_rules
                self.infos[a] = {"scores": scores.copy()}
        else:
            self.agent_selection = self.possible_agents[int(self.state.current_player[0])]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                f"{self.metadata['name']}: render() without a render_mode does nothing; make "
                f"the env with render_mode in {RENDER_MODES}")
            return None
        self._require_game()
        if self.render_mode == "rgb_array":
            return self.game.draw(self.state, 0, seat=self.render_seat)
        text = self.game.render(self.state, 0, seat=self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
