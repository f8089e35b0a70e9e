"""Dschunke (Junk): load cargo strips onto five junks, cash in with merchants and helpers, and
sell goods in repeated sealed-bid auctions, for 3 or 4 players.

Batched NumPy rules of the game specified in ``docs/rules/junk.md``; its last section,
"Amendments after the implementation review", overrides the text above it. Ten rounds, each
of them: a market card turned and the round's event (Phase 1: EXCHANGE cards, the S event's
special cards, the Y event's money announcement); one action per seat with a merchant or a
helper, plus at most one EXTRA card before or after it (Phase 2); the supply picks (Phase 3);
and the goods auction (Phase 4), whose secret bids are committed in turn order into hidden
state and revealed together in the step of the last commit. Every decision whose single
legal action follows from public data alone is applied by core's forced-decision loop
(§5.0); every automatic step of the rules (the market card, the events, bid resolution, the
round change) happens inside the step that leads to it. Chance (the deal, the market deck,
the special-card piles, the variable setup's merchants) is drawn from each row's own
counter-based generator at ``init``; nothing is drawn later.

Implementation choices where the spec leaves room (numbered after its §8 where they refine
an ambiguity):

1. (§5.5) With the designed market cards at most one S award arises per reveal (each card
   has one S); the env handles exactly one, so an S award never queues behind another.
2. (§5.2, §6) A seat's "last-seen composition" of a pile is what it left there, after its own
   pick (while it picks, what it found). "Cards taken from each pile since its own last
   search" is the last-seen size minus the pile's size now, or, for a pile it never
   searched, the start size minus the size now.
3. (§5.5) After a reveal the seats' pending bids and committed flags are cleared; the
   "last reveal" block keeps the revealed bids (an all-pass reveal included) until the next.
4. (§9.2) The payout of the last reveal includes the round-10 3 Yuan of an S award.
5. (§9.2) ``e(j)`` is written as 0 for an empty hold; ``h(j) + 1`` is then 0 as well.
6. (§6) Steps that show hidden information (``state.revealed``): the deal, every market card
   turned, a pile searched (to its searcher), every card taken from a pile (to all seats:
   whether it went face up tells its class), every EXTRA card played, the reveal of the
   bids, the merchants turned face up, the Y event under ``hide_money``, and the last step of
   a game (final scoring shows the END cards and, under ``hide_money``, all money).
7. (§7, §9.3) The decision counter behind the safety cap counts every decision, asked and
   automatic (amendment 11); reaching ``max_decisions`` truncates the game.
8. (§5.2) In the S event the seats without a legal pile (all piles empty) are skipped; the
   event then ends at once, since no pile can fill up again.
9. (§6, "Resampling hidden information") ``resample_hidden`` draws from what the seat knows
   only (counts, sorted types, public sets; never the order in which the true state stores
   them). The other seats' initial goods are dealt by rejection (a handful of shuffles per
   row), then, for rows where every try broke a lower bound, by placing the lower bounds
   first and dealing the rest at random (never the true deal); face-down cards of other
   seats only ever receive EXTRA or END types (an ALWAYS card would lie face up); the other
   seats' memories of the piles are recounted from the redrawn cards; a finished game is
   kept whole.
10. (§9.2) The features are those of §9.2, grouped for the encoder (``observation.py``): the
    per-seat ones seat by seat, so the acting seat, the start player and the S award's taker
    are a flag in each seat's block rather than a separate one-hot; the option flags sit with
    the round's constant features.
11. (§2.3) The state keeps what the rules and the observation read again and again, updated
    only where it changes: ``vis``, the top layers' strip counts, open slots and presence per
    junk and seat; hand sizes, face-down counts, pile sizes; the unrevealed market cards. The
    invariants check each against the arrays it derives from.
12. A finished row keeps the ``revealed`` record of the step that ended it (core's ``step``
    clears the record only in the rows it plays, so a finished row does not change at all).
13. (§5.2) Which card of a type is taken, played or moved is irrelevant: the lowest card id.

Modules: ``state.py`` (decisions, actions, state), ``data.py`` (every table of the rules),
``hold.py`` (cargo), ``cards.py`` (special cards), ``phase2.py`` (actions), ``auction.py``
(Phase 4), ``observation.py``, ``render.py`` (text), ``picture.py`` (``draw``),
``resample.py``, ``scoring.py``, ``invariants.py``.

======================  =============================================================
players                 3, 4 (default 4)
actions                 161 (§9.1 flat layout, ``state.ACTIONS``), the same for 3 and 4
observation             flat float32; 465 (3p), 523 (4p), in [0, 1] (flows in [-1, 1])
rewards                 rank-based at the end on (score, goods in hand), 0 otherwise
longest game            ``max_decisions`` = 160 + 203 N: 769 (3p), 972 (4p), the cap
VERSION                 1
======================  =============================================================
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from envs.core.arrays import last_axis_sums, second_last_axis_sums
from envs.core.decisions import Decision
from envs.core.game import Game
from envs.core.rng import make_rng, permutation
from envs.junk import (
    auction,
    cards,
    hold,
    observation,
    phase2,
    picture,
    render,
    resample,
    scoring,
)
from envs.junk.data import (
    EVENT_S,
    EVENT_Y,
    EVENTS,
    EXCHANGE,
    GOODS_PER_TYPE,
    HAND_START,
    INITIAL_CARGO,
    MAX_LAYERS,
    MERCHANT_START,
    NUM_FIGURES,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_MARKET_CARDS,
    NUM_PILES,
    NUM_ROUNDS,
    NUM_SPECIAL_CARDS,
    NUM_SPECIAL_TYPES,
    PILE_SIZES,
    SLOTS,
    SPECIAL_COUNTS,
    STRIPS_PER_PLAYER,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
    dealt_per_type,
)
from envs.junk.invariants import check_invariants
from envs.junk.state import ACTIONS, PHASE, A, JunkState, Phase, action_name

VERSION = 1
_PILE_OF_CARD = np.repeat(np.arange(NUM_PILES), PILE_SIZES).astype(np.int8)  # (30,)
_CARD_TYPES = np.repeat(np.arange(NUM_SPECIAL_TYPES), SPECIAL_COUNTS).astype(np.int8)  # (30,)
_SETUP_STRIPS = 3  # §3 variable setup: every seat places 3 strips of its right neighbour


class JunkGame(Game[JunkState]):
    """The rules of Dschunke for one player count and options (see the module docstring)."""

    ENV_ID = "junk"
    VERSION = VERSION
    PLAYER_COUNTS = (3, 4)
    DEFAULT_PLAYERS = 4
    HAS_HIDDEN_INFO = True  # hands, face-down cards, piles, market deck, pending bids
    OPTIONS = {"setup": "fixed", "hide_money": False, "hide_stacks": False}
    OPTION_CHOICES = {"setup": ("fixed", "variable")}

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        players = self.num_players
        self.num_actions = ACTIONS.size
        self.variable = self.options["setup"] == "variable"
        self.hide_money = self.options["hide_money"]
        self.hide_stacks = self.options["hide_stacks"]
        self.observer = observation.Observer(players, self.options)
        self.observation_shape = (self.observer.layout.size,)
        self.action_layout, self.observation_layout = ACTIONS, self.observer.layout
        self.observation_low, self.observation_high = self.observer.bounds
        # §9.3: at most 16 + 18 N decisions a round (20 N counted), 3 N for the setup.
        self.round_decisions = 16 + 18 * players
        self.max_decisions = NUM_ROUNDS * (16 + 20 * players) + 3 * players
        # (11, N) seat at each turn position of each round (0 = the setup).
        rounds = np.maximum(np.arange(NUM_ROUNDS + 1) - 1, 0)
        self._seat_table = ((rounds[:, None] + np.arange(players)) % players).astype(np.int32)
        # Every round asks its first seat's P2_MAIN (two merchants at least are open), so a
        # chain of automatic decisions never spans more than two rounds.
        self.max_chain = 2 * self.round_decisions
        self.decisions = {
            PHASE.SETUP_JUNK: Decision("SETUP_JUNK", self._legal_setup, self._apply_setup),
            PHASE.EXCH_RETURN: Decision("EXCH_RETURN", self._legal_return, self._apply_return,
                                        self._forced_empty_hand),
            PHASE.EXCH_TAKE: Decision("EXCH_TAKE", self._legal_stacks, self._apply_exch_take,
                                      self._forced_one_stack),
            PHASE.EVENT_PILE: Decision("EVENT_PILE", self._legal_event_pile,
                                       self._apply_event_pile, self._forced_event_pile),
            PHASE.SPECIAL_PICK: Decision("SPECIAL_PICK", self._legal_pick, self._apply_pick,
                                         self._forced_pick),
            PHASE.P2_MAIN: Decision("P2_MAIN", phase2.legal_main,
                                    partial(phase2.apply_turn, self),
                                    phase2.forced_main),
            PHASE.P2_AFTER: Decision("P2_AFTER", phase2.legal_after,
                                     partial(phase2.apply_turn, self)),
            PHASE.GREY_TYPE: Decision("GREY_TYPE", self._legal_stacks,
                                      partial(phase2.apply_grey, self),
                                      self._forced_one_stack),
            PHASE.SUPPLY_PICK: Decision("SUPPLY_PICK", self._legal_stacks, self._apply_supply,
                                        self._forced_one_stack),
            PHASE.BID: Decision("BID", auction.legal_bid,
                                partial(auction.apply_bid, self),
                                self._forced_empty_hand),
            PHASE.AWARD_PILE: Decision("AWARD_PILE", auction.legal_award,
                                       partial(auction.apply_award, self),
                                       auction.forced_award),
        }

    # ---------------------------------------------------------------- setup (§3)
    def _init(self, seeds: np.ndarray) -> JunkState:
        num, players = len(seeds), self.num_players
        rng = make_rng(seeds)
        market = permutation(rng, None, NUM_MARKET_CARDS).astype(np.int8)
        card_type = _CARD_TYPES[permutation(rng, None, NUM_SPECIAL_CARDS)]
        dealt = dealt_per_type(players)
        goods = np.repeat(np.arange(NUM_GOODS), dealt)  # the D cards of each type
        deal = goods[permutation(rng, None, goods.size)].reshape(num, players, HAND_START)
        hand = (deal[..., None] == np.arange(NUM_GOODS)).sum(axis=2).astype(np.int8)
        if self.variable:
            merchant_junk = permutation(rng, None, NUM_JUNKS)[:, :3].astype(np.int8)
        else:
            merchant_junk = np.broadcast_to(MERCHANT_START, (num, 3)).copy()
        pile_cards = np.zeros((num, NUM_PILES, NUM_SPECIAL_TYPES), dtype=np.int8)
        np.add.at(pile_cards, (np.arange(num)[:, None], _PILE_OF_CARD[None, :], card_type), 1)
        zeros = np.zeros
        state = JunkState(
            current_player=zeros(num, dtype=np.int32),
            terminated=zeros(num, dtype=bool),
            truncated=zeros(num, dtype=bool),
            rewards=zeros((num, players), dtype=np.float32),
            rng=rng,
            phase=np.full(num, PHASE.SETUP_JUNK, dtype=np.int8),
            round=zeros(num, dtype=np.int8),
            pos=zeros(num, dtype=np.int8),
            decisions=zeros(num, dtype=np.int16),
            cargo=np.full((num, NUM_JUNKS, MAX_LAYERS, SLOTS), -1, dtype=np.int8),
            height=np.full((num, NUM_JUNKS), -1, dtype=np.int8),
            layers=zeros((num, NUM_JUNKS, 3, players), dtype=np.int8),
            vis=zeros((num, NUM_JUNKS, players), dtype=np.int8),
            open_slots=zeros((num, NUM_JUNKS), dtype=np.int8),
            presence=zeros((num, players), dtype=np.int8),
            strips=np.full((num, players), STRIPS_PER_PLAYER - _SETUP_STRIPS, dtype=np.int8),
            to_place=zeros((num, players), dtype=np.int8),
            merchant_junk=merchant_junk,
            merchants_hidden=np.full(num, self.variable),
            fig_used=zeros((num, NUM_FIGURES), dtype=bool),
            hand=hand,
            hand_size=np.full((num, players), HAND_START, dtype=np.int8),
            flow=zeros((num, players, NUM_GOODS), dtype=np.int8),
            flow_min=zeros((num, players, NUM_GOODS), dtype=np.int8),
            stack=np.full((num, NUM_GOODS), GOODS_PER_TYPE - dealt, dtype=np.int8),
            money=zeros((num, players), dtype=np.int16),
            announced=zeros((num, players), dtype=np.int16),
            announce_round=zeros(num, dtype=np.int8),
            market_order=market,
            unrevealed=np.ones((num, NUM_MARKET_CARDS), dtype=bool),
            sold=zeros((num, NUM_GOODS), dtype=bool),
            card_type=card_type,
            card_loc=np.broadcast_to(_PILE_OF_CARD, (num, NUM_SPECIAL_CARDS)).copy(),
            card_key=zeros((num, players, NUM_SPECIAL_CARDS), dtype=np.int8),
            pile_cards=pile_cards,
            pile_size=np.broadcast_to(PILE_SIZES, (num, NUM_PILES)).copy(),
            held=zeros((num, players, NUM_SPECIAL_TYPES), dtype=np.int8),
            hidden=zeros((num, players), dtype=np.int8),
            always=zeros((num, players, 3), dtype=np.int8),
            discarded=zeros((num, NUM_SPECIAL_TYPES), dtype=np.int8),
            searched=zeros((num, players, NUM_PILES), dtype=np.int8),
            seen=zeros((num, players, NUM_PILES, NUM_SPECIAL_TYPES), dtype=np.int8),
            taken=zeros((num, players, NUM_PILES), dtype=np.int8),
            extra_used=zeros((num, players), dtype=bool),
            bid_round=zeros(num, dtype=np.int8),
            pending=np.full((num, players), -1, dtype=np.int16),
            committed=zeros((num, players), dtype=bool),
            had_bid=zeros(num, dtype=bool),
            lr_round=zeros(num, dtype=np.int8),
            lr_bid_round=zeros(num, dtype=np.int8),
            lr_bid=np.full((num, players), -1, dtype=np.int16),
            lr_payout=zeros((num, players), dtype=np.int8),
            lr_sold=zeros((num, NUM_GOODS), dtype=bool),
            lr_taker=np.full(num, -1, dtype=np.int8),
            lr_pile=np.full(num, -1, dtype=np.int8),
            lr_yuan=zeros(num, dtype=bool),
            main_done=zeros(num, dtype=bool),
            grey_from_extra=zeros(num, dtype=bool),
            goods_left=zeros(num, dtype=np.int8),
            returned=zeros(num, dtype=np.int8),
            takes_left=zeros(num, dtype=np.int8),
            second_exchange=zeros(num, dtype=bool),
            event_chosen=zeros((num, NUM_PILES), dtype=bool),
            pick_pile=np.full(num, -1, dtype=np.int8),
            pick_award=zeros(num, dtype=bool),
            picks_left=zeros(num, dtype=np.int8),
            setup_left=zeros(num, dtype=np.int8),
        )
        state.revealed[:] = True  # every seat sees its own hand
        rows = np.arange(num)
        if self.variable:
            state.to_place[:] = _SETUP_STRIPS
            state.setup_left[:] = _SETUP_STRIPS * players
        else:
            for junk, owners in enumerate(INITIAL_CARGO[players]):
                state.cargo[:, junk, 0, : len(owners)] = owners
            state.height[:] = 0
            for junk in range(NUM_JUNKS):
                hold.refresh(state, rows, np.full(num, junk))
            self._start_round(state, rows)
        return state

    def _legal_setup(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.SETUP_JUNK, (state.cargo[rows, :, 0] >= 0).sum(
            axis=2) < SLOTS)

    def _apply_setup(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        """§5.6: the strip (of the placer's right neighbour) goes onto the chosen junk."""
        players = self.num_players
        placer = state.current_player[rows]
        colour = (placer - 1) % players
        hold.place(state, rows, actions - A.SETUP_JUNK, colour)
        state.to_place[rows, colour] -= 1
        state.setup_left[rows] -= 1
        state.current_player[rows] = (placer + 1) % players
        done = rows[state.setup_left[rows] == 0]
        if done.size:  # the merchants are turned face up; round 1 begins
            state.merchants_hidden[done] = False
            state.revealed[done] = True
            self._start_round(state, done)

    # ---------------------------------------------------------------- the round (§4)
    def seat_at(self, state: JunkState, rows: np.ndarray, pos: np.ndarray | int) -> np.ndarray:
        """(R,) int32 the seat at turn position ``pos`` of the rows' round (0 = the start
        player, seat ``(round - 1) mod N``; seat 0 during the setup)."""
        return self._seat_table[state.round[rows], pos]

    def _start_round(self, state: JunkState, rows: np.ndarray) -> None:
        """Phase 1a: the next market card is turned (every seat sees it); the goods are
        unsold again; then the exchange window."""
        if not rows.size:
            return
        state.round[rows] += 1
        state.unrevealed[rows, state.market_order[rows, state.round[rows] - 1]] = False
        state.sold[rows] = False
        state.revealed[rows] = True
        self._seek_exchange(state, rows, np.zeros(rows.size, dtype=np.int64))

    def _seek_exchange(self, state: JunkState, rows: np.ndarray, slot: np.ndarray) -> None:
        """Phase 1b: the next exchange from ``slot`` (2 × turn position + second) on: one per
        EXCHANGE card of each seat, in turn order; then the event."""
        players = self.num_players
        if not rows.size:
            return
        if not state.always[rows, :, EXCHANGE].any():  # the usual case: no EXCHANGE card
            self._start_event(state, rows)
            return
        seats = self.seat_at(state, rows[:, None], np.arange(players)[None, :])  # (R, P)
        owned = state.always[rows[:, None], seats, EXCHANGE]  # (R, P)
        slots = np.arange(2 * players)
        open_slot = (slots[None, :] % 2 < owned[:, slots // 2]) & (slots[None, :] >= slot[:, None])
        found = open_slot.any(axis=1)
        going, first = rows[found], np.argmax(open_slot[found], axis=1)
        if going.size:
            state.phase[going] = PHASE.EXCH_RETURN
            state.pos[going] = first // 2
            state.second_exchange[going] = first % 2 == 1
            state.current_player[going] = self.seat_at(state, going, first // 2)
            state.returned[going] = 0
            state.takes_left[going] = 0
        self._start_event(state, rows[~found])

    def _end_exchange(self, state: JunkState, rows: np.ndarray) -> None:
        if not rows.size:
            return
        state.returned[rows] = 0
        state.takes_left[rows] = 0
        slot = 2 * state.pos[rows].astype(np.int64) + state.second_exchange[rows] + 1
        state.second_exchange[rows] = False
        self._seek_exchange(state, rows, slot)

    def _start_event(self, state: JunkState, rows: np.ndarray) -> None:
        """Phase 1c: the event of the lower helper's space (§2.4)."""
        if not rows.size:
            return
        event = EVENTS[state.round[rows] - 1]
        s_rows, y_rows = rows[event == EVENT_S], rows[event == EVENT_Y]
        if y_rows.size:  # everyone's money is announced
            state.announced[y_rows] = state.money[y_rows]
            state.announce_round[y_rows] = state.round[y_rows]
            if self.hide_money:
                state.revealed[y_rows] = True
        state.event_chosen[s_rows] = False
        self._seek_event(state, s_rows, np.zeros(s_rows.size, dtype=np.int64))
        self._start_phase2(state, rows[event != EVENT_S])

    def _seek_event(self, state: JunkState, rows: np.ndarray, pos: np.ndarray) -> None:
        """The S event's pile choice of the seat at ``pos``; past the last seat, or with every
        pile empty, Phase 2."""
        if not rows.size:
            return
        going = (pos < self.num_players) & (state.pile_size[rows] > 0).any(axis=1)
        ask = rows[going]
        if ask.size:
            state.phase[ask] = PHASE.EVENT_PILE
            state.pos[ask] = pos[going]
            state.current_player[ask] = self.seat_at(state, ask, pos[going])
        self._start_phase2(state, rows[~going])

    def _start_phase2(self, state: JunkState, rows: np.ndarray) -> None:
        if not rows.size:
            return
        state.pos[rows] = 0
        self.start_turn(state, rows)

    def start_turn(self, state: JunkState, rows: np.ndarray) -> None:
        """Phase 2: the turn of the seat at ``pos`` begins with its P2_MAIN."""
        if not rows.size:
            return
        state.phase[rows] = PHASE.P2_MAIN
        state.main_done[rows] = False
        state.grey_from_extra[rows] = False
        state.current_player[rows] = self.seat_at(state, rows, state.pos[rows])

    def after_main(self, state: JunkState, rows: np.ndarray) -> None:
        """§5.3: on to P2_AFTER iff the public gate holds (no EXTRA card played this round,
        a face-down card held), else the turn ends."""
        if not rows.size:
            return
        seats = state.current_player[rows]
        gate = ~state.extra_used[rows, seats] & (state.hidden[rows, seats] > 0)
        state.phase[rows[gate]] = PHASE.P2_AFTER
        self.end_turn(state, rows[~gate])

    def end_turn(self, state: JunkState, rows: np.ndarray) -> None:
        if not rows.size:
            return
        state.pos[rows] += 1
        last = state.pos[rows] >= self.num_players
        self.start_turn(state, rows[~last])
        state.pos[rows[last]] = 0
        self._seek_supply(state, rows[last])

    def _seek_supply(self, state: JunkState, rows: np.ndarray) -> None:
        """Phase 3: the supply picks of the seat at ``pos``; past the last seat, or with
        every stack empty, the auction."""
        if not rows.size:
            return
        going = (state.pos[rows] < self.num_players) & (state.stack[rows] > 0).any(axis=1)
        ask = rows[going]
        if ask.size:
            seats = self.seat_at(state, ask, state.pos[ask])
            state.phase[ask] = PHASE.SUPPLY_PICK
            state.current_player[ask] = seats
            state.picks_left[ask] = SUPPLY_CARDS + state.always[ask, seats, SUPPLY_PLUS]
        auction.start_auction(self, state, rows[~going])

    def end_round(self, state: JunkState, rows: np.ndarray) -> None:
        """Phases 5 and 6: the merchants move one junk clockwise, the figures and EXTRA
        cards are fresh again, the start player passes on; after round 10 the game ends."""
        if not rows.size:
            return
        state.merchant_junk[rows] = (state.merchant_junk[rows] + 1) % NUM_JUNKS
        state.fig_used[rows] = False
        state.extra_used[rows] = False
        state.bid_round[rows] = 0
        last = state.round[rows] >= NUM_ROUNDS
        over = rows[last]
        state.terminated[over] = True
        state.phase[over] = PHASE.GAME_OVER
        state.revealed[over] = True  # final scoring shows the END cards (and all money)
        self._start_round(state, rows[~last])

    # ---------------------------------------------------------------- goods moves
    @staticmethod
    def gain(state: JunkState, rows: np.ndarray, seats: np.ndarray, goods: np.ndarray,
             counts: np.ndarray | int = 1) -> None:
        """Seats take ``counts`` goods of type ``goods`` from the stacks (public)."""
        state.hand[rows, seats, goods] += counts
        state.hand_size[rows, seats] += counts
        state.flow[rows, seats, goods] += counts
        state.stack[rows, goods] -= counts

    @staticmethod
    def give_back(state: JunkState, rows: np.ndarray, seats: np.ndarray | slice,
                  counts: np.ndarray) -> None:
        """Seats put goods from their hands onto the stacks (public): ``counts`` (R, 4) of
        seats ``seats`` (R,), or (R, P, 4) of every seat for ``seats = slice(None)``."""
        counts = counts.astype(np.int8)
        hand = state.hand[rows, seats] - counts
        flow = state.flow[rows, seats] - counts
        state.hand[rows, seats] = hand
        state.hand_size[rows, seats] -= last_axis_sums(counts).astype(np.int8)
        state.flow[rows, seats] = flow
        state.flow_min[rows, seats] = np.minimum(state.flow_min[rows, seats], flow)
        state.stack[rows] += counts if counts.ndim == 2 else second_last_axis_sums(
            counts).astype(np.int8)

    # ---------------------------------------------------------------- shared predicates
    def _legal_stacks(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        """GOODS[g] for every non-empty stack (EXCH_TAKE, GREY_TYPE, SUPPLY_PICK)."""
        return ACTIONS.block_mask(ACTIONS.GOODS, state.stack[rows] > 0)

    @staticmethod
    def _forced_one_stack(state: JunkState, rows: np.ndarray) -> np.ndarray:
        return (state.stack[rows] > 0).sum(axis=1) == 1

    @staticmethod
    def _forced_empty_hand(state: JunkState, rows: np.ndarray) -> np.ndarray:
        """The hand is empty (hand sizes are public): DONE, or PASS_BID."""
        return state.hand_size[rows, state.current_player[rows]] == 0

    # ---------------------------------------------------------------- Phase 1 (§5.1, §5.2)
    def _legal_return(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        mask = ACTIONS.block_mask(ACTIONS.RETURN,
                                  state.hand[rows, state.current_player[rows]] > 0)
        mask[:, A.DONE] = True
        return mask

    def _apply_return(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        done = actions == A.DONE
        back = rows[~done]
        if back.size:
            goods = actions[~done] - A.RETURN
            counts = (goods[:, None] == np.arange(NUM_GOODS)).astype(np.int8)
            self.give_back(state, back, state.current_player[back], counts)
            state.returned[back] += 1
        to_take = rows[done | (state.returned[rows] >= 2)]
        declined = to_take[state.returned[to_take] == 0]
        to_take = to_take[state.returned[to_take] > 0]
        state.phase[to_take] = PHASE.EXCH_TAKE
        state.takes_left[to_take] = state.returned[to_take]
        self._end_exchange(state, declined)

    def _apply_exch_take(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        self.gain(state, rows, state.current_player[rows], actions - A.GOODS)
        state.takes_left[rows] -= 1
        self._end_exchange(state, rows[state.takes_left[rows] == 0])

    def _legal_event_pile(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.PILE, self._event_piles(state, rows))

    @staticmethod
    def _event_piles(state: JunkState, rows: np.ndarray) -> np.ndarray:
        """(R, 4) bool piles open to the S event's chooser (§5.2; public)."""
        nonempty = state.pile_size[rows] > 0
        fresh = nonempty & ~state.event_chosen[rows]
        return np.where(fresh.any(axis=1, keepdims=True), fresh, nonempty)

    def _forced_event_pile(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        return self._event_piles(state, rows).sum(axis=1) == 1

    def _apply_event_pile(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        piles = actions - A.PILE
        state.event_chosen[rows, piles] = True
        self.enter_pick(state, rows, piles, award=False)

    def enter_pick(self, state: JunkState, rows: np.ndarray, piles: np.ndarray,
                   award: bool) -> None:
        """The seat to act searches pile ``piles`` and is asked its SPECIAL_PICK."""
        cards.search(state, rows, state.current_player[rows], piles)
        state.phase[rows] = PHASE.SPECIAL_PICK
        state.pick_pile[rows] = piles
        state.pick_award[rows] = award

    def _legal_pick(self, state: JunkState, rows: np.ndarray) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.SPECIAL,
                                  state.pile_cards[rows, state.pick_pile[rows]] > 0)

    @staticmethod
    def _forced_pick(state: JunkState, rows: np.ndarray) -> np.ndarray:
        """A pile of one card (pile sizes are public)."""
        return state.pile_size[rows, state.pick_pile[rows]] == 1

    def _apply_pick(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        cards.take(state, rows, state.current_player[rows], state.pick_pile[rows].astype(
            np.intp), actions - A.SPECIAL)
        state.pick_pile[rows] = -1
        award = state.pick_award[rows]
        state.pick_award[rows] = False
        auction.after_bidding_round(self, state, rows[award])
        event = rows[~award]
        self._seek_event(state, event, state.pos[event].astype(np.int64) + 1)

    # ---------------------------------------------------------------- Phase 3 (§5.4)
    def _apply_supply(self, state: JunkState, rows: np.ndarray, actions: np.ndarray) -> None:
        self.gain(state, rows, state.current_player[rows], actions - A.GOODS)
        state.picks_left[rows] -= 1
        done = state.picks_left[rows] == 0
        state.pos[rows[done]] += 1
        dry = ~(state.stack[rows] > 0).any(axis=1)
        self._seek_supply(state, rows[done | dry])

    # ---------------------------------------------------------------- the cap (§7, §9.3)
    def _end_step(self, state: JunkState, rows: np.ndarray) -> None:
        made = state.decisions[rows] + 1
        state.decisions[rows] = made
        if made.max() >= self.max_decisions:  # never in a legal game (§9.3)
            capped = rows[~state.terminated[rows] & (made >= self.max_decisions)]
            state.truncated[capped] = True

    # ---------------------------------------------------------------- the rest of the protocol
    def observe(self, state: JunkState, player: int | np.ndarray) -> np.ndarray:
        return self.observer.observe(state, player)

    def scores(self, state: JunkState) -> np.ndarray:
        return scoring.scores(state).astype(np.float64)

    def ranking_keys(self, state: JunkState) -> np.ndarray:
        """§7: (score, goods cards left in hand), compared in that order."""
        return np.stack([scoring.scores(state), state.hand_size], axis=2)

    def render(self, state: JunkState, index: int = 0, seat: int | None = None) -> str:
        return render.render(self, state, index, seat)

    def draw(self, state: JunkState, index: int = 0, seat: int | None = None) -> np.ndarray:
        return picture.draw(self, state, index, seat)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def decision_name(self, state: JunkState, row: int) -> str:
        return Phase(int(state.phase[row])).name

    def resample_hidden(self, state: JunkState, player: int, seed: int) -> JunkState:
        return resample.resample_hidden(self, state, player, seed)

    def check_invariants(self, state: JunkState) -> list[str]:
        return check_invariants(self, state)
