"""The self-play training VecEnv: B games, one learner seat each, opponents stepped inside.

Design (PufferLib's connect4 pattern on the batched NumPy core):

* **One batch, not B envs.** The env holds one batched state of B games (``game.init_rows``)
  and steps it with ``game.step``; there is no Python loop over games.
* **Seats rotate per episode.** Row i's k-th game (k = 0, 1, ...) is seeded
  ``seed + i + k * B`` (``envs.core.vec.RowGames``, as in ``VecGameEnv``) and puts the
  learner in seat ``(i + k) % P``; over a run the learner meets every seat equally often,
  first player included. An env can hold a slice of a larger batch (``row_offset``,
  ``row_stride``: the Ray shards of ``train.ray_env``); its rows then play the games of the
  global rows they stand for, so sharding changes no game.
* **Opponents inside.** Each game draws one opponent from the ``OpponentPool`` (from two
  uniforms derived from that game's seed), which plays all the other seats of that game.
  After the learner's move, the env steps the rows where an opponent is to act, again and
  again, until every row is back at a learner decision. In each of those inner steps the rows
  are grouped by opponent, and each opponent acts once on its group: ONE batched call (one
  forward pass for a policy) per opponent per inner step.
* **The learner's frame.** The reward of a transition is the learner seat's own reward,
  ``state.rewards[row, learner_seat]``, summed over the learner's move and the opponent moves
  that follow it (the games pay only a terminal rank reward, so that is +1 for a sole win,
  -1 for a sole last place). Observations are ``game.observe(state, learner_seat)``
  (egocentric; followed by the pool's action hints, ``agents.hints``, when the run uses
  them) and ``action_masks()`` is the learner's legal mask. Never another seat's.
* **Optional shaping.** With ``shaping=c > 0`` each transition also pays the learner
  ``c * (gamma * phi(s') - phi(s))``, potential-based shaping (Ng, Harada and Russell, 1999)
  with ``phi`` the learner's score margin (its ``game.scores`` minus the best other seat's,
  over ``score_scale``) and ``phi = 0`` once the game is over. Such a reward leaves the
  optimal policy unchanged (winning is still the goal) but tells the learner, move by move,
  whether its position got better; the ``episode`` records keep the rank reward alone.
* **Auto-reset.** A game that ends (on the learner's move or an opponent's) marks the row
  done, puts ``terminal_observation`` (the learner seat's view of the final position) and an
  SB3 ``episode`` record in the row's info, and restarts the row at once with the next seed,
  seat and opponent; the returned observation is the new game's first learner decision.
  Truncation by the game's safety cap is scored as an ending by the rules (the rank reward is
  paid), so it is reported as a plain terminal (``game_truncated`` in the info) and not as
  SB3's ``TimeLimit.truncated``: there is nothing left to bootstrap.
* **Determinism.** Seeds, seats and opponent draws are functions of ``seed``, the row and the
  episode counter; the random and policy opponents sample from their own seeded generators.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from agents.arena import act_by_owner
from agents.hints import ActionHints
from envs.core import rng as rnglib
from envs.core.game import Game
from envs.core.state import BatchState
from envs.core.vec import RowGames
from train.pool import OpponentPool

# Salt separating the opponent draws from the game's own chance (which hashes the bare seed).
_OPPONENT_SALT = 0x5E1F_01A7


class BatchedVecEnv(VecEnv):
    """An SB3 ``VecEnv`` whose rows are one batch, not B env objects.

    Attributes and methods belong to the batch, so ``get_attr`` gives every row the same
    value, and ``env_method("action_masks")`` splits the batch's (B, A) mask into rows (what
    sb3-contrib stacks back together).
    """

    render_mode = None

    def __init__(self, game: Game, num_envs: int, hints: ActionHints | None = None):
        self.hints = hints if hints is not None else ActionHints()
        low, high = self.hints.bounds(game)
        observation_space = spaces.Box(low, high, dtype=np.float32)
        super().__init__(int(num_envs), observation_space, spaces.Discrete(game.num_actions))

    def action_masks(self) -> np.ndarray:
        """(B, A) bool: the learner's legal actions in each row."""
        raise NotImplementedError

    def close(self) -> None:
        return None

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None,
                   **method_kwargs) -> list[Any]:
        """Per-row results; ``action_masks`` gives each row's mask (sb3-contrib stacks them)."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]


class SelfPlayVecEnv(BatchedVecEnv):
    """B self-play games as one SB3 ``VecEnv`` with sb3-contrib's ``action_masks()``.

    Args:
        game: the batched rules object (``envs.make_game``).
        num_envs: B.
        pool: where each game's opponent is drawn from.
        seed: row i's k-th game is seeded ``seed + i + k * num_envs``.
        shaping: weight of the potential-based score-margin reward (0: rank reward only).
        gamma: the learner's discount, which the shaping must use to stay potential-based.
        score_scale: score points per unit of potential.
        row_offset, row_stride: this env's row i stands for row ``row_offset + i`` of a
            batch of ``row_stride`` games (None: ``num_envs``, the whole batch): its k-th
            game is seeded ``seed + row_offset + i + k * row_stride`` and seats the learner
            in ``(row_offset + i + k) % P``.

    Attributes:
        state: the live batched state; every row is at a learner decision between steps.
        learner_seat: (B,) int64, the learner's seat in each row's current game.
        opponent_id: (B,) int64, the pool member playing the other seats of each row.
        episodes: (B,) int64, games each row has started (its next seed and seat depend on it).
    """

    def __init__(self, game: Game, num_envs: int, pool: OpponentPool, seed: int = 0,
                 shaping: float = 0.0, gamma: float = 1.0, score_scale: float = 10.0,
                 row_offset: int = 0, row_stride: int | None = None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs}")
        self.game = game
        self.pool = pool
        self.num_players = game.num_players
        # The learner reads the same action hints as its copies in the pool.
        super().__init__(game, num_envs, pool.hints)
        row_stride = self.num_envs if row_stride is None else int(row_stride)
        if row_offset < 0 or row_offset + self.num_envs > row_stride:
            raise ValueError(f"rows {row_offset}..{row_offset + self.num_envs - 1} "
                             f"do not fit a batch of row_stride={row_stride}")
        self.games = RowGames(game, self.num_envs, seed, row_offset, row_stride)
        self.learner_seat = np.zeros(self.num_envs, dtype=np.int64)
        self.opponent_id = np.zeros(self.num_envs, dtype=np.int64)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)
        self._returns = np.zeros(self.num_envs, dtype=np.float64)
        self._actions: np.ndarray | None = None
        self.state: BatchState | None = None
        if shaping < 0 or score_scale <= 0:
            raise ValueError(f"need shaping >= 0 and score_scale > 0, got {shaping}, "
                             f"{score_scale}")
        self._shaping, self._gamma, self._score_scale = float(shaping), float(gamma), score_scale
        self._potential = np.zeros(self.num_envs, dtype=np.float64)
        self._t0 = time.time()
        # Bound on opponent moves between two learner decisions: a whole game, twice (the
        # end of one game and the start of the next), plus slack.
        self._max_inner = 2 * game.max_decisions + 2

    # ------------------------------------------------------------------ seeding and resets
    @property
    def episodes(self) -> np.ndarray:
        """(B,) int64: games each row has started (its next seed and seat depend on it)."""
        return self.games.episodes

    def game_seeds(self) -> np.ndarray:
        """(B,) int64: the seed of each row's current game."""
        return self.games.seeds(np.arange(self.num_envs))

    def _set_up_games(self, rows: np.ndarray) -> None:
        """The learner seat and opponent of the games ``rows`` now play."""
        seeds = self.games.seeds(rows)
        self.learner_seat[rows] = ((self.games.offset + rows + self.episodes[rows])
                                   % self.num_players)
        draws = rnglib.uniform(rnglib.make_rng(seeds + _OPPONENT_SALT), None, 2)
        self.opponent_id[rows] = self.pool.draw(draws[:, 0], draws[:, 1])
        self.pool.forget_retired(self.opponent_id)
        self._lengths[rows] = 0
        self._returns[rows] = 0.0

    def restore_episodes(self, episodes: np.ndarray) -> None:
        """Continue a run: keep counting episodes from ``episodes`` (B,) at the next reset.

        Cancels a pending ``seed()`` so the resumed run plays new games rather than the first
        run's again. With another B, every row continues after the highest old count.
        """
        episodes = np.asarray(episodes, dtype=np.int64)
        if episodes.shape == (self.num_envs,):
            self.episodes[:] = episodes
        else:
            self.episodes[:] = int(episodes.max(initial=0)) + 1
        self._reset_seeds()

    def reset(self) -> VecEnvObs:
        """Restart every row at its current episode counter; returns learner observations.

        A seed set with ``seed(s)`` (as SB3 does at setup) takes effect here and restarts the
        episode counters; otherwise the counters are kept, so a resumed run plays new games.
        """
        seed = self._seeds[0]
        self._reset_seeds()
        self.state = self.games.start(seed)
        self._set_up_games(np.arange(self.num_envs))
        self._t0 = time.time()
        self._advance_opponents(np.zeros(self.num_envs, dtype=np.float32),
                                np.zeros(self.num_envs, dtype=bool),
                                [{} for _ in range(self.num_envs)])
        if self._shaping:
            self._potential = self._margin()
        return self._observe()

    def sync_opponents(self) -> None:
        """Nothing to do: the pool and the learner's live policy are the driver's own objects.

        The trainer calls this before every rollout; ``train.ray_env`` sends the pool's new
        members and the learner's weights to its shards there.
        """

    # ------------------------------------------------------------------ stepping
    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        if self.state is None or self._actions is None:
            raise RuntimeError("call reset() and step_async() before step_wait()")
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        # Every row is at a learner decision: the learner's actions apply to all rows.
        self.game.step(self.state, self._actions.astype(np.int64))
        self._actions = None
        self._lengths += 1
        self._collect(np.arange(self.num_envs), rewards, dones, infos)
        self._advance_opponents(rewards, dones, infos)
        if self._shaping:
            potential = self._margin()
            # A done row's transition ends its game (phi = 0); its new game's phi is the
            # start of the next transition.
            rewards += self._shaping * (self._gamma * np.where(dones, 0.0, potential)
                                        - self._potential).astype(np.float32)
            self._potential = potential
        return self._observe(), rewards, dones, infos

    def _advance_opponents(self, rewards: np.ndarray, dones: np.ndarray,
                           infos: list[dict[str, Any]]) -> None:
        """Step opponents until every row is at a learner decision."""
        for _ in range(self._max_inner):
            state = self.state
            waiting = state.current_player != self.learner_seat
            if not waiting.any():
                return
            idx = np.flatnonzero(waiting)
            sub = state.take(idx)
            agents = {k: member.agent for k, member in self.pool.members.items()}
            actions = act_by_owner(self.game, sub, agents, self.opponent_id[idx])
            self.game.step(sub, actions)
            self.game.put(state, idx, sub)
            self._collect(idx, rewards, dones, infos)
        raise RuntimeError(
            f"{self.game.ENV_ID}: opponents made {self._max_inner} moves without the learner "
            "getting a decision; does the game give every seat a decision?"
        )

    def _collect(self, idx: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
                 infos: list[dict[str, Any]]) -> None:
        """Credit the learner's rewards in rows ``idx`` and finish and restart ended games."""
        state = self.state
        seat = self.learner_seat[idx]
        step_rewards = state.rewards[idx]  # (R, P) every seat's reward of the last step
        # A row already done in this transition has started a new game; a reward of that new
        # game before the learner acts belongs to no transition of the learner (it cannot
        # happen when every seat gets a decision), so it is not credited here.
        fresh = ~dones[idx]
        credit = step_rewards[fresh, seat[fresh]]
        rewards[idx[fresh]] += credit
        self._returns[idx[fresh]] += credit
        ended = state.done[idx]
        if not ended.any():
            return
        rows = idx[ended]
        final = state.take(rows)
        final_obs = self.hints.observe(self.game, final, self.learner_seat[rows])
        scores = self.game.scores(final)
        final_rewards = step_rewards[ended]
        elapsed = round(time.time() - self._t0, 6)
        for j, row in enumerate(rows):
            if dones[row]:
                continue
            seat_j = int(self.learner_seat[row])
            member = self.pool.members[int(self.opponent_id[row])]
            infos[row] = {
                "terminal_observation": final_obs[j],
                "episode": {"r": float(self._returns[row]), "l": int(self._lengths[row]),
                            "t": elapsed},
                "learner_seat": seat_j,
                "learner_first": bool(final_rewards[j, seat_j] >= final_rewards[j].max()),
                "opponent": member.name,
                "opponent_kind": member.kind,
                "scores": scores[j].copy(),
                "game_truncated": bool(final.truncated[j]),
            }
            dones[row] = True
        self.games.restart(state, rows)
        self._set_up_games(rows)

    def _margin(self) -> np.ndarray:
        """(B,) the shaping potential: the learner's score lead over the best other seat."""
        scores = self.game.scores(self.state)
        mine = np.arange(self.num_players)[None, :] == self.learner_seat[:, None]
        own = scores[mine]
        best_other = np.where(mine, -np.inf, scores).max(axis=1)
        return (own - best_other) / self._score_scale

    # ------------------------------------------------------------------ masks and views
    def _observe(self) -> np.ndarray:
        return self.hints.observe(self.game, self.state, self.learner_seat)

    def action_masks(self) -> np.ndarray:
        """(B, A) bool: the learner's legal actions in each row (never empty between steps)."""
        return np.array(self.game.legal_action_mask(self.state), dtype=bool)

    def render(self, mode: str | None = None) -> str:
        """The text board of row 0."""
        return self.game.render(self.state, 0)
