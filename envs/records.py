"""Game records: one JSON-lines format for every game, written and replayed by everyone.

    {"record": "tradewinds", "format": 1, "env_id": "cairo", "version": 4, "num_players": 3,
     "options": {...}, "seed": 7, "players": ["player_0: human", "player_1: greedy", ...]}
    {"step": 0, "seat": 1, "decision": "TURN (MAIN)", "action": 52, "name": "DRAW"}
    {"step": 0, "seat": 1, "decision": "DRAW_SOURCE", "action": 236, "name": "DECK",
     "automatic": true}
    ...
    {"end": true, "terminated": true, "truncated": false, "scores": [...], "rewards": [...]}

The first line says which game: env id, VERSION, options and seed (the game is
``make_game(env_id, num_players, **options).init(1, seed)``) and who played each seat. Then one
line per decision in order: the decisions asked (``step`` counts them) and, after each, the
decisions that public information forced and ``step`` applied itself (``"automatic": true``,
same ``step``; those ``init`` applied before the first decision asked have step -1). The
last line holds the outcome. ``agents.play``, the tournament
(``--save-games``) and the soak (for a violation) write it; ``python -m envs.replay FILE``
prints it; ``load`` reads one and returns the state at any step.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.game import Game
from envs.core.registry import make_game
from envs.core.state import BatchState

FORMAT = 1


@dataclasses.dataclass
class Move:
    """One decision of a game, asked or automatic."""

    step: int  # the asked decision it belongs to (automatic ones share the step they follow)
    seat: int
    decision: str
    action: int
    name: str
    automatic: bool = False

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if not self.automatic:
            del out["automatic"]
        return out


class Recorder:
    """Records one game of a batch (row ``row``) as it is played.

    Call ``before(state)`` before each ``game.step`` and ``after(state, action)`` after it;
    ``finish(state)`` at the end; ``lines()`` gives the record.
    """

    def __init__(self, game: Game, seed: int, players: Sequence[str], row: int = 0):
        self.game, self.row = game, row
        self.header = {"record": "tradewinds", "format": FORMAT, "env_id": game.ENV_ID,
                       "version": game.VERSION, "num_players": game.num_players,
                       "options": game.options, "seed": int(seed),
                       "players": [f"player_{s}: {name}" for s, name in enumerate(players)]}
        self.moves: list[Move] = []
        self.end: dict[str, Any] | None = None
        self._asked: tuple[int, str] | None = None
        self._steps = 0

    def start(self, state: BatchState) -> None:
        """Note the decisions ``init`` applied before the first one asked (step -1)."""
        self._automatic(state, step=-1)

    def before(self, state: BatchState) -> None:
        row = self.row
        self._asked = None if state.done[row] else (int(state.current_player[row]),
                                                    self.game.decision_name(state, row))

    def after(self, state: BatchState, action: int) -> None:
        if self._asked is None:
            return
        seat, decision = self._asked
        self.moves.append(Move(self._steps, seat, decision, int(action),
                               self.game.action_name(int(action))))
        self._automatic(state, self._steps)
        self._steps += 1
        if state.done[self.row]:
            self.finish(state)

    def finish(self, state: BatchState) -> None:
        """The outcome line (once the game is over; again replaces it)."""
        row = self.row
        self.end = {"end": True, "terminated": bool(state.terminated[row]),
                    "truncated": bool(state.truncated[row]),
                    "scores": self.game.scores(state)[row].tolist()}
        if state.done[row]:
            self.end["rewards"] = state.rewards[row].tolist()

    def _automatic(self, state: BatchState, step: int) -> None:
        for seat, phase, action in self.game.step_record(state).automatic_of(self.row):
            self.moves.append(Move(step, seat, self.game.phase_name(phase), action,
                                   self.game.action_name(action), automatic=True))

    def lines(self) -> list[str]:
        rows = [self.header, *(m.to_json() for m in self.moves)]
        if self.end is not None:
            rows.append(self.end)
        return [json.dumps(r) for r in rows]

    def write(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(self.lines()) + "\n")
        return path


@dataclasses.dataclass
class GameRecord:
    """A record read back: its header, moves and outcome, and the game it belongs to."""

    header: dict[str, Any]
    moves: list[Move]
    end: dict[str, Any] | None
    game: Game
    broken: str | None = None  # where a record cut off mid-write stopped being whole

    @property
    def num_steps(self) -> int:
        """Decisions asked in the record."""
        return sum(not m.automatic for m in self.moves)

    def asked(self) -> list[Move]:
        return [m for m in self.moves if not m.automatic]

    def states(self):
        """``(step, state)`` before each asked decision, then the final one: the game played
        again from its seed, each step checked against the record (the automatic decisions
        that follow it included)."""
        game = self.game
        state = game.init(1, seed=int(self.header["seed"]))
        self._check_automatic(state, -1)
        for k, move in enumerate(self.asked()):
            yield k, state.copy()
            seat, decision = int(state.current_player[0]), game.decision_name(state, 0)
            if (seat, decision) != (move.seat, move.decision):
                raise ValueError(f"record step {k}: the game asks seat {seat} {decision!r}, "
                                 f"the record says seat {move.seat} {move.decision!r}")
            state = game.step(state, np.array([move.action]))
            self._check_automatic(state, k)
        yield self.num_steps, state

    def state_at(self, step: int) -> BatchState:
        """The state before asked decision ``step`` (``num_steps``: the final state)."""
        if not 0 <= step <= self.num_steps:
            raise ValueError(f"step {step} is not in 0..{self.num_steps}")
        for k, state in self.states():
            if k == step:
                return state
        raise AssertionError("unreachable")

    def _check_automatic(self, state: BatchState, step: int) -> None:
        done = [(s, self.game.phase_name(p), a)
                for s, p, a in self.game.step_record(state).automatic_of(0)]
        recorded = [(m.seat, m.decision, m.action) for m in self.moves
                    if m.automatic and m.step == step]
        # A record cut off (no outcome line) may stop inside the automatic decisions of its
        # last step: those it holds must still be the game's.
        cut = self.end is None and step == self.num_steps - 1
        if done != recorded and not (cut and done[:len(recorded)] == recorded):
            raise ValueError(f"record step {step}: the game applied the automatic decisions "
                             f"{done}, the record lists {recorded}")


def load(path: str | Path) -> GameRecord:
    """Read a record and make its game.

    A record whose last line is not whole JSON (the writer stopped mid-line: a crash, a full
    disk) is read up to its last whole line, and ``broken`` says which file and line broke.

    Raises:
        ValueError: not a Tradewinds record, a line before the last that is not JSON, an
            unknown env id, or a record of another VERSION of the game than the one
            installed (its actions would mean other things).
    """
    texts = [(number, line) for number, line in
             enumerate(Path(path).read_text().splitlines(), 1) if line.strip()]
    lines, broken = [], None
    for k, (number, text) in enumerate(texts):
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError as err:
            where = f"{path}, line {number}, column {err.colno}"
            if k < len(texts) - 1:
                raise ValueError(f"{where}: not a JSON line ({err.msg})") from None
            broken = (f"{where}: the record breaks off ({err.msg}; cut off while being "
                      f"written?); replaying it up to line {number - 1}")
    if not lines or not isinstance(lines[0], dict) or lines[0].get("record") != "tradewinds":
        raise ValueError(f"{path}: not a Tradewinds game record")
    header = lines[0]
    if header.get("format") != FORMAT:
        raise ValueError(f"{path}: record format {header.get('format')}, this version reads "
                         f"format {FORMAT}")
    game = make_game(header["env_id"], header["num_players"], **header["options"])
    if header["version"] != game.VERSION:
        raise ValueError(f"{path}: a record of {header['env_id']} v{header['version']}, but "
                         f"the installed game is v{game.VERSION}: its actions and decisions "
                         "differ; replay it with the version that wrote it")
    moves = [Move(**line) for line in lines[1:] if "step" in line]
    end = next((line for line in lines[1:] if line.get("end")), None)
    return GameRecord(header, moves, end, game, broken)
