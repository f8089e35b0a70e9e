"""What one seat may know (§6, §9.2): the observation's layout and its compiled encoder.

The observation holds exactly the features of §9.2 (291 + 58 N floats), egocentric: seats
are written relative to the observer (0 = self, then clockwise), per-seat blocks have N
entries (no padding of 3 players to 4), and every feature is a count divided by a bound from
the rules, so it lies in [0, 1] (the net flows in [-1, 1]). A feature the observer may not
see is 0. The layout (``observation_layout``) is the single description of the encoding:
each piece says what it holds, how its axes are indexed, its scale and its privacy under the
options, and names every entry of its last axis; ``python -m envs.docs`` prints it into
``docs/junk.md``. Its three sections:

* the table: every public feature that does not belong to a seat (the decision, the round's
  constants, context, holds, figures, stacks, market, piles, the last reveal's goods and
  award);
* the seats: one block of the same 53 features per seat (acting seat, start player, ``vis``
  and the layer counts of each junk, money, hand size, strips, supply, ALWAYS cards,
  face-down count, cards taken per pile, EXTRA used, known minimum holdings, committed,
  presence, net flows, the last reveal's bid, payout and award taker), in the observer's
  order;
* the observer's own private features (hand, special cards, pile memory, the pile being
  searched, its pending bid, the other seats' combined goods).

``observe_row`` writes one row as one seat sees it, read by name from ``s``, the kernels'
view of the state: compiled with numba, it is the whole encoder. Each count is rounded to
float32 and multiplied by the float32 reciprocal of its bound (``SCALE``), as the NumPy
encoder of VERSION 1 did, so observations are unchanged bit for bit.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.layout import ObservationLayout, Piece
from envs.core.seats import next_seat
from envs.junk.data import (
    CELLS,
    GOODS_NAMES,
    GOODS_PER_TYPE,
    HELPER_NAMES,
    HELPER_TRACK,
    JUNK_NAMES,
    K_LOAD,
    KIND_NAMES,
    MARKET_CARDS,
    MAX_COPIES,
    MAX_LAYERS,
    MAX_MONEY,
    MAX_PILE,
    MAX_PRICE,
    MAX_SUPPLY,
    MERCHANT_NAMES,
    NUM_ALWAYS,
    NUM_GOODS,
    NUM_HIDDEN_KINDS,
    NUM_JUNKS,
    NUM_MARKET_CARDS,
    NUM_MERCHANTS,
    NUM_PILES,
    NUM_ROUNDS,
    NUM_SPECIAL_TYPES,
    PILE_NAMES,
    PILE_SIZES,
    SLOTS,
    SPECIAL_NAMES,
    STRIPS_PER_PLAYER,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
)
from envs.junk.state import (
    A_BID,
    A_PASS_BID,
    MAX_BID,
    NUM_DECISION_KINDS,
    P_HIDE_MONEY,
    P_HIDE_STACKS,
    Phase,
)

NUM_STAGES = 5  # setup, Phases 1, 2, 3, 4 (5 and 6 ask nothing)
STAGE_NAMES = ("setup", "phase 1", "phase 2", "phase 3", "phase 4")
_BID_KINDS = 1 + NUM_GOODS  # pass, or one of the four goods
_TOTAL_GOODS = NUM_GOODS * GOODS_PER_TYPE
PLAYER_COUNTS = (3, 4)
_GOODS = tuple(name.lower() for name in GOODS_NAMES)
_BID_LABELS = ("pass", *_GOODS, "count")

# ---------------------------------------------------------------- the table section
# (name, labels, bounds) of its counts, in order; a bound of 1 for flags. The figures'
# count depends on the player count (3 merchants and N - 2 helpers), the setup's bound too.
_TABLE_COUNTS = (
    ("turn_flags", ("main action done", "GREY_TYPE from an EXTRA card"), 1),
    ("goods_owed", ("goods owed in GREY_TYPE",), CELLS),
    ("exchange", ("goods returned", "goods still to take", "second exchange"), (2, 2, 1)),
    ("event_chosen", tuple(f"{q} chosen in this S event" for q in PILE_NAMES), 1),
    ("pick_award", ("SPECIAL_PICK from an S award",), 1),
    ("setup", ("setup placements left", "merchants face down"), None),
    ("announce_round", ("round of the last Y announcement",), NUM_ROUNDS),
    ("height", tuple(f"h + 1 {j}" for j in JUNK_NAMES), MAX_LAYERS),
    ("empty_top", tuple(f"e {j}" for j in JUNK_NAMES), SLOTS - 1),
    ("fig_used", None, 1),
    ("stack", tuple(f"stack {g}" for g in _GOODS), GOODS_PER_TYPE),
    ("stack_empty", tuple(f"stack {g} empty" for g in _GOODS), 1),
    ("sold", tuple(f"{g} sold" for g in _GOODS), 1),
    ("unrevealed", tuple(f"market card {k + 1} unturned" for k in range(NUM_MARKET_CARDS)), 1),
    ("pile_sizes", tuple(f"{q} size" for q in PILE_NAMES), MAX_PILE),
    ("played", tuple(f"{SPECIAL_NAMES[t]} played" for t in range(3, 11)),
     (2, 2, 2, 1, 1, 1, 1, 1)),
    ("lr_flags", ("a reveal happened", "the last reveal was this round"), 1),
    ("lr_sold", tuple(f"{g} sold at the last reveal" for g in _GOODS), 1),
    ("lr_yuan", ("the last S award was the 3 Yuan",), 1),
)
_TABLE_ONE_HOT = (
    ("bid_round", (4,), "[k - 1]", "the bidding round k of Phase 4 (all 0 outside it)",
     tuple(f"round {k}" for k in range(1, 5))),
    ("pick_pile", (NUM_PILES,), "[q]", "the pile searched in SPECIAL_PICK (all 0 outside it)",
     PILE_NAMES),
    ("merchant_junk", (NUM_MERCHANTS, NUM_JUNKS), "[m, j]", "the junk j of the LOAD, MONEY "
     "and GOODS merchant m (all 0 while they lie face down in the variable setup)",
     JUNK_NAMES),
    ("merchant_on", (NUM_JUNKS,), "[j]", "junk j holds a merchant (face up or down)",
     JUNK_NAMES),
    ("market", (NUM_GOODS, 5), "[g, price]", "this round's market card: the price of good g "
     "(1..4), or S (all 0 before round 1)", ("1", "2", "3", "4", "S")),
    ("lr_bid_round", (4,), "[k - 1]", "the bidding round of the last reveal (all 0 before "
     "the first)", tuple(f"round {k}" for k in range(1, 5))),
    ("lr_pile", (NUM_PILES,), "[q]", "the pile the last S award came from (all 0 for none)",
     PILE_NAMES),
)
# ---------------------------------------------------------------- the seats section
_SEAT_FEATURES = (
    ("acting", ("acting",), 1),
    ("start", ("start player",), 1),
    ("vis", tuple(f"vis {j}" for j in JUNK_NAMES), CELLS),
    ("layers", tuple(f"strips {j} layer h-{k}" for j in JUNK_NAMES for k in range(3)), SLOTS),
    ("money", ("money",), MAX_MONEY),
    ("hand_size", ("hand size",), _TOTAL_GOODS),
    ("strips", ("strips in supply",), STRIPS_PER_PLAYER),
    ("supply", ("supply cards",), MAX_SUPPLY),
    ("always", tuple(SPECIAL_NAMES[:NUM_ALWAYS]), (MAX_COPIES, 1, 2)),
    ("hidden", ("face-down cards",), NUM_HIDDEN_KINDS),
    ("taken", tuple(f"taken from {q}" for q in PILE_NAMES), MAX_PILE),
    ("extra_used", ("EXTRA card played this round",), 1),
    ("known_min", tuple(f"known {g}" for g in _GOODS), GOODS_PER_TYPE),
    ("committed", ("bid committed",), 1),
    ("presence", ("presence",), NUM_JUNKS),
    ("flow", tuple(f"flow {g}" for g in _GOODS), GOODS_PER_TYPE),
    ("lr_bid", tuple(f"last bid {label}" for label in _BID_LABELS), (1, 1, 1, 1, 1, MAX_BID)),
    ("lr_payout", ("last payout",), MAX_PRICE),
    ("lr_taker", ("last S award taker",), 1),
)
SEAT_SIZE = sum(len(labels) for _, labels, _ in _SEAT_FEATURES)  # 53
# ---------------------------------------------------------------- the own section
_OWN_FEATURES = (
    ("own_hand", (NUM_GOODS,), GOODS_PER_TYPE, "[g]", "the observer's goods of type g",
     _GOODS),
    ("own_cards", (NUM_SPECIAL_TYPES,), MAX_COPIES, "[t]", "the observer's special cards of "
     "type t, face up and face down", SPECIAL_NAMES),
    ("own_searched", (NUM_PILES,), 1, "[q]", "the observer has searched pile q", PILE_NAMES),
    ("own_seen", (NUM_PILES * NUM_SPECIAL_TYPES,), MAX_COPIES, "[21 q + t]", "the cards of "
     "type t the observer left in pile q at its last search there (0 if never)",
     tuple(f"{q} {t}" for q in PILE_NAMES for t in SPECIAL_NAMES)),
    ("own_since", (NUM_PILES,), MAX_PILE, "[q]", "cards taken from pile q since the "
     "observer's last search of it (since the start if never)", PILE_NAMES),
    ("own_search", (NUM_SPECIAL_TYPES,), MAX_COPIES, "[t]", "the cards of type t in the pile "
     "the observer is searching (all 0 unless it is asked its SPECIAL_PICK)", SPECIAL_NAMES),
    ("own_bid", (_BID_KINDS + 1,), (1, 1, 1, 1, 1, MAX_BID), "[kind]", "the observer's "
     "committed bid of this bidding round: pass or the good one-hot, then the count",
     _BID_LABELS),
    ("others_goods", (NUM_GOODS,), GOODS_PER_TYPE, "[g]", "goods of type g in the other "
     "hands together: 18 - stack - own hand (0 under hide_stacks)", _GOODS),
)


def _figure_labels(players: int) -> tuple[str, ...]:
    return (*(f"{m} merchant used" for m in MERCHANT_NAMES),
            *(f"{h} helper used" for h in HELPER_NAMES[:players - 2]))


def _table_counts(players: int) -> list[tuple[str, tuple[str, ...], object]]:
    """``_TABLE_COUNTS`` for ``players`` seats (the figures' labels, the setup's bound)."""
    out = []
    for name, labels, bound in _TABLE_COUNTS:
        if name == "fig_used":
            labels = _figure_labels(players)
        if name == "setup":
            bound = (3 * players, 1)
        out.append((name, labels, bound))
    return out


def _scales(features, size: int | None = None) -> np.ndarray:
    """The per-entry float32 multipliers (1 / bound) of a list of (name, labels, bound)."""
    out = [np.broadcast_to(1.0 / np.asarray(bound, dtype=np.float64), (len(labels),))
           for _, labels, bound in features]
    return np.concatenate(out).astype(np.float32)


def _bound_text(bound: object) -> str:
    bounds = np.broadcast_to(np.asarray(bound), (1,)) if np.ndim(bound) == 0 else bound
    return ", ".join("flag" if b == 1 else f"/ {b}" for b in np.asarray(bounds).tolist())


def _count_labels(features) -> tuple[str, ...]:
    """Each entry's label with its scale, e.g. ``vis GREY (/ 9)``."""
    labels = []
    for _, names, bound in features:
        bounds = np.broadcast_to(np.asarray(bound), (len(names),))
        labels += [name if b == 1 else f"{name} (/ {b})" for name, b in zip(names, bounds,
                                                                           strict=True)]
    return tuple(labels)


