"""What one seat may know (§6, §9.2): the observation encoder.

The observation holds exactly the features of §9.2 (291 + 58 N floats), egocentric: seats
are written relative to the observer (0 = self, then clockwise), per-seat blocks have N
entries (no padding of 3 players to 4), and every feature is a count divided by a bound from
the rules, so it lies in [0, 1] (the net flows in [-1, 1]). A feature the observer may not
see is 0. The features are grouped for the encoder, in three sections:

* the table: every public feature that does not belong to a seat (the decision, context,
  holds, figures, stacks, market, piles, the last reveal's goods and award): the counts are
  one concatenation of state arrays and one multiplication by their bounds; the one-hot
  features are one scatter, the decision and round ones two table lookups;
* the seats: one block of the same 53 features per seat (acting seat, start player, ``vis``
  and the layer counts of each junk, money, hand size, strips, supply, ALWAYS cards, face-down
  count, cards taken per pile, EXTRA used, known minimum holdings, committed, presence, net
  flows, the last reveal's bid, payout and award taker), made for the absolute seats by one
  concatenation, then put in the observer's order by one gather with a precomputed rotation;
* the observer's own private features (hand, special cards, pile memory, the pile being
  searched, its pending bid, the other seats' combined goods).

So one call of ``observe`` costs a fixed few dozen NumPy calls whatever the batch size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.arrays import last_axis_sums
from envs.core.layout import ObservationLayout, Piece
from envs.junk.data import (
    CELLS,
    GOODS_PER_TYPE,
    HELPER_TRACK,
    K_LOAD,
    MARKET_CARDS,
    MAX_COPIES,
    MAX_LAYERS,
    MAX_MONEY,
    MAX_PILE,
    MAX_PRICE,
    MAX_SUPPLY,
    NUM_ALWAYS,
    NUM_GOODS,
    NUM_HIDDEN_KINDS,
    NUM_JUNKS,
    NUM_MARKET_CARDS,
    NUM_MERCHANTS,
    NUM_PILES,
    NUM_ROUNDS,
    NUM_SPECIAL_TYPES,
    PILE_SIZES,
    SLOTS,
    STRIPS_PER_PLAYER,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
)
from envs.junk.state import ACTIONS, MAX_BID, NUM_DECISION_KINDS, PHASE, A, JunkState

NUM_STAGES = 5  # setup, Phases 1, 2, 3, 4 (5 and 6 ask nothing)
_BID_KINDS = 1 + NUM_GOODS  # pass, or one of the four goods
_TOTAL_GOODS = NUM_GOODS * GOODS_PER_TYPE

# ---------------------------------------------------------------- the table section
# (name, size, bound) of its counts, in order; a bound of 1 for flags.
_TABLE_COUNTS = (
    ("turn_flags", 2, 1),  # main action done, GREY_TYPE from an EXTRA card
    ("goods_owed", 1, CELLS),
    ("exchange", 3, (2, 2, 1)),  # returned, takes owed, second exchange
    ("event_chosen", NUM_PILES, 1),
    ("pick_award", 1, 1),  # the SPECIAL_PICK comes from an award
    ("setup", 2, None),  # placements left / 3N, merchants face down
    ("announce_round", 1, NUM_ROUNDS),  # round of the last Y announcement, 0 = none
    ("height", NUM_JUNKS, MAX_LAYERS),  # h(j) + 1
    ("empty_top", NUM_JUNKS, SLOTS - 1),  # e(j)
    ("fig_used", None, 1),  # 3 merchants, then the N - 2 helpers: N + 1
    ("stack", NUM_GOODS, GOODS_PER_TYPE),  # 0 under hide_stacks
    ("stack_empty", NUM_GOODS, 1),
    ("sold", NUM_GOODS, 1),
    ("unrevealed", NUM_MARKET_CARDS, 1),
    ("pile_sizes", NUM_PILES, MAX_PILE),
    ("played", 8, (2, 2, 2, 1, 1, 1, 1, 1)),  # LOAD_ONE, MOVE_STRIP, GOODS_ANY, MONEY_AT[j]
    ("lr_flags", 2, 1),  # a reveal has happened; it was in this round
    ("lr_sold", NUM_GOODS, 1),
    ("lr_yuan", 1, 1),
)
# One-hot pieces set by the scatter: (name, shape).
_TABLE_ONE_HOT = (
    ("bid_round", (4,)),
    ("pick_pile", (NUM_PILES,)),
    ("merchant_junk", (NUM_MERCHANTS, NUM_JUNKS)),  # zeros while face down
    ("merchant_on", (NUM_JUNKS,)),  # junk holds a merchant
    ("market", (NUM_GOODS, 5)),  # current card: prices 1..4, S
    ("lr_bid_round", (4,)),
    ("lr_pile", (NUM_PILES,)),
)
# ---------------------------------------------------------------- the seats section
# (name, size, bound) of a seat's block, in order; 53 features.
_SEAT_FEATURES = (
    ("acting", 1, 1),
    ("start", 1, 1),
    ("vis", NUM_JUNKS, CELLS),
    ("layers", 3 * NUM_JUNKS, SLOTS),  # per junk: strips in layers h, h - 1, h - 2
    ("money", 1, MAX_MONEY),  # others: last announced under hide_money
    ("hand_size", 1, _TOTAL_GOODS),
    ("strips", 1, STRIPS_PER_PLAYER),
    ("supply", 1, MAX_SUPPLY),
    ("always", NUM_ALWAYS, (MAX_COPIES, 1, 2)),  # SUPPLY_PLUS, WIN_TIES, EXCHANGE
    ("hidden", 1, NUM_HIDDEN_KINDS),
    ("taken", NUM_PILES, MAX_PILE),
    ("extra_used", 1, 1),
    ("known_min", NUM_GOODS, GOODS_PER_TYPE),  # flow - flow_min; 0 under hide_stacks
    ("committed", 1, 1),
    ("presence", 1, NUM_JUNKS),
    ("flow", NUM_GOODS, GOODS_PER_TYPE),  # in [-8/18, 1]; 0 under hide_stacks
    ("lr_bid", _BID_KINDS + 1, (1, 1, 1, 1, 1, MAX_BID)),  # one-hot pass / good, count
    ("lr_payout", 1, MAX_PRICE),
    ("lr_taker", 1, 1),
)
# ---------------------------------------------------------------- the own section
_OWN_FEATURES = (
    ("own_hand", NUM_GOODS, GOODS_PER_TYPE),
    ("own_cards", NUM_SPECIAL_TYPES, MAX_COPIES),  # face up and face down, by type
    ("own_searched", NUM_PILES, 1),
    ("own_seen", NUM_PILES * NUM_SPECIAL_TYPES, MAX_COPIES),  # pile as last left
    ("own_since", NUM_PILES, MAX_PILE),  # cards taken since the own last search
    ("own_search", NUM_SPECIAL_TYPES, MAX_COPIES),  # the pile being searched
    ("own_bid", _BID_KINDS + 1, (1, 1, 1, 1, 1, MAX_BID)),  # own pending bid
    ("others_goods", NUM_GOODS, GOODS_PER_TYPE),  # 18 - stack - own hand; 0 if hide_stacks
)


def _table_counts(players: int) -> list[tuple[str, int, Any]]:
    """``_TABLE_COUNTS`` with the figures' size for ``players`` seats."""
    return [(name, players + 1 if size is None else size, bound)
            for name, size, bound in _TABLE_COUNTS]


