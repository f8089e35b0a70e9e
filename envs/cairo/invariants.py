"""The rules spec's invariants (§10) that can be checked on a state, for every row at once.

Checked: 1 money, 2 stall cards, 3 barkers, 4 expansions, 5 main stalls, 6 groups, 7 no
same-colour contact, 8 sections, 9 entrances, 10 customers, 11 reachability, 12 medals,
14 hand limit, 15 display, plus bookkeeping (known cards, seat to act, dropped seats). The
event-log invariants (13, 16–22) are covered by the rules tests instead.
"""

from __future__ import annotations

import numpy as np

from envs.cairo.board import NEIGHBOURS, customer_cells, flood, pack
from envs.cairo.data import (
    CARD_COPIES,
    DISPLAY_SLOTS,
    EXPANSIONS_PER_COLOUR,
    GOLD,
    HAND_LIMIT,
    MARKET,
    MAX_GROUP_SIZE,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_BARKERS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_CUSTOMERS_ON_BOARD,
    NUM_OWNERS,
    NUM_SECTIONS,
    PURPLE,
    SECTION,
    SETUP_SECTION_LIMIT,
    SILVER,
)
from envs.cairo.state import CairoState, Phase, Stage, Verb
from envs.core.invariants import InvariantReport

_GROUPS = NUM_OWNERS * NUM_COLOURS


def _card_counts(state: CairoState) -> np.ndarray:
    """(B, 15) every card type counted over hands, display, draw pile and discard pile."""
    counts = state.hand.sum(axis=1).astype(np.int64) + state.discard
    for cards in (state.display, state.deck):
        counts += (cards[:, :, None] == np.arange(len(CARD_COPIES))).sum(axis=1)
    return counts


def _groups_connected(state: CairoState) -> np.ndarray:
    """(B, 30) bool: every tile of the group is 4-connected to its main stall."""
    num = state.batch_size
    members = state.tile[:, None, :] == np.arange(_GROUPS)[None, :, None]  # (B, 30, 182)
    main = state.stall_cell.reshape(num, _GROUPS)
    seed = np.zeros_like(members)
    rows, groups = np.nonzero(main >= 0)
    seed[rows, groups, main[rows, groups]] = True
    flat = members.reshape(-1, NUM_CELLS)
    reached = flood(pack(seed.reshape(-1, NUM_CELLS)), pack(flat))
    size = np.bitwise_count(reached).sum(axis=1).reshape(num, _GROUPS)
    return size == members.sum(axis=2)


def _one_component(state: CairoState) -> np.ndarray:
    """(B,) bool: §5.1, every customer and entrance cell lies in one walkable component."""
    targets = customer_cells(state, np.arange(state.batch_size)) | (state.entrance >= 0)
    walk = MARKET & (state.tile < 0)
    seed = np.zeros_like(targets)
    seed[np.arange(state.batch_size), np.argmax(targets, axis=1)] = True
    reached = flood(pack(seed), pack(walk))
    return ~(pack(targets) & ~reached).any(axis=1)


