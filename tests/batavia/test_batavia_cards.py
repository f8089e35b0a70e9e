"""Cards: running out and reshuffling (§5.9), the decisions public information forces
(§9.3), the hidden split of the hands and its resampling (§6.1)."""

from __future__ import annotations

import numpy as np
from batavia_helpers import Position, counts

from envs.batavia import resample
from envs.batavia.rules.queries import playable
from envs.batavia.state import Phase

# ---------------------------------------------------------------- empty piles (§5.9)


def test_a_draw_reshuffles_the_discard_pile_when_the_pile_runs_out():
    """§5.9: one card left and 8 in the discard pile: the draw takes it, the discard pile
    becomes a new pile (a new generation, 110 words drawn) and the draw goes on."""
    p = Position(4).discard("FR5 NL3").cards(0, hand="EN1").pile_only("SE", holder=1)
    counter = int(p.s.rng[0, 1])
    p.play("DRAW")
    assert p.s.hand[0, 0].sum() == 3 and p.s.hand[0, 0, 4] == 1
    assert not p.s.discard[0].any() and p.s.deck_size[0] == 7
    assert p.s.generation[0] == 1 and int(p.s.rng[0, 1]) == counter + 110
    drawn = p.s.hand[0, 0] - counts("EN1 SE1")
    assert drawn.sum() == 1 and (drawn[2:4] == 1).any()  # a French or a Dutch card
    # The hidden split knows which card came from which pile (§6.1).
    old, new = p.s.unknown[0, 0, 0], p.s.unknown[0, 0, int(p.s.pile_slot[0])]
    assert old.tolist() == counts("EN1 SE1").tolist() and new.tolist() == drawn.tolist()
    assert p.game.step_record(p.s).revealed[0].tolist() == [True, False, False, False]
    p.check()


def test_a_draw_from_two_empty_piles_takes_what_there_is():
    """§5.3, §8 #15: with one card in the pile and none in the discard pile, DRAW takes one."""
    p = Position(4).cards(0, hand="EN1").pile_only("DK", holder=2)
    p.play("DRAW")
    assert p.s.hand[0, 0].tolist() == counts("EN1 DK1").tolist() and p.s.deck_size[0] == 0
    p.check()


def test_a_flip_reshuffles_mid_flip():
    """§5.9: a roll of 4 with 2 cards in the pile flips them, reshuffles the discard pile
    and flips 2 more."""
    p = Position(3).discard("NL6").cards(1, hand="EN1").pile_only("SE SE", holder=2)
    p.turn(start=0, seat=2).rig_dice(4)
    p.play("DRAW")  # seat 2 draws both: the pile is empty at the round start
    assert p.s.round[0] == 2 and p.s.die[0] == 4
    assert p.s.lot[0].tolist() == counts("NL4").tolist()
    assert p.s.deck_size[0] == 2 and not p.s.discard[0].any()
    p.check()


# ---------------------------------------------------------------- forced decisions (§9.3)


def test_a_turn_is_drawn_automatically_when_the_record_rules_out_a_play():
    """§9.3: seat 0's hand, known in full (won at auction), EN2, cannot beat the 3 English
    cards of seat 1, and it holds nothing else: DRAW is applied without asking. The same
    hand drawn face down could, for all the table knows, be DK2 (beating seat 2's DK1), so
    the DRAW is asked, though it is the only legal action."""
    for known, automatic in (("EN2", [(0, "DRAW")]), ("", [])):
        p = Position(4).cards(1, display="EN3", hand="EN1")
        p.cards(2, display="DK1 FR3 NL3 SE3").cards(3, hand="EN4")
        p.cards(0, hand="EN2", known=known).turn(start=3, seat=3)
        p.play("DRAW")
        assert p.automatic() == automatic
        assert p.s.current_player[0] == (1 if automatic else 0)
        if not automatic:
            assert p.legal() == ["DRAW"]


def test_a_play_of_a_publicly_single_company_hand_goes_on_by_itself():
    """§9.3: no ending is legal and the record shows the hand holds one company only: the
    PLAY_CARD is applied by itself until an ending is legal; with the hand face down each
    card is asked."""
    p = Position(4).cards(1, display="DK3").cards(0, hand="DK4", known="DK4")
    p.play("PLAY_CARD_DK")
    assert p.automatic() == [(0, "PLAY_CARD_DK")] * 3 + [(0, "END_MOVE_DK")]
    assert p.s.seal[0, 1] == 0 and p.s.phase[0] == Phase.EXCHANGE_CHOICE
    p = Position(4).cards(1, display="DK3").cards(0, hand="DK4")
    p.play("PLAY_CARD_DK")
    assert p.automatic() == [] and p.legal() == ["PLAY_CARD_DK"]


def test_an_empty_hand_with_one_ending_moves_by_itself_and_two_are_asked():
    """§9.3: after the last card, a single legal ending is applied; two are asked."""
    p = Position(4).cards(0, hand="FR1")
    p.play("PLAY_CARD_FR")
    assert p.automatic() == [(0, "END_MOVE_FR")]
    p = Position(4).cards(0, hand="FR1", display="SE1")
    p.play("PLAY_CARD_FR")
    assert p.automatic() == [] and p.legal() == ["END_MOVE_FR", "END_MOVE_SE"]


