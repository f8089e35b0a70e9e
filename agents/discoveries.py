"""Scripted baselines of Age of Discoveries (``discoveries``), from the spec's §11.

    import agents
    agent = agents.make_agent("trader_explorer", "discoveries", num_players=3, seed=0)

Two strategies, each answering every decision (MAIN, the expedition pick, the contract
build) by valuing every legal action in VP-equivalents and playing the best one:

* ``trader_explorer`` (``TraderExplorerAgent``, §11 item 1): plays a feasible hand contract on the
  longest voyage that still returns before the end, keeps the ships a hand contract needs,
  sends the others to the expedition that pays best (pending First value, Final value, and
  the own special task), buys ships in the colours of its contracts or of open expeditions,
  takes face-up contracts in colours it owns while its hand holds two or fewer, else coins.
* ``expedition_rusher`` (``ExpeditionRusherAgent``, §11 item 2): ignores contracts (it plays one
  only when the ships it owns complete it at once, for one turn), buys cheap TV1 and TV2
  ships while it can still pay to send them, sends them at once to the expeditions where
  they score most (small, same-colour, own-established or empty ones first), else coins.

Shared valuation (``_View``): a ship on expedition e scores its First value while the First
Scoring is pending and its Final value, minus the point it would score idle at the end, plus
the special task's gain (the expedition newly qualifying for the own task kind, times the
track value expected); each TV of capacity it takes costs a little (the VP per ship do not
grow with TV); a coin is worth ``coin_value`` VP while the seat has turns left to spend it
and nothing once its last turn has begun; a Joker spent costs ``joker_cost``.

Information: an agent reads the public board and counts, its own hand, flagship and task,
and the legal mask of its seat. It never reads other seats' hands, flagships or tasks, the
contract deck or the pile order. Ties are broken by a tiny noise from the agent's own
seeded generator. All work is vectorised over the rows the seat acts in.

``SOAK_POLICIES`` holds ``contract_biased``, the random policy biased towards contracts of
§10 that the soak (``python -m benchmarks.soak --policy contract_biased``) and the invariant
tests play: not a baseline.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import NEG, Handler, ScoredAgent
from envs.core.game import Game
from envs.core.sampling import sample_actions
from envs.discoveries.data import (
    CONTRACT_COLOUR,
    CONTRACT_REVENUE,
    CONTRACT_TV,
    EXP_COLOUR,
    EXP_LIMIT,
    FINAL_OFF,
    FINAL_SAME,
    FIRST_OFF,
    FIRST_SAME,
    FLAG_COLOURS,
    NUM_COLOURS,
    NUM_TYPES,
    TRACK,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.rules.queries import expedition_picks, qualifying
from envs.discoveries.state import ACTIONS, FLAG, PHASE, DiscoveriesState

_A = ACTIONS
_SAME = EXP_COLOUR[:, None] == np.arange(NUM_COLOURS)  # (12, 6) ship colour = card colour
_FIRST = np.where(_SAME, FIRST_SAME[:, None], FIRST_OFF[:, None]).astype(np.float64)
_FINAL = np.where(_SAME, FINAL_SAME[:, None], FINAL_OFF[:, None]).astype(np.float64)
_FLAG_TV = np.tile(np.arange(1, 4), 2)  # (6,) declared TV of each PICK_FLAGSHIP
_FLAG_SLOT = np.repeat(np.arange(2), 3)  # (6,) colour slot of each PICK_FLAGSHIP


class _View:
    """What the acting seat knows in the rows it acts in (R rows: ``idx`` of the batch)."""

    def __init__(self, agent: DiscoveriesScriptedAgent, game: Game, state: DiscoveriesState,
                 idx: np.ndarray):
        players = state.coins.shape[1]
        self.game, self.state, self.idx = game, state, idx
        seat = state.current_player[idx].astype(np.intp)
        self.seat = seat
        r = np.arange(idx.size)
        self.r = r
        self.coins = state.coins[idx, seat].astype(np.float64)
        self.jokers = state.jokers[idx, seat]
        self.idle = state.idle[idx, seat].astype(np.int64)  # (R, 18)
        self.flag_idle = state.flag_where[idx, seat] == FLAG.IDLE
        self.flag_colours = FLAG_COLOURS[state.flag_id[idx, seat]]  # (R, 2) its own flagship
        hand = state.hand[idx, seat]  # (R, 4) its own hand
        self.hand = hand
        self.hand_size = (hand >= 0).sum(axis=1)
        held = np.zeros((idx.size, NUM_COLOURS), dtype=bool)
        rows, slots = np.nonzero(hand >= 0)
        held[rows, CONTRACT_COLOUR[hand[rows, slots]]] = True
        self.contract_colours = held  # (R, 6) colours of the hand's contracts
        # Own turns left after this one: each seat plays once in every N global turns.
        turn = state.turn[idx].astype(np.int64)
        final = state.final_reveal[idx].astype(np.int64)
        self.turns_left = np.where(final >= 0, (final + players - turn) // players, 99)
        # A coin is worth less the more the seat holds, and nothing after its last turn.
        self.coin = (agent.coin_value * np.clip(self.turns_left / 2, 0, 1)
                     * np.minimum(1.0, agent.rich / np.maximum(self.coins, 1)))  # (R,)
        # Expedition values per colour (R, 12, 6), with the own task's gain.
        count = state.exp_count[idx].astype(np.int64)  # (R, 12, P)
        size = state.exp_size[idx].astype(np.int64)
        task = state.task[idx, seat].astype(np.intp)
        now = qualifying(count, size)[r, :, seat, task]  # (R, 12)
        count[r, :, seat] += 1
        after = qualifying(count, size + 1)[r, :, seat, task]
        completed = state.completed[idx, seat].astype(np.intp)
        track = TRACK[np.minimum(completed + agent.expected_contracts, len(TRACK) - 1)]
        pending = ~state.first_done[idx]
        self.exp_value = (_FIRST[None] * pending[:, None, None] + _FINAL[None] - 1.0
                          + ((after & ~now) * track[:, None])[:, :, None])
        self.free = EXP_LIMIT - state.exp_used[idx]  # (R, 12)
        self.established = state.exp_colour_set[idx]  # (R, 12)
        self.qualified = now.sum(axis=1)

    def ship_on_expedition(self, agent: DiscoveriesScriptedAgent, colour: np.ndarray,
                           tv: np.ndarray, fee: float) -> np.ndarray:
        """(R, 12, K) value of sending ships of ``colour`` and ``tv`` (K,) to each
        expedition, fee paid and a Joker charged where the colour is not the established
        one (legality is the mask's)."""
        value = self.exp_value[:, :, colour] - agent.capacity_cost * tv
        joker = (self.established[:, :, None] >= 0) & (self.established[:, :, None] != colour)
        return value - agent.joker_cost * joker - self.coin[:, None, None] * fee

    def best_placement(self, agent: DiscoveriesScriptedAgent) -> np.ndarray:
        """(R, 18) value of the best expedition a ship of each type fits without a Joker."""
        colour, tv = TYPE_COLOUR.astype(np.intp), TYPE_TV.astype(np.int64)
        value = self.ship_on_expedition(agent, colour, tv, 1.0)
        fits = (self.free[:, :, None] >= tv) & ((self.established[:, :, None] < 0) | (
            self.established[:, :, None] == colour))
        return np.where(fits, value, NEG).max(axis=1)


class DiscoveriesScriptedAgent(ScoredAgent):
    """Shared machinery: one decision per call, every legal action valued (module doc)."""

    coin_value = 0.8  # VP per coin while turns are left to spend it
    rich = 15.0  # coins beyond which each is worth less (coin_value * rich / coins)
    capacity_cost = 0.3  # VP per TV of expedition capacity a ship takes
    joker_cost = 2.0  # VP a Joker spent costs
    expected_contracts = 0  # contracts it expects to complete beyond those done (task)
    keep_ships = 0.0  # VP of keeping a ship of a hand contract's colour off expeditions
    reserve_value = -0.5
    buy_tv3 = 0.0  # extra value of buying a TV3 ship
    lock_cost = 0.3  # VP per TV locked on a voyage per turn

    def _view(self, game: Game, state: DiscoveriesState, idx: np.ndarray) -> _View:
        return _View(self, game, state, idx)

    def _handlers(self) -> Sequence[tuple[int, Handler]]:
        return ((PHASE.MAIN, self._main), (PHASE.PICK_EXP_SHIP, self._exp_pick),
                (PHASE.BUILD_CONTRACT, self._build_pick))

    # ---------------------------------------------------------------- values
    def _keep(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 18) VP of keeping an idle ship of each type for a hand contract."""
        return self.keep_ships * view.contract_colours[rows][:, TYPE_COLOUR]

    def _pick_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 12, 24) value of each pick (18 types, 6 flagship picks) on each expedition."""
        regular = view.ship_on_expedition(self, TYPE_COLOUR.astype(np.intp),
                                          TYPE_TV.astype(np.int64), 1.0)[rows]
        regular = regular - self._keep(view, rows)[:, None, :]
        colour = view.flag_colours[rows][:, _FLAG_SLOT]  # (n, 6)
        n = rows.size
        flag = np.empty((n, 12, 6))
        for k in range(6):
            flag[:, :, k] = view.ship_on_expedition(self, colour[:, k], _FLAG_TV[k], 2.0)[
                rows, :, np.arange(n)]
        return np.concatenate([regular, flag], axis=2)

    def _exp_pick(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                  scores: np.ndarray) -> None:
        target = view.state.target[view.idx[rows]].astype(np.intp)
        picks = self._pick_values(view, rows)[np.arange(rows.size), target]
        scores[rows, _A.PICK_SHIP.start:_A.PICK_FLAGSHIP.stop] = picks

    def _build_pick(self, view: _View, rows: np.ndarray, mask: np.ndarray,
                    scores: np.ndarray) -> None:
        """Matching ships first, larger TV first (fewer fees), the flagship last."""
        card = view.state.build_card[view.idx[rows]].astype(np.intp)
        colour = CONTRACT_COLOUR[card]
        match = colour[:, None] == TYPE_COLOUR
        coin = view.coin[rows][:, None]
        ships = np.where(match, 1.0, -self.joker_cost) + 0.3 * TYPE_TV - coin
        flag_match = view.flag_colours[rows][:, _FLAG_SLOT] == colour[:, None]
        flags = np.where(flag_match, 0.0, -self.joker_cost) - 1.0 + 0.1 * _FLAG_TV - 2 * coin
        scores[rows, _A.PICK_SHIP.start:_A.PICK_SHIP.stop] = ships
        scores[rows, _A.PICK_FLAGSHIP.start:_A.PICK_FLAGSHIP.stop] = flags

    def _main(self, view: _View, rows: np.ndarray, mask: np.ndarray,
              scores: np.ndarray) -> None:
        n = rows.size
        state, idx = view.state, view.idx[rows]
        coin = view.coin[rows]
        scores[rows, _A.TAKE_COINS.start] = 2 * coin
        # BUY: the ship's best placement (or the point it scores idle) for its price.
        offer = state.offer[idx].astype(np.intp)
        ship = np.maximum(offer, 0)
        r = np.arange(n)[:, None]
        placement = np.maximum(view.best_placement(self)[rows][r, ship], 0.0)
        use = self._contract_use(view, rows)[r, ship]
        price = TYPE_PRICE[ship]
        buy = 1.0 + np.maximum(placement, use) - coin[:, None] * price
        buy += self.buy_tv3 * (TYPE_TV[ship] == 3)
        # Keep a coin to send every idle ship (while turns are left to send them).
        short = view.coins[rows][:, None] - price < view.idle[rows].sum(axis=1)[:, None] + 1
        buy -= 1.5 * short * (view.turns_left[rows] > 0)[:, None]
        scores[rows, _A.BUY.start:_A.BUY.stop] = buy
        # SEND: the best pick on each expedition (the mask says which are legal there).
        picks = self._pick_values(view, rows)  # (n, 12, 24)
        scores[rows, _A.SEND.start:_A.SEND.stop] = np.where(
            self._pick_legal(view, rows), picks, NEG).max(axis=2)
        scores[rows, _A.PLAY.start:_A.PLAY.stop] = self._play_values(view, rows)
        scores[rows, _A.TAKE_DISPLAY.start:_A.BUY.start] = self._take_values(view, rows)
        scores[rows, _A.RESERVE_OFFER.start:] = self.reserve_value

    @staticmethod
    def _pick_legal(view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 12, 24) bool: the pick is legal on the expedition (§5.4; the compiled rule,
        ``legal.expedition_picks``)."""
        return expedition_picks(view.game, view.state, view.idx[rows])

    def _contract_use(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 18) value of a bought ship for the hand's contracts (none by default)."""
        return np.zeros((rows.size, NUM_TYPES))

    def _play_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 72) value of PLAY_CONTRACT(c, d): revenue, the track's gain for the task, the
        fees; NEG for a voyage that would not return before the end."""
        coin = view.coin[rows][:, None, None]
        revenue = CONTRACT_REVENUE[None].astype(np.float64)  # (1, 24, 3)
        fees = np.ceil(CONTRACT_TV / 2.5)[None, :, None]
        completed = view.state.completed[view.idx[rows], view.seat[rows]].astype(np.intp)
        gain = TRACK[np.minimum(completed + 1, len(TRACK) - 1)] - TRACK[completed]
        track = (gain * np.maximum(view.qualified[rows], 1.5))[:, None, None]
        duration = np.arange(1, 4)[None, None, :]
        value = (revenue * coin + track - fees * coin - self.lock_cost * duration
                 * CONTRACT_TV[None, :, None] / 3)
        value = np.where(duration <= view.turns_left[rows][:, None, None], value, NEG / 2)
        return self._play_preference(value).reshape(rows.size, -1)

    def _play_preference(self, value: np.ndarray) -> np.ndarray:
        return value

    def _take_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """(n, 5) value of TAKE_DISPLAY(0..3) and TAKE_BLIND (none by default)."""
        return np.full((rows.size, 5), -1.0)


class TraderExplorerAgent(DiscoveriesScriptedAgent):
    """§11 item 1, balanced greedy: contracts for money and the track, spare ships to
    expeditions."""

    name = "trader_explorer"
    expected_contracts = 2
    keep_ships = 2.5

    def _contract_use(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """A ship of a hand contract's colour is worth 1.2 VP per TV to it."""
        return 1.2 * TYPE_TV * view.contract_colours[rows][:, TYPE_COLOUR]

    def _take_values(self, view: _View, rows: np.ndarray) -> np.ndarray:
        """A face-up contract in a colour the seat owns ships of, while the hand holds 2 or
        fewer; a blind draw a little less."""
        state, idx = view.state, view.idx[rows]
        display = state.display[idx].astype(np.intp)
        colour = CONTRACT_COLOUR[np.maximum(display, 0)]
        owned = view.idle[rows].reshape(-1, NUM_COLOURS, 3) * np.arange(1, 4)
        tv = owned.sum(axis=2)  # (n, 6) idle TV per colour
        cover = np.minimum(tv[np.arange(rows.size)[:, None], colour]
                           / CONTRACT_TV[np.maximum(display, 0)], 1.0)
        coin = view.coin[rows][:, None]
        room = (view.hand_size[rows] <= 2)[:, None]
        face = np.where(room, 0.5 + 2.5 * cover - coin, -1.0)
        blind = np.where(room[:, 0], 0.6 - coin[:, 0], -1.0)
        return np.concatenate([face, blind[:, None]], axis=1)

    def _play_preference(self, value: np.ndarray) -> np.ndarray:
        """The longest voyage that returns in time (§11 item 1), large contracts first."""
        return value + 2.0 + 0.2 * CONTRACT_TV[None, :, None]


