"""Self-play rollouts on Ray: the batch of B games split over K actors, one VecEnv to SB3.

    python -m train.selfplay --env cairo --ray --ray-workers 4 [--ray-address ADDR]

Design:

* **Shards are global rows.** The B games are cut into K contiguous shards; shard k is a
  ``SelfPlayVecEnv`` over the global rows ``offset_k .. offset_k + n_k - 1`` (its
  ``row_offset`` and ``row_stride = B``) living in a Ray actor. Its rows are seeded, seated
  and matched with opponents exactly as those rows of one local env of B games, so sharding
  changes no game (opponents that sample from their own generators, random and policies,
  draw other samples: each shard holds its own copy of them).
* **One VecEnv on the driver.** ``RaySelfPlayVecEnv`` fans ``step_async`` out to the actors
  (the actors step at once, each with its opponents inside) and ``step_wait`` concatenates
  what they return: observations, rewards, dones, infos (``terminal_observation``,
  ``episode``, ...) as the local env writes them, and the learner's masks for the next step,
  so ``action_masks()`` costs no round trip. MaskablePPO sees one VecEnv of B rows.
* **Mirrored pools.** Each shard holds a pool with the driver pool's settings and, member for
  member, the same members under the same ids (the opponent draw is by member id). Members
  the driver's pool gains (snapshots) are sent before the next reset or step; the learner's
  live policy is a copy in each shard, and ``sync_opponents()`` (called by the trainer before
  every rollout, and by ``reset``) sends the new members and the learner's current weights.
* **Local by default.** Without an address the env starts a local Ray (``init_ray``, which
  gives the workers the driver's ``sys.path``) and shuts it down on ``close``; a Ray already
  started by the caller is used and left running.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, NamedTuple

import numpy as np
import torch
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

from benchmarks.tournament import import_ray, init_ray
from envs.core.game import Game
from train.pool import Opponent, OpponentPool, copy_policy
from train.vec_env import BatchedVecEnv, SelfPlayVecEnv


class ShardStep(NamedTuple):
    """What a shard returns from a reset or a step (n = its rows)."""

    obs: np.ndarray  # (n, *observation_shape) float32, the learner's observations
    rewards: np.ndarray  # (n,) float32, in the learner's frame
    dones: np.ndarray  # (n,) bool, the row's game ended (and restarted)
    infos: list[dict[str, Any]]  # n infos, as SelfPlayVecEnv writes them
    masks: np.ndarray  # (n, A) bool, the learner's legal actions for the next step
    episodes: np.ndarray  # (n,) int64, games each row has started
    learner_seat: np.ndarray  # (n,) int64, the learner's seat in each row's game
    opponent_id: np.ndarray  # (n,) int64, the pool member playing the other seats


class RolloutShard:
    """A Ray actor's part of the batch: rows of the global batch and a mirror of the pool.

    Args:
        game: the batched rules object.
        pool: an empty pool with the driver pool's settings (``OpponentPool.empty_like``).
        num_envs, row_offset, row_stride: the shard's global rows (see ``SelfPlayVecEnv``).
        torch_threads: torch CPU threads of the policy opponents in this actor.
        env_options: ``seed``, ``shaping``, ``gamma``, ``score_scale`` of ``SelfPlayVecEnv``.
    """

    def __init__(self, game: Game, pool: OpponentPool, num_envs: int, row_offset: int,
                 row_stride: int, torch_threads: int = 1, **env_options: Any):
        torch.set_num_threads(torch_threads)
        self.pool = pool
        self.env = SelfPlayVecEnv(game, num_envs, pool, row_offset=row_offset,
                                  row_stride=row_stride, **env_options)

    def add_members(self, members: list[Opponent]) -> None:
        """Add the driver pool's new members, in id order, under their driver ids."""
        for member in members:
            added = self.pool.add(member.kind, member.name, member.agent)
            if added.id != member.id:
                raise RuntimeError(f"shard pool out of step: {member.name} is member "
                                   f"{added.id} here, {member.id} on the driver")

    def load_learner(self, state_dict: dict[str, torch.Tensor]) -> None:
        """Give the shard's copy of the learner's policy the learner's current weights."""
        learner = self.pool.learner()
        if learner is None:
            raise RuntimeError("the learner's weights came before its pool member")
        learner.agent.policy.load_state_dict(state_dict)

    def reset(self, seed: int | None) -> ShardStep:
        """``SelfPlayVecEnv.reset``, after ``seed(seed)`` unless None."""
        if seed is not None:
            self.env.seed(seed)
        obs = self.env.reset()
        n = self.env.num_envs
        return self._result(obs, np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool),
                            [{} for _ in range(n)])

    def step(self, actions: np.ndarray) -> ShardStep:
        return self._result(*self.env.step(actions))

    def _result(self, obs: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
                infos: list[dict[str, Any]]) -> ShardStep:
        env = self.env
        return ShardStep(obs, rewards, dones, infos, env.action_masks(), env.episodes.copy(),
                         env.learner_seat.copy(), env.opponent_id.copy())

    def restore_episodes(self, episodes: np.ndarray) -> None:
        self.env.restore_episodes(episodes)

    def game_seeds(self) -> np.ndarray:
        return self.env.game_seeds()

    def render(self) -> str:
        return self.env.render()


