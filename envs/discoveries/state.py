"""The decisions, the action layout and the batched state of Age of Discoveries.

They live apart from ``game.py`` so that the helper modules (legality, scoring, observation,
render, resample, invariants) share them without an import cycle.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum
from types import SimpleNamespace

import numpy as np

from envs.core import ActionLayout, BatchState
from envs.discoveries.data import (
    COLOUR_NAMES,
    CONTRACT_NAMES,
    DISPLAY_SLOTS,
    MARKET_SLOTS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    TYPE_NAMES,
)


class Phase(IntEnum):
    """The decision a row is asked (§4.2); the automatic phases run inside ``step``."""

    MAIN = 0
    PICK_EXP_SHIP = 1
    BUILD_CONTRACT = 2
    GAME_OVER = 3


class Main(IntEnum):
    """Bits of ``used``: the main actions taken this turn (§4.3)."""

    COINS = 1
    CONTRACT = 2
    BUY = 4
    DISPATCH = 8


class Open(IntEnum):
    """``open_type``: the multi-step main action still open."""

    NONE = 0
    BUY = 1
    DISPATCH = 2


class Flag(IntEnum):
    """``flag_where``: where a seat's flagship is (§10 invariant 3)."""

    IDLE = 0
    BUILD = 1  # attached to the contract being built
    VOYAGE = 2  # on an active contract
    EXPEDITION = 3


class Played(IntEnum):
    """``con_state``: what became of a played contract."""

    UNPLAYED = 0  # in the deck, the display, a hand or the build in progress
    ACTIVE = 1
    COMPLETED = 2
    DISCARDED = 3  # unfinished at Final Scoring


def _plain(enum: type[IntEnum]) -> SimpleNamespace:
    """The members as plain ints (an enum member costs an attribute lookup in hot loops)."""
    return SimpleNamespace(**{member.name: int(member) for member in enum})


PHASE, MAIN, OPEN, FLAG, PLAYED = (_plain(e) for e in (Phase, Main, Open, Flag, Played))


def _play_name(i: int) -> str:
    return f"PLAY_{CONTRACT_NAMES[i // 3]}_d{i % 3 + 1}"


def _flag_name(i: int) -> str:
    return f"PICK_FLAGSHIP_slot{i // 3}_tv{i % 3 + 1}"


# The flat layout of §9.1: 134 actions for every player count.
ACTIONS = ActionLayout([
    ("END_TURN", 1, None),
    ("TAKE_COINS", 1, None),
    ("TAKE_DISPLAY", DISPLAY_SLOTS, None),
    ("TAKE_BLIND", 1, None),
    ("BUY", MARKET_SLOTS, None),
    ("SEND", NUM_EXPEDITIONS, None),
    ("PLAY", NUM_CONTRACTS * 3, _play_name),  # PLAY_CONTRACT(c, d) = 24 + 3c + d - 1
    ("PICK_SHIP", len(TYPE_NAMES), lambda t: f"PICK_SHIP_{TYPE_NAMES[t]}"),
    ("PICK_FLAGSHIP", 6, _flag_name),  # 114 + 3 * slot + tv - 1
    ("RESERVE_OFFER", MARKET_SLOTS, None),
    ("RESERVE_REFILL", MARKET_SLOTS, None),
    ("RESERVE_CONTRACT", DISPLAY_SLOTS, None),
])
assert ACTIONS.size == 134
# Reservation slots: offer 0..4, refill 5..9, display 10..13, so RESERVE_* = 120 + slot.
NUM_RES_SLOTS = 2 * MARKET_SLOTS + DISPLAY_SLOTS
RES_DISPLAY = 2 * MARKET_SLOTS
NOT_REVEALED = -1000  # the reveal turn of a scoring card still in its pile


def action_name(action: int) -> str:
    """Readable name of one of the 134 actions."""
    return ACTIONS.name(int(action))


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour] if colour >= 0 else "none"


