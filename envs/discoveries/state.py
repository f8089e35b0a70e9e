"""The decisions, the action layout and the batched state of Age of Discoveries.

They live apart from ``game.py`` so that the rules, the observation and the Python helpers
(render, picture, resample, invariants) share them without an import cycle. Every field of
the state declares its shape after the batch axis (``P`` the number of seats), its dtype
and the value of a new game before ``init_row`` deals it (``allocate``); ``View`` is the
kernels' view of it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from enum import IntEnum
from typing import Any

import numpy as np

from envs.core.compiled import CompiledState, kernel_view
from envs.core.layout import ActionLayout
from envs.core.names import plain
from envs.discoveries.data import (
    COLOUR_NAMES,
    CONTRACT_NAMES,
    DISPLAY_SLOTS,
    DURATIONS,
    HAND_LIMIT,
    JOKERS_PER_PLAYER,
    MARKET_SLOTS,
    MAX_EXP_SHIPS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_TYPES,
    PILE_CARDS,
    RESERVATIONS_PER_PLAYER,
    START_COINS,
    TYPE_NAMES,
)


class Phase(IntEnum):
    """The decision a row is asked (§4.2), in turn order; GAME_OVER once the game is over."""

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


# Plain-int copies for the NumPy code outside the kernels (render, invariants, agents).
PHASE, MAIN, OPEN, FLAG, PLAYED = (plain(e) for e in (Phase, Main, Open, Flag, Played))


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
NONE = -1  # an empty slot, no seat, no card


def action_name(action: int) -> str:
    """Readable name of one of the 134 actions."""
    return ACTIONS.name(int(action))


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour] if colour >= 0 else "none"


EXP_SLOTS = (NUM_EXPEDITIONS, MAX_EXP_SHIPS)  # the per-ship records of the expeditions
# What a field's declaration may name that depends on the player count.
P = "P"  # the number of seats, in a shape
JOKERS, RESERVATIONS = "JOKERS", "RESERVATIONS"  # the action cards a seat starts with (§2.9)


def shaped(shape: tuple[Any, ...], dtype: Any, fill: Any = 0) -> dict[str, Any]:
    """A state field's metadata: ``shape`` after the batch axis, ``dtype``, and ``fill``, the
    value of a new game's arrays (``allocate``)."""
    return {"shape": shape, "dtype": dtype, "fill": fill}


