"""The observation of §9.2: 1,072 values in [0, 1], egocentric, for every player count.

Seat slot 0 is the observing seat p, slots 1..3 the next seats clockwise; slots at or beyond
N stay zero. The unseen contracts and the flagship candidates are p's own (never the acting
seat's).

How it is built, in a few whole-batch operations: the scaled values lie in a few runs (the
table's head, the build, every seat's slot), each made by one concatenation of the raw
counts and one precomputed scale and offset; the seat slots, computed in seat order, are put
in p's order by one gather. Every one-hot entry is set by one flat scatter; entries that do
not apply (no target expedition, no build, a finished game) go to a spare slot past the last
row.
"""

from __future__ import annotations

import functools

import numpy as np

from envs.core import ObservationLayout, Piece
from envs.discoveries.data import (
    COINS_BOUND,
    COINS_SCALE,
    CONTRACT_COLOUR,
    CONTRACT_TV,
    DISPLAY_SLOTS,
    EXP_LIMIT,
    FIRST_PILE,
    FLAG_CARRIES,
    MARKET_SLOTS,
    MAX_JOKERS,
    MAX_RESERVATIONS,
    MAX_TURNS,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_FLAGSHIPS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_END,
    PILE_START,
    REVENUE_BOUND,
    REVENUE_SCALE,
    SHIPS_BOUND,
    TRACK,
    TRACK_MAX,
    VP_BOUND,
    VP_SCALE,
)
from envs.discoveries.legality import NUM_USED
from envs.discoveries.state import NUM_RES_SLOTS, DiscoveriesState

MAX_SEATS = 4
SEAT_SIZE = 95
EXP_SIZE = 16  # established colour (7), free TV, ships and card-coloured ships per seat
BUILD_SIZE = 34

OBS = ObservationLayout([
    Piece("decision", (4,), public=True, high=1),  # MAIN, PICK_EXP_SHIP, BUILD, GAME_OVER
    Piece("acting_seat", (MAX_SEATS,), public=True, high=1),  # relative one-hot
    Piece("used_types", (4,), public=True, high=1),  # COINS, CONTRACT, BUY, DISPATCH
    Piece("open_type", (3,), public=True, high=1),  # none, BUY, DISPATCH
    Piece("actions_used", (3,), public=True, high=1),  # 0, 1, 2
    Piece("turn", (1,), public=True, high=1),  # g / 300
    Piece("schedule", (5,), public=True, high=1),
    Piece("pile_sizes", (5,), public=True, high=1),  # / 8
    Piece("pile_ships", (NUM_TYPES,), public=True, high=1),  # per type / 3
    Piece("scoring_odds", (4,), public=True, high=1),
    Piece("deck_size", (1,), public=True, high=1),  # / 16
    Piece("unseen_contracts", (NUM_CONTRACTS,), public=False, high=1),
    Piece("market", (2 * MARKET_SLOTS, NUM_TYPES + 1), public=True, high=1),
    Piece("market_reservations", (2 * MARKET_SLOTS, 6), public=True, high=1),
    Piece("display", (DISPLAY_SLOTS, NUM_CONTRACTS + 1), public=True, high=1),
    Piece("display_reservations", (DISPLAY_SLOTS, 6), public=True, high=1),
    Piece("expeditions", (NUM_EXPEDITIONS, EXP_SIZE), public=True, high=1),
    Piece("seats", (MAX_SEATS, SEAT_SIZE), public=False, high=1),
    Piece("own_task", (4,), public=False, high=1),
    Piece("target_expedition", (NUM_EXPEDITIONS,), public=True, high=1),
    Piece("build", (BUILD_SIZE,), public=True, high=1),
])
assert OBS.size == 1072
AT = {name: sl.start for name, sl in OBS.offsets.items()}

# Offsets inside one seat slot (§9.2's per-seat table).
S_PRESENT, S_COINS, S_VP, S_COMPLETED, S_HAND = 0, 1, 3, 5, 7
S_KNOWN, S_IDLE, S_FLAG_STATE, S_CANDIDATES, S_FLAG_COLOURS = 8, 32, 50, 54, 60
S_VOYAGES, S_VOYAGE_SHIPS, S_JOKERS, S_RESERVES = 66, 75, 93, 94
# Offsets inside the build piece.
B_COLOUR, B_NEED, B_DURATION, B_TV, B_SHIPS, B_FLAG, B_JOKERS = 0, 6, 10, 13, 14, 32, 33

