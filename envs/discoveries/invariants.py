"""The invariants of §10, checked from the state alone over the whole batch.

``check_invariants`` covers items 1-18 (the "between steps" parts excepted), one function
per item (or per pair of items that share their figures) over a ``_Batch`` of the figures
several items read; each reports the rows where it fails (``envs.core.invariants``).
``check_transition`` the parts that compare a state with the one before it (VP never falls
and changes only in a scoring, expedition ships never leave, no reserved card taken by
another seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.invariants import InvariantReport
from envs.discoveries.data import (
    COINS_BOUND,
    CONTRACT_COLOUR,
    CONTRACT_REVENUE,
    CONTRACT_TV,
    EXP_COLOUR,
    EXP_LIMIT,
    FINAL_CARD,
    FINAL_OFF,
    FINAL_PILE,
    FINAL_SAME,
    FIRST_CARD,
    FIRST_OFF,
    FIRST_PILE,
    FIRST_SAME,
    FLAGSHIP_FEE,
    JOKERS_PER_PLAYER,
    MAX_TURNS,
    NUM_CONTRACTS,
    NUM_TYPES,
    PILE_CARDS,
    PILE_END,
    PILE_START,
    RESERVATIONS_PER_PLAYER,
    START_COINS,
    START_HAND,
    TYPE_COLOUR,
    TYPE_COPIES,
    TYPE_TV,
)
from envs.discoveries.rules import queries
from envs.discoveries.rules.legal import NUM_USED
from envs.discoveries.state import ACTIONS, FLAG, MAIN, OPEN, PHASE, PLAYED, DiscoveriesState

if TYPE_CHECKING:
    from envs.discoveries.game import DiscoveriesGame


def _all(ok: np.ndarray) -> np.ndarray:
    """(B,) bool: every entry of each row of ``ok`` (B, ...) holds."""
    ok = np.asarray(ok)
    return ok.reshape(ok.shape[0], -1).all(axis=1) if ok.ndim > 1 else ok


class _Check:
    """The report, with checks that take ``ok`` (B, ...) and require all of a row."""

    def __init__(self, batch_size: int):
        self.report = InvariantReport(batch_size)

    def __call__(self, ok: np.ndarray, what: str) -> None:
        self.report.check(what, _all(ok))


def _counts(values: np.ndarray, valid: np.ndarray, size: int) -> np.ndarray:
    """(B, size) how often each value 0..size-1 occurs in ``values`` (B, n) where ``valid``."""
    num = values.shape[0]
    keys = (np.arange(num)[:, None] * size + values.astype(np.int64))[valid]
    return np.bincount(keys, minlength=num * size).reshape(num, size)


class _Batch:
    """The figures of a batch that several items read."""

    def __init__(self, game: DiscoveriesGame, state: DiscoveriesState):
        self.game, self.state = game, state
        self.players = players = game.num_players
        self.num = num = state.batch_size
        self.live = ~state.done
        self.seats = seats = np.arange(players)
        self.turn = state.turn.astype(np.int64)
        self.in_piles = np.arange(PILE_CARDS) >= state.pile_pos.astype(np.int64)[:, None]
        self.building = building = state.phase == PHASE.BUILD_CONTRACT
        # (B, P) the seat building a contract
        self.actor_mask = (seats == state.current_player[:, None]) & building[:, None]
        self.active = active = state.con_state == PLAYED.ACTIVE  # (B, 24)
        self.filled = filled = state.exp_owner >= 0  # (B, 12, 8)
        self.exp_regular = filled & ~state.exp_flag
        self.exp_type = np.maximum(state.exp_colour, 0) * 3 + np.maximum(state.exp_tv, 1) - 1
        self.first_due = state.first_reveal.astype(np.int64) + players
        self.final_due = state.final_reveal.astype(np.int64) + players
        self.on_exp = _counts(state.exp_owner.reshape(num, -1),
                              (state.exp_flag & filled).reshape(num, -1), players)
        self.on_voyage = _counts(state.con_owner, active & (state.con_flag_tv > 0), players)
        owner = np.maximum(state.con_owner, 0)
        self.owner_hot = (owner[:, :, None] == seats) & active[:, :, None]  # (B, 24, P)
        self.con_ships = state.con_ships.sum(axis=2) * active  # (B, 24)
        self.off_colour = filled & (state.exp_colour != state.exp_colour_set[:, :, None])


def _ships(check: _Check, b: _Batch) -> None:
    """1. Ship conservation, per type."""
    state, num = b.state, b.num
    ships = _counts(state.piles, b.in_piles & (state.piles < NUM_TYPES), NUM_TYPES)
    pile_counts = ships.copy()
    market = np.concatenate([state.offer, state.refill], axis=1)
    ships += _counts(market, market >= 0, NUM_TYPES)
    ships += state.idle.sum(axis=1)
    ships += (state.con_ships * b.active[:, :, None]).sum(axis=1)
    ships += state.build_ships
    ships += _counts(b.exp_type.reshape(num, -1), b.exp_regular.reshape(num, -1), NUM_TYPES)
    check(ships == TYPE_COPIES, "1: the ships of some type do not add up to its copies")
    check(pile_counts == state.pile_ships, "1: pile_ships != the ships left in the piles")


def _scoring_cards(check: _Check, b: _Batch) -> None:
    """2 and 14. The scoring cards and their windows."""
    state, turn = b.state, b.turn
    for name, reveal, pile, card in (("First", state.first_reveal, FIRST_PILE, FIRST_CARD),
                                     ("Final", state.final_reveal, FINAL_PILE, FINAL_CARD)):
        where = np.arange(PILE_CARDS)
        own_pile = (where >= PILE_START[pile]) & (where < PILE_END[pile])
        waiting = (b.in_piles & own_pile & (state.piles == card)).sum(axis=1)
        anywhere = (b.in_piles & (state.piles == card)).sum(axis=1)
        check((waiting == (reveal < 0)) & (anywhere == waiting),
              f"2: the {name} Scoring card is neither in its pile nor revealed, or both")
        check((reveal < 0) | (reveal <= turn), f"14: {name} revealed after turn g")
    both = (state.first_reveal >= 0) & (state.final_reveal >= 0)
    check((state.final_reveal < 0) | (state.first_reveal >= 0),
          "2: the Final Scoring card came out before the First")
    check(~both | (state.first_reveal <= state.final_reveal), "14: First after Final")
    check(state.first_done == ((state.first_reveal >= 0) & (turn > b.first_due)),
          "14: first_done disagrees with the First Scoring window")
    by_rules = (state.final_reveal >= 0) & (turn > b.final_due)
    check(state.terminated == by_rules, "14: terminated disagrees with the Final window")
    check(state.truncated == (~by_rules & (turn == MAX_TURNS)), "14: truncated is not the cap")
    check((state.phase == PHASE.GAME_OVER) == state.done, "14: GAME_OVER phase")


def _flagships(check: _Check, b: _Batch) -> None:
    """3. Flagships."""
    state = b.state
    ids = np.sort(state.flag_id.astype(np.int64), axis=1)
    check((np.diff(ids, axis=1) > 0) & (ids[:, :1] >= 0) & (ids[:, -1:] < 6),
          "3: flagship ids are not N distinct flagships")
    in_build = b.actor_mask & (state.build_flag_tv > 0)[:, None]
    where = state.flag_where
    check((b.on_exp == (where == FLAG.EXPEDITION)) & (b.on_voyage == (where == FLAG.VOYAGE))
          & (in_build == (where == FLAG.BUILD)),
          "3: a flagship's place disagrees with the expeditions, voyages or build")
    check(state.flag_revealed | (where == FLAG.IDLE), "3: a face-down flagship not idle")


def _contracts(check: _Check, b: _Batch) -> None:
    """4 and 5. Contract conservation and the hands."""
    state, num = b.state, b.num
    held = state.hand >= 0
    places = _counts(state.contracts, np.arange(NUM_CONTRACTS) >= state.deck_pos[:, None],
                     NUM_CONTRACTS)
    places += _counts(state.display, state.display >= 0, NUM_CONTRACTS)
    places += _counts(state.hand.reshape(num, -1), held.reshape(num, -1), NUM_CONTRACTS)
    places += (state.con_state != PLAYED.UNPLAYED)
    places += _counts(state.build_card[:, None], (state.build_card >= 0)[:, None],
                      NUM_CONTRACTS)
    check(places == 1, "4: a contract is in no place or in two")
    played = (state.con_state == PLAYED.COMPLETED).sum(axis=1)
    check(played == state.completed.sum(axis=1), "4: completed counts")
    check((state.con_state == PLAYED.DISCARDED).sum(axis=1) == state.contracts_discarded,
          "4: contracts_discarded")
    deck = NUM_CONTRACTS - state.deck_pos.astype(np.int64)
    shown = (state.display >= 0).sum(axis=1)
    check(state.contracts_taken.sum(axis=1)
          == NUM_CONTRACTS - START_HAND * b.players - deck - shown,
          "4: contracts_taken does not match the deck and display")
    check(~state.hand_public | held, "5: a public flag on an empty hand slot")
    check(held.sum(axis=2) == state.hand_size, "5: hand_size != the cards in hand")


def _coins(check: _Check, b: _Batch) -> None:
    """6. Coins and the ledger."""
    state, num = b.state, b.num
    coins = state.coins.astype(np.int64)
    check((coins >= 0) & (coins <= COINS_BOUND), "6: coins out of [0, 570]")
    ledger = (START_COINS + state.income_coins + state.income_revenue - state.contracts_taken
              - state.paid_prices - state.paid_fees)
    check(coins == ledger, "6: coins disagree with the ledger")
    check((state.income_coins % 2 == 0) & (state.income_coins <= 2 * state.own_turns),
          "6: income_coins")
    bought = state.ships_bought.astype(np.int64)
    check((3 * bought <= state.paid_prices) & (state.paid_prices <= 5 * bought),
          "6: paid_prices")
    exp_fees = _counts(state.exp_owner.reshape(num, -1), b.filled.reshape(num, -1),
                       b.players) + b.on_exp * (FLAGSHIP_FEE - 1)
    con_fees = (b.owner_hot * b.con_ships[:, :, None]).sum(axis=1) + b.on_voyage * FLAGSHIP_FEE
    build_fees = b.actor_mask * (state.build_ships.sum(axis=1) + FLAGSHIP_FEE * (
        state.build_flag_tv > 0))[:, None]
    check(state.paid_fees >= exp_fees + con_fees + build_fees, "6: paid_fees too low")


def _action_cards(check: _Check, b: _Batch) -> None:
    """7. Jokers and Reservations."""
    state, num, players = b.state, b.num, b.players
    check(state.jokers + state.jokers_used_exp + state.jokers_used_con
          == JOKERS_PER_PLAYER[players], "7: Jokers do not add up")
    jokered = _counts(state.exp_owner.reshape(num, -1),
                      (state.exp_joker & b.filled).reshape(num, -1), players)
    check(state.jokers_used_exp == jokered, "7: jokers_used_exp != Joker ships")
    check(jokered == _counts(state.exp_owner.reshape(num, -1), b.off_colour.reshape(num, -1),
                             players), "7: Joker ships != off-colour ships")
    con_jokers = (b.owner_hot * state.con_jokers[:, :, None]).sum(axis=1)
    check(state.jokers_used_con >= con_jokers + b.actor_mask * state.build_jokers[:, None],
          "7: jokers_used_con too low")
    live_res = _counts(state.res_owner, state.res_owner >= 0, players)
    check(live_res <= RESERVATIONS_PER_PLAYER[players] - state.reserves,
          "7 / 12: more live reservations than spent")


def _expeditions(check: _Check, b: _Batch) -> None:
    """8. Expeditions."""
    state, filled = b.state, b.filled
    check(filled.sum(axis=2) == state.exp_size, "8: exp_size")
    check(filled == (np.arange(8) < state.exp_size[:, :, None]), "8: gaps in the records")
    check((state.exp_tv * filled).sum(axis=2) == state.exp_used, "8: exp_used")
    check(state.exp_used <= EXP_LIMIT, "8: an expedition over its limit")
    first_colour = np.where(state.exp_size > 0, state.exp_colour[:, :, 0], -1)
    check(state.exp_colour_set == first_colour, "8: established colour")
    check(~state.exp_joker[:, :, 0], "8: a Joker on a first ship")
    check(state.exp_joker == b.off_colour, "8: Joker flag != colour mismatch")
    placed = np.where(filled, state.exp_turn, np.iinfo(np.int16).max)
    check(np.diff(placed, axis=2) >= 0, "8: placement turns out of order")
    check(np.where(filled, placed, 0) <= b.turn[:, None, None],
          "8: a placement turn in the future")
    counts = (state.exp_owner[:, :, :, None] == b.seats) & filled[:, :, :, None]  # B,12,8,P
    check(counts.sum(axis=2) == state.exp_count, "8: exp_count")
    card_colour = state.exp_colour == EXP_COLOUR[None, :, None]
    check((counts & card_colour[:, :, :, None]).sum(axis=2) == state.exp_same, "8: exp_same")


def _voyages(check: _Check, b: _Batch) -> None:
    """9. Active contracts and the voyages grouped by timer."""
    state, active = b.state, b.active
    tv = (state.con_ships * TYPE_TV).sum(axis=2) + state.con_flag_tv
    check(~active | (tv == CONTRACT_TV), "9: attached TV != requirement")
    off = (state.con_ships * (CONTRACT_COLOUR[:, None] != TYPE_COLOUR)).sum(axis=2) + (
        (state.con_flag_tv > 0) & (state.con_flag_colour != CONTRACT_COLOUR))
    check(~active | (off == state.con_jokers), "9: Jokers != off-colour ships")
    timer, duration = queries.voyage_timers(state), state.con_duration
    check(~active | ((timer >= 1) & (timer <= duration) & (duration <= 3)), "9: timer")
    revenue = CONTRACT_REVENUE[np.arange(NUM_CONTRACTS), np.clip(duration - 1, 0, 2)]
    check(~active | (state.con_revenue == revenue), "9: revenue != card_revenue[d]")
    check(active | (state.con_due == 0), "9: a due turn on an inactive contract")
    check((state.con_state == PLAYED.UNPLAYED) == (state.con_owner < 0),
          "9: owner of an unplayed contract")
    group = b.owner_hot[:, :, :, None] & (timer[:, :, None, None] == np.arange(1, 4))
    check((group * state.con_revenue[:, :, None, None]).sum(axis=1) == state.voyage_revenue,
          "9: voyage_revenue != the active contracts")
    attached = state.con_ships.sum(axis=2) + (state.con_flag_tv > 0)
    check((group * attached[:, :, None, None]).sum(axis=1) == state.voyage_ships,
          "9: voyage_ships != the active contracts")
    check(np.einsum("bcpt,bcs->bpts", group.astype(np.int16),
                    state.con_ships.astype(np.int16)) == state.voyage_fleet,
          "9: voyage_fleet != the active contracts")


def _turn(check: _Check, b: _Batch) -> None:
    """10. Turn discipline (live rows)."""
    state, live = b.state, b.live
    used = state.used.astype(np.int64)
    main = state.phase == PHASE.MAIN
    open_type = state.open_type
    open_bit = np.where(open_type == OPEN.BUY, MAIN.BUY,
                        np.where(open_type == OPEN.DISPATCH, MAIN.DISPATCH, 0))
    check(~live | (NUM_USED[used] <= 2), "10: more than two main actions")
    check(~live | (used & open_bit == open_bit), "10: the open action is not used")
    check(~live | ((state.bought >= 1) == (used & MAIN.BUY > 0)), "10: bought vs BUY")
    check(~(live & main) | ((state.placed >= 1) == (used & MAIN.DISPATCH > 0)),
          "10: placed vs DISPATCH")
    check(~(live & ~main) | (open_type == OPEN.DISPATCH), "10: a pick without DISPATCH open")
    check((state.phase != PHASE.PICK_EXP_SHIP) == (state.target < 0), "10: target")
    check(b.building == (state.build_card >= 0), "10: build_card")


def _market(check: _Check, b: _Batch) -> None:
    """11. The market's shape."""
    state = b.state
    check((state.offer >= 0) | (state.refill < 0), "11: refill above an empty offer")
    check((state.refill >= 0) | (state.pile_pos == PILE_CARDS)[:, None],
          "11: an empty refill slot while the piles hold cards")


