"""The self-play training callback: win-rate logs, progress bar, snapshots, checkpoints.

Hooks into MaskablePPO's loop:

* every env step: read the finished games from the VecEnv infos (the learner's rank reward,
  whether it finished first, which kind of opponent it met) and advance the progress bar;
  a row's first game is marked, as the curve's counts (``curve_games_vs``) leave it out;
* at the end of each rollout: log the rollout's win rates and the update's steps/s to
  TensorBoard (``selfplay/*``), append one JSON line to ``metrics.jsonl`` (what
  ``train.analysis`` reads), and show the steps/s on the progress bar (or print a line per
  update without one);
* (``ValueWarmup``) at the end of each rollout, i.e. before its update: the policy's own
  layers are frozen during the first ``--value-warmup`` updates;
* at the start of a rollout, i.e. after an update: every ``snapshot_every`` updates freeze the
  policy into the opponent pool (and ``pool/``), every ``checkpoint_every`` updates write
  ``checkpoints/latest.zip`` atomically; then the env's ``sync_opponents()`` hands the pool's
  new members and the updated policy to wherever the opponents are stepped (Ray actors with
  ``--ray``; nothing to do in one process).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from train.checkpoint import save_checkpoint
from train.pool import KINDS, OpponentPool


class SelfPlayCallback(BaseCallback):
    """Logs, snapshots and checkpoints of a self-play run.

    Args:
        pool: the opponent pool snapshots go into.
        run_dir: the run directory (``metrics.jsonl``, ``pool/``, ``checkpoints/``).
        total_timesteps: the run's target, for the progress bar.
        metadata: returns the checkpoint metadata at the current point of training.
        updates: updates already done (a resumed run continues the count).
        snapshot_every, checkpoint_every: in updates; 0 turns them off.
        progress: show the tqdm bar; without it, a line per update is printed.
        window: finished games the bar's win rate is taken over.
    """

    def __init__(self, pool: OpponentPool, run_dir: Path, total_timesteps: int,
                 metadata: Callable[[], dict[str, Any]], updates: int = 0,
                 snapshot_every: int = 0, checkpoint_every: int = 0, progress: bool = True,
                 window: int = 500):
        super().__init__(verbose=0)
        self.pool = pool
        self.run_dir = Path(run_dir)
        self.total_timesteps = int(total_timesteps)
        self.metadata = metadata
        self.updates = int(updates)
        self.snapshot_every = int(snapshot_every)
        self.checkpoint_every = int(checkpoint_every)
        self.progress = progress
        self.recent: deque[bool] = deque(maxlen=window)
        self.games_total = 0
        self._rollout: list[tuple[bool, str, float, int, bool]] = []
        # Rows that have finished a game since the training started: a row's first game is
        # left out of the curve's counts, as all rows start together and the first games to
        # end are the short ones, a biased sample (train.analysis.curve_halves).
        self._ended_once = np.zeros(0, dtype=bool)
        self._bar: tqdm | None = None
        self._t_start = time.time()
        self._steps_start = 0
        self._last_saved = self.updates
        # The update cycle: the end of the previous rollout (or the start) to the end of
        # this one, split at this rollout's start into learning and playing.
        self._t_cycle = self._t_start
        self._t_rollout = self._t_start
        self._steps_cycle = 0

    # ------------------------------------------------------------------ training loop hooks
    def _on_training_start(self) -> None:
        self._t_start = self._t_cycle = self._t_rollout = time.time()
        self._steps_start = self._steps_cycle = self.model.num_timesteps
        self._ended_once = np.zeros(self.training_env.num_envs, dtype=bool)
        if self.progress:
            self._bar = tqdm(total=self.total_timesteps, initial=self.model.num_timesteps,
                             unit="step", dynamic_ncols=True, desc="self-play",
                             mininterval=1.0)

    def _on_step(self) -> bool:
        dones = self.locals["dones"]
        infos = self.locals["infos"]
        for row in np.flatnonzero(dones):
            info = infos[row]
            first = bool(info["learner_first"])
            self.recent.append(first)
            self._rollout.append((first, info["opponent_kind"], info["episode"]["r"],
                                  info["episode"]["l"], bool(self._ended_once[row])))
            self._ended_once[row] = True
        if self._bar is not None:
            # SB3 finishes its last rollout past the target: the bar keeps a total.
            self._bar.total = max(self._bar.total, self._bar.n + len(dones))
            self._bar.update(len(dones))
        return True

    def _on_rollout_start(self) -> None:
        # Runs after each update: the policy here is the one those updates produced.
        if self.updates != self._last_saved:
            self._last_saved = self.updates
            if self.snapshot_every and self.updates % self.snapshot_every == 0:
                self.pool.add_snapshot(self.model.policy, self.model.num_timesteps,
                                       self.run_dir / "pool")
            if self.checkpoint_every and self.updates % self.checkpoint_every == 0:
                save_checkpoint(self.model, self.run_dir / "checkpoints" / "latest.zip",
                                self.metadata())
        self.training_env.sync_opponents()
        self._t_rollout = time.time()

    def _on_rollout_end(self) -> None:
        self.updates += 1
        games = self._rollout
        self._rollout = []
        self.games_total += len(games)
        now = time.time()
        cycle_steps = self.model.num_timesteps - self._steps_cycle
        # Steps per second of this update's cycle: the previous update's gradient steps
        # (and snapshot, checkpoint) plus this rollout, the rate the run advances at now.
        update_rate = cycle_steps / max(now - self._t_cycle, 1e-9)
        learn_s, rollout_s = self._t_rollout - self._t_cycle, now - self._t_rollout
        self._t_cycle, self._steps_cycle = now, self.model.num_timesteps
        record: dict[str, Any] = {
            "timesteps": int(self.model.num_timesteps),
            "updates": self.updates,
            "wall_s": round(time.time() - self._t_start, 3),
            "steps_per_s": round((self.model.num_timesteps - self._steps_start)
                                 / max(time.time() - self._t_start, 1e-9), 1),
            "update_steps_per_s": round(update_rate, 1),
            "learn_s": round(learn_s, 3),
            "rollout_s": round(rollout_s, 3),
            "games": len(games),
            "games_total": self.games_total,
        }
        if games:
            firsts = np.array([g[0] for g in games])
            record["win_rate"] = float(firsts.mean())
            record["mean_reward"] = float(np.mean([g[2] for g in games]))
            record["mean_length"] = float(np.mean([g[3] for g in games]))
            kinds = np.array([g[1] for g in games])
            record["win_rate_vs"] = {k: float(firsts[kinds == k].mean()) for k in KINDS
                                     if (kinds == k).any()}
            steady = np.array([g[4] for g in games])
            record["curve_games_vs"] = {k: int((steady & (kinds == k)).sum()) for k in KINDS}
            record["curve_firsts_vs"] = {k: int((steady & firsts & (kinds == k)).sum())
                                         for k in KINDS}
            self.logger.record("selfplay/win_rate", record["win_rate"])
            self.logger.record("selfplay/mean_reward", record["mean_reward"])
            for kind, rate in record["win_rate_vs"].items():
                self.logger.record(f"selfplay/win_rate_vs_{kind}", rate)
        self.logger.record("selfplay/steps_per_s", record["update_steps_per_s"])
        self.logger.record("selfplay/games", self.games_total)
        self.logger.record("selfplay/snapshots", len(self.pool.describe()["snapshot"]))
        # The previous update's losses (SB3 records them after its dump).
        for key, value in self.logger.name_to_value.items():
            if key.startswith("train/"):
                record[key] = float(value)
        with open(self.run_dir / "metrics.jsonl", "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        win = f"{np.mean(self.recent):.3f}" if self.recent else "-"
        if self._bar is not None:
            self._bar.set_postfix(win=win, games=self.games_total,
                                  sps=f"{update_rate:.0f}", refresh=False)
        else:
            print(f"update {self.updates}: {self.model.num_timesteps:,} steps, "
                  f"{update_rate:,.0f} steps/s (learn {learn_s:.2f} s, rollout "
                  f"{rollout_s:.2f} s), win rate {win} over the last {len(self.recent)} "
                  "games", flush=True)

    def _on_training_end(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class ValueWarmup(BaseCallback):
    """The first ``updates`` PPO updates train the value function alone, then both.

    The policy's own layers (``mlp_extractor.policy_net`` and ``action_net``) are frozen
    before each of those updates: no gradient reaches them, so Adam leaves them as they
    are. Why: a warm-started critic was fitted to the clone's final rewards, not to the
    returns PPO trains on (discounted, with the shaping's potential differences), and
    until it has caught up its errors bias every advantage, so the first updates would move
    the cloned policy on noise.

    Args:
        updates: updates with the policy frozen.
        done: updates already made (a resumed run continues the count).
    """

    def __init__(self, updates: int, done: int = 0):
        super().__init__(verbose=0)
        self.updates = int(updates)
        self.done = int(done)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        policy = self.model.policy
        train_policy = self.done >= self.updates
        for layer in (policy.mlp_extractor.policy_net, policy.action_net):
            layer.requires_grad_(train_policy)
        self.done += 1
