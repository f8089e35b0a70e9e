"""What one seat may know (§6, §9.4): the observation's layout and its compiled encoder.

The observation is one flat float32 vector of named pieces (``OBS``), the single
description of the encoding: each piece says what it holds, how its axes are indexed, its
scale and its privacy, and ``python -m envs.docs`` prints them into ``docs/batavia.md``.
It has 1018 values in [0, 1] at every player count and is egocentric: seat slot k holds
seat ``(o + k) mod N`` for the observer o, and slots k >= N are zeros. Every count is
divided by its true bound (§9.4), so every piece has bound 1. The only private piece is
the observer's hand.

``observe_row`` writes one row as one seat sees it, read by name from ``s``, the kernels'
view of the state (``state.View``): compiled with numba, it is the whole encoder. It
writes the flags and one-hots as they are and each count times its entry's scale in
``SCALE`` (float32 reciprocals of the bounds, float32 products: VERSION 1's values bit for
bit), so the row is written once, not scaled again in a second pass. A seat slot's raw
values are gathered first and scaled in one loop that the compiler vectorises, and the route
and the warehouses are written without a branch on what lies on a space or square: the
board is random there, and a mispredicted branch cost more than the features it placed (a
third of the observation).
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import (
    CARDS_PER_COMPANY,
    COMPANY_NAMES,
    CRATES,
    DIE_FACES,
    GOAL_SPACE,
    GOOD_NAMES,
    MAX_ROUNDS,
    MAX_SEATS,
    NUM_BLOCKS,
    NUM_CARDS,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.rules.cards import hand_size
from envs.batavia.rules.legal import post_ahead
from envs.batavia.state import MAX_BID, P_THRESHOLD, Phase
from envs.core.jit import local_zeros, njit
from envs.core.layout import ObservationLayout, Piece
from envs.core.seats import after, next_seat

MAX_COINS = MAX_BID  # 15 x 5
MAX_GOLD = 105  # exchange gold: each of the 35 posts handed in once, k(k+1)/2 <= 3k
MAX_POSTS = NUM_GOODS  # a company has 7 posts
MAX_THRESHOLD = 25
NUM_ZONES = NUM_BLOCKS + 2  # start, blocks 1..7, goal
ROUTE_FEATURES = 2 + NUM_COMPANIES + NUM_GOODS  # present, face up, company, good
SEAT_NAMES = ("self", "self+1", "self+2", "self+3", "self+4")
ZONE_NAMES = ("start", *(f"block {k}" for k in range(1, NUM_BLOCKS + 1)), "goal")


def _piece(name, shape, meaning, index, scale, labels=(), private=False) -> Piece:
    return Piece(name, shape, not private, 1.0, meaning=meaning, index=index, scale=scale,
                 labels=tuple(labels),
                 privacy="private: the observer's own hand" if private else "public")


# The features of one seat slot (§9.4, 44 values), ``seats[j]``.
SEAT = ObservationLayout([
    _piece("present", (1,), "the slot holds a seat (0 beyond the player count)", "[0]",
           "flag"),
    _piece("coins", (1,), "promissory notes held", "[0]", f"coins / {MAX_COINS}"),
    _piece("gold", (1,), "exchange gold so far", "[0]", f"gold / {MAX_GOLD}"),
    _piece("hand_size", (1,), "cards in hand", "[0]", f"cards / {NUM_CARDS}"),
    _piece("known", (NUM_COMPANIES,), "hand cards of company c won face up at auction, not "
           "yet displayed", "[c]", f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("display", (NUM_COMPANIES,), "displayed cards of company c", "[c]",
           f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("seals", (NUM_COMPANIES,), "holds company c's seal", "[c]", "flag", COMPANY_NAMES),
    _piece("posts", (NUM_COMPANIES,), "trading posts of company c held, not exchanged", "[c]",
           f"posts / {MAX_POSTS}", COMPANY_NAMES),
    _piece("crates", (1,), "crates left in the supply", "[0]", f"crates / {CRATES}"),
    _piece("position", (1,), "the merchant's space (0 start, 36 goal)", "[0]",
           f"space / {GOAL_SPACE}"),
    _piece("zone", (NUM_ZONES,), "the merchant's zone: start, block 1..7, goal", "[zone]",
           "one-hot", ZONE_NAMES),
    _piece("ahead", (NUM_COMPANIES,), "a post of company c lies ahead of the merchant", "[c]",
           "flag", COMPANY_NAMES),
    _piece("goal", (1,), "holds the goal tile", "[0]", "flag"),
    _piece("acted", (1,), "has taken its action this round", "[0]", "flag"),
    _piece("passed", (1,), "is out of the current auction", "[0]", "flag"),
    _piece("ship", (1,), "holds the ship", "[0]", "flag"),
])
SEAT_LABELS = tuple(
    f"{name}" if piece.shape == (1,) else f"{name} {label}"
    for name, piece in SEAT.pieces.items()
    for label in (piece.labels or ("",) * piece.shape[0]))
_SEAT_MEANING = "; ".join(f"{name}: {piece.meaning} ({piece.scale})"
                          for name, piece in SEAT.pieces.items())
_ROUTE_LABELS = ("present", "face up", *(f"company {c}" for c in COMPANY_NAMES),
                 *(f"good {g}" for g in GOOD_NAMES))

OBS = ObservationLayout([
    _piece("decision", (len(Phase),), "the decision asked (`state.phase`)", "[phase]",
           "one-hot", (p.name for p in Phase)),
    _piece("final_round", (1,), "the goal tile is taken: this is the final round (§5.7)",
           "[0]", "flag"),
    _piece("to_act", (MAX_SEATS,), "the seat to act (all 0 once the game is over)", "[j]",
           "one-hot", SEAT_NAMES),
    _piece("hand", (NUM_COMPANIES,), "the observer's own cards of company c", "[c]",
           f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES, private=True),
    _piece("current_play", (NUM_COMPANIES,), "cards of company c the acting seat displayed "
           "in its current turn", "[c]", f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("seats", (MAX_SEATS, SEAT.size), "seat j's features (all 0 for j >= P): "
           + _SEAT_MEANING, "[j, f]", "per feature, as named", SEAT_LABELS),
    _piece("route", (NUM_SPACES, ROUTE_FEATURES), "space s + 1 of the route: a tile lies "
           "there (present), face up, with its company and good one-hot (only face up); "
           "all 0 once taken", "[s, f]", "flags, one-hot", _ROUTE_LABELS),
    _piece("hidden_goods", (NUM_COMPANIES, NUM_GOODS), "the tile of company c and good g "
           "lies face down (§6)", "[c, g]", "flag", GOOD_NAMES),
    _piece("warehouses", (NUM_GOODS, NUM_COMPANIES, MAX_SEATS + 1), "who owns the square "
           "(good g, company c): seat j, or 5 for empty", "[g, c, j]", "one-hot",
           (*SEAT_NAMES, "empty")),
    _piece("lot", (NUM_COMPANIES,), "the face-up lot's cards of company c", "[c]",
           f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("lot_size", (1,), "cards in the lot", "[0]", f"cards / {NUM_CARDS}"),
    _piece("high_bid", (1,), "the standing bid (0 none)", "[0]", f"coins / {MAX_COINS}"),
    _piece("high_bidder", (MAX_SEATS,), "the seat of the standing bid (all 0 none)", "[j]",
           "one-hot", SEAT_NAMES),
    _piece("second_bidder", (MAX_SEATS,), "the seat of the bid just below it (all 0 none)",
           "[j]", "one-hot", SEAT_NAMES),
    _piece("die", (DIE_FACES,), "the round's die roll (all 0 before the first)", "[d - 1]",
           "one-hot", tuple(str(d) for d in range(1, DIE_FACES + 1))),
    _piece("carried", (1,), "the lot holds cards left over from an all-pass round", "[0]",
           "flag"),
    _piece("cannon", (1,), "displayed cards in all", "[0]", f"cards / {NUM_CARDS}"),
    _piece("threshold", (1,), "the pirate threshold of the player count (§5.8)", "[0]",
           f"threshold / {MAX_THRESHOLD}"),
    _piece("cubes", (NUM_COMPANIES,), "displayed cards of company c, all seats", "[c]",
           f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("pile_size", (1,), "cards in the draw pile (its order is hidden)", "[0]",
           f"cards / {NUM_CARDS}"),
    _piece("discard", (NUM_COMPANIES,), "the discard pile's cards of company c", "[c]",
           f"cards / {CARDS_PER_COMPANY}", COMPANY_NAMES),
    _piece("open", (1,), "route spaces face up (1..open)", "[0]", f"spaces / {NUM_SPACES}"),
    _piece("round", (1,), "the round in progress", "[0]", f"round / {MAX_ROUNDS}"),
    _piece("player_count", (3,), "the number of players", "[P - 3]", "one-hot",
           ("3", "4", "5")),
], guide=f"""\
Its indices: `j` a seat, egocentric (0 the observer, j the seat j places after it in turn
order; slots past the player count are all 0); `c` a company ({", ".join(
    f"{i} {n}" for i, n in enumerate(COMPANY_NAMES))}); `g` a good ({", ".join(
    f"{i} {n}" for i, n in enumerate(GOOD_NAMES))}); `s` a route space minus 1; `f` a
