"""Building Age of Discoveries positions by hand for the rules tests (a ``deal`` helper).

A ``Position`` starts from a quiet one-row state: seat 0 to act at the start of its first
turn (global turn 0, start player 0), no coins, no ships, no contracts anywhere but the
deck (in id order), empty expeditions, the market and piles of the seed's deal, every seat's
flagship face down (seat s holds flagship s) and task AT_LEAST_ONE. Its methods put coins,
ships, cards and expedition ships where a worked example wants them, and ``play`` steps
named actions through ``embedding.Embedded``: alone and as rows of a batch of other games.
"""

from __future__ import annotations

import numpy as np
from embedding import Embedded

from envs.discoveries import DiscoveriesGame
from envs.discoveries.data import (
    COLOUR_NAMES,
    CONTRACT_NAMES,
    EXP_COLOUR,
    JOKERS_PER_PLAYER,
    NUM_CONTRACTS,
    RESERVATIONS_PER_PLAYER,
    TASK_NAMES,
    TYPE_NAMES,
)
from envs.discoveries.state import ACTIONS, PHASE, DiscoveriesState

COLOUR = {name: i for i, name in enumerate(COLOUR_NAMES)}
TYPE = {name: i for i, name in enumerate(TYPE_NAMES)}  # "yellow2" -> 4
CONTRACT = {name: i for i, name in enumerate(CONTRACT_NAMES)}  # "yellow5" -> 6
TASK = {name: i for i, name in enumerate(TASK_NAMES)}


def action(name: str) -> int:
    """The action index of a name such as ``"PICK_SHIP_yellow2"`` or ``"PLAY_yellow5_d2"``."""
    return ACTIONS.names.index(name)


