"""Building Dschunke positions by hand for the rules tests (a ``deal``-style helper).

A position starts from the fixed setup of round 1 (seat 0 asked its P2_MAIN) and is then
rigged: the round (which moves the merchants to their §2.5 junks), the market card, hands
(the stacks follow, so every good still counts 18), holds, special cards, money, and the
decision asked. Every helper keeps the §10 invariants and ends by recomputing the legal
mask; every action played goes through ``embedding.Embedded``: alone and as one row of a
batch of other games.
"""

from __future__ import annotations

import numpy as np
from embedding import Embedded

from envs.junk import JunkGame
from envs.junk.data import (
    GOODS_NAMES,
    GOODS_PER_TYPE,
    JUNK_NAMES,
    MERCHANT_START,
    NUM_ALWAYS,
    NUM_JUNKS,
    SPECIAL_NAMES,
    STRIPS_PER_PLAYER,
)
from envs.junk.rules import queries
from envs.junk.state import ACTIONS, LOC_FACE_UP, LOC_HIDDEN, PHASE, JunkState

J = {name: j for j, name in enumerate(JUNK_NAMES)}
G = {name.lower(): g for g, name in enumerate(GOODS_NAMES)}
CARD = {name: t for t, name in enumerate(SPECIAL_NAMES)}
ACTION_OF_NAME = {name: a for a, name in enumerate(ACTIONS.names)}


