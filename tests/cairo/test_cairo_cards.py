"""The card and money rules of §5.2 and §5.4 in their two views: per mode (D6) and per section
(the masks of D4, D5 and D2), per fee colour (D8) and any fee colour."""

from __future__ import annotations

import numpy as np

from envs.cairo import cards
from envs.cairo.data import NUM_CARD_TYPES, NUM_COLOURS, NUM_SECTIONS

_SECTIONS = np.arange(NUM_SECTIONS)


def _hands_and_money(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random hands of 0-6 stall cards and money of 0-4 coins a colour."""
    rng = np.random.default_rng(seed)
    hand = np.zeros((rows, NUM_CARD_TYPES), dtype=np.int8)
    for row, size in enumerate(rng.integers(0, 7, rows)):
        np.add.at(hand[row], rng.integers(0, NUM_CARD_TYPES, size), 1)
    money = rng.integers(0, 5, (rows, NUM_COLOURS)).astype(np.int16)
    money[rng.random(rows) < 0.2] = 0
    return hand, money


def test_coverage_is_the_union_of_the_card_modes():
    """A section is covered exactly when some D6 mode (STD, a joker with its fee, THREE) pays
    for a target there; ``stall_cover`` is ``build_cover`` of a build without cost."""
    hand, money = _hands_and_money(600, 1)
    rows = len(hand)
    for fee_ok in (np.ones(rows, dtype=bool), np.zeros(rows, dtype=bool),
                   np.random.default_rng(2).random(rows) < 0.5):
        modes = cards.card_modes(hand, np.broadcast_to(_SECTIONS, (rows, NUM_SECTIONS)),
                                 fee_ok[:, None])
        covered = cards.sections_of(cards.coverage(hand, fee_ok))
        assert np.array_equal(covered, modes.any(axis=-1))
    none = np.zeros(rows, dtype=np.intp)
    assert np.array_equal(cards.stall_cover(hand, money),
                          cards.build_cover(hand, money, none, none))


def test_fee_payable_is_some_fee_colour():
    """``fee_payable`` (any coin pays the fee and leaves the build payable) is the union of
    ``fee_colours`` (D8's mask), for stalls and for expansions of every colour and cost."""
    _, money = _hands_and_money(400, 3)
    rng = np.random.default_rng(4)
    colour = rng.integers(0, NUM_COLOURS, (len(money), 3))
    cost = rng.integers(0, 8, (len(money), 3))  # 0: a stall
    h, others = cards.colour_money(money, colour)
    assert np.array_equal(cards.fee_payable(h, others, cost),
                          cards.fee_colours(money, colour, cost).any(axis=-1))


def test_example_14_joker_fee_must_keep_the_expansion_affordable():
    """Example 14: red 2 -> 3 tiles (N = 3) with red 3 alone: a joker's fee leaves the expansion
    short, so no fee colour works; with 1 yellow more, the fee is paid in yellow only."""
    money = np.zeros((2, NUM_COLOURS), dtype=np.int16)
    money[:, 0] = 3
    money[1, 1] = 1
    fee = cards.fee_colours(money, np.zeros(2, dtype=np.intp), np.full(2, 3))
    assert fee[0].tolist() == [False] * 6
    assert fee[1].tolist() == [False, True, False, False, False, False]


def test_build_cover_reads_the_payment_rules_from_their_table():
    """``build_cover`` looks ``affordable`` and ``fee_payable`` up in one table
    (``cards._PAYMENT``): it equals the rules computed directly, over the whole range of money
    a seat can hold (0-20 coins a colour) and every cost, 0 (a stall) included."""
    hand, _ = _hands_and_money(3000, 5)
    rng = np.random.default_rng(6)
    money = rng.integers(0, 21, (len(hand), NUM_COLOURS)).astype(np.int16)
    money[rng.random(len(hand)) < 0.3] //= 8  # poor seats too
    colour = rng.integers(0, NUM_COLOURS, (len(hand), 7))
    cost = rng.integers(0, 9, (len(hand), 7))
    h, others = cards.colour_money(money, colour)
    payable = (cost == 0) | cards.affordable(h, others, cost)
    expected = np.where(payable, cards.coverage(hand, cards.fee_payable(h, others, cost)), 0)
    assert np.array_equal(cards.build_cover(hand, money, colour, cost), expected)
    assert 0 < payable.mean() < 1  # both outcomes are exercised
