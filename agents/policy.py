"""The trained-policy agent: a MaskablePPO checkpoint acting on a batch of games.

A checkpoint is the zip that stable-baselines3 writes (``MaskablePPO.save``) with one more
entry, ``tradewinds.json``, holding what is needed to use it safely: the env id, the player
count, the env ``VERSION`` (observation and action encodings change with it), the game
options, the timesteps trained and the training config. SB3 ignores entries it does not know,
so the file still loads with ``MaskablePPO.load``. ``checkpoint_info`` reads that entry
alone (no torch needed to read it); ``load_policy_agent`` refuses, with a ValueError, a
checkpoint of another env, player count or version.

``PolicyAgent`` wraps any sb3-contrib ``MaskableActorCriticPolicy``: one batched forward pass
on ``game.observe(state, player)`` (followed by the action hints of ``agents.hints`` when the
run trained with ``--hints``) with the legal mask, then the argmax or a draw from a
NumPy generator (so sampling does not touch torch's global RNG); the checkpoint's metadata
says which, argmax where it is silent. The self-play trainer uses the same class for its
snapshot opponents.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.hints import ActionHints
from envs.core.game import Game
from envs.core.state import BatchState

METADATA_ENTRY = "tradewinds.json"
CHECKPOINT_FORMAT = 1


def checkpoint_info(path: str | Path) -> dict[str, Any]:
    """The metadata stored in a checkpoint.

    Args:
        path: a checkpoint written by ``train.selfplay``.

    Returns:
        dict with at least ``env_id`` (str), ``num_players`` (int), ``version`` (int, the env
        VERSION it was trained on), ``VERSION`` (the same value, by the env's own name),
        ``timesteps`` (int) and ``options`` (dict of game options); training runs add
        ``config`` (the resolved training config), ``command`` (the shortest
        ``python -m train.selfplay`` command that reproduces the run, which tables quote)
        and ``updates``.

    Raises:
        ValueError: the file is missing, not a zip, or has no Tradewinds metadata.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"checkpoint {str(path)!r} does not exist")
    try:
        with zipfile.ZipFile(path) as archive:
            if METADATA_ENTRY not in archive.namelist():
                raise ValueError(
                    f"{str(path)!r} is not a Tradewinds checkpoint: no {METADATA_ENTRY} entry "
                    "(was it written by train.selfplay?)"
                )
            info = json.loads(archive.read(METADATA_ENTRY))
    except zipfile.BadZipFile as err:
        raise ValueError(f"{str(path)!r} is not a checkpoint zip: {err}") from err
    info["VERSION"] = info["version"]
    return info


def check_checkpoint(info: dict[str, Any], env_id: str, num_players: int,
                     path: str | Path = "checkpoint") -> None:
    """Raise ValueError unless a checkpoint's metadata fits ``env_id`` at ``num_players``."""
    from envs.core.registry import game_class

    if info["env_id"] != env_id:
        raise ValueError(
            f"{str(path)!r} was trained on env {info['env_id']!r}, not {env_id!r}"
        )
    if int(info["num_players"]) != int(num_players):
        raise ValueError(
            f"{str(path)!r} was trained for {info['num_players']} players, not {num_players}"
        )
    version = game_class(env_id).VERSION
    if int(info["version"]) != version:
        raise ValueError(
            f"{str(path)!r} was trained on {env_id} v{info['version']}, but the installed "
            f"{env_id} is v{version} (observation or action encoding changed); retrain"
        )