class ExpeditionRusherAgent(DiscoveriesScriptedAgent):
    """§11 item 2: cheap ships bought and sent at once; contracts only when already complete."""

    name = "expedition_rusher"
    buy_tv3 = -1.5
    capacity_cost = 0.5

    def _play_preference(self, value: np.ndarray) -> np.ndarray:
        """One-turn voyages only, and only when they pay more than the fees."""
        value = value.copy()
        value[:, :, 1:] = NEG / 2
        return value - 1.0


class ContractBiasedRandomAgent:
    """The random policy biased towards contracts of §10 (not a baseline): in MAIN, a legal
    PLAY_CONTRACT with probability 0.9, else a contract take while the hand holds fewer than
    3 with probability 0.5, else a ship of a hand contract's colour with probability 0.5,
    else uniform; uniform in the other decisions. It reads its own hand only."""

    name = "contract_biased"

    def __init__(self, num_players: int, seed: int = 0):
        self.generator = np.random.default_rng(seed)

    def act(self, game: Game, state: DiscoveriesState, player: int | np.ndarray) -> np.ndarray:
        mask = np.asarray(game.legal_action_mask(state))
        actions = sample_actions(mask, self.generator)
        b = state.batch_size
        u = self.generator.random((b, 3))
        main = ~state.done & (state.phase == PHASE.MAIN) & (
            state.current_player == np.asarray(player))
        seat = np.maximum(state.current_player, 0)
        hand = state.hand[np.arange(b), seat]
        for block, chance, extra in (
                ((_A.PLAY.start, _A.PLAY.stop), 0.9, None),
                ((_A.TAKE_DISPLAY.start, _A.BUY.start), 0.5, (hand >= 0).sum(axis=1) < 3),
                ((_A.BUY.start, _A.BUY.stop), 0.5, None)):
            sub = mask[:, block[0]:block[1]].copy()
            if block[0] == _A.BUY.start:
                colours = np.zeros((b, NUM_COLOURS + 1), dtype=bool)
                colours[np.arange(b)[:, None], np.where(hand >= 0, CONTRACT_COLOUR[
                    np.maximum(hand, 0)], NUM_COLOURS)] = True
                offer = state.offer
                sub &= colours[np.arange(b)[:, None], np.where(
                    offer >= 0, TYPE_COLOUR[np.maximum(offer, 0)], NUM_COLOURS)]
            pick = main & sub.any(axis=1) & (u[:, 0] < chance)
            if extra is not None:
                pick &= extra
            rows = np.flatnonzero(pick)
            if rows.size:
                actions[rows] = block[0] + sample_actions(sub[rows], self.generator)
            main &= ~pick
            u = u[:, [1, 2, 0]]
        return actions


BASELINES = {
    "trader_explorer": TraderExplorerAgent,
    "expedition_rusher": ExpeditionRusherAgent,
}
SOAK_POLICIES = {"contract_biased": ContractBiasedRandomAgent}
ISMCTS = {"guide": "trader_explorer"}  # agents.ismcts's defaults: the strongest baseline guides
