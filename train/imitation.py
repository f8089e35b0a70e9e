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
class Demonstrations:
    """Decisions of a teacher: observations (N, obs) ``OBS_DTYPE``, legal masks (N, A) bool,
    the teacher's actions (N,) int64 and the acting seat's final rewards (N,) float32."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    @classmethod
    def empty(cls, size: int, obs_width: int, num_actions: int) -> Demonstrations:
        return cls(np.empty((size, obs_width), OBS_DTYPE), np.empty((size, num_actions), bool),
                   np.empty(size, np.int64), np.empty(size, np.float32))


# Games recorded at once: each holds its decisions so far until it ends (a cairo game ~450,
# 6 kB each with three agents' hints), so 256 of them would add ~0.3 GB to the peak.
RECORDING_GAMES = 64


def collect(game: Game, teacher: Agent, decisions: int, num_envs: int = RECORDING_GAMES,
            seed: int = 0, progress: bool = True,
            hints: ActionHints | None = None) -> Demonstrations:
    """Record ``decisions`` decisions of ``teacher`` playing every seat of ``num_envs`` games.

    Only decisions of games that finished are kept (their return is known): whole games in
    the order they ended, each in move order, the last one cut at ``decisions``. A game's
    decisions wait in its row's list until it ends and then go straight into the result, so
    memory holds the result and the games in progress, never the whole record twice. With
    ``hints`` the recorded observations carry the action hints the policy will read.
    """
    env = VecGameEnv(game, num_envs, seed=seed)
    obs, infos = env.reset()
    playing: list[list[tuple]] = [[] for _ in range(num_envs)]  # each row's game so far
    demos: Demonstrations | None = None
    filled = 0
    bar = tqdm(total=decisions, desc=f"imitate: record {teacher.name}", disable=not progress,
               unit="dec")
    while filled < decisions:
        seats = infos["current_player"]
        if hints:  # the env's observation is the acting seat's; only the hints are added
            obs = hints.extend(game, env.state, seats, obs)
        actions = teacher.act(game, env.state, seats)
        if demos is None:
            demos = Demonstrations.empty(decisions, obs.shape[1], game.num_actions)
        compact, masks = obs.astype(OBS_DTYPE), infos["action_mask"]
        for row in range(num_envs):
            playing[row].append((compact[row].copy(), masks[row].copy(), int(actions[row]),
                                 int(seats[row])))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        for row in np.flatnonzero(terminated | truncated):  # paid only at the end
            moves, playing[row] = playing[row][:decisions - filled], []
            for k, (observation, mask, action, seat) in enumerate(moves, start=filled):
                demos.observations[k], demos.masks[k] = observation, mask
                demos.actions[k], demos.returns[k] = action, rewards[row, seat]
            filled += len(moves)
            bar.update(len(moves))
    bar.close()
    return demos


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
    obs, masks = torch.as_tensor(demos.observations), torch.as_tensor(demos.masks)
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
                obs[batch].to(policy.device, torch.float32), actions[batch].to(policy.device),
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
            obs = torch.as_tensor(demos.observations[part], dtype=torch.float32,
                                  device=policy.device)
            dist = policy.get_distribution(obs, action_masks=demos.masks[part])
            best = dist.distribution.probs.argmax(dim=1).cpu().numpy()
            hits += int((best == demos.actions[part]).sum())
    return hits / max(len(rows), 1)
