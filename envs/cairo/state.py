"""Kairo's stages, decision phases, action layout and batched state.

They live apart from ``game.py`` so that the helper modules (legality, scoring, observation,
render) can import them without an import cycle.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import numpy as np

from envs.cairo.data import (
    CARD_TYPE_NAMES,
    COLOUR_NAMES,
    DIRECTION_NAMES,
    DISPLAY_SLOTS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_COLOURS,
    WIDTH,
)
from envs.core.compiled import CompiledState, kernel_view
from envs.core.layout import ActionLayout


class Stage(IntEnum):
    """The phases of §4.1 (called stages here; ``Phase`` is the decision being asked)."""

    SETUP = 0  # SETUP_PLACEMENT: 3 rounds of own stalls
    NEUTRAL = 1  # NEUTRAL_PLACEMENT (2 players): 6 neutral stalls
    MAIN = 2
    FINAL = 3  # build-only, passing drops out
    OVER = 4  # GAME_OVER by the rules


class Phase(IntEnum):
    """The decision asked of the seat to act (§4.2), in turn order."""

    PLACE_COLOUR = 0  # D1: colour of the own stall to place in setup
    STALL_CELL = 1  # D2: cell of a stall tile (setup, neutral, new stall, move)
    STALL_DIR = 2  # D3: direction of its entrance
    TURN = 3  # D4: the main action of a MAIN or FINAL turn
    EXPAND_CELL = 4  # D5: the expansion cell
    CARD_MODE = 5  # D6: standard card, a joker, or three cards
    THREE_PICK = 6  # D7: one of the three cards
    FEE_COLOUR = 7  # D8: colour of the joker fee
    PAYMENT = 8  # D9: one coin of the expansion cost
    LURE_TARGET = 9  # D10: the entrance a customer is lured to
    DRAW_SOURCE = 10  # D11: display slot, deck or barker supply
    DISCARD = 11  # D12: a card over the hand limit
    GAME_OVER = 12  # nothing to decide


class Verb(IntEnum):
    """What the pending decisions of a turn belong to."""

    NONE = 0
    PLACE = 1  # initial or neutral placement (no cards)
    NEW = 2  # Build (a)
    EXPAND = 3  # Build (b)
    MOVE = 4  # Build (c)
    LURE = 5
    DRAW = 6


class StepEnd(IntEnum):
    """What a decision's effect leaves for the end of its step (``CairoGame._end_step``),
    written as the row's phase: values past every ``Phase``, resolved before the step
    returns, so that no mask, observation or render ever meets one."""

    TURN_OVER = 13  # the turn is over: a pass, the draws done, a build or a lure
    PLACED = 14  # a setup or neutral stall is placed: the next placement follows


ACTIONS = ActionLayout(
    [
        ("NEW", NUM_COLOURS, lambda c: f"NEW_{COLOUR_NAMES[c]}"),
        ("EXPAND", NUM_COLOURS, lambda c: f"EXPAND_{COLOUR_NAMES[c]}"),
        ("MOVE", NUM_COLOURS, lambda c: f"MOVE_{COLOUR_NAMES[c]}"),
        ("LURE", NUM_COLOURS, lambda c: f"LURE_{COLOUR_NAMES[c]}"),
        ("DRAW", 1, None),
        ("PASS", 1, None),
        ("CELL", NUM_CELLS, lambda k: f"CELL_{k % WIDTH}_{k // WIDTH}"),
        ("DIR", 4, lambda d: f"DIR_{DIRECTION_NAMES[d]}"),
        ("CARD", NUM_CARD_TYPES, lambda t: f"CARD_{CARD_TYPE_NAMES[t]}"),
        ("THREE", 1, None),
        ("COLOUR", NUM_COLOURS, lambda c: f"COLOUR_{COLOUR_NAMES[c]}"),
        ("DISPLAY", DISPLAY_SLOTS, None),
        ("DECK", 1, None),
        ("BARKER", 1, None),
    ]
)  # 4 × 6 + 1 + 1 + 182 + 4 + 15 + 1 + 6 + 4 + 1 + 1 = 240 actions, as §9.1


def action_name(action: int) -> str:
    """Readable name of one action, e.g. ``EXPAND_red`` or ``CELL_3_7`` (x 3, y 7)."""
    return ACTIONS.name(action)


@dataclasses.dataclass
class CairoState(CompiledState):
    """A batch of Kairo games; every array has the batch axis B first.

    Board arrays are indexed by cell ``k = 14*y + x`` (see ``data.py`` for the grid). Group ids
    are ``owner*6 + colour`` with owners 0..3 the seats and 4 the neutral set.
    """

    stage: np.ndarray  # (B,) int8 Stage
    phase: np.ndarray  # (B,) int8 Phase, the decision asked
    start_player: np.ndarray  # (B,) int8 seat that began the game
    placements: np.ndarray  # (B,) int8 setup and neutral placement steps done, 0..3P(+6)
    turn: np.ndarray  # (B,) int16 MAIN and FINAL turns completed (for max_turns)
    tile: np.ndarray  # (B, 182) int8 group id of the tile on the cell, -1 none; public
    entrance: np.ndarray  # (B, 182) int8 group id of the entrance on the cell, -1 none; public
    stall_cell: np.ndarray  # (B, 5, 6) int16 main stall cell per owner and colour, -1 off board
    entrance_cell: np.ndarray  # (B, 5, 6) int16 its entrance cell, -1 off board
    group_size: np.ndarray  # (B, 5, 6) int8 tiles of the group, 0 when off board, 1..7
    neutral_bag: np.ndarray  # (B, 6) bool neutral stalls still in the bag (2 players)
    customer: np.ndarray  # (B, 6) int16 cell of the customer of each colour, -1 off board
    money: np.ndarray  # (B, P, 6) int16 money per seat and colour; hidden if not reveal_money
    vp: np.ndarray  # (B, P) int32 VP scored during the game; public
    medal: np.ndarray  # (B, 6, 2) int8 seat holding the gold / silver medal, -1 supply
    supply: np.ndarray  # (B, 6) int8 expansions left per colour, 0..6
    barkers: np.ndarray  # (B, P) int8 barker cards held (the supply is 7 minus their sum)
    hand: np.ndarray  # (B, P, 15) int8 stall cards per type in each hand; private
    known: np.ndarray  # (B, P, 15) int8 hand cards every seat knows (taken from the display)
    display: np.ndarray  # (B, 4) int8 card type in each display slot, -1 empty; public
    deck: np.ndarray  # (B, 33) int8 draw pile card types, bottom first, -1 past deck_size
    deck_size: np.ndarray  # (B,) int8 cards in the draw pile (order hidden)
    discard: np.ndarray  # (B, 15) int8 discard pile per card type; public
    dropped: np.ndarray  # (B, P) bool seats that passed in the FINAL stage
    verb: np.ndarray  # (B,) int8 Verb of the pending decisions
    colour: np.ndarray  # (B,) int8 colour of the stall, group or customer concerned, -1
    target: np.ndarray  # (B,) int16 chosen stall or expansion cell, -1
    target_entrance: np.ndarray  # (B,) int16 chosen entrance cell of a new or moved stall, -1
    picks_left: np.ndarray  # (B,) int8 cards still to pick in three-card mode
    pay_units: np.ndarray  # (B,) int8 tile units of the expansion cost still unpaid (D9)
    pay_half: np.ndarray  # (B,) bool one coin of a 2:1 unit is paid (D9)
    draws_left: np.ndarray  # (B,) int8 draws left in a Draw action


View = kernel_view(CairoState)  # the compiled kernels' view of a state (``s``)

# Where each option sits in ``CairoGame.params`` (``s.params`` in the kernels).
P_REVEAL_MONEY, P_MOVE_REQUIRES_BLOCKED, P_AUTO_PAY, P_MAX_TURNS = range(4)
