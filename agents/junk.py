"""Scripted baselines of Dschunke (``junk``), from the rules spec's §11 "Scripted baseline ideas".

    import agents
    agent = agents.make_agent("cashier", "junk", num_players=4, seed=0)

Two strategies, both answering every decision of the flow with one valuation in Yuan:

* ``cashier`` (``GreedyCashierAgent``, §11, item 1): every main action at its immediate value (a
  money action its Yuan, a goods action its cards at a fixed rate, a load the presence and END
  bonuses it makes plus the crates it makes visible for later money actions); EXTRA cards as
  soon as they pay well; supply picks and grey goods towards the good it can win in this
  round's auction; bids that maximise price x P(win) minus the cards spent.
* ``builder`` (``PresenceBuilderAgent``, §11, item 2): loads for presence on all five junks (the 25
  bonus) and the END cards it holds, covers opponents where the money and goods merchants
  arrive next round, values special cards higher, and bids only when its count clearly beats
  the largest plausible opponent count.

The win chance of a bid compares the seat's count with each opponent's estimated holding of
the good: its known minimum (``flow - flow_min``, public) plus its share of the goods nobody
has shown, spread by hand size. Everything read is what the seat observes: public state, the
own hand, cards and pile memory; never other hands, face-down cards, pile contents (but the
pile the seat itself searches), the market deck or pending bids. Under ``hide_stacks`` the
stack counts are replaced by a guess from the emptiness flags, under ``hide_money`` nothing
changes (the strategies do not read other seats' money). Ties are broken by a tiny noise from
the agent's own generator; all work is vectorised over the rows the seat is to act in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import Handler, ScoredAgent
from envs.core.game import Game
from envs.junk import data
from envs.junk.data import (
    GOODS_OF_JUNK,
    GOODS_PER_TYPE,
    GREY,
    HELPER_TRACK,
    K_GOODS,
    K_LOAD,
    K_MONEY,
    MARKET_CARDS,
    MINIMUM_TAKE,
    MONEY_AT,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_ROUNDS,
    NUM_SPECIAL_TYPES,
    SPECIAL_COUNTS,
    SUPPLY_PLUS,
)
from envs.junk.rules import queries
from envs.junk.state import MAX_BID, MOVE_DST, MOVE_SRC, PHASE, A, JunkState

_BIG = 100.0  # an EXTRA card worth playing goes before the main action
_COUNTS = np.arange(1, MAX_BID + 1)


class _View:
    """What the acting seat knows in the rows it is to act in (R rows, ``idx`` of the batch)."""

    def __init__(self, game: Game, state: JunkState, idx: np.ndarray):
        self.game, self.state, self.idx = game, state, idx
        n = self.players = game.num_players
        self.seat = state.current_player[idx].astype(np.intp)
        self.rows = np.arange(idx.size)
        self.round = state.round[idx].astype(np.int64)
        self.rounds_left = NUM_ROUNDS - self.round  # after this one
        self.vis = state.vis[idx].astype(np.int64)  # (R, 5, P)
        self.own_vis = self.vis[self.rows, :, self.seat]  # (R, 5)
        self.layers = state.layers[idx]  # (R, 5, 3, P)
        self.hand = state.hand[idx, self.seat].astype(np.int64)  # (R, 4) own
        self.held = state.held[idx, self.seat].astype(np.int64)  # (R, 21) own face down
        self.strips = state.strips[idx, self.seat].astype(np.int64)
        card = state.market_order[idx, np.maximum(self.round - 1, 0)]
        self.price = MARKET_CARDS[card].astype(np.float64)  # (R, 4), 0 = S
        self.sold = state.sold[idx]
        if game.options["hide_stacks"]:  # only emptiness is public: a middling guess
            self.stack = np.where(state.stack[idx] > 0, 6, 0).astype(np.int64)
        else:
            self.stack = state.stack[idx].astype(np.int64)
        others = np.ones((idx.size, n), dtype=bool)
        others[self.rows, self.seat] = False
        self.others = others
        self.estimates = self._opponent_goods(state, idx)

    def _opponent_goods(self, state: JunkState, idx: np.ndarray) -> np.ndarray:
        """(R, P, 4) expected goods of each other seat by type (0 for the seat itself)."""
        n = self.players
        sizes = state.hand_size[idx].astype(np.float64)  # (R, P)
        if self.game.options["hide_stacks"]:
            known = np.zeros((idx.size, n, NUM_GOODS))
            pool = np.full((idx.size, NUM_GOODS), 1.0)
        else:
            known = (state.flow[idx] - state.flow_min[idx]).astype(np.float64)
            # Goods of each type in the other hands beyond their known minimums.
            pool = (GOODS_PER_TYPE - self.stack - self.hand).astype(np.float64)
            pool -= (known * self.others[:, :, None]).sum(axis=1)
            pool = np.maximum(pool, 0.0)
        free = np.maximum(sizes - known.sum(axis=2), 0.0)  # (R, P) cards not yet shown
        share = pool / np.maximum(pool.sum(axis=1, keepdims=True), 1e-9)
        expected = known + free[:, :, None] * share[:, None, :]
        return expected * self.others[:, :, None]

    def own_score(self, rows: np.ndarray, vis: np.ndarray) -> np.ndarray:
        """(n,) presence bonus and the own END cards' bonuses of ``rows`` for own crates
        ``vis`` (n, 5)."""
        presence, end = queries.bonuses(self.held[rows], vis)
        return presence + end


class JunkScriptedAgent(ScoredAgent):
    """Shared machinery of the Dschunke baselines (module doc); subclasses set the weights."""

    good_value = 0.5  # Yuan per goods card taken
    crate_value = 0.35  # Yuan per own visible crate and remaining round
    cover_value = 0.15  # Yuan per opponent crate covered and remaining round
    score_weight = 1.0  # weight of the presence and END bonuses a load makes now
    late_score_weight = 1.0  # ... in the last rounds (the bonuses are scored at the end)
    card_cost = 0.35  # Yuan a bid card is worth to keep
    s_value = 5.0  # the S good's special card
    bid_slope = 1.2  # P(win) = sigmoid(slope * (count - strongest opponent - margin))
    bid_margin = 0.5
    special_scale = 1.0  # weight of special cards

    def _view(self, game: Game, state: JunkState, idx: np.ndarray) -> _View:
        return _View(game, state, idx)

    def _handlers(self) -> Sequence[tuple[int, Handler]]:
        return ((PHASE.SETUP_JUNK, self._setup),
                (PHASE.EXCH_RETURN, self._exchange_return),
                (PHASE.EXCH_TAKE, self._take_goods),
                (PHASE.EVENT_PILE, self._pile),
                (PHASE.SPECIAL_PICK, self._pick),
                (PHASE.P2_MAIN, self._turn),
                (PHASE.P2_AFTER, self._turn),
                (PHASE.GREY_TYPE, self._take_goods),
                (PHASE.SUPPLY_PICK, self._take_goods),
                (PHASE.BID, self._bid),
                (PHASE.AWARD_PILE, self._pile))

    # ---------------------------------------------------------------- goods and auctions
    def _win_chance(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 4, 18) P(win) of a bid of 1..18 cards of each good."""
        strongest = view.estimates[rows].max(axis=1)  # (n, 4)
        gap = _COUNTS[None, None, :] - strongest[:, :, None] - self.bid_margin
        return 1.0 / (1.0 + np.exp(-self.bid_slope * gap))

    def _prize(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 4) what winning each good is worth now (0 once sold)."""
        price = view.price[rows]
        last = view.round[rows] == NUM_ROUNDS
        s_good = np.where(last, 3.0, self.s_value * self.special_scale)[:, None]
        return np.where(view.sold[rows], 0.0, np.where(price == 0, s_good, price))

    def _bid(self, view: _View, rows: np.ndarray, mask: np.ndarray,
             scores: np.ndarray) -> None:
        chance = self._win_chance(view, rows)
        value = self._prize(view, rows)[:, :, None] * chance - self.card_cost * _COUNTS
        scores[rows, A.BID:A.BID + NUM_GOODS * MAX_BID] = value.reshape(rows.size, -1)
        scores[rows, A.PASS_BID] = 0.0

    def _good_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 4) the worth of one more card of each good: the gain in this round's
        auction (its P(win) with one card more) plus a flat value."""
        hand = view.hand[rows]
        chance = self._win_chance(view, rows)
        now = np.take_along_axis(chance, np.clip(hand - 1, 0, MAX_BID - 1)[..., None],
                                 axis=2)[..., 0] * (hand > 0)
        more = np.take_along_axis(chance, np.clip(hand, 0, MAX_BID - 1)[..., None], axis=2)[
            ..., 0]
        return self._prize(view, rows) * (more - now) + self.good_value

    def _take_goods(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                    scores: np.ndarray) -> None:
        scores[rows, A.GOODS:A.GOODS + NUM_GOODS] = self._good_values(view, rows)

    def _exchange_return(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                         scores: np.ndarray) -> None:
        """Return a good worth clearly less than the best one to take; else DONE."""
        values = self._good_values(view, rows)
        best = values.max(axis=1, keepdims=True)
        scores[rows, A.RETURN:A.RETURN + NUM_GOODS] = best - values - 1.0
        scores[rows, A.DONE] = 0.0

    # ---------------------------------------------------------------- special cards
    def card_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 21) what each special card type is worth to the seat now."""
        left = view.rounds_left[rows].astype(np.float64)
        vis = view.own_vis[rows]
        values = np.zeros((rows.size, NUM_SPECIAL_TYPES))
        values[:, SUPPLY_PLUS] = 0.6 * left
        values[:, 1] = 0.3 * left  # WIN_TIES
        values[:, 2] = 0.3 * left  # EXCHANGE
        values[:, 3:6] = (2.5 * (left > 0))[:, None]  # LOAD_ONE, MOVE_STRIP, GOODS_ANY
        values[:, MONEY_AT:MONEY_AT + NUM_JUNKS] = np.maximum(vis, MINIMUM_TAKE) * (
            left > 0)[:, None]
        reach = np.clip((vis + left[:, None]) / data.BONUS8_NEED, 0, 1)
        values[:, data.BONUS8:data.BONUS8 + NUM_JUNKS] = data.BONUS8_VALUE * np.where(
            vis >= data.BONUS8_NEED, 0.9, 0.5 * reach * (left[:, None] > 0))
        a, b = vis[:, data.BONUS12_PAIRS[:, 0]], vis[:, data.BONUS12_PAIRS[:, 1]]
        both = (a >= data.BONUS12_NEED_A) & (b >= data.BONUS12_NEED_B)
        half = (a >= data.BONUS12_NEED_A - 2) & (b >= 1)
        values[:, data.BONUS12:data.BONUS12 + NUM_JUNKS] = data.BONUS12_VALUE * np.where(
            both, 0.8, np.where(half & (left[:, None] > 1), 0.45, 0.15 * (left[:, None] > 2)))
        return values * self.special_scale

    def _pick(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        scores[rows, A.SPECIAL:A.SPECIAL + NUM_SPECIAL_TYPES] = self.card_values(view, rows)

    def _pile(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        """A pile by the best card the seat expects in it: its memory of the pile where it
        has searched it, else the cards nobody has shown."""
        state, idx = view.state, view.idx[rows]
        seat = view.seat[rows]
        values = self.card_values(view, rows)  # (n, 21)
        seen = state.seen[idx, seat].astype(np.float64)  # (n, 4, 21)
        searched = state.searched[idx, seat] > 0  # (n, 4)
        shown = state.always[idx].sum(axis=1)  # face up, every seat
        unseen = SPECIAL_COUNTS.astype(np.float64).copy() - state.discarded[idx]
        unseen[:, :3] -= shown
        unseen -= state.held[idx, seat] + np.pad(state.always[idx, seat], ((0, 0), (0, 18)))
        unseen = np.maximum(unseen, 0.0)
        present = np.where(searched[:, :, None], seen > 0, unseen[:, None, :] > 0)
        best = np.where(present, values[:, None, :], -1.0).max(axis=2)
        scores[rows, A.PILE:A.PILE + 4] = best
        scores[rows, A.TAKE_3_YUAN] = 3.0

    # ---------------------------------------------------------------- Phase 2
    def _load_value(self, view: _View, rows: np.ndarray, junks: np.ndarray,
                    strips: np.ndarray) -> np.ndarray:
        """(n,) the worth of placing ``strips`` (n,) own strips on ``junks`` (n,)."""
        seat = view.seat[rows]
        n = rows.size
        before = view.vis[rows, junks]  # (n, P)
        after = queries.vis_after(view.game, view.state, view.idx[rows], junks, seat, strips)
        own_vis = view.own_vis[rows].copy()
        new_vis = own_vis.copy()
        new_vis[np.arange(n), junks] = after[np.arange(n), seat]
        return self._vis_change_value(view, rows, own_vis, new_vis, before, after)

    def _vis_change_value(self, view: _View, rows: np.ndarray, own_vis: np.ndarray,
                          new_vis: np.ndarray, before: np.ndarray, after: np.ndarray
                          ) -> np.ndarray:
        """The worth of own crates ``own_vis`` -> ``new_vis`` (n, 5) with the changed junk's
        crates of every seat ``before`` -> ``after`` (n, P)."""
        left = view.rounds_left[rows].astype(np.float64)
        weight = np.where(left <= 2, self.late_score_weight, self.score_weight)
        score = (view.own_score(rows, new_vis) - view.own_score(rows, own_vis)) * weight
        mine = (new_vis - own_vis).sum(axis=1)
        others = (before - after) * view.others[rows]
        covered = others.sum(axis=1)
        return score + left * (self.crate_value * mine + self.cover_value * covered)

    def _turn(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        state, idx = view.state, view.idx[rows]
        n = rows.size
        rnd = view.round[rows]
        vis = view.own_vis[rows]
        # Main actions: the three merchants, then the helpers on the free junks.
        merchant_junk = state.merchant_junk[idx].astype(np.intp)  # (n, 3)
        for figure in range(3 + 2 * NUM_JUNKS):
            if figure < 3:
                kind = np.full(n, (K_LOAD, K_MONEY, K_GOODS)[figure])
                junks = merchant_junk[:, figure]
                size = np.full(n, 2)
                action = figure
            else:
                helper, junk = divmod(figure - 3, NUM_JUNKS)
                space = HELPER_TRACK[helper, rnd - 1]
                kind, size = space[:, 0], space[:, 1].astype(np.int64)
                junks = np.full(n, junk)
                action = A.MAIN_HELPER + figure - 3
            scores[rows, action] = self._action_value(view, rows, kind, junks, size)
        # EXTRA cards: worth playing now, or not.
        left = view.rounds_left[rows]
        for j in range(NUM_JUNKS):
            junks = np.full(n, j)
            money = np.maximum(vis[:, j], MINIMUM_TAKE).astype(np.float64)
            scores[rows, A.MONEY_AT + j] = np.where((vis[:, j] >= 5) | (left <= 1), _BIG + money,
                                                    -_BIG)
            goods = self._action_value(view, rows, np.full(n, K_GOODS), junks, np.ones(n, int))
            scores[rows, A.GOODS_ANY + j] = np.where(
                (np.maximum(vis[:, j], 3) >= 5) | (left <= 1), _BIG + goods, -_BIG)
            load = self._load_value(view, rows, junks, np.ones(n, dtype=np.int64))
            scores[rows, A.LOAD_ONE + j] = np.where((load >= 3) | (left <= 1), _BIG + load,
                                                    -_BIG)
        move = self._move_values(view, rows)
        scores[rows, A.MOVE_STRIP:A.GOODS] = np.where((move >= 3) | (left <= 1)[:, None],
                                                     _BIG + move, -_BIG)
        scores[rows, A.DONE] = 0.0

    def _action_value(self, view: _View, rows: np.ndarray, kind: np.ndarray, junks: np.ndarray,
                      size: np.ndarray) -> np.ndarray:
        """(n,) the worth of a LOAD(size), MONEY or GOODS action on ``junks``."""
        n = rows.size
        seat = view.seat[rows]
        crates = view.vis[rows, junks, seat]
        count = np.maximum(crates, MINIMUM_TAKE).astype(np.float64)
        value = np.zeros(n)
        money = kind == K_MONEY
        value[money] = count[money]
        goods = kind == K_GOODS
        if goods.any():
            stack = view.stack[rows]
            kind_of = GOODS_OF_JUNK[junks]
            available = np.where(junks == GREY, stack.sum(axis=1),
                                 stack[np.arange(n), np.maximum(kind_of, 0)])
            best = self._good_values(view, rows).max(axis=1)
            per_card = np.where(junks == GREY, best, np.take_along_axis(
                self._good_values(view, rows), np.maximum(kind_of, 0)[:, None], axis=1)[:, 0])
            value[goods] = (np.minimum(count, available) * (
                0.5 * per_card + 0.5 * self.good_value))[goods]
        load = kind == K_LOAD
        if load.any():
            strips = np.minimum(size, view.strips[rows])
            value[load] = self._load_value(view, rows[load], junks[load], strips[load])
        return value

    def _move_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 20) the worth of each MOVE_STRIP[src][dst]."""
        n = rows.size
        seat = view.seat[rows]
        vis = view.own_vis[rows]
        out = np.full((n, MOVE_SRC.size), -_BIG)
        idx = view.idx[rows]
        for k, (src, dst) in enumerate(zip(MOVE_SRC.tolist(), MOVE_DST.tolist(), strict=True)):
            movable = view.layers[rows, src, 0, seat] > 0
            if not movable.any():
                continue
            after_src = queries.vis_after(view.game, view.state, idx, np.full(n, src), seat, -1)
            after_dst = queries.vis_after(view.game, view.state, idx, np.full(n, dst), seat, 1)
            new_vis = vis.copy()
            new_vis[:, src] = after_src[np.arange(n), seat]
            new_vis[:, dst] = after_dst[np.arange(n), seat]
            left = view.rounds_left[rows]
            gain = view.own_score(rows, new_vis) - view.own_score(rows, vis)
            gain = gain + 0.1 * left * (new_vis.sum(axis=1) - vis.sum(axis=1))
            out[:, k] = np.where(movable, gain, -_BIG)
        return out

    # ---------------------------------------------------------------- variable setup
    def _setup(self, view: _View, rows: np.ndarray, mask: np.ndarray,
               scores: np.ndarray) -> None:
        """The strip is the right neighbour's: put it where that seat is already present,
        else on the fullest junk (where it shows the least)."""
        neighbour = (view.seat[rows] - 1) % view.players
        there = view.vis[rows, :, neighbour] > 0  # (n, 5)
        count = view.layers[rows, :, 0].sum(axis=2)
        scores[rows, A.SETUP_JUNK:A.SETUP_JUNK + NUM_JUNKS] = there * 2.0 + count * 0.5


class GreedyCashierAgent(JunkScriptedAgent):
    """§11, item 1: immediate income first (module doc)."""

    name = "cashier"


class PresenceBuilderAgent(JunkScriptedAgent):
    """§11, item 2: presence on every junk and the END cards held; conservative bids."""

    name = "builder"
    crate_value = 0.25
    cover_value = 0.3
    score_weight = 1.5
    late_score_weight = 2.0
    bid_margin = 1.5
    card_cost = 0.5
    special_scale = 1.3


BASELINES = {
    "cashier": GreedyCashierAgent,
    "builder": PresenceBuilderAgent,
}

# The search agent's defaults for junk (agents.ismcts): guided by cashier. A check at the
# defaults (40 simulations, rollout depth 6), 48 four-player games with the guided and the
# unguided search and two cashiers, seats rotated: mean rank reward +0.11 +- 0.10 guided,
# -0.33 +- 0.10 unguided (cashiers +0.04, +0.18).
ISMCTS = {"guide": "cashier"}
