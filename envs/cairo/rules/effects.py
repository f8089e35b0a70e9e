"""The effects of every decision (§5), per row, with the setup (§3), the ends of turns and
placements (§4.1) and the chance steps (shuffles, draws, the neutral bag, reshuffles: R27).

``apply(s, r, action)`` applies a validated action and everything that follows it up to
the next decision: a decision's effect that ends the turn or a placement writes
``StepEnd.TURN_OVER`` or ``StepEnd.PLACED`` as the row's phase, resolved at once by
``_end_step`` (the display refilled, the end trigger, the next seat; or the next placement,
skipping those with no legal option). Chance draws from the row's own counter stream.
"""

from __future__ import annotations

import numpy as np

from envs.cairo.board import NEIGHBOURS
from envs.cairo.data import (
    CARD_ID_TYPE,
    CUSTOMER_STARTS,
    DISPLAY_SLOTS,
    DRAWS_PER_ACTION,
    HAND_LIMIT,
    NEUTRAL,
    NEUTRAL_STEPS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_CUSTOMERS_ON_BOARD,
    NUM_OWNERS,
    NUM_STANDARD_TYPES,
    SETUP_STALLS,
    START_HAND,
    THREE_CARDS,
)
from envs.cairo.rules import cards
from envs.cairo.rules.legal import (
    CARD,
    CELL,
    COLOUR,
    DECK,
    DIR,
    DISPLAY,
    DRAW,
    NEW,
    NUM_ACTIONS,
    PASS,
    THREE,
    legal_draw_source,
    legal_place_colour,
    lure_options,
    stall_options,
)
from envs.cairo.rules.scoring import award_expansion, end_triggered, pay_lure
from envs.cairo.state import ACTIONS, P_AUTO_PAY, P_MAX_TURNS, Phase, Stage, StepEnd, Verb
from envs.core.jit import local_zeros, njit
from envs.core.rng import argsort_into, next_integer, next_permutation, next_word

_NONE = -1