NOTATION = (
    "`j` a seat, egocentric (0 the observer, then clockwise in turn order); `g` a good (" +
    ", ".join(f"{i} {name}" for i, name in enumerate(_GOODS)) + "); a junk (" +
    ", ".join(f"{i} {name}" for i, name in enumerate(JUNK_NAMES)) + "); `q` a pile (" +
    ", ".join(f"{i} {name}" for i, name in enumerate(PILE_NAMES)) + "); `t` a special-card "
    "type (`SPECIAL_NAMES` of `envs/junk/data.py`)")


def observation_layout(num_players: int) -> ObservationLayout:
    """The observation of ``num_players`` seats (the same pieces under every option): the
    pieces in order."""
    n = num_players
    helpers = n - 2
    table = _table_counts(n)
    money = ("public; with `hide_money=True` the others' money is their last Y "
             "announcement (exact once the game is over), the observer's own exact")
    goods = ("public; with `hide_stacks=True` the stacks, flows and known goods are 0 (only "
             "the stacks' emptiness is shown)")
    round_labels = (*(f"round {k}" for k in range(1, NUM_ROUNDS + 1)),
                    *(f"{HELPER_NAMES[h]} {label}" for h in range(helpers)
                      for label in (*KIND_NAMES, "load size / 2")),
                    "hide_money", "hide_stacks")
    pieces = [
        Piece(
            "decision", (NUM_DECISION_KINDS + NUM_STAGES,), True, 1.0, index="[phase], then "
            "[12 + stage]", meaning="the decision asked (`state.phase`, GAME_OVER once over), "
            "then the stage it belongs to (an award's SPECIAL_PICK is Phase 4's; none once "
            "over)", scale="one-hot, one-hot",
            labels=(*(p.name for p in Phase), *STAGE_NAMES)),
        Piece(
            "round", (len(round_labels),), True, 1.0, index="[round - 1], then [10 + 4 h + "
            "kind], then the options", meaning="the round (all 0 in the setup); each helper's "
            "space this round: its kind and, for a LOAD, its size; the options hide_money "
            "and hide_stacks", scale="one-hot, one-hot and size / 2, flags",
            labels=round_labels),
        Piece(
            "table_counts", (sum(len(labels) for _, labels, _ in table),), True, 1.0,
            index="[i]", meaning="the decision's context, the holds (h the top layer, e its "
            "empty slots), the figures used, stacks, market cards, piles, EXTRA cards "
            "played, the last reveal: one entry each, named below with its bound",
            scale="count / bound (named), flags", privacy=goods, labels=_count_labels(table)),
        *[Piece(name, shape, True, 1.0, index=index, meaning=meaning, scale="one-hot",
                labels=labels)
          for name, shape, index, meaning, labels in _TABLE_ONE_HOT],
        Piece(
            "seats", (n, SEAT_SIZE), True, 1.0, index="[j, f]", meaning="seat j's public "
            "features f (named below with their bounds): `vis` its visible crates and the "
            "strips of the top three layers of each junk, its flow the net goods it took "
            "from (or gave to) the stacks since the deal, its known goods flow - lowest flow",
            scale="count / bound (named), flags; flows in [-8/18, 1]",
            privacy=f"money: {money}; goods: {goods}", labels=_count_labels(_SEAT_FEATURES)),
        *[Piece(name, shape, False, 1.0, index=index, meaning=meaning,
                scale=_bound_text(bound), privacy="private: the observer's own", labels=labels)
          for name, shape, bound, index, meaning, labels in _OWN_FEATURES],
    ]
    layout = ObservationLayout(pieces, _guide(n, 291 + 58 * n))
    assert layout.size == 291 + 58 * n, layout.size
    return layout


