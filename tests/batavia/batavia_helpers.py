"""Building Batavia positions by hand for the rules tests (a ``deal``-style helper).

A position starts in round 1 from the §2.8 fixed layout (tiles 1..10 face up in the
standard variant), every merchant at the start, 15 coins each, no card anywhere but the
draw pile (in company order, EN on top), seat 0 holding the ship and about to take its
action. Helpers then put cards in hands, displays, the lot, the discard pile and on top of
the pile, and set the auction, the turn, merchants and tiles. Cards not placed elsewhere
are always in the draw pile, so every card invariant holds. Every action played goes
through ``embedding.Embedded``: alone and as one row of a batch of other games.
"""

from __future__ import annotations

import numpy as np
from embedding import Embedded

from envs.batavia import BataviaGame
from envs.batavia.data import (
    CARDS_PER_COMPANY,
    COMPANY_NAMES,
    CRATES,
    FIXED_LAYOUT,
    GOOD_NAMES,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.rules.queries import recount_seals, route_words
from envs.batavia.state import ACTIONS, BataviaState, Phase
from envs.core.rng import random_bits

C = {name: i for i, name in enumerate(COMPANY_NAMES)}
G = {name: i for i, name in enumerate(GOOD_NAMES)}


def counts(text: str) -> np.ndarray:
    """``"EN2 DK1"`` -> (5,) counts; ``""`` -> zeros."""
    out = np.zeros(NUM_COMPANIES, dtype=np.int8)
    for part in text.split():
        out[C[part[:2]]] += int(part[2:] or 1)
    return out


def tile(company: str, good: str) -> int:
    return NUM_GOODS * C[company] + G[good]


def space_of(company: str, good: str) -> int:
    """The space of a tile in the fixed layout."""
    return int(np.flatnonzero(tile(company, good) == FIXED_LAYOUT)[0]) + 1


class Position:
    """A one-row state under construction, with the game that plays it."""

    def __init__(self, players: int = 4, **options):
        self.game = BataviaGame(players, **options)
        self.embedded = Embedded(self.game)
        s = self.state = self.game.init(1, seed=0)
        self.players = players
        for name in ("hand", "known", "unknown", "display", "lot", "discard", "played",
                     "posts", "gold"):
            getattr(s, name)[:] = 0
        s.passed[:] = False
        s.coins[:] = 15
        s.pos[:] = 0
        s.crates[:] = CRATES
        s.warehouse[:] = -1
        s.taken_by[:] = -1
        s.exchanged[:] = False
        s.final[:] = False
        s.goal_holder[:] = -1
        s.carried[:] = False
        s.round[:] = 1
        s.die[:] = 0
        s.high_bid[:] = 0
        s.high_bidder[:] = -1
        s.second_bidder[:] = -1
        s.gen_id[:] = -1
        s.gen_id[:, 0] = 0
        s.pile_slot[:] = 0
        s.generation[:] = 0
        self.set_route(FIXED_LAYOUT)
        self.top_cards: list[int] = []
        self.turn(start=0, seat=0)
        self.refresh()

    # ---------------------------------------------------------------- building
    def refresh(self) -> Position:
        """Derived fields again: seals, cubes, cannon, the hidden split, the draw pile (the
        cards in no other place, ``top_cards`` first)."""
        s = self.state
        recount_seals(self.game, s, np.array([0]))
        s.unknown[0, :, 0] = s.hand[0] - s.known[0]
        left = (CARDS_PER_COMPANY - s.hand[0].sum(axis=0) - s.display[0].sum(axis=0)
                - s.lot[0] - s.discard[0]).astype(np.int64)
        assert (left >= 0).all(), f"more than 22 cards of a company placed: {left}"
        top = list(self.top_cards)
        for c in top:
            left[c] -= 1
        assert (left >= 0).all(), "the top cards are not left over"
        pile = top + [c for c in range(NUM_COMPANIES) for _ in range(left[c])]
        s.deck[:] = -1
        s.deck[0, :len(pile)] = pile[::-1]  # bottom first
        s.deck_size[:] = len(pile)
        self.game.refresh(s)
        return self

    def cards(self, seat: int, hand: str = "", display: str = "", known: str = "") -> Position:
        s = self.state
        s.hand[0, seat] = counts(hand)
        s.display[0, seat] = counts(display)
        s.known[0, seat] = counts(known)
        return self.refresh()

    def lot(self, text: str, carried: bool = False) -> Position:
        self.state.lot[0] = counts(text)
        self.state.carried[0] = carried
        return self.refresh()

    def discard(self, text: str) -> Position:
        self.state.discard[0] = counts(text)
        return self.refresh()

    def pile_top(self, companies: str) -> Position:
        """The draw pile's top cards, top first, e.g. ``"FR EN"`` (the rest follows in
        company order)."""
        self.top_cards = [C[c] for c in companies.split()]
        return self.refresh()

    def pile_only(self, top: str, holder: int) -> Position:
        """The draw pile holds exactly ``top`` (top first); every other unplaced card goes
        to ``holder``'s hand."""
        s = self.state
        self.top_cards = [C[c] for c in top.split()]
        self.refresh()
        left = np.zeros(NUM_COMPANIES, dtype=np.int8)
        for c in s.deck[0, :int(s.deck_size[0])]:
            left[c] += 1
        for c in self.top_cards:
            left[c] -= 1
        s.hand[0, holder] += left
        return self.refresh()

    def coins(self, *values: int) -> Position:
        self.state.coins[0] = values
        self.game.refresh(self.state)
        return self

    def turn(self, start: int, seat: int, phase: Phase = Phase.TURN_START) -> Position:
        """Part B of the round: ``start`` holds the ship, ``seat`` is to act."""
        s = self.state
        s.ship[:] = start
        s.turn[:] = (seat - start) % self.players
        s.phase[:] = phase
        s.current_player[:] = seat
        self.game.refresh(s)
        return self

    def auction(self, auctioneer: int, lot: str) -> Position:
        """An auction of ``lot`` starting at the auctioneer's left."""
        s = self.state
        s.ship[:] = auctioneer
        s.turn[:] = 0
        s.phase[:] = Phase.AUCTION_BID
        s.current_player[:] = (auctioneer + 1) % self.players
        return self.lot(lot)

    def set_route(self, layout: np.ndarray) -> Position:
        s = self.state
        s.route[0] = layout
        s.tile_space[0, layout] = np.arange(1, NUM_SPACES + 1)
        s.remaining[0] = route_words(s.route[:1])[0]
        self.game.refresh(s)
        return self

    def open_spaces(self, count: int) -> Position:
        self.state.open[:] = count
        self.game.refresh(self.state)
        return self

    def take(self, seat: int, space: int, crate: bool = True) -> Position:
        """``seat`` has taken the tile on ``space`` (its merchant stands there if ahead)."""
        s = self.state
        t = int(s.route[0, space - 1])
        assert t >= 0, f"space {space} is empty"
        s.route[0, space - 1] = -1
        s.remaining[0] = route_words(s.route[:1])[0]
        s.taken_by[0, t] = seat
        s.posts[0, seat, TILE_COMPANY[t]] += 1
        if crate:
            s.warehouse[0, TILE_GOOD[t], TILE_COMPANY[t]] = seat
            s.crates[0, seat] -= 1
        s.pos[0, seat] = max(int(s.pos[0, seat]), space)
        self.game.refresh(s)
        return self

    def crate(self, seat: int, company: str, good: str) -> Position:
        """A crate of ``seat`` on square (good, company): it took that tile and has handed
        it in since."""
        s = self.state
        t = tile(company, good)
        space = int(s.tile_space[0, t])
        assert s.route[0, space - 1] == t, f"tile {company}-{good} is not on the route"
        s.route[0, space - 1] = -1
        s.remaining[0] = route_words(s.route[:1])[0]
        s.taken_by[0, t] = seat
        s.exchanged[0, t] = True
        s.warehouse[0, G[good], C[company]] = seat
        s.crates[0, seat] -= 1
        self.game.refresh(s)
        return self

    def clear_space(self, space: int, seat: int) -> Position:
        """The tile on ``space`` was taken by ``seat`` and exchanged (a passed empty space)."""
        s = self.state
        t = int(s.route[0, space - 1])
        self.take(seat, space, crate=False)
        s.posts[0, seat, TILE_COMPANY[t]] -= 1
        s.exchanged[0, t] = True
        s.pos[0, seat] = 0
        self.game.refresh(s)
        return self

    def rig_dice(self, *faces: int) -> Position:
        """Move the row's chance counter so that the next die words roll ``faces``."""
        s = self.state
        key = s.rng[0, 0]
        for start in range(200_000):
            rng = np.array([[key, start]], dtype=np.uint64)
            words = random_bits(rng, None, len(faces))[0] >> np.uint64(32)
            if all(1 + ((int(w) * 6) >> 32) == f for w, f in zip(words, faces, strict=True)):
                s.rng[0, 1] = start
                return self
        raise AssertionError(f"no counter rolls {faces}")

    # ---------------------------------------------------------------- playing
    def mask(self) -> np.ndarray:
        return self.game.legal_action_mask(self.state)[0]

    def legal(self) -> list[str]:
        return [self.game.action_name(int(a)) for a in np.flatnonzero(self.mask())]

    def play(self, *names: str) -> Position:
        """Step the named actions (``"BID_4"``, ``"PLAY_CARD_NL"`` ...) one after another."""
        for name in names:
            self.state = self.embedded.step(self.state, ACTIONS.names.index(name))
        return self

    def automatic(self) -> list[tuple[int, str]]:
        """(seat, action name) of the decisions the last step applied by itself."""
        record = self.game.step_record(self.state)
        return [(seat, self.game.action_name(a)) for seat, _, a in record.automatic_of(0)]

    def check(self) -> None:
        problems = self.game.check_invariants(self.state)
        assert not problems, problems

    @property
    def s(self) -> BataviaState:
        return self.state