def _reservations(check: _Check, b: _Batch) -> None:
    """12. Reservations."""
    state = b.state
    res = state.res_owner.astype(np.int64)
    has = res >= 0
    cards = np.concatenate([state.offer, state.refill, state.display], axis=1)
    check(~has | (cards >= 0), "12: a reservation on an empty slot")
    k_owner = state.own_turns[np.arange(b.num)[:, None], np.maximum(res, 0)]
    owner_acts = res == state.current_player[:, None]
    fresh = state.res_turn == k_owner
    check(~has | fresh | ((state.res_turn == k_owner - 1) & owner_acts),
          "12: a reservation outlived its owner's next turn")


def _vp(check: _Check, b: _Batch) -> None:
    """13. VP: the two scorings recomputed from the per-ship records."""
    state, seats = b.state, b.seats
    check(state.first_done[:, None] | (state.vp_first == 0), "13: vp_first before First")
    check(state.done[:, None] | (state.vp_final == 0), "13: vp_final before the end")
    counted = b.filled & (state.exp_turn <= b.first_due[:, None, None])
    check(~state.first_done[:, None] | (state.vp_first == _points(
        state, counted, FIRST_SAME, FIRST_OFF, seats)), "13: vp_first != the First Scoring")
    over = np.flatnonzero(state.done)
    if over.size:
        tasks, ships = queries.seat_values(b.game, state, over)
        final = _points(state, b.filled, FINAL_SAME, FINAL_OFF, seats)[over] + tasks + ships
        ok = np.ones((b.num, b.players), dtype=bool)
        ok[over] = state.vp_final[over] == final
        check(ok, "13: vp_final != the Final Scoring")
        check(~state.done[:, None] | ~b.active, "7.2: an active contract after the Final Scoring")


