"""What one seat may know (§6, §9.4): the observation encoder.

One flat float32 vector of 1018 values in [0, 1] at every player count, egocentric: seat
slot k holds seat ``(o + k) mod N`` for the observer o, and slots k >= N are zeros. Every
count is divided by its true bound (§9.4), so every piece has bound 1. The per-seat
features of all seats are built once as a (B, N, 44) table and each observer's slots taken
from it with one flat ``np.take`` on its (B·N, 44) view; the route, the hidden goods and the
global pieces do not depend on the observer. The only private piece is the observer's hand.
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


def _tables():
    """Lookup tables: route codes (0 empty, 1 face down, 2 + tile face up), zones by
    position, relative one-hots (index 5: nobody) and warehouse squares (index 5: empty)."""
    route = np.zeros((2 + NUM_TILES, ROUTE_FEATURES), dtype=np.float32)
    route[1:, 0] = 1.0
    route[2:, 1] = 1.0
    route[2 + np.arange(NUM_TILES), 2 + TILE_COMPANY] = 1.0
    route[2 + np.arange(NUM_TILES), 2 + NUM_COMPANIES + TILE_GOOD] = 1.0
    position = np.arange(GOAL_SPACE + 1)
    zone = np.where(position == 0, 0, np.where(position == GOAL_SPACE, NUM_ZONES - 1,
                                               (position - 1) // 5 + 1))
    zones = np.eye(NUM_ZONES, dtype=np.float32)[zone]
    relative = np.eye(MAX_SEATS + 1, MAX_SEATS, dtype=np.float32)  # row 5 all zeros
    square = np.eye(MAX_SEATS + 1, dtype=np.float32)
    return route, zones, relative, square


ROUTE_TABLE, ZONE_TABLE, RELATIVE, SQUARE = _tables()
_DIE = np.eye(DIE_FACES + 1, DIE_FACES, -1, dtype=np.float32)  # die 0: zeros
_OFFSETS = OBS.offsets
_SEAT_OFFSETS = SEAT.offsets


def seat_table(state: BataviaState, players: int) -> np.ndarray:
    """(B·N + 1, 44) float32: every seat's slot features, the last row all zeros (the slot of
    a seat that is not there)."""
    num = state.batch_size
    table = np.zeros((num, players, SEAT.size), dtype=np.float32)
    put = {name: table[:, :, sl] for name, sl in _SEAT_OFFSETS.items()}
    seats = np.arange(players)
    put["present"][:] = 1.0
    put["coins"][:, :, 0] = state.coins / MAX_COINS
    put["gold"][:, :, 0] = state.gold / MAX_GOLD
    put["hand_size"][:, :, 0] = state.hand.sum(axis=2) / NUM_CARDS
    put["known"][:] = state.known / CARDS_PER_COMPANY
    put["display"][:] = state.display / CARDS_PER_COMPANY
    put["seals"][:] = state.seal[:, None, :] == seats[None, :, None]
    put["posts"][:] = state.posts / MAX_POSTS
    put["crates"][:, :, 0] = state.crates / CRATES
    pos = state.pos.astype(np.intp)
    put["position"][:, :, 0] = pos / GOAL_SPACE
    put["zone"][:] = ZONE_TABLE[pos]
    put["ahead"][:] = (state.remaining[:, None, :] >> pos[:, :, None]) != 0
    put["goal"][:, :, 0] = state.goal_holder[:, None] == seats
    put["acted"][:, :, 0] = (seats[None, :] - state.ship[:, None]) % players < state.turn[
        :, None]
    put["passed"][:, :, 0] = state.passed
    put["ship"][:, :, 0] = state.ship[:, None] == seats
    flat = np.zeros((num * players + 1, SEAT.size), dtype=np.float32)
    flat[:-1] = table.reshape(num * players, SEAT.size)
    return flat


def observe(game: BataviaGame, state: BataviaState, player: int | np.ndarray) -> np.ndarray:
    """(B, 1018) float32: what ``player`` (int or (B,)) may know (module doc)."""
    num, players = state.batch_size, game.num_players
    rows = np.arange(num)
    seat = np.broadcast_to(np.asarray(player, dtype=np.intp), (num,))
    buf = np.zeros((num, OBS.size), dtype=np.float32)

    def view(name: str) -> np.ndarray:
        return buf[:, _OFFSETS[name]]

    def relative(who: np.ndarray) -> np.ndarray:
        """(B, 5) relative one-hot of seats ``who`` (B,), zeros where -1."""
        return RELATIVE[np.where(who >= 0, (who - seat) % players, MAX_SEATS)]

    live = state.current_player >= 0
    view("decision")[rows, state.phase] = 1.0
    view("final_round")[:, 0] = state.final
    view("to_act")[:] = relative(np.where(live, state.current_player, -1))
    view("hand")[:] = (state.hand[rows, seat] / CARDS_PER_COMPANY).astype(np.float32)
    view("current_play")[:] = state.played / CARDS_PER_COMPANY
    # Egocentric seat slots: seat (o + k) mod N in slot k < N, the zero row beyond.
    slot = np.arange(MAX_SEATS)
    index = np.where(slot < players, rows[:, None] * players + (seat[:, None] + slot) % players,
                     num * players)
    view("seats")[:] = np.take(seat_table(state, players), index, axis=0).reshape(num, -1)
    code = np.where(state.route < 0, 0,
                    np.where(np.arange(1, NUM_SPACES + 1) <= state.open[:, None],
                             2 + state.route, 1))
    view("route")[:] = ROUTE_TABLE[code].reshape(num, -1)
    view("hidden_goods")[:] = state.tile_space > state.open[:, None]
    owner = state.warehouse.reshape(num, -1)
    squares = np.where(owner >= 0, (owner - seat[:, None]) % players, MAX_SEATS)
    view("warehouses")[:] = SQUARE[squares].reshape(num, -1)
    view("lot")[:] = state.lot / CARDS_PER_COMPANY
    view("lot_size")[:, 0] = state.lot.sum(axis=1) / NUM_CARDS
    view("high_bid")[:, 0] = state.high_bid / MAX_COINS
    view("high_bidder")[:] = relative(state.high_bidder)
    view("second_bidder")[:] = relative(state.second_bidder)
    view("die")[:] = _DIE[state.die]
    view("carried")[:, 0] = state.carried
    view("cannon")[:, 0] = state.cannon / NUM_CARDS
    view("threshold")[:, 0] = PIRATE_THRESHOLD[players] / MAX_THRESHOLD
    view("cubes")[:] = state.cubes / CARDS_PER_COMPANY
    view("pile_size")[:, 0] = state.deck_size / NUM_CARDS
    view("discard")[:] = state.discard / CARDS_PER_COMPANY
    view("open")[:, 0] = state.open / NUM_SPACES
    view("round")[:, 0] = state.round / MAX_ROUNDS
    view("player_count")[:, players - 3] = 1.0
    return buf
