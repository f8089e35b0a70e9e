"""The vector adapter: B games stepped at once, finished games reset automatically.

Depends only on NumPy and gymnasium (for the space objects). Each call returns the acting
seat's observation and mask per row; rewards come for every seat. When a row's game ends,
its last observation of every seat and its scores go into ``infos`` and the row restarts on
the same step ("same-step" auto-reset). Row i's k-th game (k = 0, 1, ...) is seeded
``seed + i + k * num_envs``, so every game of a run has its own seed and the run is
reproducible.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
from gymnasium import spaces

from envs.core.game import Game
from envs.core.memory import retain_freed_memory
from envs.core.state import BatchState

_SMALL = 1 << 18  # bytes below which ``_fresh_zeros`` clears heap memory instead


def _fresh_zeros(shape: tuple[int, ...]) -> np.ndarray:
    """A new, writable float32 array of zeros; a large one from an anonymous memory map.

    ``np.zeros`` of a few tens of MB (the final observations at B = 1024) comes from the heap
    once the allocator has raised its threshold for memory maps, and is then cleared byte by
    byte on every step; the kernel hands out a map's pages already zeroed, and only the pages
    of the rows that are written are ever touched.
    """
    count = int(np.prod(shape))
    size = count * np.dtype(np.float32).itemsize
    if size < _SMALL:  # a map costs two system calls; clearing a few pages costs less
        return np.zeros(shape, dtype=np.float32)
    pages = mmap.mmap(-1, size)
    return np.frombuffer(pages, dtype=np.float32, count=count).reshape(shape)


class RowGames:
    """Which game each row of a batch plays, and the start of its next one.

    Row i's k-th game (k = 0, 1, ...) is seeded ``seed + offset + i + k * stride``: with the
    defaults (``offset`` 0, ``stride`` the batch size) every game of a run has its own seed,
    and a batch can also stand for rows ``offset ..`` of a larger one (the Ray shards of
    training), playing the same games. The auto-resetting envs (``VecGameEnv`` here, the
    self-play env of ``train``) start and restart their rows through it.

    Attributes:
        episodes: (B,) int64, the game each row plays (k above).
    """

    def __init__(self, game: Game, num_rows: int, seed: int = 0, offset: int = 0,
                 stride: int | None = None):
        if num_rows > 1:  # batched play: large per-step arrays, see ``envs.core.memory``
            retain_freed_memory()
        self.game = game
        self.num_rows = int(num_rows)
        self.seed = int(seed)
        self.offset = int(offset)
        self.stride = self.num_rows if stride is None else int(stride)
        self.episodes = np.zeros(self.num_rows, dtype=np.int64)

    def seeds(self, rows: np.ndarray) -> np.ndarray:
        """(R,) int64: seeds of the rows' current games."""
        return self.seed + self.offset + rows + self.episodes[rows] * self.stride

    def start(self, seed: int | None = None, episodes: np.ndarray | None = None) -> BatchState:
        """Every row's current game, new (after a new ``seed``, which restarts the episode
        counters, or with the counters set to ``episodes``)."""
        if seed is not None:
            self.seed = int(seed)
            self.episodes[:] = 0
        if episodes is not None:
            self.episodes[:] = episodes
        return self.game.init_rows(self.seeds(np.arange(self.num_rows)))

    def restart(self, state: BatchState, rows: np.ndarray) -> None:
        """Start the next game of each of ``rows`` in ``state`` (in place)."""
        self.episodes[rows] += 1
        self.game.reset_rows(state, rows, self.seeds(rows))


class VecGameEnv:
    """Batched, auto-resetting multi-player environment over a ``Game``.

    Attributes:
        num_envs: B, games stepped together.
        num_players: P.
        single_observation_space: Box of one seat's observation.
        single_action_space: Discrete(A).
        state: the live batched state (for agents that read it, e.g. scripted baselines).
    """

    def __init__(self, game: Game, num_envs: int, seed: int = 0):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs}")
        self.game = game
        self.num_envs = int(num_envs)
        self.num_players = game.num_players
        self.single_observation_space = spaces.Box(
            game.observation_low, game.observation_high, dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.games = RowGames(game, self.num_envs, seed)
        self.state: BatchState | None = None

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every row afresh; returns the acting seats' observations and infos."""
        self.state = self.games.start(seed, episodes=0)
        return self._observe(), self._infos()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per row.

        Returns:
            obs: (B, *obs_shape) float32, the acting seat's observation (of the new game
                where a row was reset).
            rewards: (B, P) float32, every seat's reward for this step.
            terminated, truncated: (B,) bool, the game of that row ended on this step.
            infos: ``action_mask`` (B, A) bool and ``current_player`` (B,) of the returned
                observation; ``final_observation`` (B, P, *obs_shape) and ``final_scores``
                (B, P) filled for rows that ended (zeros elsewhere).
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        state = self.game.step(self.state, actions)
        rewards = state.rewards.copy()
        terminated, truncated = state.terminated.copy(), state.truncated.copy()
        done = terminated | truncated
        shape = self.game.observation_shape
        final_obs = _fresh_zeros((self.num_envs, self.num_players, *shape))
        final_scores = np.zeros((self.num_envs, self.num_players), dtype=np.float64)
        if done.any():
            rows = np.flatnonzero(done)
            # Each ended row once per seat, so that one call makes every seat's view (the
            # row's k-th entry seen by seat k).
            players = self.num_players
            final_obs[rows] = self.game.observe_rows(
                state, np.repeat(rows, players), np.tile(np.arange(players), rows.size)
            ).reshape(rows.size, players, *shape)
            final_scores[rows] = self.game.scores_rows(state, rows)
            self.games.restart(state, rows)
        infos = self._infos()
        infos["final_observation"] = final_obs
        infos["final_scores"] = final_scores
        return self._observe(), rewards, terminated, truncated, infos

    def _observe(self) -> np.ndarray:
        return self.game.observe(self.state, self.state.current_player)

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self.game.legal_action_mask(self.state),
            "current_player": self.state.current_player.copy(),
        }

    def render(self, index: int = 0) -> str:
        return self.game.render(self.state, index)
