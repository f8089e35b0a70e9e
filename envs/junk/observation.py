"""What one seat may know (§6, §9.2): the observation encoder.

The observation is egocentric: seats are written relative to the observer (0 = self, then
clockwise), per-seat blocks have N entries (no padding of 3 players to 4), and every feature
is a count divided by a bound from the rules, so it lies in [0, 1] (the net flows in
[-1, 1]). A feature the observer may not see is 0.

It is made in two passes over one "source" row per game. The source holds every public
feature once, in absolute seats and in the state's own array layout (a handful of
concatenated state arrays scaled by one multiplication, the one-hot features set by one
scatter, the round's constant features by one table lookup), then the observer's private
features. A precomputed table per observer seat then picks the observation out of the source
in one flat gather: it rotates the seats, transposes the blocks into the observation's order,
and points the features an option hides (or another seat's true money under ``hide_money``)
at a constant zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
    NUM_FIGURES,
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
from envs.junk.state import MAX_BID, NUM_DECISION_KINDS, PHASE, A, JunkState

NUM_STAGES = 5  # setup, Phases 1, 2, 3, 4 (5 and 6 ask nothing)
# Stage of each decision (SPECIAL_PICK is Phase 1's unless it comes from an award).
_STAGE_OF_PHASE = np.array([0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, -1], dtype=np.intp)
_BID_KINDS = 1 + NUM_GOODS  # pass, or one of the four goods
_TOTAL_GOODS = NUM_GOODS * GOODS_PER_TYPE


def _pieces(players: int) -> list[Piece]:
    """The observation of §9.2, piece by piece (all bounds 1; the flows signed)."""
    n, helpers = players, players - 2
    return [
        # decision: 31 + 2N
        Piece("kind", (NUM_DECISION_KINDS,), True, 1.0),
        Piece("stage", (NUM_STAGES,), True, 1.0),
        Piece("round", (NUM_ROUNDS,), True, 1.0),
        Piece("bid_round", (4,), True, 1.0),
        Piece("to_act", (n,), True, 1.0),
        Piece("start", (n,), True, 1.0),
        # context: 20
        Piece("turn_flags", (2,), True, 1.0),  # main action done, GREY_TYPE from EXTRA
        Piece("goods_owed", (1,), True, 1.0),
        Piece("exchange", (3,), True, 1.0),  # returned, takes owed, second exchange
        Piece("event_chosen", (NUM_PILES,), True, 1.0),
        Piece("pick", (NUM_PILES + 1,), True, 1.0),  # pile one-hot, from an award
        Piece("setup", (2,), True, 1.0),  # placements left, merchants face down
        Piece("options", (3,), True, 1.0),  # hide_money, hide_stacks, last Y round
        # board: 23 + 25N
        Piece("vis", (n, NUM_JUNKS), True, 1.0),
        Piece("holds", (2, NUM_JUNKS), True, 1.0),  # h + 1, empty top slots
        Piece("layers", (n, NUM_JUNKS, 3), True, 1.0),  # strips in layers h, h-1, h-2
        Piece("merchant_junk", (NUM_MERCHANTS, NUM_JUNKS), True, 1.0),
        Piece("merchant_on", (NUM_JUNKS,), True, 1.0),
        Piece("fig_used", (n + 1,), True, 1.0),
        Piece("helpers", (helpers, 4), True, 1.0),  # kind one-hot, load size
        # goods: 12
        Piece("stack", (NUM_GOODS,), True, 1.0),
        Piece("stack_empty", (NUM_GOODS,), True, 1.0),
        Piece("others_goods", (NUM_GOODS,), False, 1.0),
        # market: 34
        Piece("market", (NUM_GOODS, 5), True, 1.0),  # prices 1..4, S
        Piece("sold", (NUM_GOODS,), True, 1.0),
        Piece("unrevealed", (NUM_MARKET_CARDS,), True, 1.0),
        # specials: 12
        Piece("pile_sizes", (NUM_PILES,), True, 1.0),
        Piece("played", (8,), True, 1.0),
        # per seat: 23N
        Piece("seats", (n, 19), True, 1.0),
        Piece("flows", (n, NUM_GOODS), True, 1.0, signed=True),
        # own (private): 144
        Piece("own_hand", (NUM_GOODS,), False, 1.0),
        Piece("own_cards", (NUM_SPECIAL_TYPES,), False, 1.0),
        Piece("own_searched", (NUM_PILES,), False, 1.0),
        Piece("own_seen", (NUM_PILES, NUM_SPECIAL_TYPES), False, 1.0),
        Piece("own_since", (NUM_PILES,), False, 1.0),
        Piece("own_search", (NUM_SPECIAL_TYPES,), False, 1.0),
        Piece("own_bid", (_BID_KINDS + 1,), False, 1.0),
        # last reveal: 15 + 8N
        Piece("lr_flags", (2,), True, 1.0),
        Piece("lr_bid_round", (4,), True, 1.0),
        Piece("lr_bids", (n, _BID_KINDS + 1), True, 1.0),
        Piece("lr_payout", (n,), True, 1.0),
        Piece("lr_sold", (NUM_GOODS,), True, 1.0),
        Piece("lr_award", (n + NUM_PILES + 1,), True, 1.0),  # taker, pile, 3 Yuan
    ]


# The per-seat block "seats" (19 per seat): where each feature comes from.
_SEAT_FEATURES = ("money", "hand_size", "strips", "sup", "always", "always", "always",
                  "hidden", "taken", "taken", "taken", "taken", "extra_used",
                  "known_min", "known_min", "known_min", "known_min", "committed", "presence")


def _source(players: int) -> ObservationLayout:
    """The source row (module doc): scaled counts, one-hot block, round table, private."""
    n = players
    scaled = [
        ("vis", (NUM_JUNKS, n), 1 / CELLS),
        ("height", (NUM_JUNKS,), 1 / MAX_LAYERS),
        ("empty_top", (NUM_JUNKS,), 1 / (SLOTS - 1)),
        ("layers", (NUM_JUNKS, 3, n), 1 / SLOTS),
        ("fig_used", (NUM_FIGURES,), 1.0),
        ("stack", (NUM_GOODS,), 1 / GOODS_PER_TYPE),
        ("stack_empty", (NUM_GOODS,), 1.0),
        ("sold", (NUM_GOODS,), 1.0),
        ("pile_sizes", (NUM_PILES,), 1 / MAX_PILE),
        ("played", (8,), np.array([1 / 2, 1 / 2, 1 / 2, 1, 1, 1, 1, 1])),
        ("money", (n,), 1 / MAX_MONEY),
        ("money_public", (n,), 1 / MAX_MONEY),
        ("hand_size", (n,), 1 / _TOTAL_GOODS),
        ("strips", (n,), 1 / STRIPS_PER_PLAYER),
        ("sup", (n,), 1 / MAX_SUPPLY),
        ("always", (n, NUM_ALWAYS), np.array([1 / 6, 1, 1 / 2])),
        ("hidden", (n,), 1 / NUM_HIDDEN_KINDS),
        ("taken", (n, NUM_PILES), 1 / MAX_PILE),
        ("extra_used", (n,), 1.0),
        ("known_min", (n, NUM_GOODS), 1 / GOODS_PER_TYPE),
        ("committed", (n,), 1.0),
        ("presence", (n,), 1 / NUM_JUNKS),
        ("flow", (n, NUM_GOODS), 1 / GOODS_PER_TYPE),
        ("turn_flags", (2,), 1.0),
        ("goods_owed", (1,), 1 / CELLS),
        ("exchange", (3,), np.array([1 / 2, 1 / 2, 1])),
        ("event_chosen", (NUM_PILES,), 1.0),
        ("pick_award", (1,), 1.0),
        ("setup", (2,), np.array([1 / (3 * n), 1])),
        ("announce_round", (1,), 1 / NUM_ROUNDS),
        ("lr_flags", (2,), 1.0),
        ("lr_count", (n,), 1 / MAX_BID),
        ("lr_payout", (n,), 1 / MAX_PRICE),
        ("lr_sold", (NUM_GOODS,), 1.0),
        ("lr_yuan", (1,), 1.0),
    ]
    one_hot = [
        ("kind", (NUM_DECISION_KINDS,)),
        ("stage", (NUM_STAGES,)),
        ("bid_round", (4,)),
        ("to_act", (n,)),
        ("start", (n,)),
        ("pick_pile", (NUM_PILES,)),
        ("merchant_junk", (NUM_MERCHANTS, NUM_JUNKS)),
        ("merchant_on", (NUM_JUNKS,)),
        ("market", (NUM_GOODS, 5)),
        ("lr_bid_round", (4,)),
        ("lr_bid", (n, _BID_KINDS)),
        ("lr_taker", (n,)),
        ("lr_pile", (NUM_PILES,)),
        ("unrevealed", (NUM_MARKET_CARDS,)),
        ("dump", (1,)),  # where "none" of a one-hot goes; never read
    ]
    rest = [
        ("round_table", (NUM_ROUNDS + 4 * (n - 2),)),
        ("own_hand", (NUM_GOODS,)),
        ("own_cards", (NUM_SPECIAL_TYPES,)),
        ("own_searched", (NUM_PILES,)),
        ("own_seen", (NUM_PILES, NUM_SPECIAL_TYPES)),
        ("own_since", (NUM_PILES,)),
        ("own_search", (NUM_SPECIAL_TYPES,)),
        ("own_bid_kind", (_BID_KINDS,)),
        ("own_bid_count", (1,)),
        ("others_goods", (NUM_GOODS,)),
        ("options", (2,)),  # hide_money, hide_stacks
        ("zero", (1,)),
    ]
    layout = ObservationLayout([Piece(name, shape, True, 1.0) for name, shape, _ in scaled]
                               + [Piece(name, shape, True, 1.0) for name, shape in one_hot]
                               + [Piece(name, shape, True, 1.0) for name, shape in rest])
    scale = np.concatenate([np.broadcast_to(np.asarray(s, dtype=np.float32).reshape(
        (-1,) if np.ndim(s) else ()), shape).reshape(-1) for _, shape, s in scaled])
    layout.scale = scale.astype(np.float32)
    layout.num_scaled = scale.size
    layout.one_hot = slice(layout.offsets["kind"].start, layout.offsets["dump"].stop)
    return layout


class Observer:
    """Encodes the observation of every seat for one player count and options."""

    def __init__(self, num_players: int, options: dict[str, Any]):
        self.num_players = num_players
        self.hide_money = options["hide_money"]
        self.hide_stacks = options["hide_stacks"]
        self.layout = ObservationLayout(_pieces(num_players))
        self.source = _source(num_players)
        self.table = np.stack([self._table(seat) for seat in range(num_players)])
        self._round_table = self._round_features()
        src = self.source.offsets
        self._col = {name: sl.start for name, sl in src.items()}
        self._options = np.array([options["hide_money"], options["hide_stacks"]],
                                 dtype=np.float32)

    # ---------------------------------------------------------------- the tables
    def _index(self, name: str) -> np.ndarray:
        """Source column of every entry of source piece ``name``, in its shape."""
        sl = self.source.offsets[name]
        return np.arange(sl.start, sl.stop).reshape(self.source.pieces[name].shape)

    def _table(self, seat: int) -> np.ndarray:
        """(OBS,) source column of every observation entry of observer ``seat``."""
        n = self.num_players
        rel = (seat + np.arange(n)) % n  # absolute seat of each relative one
        ix = self._index
        zero = ix("zero")[0]
        parts: dict[str, np.ndarray] = {
            "kind": ix("kind"),
            "stage": ix("stage"),
            "round": ix("round_table")[:NUM_ROUNDS],
            "bid_round": ix("bid_round"),
            "to_act": ix("to_act")[rel],
            "start": ix("start")[rel],
            "turn_flags": ix("turn_flags"),
            "goods_owed": ix("goods_owed"),
            "exchange": ix("exchange"),
            "event_chosen": ix("event_chosen"),
            "pick": np.concatenate([ix("pick_pile"), ix("pick_award")]),
            "setup": ix("setup"),
            "options": np.concatenate([ix("options"), ix("announce_round")]),
            "vis": ix("vis").T[rel],
            "holds": np.stack([ix("height"), ix("empty_top")]),
            "layers": ix("layers").transpose(2, 0, 1)[rel],
            "merchant_junk": ix("merchant_junk"),
            "merchant_on": ix("merchant_on"),
            "fig_used": ix("fig_used")[: n + 1],
            "helpers": ix("round_table")[NUM_ROUNDS:].reshape(n - 2, 4),
            "stack": ix("stack"),
            "stack_empty": ix("stack_empty"),
            "others_goods": ix("others_goods"),
            "market": ix("market"),
            "sold": ix("sold"),
            "unrevealed": ix("unrevealed"),
            "pile_sizes": ix("pile_sizes"),
            "played": ix("played"),
            "flows": ix("flow")[rel],
            "own_hand": ix("own_hand"),
            "own_cards": ix("own_cards"),
            "own_searched": ix("own_searched"),
            "own_seen": ix("own_seen"),
            "own_since": ix("own_since"),
            "own_search": ix("own_search"),
            "own_bid": np.concatenate([ix("own_bid_kind"), ix("own_bid_count")]),
            "lr_flags": ix("lr_flags"),
            "lr_bid_round": ix("lr_bid_round"),
            "lr_bids": np.concatenate([ix("lr_bid"), ix("lr_count")[:, None]], axis=1)[rel],
            "lr_payout": ix("lr_payout")[rel],
            "lr_sold": ix("lr_sold"),
            "lr_award": np.concatenate([ix("lr_taker")[rel], ix("lr_pile"), ix("lr_yuan")]),
        }
        seats = np.zeros((n, len(_SEAT_FEATURES)), dtype=np.intp)
        column = 0
        for feature in dict.fromkeys(_SEAT_FEATURES):
            block = ix(feature).reshape(n, -1)
            seats[:, column:column + block.shape[1]] = block[rel]
            column += block.shape[1]
        if self.hide_money:  # other seats' money as last announced
            seats[1:, 0] = ix("money_public")[rel[1:]]
        parts["seats"] = seats
        if self.hide_stacks:
            for name in ("stack", "others_goods", "flows"):
                parts[name] = np.full_like(parts[name], zero)
            seats[:, 13:17] = zero  # the known minimum holdings
        table = np.zeros(self.layout.size, dtype=np.intp)
        for name, piece in self.layout.pieces.items():
            block = np.asarray(parts[name])
            assert block.shape == piece.shape, (name, block.shape, piece.shape)
            table[self.layout.offsets[name]] = block.reshape(-1)
        return table

    def _round_features(self) -> np.ndarray:
        """(11, 10 + 4 (N - 2)) float32 per round (0 = setup): its one-hot and every helper's
        action kind one-hot and load size (§2.4)."""
        n = self.num_players
        table = np.zeros((NUM_ROUNDS + 1, NUM_ROUNDS + 4 * (n - 2)), dtype=np.float32)
        for r in range(1, NUM_ROUNDS + 1):
            table[r, r - 1] = 1.0
            for helper in range(n - 2):
                kind, size = HELPER_TRACK[helper, r - 1]
                base = NUM_ROUNDS + 4 * helper
                table[r, base + kind] = 1.0
                table[r, base + 3] = size / 2 if kind == K_LOAD else 0.0
        return table

    # ---------------------------------------------------------------- encoding
    def observe(self, state: JunkState, player: int | np.ndarray) -> np.ndarray:
        """(B, 291 + 58 N) float32: what seat ``player`` (int or (B,)) may know."""
        num, n = state.batch_size, self.num_players
        rows = np.arange(num)
        col = self._col
        src = np.zeros((num, self.source.size), dtype=np.float32)
        # -- scaled counts, in the source's order
        hand_size = state.hand.sum(axis=2)
        held_count = state.held.sum(axis=2)
        height = state.height.astype(np.int16) + 1
        empty_top = np.where(height > 0, SLOTS - state.layers[:, :, 0].sum(axis=2), 0)
        pile_sizes = state.pile_cards.sum(axis=2)
        money_public = state.money
        if self.hide_money:
            money_public = np.where(state.done[:, None], state.money, state.announced)
        round_now = state.round
        lr_bid = state.lr_bid.astype(np.intp)
        is_bid = lr_bid >= A.BID
        lr_count = np.where(is_bid, (lr_bid - A.BID) % MAX_BID + 1, 0)
        lr_flags = np.stack([state.lr_round > 0, (state.lr_round == round_now)
                             & (state.lr_round > 0)], axis=1)
        parts = [
            state.vis, height, empty_top, state.layers, state.fig_used, state.stack,
            state.stack == 0, state.sold, pile_sizes, state.discarded[:, 3:11],
            state.money, money_public, hand_size, state.strips,
            SUPPLY_CARDS + state.always[:, :, SUPPLY_PLUS], state.always, held_count,
            state.taken, state.extra_used, state.flow - state.flow_min, state.committed,
            (state.vis > 0).sum(axis=1), state.flow,
            np.stack([state.main_done, state.grey_from_extra], axis=1), state.goods_left,
            np.stack([state.returned, state.takes_left, state.second_exchange], axis=1),
            state.event_chosen, state.pick_award,
            np.stack([state.setup_left, state.merchants_hidden], axis=1),
            state.announce_round, lr_flags, lr_count, state.lr_payout, state.lr_sold,
            state.lr_yuan,
        ]
        scaled = src[:, : self.source.num_scaled]
        np.concatenate([p.reshape(num, -1) for p in parts], axis=1, out=scaled,
                       casting="unsafe")
        scaled *= self.source.scale
        # -- the one-hot block: one scatter of ones
        dump = col["dump"]
        phase = state.phase.astype(np.intp)
        stage = _STAGE_OF_PHASE[phase] + (phase == PHASE.SPECIAL_PICK) * 3 * state.pick_award
        ip = np.intp
        round_now = round_now.astype(ip)
        card = state.market_order[rows, np.maximum(round_now - 1, 0)]
        started = round_now >= 1
        merchants = np.where(state.merchants_hidden[:, None], dump,
                             col["merchant_junk"] + NUM_JUNKS * np.arange(NUM_MERCHANTS)
                             + state.merchant_junk.astype(ip))
        lr_kind = np.where(lr_bid < 0, dump, col["lr_bid"] + _BID_KINDS * np.arange(n)
                           + np.where(is_bid, 1 + (lr_bid - A.BID) // MAX_BID, 0))

        def column(name: str, value: np.ndarray) -> np.ndarray:
            """(B, 1) source column of the one-hot ``name`` at ``value``, -1 for none."""
            value = value.astype(ip)
            return np.where(value >= 0, col[name] + value, dump)[:, None]

        hot = np.concatenate([
            column("kind", phase),
            column("stage", stage),
            column("bid_round", state.bid_round.astype(ip) - 1),
            column("to_act", state.current_player),
            column("start", np.maximum(round_now - 1, 0) % n),
            column("pick_pile", state.pick_pile),
            merchants,
            col["merchant_on"] + state.merchant_junk.astype(ip),
            np.where(started[:, None], _MARKET_COLUMNS[card] + col["market"], dump),
            column("lr_bid_round", np.where(state.lr_round > 0, state.lr_bid_round - 1, -1)),
            lr_kind,
            column("lr_taker", state.lr_taker),
            column("lr_pile", state.lr_pile),
        ], axis=1)
        src[rows[:, None], hot] = 1.0
        src[rows[:, None], col["unrevealed"] + state.market_order.astype(ip)] = (
            np.arange(NUM_MARKET_CARDS) >= round_now[:, None])
        src[:, self.source.offsets["round_table"]] = self._round_table[round_now]
        src[:, self.source.offsets["options"]] = self._options
        # -- the observer's private features
        seat = np.broadcast_to(np.asarray(player, dtype=np.intp), (num,))
        self._private(state, rows, seat, src)
        # -- the gather
        if np.ndim(player) == 0:
            obs = src[:, self.table[int(player)]]
        else:
            obs = np.take_along_axis(src, self.table[seat], axis=1)
        return obs

    def _private(self, state: JunkState, rows: np.ndarray, seat: np.ndarray,
                 src: np.ndarray) -> None:
        """Write the observer's own features (seat (B,)) into the source."""
        off = self.source.offsets
        hand = state.hand[rows, seat]  # (B, 4)
        src[:, off["own_hand"]] = hand * (1 / GOODS_PER_TYPE)
        own = state.held[rows, seat].astype(np.float32)
        own[:, :NUM_ALWAYS] += state.always[rows, seat]
        src[:, off["own_cards"]] = own * (1 / MAX_COPIES)
        searched = state.searched[rows, seat] > 0  # (B, 4)
        src[:, off["own_searched"]] = searched
        seen = state.seen[rows, seat]  # (B, 4, 21)
        src[:, off["own_seen"]] = seen.reshape(rows.size, -1) * (1 / MAX_COPIES)
        pile_sizes = state.pile_cards.sum(axis=2)
        since = np.where(searched, seen.sum(axis=2), PILE_SIZES) - pile_sizes
        src[:, off["own_since"]] = since * (1 / MAX_PILE)
        searching = (state.phase == PHASE.SPECIAL_PICK) & (state.current_player == seat)
        search_rows = np.flatnonzero(searching)
        if search_rows.size:
            src[search_rows, off["own_search"]] = state.pile_cards[
                search_rows, state.pick_pile[search_rows]] * (1 / MAX_COPIES)
        bid = state.pending[rows, seat]
        mine = np.flatnonzero(bid >= 0)
        if mine.size:
            b = bid[mine]
            kind = np.where(b >= A.BID, 1 + (b - A.BID) // MAX_BID, 0)
            src[mine, off["own_bid_kind"].start + kind] = 1.0
            src[mine, off["own_bid_count"].start] = np.where(
                b >= A.BID, (b - A.BID) % MAX_BID + 1, 0) * (1 / MAX_BID)
        if not self.hide_stacks:
            src[:, off["others_goods"]] = (GOODS_PER_TYPE - state.stack - hand) * (
                1 / GOODS_PER_TYPE)


# Source column of each good's price one-hot (prices 1..4 at 0..3, S at 4) per market card.
_MARKET_COLUMNS = (5 * np.arange(NUM_GOODS) + np.where(MARKET_CARDS == 0, 4, MARKET_CARDS - 1)
                   ).astype(np.intp)  # (10, 4)
assert MAX_PRICE == 4 and NUM_FIGURES == 5
