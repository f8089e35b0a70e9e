"""Replay a saved game record (``envs.records``) position by position.

    python -m envs.replay FILE                 # every position and the move made from it
    python -m envs.replay FILE --step 40       # the position before decision 40 only
    python -m envs.replay FILE --seat 1        # what seat 1 saw (its own view)

The game is played again from the record's seed; each decision is checked against the
record, so a record that does not replay (another game, a changed rule) stops with the step
where it parts.
"""

from __future__ import annotations

import argparse
import os
import sys

from envs.records import load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.replay",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a game record (.jsonl)")
    parser.add_argument("--step", type=int, default=None,
                        help="show only the position before this decision (0-based; the "
                             "number of decisions: the final position)")
    parser.add_argument("--seat", type=int, default=None,
                        help="show the positions as this seat saw them (default: everything)")
    args = parser.parse_args(argv)
    try:
        record = load(args.file)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    game = record.game
    if args.seat is not None and not 0 <= args.seat < game.num_players:
        parser.error(f"--seat must be in 0..{game.num_players - 1}")
    header = record.header
    print(f"{header['env_id']} v{header['version']}, {header['num_players']} players, seed "
          f"{header['seed']}, options {header['options']}; {', '.join(header['players'])}")
    asked = record.asked()
    try:
        if args.step is not None:
            print(game.render(record.state_at(args.step), 0, seat=args.seat))
            return 0
        for auto in (m for m in record.moves if m.automatic and m.step < 0):
            print(f"    automatic at the start: player_{auto.seat} {auto.decision}: {auto.name}")
        for k, state in record.states():
            print(f"\n--- position {k}")
            print(game.render(state, 0, seat=args.seat))
            if k < len(asked):
                move = asked[k]
                print(f">>> player_{move.seat} {move.decision}: {move.name}")
                for auto in (m for m in record.moves if m.automatic and m.step == k):
                    print(f"    automatic: player_{auto.seat} {auto.decision}: {auto.name}")
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if record.end is not None:
        print(f"\nscores {record.end['scores']}"
              + (f", rewards {record.end['rewards']}" if "rewards" in record.end else ""))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