feature. To seat `o` observing, absolute seat `a` is `j = (a - o) % P`.

```python
import envs

game = envs.make_game("batavia", num_players=4)
state = game.init(batch_size=1, seed=0)
layout = game.observation_layout
obs = game.observe(state, 1)[0]            # (1018,) float32, row 0, seat 1 observing
seats = obs[layout.offsets["seats"]].reshape(layout.pieces["seats"].shape)  # (5, 44)
coins_of_seat_2 = seats[1, 1] * 75         # seat 2 is j = 1 place after seat 1
```""")
assert OBS.size == 1018 and SEAT.size == 44


def _seat_scale() -> np.ndarray:
    """(44,) float32: the factor of every seat slot feature's raw value."""
    seat = np.ones(SEAT.size, dtype=np.float32)
    for name, bound in (("coins", MAX_COINS), ("gold", MAX_GOLD), ("hand_size", NUM_CARDS),
                        ("known", CARDS_PER_COMPANY), ("display", CARDS_PER_COMPANY),
                        ("posts", MAX_POSTS), ("crates", CRATES), ("position", GOAL_SPACE)):
        seat[SEAT.offsets[name]] = 1.0 / bound
    return seat


def _scale() -> np.ndarray:
    """(1018,) float32: the factor of every entry's raw count (1 for flags and one-hots)."""
    scale = np.ones(OBS.size, dtype=np.float32)
    scale[OBS.offsets["seats"]] = np.tile(SEAT_SCALE, MAX_SEATS)
    for name, bound in (("hand", CARDS_PER_COMPANY), ("current_play", CARDS_PER_COMPANY),
                        ("lot", CARDS_PER_COMPANY), ("lot_size", NUM_CARDS),
                        ("high_bid", MAX_COINS), ("cannon", NUM_CARDS),
                        ("threshold", MAX_THRESHOLD), ("cubes", CARDS_PER_COMPANY),
                        ("pile_size", NUM_CARDS), ("discard", CARDS_PER_COMPANY),
                        ("open", NUM_SPACES), ("round", MAX_ROUNDS)):
        scale[OBS.offsets[name]] = 1.0 / bound
    return scale


