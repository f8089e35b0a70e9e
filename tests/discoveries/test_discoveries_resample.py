"""``resample_hidden`` (§6): what a seat cannot see is redrawn, and only that."""

from __future__ import annotations

import numpy as np
from discoveries_helpers import CONTRACT, Position

from envs.discoveries.data import FLAG_CARRIES
from envs.discoveries.state import PHASE


def test_flagship_draws_that_strand_the_acting_seat_are_rejected():
    """Seat 1 sends to an expedition established yellow with no ship but its face-down
    flagship (F0 red/yellow) and no Joker: from seat 0's view its flagship is redrawn among
    those seat 0 has not seen, and only the ones carrying yellow (F0, F1) keep a pick."""
    p = Position(3).expedition(2, (2, "yellow1")).coins(1, 5).jokers(1, 0)
    p.flagship(0, 4).flagship(1, 0).flagship(2, 3).at_turn(1)
    p.play("SEND_2")
    assert p.state.phase[0] == PHASE.PICK_EXP_SHIP
    game, state = p.game, p.state
    drawn = set()
    for seed in range(60):
        other = game.resample_hidden(state, 0, seed)
        flag = int(other.flag_id[0, 1])
        assert FLAG_CARRIES[flag, 1], f"flagship F{flag} cannot sail yellow"
        assert game.legal_action_mask(other)[0].any()
        assert flag != 4  # seat 0's own
        drawn.add(flag)
    assert drawn == {0, 1}


def test_hands_deck_piles_and_tasks_are_redrawn_keeping_what_the_seat_knows():
    p = Position(3).hand(0, "red3", "blue4").hand(1, "green5", public=("white6",))
    p.hand(2, "black3").task(0, "ALL").task(1, "HALF").task(2, "MAJORITY")
    game, state = p.game, p.state
    hands, tasks, piles = set(), set(), set()
    for seed in range(40):
        other = game.resample_hidden(state, 0, seed)
        np.testing.assert_array_equal(other.hand[0, 0], state.hand[0, 0])  # its own hand
        assert CONTRACT["white6"] in other.hand[0, 1]  # a card everyone saw taken
        assert other.hand_size[0].tolist() == [2, 2, 1]
        assert other.task[0, 0] == state.task[0, 0]
        np.testing.assert_array_equal(np.sort(other.piles[0]), np.sort(state.piles[0]))
        hands.add(tuple(sorted(other.hand[0, 1].tolist() + other.hand[0, 2].tolist())))
        tasks.add(tuple(other.task[0, 1:].tolist()))
        piles.add(other.piles[0].tobytes())
    assert len(hands) > 5 and len(tasks) > 3 and len(piles) > 30
