"""Play a game in the terminal against agents: scripted baselines, random or trained checkpoints.

    python -m agents.play --env cairo --players 3 --seat 0 --opponents greedy,economist
    python -m agents.play --env cairo --opponents greedy,runs/latest/checkpoints/final.zip

You hold seat ``--seat`` and see only what that seat may know (the game's per-seat view).
When you are to act, the legal actions are listed by number and name, grouped by the block
of the action layout they belong to (cells by row); type a number or a name. ``?`` explains
the decision being asked and every key; ``board`` shows the whole board with its legend,
``legal`` the actions again, ``quit`` (or Ctrl-D, or Ctrl-C) stops. The opponents' moves, and
the decisions the rules apply by themselves, are printed as they happen. Between your
decisions only the lines of the board that changed are shown (``--redraw full``: all of
it). At the end the winner and the ranking are named, and the game's record is saved
(``envs.records``; ``python -m envs.replay FILE`` replays it), also when you stop early.

What the actions mean comes from the game's own tables where it has them
(``DECISION_HELP`` and ``ACTION_HELP`` beside its text renderer); the listing and the answers
come from ``game.action_layout``, ``game.action_name`` and ``game.decision_name`` alone, so
every registered game plays here.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import importlib
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import numpy as np

import agents
import envs
from envs.core import cli
from envs.core.game import Game
from envs.core.state import BatchState
from envs.records import Recorder

KEYS = ("keys: a number or a name picks a legal action (any case); '?' explains this "
        "decision; 'legal' lists the legal actions; 'board' shows the whole board and its "
        "legend; 'quit', Ctrl-D or Ctrl-C stops and saves the game's record")
QUIT = ("quit", "exit", "q")
HELP = ("?", "help", "h")
KEY_WORDS = ("board", "legal", "quit", "help")
BIG_GROUP = 12  # a block with more legal actions than this is listed in sub-groups
GRID_NAME = re.compile(r"^(?P<head>.*)_(?P<x>\d+)_(?P<y>\d+)$")  # CELL_x_y: a board cell


def help_tables(game: Game) -> tuple[dict[str, str], dict[str, str]]:
    """The game's ``DECISION_HELP`` and ``ACTION_HELP`` (decision kind or action block ->
    what it means), from the ``render`` module of its package; empty where it has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.render") if package else None
    except ImportError:
        module = None
    return getattr(module, "DECISION_HELP", {}), getattr(module, "ACTION_HELP", {})


def decision_kind(game: Game, state: BatchState) -> str:
    """The name of the decision row 0 asks (the key of ``DECISION_HELP``)."""
    return game.phase_name(int(state.phase[0]))


def block_of(game: Game, action: int) -> str:
    """The action layout's block that holds ``action``."""
    return next(name for name, block in game.action_layout.ranges.items() if action in block)


@dataclasses.dataclass
class Listing:
    """The legal actions of one decision, as shown and as accepted."""

    legal: list[int]
    names: dict[str, int]  # lower-case name of every action of the game -> action
    text: str


def legal_listing(game: Game, state: BatchState, width: int = 100) -> Listing:
    """The legal actions of row 0 grouped by action block, wrapped at ``width`` between whole
    ``number name`` items; a block with many legal actions is split into sub-groups (board
    cells ``*_x_y`` by row y, other names by all but their last ``_`` part)."""
    legal = np.flatnonzero(game.legal_action_mask(state)[0]).tolist()
    groups: dict[str, list[str]] = {}
    by_block: dict[str, list[int]] = {}
    for action in legal:
        by_block.setdefault(block_of(game, action), []).append(action)
    for block, actions in by_block.items():
        for action in actions:
            name = game.action_name(action)
            label = block
            if len(actions) > BIG_GROUP:
                grid = GRID_NAME.match(name)
                label = (f"{block} row {grid['y']}" if grid else name.rpartition("_")[0]
                         or block)
            groups.setdefault(label, []).append(f"{action} {name}")
    lines = []
    for label, items in groups.items():
        lines += wrap(items, f"  {label}: ", width)
    names = {game.action_name(a).lower(): a for a in range(game.num_actions)}
    return Listing(legal, names, "\n".join(lines))


def wrap(items: Sequence[str], head: str, width: int) -> list[str]:
    """``items`` after ``head``, two spaces apart, broken into lines only between items."""
    indent = " " * min(len(head), 8)
    lines, line = [], head
    for item in items:
        if line.strip() and len(line) + 2 + len(item) > width and line not in (head, indent):
            lines.append(line.rstrip())
            line = indent
        line += ("" if line in (head, indent) else "  ") + item
    return [*lines, line.rstrip()]


