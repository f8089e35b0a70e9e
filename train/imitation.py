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


@dataclass
class Demonstrations:
    """Decisions of a teacher: (N, obs) float32, (N, A) bool, (N,) int64, (N,) float32."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray


def collect(game: Game, teacher: Agent, decisions: int, num_envs: int = 256,
            seed: int = 0, progress: bool = True,
            hints: ActionHints | None = None) -> Demonstrations:
    """Record ``decisions`` decisions of ``teacher`` playing every seat of ``num_envs`` games.

    Only decisions of games that finished are kept (their return is known), so slightly more
    than ``decisions`` moves are played. With ``hints`` the recorded observations carry the
    action hints the policy will read.
    """
    env = VecGameEnv(game, num_envs, seed=seed)
    obs, infos = env.reset()
    # Whole steps are recorded as arrays; each decision is tagged with its game's id, and a
    # game's rewards and completion rank are filled in when it ends.
    steps: list[tuple[np.ndarray, ...]] = []
    game_id = np.arange(num_envs)
    moves = np.zeros(num_envs, dtype=np.int64)  # decisions of each row's current game
    final: dict[int, tuple[int, np.ndarray]] = {}  # game id -> (completion rank, rewards)
    recorded = 0
    bar = tqdm(total=decisions, desc=f"imitate: record {teacher.name}", disable=not progress,
               unit="dec")
    while recorded < decisions:
        seats = infos["current_player"]
        if hints:  # the env's observation is the acting seat's; only the hints are added
            obs = hints.extend(game, env.state, seats, obs)
        actions = teacher.act(game, env.state, seats)
        steps.append((obs, infos["action_mask"], actions, seats, game_id.copy()))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        moves += 1
        ended = np.flatnonzero(terminated | truncated)
        for row in ended:
            final[int(game_id[row])] = (len(final), rewards[row])  # paid only at the end
        recorded += int(moves[ended].sum())
        bar.update(min(int(moves[ended].sum()), decisions - bar.n))
        moves[ended] = 0
        game_id[ended] = game_id.max() + 1 + np.arange(ended.size)
    bar.close()
    ids = np.concatenate([step[4] for step in steps])
    seat = np.concatenate([step[3] for step in steps]).astype(np.int64)
    rank = np.array([final[i][0] if i in final else -1 for i in ids.tolist()])
    # Finished games in the order they ended, each in move order; the first ``decisions``.
    keep = np.flatnonzero(rank >= 0)
    keep = keep[np.argsort(rank[keep], kind="stable")][:decisions]
    returns = np.array([final[i][1][s] for i, s in zip(ids[keep].tolist(),
                                                        seat[keep].tolist(), strict=True)])
    return Demonstrations(
        observations=np.concatenate([step[0] for step in steps])[keep].astype(np.float32),
        masks=np.concatenate([step[1] for step in steps])[keep].astype(bool),
        actions=np.concatenate([step[2] for step in steps])[keep].astype(np.int64),
        returns=returns.astype(np.float32),
    )


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
                obs[batch].to(policy.device), actions[batch].to(policy.device),
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


def _accuracy(policy, demos: Demonstrations, rows: torch.Tensor) -> float:
    """Share of ``rows`` where the policy's most likely legal action is the teacher's."""
    with torch.no_grad():
        obs = torch.as_tensor(demos.observations[rows.numpy()], device=policy.device)
        dist = policy.get_distribution(obs, action_masks=demos.masks[rows.numpy()])
        best = dist.distribution.probs.argmax(dim=1).cpu().numpy()
    return float((best == demos.actions[rows.numpy()]).mean())
