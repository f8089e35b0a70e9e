"""What one seat may know (§6): the observation's layout and its compiled encoder.

The observation is one flat float32 vector of named pieces (``observation_layout``), the
single description of the encoding: each piece says what it holds, how its axes are indexed,
its scale and its privacy under the options, and ``python -m envs.docs`` prints them into
``docs/cairo.md`` (which supersedes the observation sketch of the rules spec, §9.3).

It is egocentric: wherever a piece has a seat axis, entry 0 is the observing seat and entry
j the seat j places after it in turn order, so one policy can play every seat; the neutral
set of a 2-player game comes after the seats. First comes the board, cell-major (182 cells
``k = 14*y + x``, each with a few features: the colour of the tile or entrance on the cell,
its relative owner, a main-stall flag and an entrance flag; a tile and an entrance never
share a cell, so they share the colour and owner features), then small per-seat and
per-colour pieces, then a few zeros ("padding") that round the vector up to whole cells
(VERSION 4's size, kept so that trained policies stay valid). Private are the observer's own
hand and, with ``reveal_money=False``, the others' money (left 0).

``observe_row`` writes one row as one seat sees it, read by name from ``s``, the kernels'
view of the state (``state.View``): compiled with numba, it is the whole encoder; the batch
is a compiled loop over rows (``observe_rows``). Scaled values are computed in float64, as
products with the scales' reciprocals, and rounded once to float32: for the small integers
scaled here that equals the float32 division that VERSION 4 shipped, so observations are
unchanged bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.cairo.data import (
    CARD_COPIES,
    CARD_TYPE_NAMES,
    COLOUR_NAMES,
    DISPLAY_SLOTS,
    DRAWS_PER_ACTION,
    EXPANSIONS_PER_COLOUR,
    HAND_LIMIT,
    HEIGHT,
    MAX_GROUP_SIZE,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_BARKERS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_OWNERS,
    THREE_CARDS,
    WIDTH,
)
from envs.cairo.rules.scoring import tray
from envs.cairo.state import P_MAX_TURNS, P_REVEAL_MONEY, Phase, Stage, Verb, View
from envs.core.jit import local_zeros, njit
from envs.core.layout import ObservationLayout, Piece

VP_SCALE = 100.0  # VP are divided by this; 36 expansions × (7 + 5 medal VP) < 5 × 100
MAX_HAND = HAND_LIMIT + DRAWS_PER_ACTION  # a hand holds at most 6 cards during a Draw
MAX_UNITS = MAX_GROUP_SIZE - 1  # D9 starts with at most 6 unpaid tile units
COPIES = int(CARD_COPIES.max())  # copies of the commonest card type
NUM_STAGES = len(Stage) - 1  # SETUP, NEUTRAL, MAIN, FINAL (none once OVER)
NUM_PHASES = len(Phase) - 1  # the decisions (none at GAME_OVER)
NUM_VERBS = len(Verb) - 1  # PLACE .. DRAW (none for NONE)
NUM_MEDALS = 2  # gold, silver per colour
PLAYER_COUNTS = range(2, NEUTRAL + 1)  # the seats are the owner slots before the neutral set


# ---------------------------------------------------------------- the layout
def seat_labels(num_players: int, neutral: bool = False) -> tuple[str, ...]:
    """Names of the entries of an egocentric seat axis (and the neutral set's after them)."""
    names = ("self", *(f"self+{j}" for j in range(1, num_players)))
    return (*names, "neutral") if neutral else names


def cell_feature_labels(num_players: int) -> tuple[str, ...]:
    """Names of the features of one cell of the board piece."""
    owners = seat_labels(num_players, neutral=num_players == 2)
    return (*COLOUR_NAMES, *(f"owner {name}" for name in owners), "main stall", "entrance")


POSITION = ("on board", f"x / {WIDTH - 1}", f"y / {HEIGHT - 1}")
NOTATION = (  # the index letters of the pieces' ``index``
    "`k` a cell, `k = 14 * y + x` (x 0..13 west to east, y 0..12 north to south); `j` a "
    "seat, egocentric (0 the observer, j the seat j places after it in turn order); `c` a "
    "colour (" + ", ".join(f"{i} {name}" for i, name in enumerate(COLOUR_NAMES)) + "); `t` "
    "a card type (" + ", ".join(f"{i} {name}" for i, name in enumerate(CARD_TYPE_NAMES))
    + ")")


def observation_layout(num_players: int, reveal_money: bool = True) -> ObservationLayout:
    """The observation of ``num_players`` seats under ``reveal_money``: the pieces in order."""
    players, two = num_players, num_players == 2
    owners = players + two  # owner slots on the board: the seats, and the neutral set with 2
    cell_labels = cell_feature_labels(players)
    seats = seat_labels(players)
    pieces = [
        Piece(
            "board", (NUM_CELLS, len(cell_labels)), True, 1.0, index="[k, f]",
            meaning="what stands on cell k: a tile (colour, owner, and the main-stall flag on "
                    "a group's main stall; an expansion has neither flag) or an entrance "
                    "(colour, owner, entrance flag); an empty cell is all 0 (customers: "
                    "`customers`); f: the cell's features, named below",
            scale="one-hot colour, one-hot owner slot, flags", labels=cell_labels),
        Piece(
            "to_act", (players,), True, 1.0, index="[j]", meaning="the seat to act (all 0 "
            "once the game is over)", scale="one-hot"),
        Piece(
            "stage", (NUM_STAGES,), True, 1.0, index="[stage]", meaning="the stage of the "
            "game (§4.1; all 0 once over)", scale="one-hot",
            labels=tuple(stage.name for stage in Stage)[:NUM_STAGES]),
        Piece(
            "phase", (NUM_PHASES,), True, 1.0, index="[phase]", meaning="the decision asked "
            "(`state.phase`, §4.2; all 0 once the game is over)", scale="one-hot",
            labels=tuple(phase.name for phase in Phase)[:NUM_PHASES]),
        Piece(
            "verb", (NUM_VERBS,), True, 1.0, index="[verb - 1]", meaning="what the pending "
            "decisions of the turn belong to (all 0 for none)", scale="one-hot",
            labels=tuple(verb.name for verb in Verb)[1:]),
        Piece(
            "pending_colour", (NUM_COLOURS,), True, 1.0, index="[c]", meaning="colour of the "
            "stall, group or customer the pending decisions concern (all 0 for none)",
            scale="one-hot"),
        Piece(
            "display", (DISPLAY_SLOTS, NUM_CARD_TYPES), True, 1.0, index="[slot, t]",
            meaning="the card in each display slot (all 0 for an empty slot)",
            scale="one-hot"),
        Piece(
            "medals", (NUM_COLOURS, NUM_MEDALS, players), True, 1.0, index="[c, m, j]",
            meaning="seat j holds colour c's gold (m = 0) or silver (m = 1) medal (all 0 "
            "while it is in the supply)", scale="one-hot"),
        Piece(
            "pending_counts", (4,), True, 1.0, index="[count]", meaning="the pending "
            "decisions' counts: cards still to pick in three-card mode, tile units of the "
            "expansion cost unpaid (D9), one coin of a 2:1 unit paid, draws left in a Draw",
            scale=f"picks / {THREE_CARDS}, units / {MAX_UNITS}, flag, draws / "
                  f"{DRAWS_PER_ACTION}",
            labels=("picks_left", "pay_units", "pay_half", "draws_left")),
        Piece(
            "customers", (NUM_COLOURS, 3), True, 1.0, index="[c, position]", meaning="where "
            "colour c's customer stands (all 0 off the board)",
            scale=f"flag, x / {WIDTH - 1}, y / {HEIGHT - 1}", labels=POSITION),
        Piece(
            "target", (3,), True, 1.0, index="[position]", meaning="the stall or expansion "
            "cell the pending build chose (all 0 before it chooses)",
            scale=f"flag, x / {WIDTH - 1}, y / {HEIGHT - 1}", labels=POSITION),
        Piece(
            "money", (players, NUM_COLOURS), reveal_money, 1.0, index="[j, c]",
            meaning="seat j's money of colour c", scale=f"money / {MONEY_PER_COLOUR}",
            privacy="public with `reveal_money=True` (the default); with "
                    "`reveal_money=False` the others' money is private: only j = 0 is "
                    "filled, the rest is 0"),
        Piece(
            "trays", (NUM_COLOURS,), True, 1.0, index="[c]", meaning="money left in colour "
            "c's tray (the bank, §2.2): what no seat holds", scale=f"money / {MONEY_PER_COLOUR}"),
        Piece(
            "vp", (players,), True, 5.0, index="[j]", meaning="VP scored so far (medals held "
            "and money count only at the end, §7.2)", scale=f"VP / {VP_SCALE:g}"),
        Piece(
            "hand", (NUM_CARD_TYPES,), False, 1.0, index="[t]", meaning="the observer's own "
            "stall cards of type t", scale=f"cards / {COPIES}",
            privacy="private: the observer's own hand"),
        Piece(
            "hand_sizes", (players,), True, 1.0, index="[j]", meaning="cards in seat j's "
            "hand", scale=f"cards / {MAX_HAND}"),
        Piece(
            "known", (players - 1, NUM_CARD_TYPES), True, 1.0, index="[j - 1, t]",
            meaning="the cards of type t in the hand of seat j = 1.. (the others) that every "
                    "seat knows: taken face up from the display and not yet played",
            scale=f"cards / {COPIES}"),
        Piece(
            "barkers", (players + 1,), True, 1.0, index="[j], then [P]", meaning="market "
            "barker cards held by seat j, then left in the supply",
            scale=f"cards / {NUM_BARKERS}", labels=(*seats, "supply")),
        Piece(
            "piles", (1 + NUM_CARD_TYPES,), True, 1.0, index="[0], then [1 + t]",
            meaning="cards in the draw pile (its order is hidden), then the discard pile's "
                    "cards of type t", scale=f"draw pile / {NUM_CARDS}, discards / {COPIES}"),
        Piece(
            "supply", (NUM_COLOURS,), True, 1.0, index="[c]", meaning="expansions of colour c "
            "left in the supply", scale=f"expansions / {EXPANSIONS_PER_COLOUR}"),
        Piece(
            "unplaced", (players + 1, NUM_COLOURS), True, 1.0, index="[j, c], then [P, c]",
            meaning="seat j's stall of colour c is not on the board; then the neutral stall "
                    "of colour c is still in the bag (2 players; 0 otherwise)", scale="flag"),
        Piece(
            "group_size", (owners, NUM_COLOURS), True, 1.0,
            index="[j, c], then [P, c] with 2 players", meaning="tiles in the group of seat "
            "j and colour c, then (2 players) the neutral set's: its main stall and expansions "
            "(0 off the board)",
            scale=f"tiles / {MAX_GROUP_SIZE}"),
        Piece(
            "dropped", (players,), True, 1.0, index="[j]", meaning="seat j passed in the "
            "FINAL stage and is out", scale="flag"),
        Piece(
            "turn", (1,), True, 1.0, index="[0]", meaning="MAIN and FINAL turns completed, "
            "against the safety cap `max_turns`", scale="min(turn, max_turns) / max_turns"),
    ]
    size = sum(int(np.prod(piece.shape)) for piece in pieces)
    padding = -size % len(cell_labels)
    if padding:
        pieces.append(Piece(
            "padding", (padding,), True, 0.0, index="[i]", meaning="always 0: rounds the "
            "vector up to whole cells (VERSION 4's size)", scale="0"))
    return ObservationLayout(pieces, _guide(players, size + padding, len(cell_labels)))


def _guide(num_players: int, size: int, cell_features: int) -> str:
    """How to read one observation (Markdown with a snippet that runs as it stands)."""
    return f"""\
Its indices: {NOTATION}. To seat `s` observing, absolute seat `a` is `j = (a - s) % P`
(P the number of players).

```python
import envs

game = envs.make_game("cairo", num_players={num_players})
state = game.init(batch_size=1, seed=0)
layout = game.observation_layout
seat = 1                                   # the observing seat
obs = game.observe(state, seat)[0]         # ({size},) float32, row 0
board = obs[layout.offsets["board"]].reshape(layout.pieces["board"].shape)  # (182, \
{cell_features})
x, y = 1, 0
cell = board[14 * y + x]                   # cell (x, y): {cell_features} features, named below
a = 0                                      # an absolute seat
j = (a - seat) % game.num_players          # its index on the seat axes
owned_by_a = cell[6 + j] == 1              # a tile or entrance of seat a on (x, y)?
money = obs[layout.offsets["money"]].reshape(layout.pieces["money"].shape)
money_of_a = money[j] * 20                 # seat a's money of each colour
```"""


_LAYOUTS = {players: observation_layout(players) for players in PLAYER_COUNTS}


def _by_player_count(value: Callable[[ObservationLayout], int]) -> np.ndarray:
    """(5,) int64: ``value`` of the layout of each player count (2, 3, 4), at its index."""
    values = np.full(NEUTRAL + 1, -1, dtype=np.int64)
    for players, layout in _LAYOUTS.items():
        values[players] = value(layout)
    return values


def _starts(name: str) -> np.ndarray:
    """(5,) int64: where piece ``name`` starts, indexed by the player count."""
    return _by_player_count(lambda layout: layout.offsets[name].start)


def _owner_slots() -> np.ndarray:
    """(5, 4, 5) int64: the egocentric slot of each owner (a seat, or the neutral set after the
    seats) as each seat sees it, by player count; a table, so that the kernels divide by no
    player count (an integer division costs more than the rest of a cell's work)."""
    slots = np.full((NEUTRAL + 1, NEUTRAL, NUM_OWNERS), -1, dtype=np.int64)
    for players in PLAYER_COUNTS:
        for seat in range(players):
            for owner in range(players):
                slots[players, seat, owner] = (owner - seat) % players
            slots[players, seat, NEUTRAL] = players
    return slots


_OWNER_SLOT = _owner_slots()
# Each group id's colour and owner (``owner * 6 + colour``), so that a cell of the board
# piece divides by nothing.
_GROUP_COLOUR = np.arange(NUM_OWNERS * NUM_COLOURS) % NUM_COLOURS
_GROUP_OWNER = np.arange(NUM_OWNERS * NUM_COLOURS) // NUM_COLOURS
# The layout's sizes and offsets as constants of the kernels (numba freezes module-level
# arrays), indexed by the player count.
_CELL_FEATURES = _by_player_count(lambda layout: layout.pieces["board"].shape[1])
_TO_ACT, _STAGE, _PHASE, _VERB = (_starts(n) for n in ("to_act", "stage", "phase", "verb"))
_PENDING_COLOUR, _DISPLAY, _MEDALS = (_starts(n) for n in ("pending_colour", "display",
                                                           "medals"))
_PENDING_COUNTS, _CUSTOMERS, _TARGET = (_starts(n) for n in ("pending_counts", "customers",
                                                             "target"))
_MONEY, _TRAYS, _VP, _HAND = (_starts(n) for n in ("money", "trays", "vp", "hand"))
_HAND_SIZES, _KNOWN, _BARKERS = (_starts(n) for n in ("hand_sizes", "known", "barkers"))
_PILES, _SUPPLY, _UNPLACED = (_starts(n) for n in ("piles", "supply", "unplaced"))
_GROUP_SIZE, _DROPPED, _TURN = (_starts(n) for n in ("group_size", "dropped", "turn"))


# The scales as reciprocals: a product costs a fraction of a division, and for every integer
# these pieces hold the float64 product rounds to the same float32 as the quotient (tested).
RECIPROCAL_SCALES = (WIDTH - 1, HEIGHT - 1, THREE_CARDS, MAX_UNITS, DRAWS_PER_ACTION,
                     MONEY_PER_COLOUR, VP_SCALE, MAX_HAND, COPIES, NUM_BARKERS,
                     MAX_GROUP_SIZE, NUM_CARDS, EXPANSIONS_PER_COLOUR)
(_PER_X, _PER_Y, _PER_PICK, _PER_UNIT, _PER_DRAW, _PER_MONEY, _PER_VP, _PER_HAND_CARD,
 _PER_COPY, _PER_BARKER, _PER_TILE, _PER_CARD, _PER_EXPANSION) = (
    1.0 / scale for scale in RECIPROCAL_SCALES)


# ---------------------------------------------------------------- the encoder, one row
@njit
def _one_hot(out: np.ndarray, start: int, value: int, size: int) -> None:
    """Set ``out[start + value]`` where ``value`` is in [0, size) (none for -1 or past)."""
    if 0 <= value < size:
        out[start + value] = 1.0


@njit
def _relative(seat_or_none: int, seat: int, num_players: int) -> int:
    """Where ``seat_or_none`` (-1 for none) sits after ``seat`` in turn order; -1 for none."""
    return _OWNER_SLOT[num_players, seat, seat_or_none] if seat_or_none >= 0 else -1


@njit
def _position(out: np.ndarray, start: int, cell: int) -> None:
    """(on board, x / 13, y / 12) of ``cell`` (-1 off the board: zeros) at ``out[start:]``."""
    if cell >= 0:
        out[start] = 1.0
        out[start + 1] = (cell % WIDTH) * _PER_X
        out[start + 2] = (cell // WIDTH) * _PER_Y


@njit
def _hand_size(s: View, r: int, seat: int) -> int:
    """Cards in ``seat``'s hand in row ``r``."""
    size = 0
    hand = s.hand[r, seat]
    for card_type in range(NUM_CARD_TYPES):
        size += hand[card_type]
    return size


@njit
def _board(s: View, r: int, seat: int, out: np.ndarray) -> None:
    """The board piece of row ``r`` as ``seat`` sees it (its features per cell)."""
    players = s.vp.shape[1]
    features = _CELL_FEATURES[players]
    main, entrance = features - 2, features - 1
    tiles, entrances = s.tile[r], s.entrance[r]
    # The cells with a tile or an entrance first, without a branch per cell (a test per cell
    # that the board makes random cost more than the rest of the encoder): both ids are -1
    # only where the AND of the two is negative.
    marked = local_zeros(NUM_CELLS, np.int64)
    count = 0
    for k in range(NUM_CELLS):
        marked[count] = k
        count += (tiles[k] & entrances[k]) >= 0
    slots = _OWNER_SLOT[players, seat]
    for i in range(count):
        k = marked[i]
        cell = k * features
        tile = tiles[k]
        group = tile if tile >= 0 else entrances[k]  # no tile: the entrance's
        out[cell + entrance] = tile < 0
        out[cell + _GROUP_COLOUR[group]] = 1.0
        out[cell + NUM_COLOURS + slots[_GROUP_OWNER[group]]] = 1.0
    stall_cells = s.stall_cell[r]
    for owner in range(NUM_OWNERS):  # the main stalls: tiles whose colour and owner are set
        for colour in range(NUM_COLOURS):
            k = stall_cells[owner, colour]
            if k >= 0:
                out[k * features + main] = 1.0


@njit
def observe_row(s: View, r: int, seat: int, out: np.ndarray) -> None:
    """What ``seat`` may know of row ``r`` (§6) into ``out`` (obs,) float32, which comes
    zeroed: the pieces of ``observation_layout``, in its order."""
    players = s.vp.shape[1]
    _board(s, r, seat, out)
    # The one-hot pieces.
    _one_hot(out, _TO_ACT[players], _relative(s.current_player[r], seat, players), players)
    _one_hot(out, _STAGE[players], s.stage[r], NUM_STAGES)
    _one_hot(out, _PHASE[players], s.phase[r], NUM_PHASES)
    _one_hot(out, _VERB[players], s.verb[r] - 1, NUM_VERBS)
    _one_hot(out, _PENDING_COLOUR[players], s.colour[r], NUM_COLOURS)
    display, medals = s.display[r], s.medal[r]
    for slot in range(DISPLAY_SLOTS):
        _one_hot(out, _DISPLAY[players] + slot * NUM_CARD_TYPES, display[slot],
                 NUM_CARD_TYPES)
    for colour in range(NUM_COLOURS):
        for medal in range(NUM_MEDALS):
            _one_hot(out, _MEDALS[players] + (colour * NUM_MEDALS + medal) * players,
                     _relative(medals[colour, medal], seat, players), players)
    # The pending decisions.
    counts = _PENDING_COUNTS[players]
    out[counts] = s.picks_left[r] * _PER_PICK
    out[counts + 1] = s.pay_units[r] * _PER_UNIT
    out[counts + 2] = s.pay_half[r]
    out[counts + 3] = s.draws_left[r] * _PER_DRAW
    customers = s.customer[r]
    for colour in range(NUM_COLOURS):
        _position(out, _CUSTOMERS[players] + 3 * colour, customers[colour])
    _position(out, _TARGET[players], s.target[r])
    # The seats, egocentric.
    reveal_money = s.params[P_REVEAL_MONEY] != 0
    barkers_held = 0
    for j in range(players):
        other = (seat + j) % players
        # The rows read in loops as locals: numba then indexes them more cheaply than s's.
        money, known, stalls = s.money[r, other], s.known[r, other], s.stall_cell[r, other]
        groups = s.group_size[r, other]
        if j == 0 or reveal_money:
            for colour in range(NUM_COLOURS):
                out[_MONEY[players] + j * NUM_COLOURS + colour] = money[colour] * _PER_MONEY
        out[_VP[players] + j] = s.vp[r, other] * _PER_VP
        out[_HAND_SIZES[players] + j] = _hand_size(s, r, other) * _PER_HAND_CARD
        if j > 0:
            for card_type in range(NUM_CARD_TYPES):
                out[_KNOWN[players] + (j - 1) * NUM_CARD_TYPES + card_type] = (
                    known[card_type] * _PER_COPY)
        out[_BARKERS[players] + j] = s.barkers[r, other] * _PER_BARKER
        barkers_held += s.barkers[r, other]
        for colour in range(NUM_COLOURS):
            out[_UNPLACED[players] + j * NUM_COLOURS + colour] = stalls[colour] < 0
            out[_GROUP_SIZE[players] + j * NUM_COLOURS + colour] = groups[colour] * _PER_TILE
        out[_DROPPED[players] + j] = s.dropped[r, other]
    out[_BARKERS[players] + players] = (NUM_BARKERS - barkers_held) * _PER_BARKER
    bag, neutral_groups = s.neutral_bag[r], s.group_size[r, NEUTRAL]
    for colour in range(NUM_COLOURS):
        out[_UNPLACED[players] + players * NUM_COLOURS + colour] = bag[colour]
        if players == 2:  # the neutral set's groups, after the seats'
            out[_GROUP_SIZE[players] + players * NUM_COLOURS + colour] = (
                neutral_groups[colour] * _PER_TILE)
    # The observer's own cards, then the common supplies.
    hand, discard, supply = s.hand[r, seat], s.discard[r], s.supply[r]
    for card_type in range(NUM_CARD_TYPES):
        out[_HAND[players] + card_type] = hand[card_type] * _PER_COPY
        out[_PILES[players] + 1 + card_type] = discard[card_type] * _PER_COPY
    out[_PILES[players]] = s.deck_size[r] * _PER_CARD
    for colour in range(NUM_COLOURS):
        out[_TRAYS[players] + colour] = tray(s, r, colour) * _PER_MONEY
        out[_SUPPLY[players] + colour] = supply[colour] * _PER_EXPANSION
    max_turns = s.params[P_MAX_TURNS]
    out[_TURN[players]] = min(s.turn[r], max_turns) / max_turns