def _fleets(check: _Check, b: _Batch) -> None:
    """15. Fleets: every ship bought is idle, on a voyage, in the build or on an expedition."""
    state, num = b.state, b.num
    check(state.idle >= 0, "15: a negative idle count")
    fleet = state.idle.sum(axis=2) + (b.owner_hot * b.con_ships[:, :, None]).sum(axis=1)
    fleet += b.actor_mask * state.build_ships.sum(axis=1)[:, None]
    fleet += _counts(state.exp_owner.reshape(num, -1), b.exp_regular.reshape(num, -1),
                     b.players)
    check(fleet == state.ships_bought, "15: fleet != ships bought")


def _decisions(check: _Check, b: _Batch) -> None:
    """16-18. Masks, forced decisions and the observation's bounds (live rows)."""
    game, state, num = b.game, b.state, b.num
    rows = np.flatnonzero(b.live)
    if rows.size:
        mask = game.legal_action_mask(state)[rows]
        ok = np.ones(num, dtype=bool)
        ok[rows] = mask.any(axis=1)
        check(ok, "16: no legal action")
        plays = mask[:, ACTIONS.PLAY.start:ACTIONS.PLAY.stop].reshape(rows.size, -1, 3)
        ok[rows] = (plays.all(axis=2) | ~plays.any(axis=2)).all(axis=1)
        check(ok, "16: the durations of a card are not legal together")
        ok[rows] = ~game.forced_rows(state, rows)
        check(ok, "17: a stored decision is forced")
    for seat in range(b.players):
        obs = game.observe(state, seat)
        check((obs >= 0) & (obs <= 1) & np.isfinite(obs),
              f"18: seat {seat}'s observation out of [0, 1]")
    check(np.full(num, game.observation_shape == (1072,)), "18: observation size")