def check_invariants(state: CairoState) -> list[str]:
    """Messages ``row r: invariant n: what`` for every violated invariant, empty if none."""
    num, players = state.batch_size, state.vp.shape[1]
    rows = np.arange(num)
    report = InvariantReport(num)

    def check(name: str, ok: np.ndarray) -> None:
        report.check(f"invariant {name}", ok)

    held = state.money.sum(axis=1)
    check("1 money: amounts >= 0 and tray + held = 20",
          (state.money >= 0).all(axis=(1, 2)) & (held <= MONEY_PER_COLOUR).all(axis=1))
    check("2 stall cards: 3 per section type, 1 per joker", (_card_counts(state) == CARD_COPIES)
          .all(axis=1) & (state.hand >= 0).all(axis=(1, 2)) & (state.discard >= 0).all(axis=1))
    in_deck = np.arange(state.deck.shape[1])[None, :] < state.deck_size[:, None]
    check("2 draw pile: cards below deck_size only", ((state.deck >= 0) == in_deck).all(axis=1))
    check("3 barkers: 0 <= held, supply >= 0", (state.barkers >= 0).all(axis=1)
          & (state.barkers.sum(axis=1) <= NUM_BARKERS))

    occupied = state.tile >= 0
    colour_of = np.where(occupied, state.tile % NUM_COLOURS, -1)
    on_board = state.stall_cell >= 0  # (B, 5, 6)
    tiles = (colour_of[:, :, None] == np.arange(NUM_COLOURS)).sum(axis=1)
    mains = on_board.sum(axis=1)
    check("4 expansions: supply + expansions on board = 6",
          (state.supply + tiles - mains == EXPANSIONS_PER_COLOUR).all(axis=1))

    main_cell = np.maximum(state.stall_cell, 0)
    entrance_cell = np.maximum(state.entrance_cell, 0)
    group_id = (np.arange(NUM_OWNERS)[:, None] * NUM_COLOURS + np.arange(NUM_COLOURS))[None]
    tile_ok = state.tile[rows[:, None, None], main_cell] == group_id
    check("5 main stalls: each on its own tile", (tile_ok | ~on_board).all(axis=(1, 2)))
    check("5 neutral: group size <= 1", (state.group_size[:, NEUTRAL] <= 1).all(axis=1))
    check("5 unused seats: nothing on board", ~on_board[:, players:NEUTRAL].any(axis=(1, 2)))
    members = (state.tile[:, None, :] == group_id.reshape(1, -1, 1)).sum(axis=2)
    check("6 groups: size = tile count, <= 7",
          (members.reshape(num, NUM_OWNERS, NUM_COLOURS) == state.group_size).all(axis=(1, 2))
          & (state.group_size <= MAX_GROUP_SIZE).all(axis=(1, 2))
          & ((state.group_size > 0) == on_board).all(axis=(1, 2)))
    check("6 groups: 4-connected", _groups_connected(state).all(axis=1))
    purple = colour_of == PURPLE
    check("6 area: purple on restaurant cells, others on market cells",
          ~(occupied & (purple == MARKET)).any(axis=1))

    padded = np.concatenate([state.tile, np.full((num, 1), -1, np.int8)], axis=1)
    near = padded[:, NEIGHBOURS]  # (B, 182, 4) group id of each neighbour
    same_colour = occupied[:, :, None] & (near >= 0) & (near % NUM_COLOURS ==
                                                        (state.tile % NUM_COLOURS)[:, :, None])
    check("7 no same-colour contact", ~(same_colour & (near != state.tile[:, :, None])).any(
        axis=(1, 2)))

    section = np.where(on_board, SECTION[main_cell], NUM_SECTIONS)
    per_colour = (section[:, :, :, None] == np.arange(NUM_SECTIONS)).sum(axis=1)  # (B, 6, 9)
    check("8 sections: at most one main stall per colour", (per_colour <= 1).all(axis=(1, 2)))
    after_setup = (state.stage == Stage.MAIN) & (state.turn == 0) & (state.phase == Phase.TURN)
    check("8 sections: at most 2 stalls right after setup",
          ~after_setup | (per_colour.sum(axis=1) <= SETUP_SECTION_LIMIT).all(axis=1))

    adjacent = (NEIGHBOURS[main_cell] == entrance_cell[..., None]).any(axis=3)
    ent_ok = (state.entrance[rows[:, None, None], entrance_cell] == group_id) & adjacent
    ent_ok &= MARKET[entrance_cell] & ~occupied[rows[:, None, None], entrance_cell]
    check("9 entrances: one per stall, adjacent, free market cell",
          ((ent_ok & on_board) | (~on_board & (state.entrance_cell < 0))).all(axis=(1, 2))
          & ((state.entrance >= 0).sum(axis=1) == on_board.sum(axis=(1, 2))))

    customers = state.customer
    placed = customers >= 0
    cells = np.maximum(customers, 0)
    distinct = np.array([len(set(row[row >= 0])) for row in customers]) == placed.sum(axis=1)
    own_entrance = state.entrance[rows[:, None], cells] % NUM_COLOURS == np.arange(NUM_COLOURS)
    own_entrance &= state.entrance[rows[:, None], cells] >= 0
    check("10 customers: 5 on distinct walkable cells, none on an own-colour entrance",
          (placed.sum(axis=1) == NUM_CUSTOMERS_ON_BOARD) & distinct
          & ((MARKET[cells] & (state.tile[rows[:, None], cells] < 0)) | ~placed).all(axis=1)
          & ~(own_entrance & placed).any(axis=1))
    check("11 reachability: customers and entrances in one component", _one_component(state))

    sizes = state.group_size[:, :players].astype(np.int64)  # (B, P, 6) medals ignore neutral
    largest = sizes.max(axis=1)
    expanded = state.supply < EXPANSIONS_PER_COLOUR
    medals_ok = np.ones((num, NUM_COLOURS), dtype=bool)
    for kind in (GOLD, SILVER):
        holder = state.medal[:, :, kind].astype(np.int64)
        holder_size = np.take_along_axis(sizes, np.maximum(holder, 0)[:, None, :], axis=1)[:, 0]
        medals_ok &= np.where(expanded, (holder >= 0) & (holder_size == largest), holder < 0)
    unique = (sizes == largest[:, None, :]).sum(axis=1) == 1
    medals_ok &= ~(expanded & unique) | (state.medal[:, :, GOLD] == state.medal[:, :, SILVER])
    check("12 medals: in supply before a colour's first expansion, then held by the largest",
          medals_ok.all(axis=1))

    hand_size = state.hand.sum(axis=2)
    drawing = (state.verb == Verb.DRAW)[:, None] & (
        np.arange(players)[None, :] == state.current_player[:, None])
    check("14 hand: at most 4 stall cards outside a Draw", (drawing | (hand_size <= HAND_LIMIT))
          .all(axis=1))
    turn_start = (state.stage == Stage.MAIN) & (state.phase == Phase.TURN)
    piles_empty = (state.deck_size == 0) & (state.discard.sum(axis=1) == 0)
    check("15 display: full at the start of a MAIN turn",
          ~turn_start | piles_empty | ((state.display >= 0).sum(axis=1) == DISPLAY_SLOTS))
    check("known hand cards are in the hand", (state.known <= state.hand).all(axis=(1, 2))
          & (state.known >= 0).all(axis=(1, 2)))
    live = ~state.done
    check("seat to act is valid", ~live | ((state.current_player >= 0)
                                           & (state.current_player < players)))
    check("drop-outs only in the FINAL stage",
          (state.stage >= Stage.FINAL) | ~state.dropped.any(axis=1))
    check("the seat to act has not dropped out", ~live | ~state.dropped[
        rows, np.clip(state.current_player, 0, players - 1)])

    return report.messages()
