"""Text rendering of one Kairo game and the names of its decisions.

Board legend (each cell is five characters: three of content, two for a customer):

* ``R0`` main stall (colour letter upper case, owner seat or ``n`` for neutral);
* ``r0`` expansion; ``+r0`` entrance of that owner's red stall;
* ``.4`` empty market cell of section 4; ``~6`` empty restaurant cell of section 6;
* ``@g`` after the content: the green customer stands on the cell.

The same legend, and one for the cards and the seats' lines, ends every render (``LEGEND``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.cairo.data import (
    CARD_TYPE_NAMES,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    HEIGHT,
    MARKET,
    MEDAL_VP,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_COLOURS,
    SECTION,
    WIDTH,
)
from envs.cairo.state import CairoState, Phase, Stage, Verb
from envs.core.names import seat_name

if TYPE_CHECKING:
    from envs.cairo.game import CairoGame


LEGEND = (
    "  legend: R0 = main stall of player_0 (colour letters r y g b w p = red yellow green "
    "blue white purple; n = neutral), r0 = its expansion, +r0 = an entrance of that stall, "
    ".4 = empty market cell of section 4, ~6 = empty restaurant cell, @g = the green customer "
    "stands here | cards: S4 = stall card of section 4, J0-J2 = joker of a row of sections "
    "(J0: 0 1 2), J3-J5 = of a column (J3: 0 3 6), xN = N copies, -- = an empty display slot "
    "| money r1 = one red coin | trays = the units in each colour's tray | groups r3 = a red "
    "stall group of 3 cells | unplaced = colours of stalls not yet on the board | known = "
    "cards of the hand the others have seen | VP 14 (final 27) = victory points now, and "
    "with the final scoring (medals, one VP per 3 coins) were the game to end now")


def _owner_mark(owner: int) -> str:
    return "n" if owner == NEUTRAL else str(owner)


def _cell_text(state: CairoState, row: int, k: int, mains: set[int]) -> str:
    tile, entrance = int(state.tile[row, k]), int(state.entrance[row, k])
    if tile >= 0:
        letter = COLOUR_LETTERS[tile % NUM_COLOURS]
        content = (letter.upper() if k in mains else letter) + _owner_mark(tile // NUM_COLOURS)
        content = " " + content
    elif entrance >= 0:
        content = "+" + COLOUR_LETTERS[entrance % NUM_COLOURS] + _owner_mark(
            entrance // NUM_COLOURS)
    else:
        content = (" ." if MARKET[k] else " ~") + str(int(SECTION[k]))
    here = np.flatnonzero(state.customer[row] == k)
    return content + (f"@{COLOUR_LETTERS[here[0]]}" if here.size else "  ")


def board_text(state: CairoState, row: int) -> str:
    """The 14 × 13 grid of one game, north up, with coordinates."""
    mains = {int(k) for k in state.stall_cell[row].ravel() if k >= 0}
    lines = ["y\\x " + "".join(f"{x:^5}" for x in range(WIDTH))]
    for y in range(HEIGHT):
        cells = "".join(_cell_text(state, row, WIDTH * y + x, mains) for x in range(WIDTH))
        lines.append(f"{y:>3} {cells}")
    return "\n".join(lines)


def _cards(counts: np.ndarray) -> str:
    return " ".join(f"{CARD_TYPE_NAMES[t]}x{int(n)}" for t, n in enumerate(counts) if n) or "-"


def decision_name(state: CairoState, row: int) -> str:
    """The decision asked in one row, with its context, e.g. ``PAYMENT (red, 2 units left)``."""
    phase = Phase(int(state.phase[row]))
    verb = Verb(int(state.verb[row]))
    colour = int(state.colour[row])
    parts = []
    if verb != Verb.NONE:
        parts.append(verb.name + (f" {COLOUR_NAMES[colour]}" if colour >= 0 else ""))
    target = int(state.target[row])
    if target >= 0:
        parts.append(f"cell ({target % WIDTH},{target // WIDTH})")
    if phase == Phase.THREE_PICK:
        parts.append(f"{int(state.picks_left[row])} picks left")
    if phase == Phase.PAYMENT:
        half = ", half a 2:1 unit paid" if state.pay_half[row] else ""
        parts.append(f"{int(state.pay_units[row])} units left{half}")
    if phase == Phase.DRAW_SOURCE:
        parts.append(f"{int(state.draws_left[row])} draws left")
    if phase == Phase.TURN:
        parts.append(Stage(int(state.stage[row])).name)
    return phase.name + (f" ({', '.join(parts)})" if parts else "")


def render(game: CairoGame, state: CairoState, index: int = 0, seat: int | None = None) -> str:
    """A readable text view of game ``index``: the board, the public information and the
    hands; ``seat``'s view shows only its own hand (the others' sizes and the cards known
    from the display) and, when money is hidden (``reveal_money=False``), only its own money.
    ``seat=None`` shows everything."""
    row = index
    viewer = seat
    players = game.num_players
    stage = Stage(int(state.stage[row])).name
    status = "terminated" if state.terminated[row] else "truncated" if state.truncated[
        row] else f"{seat_name(int(state.current_player[row]))} to act: {decision_name(state, row)}"
    lines = [f"Kairo {players}p, stage {stage}, turn {int(state.turn[row])}, {status}",
             board_text(state, row)]
    off = np.flatnonzero(state.customer[row] < 0)
    display = " ".join(CARD_TYPE_NAMES[c] if c >= 0 else "--" for c in state.display[row])
    lines.append(
        f"off-board customer: {COLOUR_NAMES[off[0]] if off.size else '-'} | display: {display}"
        f" | draw pile {int(state.deck_size[row])} | discard: {_cards(state.discard[row])}"
    )
    lines.append(
        "supply " + " ".join(f"{COLOUR_LETTERS[c]}{int(state.supply[row, c])}"
                             for c in range(NUM_COLOURS))
        + " | trays " + " ".join(f"{COLOUR_LETTERS[c]}{int(v)}" for c, v in
                                 enumerate(MONEY_PER_COLOUR - state.money[row].sum(axis=0)))
        + f" | barker supply {7 - int(state.barkers[row].sum())}"
    )
    scores = game.scores(state.take(row))[0]
    if viewer is not None:
        lines[0] += f" | view of {seat_name(viewer)}"
    for seat in range(players):
        sees = viewer is None or viewer == seat
        money = " ".join(f"{COLOUR_LETTERS[c]}{int(state.money[row, seat, c])}"
                         for c in range(NUM_COLOURS))
        if not (sees or game.options["reveal_money"]):
            money = "hidden"
        hand = (_cards(state.hand[row, seat]) if sees
                else f"{int(state.hand[row, seat].sum())} cards")
        groups = " ".join(f"{COLOUR_LETTERS[c]}{int(state.group_size[row, seat, c])}"
                          for c in range(NUM_COLOURS) if state.stall_cell[row, seat, c] >= 0)
        unplaced = "".join(COLOUR_LETTERS[c] for c in range(NUM_COLOURS)
                           if state.stall_cell[row, seat, c] < 0)
        medals = " ".join(f"{kind}-{COLOUR_NAMES[c]}" for c in range(NUM_COLOURS)
                          for kind, k in (("gold", 0), ("silver", 1))
                          if state.medal[row, c, k] == seat)
        flags = " (dropped out)" if state.dropped[row, seat] else ""
        lines.append(
            f"{seat_name(seat)}{flags}: VP {int(state.vp[row, seat])} "
            f"(final {int(scores[seat])}) | "
            f"money {money} | barkers {int(state.barkers[row, seat])} | hand "
            f"{hand} (known {_cards(state.known[row, seat])}) | "
            f"groups {groups or '-'} | unplaced {unplaced or '-'} | medals {medals or '-'}"
        )
    if players == 2:
        neutral = " ".join(f"{COLOUR_LETTERS[c]}" for c in range(NUM_COLOURS)
                           if state.neutral_bag[row, c])
        lines.append(f"neutral stalls in the bag: {neutral or '-'}")
    lines.append(f"medal VP: gold {MEDAL_VP[0]}, silver {MEDAL_VP[1]}")
    lines.append(LEGEND)
    return "\n".join(lines)


# What each decision asks and what each action block means there, for a human at the table
# (``python -m agents.play``'s ``?``); after the rules spec's §4.2 and §9.1 tables.
DECISION_HELP = {
    "PLACE_COLOUR": "setup: choose the colour of one of your stalls to place (NEW_<colour>); "
                    "its cell and entrance direction are asked next",
    "STALL_CELL": "choose the cell of the stall tile being placed (setup, a neutral stall, a "
                  "new or a moved stall)",
    "STALL_DIR": "choose the direction the stall's entrance faces",
    "TURN": "the main action of your turn: build (NEW, EXPAND or MOVE a stall of a colour), "
            "LURE a customer, DRAW cards (main phase) or PASS (final phase)",
    "EXPAND_CELL": "choose the cell your stall group expands into",
    "CARD_MODE": "pay the build in cards: the stall card of the target's section, a joker "
                 "(plus a 1-coin fee), or THREE cards (only when neither of the others can "
                 "be used)",
    "THREE_PICK": "three-card mode: choose the next of the three cards to give up",
    "FEE_COLOUR": "choose the colour of the coin paid as the joker's fee",
    "PAYMENT": "pay the expansion's cost one coin at a time: a coin of the group's colour pays "
               "one tile, two coins of other colours pay one (2:1)",
    "LURE_TARGET": "choose the entrance the customer walks to (barkers let it skip nearer "
                   "entrances)",
    "DRAW_SOURCE": "a draw action takes two cards: choose where this one comes from",
    "DISCARD": "more than 4 stall cards in hand: choose a card to discard",
}
ACTION_HELP = {
    "NEW": "NEW_<colour>: place a new stall of that colour (in setup: the colour to place)",
    "EXPAND": "EXPAND_<colour>: grow your stall group of that colour by a tile",
    "MOVE": "MOVE_<colour>: move your stall of that colour",
    "LURE": "LURE_<colour>: lure the customer of that colour to one of your entrances",
    "DRAW": "DRAW: take two cards (display, deck or barker supply)",
    "PASS": "PASS: end your turn without acting (final phase only)",
    "CELL": "CELL_x_y: the board cell in column x, row y (the render's x and y)",
    "DIR": "DIR_N, DIR_E, DIR_S, DIR_W: the entrance faces north (up), east, south or west",
    "CARD": "CARD_S<k>: stall card of section k; CARD_J<j>: joker j (J0-J2 a row of "
            "sections, J3-J5 a column)",
    "THREE": "THREE: pay with three cards",
    "COLOUR": "COLOUR_<colour>: a coin of that colour",
    "DISPLAY": "DISPLAY_<i>: the face-up card in display slot i",
    "DECK": "DECK: the top card of the draw pile",
    "BARKER": "BARKER: a market barker card from the supply",
}
