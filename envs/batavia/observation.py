"""What one seat may know (§6, §9.4): the observation encoder.

One flat float32 vector of 1018 values in [0, 1] at every player count, egocentric: seat
slot k holds seat ``(o + k) mod N`` for the observer o, and slots k >= N are zeros. Every
count is divided by its true bound (§9.4), so every piece has bound 1. The only private
piece is the observer's hand.

How it is built (the cost is memory traffic at large batches and NumPy calls at small
ones): every piece is made as raw counts and one-hots, the pieces are concatenated once and
the whole vector is multiplied once by the per-entry scale ``SCALE``. The per-seat features
of all seats form one (B·N + 1, 44) table (the last row zeros, for the padded slots), from
which each observer's slots are one flat ``take`` of 176-byte items; the route squares and
the warehouse squares are likewise ``take``s of whole table rows (14 and 6 values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.batavia.data import (
    CARDS_PER_COMPANY,
    CRATES,
    DIE_FACES,
    GOAL_SPACE,
    MAX_ROUNDS,
    MAX_SEATS,
    NUM_BLOCKS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    NUM_TILES,
    PIRATE_THRESHOLD,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.state import MAX_BID, BataviaState, Phase
from envs.core.layout import ObservationLayout, Piece

if TYPE_CHECKING:
    from envs.batavia.game import BataviaGame

MAX_COINS = MAX_BID  # 15 x 5
MAX_GOLD = 105  # exchange gold: each of the 35 posts handed in once, k(k+1)/2 <= 3k
MAX_POSTS = NUM_GOODS  # a company has 7 posts
MAX_THRESHOLD = 25
NUM_ZONES = NUM_BLOCKS + 2  # start, blocks 1..7, goal

# The features of one seat slot (§9.4, 44 values).
SEAT = ObservationLayout([
    Piece("present", (1,), True, 1.0),
    Piece("coins", (1,), True, 1.0),  # / 75
    Piece("gold", (1,), True, 1.0),  # / 105
    Piece("hand_size", (1,), True, 1.0),  # / 110
    Piece("known", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("display", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("seals", (NUM_COMPANIES,), True, 1.0),
    Piece("posts", (NUM_COMPANIES,), True, 1.0),  # / 7
    Piece("crates", (1,), True, 1.0),  # / 12
    Piece("position", (1,), True, 1.0),  # / 36
    Piece("zone", (NUM_ZONES,), True, 1.0),
    Piece("ahead", (NUM_COMPANIES,), True, 1.0),
    Piece("goal", (1,), True, 1.0),
    Piece("acted", (1,), True, 1.0),
    Piece("passed", (1,), True, 1.0),
    Piece("ship", (1,), True, 1.0),
])
ROUTE_FEATURES = 2 + NUM_COMPANIES + NUM_GOODS  # present, face up, company, good

OBS = ObservationLayout([
    Piece("decision", (len(Phase),), True, 1.0),  # AUCTION_BID .. GAME_OVER
    Piece("final_round", (1,), True, 1.0),
    Piece("to_act", (MAX_SEATS,), True, 1.0),  # relative one-hot
    Piece("hand", (NUM_COMPANIES,), False, 1.0),  # / 22, the observer's own
    Piece("current_play", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("seats", (MAX_SEATS, SEAT.size), True, 1.0),
    Piece("route", (NUM_SPACES, ROUTE_FEATURES), True, 1.0),
    Piece("hidden_goods", (NUM_COMPANIES, NUM_GOODS), True, 1.0),
    Piece("warehouses", (NUM_GOODS, NUM_COMPANIES, MAX_SEATS + 1), True, 1.0),
    Piece("lot", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("lot_size", (1,), True, 1.0),  # / 110
    Piece("high_bid", (1,), True, 1.0),  # / 75
    Piece("high_bidder", (MAX_SEATS,), True, 1.0),
    Piece("second_bidder", (MAX_SEATS,), True, 1.0),
    Piece("die", (DIE_FACES,), True, 1.0),
    Piece("carried", (1,), True, 1.0),
    Piece("cannon", (1,), True, 1.0),  # / 110
    Piece("threshold", (1,), True, 1.0),  # / 25
    Piece("cubes", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("pile_size", (1,), True, 1.0),  # / 110
    Piece("discard", (NUM_COMPANIES,), True, 1.0),  # / 22
    Piece("open", (1,), True, 1.0),  # / 35
    Piece("round", (1,), True, 1.0),  # / 100
    Piece("player_count", (3,), True, 1.0),
])
assert OBS.size == 1018 and SEAT.size == 44


def _scale() -> np.ndarray:
    """(1018,) float32: the divisor of every entry's raw count (1 for flags and one-hots)."""
    seat = np.ones(SEAT.size, dtype=np.float32)
    for name, bound in (("coins", MAX_COINS), ("gold", MAX_GOLD), ("hand_size", NUM_CARDS),
                        ("known", CARDS_PER_COMPANY), ("display", CARDS_PER_COMPANY),
                        ("posts", MAX_POSTS), ("crates", CRATES), ("position", GOAL_SPACE)):
        seat[SEAT.offsets[name]] = 1.0 / bound
    scale = np.ones(OBS.size, dtype=np.float32)
    scale[OBS.offsets["seats"]] = np.tile(seat, MAX_SEATS)
    for name, bound in (("hand", CARDS_PER_COMPANY), ("current_play", CARDS_PER_COMPANY),
                        ("lot", CARDS_PER_COMPANY), ("lot_size", NUM_CARDS),
                        ("high_bid", MAX_COINS), ("cannon", NUM_CARDS),
                        ("threshold", MAX_THRESHOLD), ("cubes", CARDS_PER_COMPANY),
                        ("pile_size", NUM_CARDS), ("discard", CARDS_PER_COMPANY),
                        ("open", NUM_SPACES), ("round", MAX_ROUNDS)):
        scale[OBS.offsets[name]] = 1.0 / bound
    return scale


