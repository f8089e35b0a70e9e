"""The card and money rules of §5.2 and §5.4 in their two views: per mode (D6) and per section
(the masks of D4, D5 and D2), per fee colour (D8) and any fee colour.

The rules are compiled per-row functions (``envs.cairo.rules.cards``) of one seat's ``hand``
(15,) int8 and ``money`` (6,) int16; sets of sections are 9-bit ints (bit s: section s).
"""

from __future__ import annotations

import numpy as np

from envs.cairo.data import NUM_CARD_TYPES, NUM_COLOURS, NUM_SECTIONS
from envs.cairo.rules import cards

MONEY_PER_COLOUR = 20  # a seat holds 0-20 coins of a colour (§2.2)


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
    modes = np.zeros(NUM_CARD_TYPES + 1, dtype=bool)
    for fee_ok in (np.ones(rows, dtype=bool), np.zeros(rows, dtype=bool),
                   np.random.default_rng(2).random(rows) < 0.5):
        for row in range(rows):
            covered = cards.coverage(hand[row], fee_ok[row])
            for section in range(NUM_SECTIONS):
                cards.card_modes(hand[row], section, fee_ok[row], modes)
                assert (covered >> section & 1 == 1) == modes.any(), (row, section)
    for row in range(rows):
        assert cards.stall_cover(hand[row], money[row]) == cards.build_cover(
            hand[row], money[row], 0, 0)


def test_fee_payable_is_some_fee_colour():
    """``fee_payable`` (any coin pays the fee and leaves the build payable) is the union of
    ``fee_colour_ok`` over the colours (D8's mask), for stalls and for expansions of every
    colour and cost."""
    _, money = _hands_and_money(400, 3)
    rng = np.random.default_rng(4)
    colour = rng.integers(0, NUM_COLOURS, (len(money), 3))
    cost = rng.integers(0, 8, (len(money), 3))  # 0: a stall
    outcomes = set()
    for row in range(len(money)):
        for c, n in zip(colour[row].tolist(), cost[row].tolist(), strict=True):
            some = any(cards.fee_colour_ok(money[row], c, n, fee) for fee in range(NUM_COLOURS))
            assert cards.fee_payable(money[row], c, n) == some, (money[row], c, n)
            outcomes.add(some)
    assert outcomes == {True, False}


def test_example_14_joker_fee_must_keep_the_expansion_affordable():
    """Example 14: red 2 -> 3 tiles (N = 3) with red 3 alone: a joker's fee leaves the expansion
    short, so no fee colour works; with 1 yellow more, the fee is paid in yellow only."""
    money = np.zeros((2, NUM_COLOURS), dtype=np.int16)
    money[:, 0] = 3
    money[1, 1] = 1
    fee = [[bool(cards.fee_colour_ok(money[row], 0, 3, c)) for c in range(NUM_COLOURS)]
           for row in range(2)]
    assert fee[0] == [False] * 6
    assert fee[1] == [False, True, False, False, False, False]


def _affordable_by_the_rule(h: int, others: int, n: int) -> bool:
    """§5.4 precondition 7 written out: some payment of ``n`` takes k >= 1 coins of the
    colour (k <= n, k <= h) and 2 coins of other colours for each of the n - k units left."""
    return any(2 * (n - k) <= others for k in range(1, min(n, h) + 1))


def _fee_payable_by_the_rule(h: int, others: int, n: int) -> bool:
    """D8 written out: one coin (of the colour or of another) pays the joker's fee, and an
    expansion (``n`` > 0) is still affordable with the coins left; a stall costs nothing
    more."""
    same = h >= 1 and (n == 0 or _affordable_by_the_rule(h - 1, others, n))
    other = others >= 1 and (n == 0 or _affordable_by_the_rule(h, others - 1, n))
    return same or other


def test_affordable_and_fee_payable_over_the_whole_money_range():
    """``affordable`` and ``fee_payable`` equal the rules written out, over the whole range of
    money a seat can hold (0-20 coins of the build's colour, 0-100 of the others) and every
    cost, 0 (a stall) included; ``build_cover`` combines them with the cards' coverage."""
    colour = 2
    money = np.zeros(NUM_COLOURS, dtype=np.int16)
    others_of = [c for c in range(NUM_COLOURS) if c != colour]
    for others in range(5 * MONEY_PER_COLOUR + 1):
        money[others_of] = 0
        left = others
        for c in others_of:  # the other colours' coins, each 0-20
            money[c] = min(left, MONEY_PER_COLOUR)
            left -= money[c]
        for h in range(MONEY_PER_COLOUR + 1):
            money[colour] = h
            for n in range(10):
                if n:
                    assert cards.affordable(h, others, n) == _affordable_by_the_rule(
                        h, others, n), (h, others, n)
                assert cards.fee_payable(money, colour, n) == _fee_payable_by_the_rule(
                    h, others, n), (h, others, n)
    hand, _ = _hands_and_money(300, 5)
    rng = np.random.default_rng(6)
    money = rng.integers(0, 21, (len(hand), NUM_COLOURS)).astype(np.int16)
    money[rng.random(len(hand)) < 0.3] //= 8  # poor seats too
    payable = []
    for row in range(len(hand)):
        for c, n in zip(rng.integers(0, NUM_COLOURS, 7).tolist(), rng.integers(0, 9, 7).tolist(),
                        strict=True):
            h = int(money[row, c])
            others = int(money[row].sum()) - h
            ok = n == 0 or _affordable_by_the_rule(h, others, n)
            fee_ok = _fee_payable_by_the_rule(h, others, n)
            expected = cards.coverage(hand[row], fee_ok) if ok else 0
            assert cards.build_cover(hand[row], money[row], c, n) == expected, (row, c, n)
            payable.append(ok)
    assert 0 < np.mean(payable) < 1  # both outcomes are exercised
