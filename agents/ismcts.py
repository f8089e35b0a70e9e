"""Information-set Monte Carlo tree search for any registered game (``"ismcts"``).

    agent = agents.make_agent("ismcts", "cairo", 3, seed=0, simulations=200)
    python -m benchmarks.tournament --env cairo --agents random,greedy,ismcts:simulations=200

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012) with one value per seat at
each node, as OpenSpiel's IS-MCTS and max^n do for more than two players:

* Each simulation draws a determinisation, a state the seat could be in given all it has
  observed (``game.resample_hidden``: the hidden cards and the future chance redrawn), and
  walks a tree of action histories from the decision asked: at a node the seat to act in
  that determinisation picks, among the actions legal there, an untried one or the one with
  the best UCB value for itself, ``v_seat / n + c * sqrt(ln(m) / n)``, where ``m`` counts
  the visits in which the action was legal (availability). With a ``guide`` (a scripted
  baseline) every legal action, tried or not, is scored by PUCT,
  ``v_seat / n + bias * h(a) * sqrt(N + 1) / (1 + n)`` (0 for the mean of an untried
  one), ``h`` the guide's preference in [0, 1]
  (its ``action_values`` on the ``agents.hints`` scale, its choice 1), so that the search
  leaves the guide's choice only on evidence; without one, untried actions are tried at
  random. Decisions the rules apply by themselves (forced by public information) are not
  nodes: ``step`` applies them.
* From the new node a rollout plays ``rollout_depth`` decisions with the rollout policy
  (uniform random, or a scripted baseline for every seat), and the outcome is the rank
  reward of the game's end, or, where the rollout stops first, an evaluation of the scores
  then (``evaluate``: the rank of the current ranking keys and the score margin).
* The outcome vector is added to every node of the path. After ``simulations`` simulations
  the most visited action at the root is played (ties: the best on average).

Batched on the engine: the simulations of every row the agent acts in run together, in waves
of ``wave`` simulations per row: one batch of R x wave determinisations is drawn, descended
level by level (each level one batched ``step`` of the simulations still descending) and
rolled out as one batch. The agent's own generator seeds the determinisations and the
rollouts, so a run reproduces. It reads only ``resample_hidden``'s output, which depends only
on what its seat may know (the shared hidden-information check for agents covers it).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from envs.core.game import Game, rank_rewards
from envs.core.sampling import sample_actions
from envs.core.state import BatchState

OPTIONS = {"simulations": 40, "rollout_depth": 6, "exploration": 1.0, "wave": 10,
           "rollout": "random", "guide": "", "bias": 2.0}


class Node:
    """Statistics of one action history: visits, the seats' summed outcomes, its children,
    and how often each action was legal when the node was visited."""

    __slots__ = ("available", "children", "pending", "prior", "value", "visits")

    def __init__(self, num_players: int):
        self.visits = 0
        self.pending = 0  # simulations of the running wave through here, not yet counted
        self.value = np.zeros(num_players)
        self.children: dict[int, Node] = {}
        self.available: dict[int, int] = {}
        self.prior: np.ndarray | None = None  # (A,) the guide's preference, in [0, 1]

    def choose(self, legal: np.ndarray, seat: int, exploration: float, bias: float,
               generator: np.random.Generator) -> tuple[int, bool]:
        """The action to follow from here for ``seat`` among ``legal`` action indices, and
        whether it is new (an expansion): without a guide an untried one (at random) while
        there is one, else the best by UCB; with a guide the best by PUCT, tried or not."""
        for a in legal.tolist():
            self.available[a] = self.available.get(a, 0) + 1
        prior = self.prior
        if prior is None:
            untried = [a for a in legal.tolist() if a not in self.children]
            if untried:
                return untried[int(generator.integers(len(untried)))], True
        best, best_score = -1, -math.inf
        children = self.children
        total = sum(children[a].visits + children[a].pending for a in legal.tolist()
                    if a in children)
        for a in legal.tolist():
            child = children.get(a)
            # The simulations of the running wave count as visits of unknown outcome, so
            # that they spread over the children instead of all taking the same one.
            n = child.visits + child.pending if child is not None else 0
            mean = child.value[seat] / child.visits if child is not None and child.visits else 0.0
            if prior is None:
                score = mean + exploration * math.sqrt(math.log(self.available[a]) / n)
            else:  # PUCT (AlphaZero's rule) with the guide's preference as the prior
                score = mean + bias * prior[a] * math.sqrt(total + 1) / (1 + n)
            if score > best_score:
                best, best_score = a, score
        return best, best not in children


class ISMCTSAgent:
    """IS-MCTS (module doc); ``act`` searches for every row where ``player`` is to act."""

    def __init__(self, num_players: int, seed: int = 0, simulations: int = 40,
                 rollout_depth: int = 6, exploration: float = 1.0, wave: int = 10,
                 rollout: str = "random", guide: str = "", bias: float = 2.0,
                 env_id: str | None = None):
        for name, value in (("simulations", simulations), ("wave", wave)):
            if int(value) < 1:
                raise ValueError(f"ismcts: {name} must be >= 1, got {value}")
        if int(rollout_depth) < 0 or float(exploration) < 0:
            raise ValueError("ismcts: rollout_depth and exploration must be >= 0")
        self.num_players = num_players
        self.simulations, self.rollout_depth = int(simulations), int(rollout_depth)
        self.exploration, self.wave, self.bias = float(exploration), int(wave), float(bias)
        self.generator = np.random.default_rng(seed)
        self.rollout_agent = self._scripted(rollout, env_id, num_players, seed + 1)
        self.guide = self._scripted(guide, env_id, num_players, seed + 2)
        self.name = "ismcts"

    @staticmethod
    def _scripted(name: str, env_id: str | None, num_players: int, seed: int):
        """The scripted baseline ``name`` (None for "" or "random")."""
        if name in ("", "random"):
            return None
        from agents import list_baselines, make_agent

        if env_id is None or name not in list_baselines(env_id):
            raise ValueError(f"ismcts: {name!r} is not a scripted baseline of {env_id!r}")
        return make_agent(name, env_id, num_players, seed=seed)

    # ------------------------------------------------------------------ the search
    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        seats = np.broadcast_to(np.asarray(player), (state.batch_size,)).astype(np.int64)
        rows = np.flatnonzero(~state.done & (state.current_player == seats))
        mask = game.legal_action_mask(state)
        actions = np.argmax(mask, axis=1).astype(np.int64)  # rows it does not act in
        if not rows.size:
            return actions
        roots = [Node(game.num_players) for _ in rows]
        done = 0
        while done < self.simulations:
            count = min(self.wave, self.simulations - done)
            self._wave(game, state, rows, seats, roots, count)
            done += count
        for row, root, seat in zip(rows.tolist(), roots, seats[rows].tolist(), strict=True):
            legal = np.flatnonzero(mask[row]).tolist()
            # The most visited action; among equally visited ones the best on average.
            actions[row] = max(legal, key=lambda a, root=root, seat=seat: (
                (root.children[a].visits, root.children[a].value[seat] / root.children[a].visits)
                if a in root.children and root.children[a].visits else (0, -math.inf)))
        return actions

    def _wave(self, game: Game, state: BatchState, rows: np.ndarray, seats: np.ndarray,
              roots: list[Node], count: int) -> None:
        """``count`` simulations for each of ``rows``, all stepped as one batch."""
        owner = np.repeat(np.arange(rows.size), count)  # the root of each simulation
        sims = self._determinise(game, state, rows[owner], seats[rows[owner]])
        outcome = np.zeros((owner.size, game.num_players))
        paths = [[roots[k]] for k in owner.tolist()]
        descending = np.ones(owner.size, dtype=bool)
        while True:
            descending &= ~sims.done
            active = np.flatnonzero(descending)
            if not active.size:
                break
            mask = game.legal_action_mask(sims)
            if self.guide is not None:
                self._set_priors(game, sims, active, [paths[k][-1] for k in active.tolist()])
            chosen = np.zeros(active.size, dtype=np.int64)
            for j, sim in enumerate(active.tolist()):
                node = paths[sim][-1]
                action, new = node.choose(np.flatnonzero(mask[sim]),
                                          int(sims.current_player[sim]), self.exploration,
                                          self.bias, self.generator)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(game.num_players)
                child.pending += 1
                paths[sim].append(child)
                chosen[j] = action
                if new:
                    descending[sim] = False
            outcome[active] += self._step_rows(game, sims, active, chosen)
        for _ in range(self.rollout_depth):
            if sims.done.all():
                break
            sims = game.step(sims, self._rollout_actions(game, sims))
            outcome += sims.rewards
        live = np.flatnonzero(~sims.done)
        if live.size:
            outcome[live] = evaluate(game, sims.take(live))
        for sim, path in enumerate(paths):
            for node in path:
                node.visits += 1
                node.value += outcome[sim]
                node.pending = 0

    def _determinise(self, game: Game, state: BatchState, rows: np.ndarray,
                     seats: np.ndarray) -> BatchState:
        """One determinisation per simulation: the rows taken again and resampled for the
        searching seat (one call per seat among them)."""
        sims = state.take(rows)
        for seat in np.unique(seats).tolist():
            mine = np.flatnonzero(seats == seat)
            drawn = game.resample_hidden(sims.take(mine), seat,
                                         int(self.generator.integers(1 << 62)))
            sims.put(mine, drawn)
        game.refresh(sims)
        return sims

    def _set_priors(self, game: Game, sims: BatchState, rows: np.ndarray, nodes: list[Node]
                    ) -> None:
        """The guide's preference at the nodes seen for the first time, from the first
        determinisation that reaches each: ``exp(-(best - v))`` of its action values
        (``agents.hints``' scale: its choice 1, illegal actions 0)."""
        new = [k for k, node in enumerate(nodes) if node.prior is None]
        if not new:
            return
        part = sims.take(rows[new])
        values = self.guide.action_values(game, part, part.current_player.astype(np.int64))
        best = values.max(axis=1, keepdims=True)
        prior = np.exp(-np.clip(best - values, 0.0, 50.0))
        for k, p in zip(new, prior, strict=True):
            nodes[k].prior = p

    @staticmethod
    def _step_rows(game: Game, sims: BatchState, rows: np.ndarray, actions: np.ndarray
                   ) -> np.ndarray:
        """Step ``rows`` of ``sims`` with ``actions``; their rewards (R, P)."""
        part = sims.take(rows)
        game.step(part, actions)
        game.put(sims, rows, part)
        return part.rewards.astype(np.float64)

    def _rollout_actions(self, game: Game, sims: BatchState) -> np.ndarray:
        if self.rollout_agent is None:
            return sample_actions(game.legal_action_mask(sims), self.generator)
        return np.asarray(self.rollout_agent.act(game, sims, np.maximum(sims.current_player, 0)))


def evaluate(game: Game, state: BatchState) -> np.ndarray:
    """(B, P) values of unfinished games: the rank reward of the current ranking keys, plus
    half of each seat's score margin over the table's mean (relative to the spread of the
    scores, so in [-1, 1]), so that a lead counts before it changes a rank; clipped to
    [-1, 1] like the rank rewards of finished games."""
    scores = np.asarray(game.scores(state), dtype=np.float64)
    margin = (scores - scores.mean(axis=1, keepdims=True)) / (
        np.ptp(scores, axis=1, keepdims=True) + 1.0)
    return np.clip(rank_rewards(game.ranking_keys(state)) + 0.5 * margin, -1.0, 1.0)


def parse_options(text: str, known: dict[str, Any] = OPTIONS, agent: str = "ismcts"
                  ) -> dict[str, Any]:
    """``"simulations=200:rollout_depth=10"`` -> the options, each checked against
    ``known`` (the search agent ``agent``'s defaults, ``OPTIONS`` here) and of its type."""
    options: dict[str, Any] = {}
    for item in (t for t in text.split(":") if t):
        key, sep, value = item.partition("=")
        if not sep or key not in known:
            raise ValueError(f"{agent} option {item!r}: write name=value with a name among "
                             f"{', '.join(known)}")
        kind = type(known[key])
        try:
            options[key] = kind(value)
        except ValueError:
            raise ValueError(f"{agent} option {key}={value!r}: not a {kind.__name__}") from None
    return options
