"""Scripted baselines of Batavia (``batavia``), from the rules spec's §11.

    import agents
    agent = agents.make_agent("greedy", "batavia", num_players=4, seed=0)

Three strategies, each answering every decision (§9.1):

* ``greedy`` (``GreedyPostAgent``), "tile value per card": every company whose next post
  ahead it can reach this turn is valued at the post's good (times its prospect of leading
  that warehouse) plus the post's worth for an exchange, divided by one plus the cards the
  seal still needs; the best one is played for (exactly the cards needed, at least one),
  else it draws. Lots are bid for at 1 coin a card, 4 for companies where it is within 2
  cards of a majority or holds the seal, 1 more for the ship when it can already play,
  never above 80% of its coins (the spec's 2 a card and half the coins bid too little in
  play-tests). It exchanges at 4 companies, 3 when fewer than 10 posts are left ahead, and
  any holding near the end (posts not handed in score nothing).
* ``pirate_aware`` (``PirateAwarePostAgent``): greedy, but a play that would bring the
  cannon within 3 of the threshold counts a seal of the largest company at 85% of its
  worth, seals of small companies (which survive attacks) are worth up to 10% more, and lot
  cards of companies where it is tied for the seal a coin more. (Heavier weights, such as
  a third of the worth, lost to greedy in play-tests.)
* ``set_collector`` (``SetCollectorAgent``): plays for posts of companies missing from its
  holdings (ties by good value), exchanges only a full set of 5 (or 3 once every space is
  open), and bids lightly, at most 1 coin a lot card.

All three take the goal tile only while the public score (``scoring.scores``, exchange gold,
warehouses, coins, seals) does not put them behind, and otherwise play on or draw.

Information: an agent reads its own hand and public data only: displays, seals, hand sizes,
known cards, coins, the lot, posts, crates, warehouses, merchants, and the route's face-up
spaces (``route`` beyond ``open`` and the pile are never read). Ties are broken by a tiny
noise from the agent's own seeded generator. Everything is vectorised over the rows the
seat is to act in; the loops run over the five companies at most.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import NEG, Handler, ScoredAgent
from envs.batavia.data import (
    EXCHANGE_GOLD,
    GOOD_VALUE,
    NUM_COMPANIES,
    NUM_SPACES,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.rules import queries
from envs.batavia.state import (
    ACTIONS,
    BID,
    DRAW,
    END_GOAL,
    END_MOVE,
    EXCHANGE,
    KEEP,
    PASS,
    PLAY_CARD,
    BataviaState,
    Phase,
)
from envs.core.game import Game

_SPACES = np.arange(1, NUM_SPACES + 1)
_COMPANIES = np.arange(NUM_COMPANIES)
_BIDS = np.arange(1, ACTIONS.BID.size + 1)


class _View:
    """What the acting seat knows in the rows ``idx`` where it is to act (R rows)."""

    def __init__(self, game: Game, state: BataviaState, idx: np.ndarray):
        self.game, self.state, self.idx = game, state, idx
        n = idx.size
        self.rows = np.arange(n)
        seat = self.seat = state.current_player[idx].astype(np.intp)
        self.hand = state.hand[idx, seat].astype(np.int64)  # (R, 5) own hand
        displays = state.display[idx].astype(np.int64)  # (R, P, 5) public
        self.shown = displays[self.rows, seat]
        mine = np.arange(game.num_players)[None, :] == seat[:, None]
        self.others = np.where(mine[:, :, None], -1, displays).max(axis=1)  # Mo(p, c)
        self.own_seal = state.seal[idx] == seat[:, None]
        self.cubes = state.cubes[idx].astype(np.int64)
        self.cannon = state.cannon[idx].astype(np.int64)
        self.final = state.final[idx]
        opened = state.open[idx].astype(np.int64)
        self.all_open = opened >= NUM_SPACES
        # The rules' answers: seals the hand can win (or holds), posts ahead (§5.3, §5.5).
        self._potential, self.ahead = queries.companies(game, state, idx, seat, self.hand)
        # The nearest post of each company: face up (every next post is, §5.5).
        route = state.route[idx].astype(np.int64)
        visible = (route >= 0) & (_SPACES[None, :] <= opened[:, None])
        pos = state.pos[idx, seat].astype(np.int64)
        ahead_space = visible & (_SPACES[None, :] > pos[:, None])
        company = np.where(ahead_space, TILE_COMPANY[np.maximum(route, 0)], -1)
        hit = company[:, None, :] == _COMPANIES[None, :, None]  # (R, 5, 35)
        first = np.argmax(hit, axis=2)  # the nearest such space
        self.next_tile = np.where(self.ahead, route[self.rows[:, None], first], -1)
        self.posts_ahead = ahead_space.sum(axis=1)
        self.posts = state.posts[idx, seat].astype(np.int64)
        self.held = (self.posts > 0).sum(axis=1)
        self.crates = state.crates[idx, seat].astype(np.int64)
        owner = state.warehouse[idx].astype(np.int64)  # (R, 7, 5)
        per_seat = (owner[:, None] == np.arange(game.num_players)[None, :, None, None]).sum(3)
        self.my_goods = per_seat[self.rows, seat]  # (R, 7)
        self.best_goods = np.where(mine[:, :, None], -1, per_seat).max(axis=1)
        self.coins = state.coins[idx, seat].astype(np.int64)
        public = game.scores(state)[idx]
        self.leading = public[self.rows, seat] >= np.where(mine, -1e9, public).max(axis=1)

    def cost(self) -> np.ndarray:
        """(R, 5) cards the seal of each company still needs (0 when held)."""
        return np.where(self.own_seal, 0, np.maximum(self.others + 1 - self.shown, 0))

    def potential(self) -> np.ndarray:
        """(R, 5) the hand can win (or holds) each seal this turn (§5.3)."""
        return self._potential


class BataviaScriptedAgent(ScoredAgent):
    """Shared machinery of the Batavia baselines (module doc); one decision per call.

    A strategy sets the class parameters and may override ``post_gain`` (the worth of each
    company's next post) and ``exchange_now``.
    """

    draw_value = 2.0  # a post worth less per card than this loses to DRAW
    good_weight = 1.0
    new_company_gold = 3.0  # the worth of a post of a company not yet held
    pirate_care = False  # scale down seals the next attack would sweep away
    pirate_margin = 3  # ... when the cannon would come this close to the threshold
    pirate_factor = 0.3  # ... by this factor
    small_company_bonus = 0.0
    card_value = 1.0  # coins per lot card
    near_card_value = 4.0  # ... of a company within 2 cards of a seal, or held
    tied_card_bonus = 0.0
    ship_value = 1.0  # for the ship when it can already play
    bid_share = 0.8  # never bid above this share of the coins
    least_value = -100.0  # a legal action the strategy would never play

    def _view(self, game: Game, state: BataviaState, idx: np.ndarray) -> _View:
        return _View(game, state, idx)

    def _handlers(self) -> Sequence[tuple[int, Handler]]:
        return ((Phase.AUCTION_BID, self._auction), (Phase.TURN_START, self._turn_start),
                (Phase.PLAYING, self._playing), (Phase.EXCHANGE_CHOICE, self._exchange))

    # ---------------------------------------------------------------- valuations
    def post_gain(self, v: _View) -> np.ndarray:
        """(R, 5) the worth of each company's next post ahead (0 where none)."""
        tile = np.maximum(v.next_tile, 0)
        good = TILE_GOOD[tile]
        mine = np.take_along_axis(v.my_goods, good, axis=1) + 1
        best = np.take_along_axis(v.best_goods, good, axis=1)
        prospect = np.where(mine >= best, 1.0, np.where(mine == best - 1, 0.5, 0.2))
        prospect *= v.crates[:, None] > 0
        value = self.good_weight * GOOD_VALUE[good] * prospect
        new = v.posts == 0
        held_after = v.held[:, None] + 1
        set_gold = np.where(held_after >= 4, 0.5 * EXCHANGE_GOLD[np.minimum(held_after, 5)], 0)
        value = value + new * (self.new_company_gold + set_gold)
        return np.where(v.ahead, value, 0.0)

    def exchange_now(self, v: _View, rows: np.ndarray) -> np.ndarray:
        """(n,) bool: exchange the posts held (the new one included) now: 4 or more
        companies, 3 when fewer than 10 posts are left ahead, any near the end (posts not
        handed in score nothing)."""
        k = v.held[rows]
        late = v.final[rows] | (v.all_open[rows] & (v.posts_ahead[rows] < 6))
        return (k >= 4) | ((k == 3) & (v.posts_ahead[rows] < 10)) | late

    def _ratios(self, v: _View) -> tuple[np.ndarray, np.ndarray]:
        """(R, 5) worth per card of playing for each company's next post, and the gain of
        moving there; NEG where the seal cannot be won this turn or no post is ahead."""
        gain = self.post_gain(v)
        cost = v.cost()
        ratio = gain / (1.0 + cost)
        if self.pirate_care:
            after = v.cubes + cost + 1
            largest = after >= np.max(v.cubes, axis=1, keepdims=True)
            risky = (v.cannon[:, None] + cost + 1 >= v.game.threshold - self.pirate_margin)
            ratio = np.where(risky & largest, self.pirate_factor * ratio, ratio)
        if self.small_company_bonus:
            size = v.cubes / np.maximum(v.cubes.max(axis=1, keepdims=True), 1)
            ratio = ratio * (1.0 + self.small_company_bonus * (1.0 - size))
        ok = v.potential() & v.ahead
        return np.where(ok, ratio, NEG), gain

    def _goal_value(self, v: _View) -> np.ndarray:
        """(R,) the worth of taking the goal tile: 4 gold, and the game ends while leading."""
        return np.where(v.leading, 4.0 + 6.0, -2.0)

    # ---------------------------------------------------------------- decisions
    def _auction(self, v: _View, rows: np.ndarray, mask: np.ndarray,
                 scores: np.ndarray) -> None:
        state, idx = v.state, v.idx[rows]
        lot = state.lot[idx].astype(np.int64)
        need = v.others[rows] + 1 - v.shown[rows] - v.hand[rows]
        near = v.own_seal[rows] | (need <= 2)
        weight = np.where(near, self.near_card_value, self.card_value)
        if self.tied_card_bonus:
            tied = (v.shown[rows] == v.others[rows]) & (v.shown[rows] > 0)
            weight = weight + self.tied_card_bonus * tied
        worth = (lot * weight).sum(axis=1) + self.ship_value * v.potential()[rows].any(axis=1)
        limit = np.minimum(worth, self.bid_share * v.coins[rows])
        high = state.high_bid[idx].astype(np.int64)
        bids = limit[:, None] - _BIDS[None, :] + 0.001 - 0.01 * (_BIDS[None, :] - high[:, None] - 1)
        scores[rows, BID:BID + _BIDS.size] = bids
        scores[rows, PASS] = 0.0

    def _turn_start(self, v: _View, rows: np.ndarray, mask: np.ndarray,
                    scores: np.ndarray) -> None:
        ratio, gain = self._ratios(v)
        ratio = ratio[rows]
        hand = v.hand[rows]
        scores[rows, DRAW] = self.draw_value
        cards = np.where(hand > 0, ratio, -1.0)  # a card of the company played for
        # A seal already held needs no card: any card will do, the least useful one.
        held = np.where(v.own_seal[rows] & v.ahead[rows], gain[rows], NEG).max(axis=1)
        spare = held[:, None] - 0.05 - 0.01 * (v.potential()[rows] & (hand > 0))
        cards = np.maximum(cards, np.where(hand > 0, spare, -1.0))
        goal = self._goal_cards(v, rows)
        cards = np.maximum(cards, goal)
        scores[rows, PLAY_CARD:PLAY_CARD + NUM_COMPANIES] = cards

    def _goal_cards(self, v: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 5) worth of starting a play for the goal with each card (NEG if none): every
        space is open, no held seal has a post ahead, a seal without one can be won."""
        possible = v.all_open[rows] & ~v.final[rows]
        possible &= ~(v.own_seal[rows] & v.ahead[rows]).any(axis=1)
        route_free = v.potential()[rows] & ~v.ahead[rows]
        cost = v.cost()[rows]
        worth = self._goal_value(v)[rows, None] / (1.0 + np.where(route_free, cost, 99))
        best = worth.max(axis=1)
        target = route_free & (worth == best[:, None])
        useful = np.where(v.own_seal[rows].any(axis=1)[:, None], v.hand[rows] > 0,
                          target & (v.hand[rows] > 0))
        return np.where(possible[:, None] & route_free.any(axis=1)[:, None] & useful,
                        best[:, None], NEG)

    def _playing(self, v: _View, rows: np.ndarray, mask: np.ndarray,
                 scores: np.ndarray) -> None:
        ratio, gain = self._ratios(v)
        ratio, gain = ratio[rows], gain[rows]
        hand = v.hand[rows]
        own = v.own_seal[rows] & v.ahead[rows]
        cost = v.cost()[rows]
        scores[rows, END_MOVE:END_MOVE + NUM_COMPANIES] = np.where(own, gain + 1.0, NEG)
        # Another card only for a seal not yet won: the post's worth for the cards it needs.
        more = np.where(~own & (ratio > NEG / 2) & (hand > 0), gain / np.maximum(cost, 1), -1.0)
        goal_cards = self._goal_cards(v, rows)
        scores[rows, PLAY_CARD:PLAY_CARD + NUM_COMPANIES] = np.maximum(more, goal_cards - 1.0)
        scores[rows, END_GOAL] = self._goal_value(v)[rows]

    def _exchange(self, v: _View, rows: np.ndarray, mask: np.ndarray,
                  scores: np.ndarray) -> None:
        scores[rows, EXCHANGE] = np.where(self.exchange_now(v, rows), 1.0, 0.0)
        scores[rows, KEEP] = 0.5


class GreedyPostAgent(BataviaScriptedAgent):
    """§11 idea 1, greedy: the best post per card, else draw."""

    name = "greedy"


class PirateAwarePostAgent(BataviaScriptedAgent):
    """§11 idea 2, pirate_aware: greedy with an eye on the cannon and on small companies."""

    name = "pirate_aware"
    pirate_care = True
    pirate_factor = 0.85
    small_company_bonus = 0.1
    tied_card_bonus = 1.0


class SetCollectorAgent(BataviaScriptedAgent):
    """§11 idea 3, set_collector: posts of missing companies, full sets, light bids."""

    name = "set_collector"
    good_weight = 0.3
    new_company_gold = 8.0
    draw_value = 1.5
    near_card_value = 1.0
    ship_value = 0.0

    def post_gain(self, v: _View) -> np.ndarray:
        tile = np.maximum(v.next_tile, 0)
        value = self.good_weight * GOOD_VALUE[TILE_GOOD[tile]] * (v.crates[:, None] > 0)
        value = value + self.new_company_gold * (v.posts == 0)
        return np.where(v.ahead, value, 0.0)

    def exchange_now(self, v: _View, rows: np.ndarray) -> np.ndarray:
        k = v.held[rows]
        return (k >= 5) | ((k >= 3) & v.all_open[rows])


BASELINES = {
    "greedy": GreedyPostAgent,
    "pirate_aware": PirateAwarePostAgent,
    "set_collector": SetCollectorAgent,
}

# The search agent's defaults for batavia (agents.ismcts): guided by the strongest baseline.
ISMCTS = {"guide": "greedy"}
