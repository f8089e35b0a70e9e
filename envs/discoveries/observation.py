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
_MARKET_AT = AT["market"] + np.arange(2 * MARKET_SLOTS) * (NUM_TYPES + 1)
_DISPLAY_AT = AT["display"] + np.arange(DISPLAY_SLOTS) * (NUM_CONTRACTS + 1)
_RES_AT = np.where(np.arange(NUM_RES_SLOTS) < 2 * MARKET_SLOTS,
                   AT["market_reservations"] + 6 * np.arange(NUM_RES_SLOTS),
                   AT["display_reservations"] + 6 * (np.arange(NUM_RES_SLOTS) - 2 * MARKET_SLOTS))
_EXP_AT = AT["expeditions"] + np.arange(NUM_EXPEDITIONS) * EXP_SIZE
_CARRIES = FLAG_CARRIES.astype(np.float32)  # (6, 6): a known flagship's colours
_FLAG_STATE = np.array([1, 2, 2, 3])  # revealed flagship: idle, build, voyage, expedition


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
    flat = np.zeros(num * OBS.size + 1, dtype=np.float32)  # the last entry: the spare slot
    spare = num * OBS.size
    buf = flat[:spare].reshape(num, OBS.size)
    buf[:, _HEAD] = _head_values(state, players)
    building = np.flatnonzero(state.build_card >= 0)
    if building.size:
        buf[building, _BUILD_VALUES] = np.concatenate([
            state.build_tv[building, None], state.build_ships[building],
            (state.build_flag_tv[building] > 0)[:, None], state.build_jokers[building, None]],
            axis=1, dtype=np.float32) * _BUILD_SCALE
    rel = (np.arange(players) - p[:, None]) % players  # (B, P) slot of each seat
    own = rel == 0
    order = (p[:, None] + np.arange(players)) % players  # (B, N) seat of each slot
    at = AT["seats"]
    slots = buf[:, at:at + MAX_SEATS * SEAT_SIZE].reshape(num, MAX_SEATS, SEAT_SIZE)
    counts, shares = _seat_values(state, p, own)
    seated = slots[:, :players]
    np.multiply(counts[b[:, None], order], _SEAT_SCALE, out=seated)
    seated[:, :, S_PRESENT] = 1
    seated[:, :, S_FLAG_COLOURS:S_FLAG_COLOURS + NUM_COLOURS] = shares[b[:, None], order]
    # ---------------------------------------------------------------- one-hot entries
    base = (b * OBS.size)[:, None]  # (B, 1)
    seat_base = base + at + rel * SEAT_SIZE  # (B, P): each seat's slot
    live = ~state.done
    actor = np.where(live, base[:, 0] + AT["acting_seat"] + (state.current_player - p) % players,
                     spare)
    target = np.where(state.target >= 0, base[:, 0] + AT["target_expedition"] + state.target,
                      spare)
    single = np.concatenate([
        base + state.phase[:, None], actor[:, None], base + AT["open_type"]
        + state.open_type[:, None], base + AT["actions_used"] + NUM_USED[state.used][:, None],
        base + AT["own_task"] + state.task[b, p][:, None], target[:, None]], axis=1)
    unseen = base + AT["unseen_contracts"]
    deck = np.where(np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None],
                    unseen + state.contracts, spare)
    hand = state.hand
    held = hand >= 0
    hidden = np.where(held & ~state.hand_public & ~own[:, :, None], unseen[:, :, None] + hand,
                      spare)
    known = np.where(held & (state.hand_public | own[:, :, None]),
                     seat_base[:, :, None] + S_KNOWN + hand, spare)
    flag_state = _FLAG_STATE[state.flag_where] * state.flag_revealed
    market = np.concatenate([state.offer, state.refill], axis=1)
    owner = state.res_owner
    res_rel = np.where(owner >= 0, (owner - p[:, None]) % players, 4)
    current = state.current_player[:, None]
    fresh = (owner == current) & (state.res_turn == state.own_turns[b, np.maximum(
        state.current_player, 0)][:, None])
    hot = [single.ravel(), deck.ravel(), hidden.ravel(), known.ravel(),
           (seat_base + S_FLAG_STATE + flag_state).ravel(),
           (base + _MARKET_AT + market % (NUM_TYPES + 1)).ravel(),  # -1: EMPTY, the last
           (base + _DISPLAY_AT + state.display % (NUM_CONTRACTS + 1)).ravel(),
           (base + _EXP_AT + state.exp_colour_set % (NUM_COLOURS + 1)).ravel(),
           (base + _RES_AT + res_rel).ravel(), np.where(fresh, base + _RES_AT + 5, spare).ravel()]
    if building.size:
        card = state.build_card[building].astype(np.intp)
        build = base[building, 0] + AT["build"]
        hot += [build + CONTRACT_COLOUR[card], build + B_NEED - 3 + CONTRACT_TV[card],
                build + B_DURATION - 1 + state.build_duration[building]]
    flat[np.concatenate(hot)] = 1.0
    # The free TV of the expeditions and the seats' ships on them, in p's order.
    view = buf[:, AT["expeditions"]:AT["seats"]].reshape(num, NUM_EXPEDITIONS, EXP_SIZE)
    view[:, :, 7] = (EXP_LIMIT - state.exp_used) * 0.125
    both = np.concatenate([np.concatenate([state.exp_count, state.exp_same], axis=2).reshape(
        num, -1), np.broadcast_to(_ZERO, (num, 1))], axis=1)  # (B, 12 * 2P + 1)
    ships = both[b[:, None], _expedition_order(players)[p]] * np.float32(0.125)
    view[:, :, 8:8 + 2 * MAX_SEATS] = ships.reshape(num, NUM_EXPEDITIONS, 2 * MAX_SEATS)
    return buf