class Position:
    """A one-row state under construction, with the game that plays it."""

    def __init__(self, players: int = 3, seed: int = 0):
        self.game = DiscoveriesGame(players)
        self.embedded = Embedded(self.game)
        self.state: DiscoveriesState = self.game.init(1, seed=seed)
        s = self.state
        s.start_player[:] = 0
        s.current_player[:] = 0
        s.turn[:] = 0
        s.own_turns[:] = 0
        s.own_turns[0, 0] = 1
        s.coins[:] = 0
        s.hand[:] = -1
        s.hand_public[:] = False
        s.hand_size[:] = 0
        s.display[:] = -1
        s.contracts[0] = np.arange(NUM_CONTRACTS)
        s.deck_pos[:] = 0
        s.jokers[:] = JOKERS_PER_PLAYER[players]
        s.reserves[:] = RESERVATIONS_PER_PLAYER[players]
        s.flag_id[0] = np.arange(players)
        s.task[:] = TASK["AT_LEAST_ONE"]
        self.game.refresh(s)

    # ---------------------------------------------------------------- building
    def at_turn(self, turn: int) -> Position:
        """Global turn ``turn`` (its seat to act, every seat's own turns so far counted)."""
        s, players = self.state, self.game.num_players
        s.turn[:] = turn
        seat = turn % players
        s.current_player[:] = seat
        s.own_turns[0] = [turn // players + (1 if q <= seat else 0) for q in range(players)]
        self.game.refresh(s)
        return self

    def coins(self, seat: int, amount: int) -> Position:
        self.state.coins[0, seat] = amount
        self.game.refresh(self.state)
        return self

    def ships(self, seat: int, *names: str) -> Position:
        """Idle ships of ``seat`` by type name (repeat a name for copies)."""
        self.state.idle[0, seat] = 0
        for name in names:
            self.state.idle[0, seat, TYPE[name]] += 1
        self.game.refresh(self.state)
        return self

    def jokers(self, seat: int, count: int) -> Position:
        self.state.jokers[0, seat] = count
        self.game.refresh(self.state)
        return self

    def hand(self, seat: int, *names: str, public: tuple[str, ...] = ()) -> Position:
        """The hand of ``seat`` (contract names, ``public`` ones taken from the display);
        the deck keeps the other contracts in id order."""
        s = self.state
        s.hand[0, seat] = -1
        s.hand_public[0, seat] = False
        for k, name in enumerate((*names, *public)):
            s.hand[0, seat, k] = CONTRACT[name]
            s.hand_public[0, seat, k] = name in public
        s.hand_size[0, seat] = len(names) + len(public)
        return self._rebuild_deck()

    def display(self, *names: str | None) -> Position:
        self.state.display[0] = [CONTRACT[n] if n else -1 for n in names]
        return self._rebuild_deck()

    def _rebuild_deck(self) -> Position:
        s = self.state
        used = set(s.hand[0].ravel().tolist()) | set(s.display[0].tolist())
        deck = [c for c in range(NUM_CONTRACTS) if c not in used]
        s.deck_pos[:] = NUM_CONTRACTS - len(deck)
        s.contracts[0] = [c for c in range(NUM_CONTRACTS) if c in used] + deck
        self.game.refresh(s)
        return self

    def market(self, offer: tuple[str | None, ...], refill: tuple[str | None, ...] = ()
               ) -> Position:
        """Offer and refill rows by type name (None: empty; refill defaults to the deal's)."""
        s = self.state
        s.offer[0] = [TYPE[n] if n else -1 for n in offer]
        if refill:
            s.refill[0] = [TYPE[n] if n else -1 for n in refill]
        self.game.refresh(s)
        return self

    def piles(self, *names: str, at: int = 0) -> Position:
        """Put the named cards (type names, "FIRST", "FINAL") at pile positions ``at ..``."""
        codes = {"FIRST": 18, "FINAL": 19, **TYPE}
        s = self.state
        s.piles[0, at:at + len(names)] = [codes[n] for n in names]
        left = s.piles[0, int(s.pile_pos[0]):]
        s.pile_ships[0] = np.bincount(left[left < 18], minlength=18)
        self.game.refresh(s)
        return self

    def expedition(self, e: int, *ships: tuple[int, str]) -> Position:
        """Ships ``(owner, "green1")`` on expedition ``e`` in placement order (turn 0, the
        first ship establishing the colour, a Joker on each off-colour one after it)."""
        s = self.state
        for owner, name in ships:
            colour, tv = COLOUR[name[:-1]], int(name[-1])
            k = int(s.exp_size[0, e])
            established = int(s.exp_colour_set[0, e])
            s.exp_owner[0, e, k] = owner
            s.exp_colour[0, e, k] = colour
            s.exp_tv[0, e, k] = tv
            s.exp_turn[0, e, k] = 0
            s.exp_joker[0, e, k] = established >= 0 and colour != established
            s.exp_size[0, e] += 1
            s.exp_used[0, e] += tv
            s.exp_colour_set[0, e] = colour if established < 0 else established
            s.exp_count[0, e, owner] += 1
            s.exp_same[0, e, owner] += colour == EXP_COLOUR[e]
        self.game.refresh(s)
        return self

    def flagship(self, seat: int, flag: int, revealed: bool = False) -> Position:
        self.state.flag_id[0, seat] = flag
        self.state.flag_revealed[0, seat] = revealed
        self.game.refresh(self.state)
        return self

    def task(self, seat: int, name: str) -> Position:
        self.state.task[0, seat] = TASK[name]
        return self

    # ---------------------------------------------------------------- playing
    def mask(self) -> np.ndarray:
        """The legal mask of the position as it stands (fields edited by hand included)."""
        self.game.refresh(self.state)
        return self.game.legal_action_mask(self.state)[0]

    def legal(self) -> list[str]:
        return [self.game.action_name(a) for a in np.flatnonzero(self.mask())]

    def is_legal(self, name: str) -> bool:
        return bool(self.mask()[action(name)])

    def play(self, *names: str) -> Position:
        """Step the named actions one after another (alone and embedded in a batch)."""
        for name in names:
            self.game.refresh(self.state)  # fields may have been edited by hand
            self.state = self.embedded.step(self.state, action(name))
        return self

    def automatic(self) -> list[str]:
        """The names of the automatic decisions of the last step."""
        record = self.game.step_record(self.state)
        return [self.game.action_name(a) for _, _, a in record.automatic_of(0)]

    def end_turns(self, count: int) -> Position:
        """END_TURN ``count`` times (each seat in turn ending at once)."""
        for _ in range(count):
            if self.state.phase[0] != PHASE.MAIN:
                raise AssertionError(f"not in MAIN: {self.game.decision_name(self.state, 0)}")
            self.play("END_TURN")
        return self
