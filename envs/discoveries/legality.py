"""Which actions are legal (§4.3, §5), over an index array of rows, for any number of rows.

Each function answers one block of the action space for the seats to act in ``rows``. The
flagship enters as an argument wherever its hidden colours matter, so the same functions give
the true mask (the seat's own flagship) and the public mask of §4.5 (every flagship the table
cannot rule out): ``send_options`` and ``play_options`` take the colours the flagship may
declare, ``exp_pick_options`` and ``build_pick_options`` one flagship id.
"""

from __future__ import annotations

import numpy as np

from envs.discoveries.data import (
    CONTRACT_COLOUR,
    CONTRACT_TV,
    EXP_LIMIT,
    FLAG_CARRIES,
    FLAG_COLOURS,
    FLAGSHIP_FEE,
    HAND_LIMIT,
    MARKET_SLOTS,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_FLAGSHIPS,
    NUM_TVS,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.feasibility import FLAG_OFF, NO_FLAG, feasible
from envs.discoveries.state import ACTIONS, FLAG, MAIN, OPEN, RES_DISPLAY, DiscoveriesState

# Main actions used, by the 4-bit ``used`` value.
NUM_USED = np.array([bin(u).count("1") for u in range(16)], dtype=np.int8)
_TVS = np.arange(1, NUM_TVS + 1, dtype=np.int8)
_NO_TV = 9  # "no idle ship of this colour" in the lowest-TV table
# (8,) lowest TV among the ships present, by the bits (TV1 present, TV2, TV3).
_LOWEST = np.array([_NO_TV, 1, 2, 1, 3, 1, 2, 1], dtype=np.int8)
_DURATIONS = np.arange(3)
# The twelve states after one build pick (``build_pick_options``): a regular ship of TV 1..3
# of the contract's colour, one of another colour, the flagship declaring the colour, the
# flagship declaring another one.
_STEP_TV = np.tile(_TVS, 4)  # (12,)
_STEP_MATCH = np.concatenate([np.eye(3), np.zeros((9, 3))]).astype(np.int8)  # (12, 3)
_STEP_OTHER = np.concatenate([np.zeros((3, 3)), np.eye(3), np.zeros((6, 3))]).astype(np.int8)
_STEP_JOKER = np.array([0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1], dtype=np.int8)
_STEP_FEE = np.array([1] * 6 + [FLAGSHIP_FEE] * 6, dtype=np.int16)
_STEP_FLAG = np.array([False] * 6 + [True] * 6)


def seats(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R,) intp: the seat to act in each row."""
    return state.current_player[rows].astype(np.intp)


class Seat:
    """The acting seat's own arrays in ``rows`` (R,), gathered once for every block."""

    __slots__ = ("coins", "flag_id", "flag_idle", "idle", "jokers", "rows", "seat")

    def __init__(self, state: DiscoveriesState, rows: np.ndarray, seat: np.ndarray | None = None,
                 source: Seat | None = None, sel: np.ndarray | None = None):
        if source is not None:  # the rows ``sel`` of another view
            for name in self.__slots__:
                setattr(self, name, getattr(source, name)[sel])
            return
        self.rows = rows
        self.seat = seats(state, rows) if seat is None else seat
        self.coins = state.coins[rows, self.seat]  # (R,)
        self.jokers = state.jokers[rows, self.seat]  # (R,)
        self.idle = state.idle[rows, self.seat]  # (R, 18)
        self.flag_idle = state.flag_where[rows, self.seat] == FLAG.IDLE  # (R,)
        self.flag_id = state.flag_id[rows, self.seat].astype(np.intp)  # (R,) its own

    def subset(self, sel: np.ndarray) -> Seat:
        """The view of the rows ``sel`` (indices into this view's rows)."""
        if sel.size == self.rows.size:
            return self
        return Seat(None, None, source=self, sel=sel)


def _turn_table() -> np.ndarray:
    """(16, 3, 4) bool by ``used`` and ``open_type``: TAKE_COINS legal, CONTRACT can be
    opened, BUY steps and DISPATCH steps allowed (open, or can be opened), by §4.3."""
    table = np.zeros((16, 3, 4), dtype=bool)
    for used in range(16):
        room = NUM_USED[used] < 2
        for open_type in range(3):
            table[used, open_type] = (
                room and not used & MAIN.COINS, room and not used & MAIN.CONTRACT,
                open_type == OPEN.BUY or (room and not used & MAIN.BUY),
                open_type == OPEN.DISPATCH or (room and not used & MAIN.DISPATCH))
    return table


TURN_TABLE = _turn_table()
_SLOT_PRICE = np.append(TYPE_PRICE, 9999)  # a ship type's price; -1 (empty) unaffordable


def turn_options(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R, 4) bool: TAKE_COINS legal, CONTRACT can be opened, BUY steps and DISPATCH steps
    allowed, by the two-action rule (§4.3)."""
    return TURN_TABLE[state.used[rows], state.open_type[rows]]


def public_main(state: DiscoveriesState, v: Seat, turn: np.ndarray) -> np.ndarray:
    """(R, 134) bool: MAIN's legal actions but SEND and PLAY (which the seat's flagship and
    hand decide): END_TURN, TAKE_COINS, the takes (§5.2), BUY (§5.3) and RESERVE (§5.7),
    from the 14 card slots (offer, refill, display) and their reservation markers.

    Args:
        v: the acting seats of the rows.
        turn: (R, 4) bool, ``turn_options`` of the rows.
    """
    rows, coins = v.rows, v.coins
    cards = np.concatenate([state.offer[rows], state.refill[rows], state.display[rows]], axis=1)
    owner = state.res_owner[rows]
    unreserved = owner < 0
    exists = cards >= 0
    open_to_seat = exists & (unreserved | (owner == v.seat[:, None]))
    take = turn[:, 1] & (state.hand_size[rows, v.seat] < HAND_LIMIT) & (coins >= 1)
    mask = np.zeros((rows.size, ACTIONS.size), dtype=bool)
    mask[:, ACTIONS.END_TURN.start] = True
    mask[:, ACTIONS.TAKE_COINS.start] = turn[:, 0]
    mask[:, ACTIONS.TAKE_DISPLAY.start:ACTIONS.TAKE_BLIND.start] = (
        open_to_seat[:, RES_DISPLAY:] & take[:, None])
    mask[:, ACTIONS.TAKE_BLIND.start] = take & (state.deck_pos[rows] < NUM_CONTRACTS)
    mask[:, ACTIONS.BUY.start:ACTIONS.BUY.stop] = (
        open_to_seat[:, :MARKET_SLOTS] & (_SLOT_PRICE[cards[:, :MARKET_SLOTS]] <= coins[:, None])
        & turn[:, 2:3])
    mask[:, ACTIONS.RESERVE_OFFER.start:] = exists & unreserved & (
        state.reserves[rows, v.seat] >= 1)[:, None]
    return mask


def send_options(state: DiscoveriesState, v: Seat, flag_colours: np.ndarray) -> np.ndarray:
    """(R, 12) bool: expeditions with a legal pick (§5.4), from the lowest idle TV per colour.

    Args:
        flag_colours: (R, 6) bool, the colours the seat's flagship may declare (ignored
            unless it is idle).
    """
    idle = v.idle.reshape(-1, NUM_COLOURS, NUM_TVS) > 0  # (R, 6, 3)
    lowest = _LOWEST[np.packbits(idle, axis=2, bitorder="little")[:, :, 0]]  # (R, 6)
    # Column 6 (an established colour of -1: none) needs any ship, as a Joker does.
    lowest = np.concatenate([lowest, lowest.min(axis=1, keepdims=True)], axis=1)
    established = state.exp_colour_set[v.rows]  # (R, 12), -1 reads column 6
    r = np.arange(v.rows.size)[:, None]
    coins = v.coins[:, None]
    joker = (v.jokers >= 1)[:, None]
    free = EXP_LIMIT - state.exp_used[v.rows]  # (R, 12)
    need = np.where(joker, lowest[:, 6:], lowest[r, established])
    regular = (need <= free) & (coins >= 1)
    colours = np.concatenate([flag_colours, joker | True], axis=1)  # column 6: none set
    flag = (colours[r, established] | joker) & (free >= 1) & (coins >= FLAGSHIP_FEE) & (
        v.flag_idle[:, None])
    return regular | flag


def play_options(state: DiscoveriesState, v: Seat, flag_colours: np.ndarray,
                 cards: np.ndarray) -> np.ndarray:
    """(R, K) bool: FEASIBLE (§5.5) for the contract ids ``cards`` (R, K) (-1: False).

    Args:
        flag_colours: (R, 6) bool, the colours the seat's flagship may declare.
    """
    idle = v.idle.reshape(-1, NUM_COLOURS, NUM_TVS)
    card = np.maximum(cards, 0)
    colour = CONTRACT_COLOUR[card]  # (R, K)
    r = np.arange(v.rows.size)[:, None]
    match = idle[r, colour]  # (R, K, 3)
    flag = np.where(v.flag_idle[:, None], FLAG_OFF + flag_colours[r, colour], NO_FLAG)
    ok = feasible(match, idle.sum(axis=1)[:, None, :] - match, v.jokers[:, None],
                  v.coins[:, None], flag, CONTRACT_TV[card])
    return ok & (cards >= 0)


def _may_sail(v: Seat) -> np.ndarray:
    """(R,) bool: the seat has a coin and an idle ship (or flagship), without which no
    SEND_TO_EXPEDITION or PLAY_CONTRACT is legal, whatever its hand or flagship."""
    return (v.coins >= 1) & (v.idle.any(axis=1) | v.flag_idle)


def main_mask(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R, 134) bool: the MAIN decision (§4.2)."""
    v = Seat(state, rows)
    turn = turn_options(state, rows)
    mask = public_main(state, v, turn)
    go = np.flatnonzero(turn[:, 3] & _may_sail(v))
    if go.size:
        sub = v.subset(go)
        flag_colours = FLAG_CARRIES[sub.flag_id]
        mask[go, ACTIONS.SEND.start:ACTIONS.SEND.stop] = send_options(state, sub, flag_colours)
        hand = state.hand[sub.rows, sub.seat]
        r, slot = np.nonzero(play_options(state, sub, flag_colours, hand))
        first = ACTIONS.PLAY.start + 3 * hand[r, slot].astype(np.intp)
        mask[go[r, None], first[:, None] + _DURATIONS] = True
    return mask