def _guide(num_players: int, size: int) -> str:
    """How to read one observation (Markdown with a snippet that runs as it stands)."""
    return f"""\
Its indices: {NOTATION}. To seat `s` observing, absolute seat `a` is
`j = (a - s) % N` (N the number of players). A feature the observer may not see is 0.

```python
import envs
game = envs.make_game("junk", num_players={num_players})
state = game.init(batch_size=1, seed=0)
layout = game.observation_layout
obs = game.observe(state, 0)[0]            # ({size},) float32, row 0, seen by seat 0
seats = obs[layout.offsets["seats"]].reshape(layout.pieces["seats"].shape)
labels = layout.pieces["seats"].labels
money_of_next = seats[1, labels.index("money (/ 212)")] * 212   # the seat after the observer
```"""


class Observer:
    """The columns of the observation of one player count (for tests and tools; the
    encoder is ``observe_row``)."""

    def __init__(self, num_players: int):
        self.num_players = num_players
        self.layout = observation_layout(num_players)
        self.seat_size = SEAT_SIZE
        self.table_counts = _table_counts(num_players)
        low, high = self.layout.bounds()
        for seat in range(num_players):
            start = self.seat_column(seat, "flow")
            low[start:start + NUM_GOODS] = -1.0
        self.bounds = (low, high)

    def table_column(self, name: str) -> int:
        """Observation column of the first entry of count ``name`` of the table section."""
        column = self.layout.offsets["table_counts"].start
        for feature, labels, _ in self.table_counts:
            if feature == name:
                return column
            column += len(labels)
        raise KeyError(name)

    def seat_column(self, relative: int, name: str) -> int:
        """Observation column of the first entry of seat feature ``name`` of the seat
        ``relative`` places after the observer."""
        column = self.layout.offsets["seats"].start + relative * SEAT_SIZE
        for feature, labels, _ in _SEAT_FEATURES:
            if feature == name:
                return column
            column += len(labels)
        raise KeyError(name)


