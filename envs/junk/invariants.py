"""The invariants of the rules spec's §10, checked on a whole batch at once.

Each check is vectorised over the rows; a violation gives one message per row that breaks it
(core's ``InvariantReport``, a few rows a check; the soak replays them). Invariants that
compare two states (money never decreases, sold flags only turn on) are checked by the tests
that step the states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.invariants import InvariantReport
from envs.junk.data import (
    CELLS,
    FIRST_END,
    GOODS_PER_TYPE,
    HAND_START,
    MAX_LAYERS,
    MAX_MONEY,
    MAX_SUPPLY,
    MERCHANT_START,
    NUM_ALWAYS,
    NUM_GOODS,
    NUM_JUNKS,
    NUM_MARKET_CARDS,
    NUM_PILES,
    NUM_SPECIAL_TYPES,
    SLOTS,
    SPECIAL_COUNTS,
    STRIPS_PER_PLAYER,
    SUPPLY_PLUS,
    dealt_per_type,
)
from envs.junk.rules import cards, hold, queries
from envs.junk.state import LOC_DISCARDED, LOC_FACE_UP, LOC_HIDDEN, PHASE, A, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

_PRESENCE_VALUES = (0, 4, 8, 12, 16, 25)


def cell_model_vis(cargo: np.ndarray, players: int) -> np.ndarray:
    """(B, 5, P) visible crates by the cell model of §2.3, vectorised over holds: the crate
    of the highest strip over each of the 9 cells."""
    num = cargo.shape[0]
    counts = np.zeros((num, NUM_JUNKS, players), dtype=np.int64)
    layers = np.arange(MAX_LAYERS)
    for r in range(SLOTS):
        for c in range(SLOTS):
            slot = np.where(layers % 2 == 0, r, c)
            owners = cargo[:, :, layers, slot]  # (B, 5, 27)
            filled = owners >= 0
            top = MAX_LAYERS - 1 - np.argmax(filled[:, :, ::-1], axis=2)
            owner = np.take_along_axis(owners, top[..., None], axis=2)[..., 0]
            owner = np.where(filled.any(axis=2), owner, -1)
            counts += owner[..., None] == np.arange(players)
    return counts


def check_invariants(game: JunkGame, state: JunkState) -> list[str]:
    """Violations of §10 (module doc), one message each; empty when all hold."""
    report = InvariantReport(state.batch_size)
    n = game.num_players
    # 1. goods
    hand, stack = state.hand.astype(np.int64), state.stack.astype(np.int64)
    per_type = hand.sum(axis=1) + stack
    report.fail("goods per type != 18",
            (per_type != GOODS_PER_TYPE).any(axis=1))
    report.fail("negative goods",
            (hand < 0).any(axis=(1, 2)) | (stack < 0).any(axis=1))
    dealt = hand - state.flow
    report.fail("hand - flow is not a deal of 8 per seat and D per type",
            (dealt < 0).any(axis=(1, 2)) | (dealt.sum(axis=2) != HAND_START).any(
        axis=1) | (dealt.sum(axis=1) != dealt_per_type(n)).any(axis=1))
    report.fail("flow_min out of order",
            (state.flow_min > state.flow).any(axis=(1, 2))
            | (state.flow_min > 0).any(axis=(1, 2))
            | (dealt + state.flow_min < 0).any(axis=(1, 2)))
    # 2. strips
    on_board = (state.cargo[..., None] == np.arange(n)).sum(axis=(1, 2, 3))  # (B, P)
    total = state.strips.astype(np.int64) + on_board + state.to_place
    report.fail("strips + on board + to place != 20",
            (total != STRIPS_PER_PLAYER).any(axis=1) | (state.strips < 0).any(axis=1))
    # 3. holds, and the kept counts
    height, layers, vis, open_slots = hold.derived_from_cargo(state.cargo, n)
    report.fail("height differs from the cargo",
            (height != state.height).any(axis=1))
    report.fail("kept layer counts, vis, open slots or presence differ from the cargo",
            (layers != state.layers).any(axis=(1, 2, 3)) | (vis != state.vis).any(
        axis=(1, 2)) | (open_slots != state.open_slots).any(axis=1)
        | (state.presence != (vis > 0).sum(axis=1)).any(axis=1))
    filled = (state.cargo >= 0).sum(axis=3)  # (B, 5, 27)
    below = np.arange(MAX_LAYERS) < height[..., None]
    report.fail("a layer below h not full",
            ((filled != SLOTS) & below).any(axis=(1, 2)))
    # 4. visible crates
    total_vis = vis.sum(axis=2)
    expected = np.where(height >= 1, CELLS, SLOTS * filled[:, :, 0])
    report.fail("sum of vis != 9 (or 3 x layer 0)",
            (total_vis != expected).any(axis=1))
    report.fail("closed-form vis differs from the cell model",
            (cell_model_vis(state.cargo, n) != vis).any(axis=(1, 2)))
    # 5. special cards
    loc, kind = state.card_loc.astype(np.int64), state.card_type.astype(np.int64)
    onehot = kind[..., None] == np.arange(NUM_SPECIAL_TYPES)  # (B, 30, 21)
    report.fail("special-card types differ from §2.6",
            (onehot.sum(axis=1) != SPECIAL_COUNTS).any(axis=1))
    piles = np.stack([(onehot & (loc == q)[..., None]).sum(axis=1) for q in range(NUM_PILES)],
                     axis=1)
    held = np.stack([(onehot & (loc == LOC_HIDDEN + s)[..., None]).sum(axis=1)
                     for s in range(n)], axis=1)
    face_up = np.stack([(onehot & (loc == LOC_FACE_UP + s)[..., None]).sum(axis=1)
                        for s in range(n)], axis=1)
    discarded = (onehot & (loc == LOC_DISCARDED)[..., None]).sum(axis=1)
    report.fail("special-card counts differ",
            (piles != state.pile_cards).any(axis=(1, 2))
            | (held != state.held).any(axis=(1, 2))
            | (face_up[:, :, :NUM_ALWAYS] != state.always).any(axis=(1, 2))
            | (face_up[:, :, NUM_ALWAYS:] != 0).any(axis=(1, 2))
            | (discarded != state.discarded).any(axis=1))
    report.fail("kept hand sizes, face-down counts or pile sizes differ from the cards",
            (state.hand_size != state.hand.sum(axis=2)).any(axis=1)
            | (state.hidden != state.held.sum(axis=2)).any(axis=1)
            | (state.pile_size != state.pile_cards.sum(axis=2)).any(axis=1))
    report.fail("a seat's memory of a pile differs from the cards it saw there",
            (cards.pile_memories(state) != state.seen).any(axis=(1, 2, 3)))
    report.fail("an ALWAYS card lies face down",
            (state.held[:, :, :NUM_ALWAYS] != 0).any(axis=(1, 2)))
    report.fail("a non-EXTRA card was discarded",
            (state.discarded[:, :NUM_ALWAYS] != 0).any(axis=1)
            | (state.discarded[:, FIRST_END:] != 0).any(axis=1))
    # 6. market
    report.fail("market order is not a permutation",
            (np.sort(state.market_order, axis=1) != np.arange(NUM_MARKET_CARDS)).any(
        axis=1))
    place = np.argsort(state.market_order, axis=1)
    report.fail("unrevealed market cards differ from the round",
            (state.unrevealed != (place >= state.round[:, None])).any(axis=1))
    # 7. money
    money = state.money.astype(np.int64)
    score = game.scores(state)
    report.fail("money outside 0..212",
            (money < 0).any(axis=1) | (money > MAX_MONEY).any(axis=1))
    report.fail("score below money",
            (score < money).any(axis=1))
    # 8. figures
    mj = state.merchant_junk.astype(np.int64)
    report.fail("two merchants on one junk",
            (mj[:, 0] == mj[:, 1]) | (mj[:, 0] == mj[:, 2]) | (mj[:, 1] == mj[:, 2]))
    playing = (state.round >= 1) & ~state.terminated
    if not game.variable:
        want = (MERCHANT_START + np.maximum(state.round[:, None].astype(np.int64) - 1, 0)) % 5
        report.fail("merchants off the §2.5 schedule",
            playing & (mj != want).any(axis=1))
    # 9. Phase 2
    report.fail("more figures used than seats",
            state.fig_used.sum(axis=1) > n)
    report.fail("an absent helper was used",
            state.fig_used[:, 3 + (n - 2):].any(axis=1) if n < 4 else np.zeros(
        state.batch_size, dtype=bool))
    # 11. Phase 4
    report.fail("bidding round outside 0..4",
            (state.bid_round > 4) | (state.bid_round < 0))
    report.fail("pending bid without commit",
            ((state.pending >= 0) != state.committed).any(axis=1))
    pending = state.pending.astype(np.int64)
    for seat in range(n):  # the BID decision's legal function, for the seat's hand now
        rows = np.flatnonzero(pending[:, seat] >= A.PASS_BID)
        mask = queries.bid_masks(game, state, rows, np.full(rows.size, seat))
        bad = np.zeros(state.batch_size, dtype=bool)
        bad[rows] = ~mask[np.arange(rows.size), pending[rows, seat]]
        report.fail("a pending bid the hand cannot make",
            bad)
    bidding = state.phase == PHASE.BID
    positions = (np.arange(n)[None, :] - np.maximum(state.round[:, None] - 1, 0)) % n
    expected_commits = positions < state.pos[:, None]
    report.fail("committed flags do not match the turn position",
            bidding & (state.committed != expected_commits).any(axis=1))
    report.fail("commits outside a bidding round",
            ~bidding & state.committed.any(axis=1))
    # 12. supply
    report.fail("supply count above 8",
            (2 + state.always[:, :, SUPPLY_PLUS] > MAX_SUPPLY).any(axis=1))
    # 13. presence bonus
    bonus, _ = queries.bonuses(np.zeros((state.vis.size // NUM_JUNKS, NUM_SPECIAL_TYPES)),
                               state.vis.transpose(0, 2, 1).reshape(-1, NUM_JUNKS))
    report.fail("presence bonus value",
            ~np.isin(bonus.reshape(-1, n), _PRESENCE_VALUES).all(axis=1))
    # the decision asked
    live = ~state.done
    report.fail("no seat to act in a live game",
            live & ((state.current_player < 0) | (state.current_player >= n)))
    report.fail("a live game in GAME_OVER",
            live & (state.phase == PHASE.GAME_OVER))
    picking = live & (state.phase == PHASE.SPECIAL_PICK)
    pile_size = state.pile_cards[np.arange(state.batch_size), np.maximum(state.pick_pile, 0)]
    report.fail("SPECIAL_PICK without cards to pick",
            picking & ((state.pick_pile < 0) | (pile_size.sum(axis=1) == 0)))
    report.fail("more decisions than the cap",
            state.decisions > game.max_decisions)
    report.fail("round past 10",
            live & (state.round > 10))
    assert NUM_GOODS == 4
    return report.messages()