def public_flag_colours(state: DiscoveriesState, rows: np.ndarray,
                        seat: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the colours the acting seat's flagship may declare as far as the table
    knows: its own if revealed, else those of every flagship not yet revealed (§4.5)."""
    return unrevealed_flagships(state, rows, seat) @ FLAG_CARRIES


def unrevealed_flagships(state: DiscoveriesState, rows: np.ndarray,
                         seat: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the flagships the acting seat's may be, as far as the table knows."""
    ids = state.flag_id[rows]  # (R, P)
    shown = (ids[:, :, None] == np.arange(NUM_FLAGSHIPS)) & state.flag_revealed[rows][:, :, None]
    own_shown = state.flag_revealed[rows, seat]
    maybe = ~shown.any(axis=1)
    own = np.arange(NUM_FLAGSHIPS) == state.flag_id[rows, seat][:, None]
    return np.where(own_shown[:, None], own, maybe)


def public_unseen(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R, 24) bool: the deck and every seat's hidden hand cards (§4.5's public unseen set)."""
    num = rows.size
    unseen = np.zeros((num, NUM_CONTRACTS + 1), dtype=bool)
    order = state.contracts[rows]
    in_deck = np.arange(NUM_CONTRACTS) >= state.deck_pos[rows][:, None]
    unseen[np.arange(num)[:, None], np.where(in_deck, order, NUM_CONTRACTS)] = True
    hand = state.hand[rows].reshape(num, -1)
    hidden = (hand >= 0) & ~state.hand_public[rows].reshape(num, -1)
    unseen[np.arange(num)[:, None], np.where(hidden, hand, NUM_CONTRACTS)] = True
    return unseen[:, :NUM_CONTRACTS]


def main_forced(state: DiscoveriesState, rows: np.ndarray) -> np.ndarray:
    """(R,) bool: public information alone leaves MAIN only END_TURN (§4.5)."""
    forced = np.zeros(rows.size, dtype=bool)
    turn = turn_options(state, rows)
    left = np.flatnonzero(~turn[:, 0])  # the first decision of a turn is never forced
    if not left.size:
        return forced
    v, turn = Seat(state, rows[left]), turn[left]
    other = public_main(state, v, turn)[:, 1:].any(axis=1)
    forced[left] = ~other
    check = np.flatnonzero(~other & turn[:, 3] & _may_sail(v))
    if check.size:
        v = v.subset(check)
        flag_colours = public_flag_colours(state, v.rows, v.seat)
        send = send_options(state, v, flag_colours).any(axis=1)
        known = state.hand[v.rows, v.seat]
        public = state.hand_public[v.rows, v.seat]
        cards = np.zeros((check.size, NUM_CONTRACTS + 1), dtype=bool)
        cards[np.arange(check.size)[:, None], np.where(public, known, NUM_CONTRACTS)] = True
        hidden = ((known >= 0) & ~public).any(axis=1)
        cards = cards[:, :NUM_CONTRACTS] | (public_unseen(state, v.rows) & hidden[:, None])
        every = np.broadcast_to(np.arange(NUM_CONTRACTS), cards.shape)
        play = (play_options(state, v, flag_colours, every) & cards).any(axis=1)
        forced[left[check]] = ~(send | play)
    return forced


def exp_pick_options(state: DiscoveriesState, v: Seat, flag: np.ndarray) -> np.ndarray:
    """(R, 24) bool: PICK_SHIP(18 types) and PICK_FLAGSHIP(slot, tv) for the target
    expedition (§5.4), the flagship being ``flag`` (R,) ids."""
    rows = v.rows
    target = state.target[rows].astype(np.intp)
    free = EXP_LIMIT[target] - state.exp_used[rows, target]
    established = state.exp_colour_set[rows, target]
    anything = (established < 0) | (v.jokers >= 1)
    ships = (v.idle > 0) & (free[:, None] >= TYPE_TV) & (
        anything[:, None] | (established[:, None] == TYPE_COLOUR)) & (v.coins >= 1)[:, None]
    slot_ok = anything[:, None] | (FLAG_COLOURS[flag] == established[:, None])  # (R, 2)
    flag_ok = v.flag_idle & (v.coins >= FLAGSHIP_FEE)
    tv_ok = free[:, None] >= _TVS  # (R, 3)
    flags = (slot_ok[:, :, None] & tv_ok[:, None, :]) & flag_ok[:, None, None]
    return np.concatenate([ships, flags.reshape(-1, 6)], axis=1)


def build_pick_options(state: DiscoveriesState, v: Seat, flag: np.ndarray) -> np.ndarray:
    """(R, 24) bool: the picks of BUILD_CONTRACT (§5.5) that keep the contract FEASIBLE,
    the flagship being ``flag`` (R,) ids."""
    card = state.build_card[v.rows].astype(np.intp)
    colour = CONTRACT_COLOUR[card]
    remaining = CONTRACT_TV[card] - state.build_tv[v.rows]
    idle = v.idle.reshape(-1, NUM_COLOURS, NUM_TVS)
    jokers, coins, flag_idle = v.jokers, v.coins, v.flag_idle
    match = idle[np.arange(v.rows.size), colour]  # (R, 3)
    other = idle.sum(axis=1) - match
    flag_state = np.where(flag_idle, FLAG_OFF + FLAG_CARRIES[flag, colour], NO_FLAG)
    # FEASIBLE after each of the twelve kinds of pick (a regular ship of TV t matching the
    # colour or not, the flagship declaring it or not).
    after = remaining[:, None] - _STEP_TV
    ok = feasible(match[:, None, :] - _STEP_MATCH, other[:, None, :] - _STEP_OTHER,
                  jokers[:, None] - _STEP_JOKER, coins[:, None] - _STEP_FEE,
                  np.where(_STEP_FLAG, NO_FLAG, flag_state[:, None]), np.maximum(after, 0))
    ok &= after >= 0
    ok &= (jokers[:, None] >= _STEP_JOKER) & (coins[:, None] >= _STEP_FEE)
    ship_match = colour[:, None] == TYPE_COLOUR  # (R, 18)
    tv = TYPE_TV.astype(np.intp) - 1
    ships = (v.idle > 0) & np.where(ship_match, ok[:, tv], ok[:, 3 + tv])
    slot_match = FLAG_COLOURS[flag] == colour[:, None]  # (R, 2)
    flags = np.where(slot_match[:, :, None], ok[:, None, 6:9], ok[:, None, 9:12])
    flags &= flag_idle[:, None, None]
    return np.concatenate([ships, flags.reshape(-1, 6)], axis=1)


def pick_forced(state: DiscoveriesState, rows: np.ndarray, options) -> np.ndarray:
    """(R,) bool: the public mask of a pick decision holds one action (§4.5).

    A pick mask with two or more actions is never forced (the public mask contains it). With
    one, it is forced outright when the flagship is revealed; when it is face down, the
    pick masks of every flagship it may be (those leaving some pick) are joined first.
    """
    v = Seat(state, rows)
    single = options(state, v, v.flag_id).sum(axis=1) == 1
    hidden = single & ~state.flag_revealed[rows, v.seat]
    forced = single & ~hidden
    at = np.flatnonzero(hidden)
    if at.size:
        v = v.subset(at)
        maybe = unrevealed_flagships(state, v.rows, v.seat)
        joined = np.zeros((at.size, 24), dtype=bool)
        for f in range(NUM_FLAGSHIPS):
            picks = options(state, v, np.full(at.size, f, dtype=np.intp))
            joined |= picks & (maybe[:, f] & picks.any(axis=1))[:, None]
        forced[at] = joined.sum(axis=1) == 1
    return forced