# ---------------------------------------------------------------- the kernels' constants
_MAX_SIZE = 291 + 58 * 4
_LAYOUTS = {n: observation_layout(n) for n in PLAYER_COUNTS}


def _by_player_count(value) -> np.ndarray:
    """(5,) int64: ``value`` of the layout of each player count, at its index."""
    values = np.full(5, -1, dtype=np.int64)
    for n, layout in _LAYOUTS.items():
        values[n] = value(layout)
    return values


def _scale_table() -> np.ndarray:
    """(5, 523) float32 per player count the multiplier of every count column (1 for the
    one-hot ones)."""
    table = np.ones((5, _MAX_SIZE), dtype=np.float32)
    for n, layout in _LAYOUTS.items():
        off = layout.offsets
        table[n, off["table_counts"]] = _scales(_table_counts(n))
        table[n, off["seats"]] = np.tile(_scales(_SEAT_FEATURES), n)
        own = [(name, labels, bound) for name, _, bound, _, _, labels in _OWN_FEATURES]
        table[n, off["own_hand"].start:off["others_goods"].stop] = _scales(own)
    return table


def _round_table() -> np.ndarray:
    """(5, 11, 20) float32 per player count and round (0 = setup) the round piece without
    the options: the round one-hot, each helper's space (kind one-hot, LOAD size / 2)."""
    table = np.zeros((5, NUM_ROUNDS + 1, NUM_ROUNDS + 8 + 2), dtype=np.float32)
    for n in PLAYER_COUNTS:
        for rnd in range(1, NUM_ROUNDS + 1):
            table[n, rnd, rnd - 1] = 1.0
            for helper in range(n - 2):
                kind, size = HELPER_TRACK[helper, rnd - 1]
                table[n, rnd, NUM_ROUNDS + 4 * helper + kind] = 1.0
                table[n, rnd, NUM_ROUNDS + 4 * helper + 3] = size / 2 if kind == K_LOAD else 0
    return table


