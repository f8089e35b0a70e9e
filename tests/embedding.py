"""Worked examples played alone (B = 1) and, step for step, as one row of a larger batch.

A rules test builds a one-row position by hand and plays actions on it. ``Embedded`` plays
each of those actions on the one-row state and on copies of it put in rows ``ROWS`` of a
batch of other games in other phases (which take random legal actions at the same time).
After every step the batch rows must equal the one-row state, masks and every seat's
observation included, so each example checks the batched path that training uses too (two
copies: a phase of several rows at once, never a one-row path). Edits of the one-row state
between steps (rigging the next situation) carry over: the rows are copied into the batch
again before each step.
"""

from __future__ import annotations

import copy

import numpy as np

from envs.core.game import Game
from envs.core.sampling import sample_actions
from envs.core.state import BatchState

BATCH = 8
ROWS = np.array([3, 6])
WARM_UP = 25  # random steps that put the other games in a mix of phases
_WARM: dict[tuple[str, int], tuple[BatchState, np.random.Generator]] = {}


class Embedded:
    """The batch around one example (module doc)."""

    def __init__(self, game: Game, seed: int = 77):
        self.game = game
        self.generator = np.random.default_rng(seed)
        key = (repr(game), seed)
        if key not in _WARM:  # the same games around every example of one game
            self.batch = game.init(BATCH, seed=seed)
            for _ in range(WARM_UP):
                self._step_batch(None)
            _WARM[key] = (self.batch.copy(), self.generator)
        batch, generator = _WARM[key]
        self.batch, self.generator = batch.copy(), copy.deepcopy(generator)

    def step(self, single: BatchState, action: int) -> BatchState:
        """Step ``single`` (B = 1) with ``action``, and the batch with it in rows ``ROWS``;
        fail if they disagree. Returns the stepped ``single``."""
        game, batch = self.game, self.batch
        batch.put(ROWS, single.take(np.zeros(ROWS.size, dtype=np.intp)))
        for row in ROWS:
            np.testing.assert_array_equal(
                game.legal_action_mask(batch)[row], game.legal_action_mask(single)[0],
                err_msg=f"{game.ENV_ID}: the mask of the example differs inside a batch")
        self._step_batch(action)
        single = game.step(single, np.array([action]))
        self.check(single)
        return single

    def check(self, single: BatchState) -> None:
        """Fail unless the batch rows equal ``single``: arrays, mask, observations."""
        game = self.game
        for row in ROWS:
            assert self.batch.take(row).equals(single), (
                f"{game.ENV_ID}: the example's row {row} differs inside a batch")
            np.testing.assert_array_equal(game.legal_action_mask(self.batch)[row],
                                          game.legal_action_mask(single)[0])
            for seat in range(game.num_players):
                np.testing.assert_array_equal(game.observe(self.batch, seat)[row],
                                              game.observe(single, seat)[0])

    def _step_batch(self, action: int | None) -> None:
        """Step every row (random legal actions, ``action`` in ``ROWS``), then restart the
        other rows whose game ended."""
        game, batch = self.game, self.batch
        actions = sample_actions(game.legal_action_mask(batch), self.generator)
        if action is not None:
            actions[ROWS] = action
        game.step(batch, actions)
        ended = np.flatnonzero(batch.done)
        ended = ended[~np.isin(ended, ROWS)]
        if ended.size:
            batch.put(ended, game.init_rows(1000 + ended + int(self.generator.integers(1e6))))
