"""Batched play of agents in seats: the one game loop under tournaments and evaluations."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from agents.base import Agent
from envs.core.game import Game
from envs.core.state import BatchState
from envs.records import Recorder


@dataclasses.dataclass
class MatchResult:
    """Outcome of a batch of games; row i is the game seeded ``seed + i``."""

    scores: np.ndarray  # (G, P) float, the game's own final scores
    rewards: np.ndarray  # (G, P) float32, rank-based terminal rewards (+1 sole winner)
    truncated: np.ndarray  # (G,) bool, the game hit the safety cap
    decisions: int  # decisions taken over all games
    records: list = dataclasses.field(default_factory=list)  # envs.records.Recorder, rows 0..

    @property
    def first_place(self) -> np.ndarray:
        """(G, P) bool: the seat finished first (shared firsts count)."""
        # The rank reward grows with the number of seats beaten, so the seats nobody beats
        # are exactly those with the row's highest reward.
        return self.rewards == self.rewards.max(axis=1, keepdims=True)


def act_by_owner(game: Game, state: BatchState, agents: Sequence[Agent] | Mapping[int, Agent],
                 owner: np.ndarray) -> np.ndarray:
    """One action per row, each row's from the agent that owns it: every agent acts once, on
    the sub-batch of its rows (``Game.take``: the state's legal mask computed once, shared).

    Args:
        game: the rules object.
        state: the batch.
        agents: the agents, by index (a sequence, or a mapping of ids).
        owner: (B,) int, the index into ``agents`` of each row's agent; -1 for rows nobody
            acts in (finished games: they get action 0).

    Returns:
        (B,) int64 actions.
    """
    actions = np.zeros(state.batch_size, dtype=np.int64)
    owned = owner >= 0
    if not owned.any():
        return actions
    game.legal_action_mask(state)
    for group in _input_groups(agents, np.unique(owner[owned]).tolist()):
        idx = np.flatnonzero(np.isin(owner, group))
        sub = state if idx.size == state.batch_size else game.take(state, idx)
        players = sub.current_player.astype(np.int64)
        if len(group) == 1:
            actions[idx] = agents[group[0]].act(game, sub, players)
            continue
        obs = agents[group[0]].hints.observe(game, sub, players)
        mask = np.asarray(game.legal_action_mask(sub), dtype=bool)
        for k in group:
            mine = owner[idx] == k
            actions[idx[mine]] = agents[k].act_observed(obs[mine], mask[mine])
    return actions


def _input_groups(agents: Sequence[Agent] | Mapping[int, Agent], keys: list[int]
                  ) -> list[list[int]]:
    """``keys`` grouped by the input their agents read: policies with the same hints
    (``act_observed``: a self-play pool's snapshots) share one observation, whose hints cost
    far more than a forward pass; every other agent is a group of its own."""
    groups: dict[object, list[int]] = {}
    for k in keys:
        agent = agents[k]
        shared = hasattr(agent, "act_observed") and hasattr(agent, "hints")
        groups.setdefault(agent.hints.names if shared else ("own", k), []).append(k)
    return list(groups.values())


def play_mixed(game: Game, agents: Sequence[Agent], seat_agents: np.ndarray,
               seeds: np.ndarray, on_step: Callable[[BatchState, int], None] | None = None,
               record: int = 0) -> MatchResult:
    """Play N games at once, row i seeded ``seeds[i]`` with agent ``seat_agents[i, s]`` in seat s.

    Each step, every agent acts once, on the sub-batch of rows where one of its seats is to
    act (``act_by_owner``), so a game costs its length in steps whatever the mix of seat
    arrangements in the batch.

    Args:
        game: the rules object.
        agents: the k agents.
        seat_agents: (N, P) int, an index into ``agents`` per row and seat.
        seeds: (N,) int64 game seeds.
        on_step: called as ``on_step(state, step)`` before each step (tests inspect the
            positions there).
        record: keep the game records (``envs.records``) of the first ``record`` rows, the
            players named by their agents' names.

    Returns:
        the games' scores, rank rewards and truncation flags, row by row.
    """
    seat_agents = np.asarray(seat_agents, dtype=np.int64)
    num_games = seat_agents.shape[0]
    seeds = np.asarray(seeds, dtype=np.int64)
    state = game.init_rows(seeds)
    recorders = [Recorder(game, int(seeds[r]), [agents[int(k)].name for k in seat_agents[r]],
                          row=r) for r in range(min(record, num_games))]
    for recorder in recorders:
        recorder.start(state)
    rows_all = np.arange(num_games)
    rewards = np.zeros((num_games, game.num_players), dtype=np.float32)
    decisions = 0
    for step in range(game.max_decisions + 1):
        if state.done.all():
            break
        if on_step is not None:
            on_step(state, step)
        live = ~state.done
        seat = np.maximum(state.current_player, 0)
        owner = np.where(live, seat_agents[rows_all, seat], -1)
        actions = act_by_owner(game, state, agents, owner)
        decisions += int(live.sum())
        for recorder in recorders:
            recorder.before(state)
        state = game.step(state, actions)
        for recorder in recorders:
            recorder.after(state, int(actions[recorder.row]))
        rewards += state.rewards
    else:
        raise RuntimeError(f"{game.ENV_ID}: games ran past max_decisions={game.max_decisions}")
    return MatchResult(game.scores(state), rewards, state.truncated.copy(), decisions,
                       recorders)


def play_match(game: Game, seat_agents: Sequence[Agent], num_games: int,
               seed: int = 0, record: int = 0) -> MatchResult:
    """Play ``num_games`` games seeded ``seed + i``, ``seat_agents[p]`` acting for seat p
    (the records of the first ``record`` games kept)."""
    if len(seat_agents) != game.num_players:
        raise ValueError(f"{game.ENV_ID}: {len(seat_agents)} agents for "
                         f"{game.num_players} seats")
    lineup = np.tile(np.arange(game.num_players), (num_games, 1))
    return play_mixed(game, seat_agents, lineup, seed + np.arange(num_games, dtype=np.int64),
                      record=record)
