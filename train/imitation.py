"""Behaviour cloning: warm-start the PPO policy from a scripted agent's play.

``--imitate medal_hunter`` makes the run start from a policy that already plays like that
baseline instead of from random weights: the teacher plays every seat of a batch of games,
each decision is recorded as (acting seat's observation, legal mask, teacher's action, the
seat's reward at the end of that game), and the policy is fitted by the masked cross-entropy of the
teacher's actions while its value head regresses on the final rewards (so PPO's first
advantages are not noise). Self-play PPO then improves on the teacher (as AlphaGo and
AlphaStar started from supervised play).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm import tqdm

from agents.base import Agent
from agents.hints import ActionHints
from envs.core.game import Game
from envs.core.vec import VecGameEnv

# The recorded observations are stored as float16: half the memory, and the features (one-hots,
# counts and scaled values in [0, 5]) come back within 2.5e-4 of the env's float32 values.
OBS_DTYPE = np.float16


@dataclass
class SparseRows:
    """A (N, width) matrix that is mostly zeros, kept as its nonzero entries row by row (CSR).

    A recorded cairo observation with its hints is 3,030 features of which ~7% are not 0
    (one-hots, empty stalls, the hints of illegal actions): 200k of them take 0.17 GB
    here against 1.2 GB dense in float16.
    """

    width: int
    starts: np.ndarray  # (N + 1,) int64: row i's entries are [starts[i], starts[i + 1])
    columns: np.ndarray  # (nnz,) column_dtype(width)
    values: np.ndarray  # (nnz,) OBS_DTYPE

    @classmethod
    def join(cls, width: int, counts: np.ndarray, columns: list[np.ndarray],
             values: list[np.ndarray]) -> SparseRows:
        """The rows with ``counts`` nonzero entries each, whose ``columns`` and ``values``
        are given in row order, in pieces of any length."""
        starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
        return cls(width, starts,
                   np.concatenate(columns or [np.empty(0)]).astype(cls.column_dtype(width),
                                                                   copy=False),
                   np.concatenate(values or [np.empty(0)]).astype(OBS_DTYPE, copy=False))

    @staticmethod
    def column_dtype(width: int) -> np.dtype:
        """The smallest unsigned int that holds every column of ``width``."""
        return np.min_scalar_type(max(width - 1, 0))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.starts) - 1, self.width

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """(len(rows), width) float32: the given rows written out."""
        rows = np.asarray(rows, np.int64)
        first, counts = self.starts[rows], self.starts[rows + 1] - self.starts[rows]
        out_row = np.repeat(np.arange(len(rows)), counts)
        # Entry k of row r sits at first[r] + k in the flat arrays.
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        entries = np.repeat(first, counts) + offsets
        out = np.zeros((len(rows), self.width), np.float32)
        out[out_row, self.columns[entries]] = self.values[entries]
        return out


@dataclass
class Demonstrations:
    """Decisions of a teacher: observations (N, obs) ``OBS_DTYPE`` as ``SparseRows``, legal
    masks (N, A) bool, the teacher's actions (N,) int64 and the acting seat's final rewards
    (N,) float32."""

    observations: SparseRows
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray


# Games recorded at once: each holds its decisions so far until it ends (a cairo game ~450,
# ~1 kB each with three agents' hints, kept sparse), so their number barely moves the peak.
RECORDING_GAMES = 64


def collect(game: Game, teacher: Agent, decisions: int, num_envs: int = RECORDING_GAMES,
            seed: int = 0, progress: bool = True,
            hints: ActionHints | None = None) -> Demonstrations:
    """Record ``decisions`` decisions of ``teacher`` playing every seat of ``num_envs`` games.

    Only decisions of games that finished are kept (their return is known): whole games in
    the order they ended, each in move order, the last one cut at ``decisions``. A game's
    decisions wait in its row's list until it ends and then go straight into the result, so
    memory holds the result and the games in progress, never the whole record twice; the
    observations are kept by their nonzero entries throughout. With ``hints`` the recorded
    observations carry the action hints the policy will read.
    """
    env = VecGameEnv(game, num_envs, seed=seed)
    obs, infos = env.reset()
    playing: list[list[tuple]] = [[] for _ in range(num_envs)]  # each row's game so far
    columns: list[np.ndarray] = []  # per ended game, its decisions' nonzero entries
    values: list[np.ndarray] = []
    counts = np.empty(decisions, np.int64)
    masks = np.empty((decisions, game.num_actions), bool)
    actions = np.empty(decisions, np.int64)
    returns = np.empty(decisions, np.float32)
    width, filled = 0, 0
    bar = tqdm(total=decisions, desc=f"imitate: record {teacher.name}", disable=not progress,
               unit="dec")
    while filled < decisions:
        seats = infos["current_player"]
        if hints:  # the env's observation is the acting seat's; only the hints are added
            obs = hints.extend(game, env.state, seats, obs)
        chosen = teacher.act(game, env.state, seats)
        compact = obs.reshape(num_envs, -1).astype(OBS_DTYPE)
        width = compact.shape[1]
        column_dtype = SparseRows.column_dtype(width)
        for row in range(num_envs):
            nonzero = np.flatnonzero(compact[row]).astype(column_dtype)
            playing[row].append((nonzero, compact[row, nonzero],
                                 infos["action_mask"][row].copy(), int(chosen[row]),
                                 int(seats[row])))
        obs, rewards, terminated, truncated, infos = env.step(chosen)
        for row in np.flatnonzero(terminated | truncated):  # paid only at the end
            if filled == decisions:
                break
            moves, playing[row] = playing[row][:decisions - filled], []
            columns.append(np.concatenate([move[0] for move in moves]))
            values.append(np.concatenate([move[1] for move in moves]))
            for k, (nonzero, _, mask, action, seat) in enumerate(moves, start=filled):
                counts[k], masks[k] = len(nonzero), mask
                actions[k], returns[k] = action, rewards[row, seat]
            filled += len(moves)
            bar.update(len(moves))
    bar.close()
    return Demonstrations(SparseRows.join(width, counts, columns, values), masks, actions,
                          returns)


def fit(policy, demos: Demonstrations, epochs: int = 4, batch_size: int = 512,
        learning_rate: float = 1e-3, value_coef: float = 0.5, seed: int = 0,
        progress: bool = True) -> dict[str, float]:
    """Fit an sb3-contrib ``MaskableActorCriticPolicy`` to the demonstrations, in place.

    Returns:
        the last epoch's mean loss and the share of (up to 20,000) decisions where the
        policy's most likely legal action is the teacher's (``accuracy``).
    """
    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(demos.actions)
    masks = torch.as_tensor(demos.masks)
    actions, returns = torch.as_tensor(demos.actions), torch.as_tensor(demos.returns)
    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for epoch in tqdm(range(epochs), desc="imitate: fit", disable=not progress):
        order = torch.randperm(n, generator=generator)
        loss_sum = 0.0
        for start in range(0, n, batch_size):
            batch = order[start:start + batch_size]
            # The recorded set stays in host memory; only the minibatch goes to the device.
            values, log_prob, _ = policy.evaluate_actions(
                torch.as_tensor(demos.observations.dense(batch.numpy()), device=policy.device),
                actions[batch].to(policy.device),
                action_masks=masks[batch].to(policy.device))
            returns_batch = returns[batch].to(policy.device)
            loss = (-log_prob.mean()
                    + value_coef * torch.mean((values.flatten() - returns_batch) ** 2))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += loss.item() * len(batch)
        stats = {"epoch": epoch + 1, "loss": loss_sum / n,
                 "accuracy": _accuracy(policy, demos, order[:20_000])}
    policy.set_training_mode(False)
    return stats


def _accuracy(policy, demos: Demonstrations, rows: torch.Tensor, chunk: int = 2048) -> float:
    """Share of ``rows`` where the policy's most likely legal action is the teacher's (in
    chunks: 20,000 cairo observations at once took 0.4 GB)."""
    rows = rows.numpy()
    hits = 0
    with torch.no_grad():
        for start in range(0, len(rows), chunk):
            part = rows[start:start + chunk]
            obs = torch.as_tensor(demos.observations.dense(part), device=policy.device)
            dist = policy.get_distribution(obs, action_masks=demos.masks[part])
            best = dist.distribution.probs.argmax(dim=1).cpu().numpy()
            hits += int((best == demos.actions[part]).sum())
    return hits / max(len(rows), 1)
