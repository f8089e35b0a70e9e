"""The observation (§9.2) against a plain per-row encoding of its table, and the renders."""

from __future__ import annotations

import numpy as np
import pytest
from discoveries_helpers import CONTRACT, Position

import envs
from envs.core.sampling import sample_actions
from envs.discoveries import DiscoveriesGame
from envs.discoveries.data import (
    CONTRACT_COLOUR,
    CONTRACT_TV,
    EXP_COLOUR,
    EXP_LIMIT,
    FLAG_CARRIES,
    PILE_END,
    PILE_START,
    TRACK,
)
from envs.discoveries.observation import AT, OBS, SEAT_SIZE
from envs.discoveries.rules.queries import voyage_timers
from envs.discoveries.state import FLAG, PHASE, PLAYED


def _reference(state, r: int, p: int) -> np.ndarray:
    """Seat p's observation of row r, written piece by piece from the table of §9.2."""
    n = state.coins.shape[1]
    out = np.zeros(OBS.size)

    def put(name, values, at=0):
        start = AT[name] + at
        values = np.atleast_1d(np.asarray(values, dtype=float))
        out[start:start + values.size] = values

    over = bool(state.terminated[r] or state.truncated[r])
    put("decision", np.eye(4)[int(state.phase[r])])
    if not over:
        put("acting_seat", np.eye(4)[(int(state.current_player[r]) - p) % n])
    used = int(state.used[r])
    put("used_types", [(used >> k) & 1 for k in range(4)])
    put("open_type", np.eye(3)[int(state.open_type[r])])
    put("actions_used", np.eye(3)[bin(used).count("1")])
    g = int(state.turn[r])
    put("turn", g / 300)
    first, final = int(state.first_reveal[r]), int(state.final_reveal[r])
    put("schedule", [first >= 0, bool(state.first_done[r]), final >= 0,
                     (first + n - g) / 4 if first >= 0 and not state.first_done[r] else 0,
                     (final + n - g) / 4 if final >= 0 and not over else 0])
    pos = int(state.pile_pos[r])
    sizes = [max(0, int(e) - max(pos, int(s))) for s, e in zip(PILE_START, PILE_END,
                                                              strict=True)]
    put("pile_sizes", np.array(sizes) / 8)
    left = state.piles[r, pos:]
    put("pile_ships", [np.sum(left == t) / 3 for t in range(18)])
    odds = [0.0, 0.0, 0.0, 0.0]
    if first < 0:
        odds[0] = 1 / sizes[2] if sizes[0] + sizes[1] == 0 else 0
        odds[1] = (sizes[0] + sizes[1]) / 12
    if final < 0:
        odds[2] = 1 / sizes[4] if sum(sizes[:4]) == 0 else 0
        odds[3] = sum(sizes[:4]) / 26
    put("scoring_odds", odds)
    put("deck_size", (24 - int(state.deck_pos[r])) / 16)
    unseen = np.zeros(24)
    for c in state.contracts[r, int(state.deck_pos[r]):].tolist():
        unseen[c] = 1
    for q in range(n):
        for k in range(4):
            c = int(state.hand[r, q, k])
            if q != p and c >= 0 and not state.hand_public[r, q, k]:
                unseen[c] = 1
    put("unseen_contracts", unseen)
    cards = state.offer[r].tolist() + state.refill[r].tolist()
    for i, c in enumerate(cards):
        put("market", 1, at=19 * i + (c if c >= 0 else 18))
    for j, c in enumerate(state.display[r].tolist()):
        put("display", 1, at=25 * j + (c if c >= 0 else 24))
    for slot in range(14):
        owner = int(state.res_owner[r, slot])
        name, at = (("market_reservations", 6 * slot) if slot < 10
                    else ("display_reservations", 6 * (slot - 10)))
        put(name, 1, at=at + ((owner - p) % n if owner >= 0 else 4))
        fresh = (owner >= 0 and owner == int(state.current_player[r])
                 and state.res_turn[r, slot] == state.own_turns[r, owner])
        put(name, float(fresh), at=at + 5)
    for e in range(12):
        colour = int(state.exp_colour_set[r, e])
        put("expeditions", 1, at=16 * e + (colour if colour >= 0 else 6))
        put("expeditions", (EXP_LIMIT[e] - state.exp_used[r, e]) / 8, at=16 * e + 7)
        for j in range(n):
            q = (p + j) % n
            put("expeditions", state.exp_count[r, e, q] / 8, at=16 * e + 8 + j)
            put("expeditions", state.exp_same[r, e, q] / 8, at=16 * e + 12 + j)
    timers = voyage_timers(state)
    revealed_ids = {int(state.flag_id[r, q]) for q in range(n) if state.flag_revealed[r, q]}
    for j in range(n):
        q = (p + j) % n
        seat = np.zeros(SEAT_SIZE)
        coins = int(state.coins[r, q])
        vp = int(state.vp_first[r, q]) + int(state.vp_final[r, q])
        done = int(state.completed[r, q])
        hand = [(int(c), bool(pub)) for c, pub in zip(state.hand[r, q], state.hand_public[r, q],
                                                      strict=True) if c >= 0]
        seat[0:8] = [1, coins / 570, min(coins, 30) / 30, vp / 581, min(vp, 150) / 150,
                     done / 24, TRACK[done] / 9, len(hand) / 4]
        for c, pub in hand:
            if pub or q == p:
                seat[8 + c] = 1
        seat[32:50] = state.idle[r, q] / 3
        where = int(state.flag_where[r, q])
        state_index = (0 if not state.flag_revealed[r, q] else
                       {FLAG.IDLE: 1, FLAG.BUILD: 2, FLAG.VOYAGE: 2, FLAG.EXPEDITION: 3}[where])
        seat[50 + state_index] = 1
        own = int(state.flag_id[r, q])
        if q == p or state.flag_revealed[r, q]:
            candidates = np.eye(6)[own]
        else:
            mine = int(state.flag_id[r, p])
            candidates = np.array([f not in revealed_ids and f != mine for f in range(6)], float)
        seat[54:60] = candidates
        seat[60:66] = candidates @ FLAG_CARRIES / candidates.sum()
        for t in range(3):
            active = [c for c in range(24) if state.con_state[r, c] == PLAYED.ACTIVE
                      and state.con_owner[r, c] == q and timers[r, c] == t + 1]
            revenue = sum(int(state.con_revenue[r, c]) for c in active)
            ships = sum(int(state.con_ships[r, c].sum()) + (state.con_flag_tv[r, c] > 0)
                        for c in active)
            seat[66 + 3 * t:69 + 3 * t] = [revenue / 264, min(revenue, 30) / 30, ships / 43]
        on = [c for c in range(24) if state.con_state[r, c] == PLAYED.ACTIVE
              and state.con_owner[r, c] == q]
        seat[75:93] = sum((state.con_ships[r, c] for c in on), np.zeros(18)) / 3
        seat[93:95] = [state.jokers[r, q] / 3, state.reserves[r, q] / 2]
        put("seats", seat, at=SEAT_SIZE * j)
    put("own_task", np.eye(4)[int(state.task[r, p])])
    if state.phase[r] == PHASE.PICK_EXP_SHIP:
        put("target_expedition", np.eye(12)[int(state.target[r])])
    if state.phase[r] == PHASE.BUILD_CONTRACT:
        card = int(state.build_card[r])
        build = np.zeros(34)
        build[CONTRACT_COLOUR[card]] = 1
        build[6 + CONTRACT_TV[card] - 3] = 1
        build[10 + int(state.build_duration[r]) - 1] = 1
        build[13] = state.build_tv[r] / 6
        build[14:32] = state.build_ships[r] / 3
        build[32] = state.build_flag_tv[r] > 0
        build[33] = state.build_jokers[r] / 3
        put("build", build)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_matches_the_table_of_section_9_2(players):
    game = DiscoveriesGame(players)
    state = game.init(8, seed=players)
    generator = np.random.default_rng(players)
    checked = set()
    for step in range(600):
        if state.done.all():
            break
        mask = game.legal_action_mask(state)
        actions = sample_actions(mask, generator)
        plays = mask[:, 24:96].any(axis=1) & (generator.random(8) < 0.6)
        for row in np.flatnonzero(plays):
            actions[row] = 24 + generator.choice(np.flatnonzero(mask[row, 24:96]))
        state = game.step(state, actions)
        if step % 7:
            continue
        seats = (np.arange(8) + step) % players
        obs = game.observe(state, seats)
        for r in range(8):
            np.testing.assert_allclose(obs[r], _reference(state, r, int(seats[r])), atol=1e-6,
                                       err_msg=f"row {r} seat {seats[r]} step {step}")
            checked.add(int(state.phase[r]))
    assert checked >= {PHASE.MAIN, PHASE.BUILD_CONTRACT, PHASE.GAME_OVER}


