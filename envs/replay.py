"""Replay a saved game record (``envs.records``) position by position.

    python -m envs.replay FILE                 # every position and the move made from it
    python -m envs.replay FILE --step 40       # the position before decision 40 only
    python -m envs.replay FILE --seat 1        # what seat 1 saw (its own view)

In a terminal it stops after each position: Enter shows the next one, ``q`` stops. Piped or
redirected (``| less``, ``> game.txt``), or with ``--all``, it prints every position at once.
The game is played again from the record's seed; each decision is checked against the
record, so a record that does not replay (another game, a changed rule) stops with the step
where it parts. A record cut off while being written (a crash) is replayed up to its last
whole line, and the file and line where it broke are named.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from envs.records import load


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, interactive: bool | None = None) -> int:
    """Run the command; ``interactive`` (default: stdin and stdout are terminals) steps
    through the positions, reading Enter or ``q`` from ``stdin``."""
    parser = argparse.ArgumentParser(prog="python -m envs.replay",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a game record (.jsonl)")
    parser.add_argument("--step", type=int, default=None,
                        help="show only the position before this decision (0-based; the "
                             "number of decisions: the final position)")
    parser.add_argument("--seat", type=int, default=None,
                        help="show the positions as this seat saw them (default: everything)")
    parser.add_argument("--all", action="store_true",
                        help="print every position at once, also in a terminal")
    args = parser.parse_args(argv)
    out, source = stdout or sys.stdout, stdin or sys.stdin
    if interactive is None:
        interactive = source.isatty() and out.isatty()
    interactive = interactive and not args.all
    try:
        record = load(args.file)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    game = record.game
    if args.seat is not None and not 0 <= args.seat < game.num_players:
        parser.error(f"--seat must be in 0..{game.num_players - 1}")
    if record.broken:
        print(f"warning: {record.broken}", file=sys.stderr)
    header = record.header
    print(f"{header['env_id']} v{header['version']}, {header['num_players']} players, seed "
          f"{header['seed']}, options {header['options']}; {', '.join(header['players'])}",
          file=out)
    asked = record.asked()
    try:
        if args.step is not None:
            print(game.render(record.state_at(args.step), 0, seat=args.seat), file=out)
            return 0
        for auto in (m for m in record.moves if m.automatic and m.step < 0):
            print(f"    automatic at the start: player_{auto.seat} {auto.decision}: "
                  f"{auto.name}", file=out)
        for k, state in record.states():
            print(f"\n--- position {k} of {len(asked)}", file=out)
            print(game.render(state, 0, seat=args.seat), file=out)
            if k < len(asked):
                move = asked[k]
                print(f">>> player_{move.seat} {move.decision}: {move.name}", file=out)
                for auto in (m for m in record.moves if m.automatic and m.step == k):
                    print(f"    automatic: player_{auto.seat} {auto.decision}: {auto.name}",
                          file=out)
                if interactive:
                    print("[Enter: next position, q: quit] ", end="", file=out, flush=True)
                    answer = source.readline()
                    if not answer or answer.strip().lower() in ("q", "quit"):
                        return 0
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if record.end is not None:
        print(f"\nscores {record.end['scores']}"
              + (f", rewards {record.end['rewards']}" if "rewards" in record.end else ""),
              file=out)
    else:
        print(f"\nthe record ends after {len(asked)} decisions, without an outcome (a game "
              "stopped early or cut off)", file=out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:  # Ctrl-C while stepping: the user is done
        sys.exit(130)