# ---------------------------------------------------------------- resampling (§6.1)


def test_resampling_keeps_generations_apart():
    """§6.1 step 1: after a reshuffle, the new pile is redrawn from its own generation's
    pool only: seat 1's old face-down cards never enter it."""
    p = Position(4).discard("FR8").cards(0, hand="EN1").pile_only("SE", holder=1)
    p.play("DRAW")  # seat 0 takes the SE and a FR; the pile now holds 7 FR (generation 1)
    for seed in range(5):
        other = p.game.resample_hidden(p.s, 3, seed)
        pile = other.deck[0, :int(other.deck_size[0])]
        assert (pile == 2).all()  # French only
        assert other.hand[0, 0].sum() == 3 and other.hand[0, 0, 2] >= 1
        assert not p.game.check_invariants(other)


def _unfinished_play() -> Position:
    """Seat 1 has played a Dutch card and can finish only with 4 cards of one company among
    its 4 face-down ones (the true hand NL4 beats seat 0's NL4 with its displayed NL)."""
    p = Position(4).cards(0, display="NL4").cards(1, hand="NL4", display="NL1")
    p.cards(2, display="EN3 DK3 FR3 SE3")
    p.turn(start=1, seat=1, phase=Phase.PLAYING)
    p.s.played[0] = counts("NL1")
    p.game.refresh(p.s)
    assert p.legal() == ["PLAY_CARD_NL"]
    return p


def test_resampling_keeps_the_acting_seat_able_to_finish_its_play():
    """§6.1 step 2: every resample, by retries or by the construction, leaves the acting
    seat a hand that can finish its play, the observer's view unchanged."""
    p = _unfinished_play()
    for observer in (0, 2):
        for seed in range(6):
            other = p.game.resample_hidden(p.s, observer, seed)
            assert playable(p.game, other, np.array([0]))[0]
            assert other.hand[0, 1].max() == 4  # 4 cards of one company
            np.testing.assert_array_equal(p.game.observe(other, observer),
                                          p.game.observe(p.s, observer))
            assert not p.game.check_invariants(other)


def test_the_resample_construction_deals_the_needed_cards_first():
    """§6.1 step 2 without retries: the construction picks a company the pools can meet and
    deals the acting seat its cards first."""
    p = _unfinished_play()
    saved = resample.RETRIES
    try:
        resample.RETRIES = 0
        companies = set()
        for seed in range(12):
            other = p.game.resample_hidden(p.s, 0, seed)
            assert playable(p.game, other, np.array([0]))[0]
            assert not p.game.check_invariants(other)
            companies.add(int(np.argmax(other.hand[0, 1])))
    finally:
        resample.RETRIES = saved
    assert len(companies) >= 2  # not only the true hand's company


def test_resampling_redraws_face_down_tiles_within_their_blocks():
    """§6.1 step 3: every face-down block keeps one tile per company, every company its
    face-down goods; the open blocks stay."""
    p = Position(4).cards(0, hand="EN1")
    moved = False
    for seed in range(4):
        other = p.game.resample_hidden(p.s, 0, seed)
        np.testing.assert_array_equal(other.route[0, :10], p.s.route[0, :10])
        down = other.route[0, 10:].reshape(5, 5)
        assert ((down // 7)[:, :, None] == np.arange(5)).sum(axis=1).min() == 1
        assert sorted(other.route[0, 10:]) == sorted(p.s.route[0, 10:])
        moved |= not np.array_equal(other.route, p.s.route)
        assert not p.game.check_invariants(other)
    assert moved


def test_a_reshuffle_with_every_generation_slot_held_merges_the_two_oldest():
    """Game docstring, choice 5: when every slot holds face-down hand cards, the two oldest
    generations share a slot and the new pile takes the freed one."""
    p = Position(4).cards(0, hand="EN1").discard("NL5").pile_only("", holder=1)
    s = p.s
    slots = s.unknown.shape[2]
    for g in range(1, slots):  # one of seat 1's cards in every slot, generation g in slot g
        c = int(np.flatnonzero(s.unknown[0, 1, 0])[0])
        s.unknown[0, 1, 0, c] -= 1
        s.unknown[0, 1, g, c] += 1
    s.gen_id[0] = np.arange(slots)
    s.generation[:] = slots - 1
    s.pile_slot[:] = slots - 1
    held = s.unknown[0, 1].sum(axis=0).copy()
    p.check()
    p.play("DRAW")
    assert p.s.generation[0] == slots and p.s.pile_slot[0] == 0
    assert p.s.gen_id[0, 0] == slots
    assert p.s.unknown[0, 1, 0].sum() == 0 and p.s.unknown[0, 1, 1].sum() >= 2
    np.testing.assert_array_equal(p.s.unknown[0, 1].sum(axis=0), held)
    p.check()