_DECK_MAX = 16  # 24 - 4 - 2 * 2
_PILE_MAX = 8
_COPIES_MAX = 3
_BEFORE_FIRST, _BEFORE_FINAL = 12, 26  # most cards in the piles before pile 3, pile 5


def _scales(size: int, entries: list[tuple[int, int, float, float]]) -> tuple[np.ndarray, ...]:
    """(size,) float32 scale and offset vectors from ``(position, count, scale, offset)``."""
    scale = np.zeros(size, dtype=np.float32)
    offset = np.zeros(size, dtype=np.float32)
    for pos, count, value, shift in entries:
        scale[pos:pos + count] = value
        offset[pos:pos + count] = shift
    return scale, offset


# The table's scaled values lie in one run, "used_types" .. "deck_size" (the one-hot open
# type and actions used inside it are left 0 here and scattered).
_HEAD = slice(AT["used_types"], AT["deck_size"] + 1)
_HEAD_SCALE, _HEAD_OFFSET = _scales(_HEAD.stop - _HEAD.start, [
    (0, 4, 1, 0), (AT["turn"] - _HEAD.start, 1, 1 / MAX_TURNS, 0),
    (AT["schedule"] - _HEAD.start, 3, 1, 0), (AT["schedule"] + 3 - _HEAD.start, 2, 1 / 4, 0),
    (AT["pile_sizes"] - _HEAD.start, 5, 1 / _PILE_MAX, 0),
    (AT["pile_ships"] - _HEAD.start, NUM_TYPES, 1 / _COPIES_MAX, 0),
    (AT["scoring_odds"] - _HEAD.start, 4, 1, 0),
    (AT["deck_size"] - _HEAD.start, 1, -1 / _DECK_MAX, NUM_CONTRACTS / _DECK_MAX)])
_BUILD_VALUES = slice(AT["build"] + B_TV, AT["build"] + BUILD_SIZE)
_BUILD_SCALE = np.array([1 / 6] + [1 / _COPIES_MAX] * NUM_TYPES + [1, 1 / MAX_JOKERS],
                        dtype=np.float32)
# One seat slot, every entry (the one-hot known cards and flagship state left 0 here).
_SEAT_SCALE, _SEAT_OFFSET = _scales(SEAT_SIZE, [
    (S_PRESENT, 1, 0, 1), (S_COINS, 1, 1 / COINS_BOUND, 0), (S_COINS + 1, 1, 1 / COINS_SCALE, 0),
    (S_VP, 1, 1 / VP_BOUND, 0), (S_VP + 1, 1, 1 / VP_SCALE, 0),
    (S_COMPLETED, 1, 1 / NUM_CONTRACTS, 0), (S_COMPLETED + 1, 1, 1 / TRACK_MAX, 0),
    (S_HAND, 1, 1 / 4, 0), (S_IDLE, NUM_TYPES, 1 / _COPIES_MAX, 0),
    (S_CANDIDATES, 2 * NUM_FLAGSHIPS, 1, 0), (S_VOYAGE_SHIPS, NUM_TYPES, 1 / _COPIES_MAX, 0),
    (S_JOKERS, 1, 1 / MAX_JOKERS, 0), (S_RESERVES, 1, 1 / MAX_RESERVATIONS, 0)]
    + [(S_VOYAGES + 3 * t + k, 1, v, 0) for t in range(3)
       for k, v in enumerate((1 / REVENUE_BOUND, 1 / REVENUE_SCALE, 1 / SHIPS_BOUND))])
_USED_BITS = np.arange(4)
_ZERO = np.zeros((), dtype=np.int8)
_EXPEDITIONS = np.arange(NUM_EXPEDITIONS)[None, :, None]
# By pile position 0..34: the five pile sizes, and the scoring-card odds of an unrevealed
# First and Final card (the chance the next draw shows it, the cards before its pile).
_PILE_SIZES = np.maximum(PILE_END - np.maximum(np.arange(PILE_CARDS + 1)[:, None], PILE_START),
                         0).astype(np.int8)  # (35, 5)
