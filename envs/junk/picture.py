"""A picture of one Dschunke game (``JunkGame.draw``): the round, the five junks and a panel
per seat.

Top: the round's market card (each good's price, S = a special card instead of money; a
sold good crossed out), the two helper tracks (one space per round: L1/L2 load 1 or 2
strips, M money, G goods; S and Y the events of the lower track; the space of this round
framed, a used helper greyed) and the market deck. The junks, in ring order: the hold seen
from above (each of the 3 x 3 cells in the colour of the seat whose crate shows there, by
the cell model of §2.3; the strips of the top layer outlined, rows on even layers, columns
on odd ones), beside it the layers from the top down (three slots each, in their owners'
colours), the visible crates per seat, the goods stack, and the merchant standing on it
(a disc: L load, M money, G goods; ? while the merchants lie face down). Then the special
card piles, and each seat's panel: money, hand, strips, supply, face-up and face-down
cards, the bid of this bidding round, the last reveal.

``seat=p`` draws only what seat p may know, as the text render does (``render.py``): the
others' hands and face-down cards as counts, a pending bid as "committed", the piles as p
last left them, the market deck as a count; the options' hidden money and stacks as the
table sees them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.draw import INK, Canvas, contrast, seat_title
from envs.core.names import seat_name
from envs.junk.data import (
    EVENT_S,
    EVENT_Y,
    EVENTS,
    GOODS_NAMES,
    GOODS_OF_JUNK,
    HELPER_TRACK,
    JUNK_NAMES,
    KIND_NAMES,
    MARKET_CARDS,
    MERCHANT_NAMES,
    NUM_JUNKS,
    NUM_PILES,
    NUM_ROUNDS,
    PILE_NAMES,
    SLOTS,
    SUPPLY_CARDS,
    SUPPLY_PLUS,
)
from envs.junk.render import card_list, last_reveal_text, seat_texts, status_text
from envs.junk.rules import hold
from envs.junk.state import PHASE, JunkState

if TYPE_CHECKING:
    from envs.junk.game import JunkGame

WIDTH, HEIGHT = 1160, 720
MARGIN = 16
JUNK_W = (WIDTH - 2 * MARGIN) // NUM_JUNKS
CELL = 36
SEAT_RGB = [(200, 52, 44), (48, 96, 186), (76, 166, 84), (226, 178, 30)]
JUNK_RGB = [(150, 150, 150), (232, 140, 40), (128, 70, 150), (130, 88, 52), (236, 234, 226)]
EMPTY_CELL, WOOD, MUTED = (214, 204, 182), (168, 128, 86), (110, 100, 90)
HIGHLIGHT = (150, 30, 30)
LAYERS_SHOWN = 7
LEGEND = (
    "hold: the 3 x 3 cells from above, each in the colour of the seat whose crate shows "
    "there; outlined: the top layer's strips; beside it the layers from the top, L0 at the "
    "bottom",
    "figures: merchant disc L load, M money, G goods (? face down; grey: used) | tracks: L1/L2 "
    "load 1/2 strips, M money, G goods, S special card event, Y money announced | prices: "
    "S = special card",
    "F R S V: goods FISH RICE SPICE VEG | vis: visible crates per seat | piles: cards left "
    "(contents in the full view, as last left in a seat's view)",
)


def draw(game: JunkGame, state: JunkState, index: int = 0, seat: int | None = None
         ) -> np.ndarray:
    """(H, W, 3) uint8 picture of game ``index``, as ``seat`` sees it (None: everything)."""
    canvas = Canvas(WIDTH, HEIGHT)
    i = index
    _title(canvas, game, state, i, seat)
    _market_and_tracks(canvas, game, state, i, seat)
    for j in range(NUM_JUNKS):
        _junk(canvas, game, state, i, seat, j, MARGIN + j * JUNK_W, 150)
    _piles(canvas, state, i, seat, 400)
    _seats(canvas, game, state, i, seat, 466)
    for k, line in enumerate(LEGEND):
        canvas.text((MARGIN, HEIGHT - 52 + 15 * k), line, size=11, fill=MUTED)
    return canvas.array()


def _title(canvas: Canvas, game: JunkGame, state: JunkState, i: int, seat: int | None) -> None:
    n, rnd = game.num_players, int(state.round[i])
    view = "full view" if seat is None else f"view of {seat_name(seat)}"
    when = f"round {rnd} of {NUM_ROUNDS}" if rnd else "variable setup"
    start = seat_name(max(rnd - 1, 0) % n)
    canvas.text((MARGIN, 10), f"Dschunke, {n} players, {view}: {when}, start player {start}, "
                f"{status_text(state, i)}", size=16)


def _market_and_tracks(canvas: Canvas, game: JunkGame, state: JunkState, i: int,
                       seat: int | None) -> None:
    rnd, y = int(state.round[i]), 40
    canvas.text((MARGIN, y), "market card", size=12)
    if rnd:
        card = int(state.market_order[i, rnd - 1])
        canvas.text((MARGIN, y + 16), f"no. {card + 1}", size=11, fill=MUTED)
        for g in range(len(GOODS_NAMES)):
            x = MARGIN + 80 + g * 62
            junk = int(np.flatnonzero(g == GOODS_OF_JUNK)[0])
            colour = JUNK_RGB[junk]
            canvas.rect((x, y, x + 56, y + 44), fill=colour, outline=INK, radius=5)
            price = int(MARKET_CARDS[card, g])
            ink = contrast(colour)
            canvas.text((x + 28, y + 12), GOODS_NAMES[g], fill=ink, size=11, anchor="mm")
            canvas.text((x + 28, y + 30), "S" if price == 0 else str(price), fill=ink,
                        size=16, anchor="mm")
            if state.sold[i, g]:
                canvas.line([(x + 4, y + 40), (x + 52, y + 4)], fill=HIGHLIGHT, width=3)
                canvas.text((x + 28, y + 52), "sold", fill=HIGHLIGHT, size=10, anchor="mm")
    left = MARGIN + 340
    helpers = game.num_players - 2
    for h in range(helpers):
        ty = y + h * 44
        canvas.text((left, ty + 4), f"{('lower', 'upper')[h]} helper", size=11)
        for r in range(NUM_ROUNDS):
            x = left + 84 + r * 42
            kind, size = (int(v) for v in HELPER_TRACK[h, r])
            here = r + 1 == rnd
            used = here and bool(state.fig_used[i, 3 + h])
            fill = (250, 236, 200) if here else (232, 224, 206)
            canvas.rect((x, ty, x + 38, ty + 22), fill=fill, outline=HIGHLIGHT if here else
                        MUTED, width=3 if here else 1, radius=3)
            label = KIND_NAMES[kind][0] + (str(size) if size else "")
            canvas.text((x + 19, ty + 11), label, fill=MUTED if used else INK, size=12,
                        anchor="mm")
            if h == 0 and EVENTS[r]:
                event = {EVENT_S: "S", EVENT_Y: "Y"}[int(EVENTS[r])]
                canvas.text((x + 19, ty + 30), event, fill=HIGHLIGHT, size=11, anchor="mm")
            if h == 1 or helpers == 1:
                canvas.text((x + 19, ty + (44 if helpers == 1 else 30)), str(r + 1),
                            fill=MUTED, size=10, anchor="mm")
        if rnd and state.fig_used[i, 3 + h]:
            canvas.text((left + 84 + NUM_ROUNDS * 42 + 4, ty + 4), "used", fill=MUTED, size=11)
    deck = state.market_order[i, rnd:]
    text = (f"market deck: {', '.join(str(int(c) + 1) for c in deck)}" if seat is None
            else f"market deck: {_count(deck.size, 'card')}")
    canvas.text((left, y + 90), text if deck.size else "market deck: empty", size=11,
                fill=MUTED)


def _junk(canvas: Canvas, game: JunkGame, state: JunkState, i: int, seat: int | None,
          j: int, left: int, top: int) -> None:
    n = game.num_players
    colour = JUNK_RGB[j]
    # the hull, the junk's name on it
    hull = [(left + 4, top + 26), (left + JUNK_W - 8, top + 26), (left + JUNK_W - 24, top + 44),
            (left + 20, top + 44)]
    canvas.polygon(hull, fill=colour, outline=INK)
    canvas.text((left + JUNK_W / 2 - 6, top + 35), JUNK_NAMES[j], fill=contrast(colour),
                size=12, anchor="mm")
    _merchant(canvas, state, i, seat, j, left + JUNK_W - 30, top + 12)
    # the stack
    g = int(GOODS_OF_JUNK[j])
    if g < 0:
        stack = "any good (no stack)"
    else:
        count = int(state.stack[i, g])
        shown = str(count) if seat is None or not game.hide_stacks else (
            "empty" if count == 0 else "stocked")
        stack = f"{GOODS_NAMES[g]} stack {shown}"
    canvas.text((left + 4, top + 4), stack, size=12)
    # the hold from above
    height = int(state.height[i, j])
    x0, y0 = left + 8, top + 54
    owners = hold.cell_owners(state.cargo[i, j], height)
    canvas.rect((x0 - 4, y0 - 4, x0 + SLOTS * CELL + 4, y0 + SLOTS * CELL + 4), fill=WOOD,
                outline=INK, radius=3)
    for r in range(SLOTS):
        for c in range(SLOTS):
            owner = int(owners[r, c])
            fill = SEAT_RGB[owner] if owner >= 0 else EMPTY_CELL
            box = (x0 + c * CELL + 1, y0 + r * CELL + 1, x0 + (c + 1) * CELL - 1,
                   y0 + (r + 1) * CELL - 1)
            canvas.rect(box, fill=fill)
            if owner >= 0:
                canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(owner),
                            fill=contrast(fill), size=11, anchor="mm")
    if height >= 0:  # the strips of the top layer, outlined
        for s, owner in enumerate(state.cargo[i, j, height].tolist()):
            if owner < 0:
                continue
            if height % 2 == 0:
                box = (x0, y0 + s * CELL, x0 + SLOTS * CELL, y0 + (s + 1) * CELL)
            else:
                box = (x0 + s * CELL, y0, x0 + (s + 1) * CELL, y0 + SLOTS * CELL)
            canvas.rect(box, outline=INK, width=2, radius=2)
    layers = _count(height + 1, "layer") if height >= 0 else "empty hold"
    canvas.text((x0, y0 + SLOTS * CELL + 10), layers, size=11)
    # the layers from the top down
    lx = x0 + SLOTS * CELL + 16
    canvas.text((lx, y0 - 6), "layers", size=10, fill=MUTED)
    shown = list(range(height, max(height - LAYERS_SHOWN, -1), -1))
    for row, k in enumerate(shown):
        ly = y0 + 8 + row * 15
        canvas.text((lx, ly + 6), f"L{k}", size=10, fill=MUTED, anchor="lm")
        for s, owner in enumerate(state.cargo[i, j, k].tolist()):
            bx = lx + 24 + s * 16
            canvas.rect((bx, ly, bx + 14, ly + 12), fill=SEAT_RGB[owner] if owner >= 0
                        else EMPTY_CELL, outline=MUTED)
        canvas.text((lx + 24 + 3 * 16 + 2, ly + 6), "-" if k % 2 == 0 else "|", size=10,
                    fill=MUTED, anchor="lm")
    if height + 1 > LAYERS_SHOWN:
        canvas.text((lx, y0 + 8 + LAYERS_SHOWN * 15), f"+{height + 1 - LAYERS_SHOWN} below",
                    size=10, fill=MUTED)
    # visible crates per seat
    vy = y0 + SLOTS * CELL + 28
    canvas.text((x0, vy), "vis", size=11)
    for s in range(n):
        vx = x0 + 28 + s * 34
        canvas.rect((vx, vy - 1, vx + 28, vy + 15), fill=SEAT_RGB[s], radius=3)
        canvas.text((vx + 14, vy + 7), str(int(state.vis[i, j, s])),
                    fill=contrast(SEAT_RGB[s]), size=11, anchor="mm")


def _merchant(canvas: Canvas, state: JunkState, i: int, seat: int | None, j: int, x: int,
              y: int) -> None:
    where = np.flatnonzero(state.merchant_junk[i] == j)
    if not where.size:
        return
    k = int(where[0])
    used = bool(state.fig_used[i, k])
    face_down = bool(state.merchants_hidden[i]) and seat is not None
    label = "?" if face_down else MERCHANT_NAMES[k][0]
    fill = (190, 184, 172) if used else (252, 250, 244)
    canvas.circle((x, y), 11, fill=fill, outline=INK, width=2)
    # A used figure reads by its grey disc; its letter stays dark enough to read (4.5:1).
    canvas.text((x, y), label, fill=(70, 64, 58) if used else INK, size=13, anchor="mm")


def _piles(canvas: Canvas, state: JunkState, i: int, seat: int | None, top: int) -> None:
    canvas.text((MARGIN, top), "special cards", size=12)
    picking = (int(state.phase[i]) == PHASE.SPECIAL_PICK and not state.done[i]
               and (seat is None or int(state.current_player[i]) == seat))
    for q in range(NUM_PILES):
        x = MARGIN + 110 + q * 262
        size = int(state.pile_size[i, q])
        canvas.rect((x, top, x + 34, top + 44), fill=(90, 70, 110), outline=INK, radius=4)
        canvas.text((x + 17, top + 22), str(size), fill=(250, 250, 250), size=15,
                    anchor="mm")
        canvas.text((x + 40, top), f"{PILE_NAMES[q]} pile", size=11)
        if seat is None or (picking and int(state.pick_pile[i]) == q):
            lines = _wrap(card_list(state.pile_cards[i, q]), 36)
            head = "searching: " if picking and int(state.pick_pile[i]) == q else ""
        elif state.searched[i, seat, q]:
            lines = _wrap(card_list(state.seen[i, seat, q]), 36)
            head = "as you left it: "
        else:
            lines, head = [], "never searched by you"
        for k, line in enumerate(([head] if head else []) + lines[:3]):
            canvas.text((x + 40, top + 14 + 12 * k), line, size=10, fill=MUTED)


def _seats(canvas: Canvas, game: JunkGame, state: JunkState, i: int, seat: int | None,
           top: int) -> None:
    n = game.num_players
    width = (WIDTH - 2 * MARGIN) // n
    score = game.scores(state.take(i))[0]
    for s in range(n):
        x = MARGIN + s * width
        own = seat is None or s == seat
        acting = not state.done[i] and int(state.current_player[i]) == s
        canvas.rect((x, top, x + width - 8, top + 136), fill=(238, 230, 212),
                    outline=HIGHLIGHT if acting else MUTED, width=3 if acting else 1, radius=6)
        canvas.rect((x + 8, top + 8, x + 24, top + 24), fill=SEAT_RGB[s], radius=3)
        canvas.text((x + 30, top + 8), seat_title(state, i, s, seat), size=13,
                    fill=HIGHLIGHT if acting else INK)
        text = seat_texts(game, state, i, s, own)
        money = text["money"]
        if seat is None or state.done[i]:
            money += f", score {int(score[s])}"
        supply = SUPPLY_CARDS + int(state.always[i, s, SUPPLY_PLUS])
        lines = [money, f"hand {text['hand']}",
                 f"strips {int(state.strips[i, s])} left, supply {supply}",
                 *_wrap(f"face up: {text['face_up']}", 44)[:2],
                 *_wrap(f"face down: {text['face_down']}", 44)[:2],
                 f"bid {text['bid']}" + (", EXTRA card used" if state.extra_used[i, s] else "")]
        for k, line in enumerate(lines):
            canvas.text((x + 10, top + 30 + 14 * k), line, size=11)
    canvas.text((MARGIN, top + 144), last_reveal_text(state, i, n), size=12)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most about ``width`` characters, broken after commas."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