def _scales(features, players: int) -> np.ndarray:
    """The per-entry multipliers (1 / bound) of a list of (name, size, bound)."""
    out = []
    for name, size, bound in features:
        if name == "setup":
            bound = (3 * players, 1)
        out.append(np.broadcast_to(1.0 / np.asarray(bound, dtype=np.float64), (size,)))
    return np.concatenate(out).astype(np.float32)


def _bid_table() -> np.ndarray:
    """(1 + A, 6) int16: per bid action (+1; row 0 = none) its one-hot pass / good and
    count."""
    table = np.zeros((1 + ACTIONS.size, _BID_KINDS + 1), dtype=np.int16)
    table[1 + A.PASS_BID, 0] = 1
    for offset in range(NUM_GOODS * MAX_BID):
        table[1 + A.BID + offset, 1 + offset // MAX_BID] = 1
        table[1 + A.BID + offset, _BID_KINDS] = offset % MAX_BID + 1
    return table


_BID_TABLE = _bid_table()
# Stage of each decision (SPECIAL_PICK is Phase 1's unless it comes from an award).
_STAGE_OF_PHASE = np.array([0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, -1], dtype=np.intp)
# Per market card (10 = none yet), each good's price code: prices 1..4 at 0..3, S at 4.
_MARKET_CODE = np.full((NUM_MARKET_CARDS + 1, NUM_GOODS), -1, dtype=np.intp)
_MARKET_CODE[:NUM_MARKET_CARDS] = np.where(MARKET_CARDS == 0, 4, MARKET_CARDS - 1)


class Observer:
    """Encodes the observation of every seat for one player count and options."""

    def __init__(self, num_players: int, options: dict[str, Any]):
        n = self.num_players = num_players
        self.hide_money = options["hide_money"]
        self.hide_stacks = options["hide_stacks"]
        helpers = n - 2
        self.seat_size = sum(size for _, size, _ in _SEAT_FEATURES)  # 53
        self.table_counts = _table_counts(n)
        counts = sum(size for _, size, _ in self.table_counts)
        pieces = [
            Piece("decision", (NUM_DECISION_KINDS + NUM_STAGES,), True, 1.0),  # kind, stage
            # round one-hot, helper spaces, the options hide_money and hide_stacks
            Piece("round", (NUM_ROUNDS + 4 * helpers + 2,), True, 1.0),
            Piece("table_counts", (counts,), True, 1.0),
            *[Piece(name, shape, True, 1.0) for name, shape in _TABLE_ONE_HOT],
            Piece("seats", (n, self.seat_size), True, 1.0),
            *[Piece(name, (size,), False, 1.0) for name, size, _ in _OWN_FEATURES],
        ]
        self.layout = ObservationLayout(pieces)
        assert self.layout.size == 291 + 58 * n, self.layout.size
        off = self.layout.offsets
        self._counts = off["table_counts"]
        self._count_scale = _scales(self.table_counts, n)
        self._seats = off["seats"]
        self._seat_scale = _scales(_SEAT_FEATURES, n)
        self._own = slice(off["own_hand"].start, off["others_goods"].stop)
        self._own_scale = _scales(_OWN_FEATURES, n)
        # Decision and round tables.
        self._decision = np.zeros((2 * NUM_DECISION_KINDS, NUM_DECISION_KINDS + NUM_STAGES),
                                  dtype=np.float32)
        for phase in range(NUM_DECISION_KINDS):
            for award in (0, 1):
                row = self._decision[2 * phase + award]
                row[phase] = 1.0
                stage = _STAGE_OF_PHASE[phase] + 3 * (award and phase == PHASE.SPECIAL_PICK)
                if stage >= 0:
                    row[NUM_DECISION_KINDS + stage] = 1.0
        self._round = np.zeros((NUM_ROUNDS + 1, NUM_ROUNDS + 4 * helpers + 2), dtype=np.float32)
        self._round[:, -2:] = options["hide_money"], options["hide_stacks"]
        for r in range(1, NUM_ROUNDS + 1):
            self._round[r, r - 1] = 1.0
            for helper in range(helpers):
                kind, size = HELPER_TRACK[helper, r - 1]
                self._round[r, NUM_ROUNDS + 4 * helper + kind] = 1.0
                self._round[r, NUM_ROUNDS + 4 * helper + 3] = size / 2 if kind == K_LOAD else 0
        # One-hot columns: base of each of the 14 entries of the scatter (and "none").
        base = [off["bid_round"].start - 1, off["pick_pile"].start]
        base += [off["merchant_junk"].start + NUM_JUNKS * k for k in range(NUM_MERCHANTS)]
        base += [off["merchant_on"].start] * NUM_MERCHANTS
        base += [off["market"].start + 5 * g for g in range(NUM_GOODS)]
        base += [off["lr_bid_round"].start - 1, off["lr_pile"].start]
        self._hot_base = np.array(base, dtype=np.intp)
        self._one_hot = slice(off["bid_round"].start, off["lr_pile"].stop)
        # (N, N) absolute seat of each relative one, per observer.
        self._rotation = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
        # (11, N) per round (0 = setup): the start player's seat one-hot.
        self._start_hot = np.eye(n, dtype=bool)[np.maximum(np.arange(NUM_ROUNDS + 1) - 1, 0) % n]
        self._money_column = self._seats.start + self._seat_offset("money")
        low, high = self.layout.bounds()
        flow = self._seat_offset("flow")
        for seat in range(n):
            start = self._seats.start + seat * self.seat_size + flow
            low[start:start + NUM_GOODS] = -1.0
        self.bounds = (low, high)

    def table_column(self, name: str) -> int:
        """Observation column of the first entry of count ``name`` of the table section."""
        column = self._counts.start
        for feature, size, _ in self.table_counts:
            if feature == name:
                return column
            column += size
        raise KeyError(name)

    def seat_column(self, relative: int, name: str) -> int:
        """Observation column of the first entry of seat feature ``name`` of the seat
        ``relative`` places after the observer."""
        return self._seats.start + relative * self.seat_size + self._seat_offset(name)

    @staticmethod
    def _seat_offset(name: str) -> int:
        column = 0
        for feature, size, _ in _SEAT_FEATURES:
            if feature == name:
                return column
            column += size
        raise KeyError(name)

    # ---------------------------------------------------------------- encoding
    def observe(self, state: JunkState, player: int | np.ndarray) -> np.ndarray:
        """(B, 291 + 58 N) float32: what seat ``player`` (int or (B,)) may know."""
        num = state.batch_size
        obs = np.empty((num, self.layout.size), dtype=np.float32)
        obs[:, self._one_hot] = 0.0  # every other entry is written below
        off = self.layout.offsets
        rnd = state.round.astype(np.intp)
        obs[:, off["decision"]] = self._decision[2 * state.phase.astype(np.intp)
                                                 + state.pick_award]
        obs[:, off["round"]] = self._round[rnd]
        self._table_counts(state, obs)
        self._table_one_hot(state, rnd, obs)
        self._seat_blocks(state, player, obs)
        self._own_features(state, player, obs)
        return obs

    def _table_counts(self, state: JunkState, obs: np.ndarray) -> None:
        lr_round = state.lr_round
        stack = state.stack
        parts = [
            state.main_done[:, None], state.grey_from_extra[:, None], state.goods_left[:, None],
            state.returned[:, None], state.takes_left[:, None], state.second_exchange[:, None],
            state.event_chosen, state.pick_award[:, None], state.setup_left[:, None],
            state.merchants_hidden[:, None], state.announce_round[:, None],
            state.height + 1, state.open_slots, state.fig_used[:, : self.num_players + 1],
            np.zeros_like(stack) if self.hide_stacks else stack, stack == 0, state.sold,
            state.unrevealed, state.pile_size, state.discarded[:, 3:11],
            (lr_round > 0)[:, None], ((lr_round == state.round) & (lr_round > 0))[:, None],
            state.lr_sold, state.lr_yuan[:, None],
        ]
        np.multiply(np.concatenate(parts, axis=1, dtype=np.int16), self._count_scale,
                    out=obs[:, self._counts])

    def _table_one_hot(self, state: JunkState, rnd: np.ndarray, obs: np.ndarray) -> None:
        num = state.batch_size
        started = np.where(rnd >= 1, state.market_order[np.arange(num), np.maximum(rnd - 1, 0)],
                           NUM_MARKET_CARDS)
        junks = state.merchant_junk
        values = np.concatenate([
            state.bid_round[:, None], state.pick_pile[:, None],
            np.where(state.merchants_hidden[:, None], -1, junks), junks,
            _MARKET_CODE[started], state.lr_bid_round[:, None], state.lr_pile[:, None],
        ], axis=1, dtype=np.intp)
        # bid_round and lr_bid_round count from 1 (0 = none); their bases are shifted by 1.
        none = (values < 0) | (values == 0) & _ZERO_IS_NONE
        columns = np.where(none, self.layout.size, self._hot_base + values)
        flat = obs.reshape(-1)
        rows = np.arange(num)[:, None] * self.layout.size
        keep = ~none
        flat[(rows + columns)[keep]] = 1.0

    def _seat_blocks(self, state: JunkState, player: int | np.ndarray, obs: np.ndarray) -> None:
        num, n = state.batch_size, self.num_players
        seats = np.arange(n)
        vis = state.vis
        hidden_goods = self.hide_stacks
        money = state.money
        if self.hide_money:
            money = np.where(state.done[:, None], state.money, state.announced)
        zeros4 = np.zeros((num, n, NUM_GOODS), dtype=np.int8) if hidden_goods else None
        parts = [
            (state.current_player[:, None] == seats)[:, :, None],
            self._start_hot[state.round][:, :, None],
            vis.transpose(0, 2, 1),
            state.layers.transpose(0, 3, 1, 2).reshape(num, n, 3 * NUM_JUNKS),
            money[:, :, None],
            state.hand_size[:, :, None],
            state.strips[:, :, None],
            (SUPPLY_CARDS + state.always[:, :, SUPPLY_PLUS])[:, :, None],
            state.always,
            state.hidden[:, :, None],
            state.taken,
            state.extra_used[:, :, None],
            zeros4 if hidden_goods else state.flow - state.flow_min,
            state.committed[:, :, None],
            state.presence[:, :, None],
            zeros4 if hidden_goods else state.flow,
            _BID_TABLE[state.lr_bid.astype(np.intp) + 1],
            state.lr_payout[:, :, None],
            (state.lr_taker[:, None] == seats)[:, :, None],
        ]
        blocks = np.concatenate(parts, axis=2, dtype=np.int16)
        view = obs[:, self._seats].reshape(num, n, self.seat_size)
        if np.ndim(player) == 0:
            rotated = np.take(blocks, self._rotation[int(player)], axis=1)
            own_money = state.money[:, int(player)]
        else:
            seat = np.asarray(player, dtype=np.intp)
            rotated = blocks[np.arange(num)[:, None], self._rotation[seat]]
            own_money = state.money[np.arange(num), seat]
        np.multiply(rotated, self._seat_scale, out=view)
        if self.hide_money:  # the observer's own money is always exact
            obs[:, self._money_column] = own_money * (1.0 / MAX_MONEY)

    def _own_features(self, state: JunkState, player: int | np.ndarray, obs: np.ndarray) -> None:
        num = state.batch_size
        if np.ndim(player) == 0:
            seat = int(player)

            def mine(values: np.ndarray) -> np.ndarray:
                return values[:, seat]
        else:
            seat = np.asarray(player, dtype=np.intp)
            rows = np.arange(num)

            def mine(values: np.ndarray) -> np.ndarray:
                return values[rows, seat]
        hand = mine(state.hand)
        cards = mine(state.held).astype(np.int16)
        cards[:, :NUM_ALWAYS] += mine(state.always)
        searched = mine(state.searched) > 0
        seen = mine(state.seen)
        since = np.where(searched, last_axis_sums(seen), PILE_SIZES) - state.pile_size
        picking = state.phase == PHASE.SPECIAL_PICK
        if picking.any():  # the pile being searched, shown to its searcher only
            searching = picking & (state.current_player == seat)
            search = np.where(searching[:, None],
                              state.pile_cards[np.arange(num), state.pick_pile], 0)
        else:
            search = np.zeros((num, NUM_SPECIAL_TYPES), dtype=np.int8)
        others = (np.zeros_like(hand) if self.hide_stacks
                  else GOODS_PER_TYPE - state.stack - hand)
        parts = [hand, cards, searched, seen.reshape(num, -1), since, search,
                 _BID_TABLE[mine(state.pending).astype(np.intp) + 1], others]
        np.multiply(np.concatenate(parts, axis=1, dtype=np.int16), self._own_scale,
                    out=obs[:, self._own])


# Entries of the one-hot scatter whose value 0 means "none" (bidding rounds count from 1).
_ZERO_IS_NONE = np.zeros(2 + 2 * NUM_MERCHANTS + NUM_GOODS + 2, dtype=bool)
_ZERO_IS_NONE[[0, 2 * NUM_MERCHANTS + NUM_GOODS + 2]] = True
assert _ZERO_IS_NONE.size == 14 and MAX_PRICE == 4
