"""Kairo (Cairo): traders place market stalls, lure customers and expand for VP.

The rules of the game specified in ``docs/rules/cairo.md`` for 2, 3 and 4 players, as
per-row functions compiled with numba (``rules/``): stalls in six colours on a 14 × 13
board of nine market sections and a restaurant strip, stall cards to build, customers lured
to entrances for money, expansions paid in the group's colour (2:1 substitution), medals for
the largest groups, and a build-only final phase once the expansion supply runs low. One
decision per step; chance (shuffles, the customer bag, the start player, neutral draws,
display refills) is drawn from each row's own counter-based generator.

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

from typing import Any

import numpy as np

from envs.cairo import observation, picture, render, resample
from envs.cairo.data import (
    DISPLAY_SLOTS,
    EXPANSIONS_PER_COLOUR,
    NEUTRAL_STEPS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    SETUP_STALLS,
    START_MONEY,
)
from envs.cairo.invariants import check_invariants
from envs.cairo.rules import effects, legal, scoring
from envs.cairo.state import ACTIONS, CairoState, Phase, Stage, Verb, View, action_name
from envs.core.compiled import CompiledGame
from envs.core.driver import RowRules

VERSION = 4
# The longest turn: D4, D5, D6, three D7 picks, and 12 coins of a 2:1 payment (7 tiles, 1 of
# the colour held) plus one spare for the joker fee: 1 + 1 + 1 + 3 + 12 + 1 = 19.
MAX_DECISIONS_PER_TURN = 19
_NONE = -1

ROWS = RowRules(legal=legal.legal, forced=legal.forced, apply=effects.apply,
                phase=effects.phase, ranking=scoring.ranking, init_row=effects.init_row,
                observe_row=observation.observe_row, score_row=scoring.score_row)


class CairoGame(CompiledGame):
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
    ROWS, VIEW, Phase = ROWS, View, Phase
    # Every decision may be applied automatically (``legal.forced``); GAME_OVER is none.
    DECISIONS = tuple(p for p in Phase if p != Phase.GAME_OVER)
    AUTOMATIC = frozenset(DECISIONS)

    def __init__(self, num_players: int | None = None, **options: Any):
        super().__init__(num_players, **options)
        if self.options["max_turns"] < 1:
            raise ValueError(f"cairo: max_turns must be >= 1, got {self.options['max_turns']}")
        self.num_actions = ACTIONS.size
        options = self.options
        self.params = np.array([options["reveal_money"], options["move_requires_blocked"],
                                options["auto_pay"], options["max_turns"]], dtype=np.int64)
        self.action_layout = ACTIONS
        self.observation_layout = observation.observation_layout(self.num_players,
                                                                 options["reveal_money"])
        self.observation_shape = (self.observation_layout.size,)
        self.observation_low, self.observation_high = self.observation_layout.bounds()
        setup = 3 * SETUP_STALLS * self.num_players + 2 * NEUTRAL_STEPS  # D1-D3, D2-D3
        self.max_decisions = setup + self.options["max_turns"] * MAX_DECISIONS_PER_TURN
        # A chain of forced decisions runs through at most the rest of the setup's
        # placements, then the rest of one turn, and then either the next MAIN turn's
        # forced DRAW (its first draw is always asked: a full display and a pile, §5.8.3) or
        # a FINAL pass of every seat (§4.1).
        self.max_chain = setup + MAX_DECISIONS_PER_TURN + self.num_players

    def _allocate(self, batch_size: int) -> CairoState:
        """New games' arrays, before ``effects.init_row`` shuffles, deals and sets up each."""
        num, players = batch_size, self.num_players

        def full(shape: tuple[int, ...], value: Any, dtype: Any) -> np.ndarray:
            return np.full((num, *shape), value, dtype=dtype)

        return CairoState(
            current_player=full((), 0, np.int32),
            terminated=full((), False, bool),
            truncated=full((), False, bool),
            rewards=full((players,), 0, np.float32),
            rng=full((2,), 0, np.uint64),
            stage=full((), Stage.SETUP, np.int8),
            phase=full((), Phase.PLACE_COLOUR, np.int8),
            start_player=full((), 0, np.int8),
            placements=full((), 0, np.int8),
            turn=full((), 0, np.int16),
            tile=full((NUM_CELLS,), _NONE, np.int8),
            entrance=full((NUM_CELLS,), _NONE, np.int8),
            stall_cell=full((NUM_OWNERS, NUM_COLOURS), _NONE, np.int16),
            entrance_cell=full((NUM_OWNERS, NUM_COLOURS), _NONE, np.int16),
            group_size=full((NUM_OWNERS, NUM_COLOURS), 0, np.int8),
            neutral_bag=full((NUM_COLOURS,), players == 2, bool),
            customer=full((NUM_COLOURS,), _NONE, np.int16),
            money=full((players, NUM_COLOURS), START_MONEY, np.int16),
            vp=full((players,), 0, np.int32),
            medal=full((NUM_COLOURS, 2), _NONE, np.int8),
            supply=full((NUM_COLOURS,), EXPANSIONS_PER_COLOUR, np.int8),
            barkers=full((players,), 0, np.int8),
            hand=full((players, NUM_CARD_TYPES), 0, np.int8),
            known=full((players, NUM_CARD_TYPES), 0, np.int8),
            display=full((DISPLAY_SLOTS,), _NONE, np.int8),
            deck=full((NUM_CARDS,), _NONE, np.int8),
            deck_size=full((), NUM_CARDS, np.int8),
            discard=full((NUM_CARD_TYPES,), 0, np.int8),
            dropped=full((players,), False, bool),
            verb=full((), Verb.PLACE, np.int8),
            colour=full((), _NONE, np.int8),
            target=full((), _NONE, np.int16),
            target_entrance=full((), _NONE, np.int16),
            picks_left=full((), 0, np.int8),
            pay_units=full((), 0, np.int8),
            pay_half=full((), False, bool),
            draws_left=full((), 0, np.int8),
        )

    # ---------------------------------------------------------------- public pieces
    def resample_hidden(self, state: CairoState, player: int, seed: int) -> CairoState:
        return resample.resample_hidden(self, state, player, seed)

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