def explain(game: Game, state: BatchState, listing: Listing) -> str:
    """What ``?`` prints: the decision asked, what each block of its legal actions means here,
    and the keys."""
    decisions, actions = help_tables(game)
    kind = decision_kind(game, state)
    lines = [f"Decision: {game.decision_name(state, 0)}"
             + (f": {decisions[kind]}" if kind in decisions else "")]
    blocks = dict.fromkeys(block_of(game, a) for a in listing.legal)
    lines.append(f"Legal actions here ({len(listing.legal)}):")
    for block in blocks:
        names = [game.action_name(a) for a in listing.legal if block_of(game, a) == block]
        example = names[0] if len(names) == 1 else f"{names[0]} ... {names[-1]}"
        lines.append(f"  {actions.get(block, block)}  [{len(names)} legal: {example}]")
    lines.append(KEYS)
    return "\n".join(lines)


def answer_problem(game: Game, state: BatchState, answer: str, listing: Listing) -> str:
    """Why ``answer`` picks no legal action: a number out of range, an action that is not
    legal in this decision, or neither an action nor a key; with close legal names offered."""
    legal_names = [game.action_name(a) for a in listing.legal]
    if re.fullmatch(r"[+-]?\d+", answer):
        if not 0 <= int(answer) < game.num_actions:
            return (f"{int(answer)} is out of range: the actions are numbered 0 to "
                    f"{game.num_actions - 1} ('legal' lists the ones you may take now)")
        action = int(answer)
    elif answer in listing.names:
        action = listing.names[answer]
    else:
        close = difflib.get_close_matches(answer, [n.lower() for n in legal_names], n=3,
                                          cutoff=0.6)
        close = close or difflib.get_close_matches(answer, [*listing.names, *KEY_WORDS],
                                                   n=3, cutoff=0.6)
        shown = [game.action_name(listing.names[c]) if c in listing.names else f"'{c}'"
                 for c in close]
        offer = f"; did you mean {' or '.join(shown)}?" if close else ""
        return f"{answer!r} is neither an action nor a key{offer} ('?' for help)"
    name = game.action_name(action)
    same_block = [n for a, n in zip(listing.legal, legal_names, strict=True)
                  if block_of(game, a) == block_of(game, action)]
    close = difflib.get_close_matches(name, same_block or legal_names, n=3, cutoff=0.5)
    offer = f"; legal and close: {', '.join(close)}" if close else ""
    return (f"{action} {name} is not legal in this decision ({game.decision_name(state, 0)})"
            f"{offer} ('legal' lists the legal actions, '?' explains them)")


class Screen:
    """What the human sees: the board in full once, then only its lines that changed (or in
    full every time with ``full``)."""

    def __init__(self, out: TextIO, full: bool):
        self.out, self.full = out, full
        self.shown: list[str] | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def board(self, text: str, force: bool = False) -> None:
        lines = text.splitlines()
        if self.full or force or self.shown is None:
            self.say(text)
        else:
            # Line by line against what was shown last: a changed line is shown again, with
            # the first (who acts, which decision) always.
            old = self.shown
            changed = [line for k, line in enumerate(lines[1:], 1)
                       if k >= len(old) or old[k] != line]
            self.say(lines[0])
            if changed:
                self.say("\n".join(changed) + f"\n  ({len(changed)} of {len(lines)} lines "
                         "changed; 'board' shows the whole board)")
        self.shown = lines


def ask(game: Game, state: BatchState, seat: int, read: Callable[[], str | None],
        screen: Screen) -> int | None:
    """The human seat's action, asked until the answer is a legal one; None to quit (or at
    the end of the input)."""
    listing = legal_listing(game, state, width=screen_width())
    screen.say(f"\nplayer_{seat}, your decision: {game.decision_name(state, 0)}\n"
               f"{listing.text}")
    while True:
        answer = read()
        if answer is None:
            return None
        answer = answer.strip().lower()
        if answer in QUIT:
            return None
        if not answer:
            continue
        if answer in HELP:
            screen.say(explain(game, state, listing))
        elif answer == "board":
            screen.board(game.render(state, 0, seat=seat), force=True)
        elif answer == "legal":
            screen.say(listing.text)
        elif answer.isdigit() and int(answer) in listing.legal:
            return int(answer)
        elif listing.names.get(answer) in listing.legal:
            return listing.names[answer]
        else:
            screen.say(answer_problem(game, state, answer, listing))


def screen_width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))


def ranking(game: Game, state: BatchState, names: Sequence[str]) -> str:
    """The end screen: the winner (or the tied winners) and every seat's place, score and
    reward."""
    rewards = state.rewards[0].astype(float)
    scores = game.scores(state)[0]
    order = sorted(range(game.num_players), key=lambda s: -rewards[s])
    lines = []
    best = [s for s in order if rewards[s] == rewards[order[0]]]
    who = " and ".join(f"player_{s} ({names[s]})" for s in best)
    lines.append(f"Winner{'s (tied)' if len(best) > 1 else ''}: {who}")
    if state.truncated[0]:
        lines.append("(the game reached its length cap and was scored as it stood)")
    lines.append("Ranking (place, seat, score, reward):")
    for s in order:
        place = 1 + sum(rewards[t] > rewards[s] for t in range(game.num_players))
        lines.append(f"  {place}. player_{s} ({names[s]}): score {scores[s]:g}, reward "
                     f"{rewards[s]:+.2f}")
    return "\n".join(lines)