SCALE = _scale_table()
ROUND_TABLE = _round_table()
_DECISION, _ROUND, _COUNTS = (_by_player_count(lambda lay, k=k: lay.offsets[k].start)
                              for k in ("decision", "round", "table_counts"))
_ROUND_SIZE = _by_player_count(lambda lay: lay.pieces["round"].shape[0])
_BID_ROUND, _PICK_PILE, _MERCHANT_JUNK, _MERCHANT_ON, _MARKET, _LR_BID_ROUND, _LR_PILE = (
    _by_player_count(lambda lay, k=k: lay.offsets[k].start)
    for k in ("bid_round", "pick_pile", "merchant_junk", "merchant_on", "market",
              "lr_bid_round", "lr_pile"))
_SEATS, _OWN = (_by_player_count(lambda lay, k=k: lay.offsets[k].start)
                for k in ("seats", "own_hand"))
_MONEY_IN_SEAT = 2 + NUM_JUNKS + 3 * NUM_JUNKS  # the money's index in a seat's block
# Stage of each decision (SPECIAL_PICK is Phase 1's unless it comes from an award).
STAGE_OF_PHASE = np.array([0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, -1], dtype=np.int64)
# Per market card (10 = none yet), each good's price code: prices 1..4 at 0..3, S at 4.
MARKET_CODE = np.full((NUM_MARKET_CARDS + 1, NUM_GOODS), -1, dtype=np.int64)
MARKET_CODE[:NUM_MARKET_CARDS] = np.where(MARKET_CARDS == 0, 4, MARKET_CARDS - 1)


# ---------------------------------------------------------------- the encoder
@njit
def _put(out, column, value):
    """Write count ``value`` into ``out[column]`` (``observe_row`` scales the row once, at
    the end); the next column."""
    # Unsigned, numba indexes without testing for a negative (from the end) index: a tenth
    # of the encoder's time.
    out[np.uint64(column)] = np.float32(np.int64(value))
    return column + 1