def _portable(member: Opponent) -> Opponent:
    """The member as a shard receives it."""
    if member.kind != "self":
        return member
    # The live policy carries its optimizer's state; a shard needs the network alone, and
    # its weights follow by load_learner.
    agent = copy.copy(member.agent)
    agent.policy = copy_policy(member.agent.policy)
    return dataclasses.replace(member, agent=agent)


class RaySelfPlayVecEnv(BatchedVecEnv):
    """``SelfPlayVecEnv``'s B games stepped by K Ray actors, as one SB3 VecEnv.

    Args:
        game: the batched rules object.
        num_envs: B, the games of all shards together.
        pool: the driver's opponent pool (the trainer adds the learner and snapshots here).
        seed, shaping, gamma, score_scale: as ``SelfPlayVecEnv``; row i of the whole batch
            plays the games row i of a local ``SelfPlayVecEnv(game, B, ...)`` would.
        num_workers: K, the actors (0: one per CPU of the Ray cluster, at most B).
        address: a Ray cluster to connect to; None starts a local Ray (unless one is
            running already).
        torch_threads: torch CPU threads in each actor.

    Attributes:
        episodes, learner_seat, opponent_id: (B,) int64, as ``SelfPlayVecEnv``'s, as of
            the last reset or step.
    """

    def __init__(self, game: Game, num_envs: int, pool: OpponentPool, seed: int = 0,
                 shaping: float = 0.0, gamma: float = 1.0, score_scale: float = 10.0,
                 num_workers: int = 0, address: str | None = None, torch_threads: int = 1):
        if not 0 <= num_workers <= num_envs:
            raise ValueError(f"need 0 <= ray workers <= num_envs ({num_envs}), "
                             f"got {num_workers}")
        ray = import_ray()
        super().__init__(game, num_envs, pool.hints)
        self._started_ray = not ray.is_initialized()
        if self._started_ray:
            init_ray(address)
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        num_workers = int(num_workers) or min(max(int(cpus), 1), self.num_envs)
        self.pool = pool
        self.episodes = np.zeros(self.num_envs, dtype=np.int64)
        self.learner_seat = np.zeros(self.num_envs, dtype=np.int64)
        self.opponent_id = np.zeros(self.num_envs, dtype=np.int64)
        self._masks = np.zeros((self.num_envs, game.num_actions), dtype=bool)
        sizes = [len(rows) for rows in np.array_split(np.arange(self.num_envs), num_workers)]
        self._bounds = np.cumsum([0, *sizes])  # shard k holds rows bounds[k]..bounds[k+1]-1
        # More actors than CPUs share them rather than wait for a CPU that never frees.
        actor = ray.remote(RolloutShard).options(num_cpus=min(1.0, cpus / num_workers))
        game_ref, empty_pool = ray.put(game), ray.put(pool.empty_like())
        self._shards = [
            actor.remote(game_ref, empty_pool, size, int(offset), self.num_envs,
                         torch_threads=torch_threads, seed=seed, shaping=shaping, gamma=gamma,
                         score_scale=score_scale)
            for size, offset in zip(sizes, self._bounds[:-1], strict=True)
        ]
        self._members_sent = 0
        self._pending: list[Any] | None = None
        self._ray = ray

    # ------------------------------------------------------------------ the pool mirrors
    def _send_new_members(self) -> list[Any]:
        """Send the members the driver's pool gained since the last call; returns the calls."""
        new = [m for i, m in self.pool.members.items() if i >= self._members_sent]
        if not new:
            return []
        self._members_sent = max(m.id for m in new) + 1
        members = self._ray.put([_portable(m) for m in new])
        # The shards play the games; here a member is needed only until it is sent.
        self.pool.forget_retired(np.empty(0, np.int64))
        return [shard.add_members.remote(members) for shard in self._shards]

    def sync_opponents(self) -> None:
        """Give every shard the pool's new members and the learner's current weights."""
        calls = self._send_new_members()
        learner = self.pool.learner()
        if learner is not None:
            # On the CPU: the workers may have no GPU (the learner may train on one).
            weights = self._ray.put({k: v.cpu() for k, v in
                                     learner.agent.policy.state_dict().items()})
            calls += [shard.load_learner.remote(weights) for shard in self._shards]
        self._ray.get(calls)

    # ------------------------------------------------------------------ resets and steps
    def reset(self) -> VecEnvObs:
        """Reset every shard (with the seed ``seed()`` set, if any; see SelfPlayVecEnv)."""
        self.sync_opponents()
        seed = self._seeds[0]
        self._reset_seeds()
        obs, _, _, _ = self._gather([shard.reset.remote(seed) for shard in self._shards])
        return obs

    def restore_episodes(self, episodes: np.ndarray) -> None:
        """Continue a run from the episode counters ``episodes`` (see SelfPlayVecEnv)."""
        episodes = np.asarray(episodes, dtype=np.int64)
        if episodes.shape != (self.num_envs,):
            episodes = np.full(self.num_envs, int(episodes.max(initial=0)) + 1)
        self._ray.get([shard.restore_episodes.remote(part) for shard, part
                       in zip(self._shards, self._split(episodes), strict=True)])
        self.episodes = episodes.copy()
        self._reset_seeds()

    def step_async(self, actions: np.ndarray) -> None:
        self._ray.get(self._send_new_members())
        parts = self._split(np.asarray(actions).reshape(self.num_envs))
        self._pending = [shard.step.remote(part)
                         for shard, part in zip(self._shards, parts, strict=True)]

    def step_wait(self) -> VecEnvStepReturn:
        if self._pending is None:
            raise RuntimeError("call reset() and step_async() before step_wait()")
        pending, self._pending = self._pending, None
        return self._gather(pending)

    def _split(self, values: np.ndarray) -> list[np.ndarray]:
        return np.split(values, self._bounds[1:-1])

    def _gather(self, calls: list[Any]) -> VecEnvStepReturn:
        """Concatenate the shards' results in row order; keep masks and row counters."""
        parts: list[ShardStep] = self._ray.get(calls)

        def joined(field: str) -> np.ndarray:
            return np.concatenate([getattr(part, field) for part in parts])

        self._masks = joined("masks")
        self.episodes = joined("episodes")
        self.learner_seat = joined("learner_seat")
        self.opponent_id = joined("opponent_id")
        infos = [info for part in parts for info in part.infos]
        return joined("obs"), joined("rewards"), joined("dones"), infos

    # ------------------------------------------------------------------ masks and views
    def action_masks(self) -> np.ndarray:
        """(B, A) bool: the learner's legal actions in each row (never empty between steps)."""
        return self._masks.copy()

    def game_seeds(self) -> np.ndarray:
        """(B,) int64: the seed of each row's current game, as the shards hold it."""
        return np.concatenate(self._ray.get([shard.game_seeds.remote()
                                             for shard in self._shards]))

    def render(self, mode: str | None = None) -> str:
        """The text board of row 0."""
        return self._ray.get(self._shards[0].render.remote())

    def close(self) -> None:
        """End the actors, and the local Ray if this env started it."""
        for shard in self._shards:
            self._ray.kill(shard)
        self._shards = []
        if self._started_ray:
            self._ray.shutdown()
            self._started_ray = False
