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
_MARKET_AT = AT["market"] + np.arange(2 * MARKET_SLOTS) * (NUM_TYPES + 1)
_DISPLAY_AT = AT["display"] + np.arange(DISPLAY_SLOTS) * (NUM_CONTRACTS + 1)
_RES_AT = np.where(np.arange(NUM_RES_SLOTS) < 2 * MARKET_SLOTS,
                   AT["market_reservations"] + 6 * np.arange(NUM_RES_SLOTS),
                   AT["display_reservations"] + 6 * (np.arange(NUM_RES_SLOTS) - 2 * MARKET_SLOTS))
_EXP_AT = AT["expeditions"] + np.arange(NUM_EXPEDITIONS) * EXP_SIZE
_CARRIES = FLAG_CARRIES.astype(np.float32)
_FLAG_STATE = np.array([1, 2, 2, 3])  # revealed flagship: idle, build, voyage, expedition


def _head_values(state: DiscoveriesState, players: int) -> np.ndarray:
    """(B, 44) float32: the run ``_HEAD`` before scaling (piles, schedule, deck ...)."""
    num = state.batch_size
    pos = state.pile_pos.astype(np.int16)[:, None]
    sizes = np.clip(PILE_END - np.maximum(pos, PILE_START), 0, None)  # (B, 5)
    left = np.arange(PILE_CARDS) >= pos
    keys = (np.arange(num)[:, None] * (NUM_TYPES + 2) + state.piles)[left]
    ships = np.bincount(keys, minlength=num * (NUM_TYPES + 2)).reshape(num, NUM_TYPES + 2)
    before = np.cumsum(sizes, axis=1)  # cards in piles 1..k
    first_in, final_in = state.first_reveal < 0, state.final_reveal < 0
    turn = state.turn
    first_left = np.where(~first_in & ~state.first_done,
                          state.first_reveal + players - turn, 0)
    final_left = np.where(~final_in & ~state.done, state.final_reveal + players - turn, 0)
    odds = np.stack([
        np.where(first_in & (before[:, FIRST_PILE - 1] == 0), 1 / np.maximum(sizes[:, 2], 1), 0),
        np.where(first_in, before[:, FIRST_PILE - 1] / _BEFORE_FIRST, 0),
        np.where(final_in & (before[:, 3] == 0), 1 / np.maximum(sizes[:, 4], 1), 0),
        np.where(final_in, before[:, 3] / _BEFORE_FINAL, 0)], axis=1)
    used = state.used[:, None] >> _USED_BITS & 1
    head = np.concatenate([
        used, np.zeros((num, 6), dtype=np.int8), turn[:, None], ~first_in[:, None],
        state.first_done[:, None], ~final_in[:, None], first_left[:, None], final_left[:, None],
        sizes, ships[:, :NUM_TYPES], odds, state.deck_pos[:, None]], axis=1, dtype=np.float32)
    head *= _HEAD_SCALE
    head += _HEAD_OFFSET
    return head


def _seat_values(state: DiscoveriesState, p: np.ndarray, own: np.ndarray) -> np.ndarray:
    """(B, P, 95) float32: every seat's slot in seat order, the one-hot entries left 0 (the
    flagship candidates as seat p may know them)."""
    num, players = state.coins.shape
    coins = state.coins[:, :, None]
    vp = (state.vp_first + state.vp_final)[:, :, None]
    completed = state.completed[:, :, None]
    hand = (state.hand >= 0).sum(axis=2, keepdims=True)
    ids = state.flag_id[:, :, None] == np.arange(NUM_FLAGSHIPS)  # (B, P, 6)
    revealed = state.flag_revealed[:, :, None]
    shown = (ids & revealed).any(axis=1)  # (B, 6)
    maybe = ~(shown | ids[np.arange(num), p])  # neither revealed nor p's own
    candidates = np.where(revealed | own[:, :, None], ids, maybe[:, None, :])
    shares = (candidates @ _CARRIES) / candidates.sum(axis=2, keepdims=True)
    revenue = state.voyage_revenue
    voyages = np.stack([revenue, np.minimum(revenue, REVENUE_SCALE), state.voyage_ships],
                       axis=3).reshape(num, players, 9)
    slot = np.concatenate([
        np.zeros((num, players, 1), dtype=np.int8), coins, np.minimum(coins, COINS_SCALE), vp,
        np.minimum(vp, VP_SCALE), completed, TRACK[completed], hand,
        np.zeros((num, players, NUM_CONTRACTS), dtype=np.int8), state.idle,
        np.zeros((num, players, 4), dtype=np.int8), candidates, shares, voyages,
        state.voyage_fleet.sum(axis=2), state.jokers[:, :, None], state.reserves[:, :, None]],
        axis=2, dtype=np.float32)
    slot *= _SEAT_SCALE
    slot += _SEAT_OFFSET
    return slot