class Position:
    """A one-row state under construction, with the game that plays it."""

    def __init__(self, players: int = 4, seed: int = 0, **options):
        self.game = JunkGame(players, **options)
        self.embedded = Embedded(self.game)
        self.state: JunkState = self.game.init(1, seed=seed)
        self.players = players

    # ---------------------------------------------------------------- rigging
    def _done(self) -> Position:
        s = self.state
        place = np.argsort(s.market_order, axis=1)  # the round's card and those before: shown
        s.unrevealed[:] = place >= s.round[:, None]
        self.game.refresh(s)
        return self

    def at_round(self, rnd: int, card: int | None = None) -> Position:
        """Round ``rnd`` begins its Phase 2 (merchants on their §2.5 junks), with market card
        ``card`` (1..10, the numbering of §2.7) if given."""
        s = self.state
        s.round[:] = rnd
        s.merchant_junk[0] = (MERCHANT_START + rnd - 1) % NUM_JUNKS
        s.fig_used[:] = False
        s.extra_used[:] = False
        if card is not None:
            self.market(card)
        return self.phase2_turn(0)

    def market(self, card: int) -> Position:
        """Market card ``card`` (1..10) is this round's (swapped into its place)."""
        order = self.state.market_order[0]
        here, there = self.state.round[0] - 1, int(np.flatnonzero(order == card - 1)[0])
        order[here], order[there] = order[there], order[here]
        return self._done()

    def seat_at(self, pos: int) -> int:
        return (max(int(self.state.round[0]) - 1, 0) + pos) % self.players

    def phase2_turn(self, pos: int) -> Position:
        """The seat at turn position ``pos`` is asked its P2_MAIN."""
        s = self.state
        s.phase[:] = PHASE.P2_MAIN
        s.pos[:] = pos
        s.main_done[:] = False
        s.current_player[:] = self.seat_at(pos)
        return self._done()

    def bidding(self, bid_round: int = 1, sold: tuple[str, ...] = ()) -> Position:
        """Phase 4: bidding round ``bid_round`` begins (the start player asked first)."""
        s = self.state
        s.phase[:] = PHASE.BID
        s.bid_round[:] = bid_round
        s.pos[:] = 0
        s.sold[:] = False
        for name in sold:
            s.sold[0, G[name]] = True
        s.current_player[:] = self.seat_at(0)
        s.fig_used[0, : self.players] = True  # one figure per seat in Phase 2
        return self.settle()

    def hand(self, seat: int, **goods: int) -> Position:
        """Seat ``seat`` holds exactly these goods (others 0); the stacks make up the rest."""
        s = self.state
        dealt = s.hand[0, seat] - s.flow[0, seat]
        new = np.zeros(4, dtype=np.int8)
        for name, count in goods.items():
            new[G[name]] = count
        s.hand[0, seat] = new
        s.hand_size[0, seat] = new.sum()
        s.flow[0, seat] = new - dealt
        s.flow_min[0, seat] = np.minimum(s.flow_min[0, seat], s.flow[0, seat])
        s.stack[0] = GOODS_PER_TYPE - s.hand[0].sum(axis=0)
        assert (s.stack >= 0).all(), "more goods in hands than exist"
        return self._done()

    def stacks(self, holder: int, **goods: int) -> Position:
        """The stacks hold exactly these goods; the difference goes to (or comes from) the
        hand of seat ``holder``."""
        s = self.state
        want = s.stack[0].copy()
        for name, count in goods.items():
            want[G[name]] = count
        extra = s.stack[0] - want
        held = {GOODS_NAMES[g].lower(): int(s.hand[0, holder, g] + extra[g]) for g in range(4)}
        return self.hand(holder, **held)

    def hold(self, junk: str, *layers: str) -> Position:
        """Junk ``junk`` holds these layers, bottom first, each a string of 3 slots ("01."
        = seat 0, seat 1, empty); the strips come from (or go back to) the supplies."""
        s = self.state
        j = J[junk]
        s.cargo[0, j] = -1
        for k, slots in enumerate(layers):
            s.cargo[0, j, k] = [-1 if c == "." else int(c) for c in slots]
        s.height[0, j] = len(layers) - 1
        queries.refresh_holds(self.game, s, np.array([0]), np.array([j]))
        on_board = (s.cargo[0][..., None] == np.arange(self.players)).sum(axis=(0, 1, 2))
        s.strips[0] = STRIPS_PER_PLAYER - on_board - s.to_place[0]
        return self._done()

    def empty_holds(self) -> Position:
        for junk in JUNK_NAMES:
            self.hold(junk)
        return self

    def _hand_over(self, card: int, seat: int) -> None:
        """Card ``card`` leaves its pile for seat ``seat`` (ALWAYS face up)."""
        s = self.state
        t, pile = int(s.card_type[0, card]), int(s.card_loc[0, card])
        s.pile_cards[0, pile, t] -= 1
        s.pile_size[0, pile] -= 1
        up = t < NUM_ALWAYS
        s.hidden[0, seat] += not up
        s.card_loc[0, card] = (LOC_FACE_UP if up else LOC_HIDDEN) + seat
        (s.always if up else s.held)[0, seat, t] += 1

    def give(self, seat: int, *names: str) -> Position:
        """Seat ``seat`` takes these special cards from the piles (ALWAYS face up)."""
        s = self.state
        for name in names:
            in_piles = (s.card_type[0] == CARD[name]) & (s.card_loc[0] < 4)
            self._hand_over(int(np.flatnonzero(in_piles)[0]), seat)
        return self._done()

    def empty_piles(self, seat: int) -> Position:
        """Every card left in the piles goes to seat ``seat``."""
        for card in np.flatnonzero(self.state.card_loc[0] < 4):
            self._hand_over(int(card), seat)
        return self._done()

    def settle(self) -> Position:
        """Apply the decisions public information forces, as a step would after reaching
        the rigged decision (core's forced-decision loop)."""
        self.game.settle(self.state)
        return self._done()

    def money(self, seat: int, amount: int) -> Position:
        self.state.money[0, seat] = amount
        return self._done()

    # ---------------------------------------------------------------- playing
    def legal(self) -> list[str]:
        """Names of the legal actions, in action order."""
        mask = self.game.legal_action_mask(self.state)[0]
        return [name for name, ok in zip(ACTIONS.names, mask, strict=True) if ok]

    def play(self, *names: str) -> Position:
        """Step the named actions (e.g. ``"MAIN_MERCHANT_MONEY"``) one after another, each
        through ``Embedded``."""
        for action in map(ACTION_OF_NAME.__getitem__, names):
            self.state = self.embedded.step(self.state, action)
        return self

    def decision(self) -> tuple[int, str]:
        """(seat to act, decision name) now."""
        return int(self.state.current_player[0]), self.game.decision_name(self.state, 0)

    def automatic(self) -> list[tuple[int, str, str]]:
        """(seat, decision, action) of the automatic decisions of the last step."""
        record = self.game.step_record(self.state)
        return [(seat, self.game.phase_name(phase), self.game.action_name(action))
                for seat, phase, action in record.automatic_of(0)]

    def check(self) -> Position:
        problems = self.game.check_invariants(self.state)
        assert not problems, problems
        return self

    def vis(self, junk: str) -> list[int]:
        return self.state.vis[0, J[junk]].tolist()


def sorted_piles(position: Position) -> Position:
    """Rig the special-card piles in type order (module doc of the examples): square = 6
    SUPPLY_PLUS, WIN_TIES, EXCHANGE; circle = EXCHANGE, 2 LOAD_ONE, 2 MOVE_STRIP, 2 GOODS_ANY,
    MONEY_AT_GREY; triangle = the other 4 MONEY_AT, BONUS8 GREY, ORANGE, PURPLE; star =
    BONUS8 BROWN, WHITE and the 5 BONUS12."""
    s = position.state
    s.card_type[0] = np.sort(s.card_type[0])
    s.pile_cards[0] = 0
    for card, pile in enumerate(s.card_loc[0]):
        s.pile_cards[0, pile, s.card_type[0, card]] += 1
    return position._done()


def begin_round(position: Position, rnd: int) -> Position:
    """Round ``rnd`` begins from its Phase 1 (market card, exchanges, event), as the end of
    round ``rnd - 1`` would begin it."""
    s = position.state
    position.at_round(rnd - 1)
    queries.end_round(position.game, s, np.array([0]))
    return position.settle()