def test_unseen_set_is_the_observing_seats_own():
    """Seat 1's observation shows its own hand in its slot and not in its unseen set; the
    acting seat 0's hidden card is unseen for seat 1, its display card is not."""
    p = Position(3).hand(0, "red3", public=("blue4",)).hand(1, "green5")
    obs = p.game.observe(p.state, 1)[0]
    unseen = obs[AT["unseen_contracts"]:AT["unseen_contracts"] + 24]
    assert unseen[CONTRACT["red3"]] == 1 and unseen[CONTRACT["blue4"]] == 0
    assert unseen[CONTRACT["green5"]] == 0
    own_slot = obs[AT["seats"]:AT["seats"] + SEAT_SIZE]
    assert own_slot[8 + CONTRACT["green5"]] == 1 and own_slot[8 + CONTRACT["red3"]] == 0
    acting = obs[AT["acting_seat"]:AT["acting_seat"] + 4]
    assert acting.tolist() == [0, 0, 1, 0]  # seat 0 is two seats after seat 1 of 3
    seat0 = obs[AT["seats"] + 2 * SEAT_SIZE:AT["seats"] + 3 * SEAT_SIZE]
    assert seat0[8 + CONTRACT["blue4"]] == 1 and seat0[8 + CONTRACT["red3"]] == 0


