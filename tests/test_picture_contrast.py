"""Pictures read well: WCAG contrast of every text and of cairo's entrances, seats named,
the winner marked, and a record's agents named by ``python -m envs.picture``."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs import picture, records
from envs.core import draw
from envs.core.draw import (
    GRAPHIC_CONTRAST,
    INK,
    LIGHT_INK,
    TEXT_CONTRAST,
    contrast,
    contrast_ratio,
    edge,
)
from envs.core.registry import game_class
from envs.core.sampling import sample_actions

pytest.importorskip("PIL")

GAMES = ["cairo", "batavia", "discoveries", "junk"]


def test_contrast_ratio_is_wcag_s():
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((90, 90, 90), (90, 90, 90)) == 1.0
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    # The ink chosen for a fill is the one that reads better on it.
    assert contrast((236, 196, 48)) == INK and contrast((48, 96, 186)) == LIGHT_INK


@pytest.fixture()
def texts(monkeypatch) -> list[tuple[str, float, tuple]]:
    """Every text drawn on a canvas, with its contrast against the colour most of its box
    had before it was drawn (its background)."""
    seen = []
    text = draw.Canvas.text

    def recording(self, xy, words, fill=INK, size=12, anchor="la"):
        box = self._draw.textbbox(xy, words, font=self.font(size), anchor=anchor)
        crop = self.image.crop(box)
        # At most one colour per pixel: a table that small is quick to count.
        colours = crop.getcolors(max(crop.width * crop.height, 1)) if words.strip() else None
        if colours:
            background = max(colours)[1]
            seen.append((words, contrast_ratio(fill, background), background))
        text(self, xy, words, fill=fill, size=size, anchor=anchor)

    monkeypatch.setattr(draw.Canvas, "text", recording)
    return seen


def _positions(env_id: str, num_players: int):
    """The start, a position after 60 random decisions, and the end of one game."""
    game = envs.make_game(env_id, num_players)
    state = game.init(1, seed=5)
    generator = np.random.default_rng(0)
    for k in range(game.max_decisions):
        if k in (0, 60):
            yield game, state.copy()
        if state.done[0]:
            break
        state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
    yield game, state


@pytest.mark.parametrize(("env_id", "num_players"), [
    (e, p) for e in GAMES for p in game_class(e).PLAYER_COUNTS])
def test_every_text_of_a_picture_has_aa_contrast_and_the_winner_is_marked(
        env_id, num_players, texts):
    for game, state in _positions(env_id, num_players):
        for seat in (None, 0):
            game.draw(state, 0, seat=seat)
    low = {(words, round(ratio, 2), background) for words, ratio, background in texts
           if ratio < TEXT_CONTRAST}
    assert not low, f"texts under {TEXT_CONTRAST}:1 against their background: {low}"
    # The final position names each seat with its place, the winners first.
    assert state.done[0]
    winners = np.flatnonzero(state.rewards[0] == state.rewards[0].max())
    headings = [words for words, _, _ in texts[-len(texts) // 2:]]  # the seat=0 picture
    for seat in range(num_players):
        mark = "- winner" if seat in winners else " place"
        assert any(w.startswith(f"player_{seat}") and mark in w for w in headings), (seat, mark)


@pytest.mark.parametrize("ground", ["SAND", "TERRACOTTA"])
def test_every_cairo_entrance_stands_out_from_its_cell(ground):
    from envs.cairo import picture as cairo_picture

    background = getattr(cairo_picture, ground)
    for fill in cairo_picture.RGB:
        rim, width = edge(fill, background)
        if contrast_ratio(fill, background) < GRAPHIC_CONTRAST:
            assert width >= 2 and contrast_ratio(rim, background) >= GRAPHIC_CONTRAST, fill
    white = cairo_picture.COLOURS["white"]
    assert edge(white, cairo_picture.SAND) == (INK, 2)  # the white entrance's dark rim


def test_the_picture_command_names_the_agents_and_the_winner(tmp_path, capsys):
    game = envs.make_game("cairo", 3)
    state = game.init(1, seed=2)
    recorder = records.Recorder(game, 2, ["greedy", "random", "economist"])
    recorder.start(state)
    generator = np.random.default_rng(1)
    while not state.done[0]:
        action = int(sample_actions(game.legal_action_mask(state), generator)[0])
        recorder.before(state)
        state = game.step(state, np.array([action]))
        recorder.after(state, action)
    path = recorder.write(tmp_path / "game.jsonl")
    lines = picture.who_is_who(state, ["greedy", "random", "economist"])
    assert lines[0] == "seats: player_0 = greedy, player_1 = random, player_2 = economist"
    winner = int(np.argmax(state.rewards[0]))
    assert lines[1].startswith(("winner: player_", "winners (tied): player_"))
    assert f"player_{winner} (" in lines[1] and "ranking: 1. player_" in lines[1]
    assert picture.main(["--record", str(path), "--out", str(tmp_path / "end.png")]) == 0
    from PIL import Image

    height = Image.open(tmp_path / "end.png").size[1]
    assert height > game.draw(state, 0).shape[0]  # the band with who is who
    assert picture.who_is_who(game.init(1, seed=2), ["a", "b", "c"]) == [
        "seats: player_0 = a, player_1 = b, player_2 = c"]  # no winner before the end