_BEFORE = np.cumsum(_PILE_SIZES, axis=1)
_ODDS = np.stack([
    np.where(_BEFORE[:, FIRST_PILE - 1] == 0, 1 / np.maximum(_PILE_SIZES[:, 2], 1), 0),
    _BEFORE[:, FIRST_PILE - 1] / _BEFORE_FIRST,
    np.where(_BEFORE[:, 3] == 0, 1 / np.maximum(_PILE_SIZES[:, 4], 1), 0),
    _BEFORE[:, 3] / _BEFORE_FINAL], axis=1).astype(np.float32)  # (35, 4)
_ONE_HOT = np.eye(NUM_FLAGSHIPS, dtype=np.int8)
_BITS_SET = ((np.arange(64)[:, None] >> np.arange(NUM_FLAGSHIPS)) & 1).astype(np.int8)
# The share of the flagships of a set carrying each colour (an empty set: 0).
_BITS_SHARES = (_BITS_SET @ FLAG_CARRIES.astype(np.float32) / np.maximum(
    _BITS_SET.sum(axis=1, keepdims=True), 1)).astype(np.float32)
# One-hot positions by value, a value of -1 reading the last entry: -1 (no entry) where the
# piece has no "none" entry, the "none" entry where it has one.
_DECISION_AT = AT["decision"] + np.arange(4)
_OPEN_AT = AT["open_type"] + np.arange(3)
_USED_AT = AT["actions_used"] + NUM_USED.astype(np.intp)  # by the 4-bit ``used``
_TASK_AT = AT["own_task"] + np.arange(4)
_TARGET_AT = np.append(AT["target_expedition"] + np.arange(NUM_EXPEDITIONS), -1)
# (slot, type or -1): the market, display and established-colour one-hots (-1: EMPTY/none).
_MARKET_CODE = (AT["market"] + np.arange(2 * MARKET_SLOTS)[:, None] * (NUM_TYPES + 1)
                + np.arange(NUM_TYPES + 1))
_MARKET_SLOT = np.arange(MARKET_SLOTS)
_DISPLAY_CODE = (AT["display"] + np.arange(DISPLAY_SLOTS)[:, None] * (NUM_CONTRACTS + 1)
                 + np.arange(NUM_CONTRACTS + 1))
_DISPLAY_SLOT = np.arange(DISPLAY_SLOTS)
_EXP_CODE = (AT["expeditions"] + np.arange(NUM_EXPEDITIONS)[:, None] * EXP_SIZE
             + np.arange(NUM_COLOURS + 1))
_EXP_SLOT = np.arange(NUM_EXPEDITIONS)
_BUILD_COLOUR_AT = np.append(AT["build"] + B_COLOUR + CONTRACT_COLOUR.astype(np.intp), -1)
_BUILD_NEED_AT = np.append(AT["build"] + B_NEED + CONTRACT_TV.astype(np.intp) - 3, -1)
_BUILD_DURATION_AT = np.array([-1, *(AT["build"] + B_DURATION + np.arange(3))])
_RES_AT = np.where(np.arange(NUM_RES_SLOTS) < 2 * MARKET_SLOTS,
                   AT["market_reservations"] + 6 * np.arange(NUM_RES_SLOTS),
                   AT["display_reservations"] + 6 * (np.arange(NUM_RES_SLOTS) - 2 * MARKET_SLOTS))
_CARRIES = FLAG_CARRIES.astype(np.float32)  # (6, 6): a known flagship's colours
_FLAG_STATE = np.array([1, 2, 2, 3])  # revealed flagship: idle, build, voyage, expedition


@functools.cache
def _relative(players: int) -> np.ndarray:
    """(P, P + 1) intp: the slot of each seat from each observing seat; column P (a seat of
    -1: no owner) reads 4, the reservation piece's "none" entry."""
    table = (np.arange(players)[None, :] - np.arange(players)[:, None]) % players
    return np.concatenate([table, np.full((players, 1), MAX_SEATS)], axis=1)