def observe(state: DiscoveriesState, player: int | np.ndarray) -> np.ndarray:
    """(B, 1072) float32: what seat ``player`` (int or (B,)) may know (§9.2)."""
    num, players = state.coins.shape
    b = np.arange(num)
    p = np.broadcast_to(np.asarray(player, dtype=np.intp), (num,))
    flat = np.zeros(num * OBS.size + 1, dtype=np.float32)  # the last entry: the spare slot
    spare = num * OBS.size
    buf = flat[:spare].reshape(num, OBS.size)
    buf[:, _HEAD] = _head_values(state, players)
    buf[:, _BUILD_VALUES] = np.concatenate([
        state.build_tv[:, None], state.build_ships, (state.build_flag_tv > 0)[:, None],
        state.build_jokers[:, None]], axis=1, dtype=np.float32) * _BUILD_SCALE
    rel = (np.arange(players) - p[:, None]) % players  # (B, P) slot of each seat
    own = rel == 0
    order = (p[:, None] + np.arange(players)) % players  # (B, N) seat of each slot
    at = AT["seats"]
    slots = buf[:, at:at + MAX_SEATS * SEAT_SIZE].reshape(num, MAX_SEATS, SEAT_SIZE)
    slots[:, :players] = _seat_values(state, p, own)[b[:, None], order]
    # ---------------------------------------------------------------- one-hot entries
    base = (b * OBS.size)[:, None]  # (B, 1)
    seat_base = base + at + rel * SEAT_SIZE  # (B, P): each seat's slot
    used = state.used.astype(np.intp)
    live = ~state.done
    actor = np.where(live, base[:, 0] + AT["acting_seat"] + (state.current_player - p) % players,
                     spare)
    single = np.stack([base[:, 0] + state.phase, actor, base[:, 0] + AT["open_type"]
                       + state.open_type, base[:, 0] + AT["actions_used"] + NUM_USED[used],
                       base[:, 0] + AT["own_task"] + state.task[b, p],
                       np.where(state.target >= 0, base[:, 0] + AT["target_expedition"]
                                + state.target, spare)], axis=1)
    unseen = base + AT["unseen_contracts"]
    deck = np.where(np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None],
                    unseen + state.contracts, spare)
    hand = state.hand
    held = hand >= 0
    hidden = np.where(held & ~state.hand_public & ~own[:, :, None], unseen[:, :, None] + hand,
                      spare)
    known = np.where(held & (state.hand_public | own[:, :, None]),
                     seat_base[:, :, None] + S_KNOWN + hand, spare)
    flag_state = np.where(state.flag_revealed, _FLAG_STATE[state.flag_where], 0)
    market = np.concatenate([state.offer, state.refill], axis=1)
    shown = state.display
    colour = state.exp_colour_set
    owner = state.res_owner
    res_rel = np.where(owner >= 0, (owner - p[:, None]) % players, 4)
    res_turn = state.own_turns[b[:, None], np.maximum(owner, 0)]
    fresh = (owner >= 0) & (owner == state.current_player[:, None]) & (state.res_turn == res_turn)
    card = state.build_card
    building = card >= 0
    card = np.maximum(card, 0)
    build = base[:, 0] + AT["build"]
    hot = np.concatenate([
        single.ravel(), deck.ravel(), hidden.ravel(), known.ravel(),
        (seat_base + S_FLAG_STATE + flag_state).ravel(),
        (base + _MARKET_AT + np.where(market < 0, NUM_TYPES, market)).ravel(),
        (base + _DISPLAY_AT + np.where(shown < 0, NUM_CONTRACTS, shown)).ravel(),
        (base + _EXP_AT + np.where(colour < 0, NUM_COLOURS, colour)).ravel(),
        (base + _RES_AT + res_rel).ravel(), np.where(fresh, base + _RES_AT + 5, spare).ravel(),
        np.where(building, build + CONTRACT_COLOUR[card], spare),
        np.where(building, build + B_NEED - 3 + CONTRACT_TV[card], spare),
        np.where(building, build + B_DURATION - 1 + state.build_duration, spare)])
    flat[hot] = 1.0
    # The free TV of the expeditions and the seats' ships on them, in p's order.
    view = buf[:, AT["expeditions"]:AT["seats"]].reshape(num, NUM_EXPEDITIONS, EXP_SIZE)
    view[:, :, 7] = (EXP_LIMIT - state.exp_used) / 8
    view[:, :, 8:8 + players] = state.exp_count[b[:, None], :, order].transpose(0, 2, 1) / 8
    view[:, :, 12:12 + players] = state.exp_same[b[:, None], :, order].transpose(0, 2, 1) / 8
    return buf

