"""Play a game in the terminal against agents: scripted baselines, random or trained checkpoints.

    python -m agents.play --env cairo --players 3 --seat 0 --opponents greedy,economist
    python -m agents.play --env cairo --opponents greedy,runs/latest/checkpoints/final.zip

You hold seat ``--seat`` and see only what that seat may know (the game's per-seat view).
When you are to act, the legal actions are listed by number and name, grouped by the first
word of their name; type a number or a name (``?`` for help, ``board`` to show the board
again, ``quit`` to stop). The opponents' moves, and the decisions the rules apply by
themselves, are printed as they happen. At the end (or on ``quit``) the game's record is
saved (``envs.records``; ``python -m envs.replay FILE`` replays it).
"""

from __future__ import annotations

import argparse
import json
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

HELP = ("type the number or the name of a legal action; 'board' shows the board again, "
        "'legal' the actions, '?' this help, 'quit' stops and saves the game")


def legal_listing(game: Game, state: BatchState) -> tuple[str, dict[str, int]]:
    """The legal actions of row 0 as text grouped by the first word of their names, and a
    lookup from every accepted answer (number or lower-case name) to the action."""
    legal = np.flatnonzero(game.legal_action_mask(state)[0]).tolist()
    groups: dict[str, list[str]] = {}
    lookup: dict[str, int] = {}
    for action in legal:
        name = game.action_name(action)
        groups.setdefault(name.split("_", 1)[0], []).append(f"{action:>3} {name}")
        lookup[str(action)] = lookup[name.lower()] = action
    width = max(len(g) for g in groups)
    lines = [f"  {group + ':':<{width + 1}} " + "   ".join(items) for group, items in
             groups.items()]
    return "\n".join(lines), lookup


def ask(game: Game, state: BatchState, seat: int, read: Callable[[], str | None],
        out: TextIO) -> int | None:
    """The human seat's action, asked until the answer is a legal one; None to quit (or at
    the end of the input)."""
    listing, lookup = legal_listing(game, state)
    print(f"\nplayer_{seat}, your decision: {game.decision_name(state, 0)}\n{listing}",
          file=out)
    while True:
        answer = read()
        if answer is None:
            return None
        answer = answer.strip().lower()
        if answer in ("quit", "exit", "q"):
            return None
        if answer in ("?", "help", "h"):
            print(HELP, file=out)
        elif answer == "board":
            print(game.render(state, 0, seat=seat), file=out)
        elif answer == "legal":
            print(listing, file=out)
        elif answer in lookup:
            return lookup[answer]
        elif answer:
            print(f"{answer!r} is not a legal action here ('?' for help)", file=out)


def play(game: Game, seat: int, opponents: dict[int, agents.Agent], names: Sequence[str],
         seed: int, read: Callable[[], str | None], out: TextIO) -> tuple[Recorder, bool]:
    """One game: the human in ``seat``, ``opponents[s]`` in the other seats. Returns the
    record and whether the game was played to its end."""
    state = game.init(1, seed=seed)
    recorder = Recorder(game, seed, names)
    recorder.start(state)
    print(game.render(state, 0, seat=seat), file=out)
    _show_automatic(game, state, out)
    while not state.done[0]:
        actor = int(state.current_player[0])
        decision = game.decision_name(state, 0)
        if actor == seat:
            action = ask(game, state, seat, read, out)
            if action is None:
                recorder.finish(state)
                return recorder, False
        else:
            action = int(opponents[actor].act(game, state, actor)[0])
        recorder.before(state)
        state = game.step(state, np.array([action]))
        recorder.after(state, action)
        if actor != seat:
            print(f"player_{actor} ({names[actor]}) {decision}: {game.action_name(action)}",
                  file=out)
        _show_automatic(game, state, out)
        if not state.done[0] and int(state.current_player[0]) == seat:
            print("\n" + game.render(state, 0, seat=seat), file=out)
    print("\nGame over.\n" + game.render(state, 0), file=out)
    scores = game.scores(state)[0].tolist()
    print("scores: " + ", ".join(f"player_{s} ({names[s]}) {v:g}" for s, v in
                                 enumerate(scores)), file=out)
    return recorder, True


def _show_automatic(game: Game, state: BatchState, out: TextIO) -> None:
    for actor, phase, action in game.step_record(state).automatic_of(0):
        print(f"player_{actor} {game.phase_name(phase)}: {game.action_name(action)} "
              "(automatic: the only legal action)", file=out)


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
          + f"\n({HELP})", file=out)
    recorder, finished = play(game, args.seat, opponents, names, seed, read, out)
    path = recorder.write(Path(args.out) / f"{env_id}_{players}p_seed{seed}.jsonl")
    print(f"{'' if finished else 'Stopped. '}The game's record: {path} "
          f"(python -m envs.replay {path})", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
