"""What one seat may know (§6, §9.2): the observation's layout and its compiled encoder.

The observation is 1,072 float32 values in [0, 1] for every player count, one flat vector of
named pieces (``OBS``), the single description of the encoding: each piece says what it
holds, how its axes are indexed, its scale and its privacy, and ``python -m envs.docs``
prints them into ``docs/discoveries.md``.

It is egocentric: seat slot 0 is the observing seat p, slots 1..3 the next seats clockwise;
slots at or beyond N stay zero. The unseen contracts and the flagship candidates are p's own
(never the acting seat's).

``observe_row`` writes one row as one seat sees it, read by name from ``s``, the kernels'
view of the state (``state.View``). A scaled count is the count times its scale, both
float32 (``SCALES``), and the two fractions (the scoring-card odds, the flagship colour
shares) are read from float32 tables, so the values are those VERSION 1 shipped, bit for bit.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.layout import ObservationLayout, Piece
from envs.core.seats import after, next_seat
from envs.discoveries.data import (
    COINS_BOUND,
    COINS_SCALE,
    COLOUR_NAMES,
    CONTRACT_COLOUR,
    CONTRACT_NAMES,
    CONTRACT_TV,
    DISPLAY_SLOTS,
    DURATIONS,
    EXP_LIMIT,
    EXPEDITION_NAMES,
    FIRST_PILE,
    FLAG_CARRIES,
    HAND_LIMIT,
    MARKET_SLOTS,
    MAX_JOKERS,
    MAX_RESERVATIONS,
    MAX_TURNS,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_EXPEDITIONS,
    NUM_FLAGSHIPS,
    NUM_TASK_KINDS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_END,
    PILE_START,
    REVENUE_BOUND,
    REVENUE_SCALE,
    SHIPS_BOUND,
    TASK_NAMES,
    TRACK,
    TRACK_MAX,
    TYPE_NAMES,
    VP_BOUND,
    VP_SCALE,
)
from envs.discoveries.rules.legal import NUM_USED
from envs.discoveries.state import NUM_RES_SLOTS, RES_DISPLAY, Flag, Open, Phase

MAX_SEATS = 4
DECK_MAX = 16  # 24 - 4 - 2 * 2: the most contracts in the deck
PILE_MAX = 8  # the largest pile
COPIES_MAX = 3  # the most copies of a ship type
BEFORE_FIRST, BEFORE_FINAL = 12, 26  # most cards in the piles before pile 3, pile 5
EXP_SCALE = 8  # the largest expedition limit
NUM_PHASES = len(Phase)

SEAT_LABELS = ("self", "self+1", "self+2", "self+3")
FLAG_STATES = ("face down", "idle", "building or on a voyage", "on an expedition")
RES_LABELS = (*(f"owner {name}" for name in SEAT_LABELS), "no marker",
              "placed this turn by the seat to act")
EXP_LABELS = (*COLOUR_NAMES, "no colour", f"free TV / {EXP_SCALE}",
              *(f"ships of {name} / {EXP_SCALE}" for name in SEAT_LABELS),
              *(f"card-coloured ships of {name} / {EXP_SCALE}" for name in SEAT_LABELS))
SEAT_FEATURES = (
    "present", f"coins / {COINS_BOUND}", f"min(coins, {COINS_SCALE}) / {COINS_SCALE}",
    f"VP / {VP_BOUND}", f"min(VP, {VP_SCALE}) / {VP_SCALE}",
    f"contracts completed / {NUM_CONTRACTS}", f"track(completed) / {TRACK_MAX}",
    f"hand size / {HAND_LIMIT}", *(f"knows {name} in hand" for name in CONTRACT_NAMES),
    *(f"idle {name} / {COPIES_MAX}" for name in TYPE_NAMES),
    *(f"flagship {state}" for state in FLAG_STATES),
    *(f"flagship may be F{f}" for f in range(NUM_FLAGSHIPS)),
    *(f"flagship share carrying {name}" for name in COLOUR_NAMES),
    *(f"{what} timer {t}" for t in range(1, DURATIONS + 1) for what in (
        f"voyage revenue / {REVENUE_BOUND}", f"min(revenue, {REVENUE_SCALE}) / "
        f"{REVENUE_SCALE}", f"voyage ships / {SHIPS_BOUND}")),
    *(f"on voyages {name} / {COPIES_MAX}" for name in TYPE_NAMES),
    f"Jokers / {MAX_JOKERS}", f"Reservations / {MAX_RESERVATIONS}")
BUILD_FEATURES = (
    *(f"colour {name}" for name in COLOUR_NAMES), *(f"needs TV {tv}" for tv in range(3, 7)),
    *(f"duration {d}" for d in range(1, DURATIONS + 1)), "TV attached / 6",
    *(f"{name} attached / {COPIES_MAX}" for name in TYPE_NAMES), "flagship attached",
    f"Jokers spent / {MAX_JOKERS}")
SEAT_SIZE, EXP_SIZE, BUILD_SIZE = len(SEAT_FEATURES), len(EXP_LABELS), len(BUILD_FEATURES)
assert (SEAT_SIZE, EXP_SIZE, BUILD_SIZE) == (95, 16, 34)


def _piece(name, shape, meaning, index, scale, labels=(), public=True, privacy="public"):
    return Piece(name, shape, public, 1.0, meaning=meaning, index=index, scale=scale,
                 privacy=privacy, labels=tuple(labels))


OBS = ObservationLayout([
    _piece("decision", (NUM_PHASES,), "the decision asked (`state.phase`)", "[phase]",
           "one-hot", [p.name for p in Phase]),
    _piece("acting_seat", (MAX_SEATS,), "the seat to act (all 0 once the game is over)",
           "[j]", "one-hot", SEAT_LABELS),
    _piece("used_types", (4,), "the main actions taken this turn (§4.3)", "[kind]", "flags",
           ("COINS", "CONTRACT", "BUY", "DISPATCH")),
    _piece("open_type", (len(Open),), "the multi-step main action still open", "[open]",
           "one-hot", [o.name for o in Open]),
    _piece("actions_used", (3,), "how many main actions this turn has taken", "[count]",
           "one-hot", ("0", "1", "2")),
    _piece("turn", (1,), "global turns ended", "[0]", f"turns / {MAX_TURNS}"),
    _piece("schedule", (5,), "the scoring schedule: First card revealed, First Scoring "
           "done, Final card revealed, then the turns until each revealed scoring runs",
           "[k]", "flags, turns / 4",
           ("First revealed", "First done", "Final revealed", "turns to First / 4",
            "turns to Final / 4")),
    _piece("pile_sizes", (5,), "cards left in each of the five piles", "[pile]",
           f"cards / {PILE_MAX}"),
    _piece("pile_ships", (NUM_TYPES,), "ships of each type left in the piles", "[type]",
           f"ships / {COPIES_MAX}", TYPE_NAMES),
    _piece("scoring_odds", (4,), "for each scoring card still in its pile: the chance the "
           "next draw shows it, and the share of the cards before its pile still to draw",
           "[k]", "fractions",
           ("First next", f"before First / {BEFORE_FIRST}", "Final next",
            f"before Final / {BEFORE_FINAL}")),
    _piece("deck_size", (1,), "contracts in the deck", "[0]", f"cards / {DECK_MAX}"),
    _piece("unseen_contracts", (NUM_CONTRACTS,), "the contracts the observer has not seen: "
           "the deck and the others' hidden hand cards", "[c]", "flags", CONTRACT_NAMES,
           public=False, privacy="private: what the observer has not seen"),
    _piece("market", (2 * MARKET_SLOTS, NUM_TYPES + 1), "the ship in each offer slot "
           "(0..4) and refill slot (5..9), or empty", "[slot, type]", "one-hot",
           (*TYPE_NAMES, "empty")),
    _piece("market_reservations", (2 * MARKET_SLOTS, 6), "the reservation marker on each "
           "market slot", "[slot, k]", "one-hot owner, flag", RES_LABELS),
    _piece("display", (DISPLAY_SLOTS, NUM_CONTRACTS + 1), "the contract in each display "
           "slot, or empty", "[slot, c]", "one-hot", (*CONTRACT_NAMES, "empty")),
    _piece("display_reservations", (DISPLAY_SLOTS, 6), "the reservation marker on each "
           "display slot", "[slot, k]", "one-hot owner, flag", RES_LABELS),
    _piece("expeditions", (NUM_EXPEDITIONS, EXP_SIZE), "each expedition's established "
           "colour, free TV and every seat's ships on it", "[e, k]",
           f"one-hot colour, counts / {EXP_SCALE}", EXP_LABELS),
    _piece("seats", (MAX_SEATS, SEAT_SIZE), "each seat's coins, VP, contracts, hand, "
           "ships, flagship, voyages and action cards", "[j, k]", "counts as labelled",
           SEAT_FEATURES, public=False,
           privacy="private for j = 0: its whole hand and its own flagship; the others' "
                   "hidden hand cards and face-down flagships show only as sets"),
    _piece("own_task", (NUM_TASK_KINDS,), "the observer's special task", "[task]",
           "one-hot", TASK_NAMES, public=False, privacy="private: the observer's own task"),
    _piece("target_expedition", (NUM_EXPEDITIONS,), "the expedition of PICK_EXP_SHIP",
           "[e]", "one-hot", EXPEDITION_NAMES),
    _piece("build", (BUILD_SIZE,), "the contract being built (BUILD_CONTRACT)", "[k]",
           "one-hot, counts as labelled", BUILD_FEATURES),
], guide="""Seat slot j is
the seat j places after the observer in turn order (to seat `o` observing, absolute seat `a`
is `j = (a - o) % P`); slots at or beyond the player count are 0.