@functools.cache
def _expedition_order(players: int) -> np.ndarray:
    """(P, 12 * 8) intp: for each observing seat p, where the expedition piece's per-seat
    counts (ships, then card-coloured ships, of slots 0..3) are in the (12, 2P) counts of a
    row, flattened; slots beyond P read a zero column (index 12 * 2P)."""
    table = np.full((players, NUM_EXPEDITIONS, 2, MAX_SEATS), NUM_EXPEDITIONS * 2 * players)
    for p in range(players):
        for j in range(players):
            seat = (p + j) % players
            for kind in range(2):
                table[p, :, kind, j] = np.arange(NUM_EXPEDITIONS) * 2 * players + (
                    kind * players + seat)
    return table.reshape(players, -1)


def _head_values(state: DiscoveriesState, players: int) -> np.ndarray:
    """(B, 44) float32: the run ``_HEAD`` (piles, schedule, deck ...), scaled."""
    num = state.batch_size
    pos = state.pile_pos.astype(np.intp)
    first_in, final_in = state.first_reveal < 0, state.final_reveal < 0
    turn = state.turn
    first_left = (state.first_reveal + players - turn) * (~first_in & ~state.first_done)
    final_left = (state.final_reveal + players - turn) * (~final_in & ~state.done)
    odds = _ODDS[pos] * np.stack([first_in, first_in, final_in, final_in], axis=1)
    head = np.concatenate([
        state.used[:, None] >> _USED_BITS & 1, np.broadcast_to(_ZERO, (num, 6)),
        turn[:, None], ~first_in[:, None], state.first_done[:, None], ~final_in[:, None],
        first_left[:, None], final_left[:, None], _PILE_SIZES[pos], state.pile_ships, odds,
        state.deck_pos[:, None]], axis=1, dtype=np.float32)
    head *= _HEAD_SCALE
    head += _HEAD_OFFSET
    return head