def play(game: Game, seat: int, opponents: dict[int, agents.Agent], names: Sequence[str],
         seed: int, read: Callable[[], str | None], out: TextIO, full: bool = False
         ) -> tuple[Recorder, str]:
    """One game: the human in ``seat``, ``opponents[s]`` in the other seats. Returns the
    record and how it ended: "over", "quit" or "interrupted" (Ctrl-C)."""
    screen = Screen(out, full)
    state = game.init(1, seed=seed)
    recorder = Recorder(game, seed, names)
    recorder.start(state)
    screen.board(game.render(state, 0, seat=seat))
    _show_automatic(game, state, screen)
    stepping = False  # True while game.step changes the state and the record lags behind
    try:
        while not state.done[0]:
            actor = int(state.current_player[0])
            decision = game.decision_name(state, 0)
            if actor == seat:
                screen.board(game.render(state, 0, seat=seat))
                action = ask(game, state, seat, read, screen)
                if action is None:
                    recorder.finish(state)
                    return recorder, "quit"
            else:
                action = int(opponents[actor].act(game, state, actor)[0])
            stepping = True
            recorder.before(state)
            state = game.step(state, np.array([action]))
            recorder.after(state, action)
            stepping = False
            if actor != seat:
                screen.say(f"player_{actor} ({names[actor]}) {decision}: "
                           f"{game.action_name(action)}")
            _show_automatic(game, state, screen)
    except KeyboardInterrupt:
        if not stepping:  # a state caught in the middle of a step is not the record's
            recorder.finish(state)
        screen.say("\nInterrupted (Ctrl-C).")
        return recorder, "interrupted"
    screen.say("\nGame over.")
    screen.board(game.render(state, 0), force=True)
    screen.say(ranking(game, state, names))
    return recorder, "over"


def _show_automatic(game: Game, state: BatchState, screen: Screen) -> None:
    for actor, phase, action in game.step_record(state).automatic_of(0):
        screen.say(f"player_{actor} {game.phase_name(phase)}: {game.action_name(action)} "
                   "(automatic: the only legal action)")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.play",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help=f"env id: {', '.join(envs.list_envs())}")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: the game's default player count)")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    parser.add_argument("--opponents", default="random",
                        help="comma-separated agents for the other seats in turn order "
                             "(names from agents.list_agents or checkpoint paths; the last "
                             "one fills the remaining seats; default: random)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deal (default: from the clock)")
    parser.add_argument("--game-options", default="{}",
                        help="game options as a JSON object, e.g. '{\"reveal_money\": false}'")
    parser.add_argument("--redraw", choices=("changes", "full"), default="changes",
                        help="before each of your decisions show only the board's lines that "
                             "changed (default), or the whole board")
    parser.add_argument("--out", default="runs/games",
                        help="folder for the game's record (default: runs/games)")
    args = parser.parse_args(argv)
    env_id = cli.env_ids(parser, args.env)[0]
    players = cli.player_count(parser, env_id, args.players)
    if not 0 <= args.seat < players:
        parser.error(f"--seat must be in 0..{players - 1}")
    try:
        game = envs.make_game(env_id, players, **json.loads(args.game_options))
    except (ValueError, TypeError) as err:
        parser.error(f"--game-options: {err}")
    seed = int(time.time()) % 1_000_000 if args.seed is None else args.seed
    wanted = [n for n in args.opponents.split(",") if n] or ["random"]
    others = [s for s in range(players) if s != args.seat]
    names = ["human"] * players
    opponents = {}
    for k, other in enumerate(others):
        names[other] = wanted[min(k, len(wanted) - 1)]
        try:
            opponents[other] = agents.make_agent(names[other], env_id, players, seed=seed + k)
        except (ValueError, ImportError) as err:
            parser.error(str(err))
    out = stdout or sys.stdout
    source = stdin or sys.stdin

    def read() -> str | None:
        print("> ", end="", file=out, flush=True)
        line = source.readline()
        return line if line else None

    print(f"{env_id} v{game.VERSION}, {players} players, seed {seed}: you are player_"
          f"{args.seat}; " + ", ".join(f"player_{s} is {names[s]}" for s in others)
          + f"\n({KEYS})", file=out)
    recorder, ending = play(game, args.seat, opponents, names, seed, read, out,
                            full=args.redraw == "full")
    path = recorder.write(Path(args.out) / f"{env_id}_{players}p_seed{seed}.jsonl")
    stopped = {"over": "", "quit": "Stopped. ", "interrupted": "Stopped by Ctrl-C. "}[ending]
    print(f"{stopped}The game's record: {path} (python -m envs.replay {path})", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
