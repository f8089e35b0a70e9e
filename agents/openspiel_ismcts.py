"""OpenSpiel's IS-MCTS as an agent of any registered game (the guest ``"openspiel_ismcts"``).

    agent = agents.make_agent("openspiel_ismcts", "cairo", 3, seed=0, simulations=40)
    python -m benchmarks.tournament --env cairo --guests ismcts,openspiel_ismcts

It runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` itself on the game loaded through
``envs.openspiel``, so the search is OpenSpiel's, not ours: one tree keyed by the acting
seat's information-state string (the bridge's history digest), a new determinisation per
simulation (``resample_from_infostate``), UCT with ``uct_c``, the most visited action
played. A guest: ``agents.list_agents`` does not list it (it needs open-spiel, the ``bench``
extra, and plays one decision at a time), ``make_agent`` makes it by name.

Two parts are ours, and say why:

* The evaluator (``RolloutEvaluator``) is a random rollout, played on the batched game
  directly rather than through pyspiel states, for ``rollout_depth`` decisions (6, as our
  ``ismcts``), then scored like our ``ismcts`` scores an unfinished game
  (``agents.ismcts.evaluate``: the rank of the current scores plus half the score margin);
  ``rollout_depth=-1`` plays to the end. OpenSpiel's ``RandomRolloutEvaluator`` plays to
  the end through the bridge: a cairo game is a few hundred decisions, ~0.3 s a rollout, so
  even 20 simulations would take seconds a decision and a tournament hours.
* The resampler (``Resampler``): the bot's default hands each resample a new
  ``pyspiel.UniformProbabilitySampler(0., 1.)``, seeded from the clock, so no two runs
  search the same worlds. Ours draws the seeds from the agent's own generator: the same
  seed replays the same search, as every agent of a tournament does.

The budget: ``simulations=40`` a decision by default, the same as ``ismcts``, so a table
of both compares the searches at one budget. It is the slower search at that budget: one
simulation at a time through Python, 0.04-0.06 s a decision where ``ismcts``, stepping its
simulations in batches, takes 0.016-0.026 s (measured on 2026-12-05 on the same positions
of each game, on a core that a training run shared; benchmarks/results/openspiel_ismcts.md),
so keep guest games to a few dozen (``--guest-games 30``).

Unguided and with short rollouts, the search is myopic where spending lowers the score
before it pays: in discoveries it mostly ends its turn and finishes below random (so does
``ismcts`` without its guide, ``ismcts:guide=random``); ``ismcts`` plays well there
because a scripted baseline guides it.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from agents.ismcts import evaluate
from envs.core.game import Game
from envs.core.sampling import sample_actions
from envs.core.state import BatchState

OPTIONS = {"simulations": 40, "rollout_depth": 6, "uct_c": 1.0}


class RolloutEvaluator:
    """An ``open_spiel.python.algorithms.mcts.Evaluator`` for the bridge's states: uniform
    priors and a random rollout of ``depth`` decisions (``-1``: to the end) on the batched
    game, then ``agents.ismcts.evaluate`` where the game is not over."""

    def __init__(self, depth: int = 6, seed: int = 0):
        self.depth = int(depth)
        self.generator = np.random.default_rng(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        """(P,) float64 values of a bridge state (``envs.openspiel.TradewindsState``)."""
        game: Game = state.get_game().tradewinds_game
        sim = state.tradewinds_state.copy()
        outcome = np.zeros(game.num_players)
        steps = 0
        while not sim.done[0] and steps != self.depth:
            game.step(sim, sample_actions(game.legal_action_mask(sim), self.generator))
            outcome += sim.rewards[0]
            steps += 1
        if not sim.done[0]:
            outcome += evaluate(game, sim)[0]
        return outcome

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Uniform over the legal actions, as OpenSpiel's random-rollout evaluator."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class Resampler:
    """``ISMCTSBot.set_resampler`` callback: a new determinisation per call, seeded from its
    own generator (``resample_from_infostate`` takes one uniform draw)."""

    def __init__(self, seed: int = 0):
        self.generator = np.random.default_rng(seed)

    def __call__(self, state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, self.generator.random)


def make_bot(game: Any, simulations: int = 40, rollout_depth: int = 6, uct_c: float = 1.0,
             seed: int = 0) -> Any:
    """OpenSpiel's ``ISMCTSBot`` for a bridge game (``envs.openspiel``), with our rollout
    evaluator and resampler, playing the most visited action."""
    from open_spiel.python.algorithms import ismcts

    bot = ismcts.ISMCTSBot(
        game, RolloutEvaluator(rollout_depth, seed + 1), uct_c=uct_c,
        max_simulations=simulations, random_state=np.random.RandomState(seed % 2**32),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(Resampler(seed + 2))
    return bot


class OpenSpielISMCTSAgent:
    """OpenSpiel's IS-MCTS (module doc); ``act`` searches once per row where ``player`` is
    to act, from that row's position (the search needs no earlier history: OpenSpiel's bot
    builds a new tree every decision), with a bot seeded from the agent's own generator, so
    a deep copy of the agent replays the same searches."""

    def __init__(self, num_players: int, seed: int = 0, simulations: int = 40,
                 rollout_depth: int = 6, uct_c: float = 1.0, env_id: str | None = None):
        if int(simulations) < 1:
            raise ValueError(f"openspiel_ismcts: simulations must be >= 1, got {simulations}")
        if float(uct_c) < 0:
            raise ValueError(f"openspiel_ismcts: uct_c must be >= 0, got {uct_c}")
        import envs.openspiel  # noqa: F401  (fails here, with how to install it, without pyspiel)

        self.num_players = num_players
        self.generator = np.random.default_rng(seed)
        self.options = {"simulations": int(simulations), "rollout_depth": int(rollout_depth),
                        "uct_c": float(uct_c)}
        self.name = "openspiel_ismcts"
        self._games: dict[tuple, Any] = {}  # the bridge game of each rules object seen

    def __deepcopy__(self, memo: dict) -> OpenSpielISMCTSAgent:
        # pyspiel games cannot be copied; they hold no state, so the copy shares them.
        other = copy.copy(self)
        other.generator = copy.deepcopy(self.generator, memo)
        other.options = dict(self.options)
        return other

    def _spiel_game(self, game: Game) -> Any:
        """The bridge game of a rules object (its id, players and options)."""
        key = (game.ENV_ID, game.num_players, tuple(sorted(game.options.items())))
        if key not in self._games:
            from envs.openspiel import load_game

            self._games[key] = load_game(game)
        return self._games[key]

    def act(self, game: Game, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        seats = np.broadcast_to(np.asarray(player), (state.batch_size,))
        rows = np.flatnonzero(~state.done & (state.current_player == seats))
        actions = np.argmax(game.legal_action_mask(state), axis=1).astype(np.int64)
        if rows.size:
            spiel_game = self._spiel_game(game)
            for row in rows.tolist():
                bot = make_bot(spiel_game, seed=int(self.generator.integers(1 << 31)),
                               **self.options)
                actions[row] = bot.step(spiel_game.state_at(state, row))
        return actions
