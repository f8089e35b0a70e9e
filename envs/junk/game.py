"""Dschunke (Junk): load cargo strips onto five junks, cash in with merchants and helpers, and
sell goods in repeated sealed-bid auctions, for 3 or 4 players.

The rules of the game specified in ``docs/rules/junk.md`` (its last section, "Amendments after
the implementation review", overrides the text above it), as per-row functions compiled with
numba (``rules/``). Ten rounds, each
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

The rules are per-row functions compiled with numba (``rules/``): ``legal.py`` (the mask of
every decision, and the forced ones), ``effects.py`` (the effect of every decision, the
setup, the cap), ``flow.py`` (rounds, turns and phases), ``hold.py`` (cargo), ``cards.py``
(special cards), ``scoring.py`` (§7) and ``queries.py`` (the rules for many rows at once, for
agents and tests). ``state.py`` holds the decisions, actions and state, ``data.py`` every
table of the rules; ``observation.py`` (the compiled encoder), ``render.py`` (text),
``picture.py`` (``draw``), ``resample.py`` and ``invariants.py`` read the same fields.

14. (design.md, forced decisions) A decision is applied inside ``step`` when its mask
    judged on public data has a single action: the masks of SETUP_JUNK, EXCH_TAKE,
    EVENT_PILE, GREY_TYPE, SUPPLY_PICK and AWARD_PILE read only public data; EXCH_RETURN,
    P2_MAIN, P2_AFTER and BID are judged by the same legal functions on what every seat
    knows of the acting seat's goods (the hand's size, for every type) and face-down cards
    (their number, for every EXTRA and END type); a SPECIAL_PICK when its pile holds one
    card. This forces exactly what VERSION 1's hand-written predicates forced.

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

from typing import Any

import numpy as np

from envs.core.compiled import CompiledGame
from envs.core.driver import RowRules
from envs.junk import observation, picture, render, resample
from envs.junk.data import (
    GOODS_PER_TYPE,
    HAND_START,
    MAX_LAYERS,
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
    STRIPS_PER_PLAYER,
    dealt_per_type,
)
from envs.junk.invariants import check_invariants
from envs.junk.rules import effects, legal, scoring
from envs.junk.rules.effects import PILE_OF_CARD, SETUP_STRIPS
from envs.junk.state import ACTIONS, JunkState, Phase, View, action_name

VERSION = 1

ROWS = RowRules(legal=legal.legal, forced=legal.forced, apply=effects.apply,
                phase=effects.phase, ranking=scoring.ranking, init_row=effects.init_row,
                observe_row=observation.observe_row, score_row=scoring.score_row)


class JunkGame(CompiledGame):
    """The rules of Dschunke for one player count and options (see the module docstring)."""

    ENV_ID = "junk"
    VERSION = VERSION
    PLAYER_COUNTS = (3, 4)
    DEFAULT_PLAYERS = 4
    HAS_HIDDEN_INFO = True  # hands, face-down cards, piles, market deck, pending bids
    OPTIONS = {"setup": "fixed", "hide_money": False, "hide_stacks": False}
    OPTION_CHOICES = {"setup": ("fixed", "variable")}
    ROWS, VIEW, Phase = ROWS, View, Phase
    NUM_RANKING_KEYS = 2  # §7: score, then goods cards left in hand
    DECISIONS = tuple(p for p in Phase if p != Phase.GAME_OVER)
    # The decisions ``legal.forced`` may apply: all but SETUP_JUNK (its mask always offers
    # two junks at least) and P2_AFTER (entered only with an EXTRA card playable in public).
    AUTOMATIC = frozenset(DECISIONS) - {Phase.SETUP_JUNK, Phase.P2_AFTER}

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        players = self.num_players
        self.num_actions = ACTIONS.size
        self.variable = self.options["setup"] == "variable"
        self.hide_money = self.options["hide_money"]
        self.hide_stacks = self.options["hide_stacks"]
        self.observer = observation.Observer(players)
        self.observation_shape = (self.observer.layout.size,)
        self.action_layout, self.observation_layout = ACTIONS, self.observer.layout
        self.observation_low, self.observation_high = self.observer.bounds
        # §9.3: at most 16 + 18 N decisions a round (20 N counted), 3 N for the setup.
        self.round_decisions = 16 + 18 * players
        self.max_decisions = NUM_ROUNDS * (16 + 20 * players) + 3 * players
        # Every round asks its first seat's P2_MAIN (two merchants at least are open), so a
        # chain of automatic decisions never spans more than two rounds.
        self.max_chain = 2 * self.round_decisions
        self.params = np.array([self.variable, self.hide_money, self.hide_stacks,
                                self.max_decisions], dtype=np.int64)

    def _allocate(self, batch_size: int) -> JunkState:
        """New games' arrays, before ``effects.init_row`` shuffles, deals and sets up each."""
        num, players = batch_size, self.num_players

        def full(shape: tuple[int, ...], value: Any, dtype: Any) -> np.ndarray:
            return np.full((num, *shape), value, dtype=dtype)

        return JunkState(
            current_player=full((), 0, np.int32),
            terminated=full((), False, bool),
            truncated=full((), False, bool),
            rewards=full((players,), 0, np.float32),
            rng=full((2,), 0, np.uint64),
            phase=full((), Phase.SETUP_JUNK, np.int8),
            round=full((), 0, np.int8),
            pos=full((), 0, np.int8),
            decisions=full((), 0, np.int16),
            cargo=full((NUM_JUNKS, MAX_LAYERS, SLOTS), -1, np.int8),
            height=full((NUM_JUNKS,), -1, np.int8),
            layers=full((NUM_JUNKS, 3, players), 0, np.int8),
            vis=full((NUM_JUNKS, players), 0, np.int8),
            open_slots=full((NUM_JUNKS,), 0, np.int8),
            presence=full((players,), 0, np.int8),
            strips=full((players,), STRIPS_PER_PLAYER - SETUP_STRIPS, np.int8),
            to_place=full((players,), 0, np.int8),
            merchant_junk=full((3,), 0, np.int8),
            merchants_hidden=full((), False, bool),
            fig_used=full((NUM_FIGURES,), False, bool),
            hand=full((players, NUM_GOODS), 0, np.int8),
            hand_size=full((players,), HAND_START, np.int8),
            flow=full((players, NUM_GOODS), 0, np.int8),
            flow_min=full((players, NUM_GOODS), 0, np.int8),
            stack=full((NUM_GOODS,), GOODS_PER_TYPE - dealt_per_type(players), np.int8),
            money=full((players,), 0, np.int16),
            announced=full((players,), 0, np.int16),
            announce_round=full((), 0, np.int8),
            market_order=full((NUM_MARKET_CARDS,), 0, np.int8),
            unrevealed=full((NUM_MARKET_CARDS,), True, bool),
            sold=full((NUM_GOODS,), False, bool),
            card_type=full((NUM_SPECIAL_CARDS,), 0, np.int8),
            card_loc=np.broadcast_to(PILE_OF_CARD, (num, NUM_SPECIAL_CARDS)).copy(),
            card_key=full((players, NUM_SPECIAL_CARDS), 0, np.int8),
            pile_cards=full((NUM_PILES, NUM_SPECIAL_TYPES), 0, np.int8),
            pile_size=np.broadcast_to(PILE_SIZES, (num, NUM_PILES)).copy(),
            held=full((players, NUM_SPECIAL_TYPES), 0, np.int8),
            hidden=full((players,), 0, np.int8),
            always=full((players, 3), 0, np.int8),
            discarded=full((NUM_SPECIAL_TYPES,), 0, np.int8),
            searched=full((players, NUM_PILES), 0, np.int8),
            seen=full((players, NUM_PILES, NUM_SPECIAL_TYPES), 0, np.int8),
            taken=full((players, NUM_PILES), 0, np.int8),
            extra_used=full((players,), False, bool),
            bid_round=full((), 0, np.int8),
            pending=full((players,), -1, np.int16),
            committed=full((players,), False, bool),
            had_bid=full((), False, bool),
            lr_round=full((), 0, np.int8),
            lr_bid_round=full((), 0, np.int8),
            lr_bid=full((players,), -1, np.int16),
            lr_payout=full((players,), 0, np.int8),
            lr_sold=full((NUM_GOODS,), False, bool),
            lr_taker=full((), -1, np.int8),
            lr_pile=full((), -1, np.int8),
            lr_yuan=full((), False, bool),
            main_done=full((), False, bool),
            grey_from_extra=full((), False, bool),
            goods_left=full((), 0, np.int8),
            returned=full((), 0, np.int8),
            takes_left=full((), 0, np.int8),
            second_exchange=full((), False, bool),
            event_chosen=full((NUM_PILES,), False, bool),
            pick_pile=full((), -1, np.int8),
            pick_award=full((), False, bool),
            picks_left=full((), 0, np.int8),
            setup_left=full((), 0, np.int8),
        )

    # ---------------------------------------------------------------- public pieces
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
