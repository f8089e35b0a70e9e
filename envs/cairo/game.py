"""Kairo (Cairo): traders place market stalls, lure customers and expand for VP.

Batched NumPy rules of the game specified in ``docs/rules/cairo.md`` for 2, 3 and 4
players: stalls in six colours on a 14 × 13 board of nine market sections and a restaurant
strip, stall cards to build, customers lured to entrances for money, expansions paid in the
group's colour (2:1 substitution), medals for the largest groups, and a build-only final
phase once the expansion supply runs low. One decision per step; chance (shuffles, the
customer bag, the start player, neutral draws, display refills) is drawn from each row's own
counter-based generator.

Implementation choices (numbered after the spec's ambiguity list, §8, where they refine it):

1. (R25) An unplaceable neutral stall goes back to the box and uses up its step; the next
   step goes to the other player, so the alternation of §5.9.2 never changes.
2. (§5.9.1) A setup placement with no legal option is skipped automatically; so is a whole
   setup turn. Neither has been seen on this board.
3. (§6) "Known" hand cards are the cards a seat took face up from the display. When that seat
   plays or discards a card of a known type, the known count of the type drops by one
   (floored at 0): observers cannot tell which copy left the hand.
4. (§4.1, §7.4) ``max_turns`` counts completed MAIN and FINAL turns (a pass is a turn). When
   the count reaches the cap the game is truncated and scored as it stands; a game that ends by
   the rules on that same turn is terminated, not truncated.
5. (§9.2) Chosen cards are discarded the moment they are chosen (the joker before its fee, the
   three-card picks one by one). Nothing can be drawn during a Build, so this is the same as
   discarding them when the Build resolves (R27).
6. (§5.8.1) When the second draw of a Draw action has no source, the action ends after one
   draw and goes on to the hand limit.
7. (§9.2 ``auto_pay``) With ``auto_pay=True`` the fee colour is the richest colour that keeps
   the build payable, and an expansion pays ``min(N, h)`` of its colour, then each substitute
   coin from the richest other colour (lowest index on ties), as the spec describes.
8. The state and its enums live in ``state.py``. Each rule of §5 is written once, in the
   module of its subject: ``stalls.py`` (where a stall tile may stand, §5.3, §5.6, §5.9),
   ``expansion.py`` (where a group may grow, §5.4), ``lure.py`` (§5.7), ``cards.py`` (card
   modes, the joker fee, affordability and payment coins, §5.2, §5.4), ``board.py`` (the
   reachability rule and walking distances, §5.1) and ``scoring.py`` (VP, medals, payouts,
   §5.4–§5.7, §7); ``legality.py`` combines them into the mask of each decision, and this
   module applies the effects. ``Stage`` is the spec's phase of §4.1; ``Phase`` is the
   decision asked (§4.2).
9. (design.md, forced decisions; VERSION 4) A decision whose single legal action public
   information shows is applied inside ``step`` and never asked: its mask is computed from
   what every seat knows of the acting seat's holdings (§6: the hand's size and the cards
   it took from the display, its money unless ``reveal_money=False``, then the coins out of
   the trays), a superset of its real mask. So a lure with one reachable target, the only
   direction of a stall's entrance, a setup colour, an expansion cell or a stall cell the
   board alone leaves, a draw source, the last coins of a payment, and a TURN (DRAW or
   PASS) of a seat with no cards are automatic; a card mode or pick that only the hand
   decides is still asked (skipping it would show the hand). D6 (card mode) is automatic
   only when the whole hand is known: THREE is a fallback, so a bound on the hand does
   not bound its mask.

======================  =============================================================
players                 2, 3, 4
actions                 240 (§9.1 flat layout, see ``state.ACTIONS``)
observation             flat float32; 2 266 (2p), 2 310 (3p), 2 544 (4p)
rewards                 rank-based at the end (design.md), 0 otherwise
longest game            setup + ``max_turns`` × 19 decisions (``max_decisions``)
VERSION                 4 (3: one-action decisions asked; 2: the one-hot pieces among
                        the scaled; 1: no zero padding)
======================  =============================================================
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from envs.cairo import cards, legality, observation, picture, render, resample, scoring
from envs.cairo.board import NEIGHBOURS, any_direction
from envs.cairo.data import (
    CARD_ID_TYPE,
    CUSTOMER_STARTS,
    DISPLAY_SLOTS,
    DRAWS_PER_ACTION,
    EXPANSIONS_PER_COLOUR,
    HAND_LIMIT,
    NEUTRAL,
    NEUTRAL_STEPS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_CUSTOMERS_ON_BOARD,
    NUM_OWNERS,
    NUM_STANDARD_TYPES,
    SETUP_STALLS,
    START_HAND,
    START_MONEY,
    THREE_CARDS,
)
from envs.cairo.invariants import check_invariants
from envs.cairo.state import ACTIONS, END, PHASE, STAGE, VERB, CairoState, Phase, action_name
from envs.core.arrays import last_axis_sums
from envs.core.decisions import Decision
from envs.core.game import Game
from envs.core.rng import choice, integers, make_rng, permutation, random_bits

VERSION = 4
# The longest turn: D4, D5, D6, three D7 picks, and 12 coins of a 2:1 payment (7 tiles, 1 of
# the colour held) plus one spare for the joker fee: 1 + 1 + 1 + 3 + 12 + 1 = 19.
MAX_DECISIONS_PER_TURN = 19
_NONE = -1


def _turn_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What each D4 action (the actions before ``ACTIONS.PASS.stop``) begins: its verb, its
    colour (-1 for DRAW and PASS) and the decision asked next (PASS: none, the turn ends)."""
    verb = np.full(ACTIONS.PASS.stop, VERB.NONE, dtype=np.int8)
    colour = np.full(ACTIONS.PASS.stop, _NONE, dtype=np.int8)
    phase = np.full(ACTIONS.PASS.stop, PHASE.TURN, dtype=np.int8)
    for block, block_verb, block_phase in (
            (ACTIONS.NEW, VERB.NEW, PHASE.STALL_CELL),
            (ACTIONS.EXPAND, VERB.EXPAND, PHASE.EXPAND_CELL),
            (ACTIONS.MOVE, VERB.MOVE, PHASE.STALL_CELL),
            (ACTIONS.LURE, VERB.LURE, PHASE.LURE_TARGET)):
        verb[block.start:block.stop] = block_verb
        colour[block.start:block.stop] = np.arange(NUM_COLOURS)
        phase[block.start:block.stop] = block_phase
    verb[ACTIONS.DRAW.start] = VERB.DRAW
    phase[ACTIONS.DRAW.start] = PHASE.DRAW_SOURCE
    return verb, colour, phase