def _turn_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What each D4 action (the actions before ``ACTIONS.PASS.stop``) begins: its verb, its
    colour (-1 for DRAW and PASS) and the decision asked next (PASS: none, the turn ends)."""
    verb = np.full(ACTIONS.PASS.stop, Verb.NONE, dtype=np.int8)
    colour = np.full(ACTIONS.PASS.stop, _NONE, dtype=np.int8)
    phase = np.full(ACTIONS.PASS.stop, Phase.TURN, dtype=np.int8)
    for block, block_verb, block_phase in (
            (ACTIONS.NEW, Verb.NEW, Phase.STALL_CELL),
            (ACTIONS.EXPAND, Verb.EXPAND, Phase.EXPAND_CELL),
            (ACTIONS.MOVE, Verb.MOVE, Phase.STALL_CELL),
            (ACTIONS.LURE, Verb.LURE, Phase.LURE_TARGET)):
        verb[block.start:block.stop] = block_verb
        colour[block.start:block.stop] = np.arange(NUM_COLOURS)
        phase[block.start:block.stop] = block_phase
    verb[ACTIONS.DRAW.start] = Verb.DRAW
    phase[ACTIONS.DRAW.start] = Phase.DRAW_SOURCE
    return verb, colour, phase


_TURN_VERB, _TURN_COLOUR, _TURN_PHASE = _turn_tables()


# ---------------------------------------------------------------- setup (§3)
@njit
def init_row(s, r):
    """A new game: the draw pile shuffled, the customers drawn from the bag onto their
    start cells, the start player drawn, the opening deal, and the first placement."""
    order = local_zeros(NUM_CARDS, np.int64)
    next_permutation(s.rng, r, order)
    for k in range(NUM_CARDS):
        s.deck[r, k] = CARD_ID_TYPE[order[k]]  # bottom first
    bag = local_zeros(NUM_COLOURS, np.int64)
    next_permutation(s.rng, r, bag)  # customer colours in draw order
    players = s.hand.shape[1]
    start = next_integer(s.rng, r, players)
    s.start_player[r] = start
    s.current_player[r] = start
    for k in range(NUM_CUSTOMERS_ON_BOARD):
        s.customer[r, bag[k]] = CUSTOMER_STARTS[k]
    _deal(s, r)
    # The first placement needs no check: the start board offers every colour a place in
    # every section of its area (a test checks it).
    _set_up_placement(s, r)


@njit
def _deal(s, r):
    """The opening deal (§3): the display is filled, then each seat takes START_HAND cards
    in turn order from the start player, all off the top of the full draw pile (nothing is
    discarded yet, so nothing reshuffles)."""
    players = s.hand.shape[1]
    top = NUM_CARDS - 1
    for slot in range(DISPLAY_SLOTS):
        s.display[r, slot] = s.deck[r, top]
        s.deck[r, top] = _NONE
        top -= 1
    for k in range(players):
        seat = (s.start_player[r] + k) % players
        for _ in range(START_HAND):
            s.hand[r, seat, s.deck[r, top]] += 1
            s.deck[r, top] = _NONE
            top -= 1
    s.deck_size[r] = top + 1


@njit
def _set_up_placement(s, r):
    """Set up the row's next placement, or its first turn once every stall is placed;
    whether a placement is pending."""
    players = s.hand.shape[1]
    own_steps = SETUP_STALLS * players
    neutral_steps = NEUTRAL_STEPS if players == 2 else 0
    step = s.placements[r]
    if step >= own_steps + neutral_steps:
        s.stage[r] = Stage.MAIN
        s.current_player[r] = s.start_player[r]
        _start_turn(s, r)
        return False
    own = step < own_steps
    s.stage[r] = Stage.SETUP if own else Stage.NEUTRAL
    s.current_player[r] = (s.start_player[r] + (step if own else step - own_steps)) % players
    s.verb[r] = Verb.PLACE
    s.target[r] = _NONE
    if own:
        s.phase[r] = Phase.PLACE_COLOUR
        s.colour[r] = _NONE
    else:  # chance: draw a neutral stall from the bag (§5.9.2)
        s.phase[r] = Phase.STALL_CELL
        s.revealed[r, :] = True
        s.colour[r] = _choice(s, r, s.neutral_bag[r])
        s.neutral_bag[r, s.colour[r]] = False
    return True


@njit
def _choice(s, r, mask):
    """One index drawn uniformly among the True entries of ``mask``."""
    pick = next_integer(s.rng, r, max(mask.sum(), 1))
    for k in range(mask.shape[0]):
        if mask[k]:
            if pick == 0:
                return k
            pick -= 1
    return _NONE


@njit
def _placement_possible(s, r):
    """The pending placement has a legal option: a colour to place (setup), a cell for the
    neutral stall."""
    mask = local_zeros(NUM_ACTIONS, np.bool_)
    seat = s.current_player[r]
    if s.stage[r] == Stage.SETUP:
        legal_place_colour(s, r, mask, s.hand[r, seat], s.money[r, seat])
        return mask.any()
    options = local_zeros((NUM_CELLS, 4), np.bool_)
    stall_options(s, r, s.hand[r, seat], s.money[r, seat], options)
    return options.any()


# ---------------------------------------------------------------- turns and chance
@njit
def _start_turn(s, r):
    s.phase[r] = Phase.TURN
    s.verb[r] = Verb.NONE
    s.colour[r] = _NONE
    s.target[r] = _NONE
    s.target_entrance[r] = _NONE
    s.picks_left[r] = 0
    s.pay_units[r] = 0
    s.pay_half[r] = False
    s.draws_left[r] = 0


@njit
def _end_turn(s, r):
    """Refill the display, check the end trigger, then the next seat, the end or the cap."""
    players = s.hand.shape[1]
    if s.stage[r] == Stage.MAIN:
        _refill_display(s, r)
        if end_triggered(s.supply[r]):
            s.stage[r] = Stage.FINAL
    s.turn[r] += 1
    nxt = _NONE
    for k in range(players):
        seat = (s.current_player[r] + 1 + k) % players
        if not s.dropped[r, seat]:
            nxt = seat
            break
    if nxt < 0:  # every seat has dropped out of the FINAL stage
        s.terminated[r] = True
        s.stage[r] = Stage.OVER
    elif s.turn[r] >= s.params[P_MAX_TURNS]:
        s.truncated[r] = True
    if s.terminated[r] or s.truncated[r]:
        s.phase[r] = Phase.GAME_OVER
        return
    s.current_player[r] = nxt
    _start_turn(s, r)


@njit
def _refill_display(s, r):
    """Chance (§5.8.3): fill the empty display slots in slot order from the draw pile."""
    for slot in range(DISPLAY_SLOTS):
        if s.display[r, slot] < 0:
            s.revealed[r, :] = True  # cards turned face up
            break
    for slot in range(DISPLAY_SLOTS):
        if s.display[r, slot] < 0:
            s.display[r, slot] = _take_top(s, r)


@njit
def _take_top(s, r):
    """Take the top card of the draw pile, reshuffling per R27; -1 where none is left."""
    if s.deck_size[r] == 0 and s.discard[r].sum() > 0:
        _reshuffle(s, r)
    if s.deck_size[r] == 0:
        return _NONE
    top = s.deck_size[r] - 1
    card = s.deck[r, top]
    s.deck[r, top] = _NONE
    s.deck_size[r] -= 1
    if s.deck_size[r] == 0 and s.discard[r].sum() > 0:
        _reshuffle(s, r)
    return card


@njit
def _reshuffle(s, r):
    """Chance (R27): the discard pile, shuffled, becomes the draw pile: the cards sorted by
    type, in the order of one 64-bit key each (all NUM_CARDS keys drawn)."""
    total = s.discard[r].sum()
    ordered = local_zeros(NUM_CARDS, np.int64)
    ordered[:] = NUM_CARD_TYPES
    k = 0
    for t in range(s.discard.shape[1]):
        for _ in range(s.discard[r, t]):
            ordered[k] = t
            k += 1
    keys = local_zeros(NUM_CARDS, np.uint64)
    for j in range(NUM_CARDS):
        keys[j] = next_word(s.rng, r)
        if j >= total:
            keys[j] = np.uint64(0xFFFFFFFFFFFFFFFF)
    order = local_zeros(NUM_CARDS, np.int64)
    argsort_into(keys, order)
    for j in range(NUM_CARDS):
        s.deck[r, j] = ordered[order[j]] if j < total else _NONE
    s.deck_size[r] = total
    s.discard[r, :] = 0


# ---------------------------------------------------------------- builds (§5.3–§5.6)
@njit
def _play_card(s, r, card):
    """Move one card from the acting seat's hand to the discard pile, face up."""
    seat = s.current_player[r]
    s.hand[r, seat, card] -= 1
    s.known[r, seat, card] = max(s.known[r, seat, card] - 1, 0)
    s.discard[r, card] += 1