def test_coins_vp_and_revenue_have_exact_and_clipped_features():
    p = Position(2).coins(0, 75)
    p.state.vp_first[0, 0] = 290
    obs = p.game.observe(p.state, 0)[0]
    seat = obs[AT["seats"]:AT["seats"] + SEAT_SIZE]
    assert seat[1] == pytest.approx(75 / 570) and seat[2] == 1.0
    assert seat[3] == pytest.approx(290 / 581) and seat[4] == 1.0
    assert game_bounds_are_unit(p.game)


def game_bounds_are_unit(game) -> bool:
    return (game.observation_low == 0).all() and (game.observation_high == 1).all() and (
        game.observation_shape == (1072,))


def test_render_per_seat_hides_what_the_seat_cannot_see():
    p = Position(3).hand(0, "red3", public=("blue4",)).task(0, "MAJORITY").flagship(0, 5)
    full = p.game.render(p.state, 0)
    mine = p.game.render(p.state, 0, seat=0)
    other = p.game.render(p.state, 0, seat=1)
    assert "red3" in full and "MAJORITY" in full and "F5" in full
    assert "red3" in mine and "MAJORITY" in mine and "F5 black/red (face down)" in mine
    assert "blue4*" in other and "red3" not in other.split("P0:")[1].split("P1:")[0]
    assert "+ 1 hidden" in other and "MAJORITY" not in other and "F5" not in other
    assert "(blue" not in other.split("piles:")[1].split("\n")[0]  # no pile order


def test_ansi_render_mode_returns_the_text_board():
    env = envs.make_env("discoveries", 3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("Age of Discoveries, turn 0") and "expeditions:" in text
    for e in range(12):
        assert f"{e:2d} " in text
    assert EXP_COLOUR.size == 12