def _rows_of(table: np.ndarray) -> np.ndarray:
    """A (K, n) float32 table as (K,) items of n values, for a fast ``take`` of whole rows."""
    table = np.ascontiguousarray(table, dtype=np.float32)
    return table.view(np.dtype((np.void, table.shape[1] * 4))).reshape(len(table))


def _tables():
    """Row tables: route codes (0 face down, 1 empty, 2 + tile face up), zones by position,
    relative one-hots (index 5: nobody), warehouse squares (index 5: empty), die faces."""
    route = np.zeros((2 + NUM_TILES, ROUTE_FEATURES), dtype=np.float32)
    route[0, 0] = 1.0
    route[2:, :2] = 1.0
    route[2 + np.arange(NUM_TILES), 2 + TILE_COMPANY] = 1.0
    route[2 + np.arange(NUM_TILES), 2 + NUM_COMPANIES + TILE_GOOD] = 1.0
    position = np.arange(GOAL_SPACE + 1)
    zone = np.where(position == 0, 0, np.where(position == GOAL_SPACE, NUM_ZONES - 1,
                                               (position - 1) // 5 + 1))
    zones = np.eye(NUM_ZONES, dtype=np.float32)[zone]
    relative = np.eye(MAX_SEATS + 1, MAX_SEATS, dtype=np.float32)  # row 5 all zeros
    square = np.eye(MAX_SEATS + 1, dtype=np.float32)
    die = np.eye(DIE_FACES + 1, DIE_FACES, -1, dtype=np.float32)  # die 0: zeros
    # relative_codes[players][observer, seat + 1]: the relative slot of a seat (5: none);
    # square codes, the same for a warehouse square's owner (5: empty).
    seats = np.arange(MAX_SEATS)
    codes = {}
    for players in range(3, MAX_SEATS + 1):
        table = np.full((players, MAX_SEATS + 1), MAX_SEATS, dtype=np.intp)
        table[:, 1:players + 1] = (seats[None, :players] - seats[:players, None]) % players
        codes[players] = table.ravel()
    return _rows_of(route), zones, relative, _rows_of(square), die, codes


ROUTE_ROWS, ZONE_TABLE, RELATIVE, SQUARE_ROWS, DIE_TABLE, RELATIVE_CODES = _tables()
DECISION_TABLE = np.eye(len(Phase), dtype=np.float32)
SCALE = _scale()
SEAT_SCALE = SCALE[OBS.offsets["seats"]][:SEAT.size].copy()
_SPACE_NUMBERS = np.arange(1, NUM_SPACES + 1)
_HEAD = slice(0, OBS.offsets["seats"].start)
_TAIL = slice(OBS.offsets["lot"].start, OBS.size)
_SEAT_ITEM = np.dtype((np.void, SEAT.size * 4))
_ONES = {p: np.ones((1, p, 1), dtype=np.float32) for p in range(3, MAX_SEATS + 1)}
_THRESHOLD = {p: np.full((1, 1), t, dtype=np.float32) for p, t in PIRATE_THRESHOLD.items()}
_PLAYER_COUNT = {p: (np.arange(3) == p - 3)[None].astype(np.float32)
                 for p in range(3, MAX_SEATS + 1)}


def seat_table(state: BataviaState, players: int) -> np.ndarray:
    """(B·N + 1,) items of every seat's 44 slot features (``SEAT``, scaled), seat-major
    within each row, the last item all zeros (the slot of a seat that is not there)."""
    num = state.batch_size
    seats = np.arange(players)
    pos = state.pos.astype(np.intp)
    size = state.hand.sum(axis=2, dtype=np.int16)
    acted = (seats[None, :] - state.ship[:, None]) % players < state.turn[:, None]
    flat = np.empty((num * players + 1, SEAT.size), dtype=np.float32)
    flat[-1] = 0.0
    np.concatenate([
        _ONES[players].repeat(num, axis=0),
        state.coins[:, :, None], state.gold[:, :, None], size[:, :, None],
        state.known, state.display,
        state.seal[:, None, :] == seats[None, :, None],
        state.posts, state.crates[:, :, None], pos[:, :, None],
        ZONE_TABLE[pos],
        (state.remaining[:, None, :] >> pos[:, :, None]) != 0,
        (state.goal_holder[:, None] == seats)[:, :, None], acted[:, :, None],
        state.passed[:, :, None], (state.ship[:, None] == seats)[:, :, None],
    ], axis=2, out=flat[:-1].reshape(num, players, SEAT.size))
    flat *= SEAT_SCALE
    return flat.view(_SEAT_ITEM).reshape(-1)


def observe(game: BataviaGame, state: BataviaState, player: int | np.ndarray) -> np.ndarray:
    """(B, 1018) float32: what ``player`` (int or (B,)) may know (module doc)."""
    num, players = state.batch_size, game.num_players
    rows = np.arange(num)
    seat = np.asarray(player, dtype=np.intp)
    if seat.ndim == 0:
        seat = np.full(num, seat)

    # Egocentric seat slots: seat (o + k) mod N in slot k < N, the zero item beyond.
    slot = np.arange(MAX_SEATS)
    index = np.where(slot < players, rows[:, None] * players + (seat[:, None] + slot) % players,
                     num * players)
    code = (state.route + 2) * (state.open[:, None] >= _SPACE_NUMBERS)  # face down: 0
    codes = RELATIVE_CODES[players]
    base = seat[:, None] * (MAX_SEATS + 1) + 1
    squares = codes.take(base + state.warehouse.reshape(num, -1))
    who = np.stack([state.current_player, state.high_bidder, state.second_bidder], axis=1)
    seats = RELATIVE[codes.take(base + who)].reshape(num, 3 * MAX_SEATS)  # relative one-hots
    lot = state.lot
    head = np.concatenate([
        DECISION_TABLE[state.phase], state.final[:, None], seats[:, :MAX_SEATS],
        state.hand[rows, seat], state.played], axis=1, dtype=np.float32)
    head *= SCALE[_HEAD]
    tail = np.concatenate([
        lot, lot.sum(axis=1, keepdims=True), state.high_bid[:, None], seats[:, MAX_SEATS:],
        DIE_TABLE[state.die], state.carried[:, None], state.cannon[:, None],
        _THRESHOLD[players].repeat(num, axis=0), state.cubes, state.deck_size[:, None],
        state.discard, state.open[:, None], state.round[:, None],
        _PLAYER_COUNT[players].repeat(num, axis=0)], axis=1, dtype=np.float32)
    tail *= SCALE[_TAIL]
    return np.concatenate([
        head,
        seat_table(state, players).take(index).view(np.float32).reshape(num, -1),
        ROUTE_ROWS.take(code).view(np.float32).reshape(num, -1),
        state.tile_space > state.open[:, None],
        SQUARE_ROWS.take(squares).view(np.float32).reshape(num, -1),
        tail], axis=1, dtype=np.float32)
