"""Save a picture of a board as a PNG file (the game's ``draw``, ``render_mode="rgb_array"``).

    python -m envs.picture --record runs/games/cairo_3p_seed7.jsonl --out final.png
    python -m envs.picture --record GAME.jsonl --step 120 --seat 0 --out seat0.png
    python -m envs.picture --env cairo --seed 11 --steps 150 --out midgame.png

From a game record (``envs.records``), at a step (default: the end) and as a seat saw it
(default: everything); or from a fresh game of ``--env`` played ``--steps`` decisions by
uniform random legal moves (numpy ``default_rng(--seed)``). A band under the board names
who played each seat (from a record: its agents) and, once the game is over, the winner and
the ranking.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import envs
from envs.core import cli
from envs.core.draw import caption, places, save_png
from envs.core.sampling import sample_actions
from envs.records import load


def who_is_who(state, players: list[str]) -> list[str]:
    """The band's lines: who plays each seat, and the winner and the ranking once the game
    of row 0 is over."""
    lines = ["seats: " + ", ".join(f"player_{s} = {name}" for s, name in enumerate(players))]
    place = places(state, 0)
    if place is not None:
        order = sorted(range(len(players)), key=lambda s: place[s])
        winners = [f"player_{s} ({players[s]})" for s in order if place[s] == 1]
        lines.append(("winners (tied): " if len(winners) > 1 else "winner: ")
                     + " and ".join(winners) + " | ranking: "
                     + ", ".join(f"{place[s]}. player_{s}" for s in order))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.picture",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", help="a game record (.jsonl) to draw a position of")
    source.add_argument("--env", help="draw a fresh game of this env id instead")
    parser.add_argument("--step", type=int, default=None,
                        help="with --record: the position before this decision (default: "
                             "the end)")
    parser.add_argument("--players", type=int, default=None,
                        help="with --env: seats (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0, help="with --env: the game's seed")
    parser.add_argument("--steps", type=int, default=0,
                        help="with --env: random legal decisions played first (default: 0)")
    parser.add_argument("--seat", type=int, default=None,
                        help="draw what this seat sees (default: everything)")
    parser.add_argument("--out", required=True, help="the PNG file to write")
    args = parser.parse_args(argv)
    if args.record:
        try:
            record = load(args.record)
            game = record.game
            state = record.state_at(record.num_steps if args.step is None else args.step)
        except (OSError, ValueError) as err:
            parser.error(str(err))
        players = [entry.partition(": ")[2] for entry in record.header["players"]]
    else:
        env_id = cli.env_ids(parser, args.env)[0]
        game = envs.make_game(env_id, cli.player_count(parser, env_id, args.players))
        state = game.init(1, seed=args.seed)
        generator = np.random.default_rng(args.seed)
        for _ in range(max(args.steps, 0)):
            if state.done[0]:
                break
            state = game.step(state, sample_actions(game.legal_action_mask(state), generator))
        players = ["random moves"] * game.num_players
    if args.seat is not None and not 0 <= args.seat < game.num_players:
        parser.error(f"--seat must be in 0..{game.num_players - 1}")
    picture = caption(game.draw(state, 0, seat=args.seat), who_is_who(state, players))
    path = save_png(picture, args.out)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