@njit
def _place_stall(s, r, owner):
    """Put the pending stall (colour, target, target_entrance) on the board for ``owner``."""
    colour = s.colour[r]
    group = owner * NUM_COLOURS + colour
    s.tile[r, s.target[r]] = group
    s.entrance[r, s.target_entrance[r]] = group
    s.stall_cell[r, owner, colour] = s.target[r]
    s.entrance_cell[r, owner, colour] = s.target_entrance[r]
    s.group_size[r, owner, colour] = 1


@njit
def _finish_build(s, r):
    """Cards (and fee) are paid: place or move the stall, or settle the expansion cost."""
    seat = s.current_player[r]
    colour = s.colour[r]
    if s.verb[r] == Verb.EXPAND:
        _start_payment(s, r)
        return
    if s.verb[r] == Verb.MOVE:
        s.tile[r, s.stall_cell[r, seat, colour]] = _NONE
        s.entrance[r, s.entrance_cell[r, seat, colour]] = _NONE
    _place_stall(s, r, seat)
    s.phase[r] = StepEnd.TURN_OVER


@njit
def _start_payment(s, r):
    """§5.4 payment: pay in full when rich enough in the colour, else start D9 (with
    ``auto_pay``, the colour's coins first, then each substitute coin from the richest
    other colour, lowest index on ties)."""
    seat = s.current_player[r]
    colour = s.colour[r]
    cost = s.group_size[r, seat, colour] + 1
    held = s.money[r, seat, colour]
    if s.params[P_AUTO_PAY]:
        own = min(cost, held)
        s.money[r, seat, colour] -= own
        for _ in range(2 * (cost - own)):
            richest, most = _NONE, -1
            for c in range(NUM_COLOURS):
                if c != colour and s.money[r, seat, c] > most:
                    richest, most = c, s.money[r, seat, c]
            s.money[r, seat, richest] -= 1
        _resolve_expansion(s, r)
    elif held >= cost:
        s.money[r, seat, colour] -= cost
        _resolve_expansion(s, r)
    else:
        s.money[r, seat, colour] -= 1
        s.pay_units[r] = cost - 1
        s.pay_half[r] = False
        s.phase[r] = Phase.PAYMENT