@dataclasses.dataclass
class DiscoveriesState(BatchState):
    """One batch of games (§4.1). B rows, P seats; "public" unless marked otherwise."""

    # ---------------------------------------------------------------- turn (§4.1, §4.3)
    phase: np.ndarray  # (B,) int8, Phase asked (GAME_OVER once over)
    start_player: np.ndarray  # (B,) int8, 0..P-1
    turn: np.ndarray  # (B,) int16, g: global turns ended, 0..300; current = (start + g) % P
    own_turns: np.ndarray  # (B, P) int16, k: turns each seat has started
    used: np.ndarray  # (B,) int8, Main bits of the main actions taken this turn
    open_type: np.ndarray  # (B,) int8, Open
    bought: np.ndarray  # (B,) int8, ships bought this turn
    placed: np.ndarray  # (B,) int8, ships put on expeditions or contracts this turn
    # ---------------------------------------------------------------- ship market (§5.3)
    offer: np.ndarray  # (B, 5) int8, ship type in each offer slot, -1 empty
    refill: np.ndarray  # (B, 5) int8, ship type in each refill slot, -1 empty
    # (B, 34) int8, the five piles as one sequence, top of pile 1 first: ship type 0..17,
    # 18 First Scoring, 19 Final Scoring; order hidden (the multiset is derivable)
    piles: np.ndarray
    pile_pos: np.ndarray  # (B,) int8, cards drawn from the sequence, 0..34
    pile_ships: np.ndarray  # (B, 18) int8, ships of each type left in the piles (derivable)
    # (B, 14) int8 reservation owner per card slot (offer 0..4, refill 5..9, display
    # 10..13), -1 none; the record moves with its card
    res_owner: np.ndarray
    res_turn: np.ndarray  # (B, 14) int16, the owner's own_turns when it was placed
    # ---------------------------------------------------------------- contracts (§5.2)
    # (B, 24) int8, the contract order drawn at setup: display, hands, then the deck;
    # positions >= deck_pos are the deck, top first (hidden)
    contracts: np.ndarray
    deck_pos: np.ndarray  # (B,) int8, 4 + 2P .. 24
    display: np.ndarray  # (B, 4) int8, contract id per slot, -1 empty
    hand: np.ndarray  # (B, P, 4) int8, contract ids in hand slots, -1 empty; private
    hand_public: np.ndarray  # (B, P, 4) bool, the slot's card was taken from the display
    hand_size: np.ndarray  # (B, P) int8, contracts in each hand, 0..4
    con_state: np.ndarray  # (B, 24) int8, Played
    con_owner: np.ndarray  # (B, 24) int8, seat of a played contract, -1 otherwise
    # (B, 24) int16, the owner's own_turns at whose start an active voyage returns (its
    # timer is con_due - own_turns of the owner, 1..3); 0 when not active
    con_due: np.ndarray
    con_duration: np.ndarray  # (B, 24) int8, the chosen d of a played contract, 1..3
    con_revenue: np.ndarray  # (B, 24) int16, coins due on completion
    con_ships: np.ndarray  # (B, 24, 18) int8, regular ships attached per type
    con_flag_tv: np.ndarray  # (B, 24) int8, declared TV of an attached flagship, 0 none
    con_flag_colour: np.ndarray  # (B, 24) int8, its declared colour, -1 none
    con_jokers: np.ndarray  # (B, 24) int8, Jokers spent on the contract
    # The active contracts of each seat grouped by timer 1..3 (last axis index t - 1), so
    # the tick is a shift:
    voyage_revenue: np.ndarray  # (B, P, 3) int16, coins due
    voyage_ships: np.ndarray  # (B, P, 3) int8, ships attached, flagship included
    voyage_fleet: np.ndarray  # (B, P, 3, 18) int8, regular ships attached per type
    # ---------------------------------------------------------------- the decision context
    target: np.ndarray  # (B,) int8, expedition of PICK_EXP_SHIP, -1 otherwise
    build_card: np.ndarray  # (B,) int8, contract of BUILD_CONTRACT, -1 otherwise
    build_duration: np.ndarray  # (B,) int8, its chosen d, 0 outside a build
    build_tv: np.ndarray  # (B,) int8, TV attached so far
    build_ships: np.ndarray  # (B, 18) int8, regular ships attached per type
    build_flag_tv: np.ndarray  # (B,) int8, the flagship's declared TV, 0 not attached
    build_flag_colour: np.ndarray  # (B,) int8, its declared colour, -1 not attached
    build_jokers: np.ndarray  # (B,) int8, Jokers spent in this build
    # ---------------------------------------------------------------- seats
    coins: np.ndarray  # (B, P) int16, 0..570
    vp_first: np.ndarray  # (B, P) int16, points of the First Scoring
    vp_final: np.ndarray  # (B, P) int16, points of the Final Scoring
    completed: np.ndarray  # (B, P) int8, contracts completed, 0..24
    jokers: np.ndarray  # (B, P) int8, Joker Ship cards left, 0..3
    reserves: np.ndarray  # (B, P) int8, Reservation cards left, 0..2
    idle: np.ndarray  # (B, P, 18) int8, idle regular ships per type
    flag_id: np.ndarray  # (B, P) int8, flagship 0..5; private until revealed
    flag_revealed: np.ndarray  # (B, P) bool, used at least once
    flag_where: np.ndarray  # (B, P) int8, Flag
    task: np.ndarray  # (B, P) int8, special-task kind 0..3; private until the end
    # ---------------------------------------------------------------- ledger (§4.1)
    income_coins: np.ndarray  # (B, P) int16, 2 per TAKE_COINS
    income_revenue: np.ndarray  # (B, P) int16, contract revenue received
    contracts_taken: np.ndarray  # (B, P) int16, contracts taken (1 coin each)
    paid_prices: np.ndarray  # (B, P) int16, ship prices paid
    paid_fees: np.ndarray  # (B, P) int16, dispatch fees paid
    ships_bought: np.ndarray  # (B, P) int16, regular ships bought
    jokers_used_exp: np.ndarray  # (B, P) int16, Jokers spent on expeditions
    jokers_used_con: np.ndarray  # (B, P) int16, Jokers spent on contracts
    contracts_discarded: np.ndarray  # (B,) int8, unfinished contracts boxed at the end
    # ---------------------------------------------------------------- expeditions (§5.4)
    # Per-ship records in placement order, slot 0..7 of each of the 12 expeditions:
    exp_owner: np.ndarray  # (B, 12, 8) int8, seat, -1 empty slot
    exp_colour: np.ndarray  # (B, 12, 8) int8, (declared) colour
    exp_tv: np.ndarray  # (B, 12, 8) int8, (declared) TV
    exp_flag: np.ndarray  # (B, 12, 8) bool, the ship is a flagship
    exp_joker: np.ndarray  # (B, 12, 8) bool, a Joker was spent on it
    exp_turn: np.ndarray  # (B, 12, 8) int16, g of the turn it was sent in
    exp_size: np.ndarray  # (B, 12) int8, ships on the expedition, 0..8
    exp_used: np.ndarray  # (B, 12) int8, TV on it, 0..limit
    exp_colour_set: np.ndarray  # (B, 12) int8, established colour, -1 none
    exp_count: np.ndarray  # (B, 12, P) int8, ships per owner
    exp_same: np.ndarray  # (B, 12, P) int8, ships per owner of the card's colour
    # ---------------------------------------------------------------- scoring schedule
    # (B,) int16, g the First / Final Scoring card came out in, NOT_REVEALED while in its
    # pile (so far below 0 that reveal + N never equals a turn)
    first_reveal: np.ndarray
    final_reveal: np.ndarray
    first_done: np.ndarray  # (B,) bool, First Scoring has run
