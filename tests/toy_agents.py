"""Scripted strategies for the toy game (tests/toy_game.py), shared by the agent tests.

Toy actions: 0..3 play a card of that value, 4 draws the top of the deck, 5 takes the
market card. A card's value is scored when it is played, so drawing well is the skill.
"""

from __future__ import annotations

import numpy as np
from toy_game import Phase

from agents.base import ScoredAgent

PLAY = np.arange(4)
DRAW_DECK, DRAW_MARKET = 4, 5


def _draw(mask: np.ndarray, take_market: np.ndarray) -> np.ndarray:
    """Deck or market: the market when wanted and available, or when the deck is empty."""
    return np.where((take_market & mask[:, DRAW_MARKET]) | ~mask[:, DRAW_DECK],
                    DRAW_MARKET, DRAW_DECK)


class HighestCardFirst:
    """Play the highest card held, draw from the market when it is worth 2+."""

    name = "highest_first"

    def act(self, game, state, player):
        mask = game.legal_action_mask(state)
        play = np.where(mask[:, :4], PLAY, -1).max(axis=1)
        return np.where(play >= 0, play, _draw(mask, state.market >= 2))

    def action_values(self, game, state, player):
        """1 for the action ``act`` takes, 0 for the other legal ones, -1e9 where illegal."""
        mask = game.legal_action_mask(state)
        values = np.where(mask, 0.0, -1e9)
        values[np.arange(state.batch_size), self.act(game, state, player)] = 1.0
        return np.where(mask.any(axis=1, keepdims=True), values, -1e9)


class LowestCardFirst:
    """Play the lowest card held, draw from the market when it is worth 2+."""

    name = "lowest_first"

    def act(self, game, state, player):
        mask = game.legal_action_mask(state)
        play = np.where(mask[:, :4], PLAY, 99).min(axis=1)
        return np.where(play < 99, play, _draw(mask, state.market >= 2))


class DeckPeeker:
    """Cheats: reads the hidden top of the deck and draws whichever card is higher."""

    name = "deck_peeker"

    def act(self, game, state, player):
        mask = game.legal_action_mask(state)
        play = np.where(mask[:, :4], PLAY, -1).max(axis=1)
        top = state.deck[np.arange(state.batch_size), np.minimum(state.deck_pos, 11)]
        return np.where(play >= 0, play, _draw(mask, state.market >= top))


# name -> factory(num_players, seed), the shape of agents/<env_id>.py's BASELINES.
TOY_BASELINES = {
    "highest_first": lambda num_players, seed: HighestCardFirst(),
    "lowest_first": lambda num_players, seed: LowestCardFirst(),
}


class ValueDrawer(ScoredAgent):
    """A ``ScoredAgent``: plays any card at its value minus 2 (floored at -1.5) and values
    both draws alike, so every draw decision is a tie for the generator to break."""

    name = "value_drawer"
    least_value = -1.5

    def _view(self, game, state, idx):
        return idx

    def _handlers(self):
        return ((Phase.PLAY, self._play), (Phase.DRAW, self._draw))

    def _play(self, view, rows, mask, scores):
        scores[rows, :4] = PLAY - 2.0

    def _draw(self, view, rows, mask, scores):
        scores[rows, DRAW_DECK] = scores[rows, DRAW_MARKET] = 1.0