@njit
def _resolve_expansion(s, r):
    """Place the paid expansion, score it and its medals (§5.4 effects, §5.5)."""
    seat = s.current_player[r]
    colour = s.colour[r]
    s.tile[r, s.target[r]] = seat * NUM_COLOURS + colour
    s.group_size[r, seat, colour] += 1
    s.supply[r, colour] -= 1
    award_expansion(s, r, seat, colour)
    s.phase[r] = StepEnd.TURN_OVER


@njit
def _pay_fee(s, r, colour):
    s.money[r, s.current_player[r], colour] -= 1
    _finish_build(s, r)


@njit
def _after_draws(s, r):
    """Hand limit (§5.8.2): discard while more than 4 stall cards, else end the turn."""
    seat = s.current_player[r]
    if s.hand[r, seat].sum() > HAND_LIMIT:
        s.phase[r] = Phase.DISCARD
    else:
        s.phase[r] = StepEnd.TURN_OVER


# ---------------------------------------------------------------- effects by phase
@njit
def apply_place_colour(s, r, action):
    s.colour[r] = action - NEW
    s.phase[r] = Phase.STALL_CELL


@njit
def apply_stall_cell(s, r, action):
    s.target[r] = action - CELL
    s.phase[r] = Phase.STALL_DIR


@njit
def apply_stall_dir(s, r, action):
    s.target_entrance[r] = NEIGHBOURS[s.target[r], action - DIR]
    if s.verb[r] != Verb.PLACE:
        s.phase[r] = Phase.CARD_MODE
        return
    owner = NEUTRAL if s.stage[r] == Stage.NEUTRAL else s.current_player[r]
    _place_stall(s, r, owner)
    s.placements[r] += 1
    s.phase[r] = StepEnd.PLACED


@njit
def apply_turn(s, r, action):
    s.verb[r] = _TURN_VERB[action]
    s.colour[r] = _TURN_COLOUR[action]
    s.phase[r] = _TURN_PHASE[action]
    if action == DRAW:
        s.draws_left[r] = DRAWS_PER_ACTION
    elif action == PASS:
        s.dropped[r, s.current_player[r]] = True
        s.phase[r] = StepEnd.TURN_OVER


@njit
def apply_expand_cell(s, r, action):
    s.target[r] = action - CELL
    s.phase[r] = Phase.CARD_MODE


@njit
def apply_card_mode(s, r, action):
    if action == THREE:
        s.picks_left[r] = THREE_CARDS
        s.phase[r] = Phase.THREE_PICK
        return
    card = action - CARD
    _play_card(s, r, card)
    if card < NUM_STANDARD_TYPES:
        _finish_build(s, r)
        return
    s.phase[r] = Phase.FEE_COLOUR
    if s.params[P_AUTO_PAY]:  # the richest colour that keeps the build payable
        seat = s.current_player[r]
        money = s.money[r, seat]
        cost = s.group_size[r, seat, s.colour[r]] + 1 if s.verb[r] == Verb.EXPAND else 0
        richest, most = 0, -1
        for c in range(NUM_COLOURS):
            value = money[c] if cards.fee_colour_ok(money, s.colour[r], cost, c) else -1
            if value > most:
                richest, most = c, value
        _pay_fee(s, r, richest)


@njit
def apply_three_pick(s, r, action):
    _play_card(s, r, action - CARD)
    s.picks_left[r] -= 1
    if s.picks_left[r] == 0:
        _finish_build(s, r)