def _seat_values(state: DiscoveriesState, p: np.ndarray, own: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Every seat's slot in seat order: (B, P, 95) int16 counts (the one-hot entries and the
    flagship colour shares 0) and (B, P, 6) float32 colour shares; the flagship candidates
    are the ones seat p may know."""
    num, players = state.coins.shape
    coins = state.coins[:, :, None]
    vp = (state.vp_first + state.vp_final)[:, :, None]
    completed = state.completed[:, :, None]
    ids = state.flag_id.astype(np.intp)
    # The flagships seat p has not seen (neither revealed nor its own), as a bit set.
    seen = (state.flag_revealed << ids).sum(axis=1) | (1 << ids[np.arange(num), p])
    knows = (state.flag_revealed | own)[:, :, None]
    candidates = np.where(knows, _ONE_HOT[ids], _BITS_SET[63 - seen][:, None, :])
    shares = np.where(knows, _CARRIES[ids], _BITS_SHARES[63 - seen][:, None, :])
    revenue = state.voyage_revenue
    voyages = np.concatenate([revenue[..., None], np.minimum(revenue, REVENUE_SCALE)[..., None],
                              state.voyage_ships[..., None]], axis=3).reshape(num, players, 9)
    counts = np.concatenate([
        np.broadcast_to(_ZERO, (num, players, 1)), coins, np.minimum(coins, COINS_SCALE), vp,
        np.minimum(vp, VP_SCALE), completed, TRACK[completed], state.hand_size[:, :, None],
        np.broadcast_to(_ZERO, (num, players, NUM_CONTRACTS)), state.idle,
        np.broadcast_to(_ZERO, (num, players, 4)), candidates,
        np.broadcast_to(_ZERO, (num, players, NUM_COLOURS)), voyages,
        state.voyage_fleet.sum(axis=2, dtype=np.int16), state.jokers[:, :, None],
        state.reserves[:, :, None]], axis=2, dtype=np.int16)
    return counts, shares


def observe(state: DiscoveriesState, player: int | np.ndarray) -> np.ndarray:
    """(B, 1072) float32: what seat ``player`` (int or (B,)) may know (§9.2)."""
    num, players = state.coins.shape
    b = np.arange(num)
    p = np.broadcast_to(np.asarray(player, dtype=np.intp), (num,))
    buf = np.zeros((num, OBS.size), dtype=np.float32)
    buf[:, _HEAD] = _head_values(state, players)
    building = np.flatnonzero(state.build_card >= 0)
    if building.size:
        buf[building, _BUILD_VALUES] = np.concatenate([
            state.build_tv[building, None], state.build_ships[building],
            (state.build_flag_tv[building] > 0)[:, None], state.build_jokers[building, None]],
            axis=1, dtype=np.float32) * _BUILD_SCALE
    rel = _relative(players)[p]  # (B, P + 1) slot of each seat (last: none, 4)
    own = rel[:, :players] == 0
    order = (p[:, None] + np.arange(players)) % players  # (B, N) seat of each slot
    at = AT["seats"]
    slots = buf[:, at:at + MAX_SEATS * SEAT_SIZE].reshape(num, MAX_SEATS, SEAT_SIZE)
    counts, shares = _seat_values(state, p, own)
    seated = slots[:, :players]
    np.multiply(counts[b[:, None], order], _SEAT_SCALE, out=seated)
    seated[:, :, S_PRESENT] = 1
    seated[:, :, S_FLAG_COLOURS:S_FLAG_COLOURS + NUM_COLOURS] = shares[b[:, None], order]
    # The one-hot entries: each piece's position in the row, negative where none is set
    # (the tables map a -1 value, their last entry, to -1 or to the piece's "none" entry).
    seat_at = at + rel[:, :players] * SEAT_SIZE  # (B, P): each seat's slot
    hand = state.hand.astype(np.intp)
    held = hand >= 0
    unseen = AT["unseen_contracts"]
    owner = state.res_owner
    current = state.current_player
    fresh = (owner == current[:, None]) & (owner >= 0) & (
        state.res_turn == state.own_turns[b, current][:, None])
    codes = [
        _DECISION_AT[state.phase][:, None], _OPEN_AT[state.open_type][:, None],
        _USED_AT[state.used][:, None], _TASK_AT[state.task[b, p]][:, None],
        _TARGET_AT[state.target][:, None],
        np.where(current >= 0, AT["acting_seat"] + rel[b, current], -1)[:, None],
        np.where(np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None],
                 unseen + state.contracts.astype(np.intp), -1),
        np.where(held & ~state.hand_public & ~own[:, :, None], unseen + hand, -1).reshape(num, -1),
        np.where(held & (state.hand_public | own[:, :, None]), seat_at[:, :, None] + S_KNOWN
                 + hand, -1).reshape(num, -1),
        seat_at + S_FLAG_STATE + _FLAG_STATE[state.flag_where] * state.flag_revealed,
        _MARKET_CODE[_MARKET_SLOT, state.offer], _MARKET_CODE[_MARKET_SLOT + MARKET_SLOTS,
                                                              state.refill],
        _DISPLAY_CODE[_DISPLAY_SLOT, state.display],
        _EXP_CODE[_EXP_SLOT, state.exp_colour_set],
        _RES_AT + rel[b[:, None], owner], np.where(fresh, _RES_AT + 5, -1)]
    if building.size:
        card = state.build_card
        codes += [_BUILD_COLOUR_AT[card][:, None], _BUILD_NEED_AT[card][:, None],
                  _BUILD_DURATION_AT[state.build_duration][:, None]]
    codes = np.concatenate(codes, axis=1)
    buf.reshape(-1)[(b[:, None] * OBS.size + codes)[codes >= 0]] = 1.0
    # The free TV of the expeditions and the seats' ships on them, in p's order.
    view = buf[:, AT["expeditions"]:AT["seats"]].reshape(num, NUM_EXPEDITIONS, EXP_SIZE)
    view[:, :, 7] = (EXP_LIMIT - state.exp_used) * 0.125
    both = np.concatenate([np.concatenate([state.exp_count, state.exp_same], axis=2).reshape(
        num, -1), np.broadcast_to(_ZERO, (num, 1))], axis=1)  # (B, 12 * 2P + 1)
    ships = both[b[:, None], _expedition_order(players)[p]] * np.float32(0.125)
    view[:, :, 8:8 + 2 * MAX_SEATS] = ships.reshape(num, NUM_EXPEDITIONS, 2 * MAX_SEATS)
    return buf
