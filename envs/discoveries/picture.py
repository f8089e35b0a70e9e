"""A picture of one Age of Discoveries game (``DiscoveriesGame.draw``): the market, the
contracts and the twelve expeditions on the left, a panel per seat on the right.

A ship card is a tile in its colour with its TV (and price in the offer row); a reservation
marker is a dark tab with its owner's seat number; a scoring card is a white tile with F (First)
or E (Final). An expedition is a row: its card colour, its TV used of the limit, the
established colour, then its ships in placement order as discs of their (declared) colour
with the owner's seat number (a square ring: a flagship, a dot: a Joker). A seat's panel
shows its coins, VP, completed contracts, Jokers and Reservations, its hand (card names for
itself, the others' hidden cards as a count), its idle ships, its flagship (face down to the
others until used), its voyages with their timers, and its task (to itself, and to everyone
once the game is over). With ``seat=p`` nothing p cannot see is drawn (§6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.draw import INK, Canvas, contrast, seat_title
from envs.core.names import seat_name
from envs.discoveries.data import (
    CONTRACT_COLOUR,
    CONTRACT_NAMES,
    CONTRACT_TV,
    EXP_COLOUR,
    EXP_LIMIT,
    EXPEDITION_NAMES,
    FINAL_CARD,
    FIRST_CARD,
    FLAG_COLOURS,
    NUM_CONTRACTS,
    PILE_END,
    PILE_START,
    TASK_NAMES,
    TYPE_COLOUR,
    TYPE_PRICE,
    TYPE_TV,
)
from envs.discoveries.render import FLAG_WHERE, ships_text
from envs.discoveries.rules.queries import voyage_timers
from envs.discoveries.state import PLAYED, DiscoveriesState

if TYPE_CHECKING:
    from envs.discoveries.game import DiscoveriesGame

# red, yellow, blue, green, white, black (data.COLOUR_NAMES)
RGB = [(200, 52, 44), (236, 196, 48), (48, 96, 186), (76, 166, 84), (236, 236, 230),
       (40, 40, 44)]
MARGIN, LEFT_WIDTH, PANEL = 20, 600, 470
CARD_W, CARD_H = 52, 34
SEA, GREY, RED = (206, 222, 232), (110, 100, 90), (150, 30, 30)
LEGEND = "ship: a disc of its colour with its owner's seat and its TV; square ring: a " \
    "flagship; dot: a Joker; R<n>: reserved by seat n; F / E: the First / Final Scoring card"


def draw(game: DiscoveriesGame, state: DiscoveriesState, index: int = 0,
         seat: int | None = None) -> np.ndarray:
    """(H, W, 3) uint8 picture of game ``index``, as ``seat`` sees it (None: everything)."""
    r = int(index)
    height = max(640, MARGIN * 2 + 170 * game.num_players + 40)
    canvas = Canvas(MARGIN * 3 + LEFT_WIDTH + PANEL, height)
    over = bool(state.done[r])
    if over:
        status = "game over" + (" (truncated at the cap)" if state.truncated[r] else "")
    else:
        status = (f"{seat_name(int(state.current_player[r]))} to act: "
                  f"{game.decision_name(state, r)}")
    view = "" if seat is None else f"  [view of {seat_name(seat)}]"
    canvas.text((MARGIN, 6), f"Age of Discoveries, turn {int(state.turn[r])}, {status}{view}",
                size=15)
    y = _market(canvas, state, r, seat, MARGIN, 34)
    y = _contracts(canvas, state, r, seat, MARGIN, y + 8)
    _expeditions(canvas, state, r, MARGIN, y + 8)
    left = MARGIN * 2 + LEFT_WIDTH
    y = MARGIN + 14
    for p in range(game.num_players):
        y = _seat_panel(canvas, state, r, p, seat, over, left, y)
    canvas.text((MARGIN, height - 22), LEGEND, size=11, fill=GREY)
    return canvas.array()


def _tile(canvas: Canvas, x: float, y: float, colour: int, text: str, owner: int = -1,
          width: int = CARD_W) -> None:
    fill = RGB[colour] if colour >= 0 else (250, 250, 250)
    canvas.rect((x, y, x + width - 4, y + CARD_H), fill=fill, outline=INK, radius=4)
    canvas.text((x + (width - 4) / 2, y + CARD_H / 2), text, fill=contrast(fill), size=12,
                anchor="mm")
    if owner >= 0:  # a reservation marker
        canvas.rect((x + width - 18, y - 6, x + width - 2, y + 8), fill=INK)
        canvas.text((x + width - 10, y + 1), f"R{owner}", fill=(250, 250, 250), size=9,
                    anchor="mm")


def _ship_card(card: int) -> tuple[int, str]:
    if card == FIRST_CARD:
        return -1, "F"
    if card == FINAL_CARD:
        return -1, "E"
    return int(TYPE_COLOUR[card]), str(int(TYPE_TV[card]))


def _market(canvas: Canvas, state: DiscoveriesState, r: int, seat: int | None, x: int,
            y: int) -> int:
    owner = state.res_owner[r]
    for label, cards, first in (("refill", state.refill[r], 5), ("offer", state.offer[r], 0)):
        canvas.text((x, y + 10), label, size=12)
        for i, card in enumerate(cards.tolist()):
            cx = x + 56 + i * CARD_W
            if card < 0:
                canvas.rect((cx, y, cx + CARD_W - 4, y + CARD_H), outline=GREY, radius=4)
                continue
            colour, text = _ship_card(card)
            if label == "offer" and colour >= 0:
                text += f" ({int(TYPE_PRICE[card])}c)"
            _tile(canvas, cx, y, colour, text, int(owner[first + i]))
        y += CARD_H + 10
    pos = int(state.pile_pos[r])
    sizes = [max(0, int(e) - max(pos, int(s))) for s, e in zip(PILE_START, PILE_END,
                                                              strict=True)]
    text = "piles (cards left): " + "  ".join(f"{k + 1}: {n}" for k, n in enumerate(sizes))
    canvas.text((x + 340, y - 2 * (CARD_H + 10) + 4), text, size=11)
    first = ("First Scoring in pile 3" if state.first_reveal[r] < 0 else
             "First Scoring " + ("done" if state.first_done[r] else
                                 f"revealed in turn {int(state.first_reveal[r])}"))
    final = ("Final Scoring in pile 5" if state.final_reveal[r] < 0 else
             f"Final Scoring revealed in turn {int(state.final_reveal[r])}")
    canvas.text((x + 340, y - 2 * (CARD_H + 10) + 22), first, size=11)
    canvas.text((x + 340, y - 2 * (CARD_H + 10) + 38), final, size=11)
    if seat is None:  # the order of the piles, hidden from every seat
        left = state.piles[r, pos:].tolist()
        names = " ".join(_ship_card(c)[1] if c >= FIRST_CARD else
                         f"{'RYBGWK'[TYPE_COLOUR[c]]}{TYPE_TV[c]}" for c in left)
        canvas.text((x + 340, y - 2 * (CARD_H + 10) + 54), names[:60], size=9, fill=GREY)
    return y


def _contracts(canvas: Canvas, state: DiscoveriesState, r: int, seat: int | None, x: int,
               y: int) -> int:
    canvas.text((x, y + 10), "contracts", size=12)
    owner = state.res_owner[r]
    for j, card in enumerate(state.display[r].tolist()):
        cx = x + 70 + j * (CARD_W + 8)
        if card < 0:
            canvas.rect((cx, y, cx + CARD_W + 4, y + CARD_H), outline=GREY, radius=4)
            continue
        _tile(canvas, cx, y, int(CONTRACT_COLOUR[card]), f"TV {int(CONTRACT_TV[card])}",
              int(owner[10 + j]), width=CARD_W + 8)
    deck = NUM_CONTRACTS - int(state.deck_pos[r])
    canvas.text((x + 330, y + 10), f"deck: {deck} cards", size=12)
    if seat is None:
        cards = " ".join(CONTRACT_NAMES[c] for c in state.contracts[r, int(state.deck_pos[r]):])
        canvas.text((x + 330, y + 26), cards[:48], size=9, fill=GREY)
    return y + CARD_H + 4


def _expeditions(canvas: Canvas, state: DiscoveriesState, r: int, x: int, y: int) -> None:
    canvas.text((x, y), "expeditions: card colour, TV used/limit, established colour, ships",
                size=12)
    y += 18
    for e, name in enumerate(EXPEDITION_NAMES):
        row_y = y + e * 31
        canvas.rect((x, row_y, x + LEFT_WIDTH, row_y + 28), fill=SEA)
        canvas.rect((x + 2, row_y + 4, x + 20, row_y + 24), fill=RGB[EXP_COLOUR[e]],
                    outline=INK)
        canvas.text((x + 26, row_y + 8), f"{name[:20]}", size=11)
        canvas.text((x + 172, row_y + 8), f"{int(state.exp_used[r, e])}/{int(EXP_LIMIT[e])}",
                    size=11)
        established = int(state.exp_colour_set[r, e])
        if established >= 0:
            canvas.circle((x + 214, row_y + 14), 6, fill=RGB[established], outline=INK)
        for k in range(int(state.exp_size[r, e])):
            cx, cy = x + 240 + k * 44, row_y + 14
            colour = RGB[int(state.exp_colour[r, e, k])]
            if state.exp_flag[r, e, k]:
                canvas.rect((cx - 13, cy - 13, cx + 13, cy + 13), outline=INK, width=2)
            canvas.circle((cx, cy), 11, fill=colour, outline=INK)
            canvas.text((cx, cy), f"{int(state.exp_owner[r, e, k])}", fill=contrast(colour),
                        size=11, anchor="mm")
            canvas.text((cx + 15, cy - 4), str(int(state.exp_tv[r, e, k])), size=9)
            if state.exp_joker[r, e, k]:
                canvas.circle((cx + 16, cy + 8), 3, fill=INK)


def _seat_panel(canvas: Canvas, state: DiscoveriesState, r: int, p: int, seat: int | None,
                over: bool, left: int, y: int) -> int:
    sees = seat is None or seat == p
    acting = not over and int(state.current_player[r]) == p
    canvas.text((left, y), seat_title(state, r, p, seat), size=14, fill=RED if acting else INK)
    vp = int(state.vp_first[r, p]) + int(state.vp_final[r, p])
    canvas.text((left + 170, y + 2), f"{int(state.coins[r, p])} coins, {vp} VP, "
                f"{int(state.completed[r, p])} completed, Jokers {int(state.jokers[r, p])}, "
                f"Res. {int(state.reserves[r, p])}", size=11)
    y += 20
    cards = list(zip(state.hand[r, p].tolist(), state.hand_public[r, p].tolist(), strict=True))
    shown = sorted(c for c, public in cards if c >= 0 and (public or sees))
    hidden = sum(1 for c, public in cards if c >= 0 and not public)
    x = left
    for card in shown:
        _tile(canvas, x, y, int(CONTRACT_COLOUR[card]), f"TV {int(CONTRACT_TV[card])}")
        x += CARD_W
    if not sees and hidden:
        canvas.text((x + 4, y + 10), f"+ {hidden} hidden", size=11)
    elif not shown:
        canvas.text((x, y + 10), "no contracts", size=11)
    y += CARD_H + 6
    x = left
    for t in np.flatnonzero(state.idle[r, p]).tolist():
        colour = RGB[int(TYPE_COLOUR[t])]
        canvas.rect((x, y, x + 34, y + 20), fill=colour, outline=INK, radius=3)
        count = int(state.idle[r, p, t])
        canvas.text((x + 17, y + 10), f"{int(TYPE_TV[t])}" + (f"x{count}" if count > 1 else ""),
                    fill=contrast(colour), size=11, anchor="mm")
        x += 38
    if x == left:
        canvas.text((left, y + 4), "no idle ships", size=11)
    y += 26
    where = FLAG_WHERE[int(state.flag_where[r, p])]
    if state.flag_revealed[r, p] or sees:
        a, b = FLAG_COLOURS[int(state.flag_id[r, p])].tolist()
        canvas.rect((left, y, left + 17, y + 16), fill=RGB[a], outline=INK)
        canvas.rect((left + 17, y, left + 34, y + 16), fill=RGB[b], outline=INK)
        face = "" if state.flag_revealed[r, p] else " (face down)"
        canvas.text((left + 40, y + 2), f"flagship{face}, {where}", size=11)
    else:
        canvas.text((left, y + 2), "flagship face down, idle", size=11)
    if sees or over:
        canvas.text((left + 250, y + 2), f"task {TASK_NAMES[int(state.task[r, p])]}", size=11)
    y += 20
    timers = voyage_timers(state)[r]
    active = np.flatnonzero((state.con_owner[r] == p) & (state.con_state[r] == PLAYED.ACTIVE))
    for c in active.tolist():
        flag = int(state.con_flag_tv[r, c])
        canvas.text((left, y), f"voyage {CONTRACT_NAMES[c]} d{int(state.con_duration[r, c])}, "
                    f"back in {int(timers[c])}, pays {int(state.con_revenue[r, c])}: "
                    f"{ships_text(state.con_ships[r, c])}" + (" + flagship" if flag else ""),
                    size=10)
        y += 14
    return y + 16
