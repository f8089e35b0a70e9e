"""The invariants of the rules spec's §10, checked on a whole batch at once.

Each check is vectorised over the rows; a violation gives one message naming the first row
that breaks it (the soak replays that row). Invariants that compare two states (money never
decreases, sold flags only turn on) are checked by the tests that step the states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.junk import cards, hold, scoring
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
from envs.junk.state import LOC_DISCARDED, LOC_FACE_UP, LOC_HIDDEN, MAX_BID, PHASE, A, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

_PRESENCE_VALUES = (0, 4, 8, 12, 16, 25)


def _report(errors: list[str], bad: np.ndarray, what: str) -> None:
    """Add ``what`` for the first row of the (B,) bool ``bad``, if any."""
    rows = np.flatnonzero(bad)
    if rows.size:
        errors.append(f"row {int(rows[0])}: {what} ({rows.size} row(s))")


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
    errors: list[str] = []
    n = game.num_players
    # 1. goods
    hand, stack = state.hand.astype(np.int64), state.stack.astype(np.int64)
    per_type = hand.sum(axis=1) + stack
    _report(errors, (per_type != GOODS_PER_TYPE).any(axis=1), "goods per type != 18")
    _report(errors, (hand < 0).any(axis=(1, 2)) | (stack < 0).any(axis=1), "negative goods")
    dealt = hand - state.flow
    _report(errors, (dealt < 0).any(axis=(1, 2)) | (dealt.sum(axis=2) != HAND_START).any(
        axis=1) | (dealt.sum(axis=1) != dealt_per_type(n)).any(axis=1),
        "hand - flow is not a deal of 8 per seat and D per type")
    _report(errors, (state.flow_min > state.flow).any(axis=(1, 2))
            | (state.flow_min > 0).any(axis=(1, 2))
            | (dealt + state.flow_min < 0).any(axis=(1, 2)), "flow_min out of order")
    # 2. strips
    on_board = (state.cargo[..., None] == np.arange(n)).sum(axis=(1, 2, 3))  # (B, P)
    total = state.strips.astype(np.int64) + on_board + state.to_place
    _report(errors, (total != STRIPS_PER_PLAYER).any(axis=1) | (state.strips < 0).any(axis=1),
            "strips + on board + to place != 20")
    # 3. holds, and the kept counts
    height, layers, vis, open_slots = hold.derived_from_cargo(state.cargo, n)
    _report(errors, (height != state.height).any(axis=1), "height differs from the cargo")
    _report(errors, (layers != state.layers).any(axis=(1, 2, 3)) | (vis != state.vis).any(
        axis=(1, 2)) | (open_slots != state.open_slots).any(axis=1)
        | (state.presence != (vis > 0).sum(axis=1)).any(axis=1),
        "kept layer counts, vis, open slots or presence differ from the cargo")
    filled = (state.cargo >= 0).sum(axis=3)  # (B, 5, 27)
    below = np.arange(MAX_LAYERS) < height[..., None]
    _report(errors, ((filled != SLOTS) & below).any(axis=(1, 2)), "a layer below h not full")
    # 4. visible crates
    total_vis = vis.sum(axis=2)
    expected = np.where(height >= 1, CELLS, SLOTS * filled[:, :, 0])
    _report(errors, (total_vis != expected).any(axis=1), "sum of vis != 9 (or 3 x layer 0)")
    _report(errors, (cell_model_vis(state.cargo, n) != vis).any(axis=(1, 2)),
            "closed-form vis differs from the cell model")
    # 5. special cards
    loc, kind = state.card_loc.astype(np.int64), state.card_type.astype(np.int64)
    onehot = kind[..., None] == np.arange(NUM_SPECIAL_TYPES)  # (B, 30, 21)
    _report(errors, (onehot.sum(axis=1) != SPECIAL_COUNTS).any(axis=1),
            "special-card types differ from §2.6")
    piles = np.stack([(onehot & (loc == q)[..., None]).sum(axis=1) for q in range(NUM_PILES)],
                     axis=1)
    held = np.stack([(onehot & (loc == LOC_HIDDEN + s)[..., None]).sum(axis=1)
                     for s in range(n)], axis=1)
    face_up = np.stack([(onehot & (loc == LOC_FACE_UP + s)[..., None]).sum(axis=1)
                        for s in range(n)], axis=1)
    discarded = (onehot & (loc == LOC_DISCARDED)[..., None]).sum(axis=1)
    _report(errors, (piles != state.pile_cards).any(axis=(1, 2))
            | (held != state.held).any(axis=(1, 2))
            | (face_up[:, :, :NUM_ALWAYS] != state.always).any(axis=(1, 2))
            | (face_up[:, :, NUM_ALWAYS:] != 0).any(axis=(1, 2))
            | (discarded != state.discarded).any(axis=1), "special-card counts differ")
    _report(errors, (state.hand_size != state.hand.sum(axis=2)).any(axis=1)
            | (state.hidden != state.held.sum(axis=2)).any(axis=1)
            | (state.pile_size != state.pile_cards.sum(axis=2)).any(axis=1),
            "kept hand sizes, face-down counts or pile sizes differ from the cards")
    _report(errors, (cards.pile_memories(state) != state.seen).any(axis=(1, 2, 3)),
            "a seat's memory of a pile differs from the cards it saw there")
    _report(errors, (state.held[:, :, :NUM_ALWAYS] != 0).any(axis=(1, 2)),
            "an ALWAYS card lies face down")
    _report(errors, (state.discarded[:, :NUM_ALWAYS] != 0).any(axis=1)
            | (state.discarded[:, FIRST_END:] != 0).any(axis=1), "a non-EXTRA card was discarded")
    # 6. market
    _report(errors, (np.sort(state.market_order, axis=1) != np.arange(NUM_MARKET_CARDS)).any(
        axis=1), "market order is not a permutation")
    place = np.argsort(state.market_order, axis=1)
    _report(errors, (state.unrevealed != (place >= state.round[:, None])).any(axis=1),
            "unrevealed market cards differ from the round")
    # 7. money
    money = state.money.astype(np.int64)
    score = scoring.scores(state)
    _report(errors, (money < 0).any(axis=1) | (money > MAX_MONEY).any(axis=1),
            "money outside 0..212")
    _report(errors, (score < money).any(axis=1), "score below money")
    # 8. figures
    mj = state.merchant_junk.astype(np.int64)
    _report(errors, (mj[:, 0] == mj[:, 1]) | (mj[:, 0] == mj[:, 2]) | (mj[:, 1] == mj[:, 2]),
            "two merchants on one junk")
    playing = (state.round >= 1) & ~state.terminated
    if not game.variable:
        want = (MERCHANT_START + np.maximum(state.round[:, None].astype(np.int64) - 1, 0)) % 5
        _report(errors, playing & (mj != want).any(axis=1), "merchants off the §2.5 schedule")
    # 9. Phase 2
    _report(errors, state.fig_used.sum(axis=1) > n, "more figures used than seats")
    _report(errors, state.fig_used[:, 3 + (n - 2):].any(axis=1) if n < 4 else np.zeros(
        state.batch_size, dtype=bool), "an absent helper was used")
    # 11. Phase 4
    _report(errors, (state.bid_round > 4) | (state.bid_round < 0), "bidding round outside 0..4")
    _report(errors, (state.pending >= 0) != state.committed, "pending bid without commit")
    bid = state.pending.astype(np.int64)
    is_bid = bid >= A.BID
    goods = np.where(is_bid, (bid - A.BID) // MAX_BID, 0)
    count = np.where(is_bid, (bid - A.BID) % MAX_BID + 1, 0)
    holding = np.take_along_axis(hand, goods[..., None], axis=2)[..., 0]
    sold = np.take_along_axis(state.sold, goods, axis=1)
    _report(errors, (is_bid & ((count > holding) | sold)).any(axis=1),
            "a pending bid the hand cannot make")
    bidding = state.phase == PHASE.BID
    positions = (np.arange(n)[None, :] - np.maximum(state.round[:, None] - 1, 0)) % n
    expected_commits = positions < state.pos[:, None]
    _report(errors, bidding & (state.committed != expected_commits).any(axis=1),
            "committed flags do not match the turn position")
    _report(errors, ~bidding & state.committed.any(axis=1), "commits outside a bidding round")
    # 12. supply
    _report(errors, (2 + state.always[:, :, SUPPLY_PLUS] > MAX_SUPPLY).any(axis=1),
            "supply count above 8")
    # 13. presence bonus
    bonus = scoring.presence_bonus(state.vis)
    _report(errors, ~np.isin(bonus, _PRESENCE_VALUES).all(axis=1), "presence bonus value")
    # the decision asked
    live = ~state.done
    _report(errors, live & ((state.current_player < 0) | (state.current_player >= n)),
            "no seat to act in a live game")
    _report(errors, live & (state.phase == PHASE.GAME_OVER), "a live game in GAME_OVER")
    picking = live & (state.phase == PHASE.SPECIAL_PICK)
    pile_size = state.pile_cards[np.arange(state.batch_size), np.maximum(state.pick_pile, 0)]
    _report(errors, picking & ((state.pick_pile < 0) | (pile_size.sum(axis=1) == 0)),
            "SPECIAL_PICK without cards to pick")
    _report(errors, state.decisions > game.max_decisions, "more decisions than the cap")
    _report(errors, live & (state.round > 10), "round past 10")
    assert NUM_GOODS == 4
    return errors