```python
import envs

game = envs.make_game("discoveries", num_players=3)
state = game.init(batch_size=1, seed=0)
layout = game.observation_layout
obs = game.observe(state, 1)[0]            # (1072,) float32, row 0, seat 1 observing
seats = obs[layout.offsets["seats"]].reshape(layout.pieces["seats"].shape)  # (4, 95)
coins_of_seat_2 = seats[1, 1] * 570        # seat 2 is j = 1 place after seat 1
market = obs[layout.offsets["market"]].reshape(layout.pieces["market"].shape)  # (10, 19)
ship_in_slot_0 = market[0].argmax()        # its ship type (the last column: empty)
```""")
assert OBS.size == 1072
AT = {name: sl.start for name, sl in OBS.offsets.items()}
(DECISION, ACTING, USED_TYPES, OPEN_TYPE, ACTIONS_USED, TURN, SCHEDULE, PILE_SIZES,
 PILE_SHIPS, ODDS, DECK_SIZE, UNSEEN, MARKET, MARKET_RES, DISPLAY, DISPLAY_RES, EXPEDITIONS,
 SEATS, OWN_TASK, TARGET, BUILD) = AT.values()

# Offsets inside one seat slot (§9.2's per-seat table).
S_PRESENT, S_COINS, S_VP, S_COMPLETED, S_HAND = 0, 1, 3, 5, 7
S_KNOWN, S_IDLE, S_FLAG_STATE, S_CANDIDATES, S_FLAG_COLOURS = 8, 32, 50, 54, 60
S_VOYAGES, S_VOYAGE_SHIPS, S_JOKERS, S_RESERVES = 66, 75, 93, 94
# Offsets inside the build piece.
B_COLOUR, B_NEED, B_DURATION, B_TV, B_SHIPS, B_FLAG, B_JOKERS = 0, 6, 10, 13, 14, 32, 33

# The scales of the counts, float32 (a count is multiplied by one in float32).
SCALES = np.array([1 / MAX_TURNS, 1 / 4, 1 / PILE_MAX, 1 / COPIES_MAX, 1 / DECK_MAX,
                   1 / EXP_SCALE, 1 / COINS_BOUND, 1 / COINS_SCALE, 1 / VP_BOUND, 1 / VP_SCALE,
                   1 / NUM_CONTRACTS, 1 / TRACK_MAX, 1 / HAND_LIMIT, 1 / REVENUE_BOUND,
                   1 / REVENUE_SCALE, 1 / SHIPS_BOUND, 1 / MAX_JOKERS, 1 / MAX_RESERVATIONS,
                   1 / 6], dtype=np.float32)
(BY_TURNS, BY_4, BY_PILE, BY_COPIES, BY_DECK, BY_EXP, BY_COINS, BY_COINS_CLIP, BY_VP,
 BY_VP_CLIP, BY_CONTRACTS, BY_TRACK, BY_HAND, BY_REVENUE, BY_REVENUE_CLIP, BY_SHIPS, BY_JOKERS,
 BY_RESERVES, BY_TV) = range(len(SCALES))

# By pile position 0..34: the five pile sizes, and the scoring-card odds of an unrevealed
# First and Final card (the chance the next draw shows it, the cards before its pile).
PILE_LEFT = np.maximum(PILE_END - np.maximum(np.arange(PILE_CARDS + 1)[:, None], PILE_START),
                       0).astype(np.int8)  # (35, 5)
_BEFORE = np.cumsum(PILE_LEFT, axis=1)
ODDS_TABLE = np.stack([
    np.where(_BEFORE[:, FIRST_PILE - 1] == 0, 1 / np.maximum(PILE_LEFT[:, 2], 1), 0),
    _BEFORE[:, FIRST_PILE - 1] / BEFORE_FIRST,
    np.where(_BEFORE[:, 3] == 0, 1 / np.maximum(PILE_LEFT[:, 4], 1), 0),
    _BEFORE[:, 3] / BEFORE_FINAL], axis=1).astype(np.float32)  # (35, 4)
_BITS_SET = ((np.arange(64)[:, None] >> np.arange(NUM_FLAGSHIPS)) & 1).astype(np.int8)
# The share of the flagships of a 6-bit set carrying each colour (an empty set: 0).
SET_SHARES = (_BITS_SET @ FLAG_CARRIES.astype(np.float32) / np.maximum(
    _BITS_SET.sum(axis=1, keepdims=True), 1)).astype(np.float32)  # (64, 6)
FLAG_STATE = np.array([1, 2, 2, 3], dtype=np.int8)  # a revealed flagship by Flag
FLAG_BUILD = int(Flag.BUILD)


@njit(inline="always")
def put(out, i, count, scale):
    """Entry ``i``: ``count`` times the float32 scale ``SCALES[scale]``."""
    # An unsigned index spares numba's test for a negative one (counted from the end).
    out[np.uint64(i)] = np.float32(count) * SCALES[scale]


@njit
def observe_seat(s, r, seat, slot, observer, out):
    """Seat ``seat``'s slot ``slot`` of the seats piece and its columns of the expeditions
    piece, as ``observer`` may know them."""
    at = SEATS + slot * SEAT_SIZE
    own = seat == observer
    coins = s.coins[r, seat]
    vp = s.vp_first[r, seat] + s.vp_final[r, seat]
    completed = s.completed[r, seat]
    out[at + S_PRESENT] = 1
    put(out, at + S_COINS, coins, BY_COINS)
    put(out, at + S_COINS + 1, min(coins, COINS_SCALE), BY_COINS_CLIP)
    put(out, at + S_VP, vp, BY_VP)
    put(out, at + S_VP + 1, min(vp, VP_SCALE), BY_VP_CLIP)
    put(out, at + S_COMPLETED, completed, BY_CONTRACTS)
    put(out, at + S_COMPLETED + 1, TRACK[completed], BY_TRACK)
    put(out, at + S_HAND, s.hand_size[r, seat], BY_HAND)
    hand, public = s.hand[r, seat], s.hand_public[r, seat]
    for k in range(HAND_LIMIT):
        card = int(hand[k])
        if card >= 0 and (own or public[k]):
            out[at + S_KNOWN + card] = 1
    idle = s.idle[r, seat]
    for t in range(NUM_TYPES):
        put(out, at + S_IDLE + t, idle[t], BY_COPIES)
    revealed = s.flag_revealed[r, seat]
    out[at + S_FLAG_STATE + (int(FLAG_STATE[s.flag_where[r, seat]]) if revealed else 0)] = 1
    flag = int(s.flag_id[r, seat])
    if revealed or own:
        out[at + S_CANDIDATES + flag] = 1
        for c in range(NUM_COLOURS):
            out[at + S_FLAG_COLOURS + c] = np.float32(FLAG_CARRIES[flag, c])
    else:  # the flagships the observer has not seen: neither revealed nor its own
        ids, shown = s.flag_id[r], s.flag_revealed[r]
        unseen = 63 ^ (1 << int(ids[observer]))
        for q in range(ids.shape[0]):
            if shown[q]:
                unseen &= ~(1 << int(ids[q]))
        for f in range(NUM_FLAGSHIPS):
            out[at + S_CANDIDATES + f] = unseen >> f & 1
        for c in range(NUM_COLOURS):
            out[at + S_FLAG_COLOURS + c] = SET_SHARES[unseen, c]
    revenues, voyage_ships = s.voyage_revenue[r, seat], s.voyage_ships[r, seat]
    for timer in range(DURATIONS):
        revenue = revenues[timer]
        put(out, at + S_VOYAGES + 3 * timer, revenue, BY_REVENUE)
        put(out, at + S_VOYAGES + 3 * timer + 1, min(revenue, REVENUE_SCALE), BY_REVENUE_CLIP)
        put(out, at + S_VOYAGES + 3 * timer + 2, voyage_ships[timer], BY_SHIPS)
    fleet = s.voyage_fleet[r, seat]
    for t in range(NUM_TYPES):
        ships = 0
        for timer in range(DURATIONS):
            ships += fleet[timer, t]
        put(out, at + S_VOYAGE_SHIPS + t, ships, BY_COPIES)
    put(out, at + S_JOKERS, s.jokers[r, seat], BY_JOKERS)
    put(out, at + S_RESERVES, s.reserves[r, seat], BY_RESERVES)
    counts, same = s.exp_count[r], s.exp_same[r]
    for e in range(NUM_EXPEDITIONS):
        at = EXPEDITIONS + e * EXP_SIZE
        put(out, at + 8 + slot, counts[e, seat], BY_EXP)
        put(out, at + 12 + slot, same[e, seat], BY_EXP)


@njit
def observe_row(s, r, seat, out):
    """What ``seat`` may know of row ``r`` into ``out`` (1072,), zeroed (§9.2)."""
    players = s.coins.shape[1]
    current = s.current_player[r]
    turn = s.turn[r]
    out[DECISION + int(s.phase[r])] = 1
    if current >= 0:
        out[ACTING + after(current, seat, players)] = 1
    used = int(s.used[r])
    for bit in range(4):
        out[USED_TYPES + bit] = used >> bit & 1
    out[OPEN_TYPE + int(s.open_type[r])] = 1
    out[ACTIONS_USED + NUM_USED[used]] = 1
    put(out, TURN, turn, BY_TURNS)
    first_shown, final_shown = s.first_reveal[r] >= 0, s.final_reveal[r] >= 0
    done = s.terminated[r] or s.truncated[r]
    out[SCHEDULE] = first_shown
    out[SCHEDULE + 1] = s.first_done[r]
    out[SCHEDULE + 2] = final_shown
    if first_shown and not s.first_done[r]:
        put(out, SCHEDULE + 3, s.first_reveal[r] + players - turn, BY_4)
    if final_shown and not done:
        put(out, SCHEDULE + 4, s.final_reveal[r] + players - turn, BY_4)
    pos = int(s.pile_pos[r])
    for pile in range(5):
        put(out, PILE_SIZES + pile, PILE_LEFT[pos, pile], BY_PILE)
    pile_ships = s.pile_ships[r]
    for t in range(NUM_TYPES):
        put(out, PILE_SHIPS + t, pile_ships[t], BY_COPIES)
    for k in range(2):
        if not first_shown:
            out[ODDS + k] = ODDS_TABLE[pos, k]
        if not final_shown:
            out[ODDS + 2 + k] = ODDS_TABLE[pos, 2 + k]
    put(out, DECK_SIZE, NUM_CONTRACTS - s.deck_pos[r], BY_DECK)
    contracts, hands, public = s.contracts[r], s.hand[r], s.hand_public[r]
    for k in range(s.deck_pos[r], NUM_CONTRACTS):
        out[UNSEEN + int(contracts[k])] = 1
    for q in range(players):
        for k in range(HAND_LIMIT):
            card = int(hands[q, k])
            if card >= 0 and not public[q, k] and q != seat:
                out[UNSEEN + card] = 1
    offer, refill = s.offer[r], s.refill[r]
    for slot in range(MARKET_SLOTS):
        ship = int(offer[slot])
        out[MARKET + slot * (NUM_TYPES + 1) + (ship if ship >= 0 else NUM_TYPES)] = 1
        ship = int(refill[slot])
        out[MARKET + (MARKET_SLOTS + slot) * (NUM_TYPES + 1)
            + (ship if ship >= 0 else NUM_TYPES)] = 1
    owners, placed = s.res_owner[r], s.res_turn[r]
    for slot in range(NUM_RES_SLOTS):
        at = (MARKET_RES + 6 * slot if slot < RES_DISPLAY
              else DISPLAY_RES + 6 * (slot - RES_DISPLAY))
        owner = int(owners[slot])
        out[at + (after(owner, seat, players) if owner >= 0 else MAX_SEATS)] = 1
        out[at + 5] = (owner >= 0 and owner == current
                       and placed[slot] == s.own_turns[r, current])
    display = s.display[r]
    for slot in range(DISPLAY_SLOTS):
        card = int(display[slot])
        out[DISPLAY + slot * (NUM_CONTRACTS + 1) + (card if card >= 0 else NUM_CONTRACTS)] = 1
    colours, used_tv = s.exp_colour_set[r], s.exp_used[r]
    for e in range(NUM_EXPEDITIONS):
        at = EXPEDITIONS + e * EXP_SIZE
        colour = int(colours[e])
        out[at + (colour if colour >= 0 else NUM_COLOURS)] = 1
        put(out, at + 7, EXP_LIMIT[e] - used_tv[e], BY_EXP)
    other = seat
    for slot in range(players):
        observe_seat(s, r, other, slot, seat, out)
        other = next_seat(other, players)
    out[OWN_TASK + int(s.task[r, seat])] = 1
    if s.target[r] >= 0:
        out[TARGET + int(s.target[r])] = 1
    card = int(s.build_card[r])
    if card >= 0:
        out[BUILD + B_COLOUR + int(CONTRACT_COLOUR[card])] = 1
        out[BUILD + B_NEED + int(CONTRACT_TV[card]) - 3] = 1
    if s.build_duration[r] >= 1:
        out[BUILD + B_DURATION + int(s.build_duration[r]) - 1] = 1
    put(out, BUILD + B_TV, s.build_tv[r], BY_TV)
    build_ships = s.build_ships[r]
    for t in range(NUM_TYPES):
        put(out, BUILD + B_SHIPS + t, build_ships[t], BY_COPIES)
    out[BUILD + B_FLAG] = s.build_flag_tv[r] > 0
    put(out, BUILD + B_JOKERS, s.build_jokers[r], BY_JOKERS)
