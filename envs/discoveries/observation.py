"""The observation of §9.2: 1,072 values in [0, 1], egocentric, for every player count.

Seat slot 0 is the observing seat p, slots 1..3 the next seats clockwise; slots at or beyond
N stay zero. The unseen contracts and the flagship candidates are p's own (never the acting
seat's).

How it is built, in a few whole-batch operations: every count the observation shows is put
in one int16 *source* array per row (the table's counts, then each seat's, the seats already
in p's order, values relative to p where they name a seat), by one concatenation. A layout
precomputed per player count (``_plan``) then says, for every one of the 1,072 entries, which
source column it reads and either the scale of a count or the value that sets a one-hot
entry: one gather, one multiplication and one comparison make the whole observation. Only
the scoring-card odds and the flagship colour shares are fractions, written afterwards.
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
_NEVER = -999  # the one-hot value of a scaled entry: no count ever takes it

# The source columns of the table, in the order ``observe`` concatenates them.
_TABLE_SOURCES = (
    ("phase", 1), ("open", 1), ("num_used", 1), ("used_bits", 4), ("turn", 1),
    ("schedule_flags", 3), ("schedule_left", 2), ("pile_sizes", 5),
    ("pile_ships", NUM_TYPES), ("deck_left", 1), ("task", 1), ("target", 1), ("actor", 1),
    ("unseen", NUM_CONTRACTS), ("market", 2 * MARKET_SLOTS), ("res_rel", NUM_RES_SLOTS),
    ("fresh", NUM_RES_SLOTS), ("display", DISPLAY_SLOTS), ("exp_colour", NUM_EXPEDITIONS),
    ("exp_free", NUM_EXPEDITIONS),
    ("build_colour", 1), ("build_need", 1), ("build_duration", 1), ("build_tv", 1),
    ("build_ships", NUM_TYPES), ("build_flag", 1), ("build_jokers", 1), ("zero", 1),
    ("one", 1))
# One seat's source columns, in the order ``_seat_sources`` concatenates them.
_SEAT_SOURCES = (
    ("coins", 1), ("coins_clipped", 1), ("vp", 1), ("vp_clipped", 1), ("completed", 1),
    ("track", 1), ("hand", 1), ("known", NUM_CONTRACTS), ("idle", NUM_TYPES),
    ("flag_state", 1), ("candidates", NUM_FLAGSHIPS), ("voyages", 9),
    ("voyage_ships", NUM_TYPES), ("jokers", 1), ("reserves", 1),
    ("exp_ships", NUM_EXPEDITIONS), ("exp_same", NUM_EXPEDITIONS))


def _offsets(sources: tuple[tuple[str, int], ...]) -> tuple[dict[str, int], int]:
    at, start = {}, 0
    for name, size in sources:
        at[name] = start
        start += size
    return at, start


_TABLE_AT, _TABLE_SIZE = _offsets(_TABLE_SOURCES)
_SEAT_AT, _SEAT_SOURCE_SIZE = _offsets(_SEAT_SOURCES)
_ODDS_AT = AT["scoring_odds"] + np.arange(4)


@functools.cache
def _plan(players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The layout of the observation for ``players`` seats: per entry (1072,) the source
    column, the scale of a count (0 for a one-hot entry) and the value that sets a one-hot
    entry (``_NEVER`` for a count); and the positions of the flagship colour shares."""
    src = np.full(OBS.size, _TABLE_AT["zero"], dtype=np.intp)
    scale = np.zeros(OBS.size, dtype=np.float32)
    code = np.full(OBS.size, _NEVER, dtype=np.int16)

    def count(pos: int, column: int, value: float, size: int = 1) -> None:
        src[pos:pos + size], scale[pos:pos + size] = np.arange(column, column + size), value

    def hot(pos: int, column: int, values) -> None:
        values = list(values)
        src[pos:pos + len(values)], code[pos:pos + len(values)] = column, values

    t = _TABLE_AT
    hot(AT["decision"], t["phase"], range(4))
    hot(AT["acting_seat"], t["actor"], range(MAX_SEATS))
    count(AT["used_types"], t["used_bits"], 1, 4)
    hot(AT["open_type"], t["open"], range(3))
    hot(AT["actions_used"], t["num_used"], range(3))
    count(AT["turn"], t["turn"], 1 / MAX_TURNS)
    count(AT["schedule"], t["schedule_flags"], 1, 3)
    count(AT["schedule"] + 3, t["schedule_left"], 1 / 4, 2)
    count(AT["pile_sizes"], t["pile_sizes"], 1 / _PILE_MAX, 5)
    count(AT["pile_ships"], t["pile_ships"], 1 / _COPIES_MAX, NUM_TYPES)
    count(AT["deck_size"], t["deck_left"], 1 / _DECK_MAX)
    count(AT["unseen_contracts"], t["unseen"], 1, NUM_CONTRACTS)
    empty_type = [*range(NUM_TYPES), -1]
    for i in range(2 * MARKET_SLOTS):
        hot(AT["market"] + i * (NUM_TYPES + 1), t["market"] + i, empty_type)
    for slot in range(NUM_RES_SLOTS):
        at = (AT["market_reservations"] + 6 * slot if slot < 2 * MARKET_SLOTS
              else AT["display_reservations"] + 6 * (slot - 2 * MARKET_SLOTS))
        hot(at, t["res_rel"] + slot, range(5))
        count(at + 5, t["fresh"] + slot, 1)
    for j in range(DISPLAY_SLOTS):
        hot(AT["display"] + j * (NUM_CONTRACTS + 1), t["display"] + j,
            [*range(NUM_CONTRACTS), -1])
    for e in range(NUM_EXPEDITIONS):
        at = AT["expeditions"] + e * EXP_SIZE
        hot(at, t["exp_colour"] + e, [*range(NUM_COLOURS), -1])
        count(at + 7, t["exp_free"] + e, 1 / 8)
    for j in range(players):
        seat, column = AT["seats"] + j * SEAT_SIZE, _TABLE_SIZE + j * _SEAT_SOURCE_SIZE
        c = {name: column + at for name, at in _SEAT_AT.items()}
        count(seat + S_PRESENT, _TABLE_AT["one"], 1)
        count(seat + S_COINS, c["coins"], 1 / COINS_BOUND)
        count(seat + S_COINS + 1, c["coins_clipped"], 1 / COINS_SCALE)
        count(seat + S_VP, c["vp"], 1 / VP_BOUND)
        count(seat + S_VP + 1, c["vp_clipped"], 1 / VP_SCALE)
        count(seat + S_COMPLETED, c["completed"], 1 / NUM_CONTRACTS)
        count(seat + S_COMPLETED + 1, c["track"], 1 / TRACK_MAX)
        count(seat + S_HAND, c["hand"], 1 / 4)
        count(seat + S_KNOWN, c["known"], 1, NUM_CONTRACTS)
        count(seat + S_IDLE, c["idle"], 1 / _COPIES_MAX, NUM_TYPES)
        hot(seat + S_FLAG_STATE, c["flag_state"], range(4))
        count(seat + S_CANDIDATES, c["candidates"], 1, NUM_FLAGSHIPS)
        for k, value in enumerate((1 / REVENUE_BOUND, 1 / REVENUE_SCALE, 1 / SHIPS_BOUND) * 3):
            count(seat + S_VOYAGES + k, c["voyages"] + k, value)
        count(seat + S_VOYAGE_SHIPS, c["voyage_ships"], 1 / _COPIES_MAX, NUM_TYPES)
        count(seat + S_JOKERS, c["jokers"], 1 / MAX_JOKERS)
        count(seat + S_RESERVES, c["reserves"], 1 / MAX_RESERVATIONS)
        for e in range(NUM_EXPEDITIONS):  # the seat's ships on the expeditions, slot j
            at = AT["expeditions"] + e * EXP_SIZE
            count(at + 8 + j, c["exp_ships"] + e, 1 / 8)
            count(at + 12 + j, c["exp_same"] + e, 1 / 8)
    hot(AT["own_task"], t["task"], range(4))
    hot(AT["target_expedition"], t["target"], range(NUM_EXPEDITIONS))
    build = AT["build"]
    hot(build + B_COLOUR, t["build_colour"], range(NUM_COLOURS))
    hot(build + B_NEED, t["build_need"], range(3, 7))
    hot(build + B_DURATION, t["build_duration"], range(1, 4))
    count(build + B_TV, t["build_tv"], 1 / 6)
    count(build + B_SHIPS, t["build_ships"], 1 / _COPIES_MAX, NUM_TYPES)
    count(build + B_FLAG, t["build_flag"], 1)
    count(build + B_JOKERS, t["build_jokers"], 1 / MAX_JOKERS)
    shares = (AT["seats"] + np.arange(players)[:, None] * SEAT_SIZE + S_FLAG_COLOURS
              + np.arange(NUM_COLOURS)).ravel()
    return src, scale, code, shares