class PolicyAgent:
    """An agent backed by a MaskablePPO policy network.

    Args:
        policy: a ``MaskableActorCriticPolicy`` (in eval mode after construction).
        name: the agent's name in tables.
        deterministic: argmax of the masked logits; otherwise a draw from them.
        seed: seed of the NumPy generator used for draws.
        hints: the scripted agents' action values the network reads after the observation
            (``agents.hints``); none by default.
    """

    def __init__(self, policy: Any, name: str = "policy", deterministic: bool = True,
                 seed: int = 0, hints: ActionHints | None = None):
        self.policy = policy
        self.policy.set_training_mode(False)
        self.name = name
        self.deterministic = deterministic
        self.generator = np.random.default_rng(seed)
        self.hints = hints if hints is not None else ActionHints()
        # Set by load_policy_agent: what the checkpoint was trained for.
        self.env_id: str | None = None
        self.num_players: int | None = None
        self.checkpoint: str | None = None

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """(B, A) float64 unmasked action logits of the policy for (B, *obs_shape) float32.

        The actor path of ``MaskableActorCriticPolicy.get_distribution`` without building a
        torch distribution (a large share of the cost at small batch sizes).
        """
        policy = self.policy
        with torch.inference_mode():
            obs_t = torch.as_tensor(obs, device=policy.device)
            features = policy.extract_features(obs_t, policy.pi_features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            return policy.action_net(latent).double().cpu().numpy()

    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """(B,) int64 actions: one forward pass on ``observe(state, player)`` (and the hints)
        and the mask.

        Rows with no legal action (finished games) get action 0; the caller ignores them.
        """
        obs = self.hints.observe(game, state, player)
        return self.act_observed(obs, np.asarray(game.legal_action_mask(state), dtype=bool))

    def act_observed(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B,) int64: ``act``'s actions, given the policy's input (``self.hints.observe``)
        and the (B, A) legal mask already made; agents that read the same input share them
        (``agents.arena.act_by_owner``)."""
        logits = self.logits(obs)
        logits = np.where(mask, logits, -np.inf)
        empty = ~mask.any(axis=1)
        logits[empty] = 0.0  # any finite row; the caller ignores finished games
        if self.deterministic:
            actions = logits.argmax(axis=1)
        else:
            log_probs = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
            actions = sample_from_log_probs(log_probs, self.generator)
        actions = actions.astype(np.int64)
        actions[empty] = 0
        return actions


def sample_from_log_probs(log_probs: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """One draw per row from (B, A) normalised log-probabilities (masked entries -inf).

    Returns:
        (B,) int64; never an entry of probability zero.
    """
    probs = np.exp(log_probs.astype(np.float64))
    cdf = np.cumsum(probs, axis=1)
    u = generator.random(probs.shape[0]) * cdf[:, -1]
    # First index whose cumulative mass exceeds u: the cdf only rises at entries with mass.
    return np.argmax(cdf > u[:, None], axis=1).astype(np.int64)


def load_policy(path: str | Path, device: str = "cpu") -> Any:
    """The ``MaskableActorCriticPolicy`` stored in a checkpoint (no env needed)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device=device)
    return model.policy


def load_policy_agent(path: str | Path, env_id: str, num_players: int,
                      deterministic: bool | None = None, seed: int = 0,
                      name: str | None = None, device: str = "cpu") -> PolicyAgent:
    """Load a trained MaskablePPO checkpoint as an ``Agent``.

    Args:
        path: checkpoint zip written by ``train.selfplay``.
        env_id, num_players: the game it will play; must match the checkpoint.
        deterministic: argmax of the masked policy (True) or sampling from it (False). None
            (the default) plays as the checkpoint's metadata says (``"deterministic"``, which
            the trainer sets from ``--eval-deterministic``), and argmax where it says nothing.
            Sampling is the trainer's default: a briefly trained policy's argmax can cycle
            through moves that make no progress (seen on cairo), while the sampled policy is
            the one PPO trained and evaluated.
        seed: seed of the sampling generator (used when not deterministic).
        name: the agent's name; the path as given by default.
        device: torch device of the network.

    Raises:
        ValueError: not a checkpoint, or one trained for another env, player count, version
            or observation shape.
    """
    from envs.core.registry import make_game

    info = checkpoint_info(path)
    check_checkpoint(info, env_id, num_players, path)
    policy = load_policy(path, device=device)
    game = make_game(env_id, num_players, **info.get("options", {}))
    hints = ActionHints(info.get("config", {}).get("hints"))
    shape = hints.shape(game)
    if tuple(policy.observation_space.shape) != shape or (
        int(policy.action_space.n) != game.num_actions
    ):
        raise ValueError(
            f"{str(path)!r}: network spaces {policy.observation_space.shape} -> "
            f"{policy.action_space.n} actions do not fit {env_id} "
            f"{shape} -> {game.num_actions}"
        )
    if deterministic is None:
        deterministic = bool(info.get("deterministic", True))
    agent = PolicyAgent(policy, name=name or str(path), deterministic=deterministic, seed=seed,
                        hints=hints)
    agent.env_id, agent.num_players, agent.checkpoint = env_id, int(num_players), str(path)
    return agent
