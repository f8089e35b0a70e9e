"""Building Kairo positions by hand for the rules tests (a ``deal``-style helper).

A position starts from an empty board in the MAIN stage with seat 0 to act, empty hands, no
money, the spec's standard customer layout of Examples 6–9 (red (1,0), yellow (12,0), green
(6,5), blue (1,11), white (12,11), purple off the board), and then gets stalls, expansions,
cards and money put on it. Every helper ends by recomputing the legal mask of the decision
asked (``game.refresh``, which applies nothing). Every action played goes through
``embedding.Embedded``: alone and as one row of a batch of other games.
"""

from __future__ import annotations

import numpy as np
from embedding import Embedded

from envs.cairo import CairoGame
from envs.cairo.data import (
    CARD_COPIES,
    CARD_TYPE_NAMES,
    COLOUR_NAMES,
    EXPANSIONS_PER_COLOUR,
    NUM_COLOURS,
    cell,
)
from envs.cairo.state import ACTIONS, CairoState, Phase, Stage, Verb

C = {name: i for i, name in enumerate(COLOUR_NAMES)}
CARD = {name: i for i, name in enumerate(CARD_TYPE_NAMES)}
STANDARD_CUSTOMERS = {"red": (1, 0), "yellow": (12, 0), "green": (6, 5), "blue": (1, 11),
                      "white": (12, 11)}


class Position:
    """A one-row state under construction, with the game that plays it."""

    def __init__(self, players: int = 3, **options):
        self.game = CairoGame(players, **options)
        self.embedded = Embedded(self.game)
        self.automatic: list[str] = []  # see ``play``
        self.state: CairoState = self.game.init(1, seed=0)
        s = self.state
        s.stage[:] = Stage.MAIN
        s.phase[:] = Phase.TURN
        s.verb[:] = Verb.NONE
        s.colour[:] = -1
        s.target[:] = -1
        s.target_entrance[:] = -1
        s.current_player[:] = 0
        s.tile[:] = -1
        s.entrance[:] = -1
        s.stall_cell[:] = -1
        s.entrance_cell[:] = -1
        s.group_size[:] = 0
        s.neutral_bag[:] = False
        s.money[:] = 0
        s.hand[:] = 0
        s.known[:] = 0
        s.barkers[:] = 0
        s.supply[:] = EXPANSIONS_PER_COLOUR
        s.medal[:] = -1
        s.vp[:] = 0
        # Every card not in a hand sits in the draw pile, sorted; no display, no discard.
        s.display[:] = -1
        s.discard[:] = 0
        self._rebuild_deck()
        self.customers(STANDARD_CUSTOMERS)

    def _rebuild_deck(self) -> None:
        s = self.state
        left = CARD_COPIES - s.hand[0].sum(axis=0) - s.discard[0]
        left -= np.bincount(s.display[0][s.display[0] >= 0], minlength=len(CARD_COPIES))
        cards = np.repeat(np.arange(len(CARD_COPIES)), left).astype(np.int8)
        s.deck[:] = -1
        s.deck[0, : cards.size] = cards
        s.deck_size[:] = cards.size
        self.game.refresh(s)

    def customers(self, where: dict[str, tuple[int, int]]) -> Position:
        """Put the named customers on cells; the others go off the board."""
        self.state.customer[:] = -1
        for name, xy in where.items():
            self.state.customer[0, C[name]] = cell(*xy)
        self.game.refresh(self.state)
        return self

    def stall(self, owner: int, colour: str, xy: tuple[int, int], entrance: tuple[int, int],
              expansions: tuple[tuple[int, int], ...] = ()) -> Position:
        """A main stall of ``owner`` (seat, or 4 for neutral) with its entrance and expansions."""
        s, c = self.state, C[colour]
        group = owner * NUM_COLOURS + c
        s.tile[0, cell(*xy)] = group
        s.entrance[0, cell(*entrance)] = group
        s.stall_cell[0, owner, c] = cell(*xy)
        s.entrance_cell[0, owner, c] = cell(*entrance)
        for e in expansions:
            s.tile[0, cell(*e)] = group
            s.supply[0, c] -= 1
        s.group_size[0, owner, c] = 1 + len(expansions)
        self.game.refresh(s)
        return self

    def money(self, seat: int, **amounts: int) -> Position:
        self.state.money[0, seat] = 0
        for name, value in amounts.items():
            self.state.money[0, seat, C[name]] = value
        self.game.refresh(self.state)
        return self

    def hand(self, seat: int, *cards: str) -> Position:
        self.state.hand[0, seat] = 0
        for name in cards:
            self.state.hand[0, seat, CARD[name]] += 1
        self._rebuild_deck()
        return self

    def to_act(self, seat: int) -> Position:
        self.state.current_player[:] = seat
        self.game.refresh(self.state)
        return self

    # ---------------------------------------------------------------- playing
    def mask(self) -> np.ndarray:
        return self.game.legal_action_mask(self.state)[0]

    def legal(self) -> list[str]:
        return [self.game.action_name(a) for a in np.flatnonzero(self.mask())]

    def play(self, *names: str) -> Position:
        """Step the named actions (e.g. ``"EXPAND_red"``, ``"CELL_3_5"``) one after another.

        A named action that public information forces (VERSION 4) is not asked: it must be
        the next automatic decision of the step before, which it then stands for. Those that
        no name stood for are left in ``automatic``.
        """
        automatic: list[str] = []
        for name in names:
            action = ACTIONS.names.index(name)
            if automatic:
                applied = automatic.pop(0)
                assert applied == name, f"{name} expected, but the step applied {applied}"
                continue
            self.state = self.embedded.step(self.state, action)
            record = self.game.step_record(self.state)
            automatic = [ACTIONS.names[a] for _, _, a in record.automatic_of(0)]
        self.automatic = automatic
        return self

    def legal_cells(self) -> set[tuple[int, int]]:
        cells = np.flatnonzero(self.mask()[ACTIONS.CELL.start:ACTIONS.CELL.stop])
        return {(int(k) % 14, int(k) // 14) for k in cells}


def cell_action(x: int, y: int) -> str:
    return f"CELL_{x}_{y}"
