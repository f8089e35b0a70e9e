"""Dschunke's decisions, action layout and batched state.

They live apart from ``game.py`` so that the rules (``rules/``) and the other modules
(observation, render, resample, invariants) can import them without an import cycle.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum
from types import SimpleNamespace

import numpy as np

from envs.core.compiled import CompiledState, kernel_view
from envs.core.layout import ActionLayout
from envs.core.names import plain
from envs.junk.data import (
    GOODS_NAMES,
    GOODS_PER_TYPE,
    HELPER_NAMES,
    JUNK_NAMES,
    MAX_HELPERS,
    MERCHANT_NAMES,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_PILES,
    NUM_SPECIAL_TYPES,
    PILE_NAMES,
    SPECIAL_NAMES,
)


class Phase(IntEnum):
    """The decision asked of the seat to act (§9.1, the 11 decision kinds), in round order."""

    SETUP_JUNK = 0  # variable setup: the junk of the next strip
    EXCH_RETURN = 1  # Phase 1b: a good to return, or DONE
    EXCH_TAKE = 2  # Phase 1b: a good to take for each returned one
    EVENT_PILE = 3  # Phase 1c S event: the pile to search
    SPECIAL_PICK = 4  # the card taken from the searched pile (event or award)
    P2_MAIN = 5  # Phase 2: main action, or an EXTRA card before it
    P2_AFTER = 6  # Phase 2: an EXTRA card after the main action, or DONE
    GREY_TYPE = 7  # a goods action on the grey junk: the type to take
    SUPPLY_PICK = 8  # Phase 3: one supply card's good
    BID = 9  # Phase 4: the secret bid, committed in turn order
    AWARD_PILE = 10  # Phase 4 S award: the pile (or, in round 10, 3 Yuan)
    GAME_OVER = 11  # nothing to decide


# Plain ints for NumPy code outside the kernels: NumPy takes a slow path for an IntEnum member.
PHASE = plain(Phase)
NUM_DECISION_KINDS = len(Phase)  # the 11 decisions and "game over"

_MOVE_PAIRS = [(src, dst) for src in range(NUM_JUNKS) for dst in range(NUM_JUNKS) if dst != src]
MAX_BID = GOODS_PER_TYPE  # §8 #32: a bid holds at most the 18 cards of a type

ACTIONS = ActionLayout(
    [
        ("MAIN_MERCHANT", 3, lambda k: f"MAIN_MERCHANT_{MERCHANT_NAMES[k]}"),
        ("MAIN_HELPER", MAX_HELPERS * NUM_JUNKS,
         lambda i: f"MAIN_HELPER_{HELPER_NAMES[i // NUM_JUNKS]}_{JUNK_NAMES[i % NUM_JUNKS]}"),
        ("LOAD_ONE", NUM_JUNKS, lambda j: f"LOAD_ONE_{JUNK_NAMES[j]}"),
        ("GOODS_ANY", NUM_JUNKS, lambda j: f"GOODS_ANY_{JUNK_NAMES[j]}"),
        ("MONEY_AT", NUM_JUNKS, lambda j: f"MONEY_AT_{JUNK_NAMES[j]}"),
        ("MOVE_STRIP", len(_MOVE_PAIRS),
         lambda i: f"MOVE_STRIP_{JUNK_NAMES[_MOVE_PAIRS[i][0]]}_{JUNK_NAMES[_MOVE_PAIRS[i][1]]}"),
        ("GOODS", NUM_GOODS, lambda g: f"GOODS_{GOODS_NAMES[g]}"),
        ("RETURN", NUM_GOODS, lambda g: f"RETURN_{GOODS_NAMES[g]}"),
        ("PILE", NUM_PILES, lambda q: f"PILE_{PILE_NAMES[q]}"),
        ("SPECIAL", NUM_SPECIAL_TYPES, lambda t: f"SPECIAL_{SPECIAL_NAMES[t]}"),
        ("PASS_BID", 1, None),
        ("BID", NUM_GOODS * MAX_BID,
         lambda i: f"BID_{GOODS_NAMES[i // MAX_BID]}_{i % MAX_BID + 1}"),
        ("DONE", 1, None),
        ("TAKE_3_YUAN", 1, None),
        ("SETUP_JUNK", NUM_JUNKS, lambda j: f"SETUP_JUNK_{JUNK_NAMES[j]}"),
    ]
)  # 3 + 10 + 5 + 5 + 5 + 20 + 4 + 4 + 4 + 21 + 1 + 72 + 1 + 1 + 5 = 161 actions, as §9.1
assert ACTIONS.size == 161
# MOVE_STRIP[src][dst] = 28 + 4 src + (dst if dst < src else dst - 1): source and target of
# each of the 20 actions of the block.
MOVE_SRC = np.array([src for src, _ in _MOVE_PAIRS], dtype=np.int64)
MOVE_DST = np.array([dst for _, dst in _MOVE_PAIRS], dtype=np.int64)
# Plain ints of the block starts (NumPy code and, as globals, the kernels).
A = SimpleNamespace(**{name: r.start for name, r in ACTIONS.ranges.items()})
# The same as module constants, for the kernels (numba reads plain ints, not a namespace).
(A_MAIN_MERCHANT, A_MAIN_HELPER, A_LOAD_ONE, A_GOODS_ANY, A_MONEY_AT, A_MOVE_STRIP, A_GOODS,
 A_RETURN, A_PILE, A_SPECIAL, A_PASS_BID, A_BID, A_DONE, A_TAKE_3_YUAN, A_SETUP_JUNK) = (
    r.start for r in ACTIONS.ranges.values())
NUM_ACTIONS = ACTIONS.size


def action_name(action: int) -> str:
    """Readable name of one action, e.g. ``MAIN_HELPER_lower_PURPLE`` or ``BID_RICE_3``."""
    return ACTIONS.name(action)


@dataclasses.dataclass
class JunkState(CompiledState):
    """A batch of Dschunke games; every array has the batch axis B first.

    Seats are absolute (0 = the start player of round 1), junks in ring order (``data.py``),
    goods FISH, RICE, SPICE, VEG. A hold is ``cargo[b, junk, layer, slot]``: layer 0 lies in
    rows, layer 1 in columns, and so on (§2.3)::

        even layer k:  slot s covers cells (s, 0) (s, 1) (s, 2)   -- a row
        odd layer k:   slot s covers cells (0, s) (1, s) (2, s)   -- a column

    Special cards have ids 0..29 (their order in the setup shuffle); ``card_loc`` says where
    each is: 0..3 in that pile, 4 + s face down with seat s, 8 + s face up with seat s, 12
    discarded (a played EXTRA card).
    """

    phase: np.ndarray  # (B,) int8 Phase, the decision asked
    round: np.ndarray  # (B,) int8 round 1..10; 0 during the variable setup
    pos: np.ndarray  # (B,) int8 turn position (0 = start player) of the seat in the phase
    decisions: np.ndarray  # (B,) int16 decisions made, asked and automatic (the cap, §9.3)
    # -- the holds (public)
    cargo: np.ndarray  # (B, 5, 27, 3) int8 owner seat of the strip in each slot, -1 empty
    height: np.ndarray  # (B, 5) int8 h(j): highest layer holding a strip, -1 empty hold
    layers: np.ndarray  # (B, 5, 3, P) int8 strips per seat in layers h, h-1, h-2 (derived)
    vis: np.ndarray  # (B, 5, P) int8 visible crates per junk and seat, 0..9 (derived)
    open_slots: np.ndarray  # (B, 5) int8 empty slots e(j) of layer h, 0..2; 0 if no strip
    presence: np.ndarray  # (B, P) int8 junks with a visible crate of the seat, 0..5
    strips: np.ndarray  # (B, P) int8 strips left in each seat's supply, 0..20
    to_place: np.ndarray  # (B, P) int8 strips of each colour still to place (variable setup)
    # -- figures (public, the merchants' identities hidden during the variable setup)
    merchant_junk: np.ndarray  # (B, 3) int8 junk of the LOAD, MONEY, GOODS merchants
    merchants_hidden: np.ndarray  # (B,) bool the merchants still lie face down
    fig_used: np.ndarray  # (B, 5) bool used this round: 3 merchants, lower, upper helper
    # -- goods
    hand: np.ndarray  # (B, P, 4) int8 goods in each hand by type; private (sizes public)
    hand_size: np.ndarray  # (B, P) int8 goods in each hand, 0..72; public (kept with hand)
    flow: np.ndarray  # (B, P, 4) int8 net public flow, hand - dealt, -8..18; public
    flow_min: np.ndarray  # (B, P, 4) int8 lowest flow ever, -8..0; public
    stack: np.ndarray  # (B, 4) int8 goods on each junk's stack, 0..18; public
    # -- money
    money: np.ndarray  # (B, P) int16 Yuan, 0..212; public unless hide_money
    announced: np.ndarray  # (B, P) int16 money announced at the last Y event
    announce_round: np.ndarray  # (B,) int8 round of the last Y announcement, 0 = none
    # -- market (the deck's order hidden)
    market_order: np.ndarray  # (B, 10) int8 market card of each round, 0..9
    unrevealed: np.ndarray  # (B, 10) bool market cards not turned yet; public
    sold: np.ndarray  # (B, 4) bool goods sold in this round's auction
    # -- special cards
    card_type: np.ndarray  # (B, 30) int8 type of each card, 0..20; hidden where face down
    card_loc: np.ndarray  # (B, 30) int8 where each card is (class doc)
    card_key: np.ndarray  # (B, P, 30) int8 each seat's knowledge class of each card (cards.py)
    pile_cards: np.ndarray  # (B, 4, 21) int8 cards in each pile by type; hidden
    pile_size: np.ndarray  # (B, 4) int8 cards in each pile, 0..8; public (kept)
    held: np.ndarray  # (B, P, 21) int8 face-down cards by type (EXTRA, END); private
    hidden: np.ndarray  # (B, P) int8 face-down cards of each seat, 0..21; public (kept)
    always: np.ndarray  # (B, P, 3) int8 face-up ALWAYS cards by type; public
    discarded: np.ndarray  # (B, 21) int8 played EXTRA cards by type; public
    searched: np.ndarray  # (B, P, 4) int8 times each seat has searched each pile
    seen: np.ndarray  # (B, P, 4, 21) int8 pile left after the seat's last search; private
    taken: np.ndarray  # (B, P, 4) int8 cards each seat took from each pile; public
    extra_used: np.ndarray  # (B, P) bool an EXTRA card played this round; public
    # -- auction
    bid_round: np.ndarray  # (B,) int8 bidding round 1..4 in Phase 4, else 0
    pending: np.ndarray  # (B, P) int16 committed bid action, -1 none; private to its seat
    committed: np.ndarray  # (B, P) bool committed in this bidding round; public
    had_bid: np.ndarray  # (B,) bool the last reveal had a valid bid
    # -- the last reveal (public)
    lr_round: np.ndarray  # (B,) int8 game round of the last reveal, 0 = none yet
    lr_bid_round: np.ndarray  # (B,) int8 its bidding round 1..4
    lr_bid: np.ndarray  # (B, P) int16 every seat's revealed bid action
    lr_payout: np.ndarray  # (B, P) int8 Yuan each seat got from it (the 3 Yuan award too)
    lr_sold: np.ndarray  # (B, 4) bool goods it sold
    lr_taker: np.ndarray  # (B,) int8 seat that won the S good alone, -1 none
    lr_pile: np.ndarray  # (B,) int8 pile the S award came from, -1 none (yet)
    lr_yuan: np.ndarray  # (B,) bool the S award was the round-10 3 Yuan
    # -- context registers of the decision asked (§9.1)
    main_done: np.ndarray  # (B,) bool the main action of this turn is done
    grey_from_extra: np.ndarray  # (B,) bool the GREY_TYPE chain comes from GOODS_ANY
    goods_left: np.ndarray  # (B,) int8 goods still owed in GREY_TYPE, 0..9
    returned: np.ndarray  # (B,) int8 goods returned in this exchange, 0..2
    takes_left: np.ndarray  # (B,) int8 goods still to take in this exchange, 0..2
    second_exchange: np.ndarray  # (B,) bool this is the seat's second exchange
    event_chosen: np.ndarray  # (B, 4) bool piles chosen in this S event
    pick_pile: np.ndarray  # (B,) int8 pile searched in SPECIAL_PICK, -1 none
    pick_award: np.ndarray  # (B,) bool the SPECIAL_PICK comes from an S award
    picks_left: np.ndarray  # (B,) int8 supply picks left for the seat, 0..8
    setup_left: np.ndarray  # (B,) int8 variable-setup placements left, 0..3P


View = kernel_view(JunkState)  # the compiled kernels' view of a state (``s``)

# Where each option sits in ``JunkGame.params`` (``s.params`` in the kernels), and the cap.
P_VARIABLE, P_HIDE_MONEY, P_HIDE_STACKS, P_MAX_DECISIONS = range(4)

# ---------------------------------------------------------------- card locations
LOC_HIDDEN = NUM_PILES  # 4 + s: face down with seat s
LOC_FACE_UP = NUM_PILES + 4  # 8 + s: face up with seat s
LOC_DISCARDED = NUM_PILES + 8  # 12