@functools.cache
def _relative(players: int) -> np.ndarray:
    """(P, P + 1) intp: the slot of each seat from each observing seat; column P (a seat of
    -1: no owner) reads 4, the reservation piece's "none" entry."""
    table = (np.arange(players)[None, :] - np.arange(players)[:, None]) % players
    return np.concatenate([table, np.full((players, 1), MAX_SEATS)], axis=1)


_USED_BITS = np.arange(4)
_ZERO_ONE = np.array([[0, 1]], dtype=np.int16)
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
_CARRIES = FLAG_CARRIES.astype(np.float32)  # (6, 6): a known flagship's colours
_FLAG_STATE = np.array([1, 2, 2, 3])  # revealed flagship: idle, build, voyage, expedition
_BUILD_COLOUR = np.append(CONTRACT_COLOUR, -1)  # by build card, -1 none
_BUILD_NEED = np.append(CONTRACT_TV, -1)


def _seat_sources(state: DiscoveriesState, p: np.ndarray, own: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Every seat's sources in seat order, (B, P, 109) int16 (``_SEAT_SOURCES``), and its
    flagship colour shares (B, P, 6) float32, the candidates as seat p may know them."""
    num, players = state.coins.shape
    coins = state.coins[:, :, None]
    vp = (state.vp_first + state.vp_final)[:, :, None]
    completed = state.completed[:, :, None]
    hand = state.hand.astype(np.intp)
    known = np.zeros((num, players, NUM_CONTRACTS + 1), dtype=np.int8)
    seen = (hand >= 0) & (state.hand_public | own[:, :, None])
    known[np.arange(num)[:, None, None], np.arange(players)[:, None],
          np.where(seen, hand, NUM_CONTRACTS)] = 1
    ids = state.flag_id.astype(np.intp)
    # The flagships seat p has not seen (neither revealed nor its own), as a bit set.
    unseen = 63 - ((state.flag_revealed << ids).sum(axis=1) | (1 << ids[np.arange(num), p]))
    knows = (state.flag_revealed | own)[:, :, None]
    candidates = np.where(knows, _ONE_HOT[ids], _BITS_SET[unseen][:, None, :])
    shares = np.where(knows, _CARRIES[ids], _BITS_SHARES[unseen][:, None, :])
    revenue = state.voyage_revenue
    voyages = np.concatenate([revenue[..., None], np.minimum(revenue, REVENUE_SCALE)[..., None],
                              state.voyage_ships[..., None]], axis=3).reshape(num, players, 9)
    sources = np.concatenate([
        coins, np.minimum(coins, COINS_SCALE), vp, np.minimum(vp, VP_SCALE), completed,
        TRACK[completed], state.hand_size[:, :, None], known[:, :, :NUM_CONTRACTS], state.idle,
        (_FLAG_STATE[state.flag_where] * state.flag_revealed)[:, :, None], candidates, voyages,
        state.voyage_fleet.sum(axis=2, dtype=np.int16), state.jokers[:, :, None],
        state.reserves[:, :, None], state.exp_count.transpose(0, 2, 1),
        state.exp_same.transpose(0, 2, 1)], axis=2, dtype=np.int16)
    return sources, shares


def observe(state: DiscoveriesState, player: int | np.ndarray) -> np.ndarray:
    """(B, 1072) float32: what seat ``player`` (int or (B,)) may know (§9.2)."""
    num, players = state.coins.shape
    b = np.arange(num)
    p = np.broadcast_to(np.asarray(player, dtype=np.intp), (num,))
    rel = _relative(players)[p]  # (B, P + 1) slot of each seat (last: no seat, 4)
    own = rel[:, :players] == 0
    order = (p[:, None] + np.arange(players)) % players  # (B, N) seat of each slot
    seats, shares = _seat_sources(state, p, own)
    current = state.current_player
    hand = state.hand.astype(np.intp)
    unseen = np.zeros((num, NUM_CONTRACTS + 1), dtype=np.int8)
    unseen[b[:, None], np.where(np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None],
                                state.contracts, NUM_CONTRACTS)] = 1
    hidden = (hand >= 0) & ~state.hand_public & ~own[:, :, None]
    unseen[b[:, None], np.where(hidden, hand, NUM_CONTRACTS).reshape(num, -1)] = 1
    owner = state.res_owner
    fresh = (owner == current[:, None]) & (owner >= 0) & (
        state.res_turn == state.own_turns[b, current][:, None])
    pos = state.pile_pos.astype(np.intp)
    first_in, final_in = state.first_reveal < 0, state.final_reveal < 0
    turn = state.turn
    card = state.build_card
    source = np.concatenate([
        state.phase[:, None], state.open_type[:, None], NUM_USED[state.used][:, None],
        state.used[:, None] >> _USED_BITS & 1, turn[:, None], ~first_in[:, None],
        state.first_done[:, None], ~final_in[:, None],
        ((state.first_reveal + players - turn) * (~first_in & ~state.first_done))[:, None],
        ((state.final_reveal + players - turn) * (~final_in & ~state.done))[:, None],
        _PILE_SIZES[pos], state.pile_ships, (NUM_CONTRACTS - state.deck_pos)[:, None],
        state.task[b, p][:, None], state.target[:, None],
        np.where(current >= 0, rel[b, current], -1)[:, None], unseen[:, :NUM_CONTRACTS],
        state.offer, state.refill, rel[b[:, None], owner], fresh, state.display,
        state.exp_colour_set, EXP_LIMIT - state.exp_used, _BUILD_COLOUR[card][:, None],
        _BUILD_NEED[card][:, None], state.build_duration[:, None], state.build_tv[:, None],
        state.build_ships, (state.build_flag_tv > 0)[:, None], state.build_jokers[:, None],
        _ZERO_ONE.repeat(num, axis=0), seats[b[:, None], order].reshape(num, -1)],
        axis=1, dtype=np.int16)
    column, scale, code, shares_at = _plan(players)
    counts = source[:, column]
    obs = counts * scale
    obs += counts == code
    odds = _ODDS[pos]  # a copy: the odds of the cards still in their piles
    odds[:, :2] *= first_in[:, None]
    odds[:, 2:] *= final_in[:, None]
    obs[:, _ODDS_AT] = odds
    obs[:, shares_at] = shares[b[:, None], order].reshape(num, -1)
    return obs
