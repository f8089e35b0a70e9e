"""Forced decisions (§4.5): applied exactly when public information alone leaves one action.

The public-mask test replays random games decision by decision (``effects.apply`` on the
state before each step) and, at every decision, compares the game's ``forced`` predicate
with the public mask worked out by brute force: the union of the legal masks over every
position that agrees with the public information (the acting seat's hidden hand cards
replaced by cards of the public unseen set, its face-down flagship by any unrevealed
flagship), the positions with no legal action left out.
"""

from __future__ import annotations

import numpy as np
import pytest
from discoveries_helpers import Position

from envs.core.sampling import sample_actions
from envs.discoveries import DiscoveriesGame
from envs.discoveries.data import MAX_CHAIN, NUM_FLAGSHIPS
from envs.discoveries.rules import effects, legal
from envs.discoveries.state import ACTIONS, FLAG


def _public_mask(game: DiscoveriesGame, state, row: int) -> np.ndarray:
    """(134,) bool: the union of the masks of every position consistent with the public
    information of row ``row`` (module doc), by enumeration."""
    seat = int(state.current_player[row])
    hand = state.hand[row, seat]
    hidden_slots = [k for k in range(4) if hand[k] >= 0 and not state.hand_public[row, seat, k]]
    deck = set(state.contracts[row, int(state.deck_pos[row]):].tolist())
    unseen = deck | {int(c) for q in range(game.num_players) for k, c in enumerate(
        state.hand[row, q]) if c >= 0 and not state.hand_public[row, q, k]}
    revealed = {int(state.flag_id[row, q]) for q in range(game.num_players)
                if state.flag_revealed[row, q]}
    flags = ([int(state.flag_id[row, seat])] if state.flag_revealed[row, seat]
             else [f for f in range(NUM_FLAGSHIPS) if f not in revealed])
    hands = [None]
    if hidden_slots:
        hands = [(k, c) for k in hidden_slots for c in sorted(unseen)
                 if c == hand[k] or c not in hand]
    variants = state.take(np.full(len(flags) * len(hands), row))
    for i, (flag, change) in enumerate((f, h) for f in flags for h in hands):
        variants.flag_id[i, seat] = flag
        if change is not None:
            variants.hand[i, seat, change[0]] = change[1]
    game.refresh(variants)
    masks = game.legal_action_mask(variants)
    return masks[masks.any(axis=1)].any(axis=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_forced_exactly_when_the_public_mask_holds_one_action(players):
    game = DiscoveriesGame(players)
    state = game.init(6, seed=30 + players)
    generator = np.random.default_rng(players)
    counts = {"forced": 0, "single asked": 0, "checked": 0}
    real = np.zeros(ACTIONS.size, dtype=bool)
    for _ in range(400):
        if state.done.all():
            break
        mask = game.legal_action_mask(state)
        actions = sample_actions(mask, generator)
        # Bias towards contracts so that builds (and their forced picks) occur.
        plays = mask[:, 24:96].any(axis=1) & (generator.random(state.batch_size) < 0.7)
        for row in np.flatnonzero(plays):
            actions[row] = 24 + generator.choice(np.flatnonzero(mask[row, 24:96]))
        before = state.copy()
        game.step(state, actions)
        s = game.view(before)
        for row in np.flatnonzero(~before.done).tolist():
            effects.apply(s, row, actions[row])
            while not (before.terminated[row] or before.truncated[row]):
                real[:] = False
                legal.legal(s, row, real)
                forced = bool(real.sum() == 1 and legal.forced(s, row, real))
                if real.sum() == 1:
                    public = _public_mask(game, before, row)
                    assert forced == (public.sum() == 1), (
                        f"row {row} {game.decision_name(before, row)}: forced={forced}, "
                        f"public mask {[game.action_name(a) for a in np.flatnonzero(public)]}")
                    counts["forced" if forced else "single asked"] += 1
                counts["checked"] += 1
                if not forced:
                    break
                effects.apply(s, row, int(np.argmax(real)))
            assert before.arrays()["phase"][row] == state.phase[row]
    assert counts["forced"] > 20 and counts["single asked"] > 0, counts


def test_first_decision_of_a_turn_is_never_forced():
    p = Position(3)
    p.play("END_TURN")
    assert p.automatic() == [] and p.state.current_player[0] == 1


def test_end_turn_is_automatic_once_both_main_actions_are_used():
    p = Position(3).coins(0, 1).market(("red1",) * 5)
    p.state.reserves[0, 0] = 0
    p.play("TAKE_COINS", "BUY_0")
    assert p.automatic() == ["END_TURN"] and p.state.current_player[0] == 1


def _no_room(public: bool) -> Position:
    """P0 after TAKE_COINS with 2 coins, a full hand of four TV6 contracts (hidden, or all
    taken from the display), an idle blue TV3 that no expedition has room for, the flagship
    away and no Reservation: only END_TURN is legal."""
    cards = ("red6", "green6", "white6", "black6")
    p = Position(3).ships(0, "blue3")
    p = p.hand(0, public=cards) if public else p.hand(0, *cards)
    p.state.reserves[0, 0] = 0
    p.state.flag_where[0, 0], p.state.flag_revealed[0, 0] = FLAG.EXPEDITION, True
    p.state.exp_used[0] = p.state.exp_used[0] * 0 + [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    return p.play("TAKE_COINS")


def test_end_turn_is_asked_while_a_hidden_card_could_be_played():
    """A publicly unseen blue 3 would be playable with the blue TV3 and 2 coins, so the
    table cannot tell that the hidden hand holds nothing playable: END_TURN is asked."""
    p = _no_room(public=False)
    assert p.legal() == ["END_TURN"] and p.automatic() == []
    assert p.state.current_player[0] == 0


def test_end_turn_is_applied_when_every_hand_card_is_known():
    p = _no_room(public=True)
    assert p.automatic() == ["END_TURN"] and p.state.current_player[0] == 1


def test_pick_with_a_face_down_flagship_is_asked_unless_public():
    """One legal regular pick and a face-down flagship that cannot carry the colour: asked
    while another unrevealed flagship could; applied with fewer than 2 coins."""
    p = Position(3).expedition(1, (1, "red1")).ships(0, "red1").coins(0, 2).jokers(0, 0)
    p.flagship(0, 2)  # F2 blue/green: no red
    p.play("SEND_1")
    assert p.legal() == ["PICK_SHIP_red1"] and p.automatic() == []
    p = Position(3).expedition(1, (1, "red1")).ships(0, "red1").coins(0, 1).jokers(0, 0)
    p.flagship(0, 2).play("SEND_1")
    assert p.automatic() == ["PICK_SHIP_red1"]


def test_chain_of_automatic_decisions_after_a_play():
    """A TV6 contract from the three green TV2 ships (the flagship away, COINS used, no
    Reservation): three forced picks and the END_TURN in the step of PLAY_CONTRACT, within
    the bound of §4.5."""
    p = Position(2).coins(0, 8).hand(0, "green6").ships(0, "green2", "green2", "green2")
    p.state.reserves[0, 0] = 0
    p.state.flag_where[0, 0], p.state.flag_revealed[0, 0] = FLAG.EXPEDITION, True
    p.play("TAKE_COINS", "PLAY_green6_d1")
    assert p.automatic() == ["PICK_SHIP_green2"] * 3 + ["END_TURN"]
    assert len(p.automatic()) <= MAX_CHAIN and p.state.current_player[0] == 1


def test_play_contract_is_never_forced():
    """The only playable card: its three durations are legal together, so it is asked."""
    p = Position(3).ships(0, "white3").coins(0, 1).hand(0, "white3")
    p.state.flag_where[0, 0], p.state.flag_revealed[0, 0] = FLAG.EXPEDITION, True
    p.state.reserves[0, 0] = 0
    p.play("TAKE_COINS")
    p.state.coins[0, 0] = 1
    p.state.exp_used[0] = p.state.exp_used[0] * 0 + [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    p.game.refresh(p.state)
    legal_now = set(p.legal())
    assert legal_now >= {"PLAY_white3_d1", "PLAY_white3_d2", "PLAY_white3_d3"}
    assert not p.game.forced_rows(p.state, [0])[0]