@njit
def apply_fee_colour(s, r, action):
    _pay_fee(s, r, action - COLOUR)


@njit
def apply_payment(s, r, action):
    paid = action - COLOUR
    s.money[r, s.current_player[r], paid] -= 1
    completes = paid == s.colour[r] or s.pay_half[r]
    if completes:
        s.pay_units[r] -= 1
    s.pay_half[r] = not completes
    if s.pay_units[r] == 0 and not s.pay_half[r]:
        _resolve_expansion(s, r)


@njit
def apply_lure_target(s, r, action):
    cells = local_zeros(NUM_OWNERS, np.int64)
    legal = local_zeros(NUM_OWNERS, np.bool_)
    cost = local_zeros(NUM_OWNERS, np.int64)
    lure_options(s, r, cells, legal, cost)
    target = action - CELL
    slot = 0
    while cells[slot] != target:
        slot += 1
    seat = s.current_player[r]
    colour = s.colour[r]
    s.barkers[r, seat] -= cost[slot]
    off_board = 0
    while s.customer[r, off_board] >= 0:
        off_board += 1
    s.customer[r, off_board] = target  # the swap of §5.7 effect 3
    s.customer[r, colour] = _NONE
    pay_lure(s, r, seat, colour, slot)
    s.phase[r] = StepEnd.TURN_OVER


@njit
def apply_draw_source(s, r, action):
    seat = s.current_player[r]
    if action < DISPLAY + DISPLAY_SLOTS:
        card = s.display[r, action - DISPLAY]
        s.hand[r, seat, card] += 1
        s.known[r, seat, card] += 1
        s.display[r, action - DISPLAY] = _NONE
    elif action == DECK:
        s.hand[r, seat, _take_top(s, r)] += 1
        s.revealed[r, seat] = True  # the drawer sees its card
    else:
        s.barkers[r, seat] += 1
    s.draws_left[r] -= 1
    if s.draws_left[r] > 0:
        sources = local_zeros(NUM_ACTIONS, np.bool_)
        legal_draw_source(s, r, sources, s.hand[r, seat], s.money[r, seat])
        if sources.any():
            return
    _after_draws(s, r)


@njit
def apply_discard(s, r, action):
    _play_card(s, r, action - CARD)
    _after_draws(s, r)


@njit
def _end_step(s, r):
    """What a decision leaves for the end of its step: the end of the turn, or the next
    placement (and those after it that have no legal option, skipped)."""
    if s.phase[r] == StepEnd.TURN_OVER:
        _end_turn(s, r)
    elif s.phase[r] == StepEnd.PLACED:
        placing = _set_up_placement(s, r)
        while placing and not _placement_possible(s, r):
            s.placements[r] += 1
            placing = _set_up_placement(s, r)


@njit
def apply(s, r, action):
    """The effect of a validated ``action`` in row ``r``, and all that follows up to the
    next decision (the driver's ``apply``)."""
    phase = s.phase[r]
    if phase == Phase.PLACE_COLOUR:
        apply_place_colour(s, r, action)
    elif phase == Phase.STALL_CELL:
        apply_stall_cell(s, r, action)
    elif phase == Phase.STALL_DIR:
        apply_stall_dir(s, r, action)
    elif phase == Phase.TURN:
        apply_turn(s, r, action)
    elif phase == Phase.EXPAND_CELL:
        apply_expand_cell(s, r, action)
    elif phase == Phase.CARD_MODE:
        apply_card_mode(s, r, action)
    elif phase == Phase.THREE_PICK:
        apply_three_pick(s, r, action)
    elif phase == Phase.FEE_COLOUR:
        apply_fee_colour(s, r, action)
    elif phase == Phase.PAYMENT:
        apply_payment(s, r, action)
    elif phase == Phase.LURE_TARGET:
        apply_lure_target(s, r, action)
    elif phase == Phase.DRAW_SOURCE:
        apply_draw_source(s, r, action)
    elif phase == Phase.DISCARD:
        apply_discard(s, r, action)
    _end_step(s, r)


@njit
def phase(s, r):
    """The decision asked (``Phase``), for the step record."""
    return s.phase[r]
