"""Paying for a build: card modes, the joker fee, affordability and the coins of a payment.

The rules of §5.2 (card modes: a standard card, a joker and its fee, three cards as the
fallback) and of §5.4 precondition 7 and its payment (D9, one coin a decision), each written
once, as pure functions of the acting seat's hand and money over R rows. A build is either
a stall (new or moved: no cost but the joker fee) or an expansion of a colour at a cost; a
cost of 0 stands for a stall wherever a cost is asked. Sets of sections are 9-bit ints (bit
s: section s), one number per row and build.
"""

from __future__ import annotations

import numpy as np

from envs.cairo.data import (
    JOKER_COVER,
    MAX_GROUP_SIZE,
    MONEY_PER_COLOUR,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_SECTIONS,
    NUM_STANDARD_TYPES,
    SECTION,
    THREE_CARDS,
)
from envs.cairo.state import CairoState
from envs.core.arrays import last_axis_sums, second_last_axis_sums, take_along_rows

_COLOURS = np.arange(NUM_COLOURS)
_STANDARD_SECTION = np.arange(NUM_STANDARD_TYPES)  # the section of each standard card type
_JOKER_OF_SECTION = np.ascontiguousarray(JOKER_COVER.T)  # (9, 6): joker j covers section s
SECTION_BIT = np.int32(1) << np.arange(NUM_SECTIONS, dtype=np.int32)  # bit s: section s
ALL_SECTIONS = np.int32((1 << NUM_SECTIONS) - 1)
_JOKER_SET = JOKER_COVER @ SECTION_BIT  # (6,) each joker's section set
_CELL_SECTION_BIT = SECTION_BIT[SECTION]  # (182,) the bit of each cell's section
NUM_CARD_MODES = NUM_CARD_TYPES + 1  # D6: S0..S8, J0..J5, THREE


Holdings = tuple[np.ndarray, np.ndarray, np.ndarray]
"""The acting seat (R,), its hand (R, 15) and its money (R, 6): what the masks read of it."""


def seat_cards(state: CairoState, rows: np.ndarray) -> Holdings:
    """The acting seat (R,), its hand (R, 15) and its money (R, 6) in ``rows``."""
    seat = state.current_player[rows].astype(np.intp)
    return seat, state.hand[rows, seat], state.money[rows, seat]


def public_holdings(state: CairoState, rows: np.ndarray, reveal_money: bool) -> Holdings:
    """What every seat knows of the acting seat's hand and money (§6), as a bound on them
    shaped like ``seat_cards``: per card type, the copies known to be in the hand (taken
    from the display) plus every card of unknown type (the hand's size is public), and its
    money, or without ``reveal_money`` all the coins of each colour out of the trays.

    A mask that only grows with the cards and the money (every one but D6's, whose THREE is
    a fallback) is, from the bound, a superset of the seat's real mask, read from public
    data alone: where it has a single action, so has the real one (design.md, forced
    decisions). The bound is the hand itself when ``hand_known``.
    """
    seat = state.current_player[rows].astype(np.intp)
    known = state.known[rows, seat].astype(np.int16)
    unknown = last_axis_sums(state.hand[rows, seat]) - last_axis_sums(known)
    money = (state.money[rows, seat] if reveal_money
             else second_last_axis_sums(state.money[rows]))
    return seat, known + unknown[:, None], money


def hand_known(state: CairoState, rows: np.ndarray) -> np.ndarray:
    """(R,) bool: every card in the acting seat's hand is of a type all seats know it holds
    (public: the known cards and the hand's size)."""
    seat = state.current_player[rows].astype(np.intp)
    return last_axis_sums(state.known[rows, seat]) == last_axis_sums(state.hand[rows, seat])