ITEMS = (_ships, _scoring_cards, _flagships, _contracts, _coins, _action_cards, _expeditions,
         _voyages, _turn, _market, _reservations, _vp, _fleets, _decisions)


def check_invariants(game: DiscoveriesGame, state: DiscoveriesState) -> list[str]:
    """Violations of §10 items 1-18, one message per failing check and row."""
    check = _Check(state.batch_size)
    batch = _Batch(game, state)
    for item in ITEMS:
        item(check, batch)
    return check.report.messages()


def _points(state: DiscoveriesState, counted: np.ndarray, same: np.ndarray, off: np.ndarray,
            seats: np.ndarray) -> np.ndarray:
    """(B, P) points of the ships ``counted`` (B, 12, 8) from the per-ship records."""
    match = state.exp_colour == EXP_COLOUR[None, :, None]
    value = np.where(match, same[None, :, None], off[None, :, None]) * counted
    mine = state.exp_owner[:, :, :, None] == seats
    return (value[:, :, :, None] * mine).sum(axis=(1, 2))


def check_transition(before: DiscoveriesState, after: DiscoveriesState) -> list[str]:
    """Violations of the "between steps" parts of §10 (items 8, 12 and 13)."""
    check = _Check(before.batch_size)
    vp_before = before.vp_first + before.vp_final
    vp_after = after.vp_first + after.vp_final
    check(vp_after >= vp_before, "13: VP went down")
    scored = (after.first_done != before.first_done) | (after.done != before.done)
    check(scored[:, None] | (vp_after == vp_before), "13: VP changed without a scoring")
    kept = before.exp_owner >= 0
    same = ((after.exp_owner == before.exp_owner) & (after.exp_colour == before.exp_colour)
            & (after.exp_tv == before.exp_tv) & (after.exp_turn == before.exp_turn))
    check(~kept | same, "8: an expedition ship left or changed")
    # A reserved card leaves its slot only to its owner (bought or taken).
    seat = before.current_player
    for slot_range, cards_before, cards_after in (
            (slice(0, 5), before.offer, after.offer), (slice(10, 14), before.display,
                                                       after.display)):
        owner = before.res_owner[:, slot_range]
        taken = (owner >= 0) & (cards_before >= 0) & (cards_after != cards_before)
        check(~taken | (owner == seat[:, None]), "12: a reserved card taken by another")
    return check.report.messages()