_TURN_VERB, _TURN_COLOUR, _TURN_PHASE = _turn_tables()


class CairoGame(Game[CairoState]):
    """The rules of Kairo for one player count and options (see the module docstring)."""

    ENV_ID = "cairo"
    VERSION = VERSION
    PLAYER_COUNTS = (2, 3, 4)
    DEFAULT_PLAYERS = 3
    HAS_HIDDEN_INFO = True  # hands, the draw pile's order, and money if not revealed
    OPTIONS = {
        "reveal_money": True,  # §6: every seat sees every seat's money
        "move_requires_blocked": True,  # §5.6, R22: only an enclosed stall may move
        "auto_pay": False,  # §9.2: the env settles the joker fee and the 2:1 coins
        "max_turns": 400,  # §7.4: safety cap on MAIN + FINAL turns (truncation)
    }

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        if self.options["max_turns"] < 1:
            raise ValueError(f"cairo: max_turns must be >= 1, got {self.options['max_turns']}")
        self.num_actions = ACTIONS.size
        options = self.options
        self.params = np.array([options["reveal_money"], options["move_requires_blocked"],
                                options["auto_pay"], options["max_turns"]], dtype=np.int64)
        self.observer = observation.Observer(self.num_players, self.params)
        self.action_layout = ACTIONS
        self.observation_layout = self.observer.layout
        self.observation_shape = (self.observer.layout.size,)
        self.observation_low, self.observation_high = self.observer.layout.bounds()
        setup = 3 * SETUP_STALLS * self.num_players + 2 * NEUTRAL_STEPS  # D1-D3, D2-D3
        self.max_decisions = setup + self.options["max_turns"] * MAX_DECISIONS_PER_TURN
        table = (
            (PHASE.PLACE_COLOUR, self._legal_place_colour, self._apply_place_colour),
            (PHASE.STALL_CELL, self._legal_stall_cell, self._apply_stall_cell),
            (PHASE.STALL_DIR, self._legal_stall_dir, self._apply_stall_dir),
            (PHASE.TURN, self._legal_turn, self._apply_turn),
            (PHASE.EXPAND_CELL, self._legal_expand_cell, self._apply_expand_cell),
            (PHASE.CARD_MODE, self._legal_card_mode, self._apply_card_mode),
            (PHASE.THREE_PICK, self._legal_cards_in_hand, self._apply_three_pick),
            (PHASE.FEE_COLOUR, self._legal_fee_colour, self._apply_fee_colour),
            (PHASE.PAYMENT, self._legal_payment, self._apply_payment),
            (PHASE.LURE_TARGET, self._legal_lure_target, self._apply_lure_target),
            (PHASE.DRAW_SOURCE, self._legal_draw_source, self._apply_draw_source),
            (PHASE.DISCARD, self._legal_cards_in_hand, self._apply_discard),
        )
        # Every decision whose single legal action public information shows is applied
        # without being asked (VERSION 4, ``_forced``); D6 only with the hand known to all.
        # D1, D10 and D11 read no cards or money: their masks are public themselves. So is
        # D3's: it reads them only as the sections they pay for, and the chosen cell's
        # section is one (D2 offered the cell), from the public bound too.
        public = (PHASE.PLACE_COLOUR, PHASE.STALL_DIR, PHASE.LURE_TARGET, PHASE.DRAW_SOURCE)
        forced = {phase: None if phase in public else functools.partial(self._forced, legal)
                  for phase, legal, _ in table}
        forced[PHASE.CARD_MODE] = self._forced_card_mode
        self.decisions = {phase: Decision(Phase(phase).name, legal, effect, forced[phase],
                                          public_mask=phase in public)
                          for phase, legal, effect in table}
        # A chain of forced decisions runs through at most the rest of the setup's
        # placements, then the rest of one turn, and then either the next MAIN turn's
        # forced DRAW (its first draw is always asked: a full display and a pile, §5.8.3) or
        # a FINAL pass of every seat (§4.1).
        self.max_chain = setup + MAX_DECISIONS_PER_TURN + self.num_players

    # ---------------------------------------------------------------- setup (§3)
    def _init(self, seeds: np.ndarray) -> CairoState:
        num, players = len(seeds), self.num_players
        rng = make_rng(seeds)
        deck = CARD_ID_TYPE[permutation(rng, None, NUM_CARDS)].astype(np.int8)  # bottom first
        bag = permutation(rng, None, NUM_COLOURS)  # customer colours in draw order
        start = integers(rng, None, players).astype(np.int8)
        customer = np.full((num, NUM_COLOURS), _NONE, dtype=np.int16)
        rows = np.arange(num)[:, None]
        customer[rows, bag[:, :NUM_CUSTOMERS_ON_BOARD]] = CUSTOMER_STARTS
        state = CairoState(
            current_player=start.astype(np.int32),
            terminated=np.zeros(num, dtype=bool),
            truncated=np.zeros(num, dtype=bool),
            rewards=np.zeros((num, players), dtype=np.float32),
            rng=rng,
            stage=np.full(num, STAGE.SETUP, dtype=np.int8),
            phase=np.full(num, PHASE.PLACE_COLOUR, dtype=np.int8),
            start_player=start,
            placements=np.zeros(num, dtype=np.int8),
            turn=np.zeros(num, dtype=np.int16),
            tile=np.full((num, NUM_CELLS), _NONE, dtype=np.int8),
            entrance=np.full((num, NUM_CELLS), _NONE, dtype=np.int8),
            stall_cell=np.full((num, NUM_OWNERS, NUM_COLOURS), _NONE, dtype=np.int16),
            entrance_cell=np.full((num, NUM_OWNERS, NUM_COLOURS), _NONE, dtype=np.int16),
            group_size=np.zeros((num, NUM_OWNERS, NUM_COLOURS), dtype=np.int8),
            neutral_bag=np.full((num, NUM_COLOURS), players == 2),
            customer=customer,
            money=np.full((num, players, NUM_COLOURS), START_MONEY, dtype=np.int16),
            vp=np.zeros((num, players), dtype=np.int32),
            medal=np.full((num, NUM_COLOURS, 2), _NONE, dtype=np.int8),
            supply=np.full((num, NUM_COLOURS), EXPANSIONS_PER_COLOUR, dtype=np.int8),
            barkers=np.zeros((num, players), dtype=np.int8),
            hand=np.zeros((num, players, NUM_CARD_TYPES), dtype=np.int8),
            known=np.zeros((num, players, NUM_CARD_TYPES), dtype=np.int8),
            display=np.full((num, DISPLAY_SLOTS), _NONE, dtype=np.int8),
            deck=deck,
            deck_size=np.full(num, NUM_CARDS, dtype=np.int8),
            discard=np.zeros((num, NUM_CARD_TYPES), dtype=np.int8),
            dropped=np.zeros((num, players), dtype=bool),
            verb=np.full(num, VERB.PLACE, dtype=np.int8),
            colour=np.full(num, _NONE, dtype=np.int8),
            target=np.full(num, _NONE, dtype=np.int16),
            target_entrance=np.full(num, _NONE, dtype=np.int16),
            picks_left=np.zeros(num, dtype=np.int8),
            pay_units=np.zeros(num, dtype=np.int8),
            pay_half=np.zeros(num, dtype=bool),
            draws_left=np.zeros(num, dtype=np.int8),
        )
        self._deal(state)
        # The first placement needs no check: the start board offers every colour a place
        # in every section of its area (a test checks it).
        self._set_up_placements(state, np.arange(num))
        return state

    def _deal(self, state: CairoState) -> None:
        """The opening deal (§3): the display is filled, then each seat takes START_HAND cards
        in turn order from the start player, all off the top of the full draw pile. Nothing is
        discarded yet, so nothing reshuffles: the pile's top cards are simply read in order."""
        num, players = state.batch_size, self.num_players
        dealt = DISPLAY_SLOTS + START_HAND * players
        top = state.deck[:, ::-1][:, :dealt]  # the pile is stored bottom first
        state.display[:] = top[:, :DISPLAY_SLOTS]
        cards = top[:, DISPLAY_SLOTS:].reshape(num, players, START_HAND)  # by turn order
        seats = (state.start_player[:, None] + np.arange(players)) % players
        np.add.at(state.hand, (np.arange(num)[:, None, None], seats[:, :, None], cards), 1)
        state.deck[:, NUM_CARDS - dealt:] = _NONE
        state.deck_size[:] = NUM_CARDS - dealt

    def _skip_impossible_placements(self, state: CairoState, idx: np.ndarray) -> None:
        """Skip the pending placements of rows ``idx`` that have no legal option, setting up
        each row's next one until it has a possible one or begins its first turn."""
        while idx.size:
            idx = self._impossible_placements(state, idx)
            state.placements[idx] += 1
            idx = self._set_up_placements(state, idx)

    def _set_up_placements(self, state: CairoState, idx: np.ndarray) -> np.ndarray:
        """Set up the next placement of rows ``idx``, or their first turn once every stall is
        placed; returns the rows with a placement to make."""
        players = self.num_players
        own_steps = SETUP_STALLS * players
        neutral_steps = NEUTRAL_STEPS if players == 2 else 0
        step = state.placements[idx].astype(np.int64)
        done = step >= own_steps + neutral_steps
        begin = idx[done]
        state.stage[begin] = STAGE.MAIN
        state.current_player[begin] = state.start_player[begin]
        self._start_turn(state, begin)
        idx, step = idx[~done], step[~done]
        own = step < own_steps
        state.stage[idx] = np.where(own, STAGE.SETUP, STAGE.NEUTRAL)
        state.current_player[idx] = (state.start_player[idx] + np.where(
            own, step, step - own_steps)) % players
        state.verb[idx] = VERB.PLACE
        state.target[idx] = _NONE
        state.phase[idx] = np.where(own, PHASE.PLACE_COLOUR, PHASE.STALL_CELL)
        neutral = idx[~own]
        state.colour[idx[own]] = _NONE
        if neutral.size:  # chance: draw a neutral stall from the bag (§5.9.2)
            state.revealed[neutral] = True
            drawn = choice(state.rng, neutral, state.neutral_bag[neutral])
            state.neutral_bag[neutral, drawn] = False
            state.colour[neutral] = drawn
        return idx

    @staticmethod
    def _impossible_placements(state: CairoState, idx: np.ndarray) -> np.ndarray:
        """The rows of ``idx`` whose pending placement has no legal option."""
        own = state.stage[idx] == STAGE.SETUP
        possible = np.zeros(idx.size, dtype=bool)
        if own.any():
            possible[own] = legality.place_colour_mask(state, idx[own]).any(axis=1)
        if not own.all():
            possible[~own] = any_direction(legality.stall_options(state, idx[~own])).any(axis=1)
        return idx[~possible]

    # ---------------------------------------------------------------- masks by phase
    # Each mask reads the acting seat's cards and money as ``holdings``: its own (None), or
    # the public bound of them (``cards.public_holdings``) when a forced predicate asks.
    def _legal_place_colour(self, state: CairoState, idx: np.ndarray,
                            holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.NEW, legality.place_colour_mask(state, idx))

    def _legal_stall_cell(self, state: CairoState, idx: np.ndarray,
                          holdings: cards.Holdings | None = None) -> np.ndarray:
        options = legality.stall_options(state, idx, holdings=holdings)
        return ACTIONS.block_mask(ACTIONS.CELL, any_direction(options))

    def _legal_stall_dir(self, state: CairoState, idx: np.ndarray,
                         holdings: cards.Holdings | None = None) -> np.ndarray:
        options = legality.stall_options(state, idx, state.target[idx], holdings)
        return ACTIONS.block_mask(ACTIONS.DIR, options)

    def _legal_turn(self, state: CairoState, idx: np.ndarray,
                    holdings: cards.Holdings | None = None) -> np.ndarray:
        return legality.turn_mask(state, idx, self.options["move_requires_blocked"], holdings)

    def _legal_expand_cell(self, state: CairoState, idx: np.ndarray,
                           holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.CELL, legality.expansion_options(state, idx, holdings))

    def _legal_card_mode(self, state: CairoState, idx: np.ndarray,
                         holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.CARD, legality.card_mode_mask(state, idx, holdings),
                                  ACTIONS.THREE)

    def _legal_cards_in_hand(self, state: CairoState, idx: np.ndarray,
                             holdings: cards.Holdings | None = None) -> np.ndarray:
        _, hand, _ = cards.seat_cards(state, idx) if holdings is None else holdings
        return ACTIONS.block_mask(ACTIONS.CARD, hand > 0)

    def _legal_fee_colour(self, state: CairoState, idx: np.ndarray,
                          holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.COLOUR, legality.fee_colours(state, idx, holdings))

    def _legal_payment(self, state: CairoState, idx: np.ndarray,
                       holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.COLOUR, legality.payment_mask(state, idx, holdings))

    def _legal_lure_target(self, state: CairoState, idx: np.ndarray,
                           holdings: cards.Holdings | None = None) -> np.ndarray:
        mask = np.zeros((idx.size, self.num_actions), dtype=bool)
        cells, legal, _ = legality.lure_targets(state, idx)
        rows, slots = np.nonzero(legal)
        mask[rows, ACTIONS.CELL.start + cells[rows, slots]] = True
        return mask

    def _legal_draw_source(self, state: CairoState, idx: np.ndarray,
                           holdings: cards.Holdings | None = None) -> np.ndarray:
        return ACTIONS.block_mask(ACTIONS.DISPLAY, legality.draw_sources(state, idx),
                                  ACTIONS.BARKER)

    # ---------------------------------------------------------------- forced decisions
    def _forced(self, legal: Callable[..., np.ndarray], state: CairoState, idx: np.ndarray
                ) -> np.ndarray:
        """(R,) bool: public information alone leaves the decision one legal action: its
        mask from the public bound of the seat's cards and money (``cards.public_holdings``),
        a superset of the real mask, has a single action (design.md, forced decisions)."""
        holdings = cards.public_holdings(state, idx, self.options["reveal_money"])
        return legal(state, idx, holdings).sum(axis=1) == 1

    def _forced_card_mode(self, state: CairoState, idx: np.ndarray) -> np.ndarray:
        """D6 is forced only where every seat knows the hand and the money: the THREE mode
        is a fallback (§5.2), so a bound on the hand does not bound this mask."""
        out = np.zeros(idx.size, dtype=bool)
        known = cards.hand_known(state, idx) & self.options["reveal_money"]
        if known.any():  # there the bound is the hand and the money themselves
            out[known] = self._forced(self._legal_card_mode, state, idx[known])
        return out

    # ---------------------------------------------------------------- steps by phase
    def _end_step(self, state: CairoState, rows: np.ndarray) -> None:
        """After the effects of a step (or of a round of automatic decisions) on ``rows``:
        end the turns that are over (``END.TURN_OVER``) and set up the next placements
        (``END.PLACED``), then skip the impossible placements.

        The boards the step changed are analysed by the masks that ask next
        (``legality.board_analysis``: the next turns' masks ask about all of them at once),
        unless the placements' check needs its boards' analysis now: then every board the
        step ended a turn or a placement on is analysed in that pass (an analysis costs
        about as much for a few boards as for a hundred)."""
        ending = rows[state.phase[rows] >= END.TURN_OVER]
        if not ending.size:
            return  # most sub-steps of a turn (a card, a coin, a first draw) end nothing
        phase = state.phase[ending]
        placed = ending[phase == END.PLACED]
        self._end_turns(state, ending[phase != END.PLACED])
        placing = self._set_up_placements(state, placed) if placed.size else placed
        if placing.size:
            legality.board_analysis(state, ending[~state.done[ending]])
        self._skip_impossible_placements(state, placing)

    def _apply_place_colour(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        state.colour[idx] = action - ACTIONS.NEW.start
        state.phase[idx] = PHASE.STALL_CELL

    def _apply_stall_cell(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        state.target[idx] = action - ACTIONS.CELL.start
        state.phase[idx] = PHASE.STALL_DIR

    def _apply_stall_dir(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        state.target_entrance[idx] = NEIGHBOURS[state.target[idx], action - ACTIONS.DIR.start]
        placing = state.verb[idx] == VERB.PLACE
        place = idx[placing]
        owner = np.where(state.stage[place] == STAGE.NEUTRAL, NEUTRAL, state.current_player[place])
        self._place_stall(state, place, owner)
        state.placements[place] += 1
        state.phase[place] = END.PLACED
        state.phase[idx[~placing]] = PHASE.CARD_MODE

    def _apply_turn(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        state.verb[idx] = _TURN_VERB[action]
        state.colour[idx] = _TURN_COLOUR[action]
        state.phase[idx] = _TURN_PHASE[action]
        draw = idx[action == ACTIONS.DRAW.start]
        state.draws_left[draw] = DRAWS_PER_ACTION
        passing = idx[action == ACTIONS.PASS.start]
        state.dropped[passing, state.current_player[passing]] = True
        state.phase[passing] = END.TURN_OVER

    def _apply_expand_cell(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        state.target[idx] = action - ACTIONS.CELL.start
        state.phase[idx] = PHASE.CARD_MODE

    def _apply_card_mode(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        three = action == ACTIONS.THREE.start
        state.picks_left[idx[three]] = THREE_CARDS
        state.phase[idx[three]] = PHASE.THREE_PICK
        card = action[~three] - ACTIONS.CARD.start
        single = idx[~three]
        self._play_card(state, single, card)
        joker = card >= NUM_STANDARD_TYPES
        fee_rows = single[joker]
        state.phase[fee_rows] = PHASE.FEE_COLOUR
        self._finish_build(state, single[~joker])
        if self.options["auto_pay"]:
            money = state.money[fee_rows, state.current_player[fee_rows]]
            richest = np.argmax(np.where(legality.fee_colours(state, fee_rows), money, -1),
                                axis=1)
            self._pay_fee(state, fee_rows, richest)

    def _apply_three_pick(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        self._play_card(state, idx, action - ACTIONS.CARD.start)
        state.picks_left[idx] -= 1
        self._finish_build(state, idx[state.picks_left[idx] == 0])

    def _apply_fee_colour(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        self._pay_fee(state, idx, action - ACTIONS.COLOUR.start)

    def _pay_fee(self, state: CairoState, idx: np.ndarray, colour: np.ndarray) -> None:
        state.money[idx, state.current_player[idx], colour] -= 1
        self._finish_build(state, idx)

    def _apply_payment(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        paid = action - ACTIONS.COLOUR.start
        seat = state.current_player[idx]
        state.money[idx, seat, paid] -= 1
        own = paid == state.colour[idx]
        completes = own | state.pay_half[idx]
        state.pay_units[idx[completes]] -= 1
        state.pay_half[idx] = ~completes
        self._resolve_expansion(state, idx[(state.pay_units[idx] == 0) & ~state.pay_half[idx]])

    def _apply_lure_target(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        cells, _, cost = legality.lure_targets(state, idx)
        target = action - ACTIONS.CELL.start
        rows = np.arange(idx.size)
        slot = np.argmax(cells == target[:, None], axis=1)
        seat = state.current_player[idx]
        colour = state.colour[idx].astype(np.intp)
        state.barkers[idx, seat] -= cost[rows, slot].astype(np.int8)
        off_board = np.argmax(state.customer[idx] < 0, axis=1)
        state.customer[idx, off_board] = target  # the swap of §5.7 effect 3
        state.customer[idx, colour] = _NONE
        scoring.pay_lure(state, idx, seat, colour, slot)
        state.phase[idx] = END.TURN_OVER

    def _apply_draw_source(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        seat = state.current_player[idx]
        slot = action - ACTIONS.DISPLAY.start
        shown = slot < DISPLAY_SLOTS
        rows, from_display = idx[shown], slot[shown]
        card = state.display[rows, from_display]
        state.hand[rows, seat[shown], card] += 1
        state.known[rows, seat[shown], card] += 1
        state.display[rows, from_display] = _NONE
        deck = action == ACTIONS.DECK.start
        state.hand[idx[deck], seat[deck], self._take_top(state, idx[deck])] += 1
        state.revealed[idx[deck], seat[deck]] = True  # the drawer sees its card
        barker = action == ACTIONS.BARKER.start
        state.barkers[idx[barker], seat[barker]] += 1
        state.draws_left[idx] -= 1
        more = (state.draws_left[idx] > 0) & legality.draw_sources(state, idx).any(axis=1)
        self._after_draws(state, idx[~more])

    @staticmethod
    def _after_draws(state: CairoState, idx: np.ndarray) -> None:
        """Hand limit (§5.8.2): discard while more than 4 stall cards, else end the turn."""
        seat = state.current_player[idx]
        over = last_axis_sums(state.hand[idx, seat]) > HAND_LIMIT
        state.phase[idx] = np.where(over, PHASE.DISCARD, END.TURN_OVER)

    def _apply_discard(self, state: CairoState, idx: np.ndarray, action: np.ndarray) -> None:
        self._play_card(state, idx, action - ACTIONS.CARD.start)
        self._after_draws(state, idx)

    # ---------------------------------------------------------------- builds (§5.3–§5.6)
    def _play_card(self, state: CairoState, idx: np.ndarray, card: np.ndarray) -> None:
        """Move one card from the acting seat's hand to the discard pile, face up."""
        if not idx.size:  # nothing selected, as at B = 1 for most of the sub-steps
            return
        seat = state.current_player[idx]
        state.hand[idx, seat, card] -= 1
        state.known[idx, seat, card] = np.maximum(state.known[idx, seat, card] - 1, 0)
        state.discard[idx, card] += 1

    def _finish_build(self, state: CairoState, idx: np.ndarray) -> None:
        """Cards (and fee) are paid: place or move the stall, or settle the expansion cost."""
        if not idx.size:
            return
        verb = state.verb[idx]
        moving = idx[verb == VERB.MOVE]
        seat = state.current_player[moving]
        colour = state.colour[moving]
        old_cell = state.stall_cell[moving, seat, colour]
        state.tile[moving, old_cell] = _NONE
        state.entrance[moving, state.entrance_cell[moving, seat, colour]] = _NONE
        stalls = idx[verb != VERB.EXPAND]
        self._place_stall(state, stalls, state.current_player[stalls])
        state.phase[stalls] = END.TURN_OVER
        self._start_payment(state, idx[verb == VERB.EXPAND])

    def _place_stall(self, state: CairoState, idx: np.ndarray, owner: np.ndarray) -> None:
        """Put the pending stall (colour, target, target_entrance) on the board for ``owner``."""
        if not idx.size:  # nothing selected, as at B = 1 for most of the sub-steps
            return
        colour = state.colour[idx]
        group = owner * NUM_COLOURS + colour
        state.tile[idx, state.target[idx]] = group
        state.entrance[idx, state.target_entrance[idx]] = group
        state.stall_cell[idx, owner, colour] = state.target[idx]
        state.entrance_cell[idx, owner, colour] = state.target_entrance[idx]
        state.group_size[idx, owner, colour] = 1

    def _start_payment(self, state: CairoState, idx: np.ndarray) -> None:
        """§5.4 payment: pay in full when rich enough in the colour, else start D9."""
        if not idx.size:  # nothing selected, as at B = 1 for most of the sub-steps
            return
        seat = state.current_player[idx]
        colour = state.colour[idx]
        cost = state.group_size[idx, seat, colour].astype(np.int16) + 1
        held = state.money[idx, seat, colour]
        if self.options["auto_pay"]:
            state.money[idx, seat, colour] -= np.minimum(cost, held)
            self._pay_substitutes(state, idx, 2 * (cost - np.minimum(cost, held)))
            self._resolve_expansion(state, idx)
            return
        rich = held >= cost
        state.money[idx, seat, colour] -= np.where(rich, cost, 1).astype(np.int16)
        self._resolve_expansion(state, idx[rich])
        short = idx[~rich]
        state.pay_units[short] = cost[~rich] - 1
        state.pay_half[short] = False
        state.phase[short] = PHASE.PAYMENT

    @staticmethod
    def _pay_substitutes(state: CairoState, idx: np.ndarray, coins: np.ndarray) -> None:
        """``auto_pay``: each substitute coin from the richest other colour (lowest index)."""
        seat = state.current_player[idx]
        colour = state.colour[idx]
        others = np.arange(NUM_COLOURS)[None, :] != colour[:, None]
        for _ in range(int(coins.max(initial=0))):
            paying = coins > 0
            money = np.where(others, state.money[idx, seat], -1)
            richest = np.argmax(money, axis=1)
            state.money[idx[paying], seat[paying], richest[paying]] -= 1
            coins = coins - paying

    @staticmethod
    def _resolve_expansion(state: CairoState, idx: np.ndarray) -> None:
        """Place the paid expansion, score it and its medals (§5.4 effects, §5.5)."""
        seat = state.current_player[idx]
        colour = state.colour[idx].astype(np.intp)
        state.tile[idx, state.target[idx]] = seat * NUM_COLOURS + colour
        state.group_size[idx, seat, colour] += 1
        state.supply[idx, colour] -= 1
        scoring.award_expansion(state, idx, seat.astype(np.intp), colour)
        state.phase[idx] = END.TURN_OVER

    # ---------------------------------------------------------------- turns and chance
    def _start_turn(self, state: CairoState, idx: np.ndarray) -> None:
        state.phase[idx] = PHASE.TURN
        state.verb[idx] = VERB.NONE
        state.colour[idx] = _NONE
        state.target[idx] = _NONE
        state.target_entrance[idx] = _NONE
        state.picks_left[idx] = 0
        state.pay_units[idx] = 0
        state.pay_half[idx] = False
        state.draws_left[idx] = 0

    def _end_turns(self, state: CairoState, idx: np.ndarray) -> None:
        """Refill the display, check the end trigger, then the next seat, the end or the cap."""
        if not idx.size:
            return
        players = self.num_players
        main = idx[state.stage[idx] == STAGE.MAIN]
        self._refill_display(state, main)
        state.stage[main[scoring.end_triggered(state.supply[main])]] = STAGE.FINAL
        state.turn[idx] += 1
        order = (state.current_player[idx, None] + 1 + np.arange(players)) % players
        waiting = ~state.dropped[idx[:, None], order]
        nxt = order[np.arange(idx.size), np.argmax(waiting, axis=1)]
        over = ~waiting.any(axis=1)  # every seat has dropped out of the FINAL stage
        state.terminated[idx[over]] = True
        state.stage[idx[over]] = STAGE.OVER
        state.truncated[idx[~over & (state.turn[idx] >= self.options["max_turns"])]] = True
        done = state.done[idx]
        state.phase[idx[done]] = PHASE.GAME_OVER
        going = ~done
        state.current_player[idx[going]] = nxt[going]
        self._start_turn(state, idx[going])

    def _refill_display(self, state: CairoState, idx: np.ndarray) -> None:
        """Chance (§5.8.3): fill empty display slots in slot order from the draw pile."""
        if not idx.size:  # nothing selected, as at B = 1 for most of the sub-steps
            return
        empty = state.display[idx] < 0  # filling one slot never empties another
        state.revealed[idx[empty.any(axis=1)]] = True  # cards turned face up
        # The k-th empty slot of each row takes the row's k-th card: one draw per round of
        # rows (about two rounds), not one per slot.
        order = np.argsort(~empty, axis=1, kind="stable")  # each row's empty slots first
        count = last_axis_sums(empty)
        for k in range(int(count.max(initial=0))):
            has = count > k
            state.display[idx[has], order[has, k]] = self._take_top(state, idx[has])

    def _take_top(self, state: CairoState, idx: np.ndarray) -> np.ndarray:
        """Take the top card of the draw pile, reshuffling per R27; -1 where none is left."""
        if not idx.size:
            return np.zeros(0, dtype=state.deck.dtype)
        discarded = last_axis_sums(state.discard[idx]) > 0
        self._reshuffle(state, idx[(state.deck_size[idx] == 0) & discarded])
        size = state.deck_size[idx].astype(np.intp)
        has = size > 0
        top = np.maximum(size - 1, 0)
        card = np.where(has, state.deck[idx, top], _NONE)
        state.deck[idx[has], top[has]] = _NONE
        state.deck_size[idx[has]] -= 1
        emptied = has & (state.deck_size[idx] == 0) & (last_axis_sums(state.discard[idx]) > 0)
        self._reshuffle(state, idx[emptied])
        return card

    @staticmethod
    def _reshuffle(state: CairoState, idx: np.ndarray) -> None:
        """Chance (R27): the discard pile, shuffled, becomes the draw pile."""
        if not idx.size:
            return
        counts = state.discard[idx].astype(np.int64)
        ends = np.cumsum(counts, axis=1)  # (R, 15)
        position = np.arange(NUM_CARDS)
        cards = (position[None, None, :] >= ends[:, :, None]).sum(axis=1)  # sorted types
        valid = position[None, :] < ends[:, -1:]
        keys = random_bits(state.rng, idx, NUM_CARDS)
        keys[~valid] = np.iinfo(np.uint64).max
        order = np.argsort(keys, axis=1, kind="stable")
        shuffled = np.take_along_axis(cards, order, axis=1)
        state.deck[idx] = np.where(valid, shuffled, _NONE)
        state.deck_size[idx] = ends[:, -1]
        state.discard[idx] = 0

    # ---------------------------------------------------------------- public pieces
    def observe(self, state: CairoState, player: int | np.ndarray) -> np.ndarray:
        return self.observer.observe(state, player)

    def resample_hidden(self, state: CairoState, player: int, seed: int) -> CairoState:
        return resample.resample_hidden(self, state, player, seed)

    def scores(self, state: CairoState) -> np.ndarray:
        return scoring.final_scores(state)

    def check_invariants(self, state: CairoState) -> list[str]:
        return check_invariants(state)

    def render(self, state: CairoState, index: int = 0, seat: int | None = None) -> str:
        return render.render(self, state, index, seat)

    def draw(self, state: CairoState, index: int = 0, seat: int | None = None) -> np.ndarray:
        return picture.draw(self, state, index, seat)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def decision_name(self, state: CairoState, row: int) -> str:
        return render.decision_name(state, row)