@njit
def _bid(out, column, bid):
    """A bid action (-1 none): one-hot pass / good, then the count; the next column."""
    if bid == A_PASS_BID:
        out[column] = 1.0
    elif bid >= A_BID:
        out[column + 1 + (bid - A_BID) // MAX_BID] = 1.0
        out[column + _BID_KINDS] = np.float32((bid - A_BID) % MAX_BID + 1)
    return column + _BID_KINDS + 1


@njit
def _table(s, r, out, players):
    """The table's counts, from the decision's context to the last reveal."""
    c = _COUNTS[players]
    hide_stacks = s.params[P_HIDE_STACKS] != 0
    c = _put(out, c, s.main_done[r])
    c = _put(out, c, s.grey_from_extra[r])
    c = _put(out, c, s.goods_left[r])
    c = _put(out, c, s.returned[r])
    c = _put(out, c, s.takes_left[r])
    c = _put(out, c, s.second_exchange[r])
    for q in range(NUM_PILES):
        c = _put(out, c, s.event_chosen[r, q])
    c = _put(out, c, s.pick_award[r])
    c = _put(out, c, s.setup_left[r])
    c = _put(out, c, s.merchants_hidden[r])
    c = _put(out, c, s.announce_round[r])
    for j in range(NUM_JUNKS):
        c = _put(out, c, s.height[r, j] + 1)
    for j in range(NUM_JUNKS):
        c = _put(out, c, s.open_slots[r, j])
    for f in range(players + 1):
        c = _put(out, c, s.fig_used[r, f])
    stack, unrevealed, discarded = s.stack[r], s.unrevealed[r], s.discarded[r]
    for g in range(NUM_GOODS):
        c = _put(out, c, 0 if hide_stacks else stack[g])
    for g in range(NUM_GOODS):
        c = _put(out, c, stack[g] == 0)
    for g in range(NUM_GOODS):
        c = _put(out, c, s.sold[r, g])
    for k in range(NUM_MARKET_CARDS):
        c = _put(out, c, unrevealed[k])
    for q in range(NUM_PILES):
        c = _put(out, c, s.pile_size[r, q])
    for t in range(3, 11):
        c = _put(out, c, discarded[t])
    lr_round = s.lr_round[r]
    c = _put(out, c, lr_round > 0)
    c = _put(out, c, lr_round == s.round[r] and lr_round > 0)
    for g in range(NUM_GOODS):
        c = _put(out, c, s.lr_sold[r, g])
    _put(out, c, s.lr_yuan[r])


@njit
def _one_hots(s, r, out, players):
    rnd = s.round[r]
    if s.bid_round[r] > 0:
        out[_BID_ROUND[players] + s.bid_round[r] - 1] = 1.0
    if s.pick_pile[r] >= 0:
        out[_PICK_PILE[players] + s.pick_pile[r]] = 1.0
    for m in range(NUM_MERCHANTS):
        junk = s.merchant_junk[r, m]
        if not s.merchants_hidden[r]:
            out[_MERCHANT_JUNK[players] + NUM_JUNKS * m + junk] = 1.0
        out[_MERCHANT_ON[players] + junk] = 1.0
    card = s.market_order[r, rnd - 1] if rnd >= 1 else NUM_MARKET_CARDS
    for g in range(NUM_GOODS):
        if MARKET_CODE[card, g] >= 0:
            out[_MARKET[players] + 5 * g + MARKET_CODE[card, g]] = 1.0
    if s.lr_bid_round[r] > 0:
        out[_LR_BID_ROUND[players] + s.lr_bid_round[r] - 1] = 1.0
    if s.lr_pile[r] >= 0:
        out[_LR_PILE[players] + s.lr_pile[r]] = 1.0


@njit
def _seat_block(s, r, out, p, leader, c):
    """Seat ``p``'s 53 public features from column ``c``; ``leader`` is the seat that leads
    the round (the arrays read in loops are locals: reading one out of ``s`` costs more
    than the feature)."""
    hide_stacks = s.params[P_HIDE_STACKS] != 0
    vis, layers, flow, flow_min = s.vis[r], s.layers[r], s.flow[r, p], s.flow_min[r, p]
    money = s.money[r, p]
    if s.params[P_HIDE_MONEY] and not (s.terminated[r] or s.truncated[r]):
        money = s.announced[r, p]
    c = _put(out, c, s.current_player[r] == p)
    c = _put(out, c, leader == p)
    for j in range(NUM_JUNKS):
        c = _put(out, c, vis[j, p])
    for j in range(NUM_JUNKS):
        for k in range(3):
            c = _put(out, c, layers[j, k, p])
    c = _put(out, c, money)
    c = _put(out, c, s.hand_size[r, p])
    c = _put(out, c, s.strips[r, p])
    c = _put(out, c, SUPPLY_CARDS + s.always[r, p, SUPPLY_PLUS])
    for t in range(NUM_ALWAYS):
        c = _put(out, c, s.always[r, p, t])
    c = _put(out, c, s.hidden[r, p])
    for q in range(NUM_PILES):
        c = _put(out, c, s.taken[r, p, q])
    c = _put(out, c, s.extra_used[r, p])
    for g in range(NUM_GOODS):
        c = _put(out, c, 0 if hide_stacks else flow[g] - flow_min[g])
    c = _put(out, c, s.committed[r, p])
    c = _put(out, c, s.presence[r, p])
    for g in range(NUM_GOODS):
        c = _put(out, c, 0 if hide_stacks else flow[g])
    c = _bid(out, c, s.lr_bid[r, p])
    c = _put(out, c, s.lr_payout[r, p])
    _put(out, c, s.lr_taker[r] == p)


@njit
def _own(s, r, out, players, seat):
    """The observer's private features (the arrays read in loops are locals)."""
    c = _OWN[players]
    hand, held, always = s.hand[r, seat], s.held[r, seat], s.always[r, seat]
    searched, seen = s.searched[r, seat], s.seen[r, seat]
    for g in range(NUM_GOODS):
        c = _put(out, c, hand[g])
    for t in range(NUM_SPECIAL_TYPES):
        face_up = always[t] if t < NUM_ALWAYS else 0
        c = _put(out, c, held[t] + face_up)
    for q in range(NUM_PILES):
        c = _put(out, c, searched[q] > 0)
    for q in range(NUM_PILES):
        for t in range(NUM_SPECIAL_TYPES):
            c = _put(out, c, seen[q, t])
    for q in range(NUM_PILES):
        left = PILE_SIZES[q]
        if searched[q] > 0:
            left = 0
            for t in range(NUM_SPECIAL_TYPES):
                left += seen[q, t]
        c = _put(out, c, left - s.pile_size[r, q])
    if s.phase[r] == Phase.SPECIAL_PICK and s.current_player[r] == seat:
        pile = s.pile_cards[r, s.pick_pile[r]]
        for t in range(NUM_SPECIAL_TYPES):
            _put(out, c + t, pile[t])
    c = _bid(out, c + NUM_SPECIAL_TYPES, s.pending[r, seat])
    if s.params[P_HIDE_STACKS] == 0:
        stack = s.stack[r]
        for g in range(NUM_GOODS):
            _put(out, c + g, GOODS_PER_TYPE - stack[g] - hand[g])


@njit
def observe_row(s, r, seat, out):
    """Row ``r`` as ``seat`` may know it into ``out`` (291 + 58 N,) float32, zeroed (the
    driver's ``observe_row``)."""
    players = s.hand.shape[1]
    phase = s.phase[r]
    out[_DECISION[players] + phase] = 1.0
    stage = STAGE_OF_PHASE[phase]
    if s.pick_award[r] and phase == Phase.SPECIAL_PICK:
        stage += 3
    if stage >= 0:
        out[_DECISION[players] + NUM_DECISION_KINDS + stage] = 1.0
    size = _ROUND_SIZE[players]
    for k in range(size - 2):
        out[_ROUND[players] + k] = ROUND_TABLE[players, s.round[r], k]
    out[_ROUND[players] + size - 2] = s.params[P_HIDE_MONEY]
    out[_ROUND[players] + size - 1] = s.params[P_HIDE_STACKS]
    _table(s, r, out, players)
    _one_hots(s, r, out, players)
    # The seats' order and the round's leader without an integer division per seat (one
    # costs as much as a dozen features).
    leader = max(s.round[r] - 1, 0) % players
    p = seat
    for rel in range(players):
        _seat_block(s, r, out, p, leader, _SEATS[players] + rel * SEAT_SIZE)
        p = next_seat(p, players)
    _own(s, r, out, players, seat)
    scale = SCALE[players]
    for k in range(out.shape[0]):  # the counts to their bounds, in one pass over the row
        out[k] *= scale[k]
    if s.params[P_HIDE_MONEY]:  # the observer's own money is always exact
        out[_SEATS[players] + _MONEY_IN_SEAT] = np.float32(s.money[r, seat] * (1.0 / MAX_MONEY))
