"""The opponent pool of self-play: the learner itself, its past snapshots, scripted, random.

Every game of the self-play VecEnv draws one opponent from the pool, which then plays every
seat but the learner's for that whole game. The draw first picks a kind with the configured
weights (kinds with no member or zero weight drop out and the rest are renormalised), then a
member of that kind uniformly:

* ``self``: the learner's live policy (true self-play; sampled actions);
* ``snapshot``: frozen copies of the learner taken every N updates (the last ``max_snapshots``
  are drawn from; older ones stay on disk but leave the draw, and memory once no game plays
  them: ``forget_retired``);
* ``scripted``: the game's scripted baselines from ``agents.list_agents`` / ``make_agent``;
* ``random``: uniform over the legal actions.

Draws are a pure function of two uniforms per game, which the VecEnv derives from the game's
seed, so a run is reproducible. Members get integer ids that are never reused, so a game that
started against a snapshot keeps it even after that snapshot leaves the draw.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from agents.hints import ActionHints
from agents.policy import PolicyAgent
from agents.random_agent import RandomAgent

KINDS = ("self", "snapshot", "scripted", "random")
_SNAPSHOT_NAME = re.compile(r"^snapshot_(\d+)\.pt$")


@dataclasses.dataclass
class Opponent:
    """One member of the pool."""

    id: int  # unique, never reused
    kind: str  # one of KINDS
    name: str  # for tables and logs, e.g. "snapshot@40960" or "greedy"
    agent: Agent


def scripted_agent_names(env_id: str) -> list[str]:
    """The game's scripted baselines (``agents.list_baselines``: no random, no search
    agents); [] until defined."""
    try:
        from agents import list_baselines
    except ImportError:
        return []
    return list_baselines(env_id)


def make_scripted_agent(name: str, env_id: str, num_players: int, seed: int) -> Agent:
    from agents import make_agent

    return make_agent(name, env_id, num_players, seed=seed)


class OpponentPool:
    """Weighted draw over the kinds of opponents, uniform within a kind.

    Args:
        weights: kind -> non-negative weight (missing kinds weigh 0).
        max_snapshots: how many of the newest snapshots stay in the draw.
        opponent_deterministic: policies (self, snapshots) play their argmax instead of
            sampling.
        seed: seeds the sampling generators of the policy and random opponents.
        hints: the action hints the learner's network reads (``agents.hints``), which its
            live and frozen copies read too when they play the other seats.
    """

    def __init__(self, weights: dict[str, float], max_snapshots: int = 20,
                 opponent_deterministic: bool = False, seed: int = 0,
                 hints: ActionHints | None = None):
        unknown = sorted(set(weights) - set(KINDS))
        if unknown:
            raise ValueError(f"unknown opponent kinds {unknown}; valid: {', '.join(KINDS)}")
        if any(w < 0 for w in weights.values()):
            raise ValueError(f"opponent weights must be >= 0, got {weights}")
        self.weights = {kind: float(weights.get(kind, 0.0)) for kind in KINDS}
        self.max_snapshots = int(max_snapshots)
        self.opponent_deterministic = opponent_deterministic
        self.seed = int(seed)
        self.hints = hints if hints is not None else ActionHints()
        self.members: dict[int, Opponent] = {}
        self._next_id = 0
        self._drawable: dict[str, list[int]] = {kind: [] for kind in KINDS}
        self._retired: set[int] = set()  # left the draw, still in ``members``

    # ------------------------------------------------------------------ building the pool
    def add(self, kind: str, name: str, agent: Agent) -> Opponent:
        """Add a member; snapshots beyond ``max_snapshots`` push the oldest out of the draw."""
        if kind not in KINDS:
            raise ValueError(f"unknown opponent kind {kind!r}; valid: {', '.join(KINDS)}")
        member = Opponent(self._next_id, kind, name, agent)
        self._next_id += 1
        self.members[member.id] = member
        self._drawable[kind].append(member.id)
        if kind == "snapshot" and len(self._drawable[kind]) > self.max_snapshots:
            cut = len(self._drawable[kind]) - self.max_snapshots
            self._retired.update(self._drawable[kind][:cut])
            del self._drawable[kind][:cut]
        return member

    def add_baselines(self, env_id: str, num_players: int) -> None:
        """Add random and every scripted baseline of the game."""
        self.add("random", "random", RandomAgent(seed=self.seed + 17))
        for i, name in enumerate(scripted_agent_names(env_id)):
            agent = make_scripted_agent(name, env_id, num_players, seed=self.seed + 101 + i)
            self.add("scripted", name, agent)

    def empty_like(self) -> OpponentPool:
        """A pool with these settings and no members, to mirror this one by ``add``."""
        return OpponentPool(self.weights, max_snapshots=self.max_snapshots,
                            opponent_deterministic=self.opponent_deterministic, seed=self.seed,
                            hints=ActionHints(self.hints.names))

    def forget_retired(self, playing: np.ndarray) -> None:
        """Drop the members that left the draw and that no game of ``playing`` (member ids)
        still plays. Without it a run holds every snapshot it ever took: 244 of cairo's
        5.5 MB networks by 4M steps. Draws see only the members in the draw, so a run plays
        the same games with it as without."""
        if not self._retired:  # the common case: called whenever games start
            return
        gone = self._retired.difference(np.asarray(playing).tolist())
        for member_id in gone:
            del self.members[member_id]
        self._retired -= gone

    def learner(self) -> Opponent | None:
        """The ``self`` member playing the learner's live policy; None before ``set_learner``."""
        ids = self._drawable["self"]
        return self.members[ids[0]] if ids else None

    def set_learner(self, policy: Any) -> None:
        """Make the learner's live policy the ``self`` opponent (once the model exists)."""
        member = self.learner()
        if member is not None:
            member.agent.policy = policy
            return
        agent = PolicyAgent(policy, name="self", deterministic=self.opponent_deterministic,
                            seed=self.seed + 7, hints=self.hints)
        self.add("self", "self", agent)

    def add_snapshot(self, policy: Any, timesteps: int, directory: Path | None = None) -> Opponent:
        """Freeze a copy of ``policy`` into the pool, and onto disk when ``directory`` is given.

        The file ``snapshot_{timesteps:010d}.pt`` is written atomically (temp file, then
        ``os.replace``) so an interrupted run never leaves half a snapshot.
        """
        frozen = copy_policy(policy)
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"snapshot_{int(timesteps):010d}.pt"
            tmp = directory / f".{path.name}.{os.getpid()}.tmp"
            try:
                frozen.save(str(tmp))
                os.replace(tmp, path)
            finally:
                tmp.unlink(missing_ok=True)
        return self._add_frozen(frozen, int(timesteps))

    def load_snapshots(self, directory: Path) -> int:
        """Add the snapshot files of ``directory`` (oldest first) as if each were taken now;
        returns how many there are. Only the newest ``max_snapshots`` are read: the older
        ones would leave the draw at once, so they only take up their member ids (which keeps
        the ids, and the seeds drawn from them, those of loading them all)."""
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        found = sorted(
            (int(m.group(1)), p) for p in Path(directory).glob("snapshot_*.pt")
            if (m := _SNAPSHOT_NAME.match(p.name))
        )
        retired = max(len(found) - self.max_snapshots, 0)
        self._next_id += retired
        for timesteps, path in found[retired:]:
            self._add_frozen(MaskableActorCriticPolicy.load(str(path), device="cpu"), timesteps)
        return len(found)

    def _add_frozen(self, policy: Any, timesteps: int) -> Opponent:
        policy.set_training_mode(False)
        for param in policy.parameters():
            param.requires_grad_(False)
        name = f"snapshot@{timesteps}"
        agent = PolicyAgent(policy, name=name, deterministic=self.opponent_deterministic,
                            seed=self.seed + 1000 + self._next_id, hints=self.hints)
        return self.add("snapshot", name, agent)

    # ------------------------------------------------------------------ drawing
    def kind_probabilities(self) -> dict[str, float]:
        """The probability of each kind in the next draw."""
        live = {k: w for k, w in self.weights.items() if w > 0 and self._drawable[k]}
        total = sum(live.values())
        if total <= 0:
            raise ValueError(
                f"empty opponent pool: weights {self.weights} select no kind with members "
                f"(members: { {k: len(v) for k, v in self._drawable.items()} })"
            )
        return {k: live.get(k, 0.0) / total for k in KINDS}

    def draw(self, u_kind: np.ndarray, u_member: np.ndarray) -> np.ndarray:
        """Opponent ids for a batch of games from two uniforms in [0, 1) per game.

        Returns:
            (G,) int64 member ids.
        """
        probs = self.kind_probabilities()
        kinds = [k for k in KINDS if probs[k] > 0]
        edges = np.cumsum([probs[k] for k in kinds])
        which = np.minimum(np.searchsorted(edges, u_kind, side="right"), len(kinds) - 1)
        ids = np.empty(len(u_kind), dtype=np.int64)
        for k_index, kind in enumerate(kinds):
            rows = which == k_index
            if rows.any():
                pool = np.asarray(self._drawable[kind], dtype=np.int64)
                pick = np.minimum((u_member[rows] * len(pool)).astype(np.int64), len(pool) - 1)
                ids[rows] = pool[pick]
        return ids

    def describe(self) -> dict[str, Sequence[str]]:
        """Kind -> names of the members in the draw."""
        return {k: [self.members[i].name for i in ids] for k, ids in self._drawable.items()}


def copy_policy(policy: Any) -> Any:
    """A detached CPU copy of an SB3 policy network, without its optimizer state.

    On the CPU whatever device the learner trains on: the copies are opponents of games
    stepped on the CPU, they travel to Ray workers that may have no GPU, and a resumed run
    reloads the snapshots on the CPU as well.
    """
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())  # copies the values, across devices too
    clone.set_training_mode(False)
    return clone