def colour_money(money: np.ndarray, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's money (R, 6) in ``colour`` (R,) or (R, K), and its money in the others."""
    h = take_along_rows(money, colour)
    return h, last_axis_sums(money).reshape((-1,) + (1,) * (colour.ndim - 1)) - h


def affordable(h: np.ndarray, others: np.ndarray, n: np.ndarray) -> np.ndarray:
    """§5.4 precondition 7: an expansion costing ``n`` can be paid with ``h`` coins of its
    colour and ``others`` of the other colours (at least 1 of the colour, the rest 2:1)."""
    return (h >= 1) & (others >= 2 * (n - np.minimum(n, h)))


def _after_fee(h: np.ndarray, others: np.ndarray, cost: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Whether a build stays payable after a joker fee coin of its own colour, and after one
    of another colour: always for a stall (``cost`` 0), and for an expansion when it is still
    affordable with the coins left (R7, §9.2 D8)."""
    stall = cost == 0
    return stall | affordable(h - 1, others, cost), stall | affordable(h, others - 1, cost)


def fee_colours(money: np.ndarray, colour: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """(R, ..., 6) bool: the colours a joker fee (1 coin, §5.2) can be paid in, leaving the
    build payable (``_after_fee``): D8's mask.

    Args:
        money: (R, 6) the seat's money.
        colour: (R,) or (R, K) the build's colour (read for expansions only).
        cost: the expansion's cost ``N``, shaped like ``colour``; 0 for a stall.
    """
    held = (money >= 1).reshape((money.shape[0],) + (1,) * (colour.ndim - 1) + (NUM_COLOURS,))
    same, other = _after_fee(*colour_money(money, colour), cost)
    return held & np.where(colour[..., None] == _COLOURS, same[..., None], other[..., None])


def fee_payable(h: np.ndarray, others: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """``fee_colours(...).any(axis=-1)`` from the build colour's money ``h`` and the rest
    ``others`` (``colour_money``): a coin of the colour or of another one pays the fee and
    leaves the build payable."""
    same, other = _after_fee(h, others, cost)
    return (h >= 1) & same | (others >= 1) & other


def section_set(sections: np.ndarray) -> np.ndarray:
    """(...) int32: the 9-bit section sets (bit s: section s) of (..., 9) bool flags."""
    return sections @ SECTION_BIT


def sections_of(sets: np.ndarray) -> np.ndarray:
    """(..., 9) bool: the sections of (...) 9-bit section sets."""
    return (sets[..., None] & SECTION_BIT) != 0


def cells_of(sets: np.ndarray) -> np.ndarray:
    """(R, 182) bool: the cells lying in the sections of (R,) 9-bit section sets."""
    return (sets[:, None] & _CELL_SECTION_BIT) != 0


def card_sections(hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sections the cards of ``hand`` (R, 15) pay for, as (R,) 9-bit sets: by a standard
    card (every section with three stall cards in hand, THREE's coverage), and by a joker
    once its fee is paid."""
    standard = section_set(hand[:, :NUM_STANDARD_TYPES] > 0)
    standard |= (last_axis_sums(hand) >= THREE_CARDS) * ALL_SECTIONS
    joker = np.bitwise_or.reduce((hand[:, NUM_STANDARD_TYPES:] > 0) * _JOKER_SET, axis=1)
    return standard, joker


def joker_sections(hand: np.ndarray) -> np.ndarray:
    """(R, 9) bool: sections covered by some joker in ``hand`` (R, 15)."""
    return sections_of(card_sections(hand)[1])


def card_modes(hand: np.ndarray, section: np.ndarray, fee_ok: np.ndarray) -> np.ndarray:
    """(R, ..., 16) bool: the card modes of §5.2 that can pay for a target in ``section``:
    D6's choices S0..S8, J0..J5 and THREE.

    STD needs the standard card of the section, JOKER a joker covering it and a payable fee,
    and THREE (any three stall cards) is the fallback when neither can be used (R7).

    Args:
        hand: (R, 15) stall cards by type.
        section: (R,) or (R, ...) int, the target's section.
        fee_ok: bool broadcastable to ``section``: a joker fee can be paid (``fee_colours``).
    """
    extra = (1,) * (section.ndim - 1)
    held = (hand > 0).reshape((hand.shape[0], *extra, NUM_CARD_TYPES))
    standard = held[..., :NUM_STANDARD_TYPES] & (section[..., None] == _STANDARD_SECTION)
    joker = (held[..., NUM_STANDARD_TYPES:] & _JOKER_OF_SECTION[section]
             & np.broadcast_to(fee_ok, section.shape)[..., None])
    single = np.concatenate([standard, joker], axis=-1)
    three = (last_axis_sums(hand) >= THREE_CARDS).reshape((hand.shape[0], *extra))
    three = three & ~single.any(axis=-1)
    return np.concatenate([single, three[..., None]], axis=-1)


def coverage(hand: np.ndarray, fee_ok: np.ndarray) -> np.ndarray:
    """(R, ...) int32 9-bit sets: the sections some card mode can pay for, with ``fee_ok``
    (R,) or (R, K) saying whether a joker fee can be paid.

    The union of ``card_modes`` over the modes (a test checks it): THREE is a fallback only
    for sections the others cannot reach, so the covered sections are those of a standard
    card held, of a joker whose fee is payable, and every section with three cards in hand.
    """
    standard, joker = card_sections(hand)
    shape = (hand.shape[0],) + (1,) * (fee_ok.ndim - 1)
    return standard.reshape(shape) | np.where(fee_ok, joker.reshape(shape), 0)


def _payment_table() -> np.ndarray:
    """(h, others, cost) -> uint8: bit 0 ``affordable`` (or a stall, cost 0), bit 1
    ``fee_payable``, for every money a seat can hold of a colour (``h``) and of the others,
    and every cost: the two rules above as one table, so that ``build_cover`` reads them in
    one look-up instead of a few dozen small array operations."""
    h, others, cost = np.meshgrid(np.arange(MONEY_PER_COLOUR + 1),
                                  np.arange((NUM_COLOURS - 1) * MONEY_PER_COLOUR + 1),
                                  np.arange(MAX_GROUP_SIZE + 2), indexing="ij")
    payable = (cost == 0) | affordable(h, others, cost)
    return (payable | fee_payable(h, others, cost) << 1).astype(np.uint8)


_PAYMENT = _payment_table()


def build_cover(hand: np.ndarray, money: np.ndarray, colour: np.ndarray, cost: np.ndarray
                ) -> np.ndarray:
    """(R, ...) int32 9-bit sets: the sections where a build can be paid for in cards and
    money: a stall (``cost`` 0) or an expansion of ``colour`` at ``cost`` (both (R,) or
    (R, K)), which must be affordable after the joker fee of its mode (§5.4 precondition 7):
    ``coverage`` with ``fee_payable``, where the build is ``affordable``."""
    payment = _PAYMENT[(*colour_money(money, colour), cost)]
    return coverage(hand, payment > 1) * (payment & 1)


def stall_cover(hand: np.ndarray, money: np.ndarray) -> np.ndarray:
    """(R,) int32 9-bit sets: the sections a stall (new or moved) can be paid for in:
    ``build_cover`` of a build with no cost, whose joker fee any coin pays."""
    return coverage(hand, last_axis_sums(money) >= 1)


def payment_colours(money: np.ndarray, colour: np.ndarray, units: np.ndarray,
                    half: np.ndarray) -> np.ndarray:
    """(R, 6) bool: the D9 masks of §9.2, one coin per decision.

    A coin of the group's colour pays a whole unit; a coin of another colour pays half of a
    2:1 unit, and starts one only if the rest stays payable.

    Args:
        money: (R, 6) the seat's money now.
        colour: (R,) the group's colour c.
        units: (R,) tile units still to pay.
        half: (R,) bool, a 2:1 unit is half paid.
    """
    h, others = colour_money(money, colour)
    own = ~half & (units >= 1) & (h >= 1)
    start_unit = (units >= 1) & (others >= 2) & (h + (others - 2) // 2 >= units - 1)
    substitute = (money >= 1) & (half | start_unit)[:, None]
    return np.where(_COLOURS[None, :] == colour[:, None], own[:, None], substitute)