def _zones() -> np.ndarray:
    """(37,) int64: the zone of each merchant position (start, blocks 1..7, goal)."""
    position = np.arange(GOAL_SPACE + 1)
    return np.where(position == 0, 0, np.where(position == GOAL_SPACE, NUM_ZONES - 1,
                                               (position - 1) // 5 + 1)).astype(np.int64)


def _square_slots() -> np.ndarray:
    """(6, 5, 6) int64: by player count and observer, the warehouse one-hot slot of a
    square's owner + 1 (0: empty, the last slot), a table so that no branch asks which."""
    slots = np.full((MAX_SEATS + 1, MAX_SEATS, MAX_SEATS + 1), MAX_SEATS, dtype=np.int64)
    for players in range(3, MAX_SEATS + 1):
        for seat in range(players):
            for owner in range(players):
                slots[players, seat, owner + 1] = (owner - seat) % players
    return slots


SEAT_SCALE = _seat_scale()
_SQUARE_SLOT = _square_slots()
SCALE = _scale()
_ZONE = _zones()
_TILE_COMPANY = TILE_COMPANY.astype(np.int64)
_TILE_GOOD = TILE_GOOD.astype(np.int64)
_STARTS = {name: OBS.offsets[name].start for name in OBS.pieces}
_SEAT_AT = {name: SEAT.offsets[name].start for name in SEAT.pieces}
(_DECISION, _FINAL, _TO_ACT, _HAND, _PLAY, _SEATS, _ROUTE, _HIDDEN, _WAREHOUSES, _LOT,
 _LOT_SIZE, _HIGH_BID, _HIGH_BIDDER, _SECOND_BIDDER, _DIE, _CARRIED, _CANNON, _THRESHOLD,
 _CUBES, _PILE, _DISCARD, _OPEN, _ROUND, _PLAYERS) = _STARTS.values()
(S_PRESENT, S_COINS, S_GOLD, S_HAND_SIZE, S_KNOWN, S_DISPLAY, S_SEALS, S_POSTS, S_CRATES,
 S_POSITION, S_ZONE, S_AHEAD, S_GOAL, S_ACTED, S_PASSED, S_SHIP) = _SEAT_AT.values()
_SEAT_SIZE = SEAT.size
_SQUARE = MAX_SEATS + 1


# ---------------------------------------------------------------- the encoder, one row
@njit
def _count(out, at, value):
    """Count ``value`` into ``out[at]``, times the entry's scale (``at`` unsigned: numba
    then skips its test for an index counted from the end)."""
    i = np.uint64(at)
    out[i] = np.float32(value) * SCALE[i]


@njit
def _relative(seat_or_none, seat, players):
    """Where ``seat_or_none`` sits after ``seat`` in turn order; -1 for none (-1)."""
    return after(seat_or_none, seat, players) if seat_or_none >= 0 else -1


@njit
def _seat(s, r, other, players, out, at):
    """Seat ``other``'s 44 slot features (``SEAT``, scaled) at ``out[at:]``: the raw values
    gathered first, then scaled and stored in one loop that the compiler vectorises."""
    raw = local_zeros(_SEAT_SIZE, np.int32)
    raw[S_PRESENT] = 1
    raw[S_COINS] = s.coins[r, other]
    raw[S_GOLD] = s.gold[r, other]
    raw[S_HAND_SIZE] = hand_size(s, r, other)
    known, display, posts = s.known[r, other], s.display[r, other], s.posts[r, other]
    seal = s.seal[r]
    for c in range(NUM_COMPANIES):
        raw[S_KNOWN + c] = known[c]
        raw[S_DISPLAY + c] = display[c]
        raw[S_SEALS + c] = seal[c] == other
        raw[S_POSTS + c] = posts[c]
        raw[S_AHEAD + c] = post_ahead(s, r, other, c)
    raw[S_CRATES] = s.crates[r, other]
    pos = s.pos[r, other]
    raw[S_POSITION] = pos
    raw[S_ZONE + _ZONE[pos]] = 1
    raw[S_GOAL] = s.goal_holder[r] == other
    raw[S_ACTED] = after(other, s.ship[r], players) < s.turn[r]
    raw[S_PASSED] = s.passed[r, other]
    raw[S_SHIP] = s.ship[r] == other
    for k in range(_SEAT_SIZE):
        out[np.uint64(at + k)] = np.float32(raw[k]) * SEAT_SCALE[k]


@njit
def observe_row(s, r, seat, out):
    """What ``seat`` may know of row ``r`` (§6, §9.4) into ``out`` (1018,) float32, which
    comes zeroed: the pieces of ``OBS``, in its order."""
    players = s.coins.shape[1]
    out[_DECISION + int(s.phase[r])] = 1.0
    out[_FINAL] = s.final[r]
    to_act = _relative(s.current_player[r], seat, players)
    if to_act >= 0:
        out[_TO_ACT + to_act] = 1.0
    for c in range(NUM_COMPANIES):
        _count(out, _HAND + c, s.hand[r, seat, c])
        _count(out, _PLAY + c, s.played[r, c])
    other = seat
    for j in range(players):
        _seat(s, r, other, players, out, _SEATS + j * _SEAT_SIZE)
        other = next_seat(other, players)
    opened = int(s.open[r])
    route, tile_space, warehouse = s.route[r], s.tile_space[r], s.warehouse[r]
    # Without a branch on whether a face-up tile is still there (random along the route):
    # a taken tile (-1) writes its 0 over the zeros of tile 0's features.
    for space in range(opened):
        at = _ROUTE + space * ROUTE_FEATURES
        t = int(route[space])
        present = np.float32(t >= 0)
        tile = max(t, 0)
        out[at] = present
        out[at + 1] = present
        out[at + 2 + _TILE_COMPANY[tile]] = present
        out[at + 2 + NUM_COMPANIES + _TILE_GOOD[tile]] = present
    for space in range(opened, NUM_SPACES):  # face down
        out[_ROUTE + space * ROUTE_FEATURES] = 1.0
    for t in range(NUM_COMPANIES * NUM_GOODS):
        out[_HIDDEN + t] = tile_space[t] > opened
    squares = _SQUARE_SLOT[players, seat]
    for g in range(NUM_GOODS):
        for c in range(NUM_COMPANIES):
            out[_WAREHOUSES + (g * NUM_COMPANIES + c) * _SQUARE
                + squares[warehouse[g, c] + 1]] = 1.0
    lot = 0
    lots, cubes, discard = s.lot[r], s.cubes[r], s.discard[r]
    for c in range(NUM_COMPANIES):
        _count(out, _LOT + c, lots[c])
        lot += lots[c]
        _count(out, _CUBES + c, cubes[c])
        _count(out, _DISCARD + c, discard[c])
    _count(out, _LOT_SIZE, lot)
    _count(out, _HIGH_BID, s.high_bid[r])
    high = _relative(s.high_bidder[r], seat, players)
    if high >= 0:
        out[_HIGH_BIDDER + high] = 1.0
    second = _relative(s.second_bidder[r], seat, players)
    if second >= 0:
        out[_SECOND_BIDDER + second] = 1.0
    if s.die[r] > 0:
        out[_DIE + int(s.die[r]) - 1] = 1.0
    out[_CARRIED] = s.carried[r]
    _count(out, _CANNON, s.cannon[r])
    _count(out, _THRESHOLD, s.params[P_THRESHOLD])
    _count(out, _PILE, s.deck_size[r])
    _count(out, _OPEN, opened)
    _count(out, _ROUND, s.round[r])
    out[_PLAYERS + players - 3] = 1.0