@dataclasses.dataclass
class DiscoveriesState(CompiledState):
    """One batch of games (§4.1), B rows and P seats. Each field declares its shape after the
    batch axis, its dtype and a new game's value (``shaped``); "public" unless marked
    otherwise."""

    # ---------------------------------------------------------------- turn (§4.1, §4.3)
    # Phase asked (GAME_OVER once over)
    phase: np.ndarray = field(metadata=shaped((), np.int8, fill=Phase.MAIN))
    start_player: np.ndarray = field(metadata=shaped((), np.int8))  # 0..P-1
    # g: global turns ended, 0..300; current = (start + g) % P
    turn: np.ndarray = field(metadata=shaped((), np.int16))
    own_turns: np.ndarray = field(metadata=shaped((P,), np.int16))  # k: turns each seat has started
    # Main bits of the main actions taken this turn
    used: np.ndarray = field(metadata=shaped((), np.int8))
    open_type: np.ndarray = field(metadata=shaped((), np.int8, fill=Open.NONE))  # Open
    bought: np.ndarray = field(metadata=shaped((), np.int8))  # ships bought this turn
    # ships put on expeditions or contracts this turn
    placed: np.ndarray = field(metadata=shaped((), np.int8))
    # ---------------------------------------------------------------- ship market (§5.3)
    # ship type in each offer slot, -1 empty
    offer: np.ndarray = field(metadata=shaped((MARKET_SLOTS,), np.int8, fill=NONE))
    # ship type in each refill slot, -1 empty
    refill: np.ndarray = field(metadata=shaped((MARKET_SLOTS,), np.int8, fill=NONE))
    # The five piles as one sequence, top of pile 1 first: ship type 0..17,
    # 18 First Scoring, 19 Final Scoring; order hidden (the multiset is derivable)
    piles: np.ndarray = field(metadata=shaped((PILE_CARDS,), np.int8))
    # cards drawn from the sequence, 0..34
    pile_pos: np.ndarray = field(metadata=shaped((), np.int8))
    # ships of each type left in the piles (derivable)
    pile_ships: np.ndarray = field(metadata=shaped((NUM_TYPES,), np.int8))
    # Reservation owner per card slot (offer 0..4, refill 5..9, display
    # 10..13), -1 none; the record moves with its card
    res_owner: np.ndarray = field(metadata=shaped((NUM_RES_SLOTS,), np.int8, fill=NONE))
    # the owner's own_turns when it was placed
    res_turn: np.ndarray = field(metadata=shaped((NUM_RES_SLOTS,), np.int16))
    # ---------------------------------------------------------------- contracts (§5.2)
    # The contract order drawn at setup: display, hands, then the deck;
    # positions >= deck_pos are the deck, top first (hidden)
    contracts: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8))
    deck_pos: np.ndarray = field(metadata=shaped((), np.int8))  # 4 + 2P .. 24
    # contract id per slot, -1 empty
    display: np.ndarray = field(metadata=shaped((DISPLAY_SLOTS,), np.int8, fill=NONE))
    # contract ids in hand slots, -1 empty; private
    hand: np.ndarray = field(metadata=shaped((P, HAND_LIMIT), np.int8, fill=NONE))
    # the slot's card was taken from the display
    hand_public: np.ndarray = field(metadata=shaped((P, HAND_LIMIT), bool))
    hand_size: np.ndarray = field(metadata=shaped((P,), np.int8))  # contracts in each hand, 0..4
    # Played
    con_state: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8, fill=Played.UNPLAYED))
    # seat of a played contract, -1 otherwise
    con_owner: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8, fill=NONE))
    # The owner's own_turns at whose start an active voyage returns (its
    # timer is con_due - own_turns of the owner, 1..3); 0 when not active
    con_due: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int16))
    # the chosen d of a played contract, 1..3
    con_duration: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8))
    # coins due on completion
    con_revenue: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int16))
    # regular ships attached per type
    con_ships: np.ndarray = field(metadata=shaped((NUM_CONTRACTS, NUM_TYPES), np.int8))
    # declared TV of an attached flagship, 0 none
    con_flag_tv: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8))
    # its declared colour, -1 none
    con_flag_colour: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8, fill=NONE))
    # Jokers spent on the contract
    con_jokers: np.ndarray = field(metadata=shaped((NUM_CONTRACTS,), np.int8))
    # The active contracts of each seat grouped by timer 1..3 (last axis index t - 1), so
    # the tick is a shift:
    voyage_revenue: np.ndarray = field(metadata=shaped((P, DURATIONS), np.int16))  # coins due
    # ships attached, flagship included
    voyage_ships: np.ndarray = field(metadata=shaped((P, DURATIONS), np.int8))
    # regular ships attached per type
    voyage_fleet: np.ndarray = field(metadata=shaped((P, DURATIONS, NUM_TYPES), np.int8))
    # ---------------------------------------------------------------- the decision context
    # expedition of PICK_EXP_SHIP, -1 otherwise
    target: np.ndarray = field(metadata=shaped((), np.int8, fill=NONE))
    # contract of BUILD_CONTRACT, -1 otherwise
    build_card: np.ndarray = field(metadata=shaped((), np.int8, fill=NONE))
    # its chosen d, 0 outside a build
    build_duration: np.ndarray = field(metadata=shaped((), np.int8))
    build_tv: np.ndarray = field(metadata=shaped((), np.int8))  # TV attached so far
    # regular ships attached per type
    build_ships: np.ndarray = field(metadata=shaped((NUM_TYPES,), np.int8))
    # the flagship's declared TV, 0 not attached
    build_flag_tv: np.ndarray = field(metadata=shaped((), np.int8))
    # its declared colour, -1 not attached
    build_flag_colour: np.ndarray = field(metadata=shaped((), np.int8, fill=NONE))
    build_jokers: np.ndarray = field(metadata=shaped((), np.int8))  # Jokers spent in this build
    # ---------------------------------------------------------------- seats
    coins: np.ndarray = field(metadata=shaped((P,), np.int16, fill=START_COINS))  # 0..570
    vp_first: np.ndarray = field(metadata=shaped((P,), np.int16))  # points of the First Scoring
    vp_final: np.ndarray = field(metadata=shaped((P,), np.int16))  # points of the Final Scoring
    completed: np.ndarray = field(metadata=shaped((P,), np.int8))  # contracts completed, 0..24
    # Joker Ship cards left, 0..3
    jokers: np.ndarray = field(metadata=shaped((P,), np.int8, fill=JOKERS))
    # Reservation cards left, 0..2
    reserves: np.ndarray = field(metadata=shaped((P,), np.int8, fill=RESERVATIONS))
    # idle regular ships per type
    idle: np.ndarray = field(metadata=shaped((P, NUM_TYPES), np.int8))
    # flagship 0..5; private until revealed
    flag_id: np.ndarray = field(metadata=shaped((P,), np.int8))
    flag_revealed: np.ndarray = field(metadata=shaped((P,), bool))  # used at least once
    flag_where: np.ndarray = field(metadata=shaped((P,), np.int8, fill=Flag.IDLE))  # Flag
    # special-task kind 0..3; private until the end
    task: np.ndarray = field(metadata=shaped((P,), np.int8))
    # ---------------------------------------------------------------- ledger (§4.1)
    income_coins: np.ndarray = field(metadata=shaped((P,), np.int16))  # 2 per TAKE_COINS
    income_revenue: np.ndarray = field(metadata=shaped((P,), np.int16))  # contract revenue received
    # contracts taken (1 coin each)
    contracts_taken: np.ndarray = field(metadata=shaped((P,), np.int16))
    paid_prices: np.ndarray = field(metadata=shaped((P,), np.int16))  # ship prices paid
    paid_fees: np.ndarray = field(metadata=shaped((P,), np.int16))  # dispatch fees paid
    ships_bought: np.ndarray = field(metadata=shaped((P,), np.int16))  # regular ships bought
    # Jokers spent on expeditions
    jokers_used_exp: np.ndarray = field(metadata=shaped((P,), np.int16))
    # Jokers spent on contracts
    jokers_used_con: np.ndarray = field(metadata=shaped((P,), np.int16))
    # unfinished contracts boxed at the end
    contracts_discarded: np.ndarray = field(metadata=shaped((), np.int8))
    # ---------------------------------------------------------------- expeditions (§5.4)
    # Per-ship records in placement order, slot 0..7 of each of the 12 expeditions:
    # seat, -1 empty slot
    exp_owner: np.ndarray = field(metadata=shaped(EXP_SLOTS, np.int8, fill=NONE))
    # (declared) colour
    exp_colour: np.ndarray = field(metadata=shaped(EXP_SLOTS, np.int8, fill=NONE))
    # (declared) TV
    exp_tv: np.ndarray = field(metadata=shaped(EXP_SLOTS, np.int8))
    # the ship is a flagship
    exp_flag: np.ndarray = field(metadata=shaped(EXP_SLOTS, bool))
    # a Joker was spent on it
    exp_joker: np.ndarray = field(metadata=shaped(EXP_SLOTS, bool))
    # g of the turn it was sent in
    exp_turn: np.ndarray = field(metadata=shaped(EXP_SLOTS, np.int16, fill=NONE))
    # ships on the expedition, 0..8
    exp_size: np.ndarray = field(metadata=shaped((NUM_EXPEDITIONS,), np.int8))
    exp_used: np.ndarray = field(metadata=shaped((NUM_EXPEDITIONS,), np.int8))  # TV on it, 0..limit
    # established colour, -1 none
    exp_colour_set: np.ndarray = field(metadata=shaped((NUM_EXPEDITIONS,), np.int8, fill=NONE))
    exp_count: np.ndarray = field(metadata=shaped((NUM_EXPEDITIONS, P), np.int8))  # ships per owner
    # ships per owner of the card's colour
    exp_same: np.ndarray = field(metadata=shaped((NUM_EXPEDITIONS, P), np.int8))
    # ---------------------------------------------------------------- scoring schedule
    # g the First / Final Scoring card came out in, NOT_REVEALED while in its
    # pile (so far below 0 that reveal + N never equals a turn)
    first_reveal: np.ndarray = field(metadata=shaped((), np.int16, fill=NOT_REVEALED))
    final_reveal: np.ndarray = field(metadata=shaped((), np.int16, fill=NOT_REVEALED))
    first_done: np.ndarray = field(metadata=shaped((), bool))  # First Scoring has run


View = kernel_view(DiscoveriesState)  # the compiled kernels' view of a state (``s``)


def allocate(batch_size: int, players: int) -> DiscoveriesState:
    """The arrays of ``batch_size`` new games of ``players`` seats, each field as it
    declares (``shaped``), before ``init_row`` deals each row."""
    sizes = {P: players}
    fills = {JOKERS: JOKERS_PER_PLAYER[players], RESERVATIONS: RESERVATIONS_PER_PLAYER[players]}
    arrays = {
        "current_player": np.zeros(batch_size, dtype=np.int32),
        "terminated": np.zeros(batch_size, dtype=bool),
        "truncated": np.zeros(batch_size, dtype=bool),
        "rewards": np.zeros((batch_size, players), dtype=np.float32),
        "rng": np.zeros((batch_size, 2), dtype=np.uint64),
    }
    for declared in dataclasses.fields(DiscoveriesState):
        meta = declared.metadata
        if "shape" in meta:
            shape = tuple(sizes.get(n, n) for n in meta["shape"])
            arrays[declared.name] = np.full((batch_size, *shape),
                                            fills.get(meta["fill"], meta["fill"]),
                                            dtype=meta["dtype"])
    return DiscoveriesState(**arrays)
