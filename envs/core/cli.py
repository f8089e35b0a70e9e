"""The command-line convention every command shares (argparse pieces, no game logic).

* ``--env``: an env id (a comma list where the command loops over games: throughput);
* ``--players``: one int where a command plays one player count (default: the game's
  ``DEFAULT_PLAYERS``), a comma list where it loops (default: every supported count);
* ``--progress/--no-progress``, and ``--out`` for what a command writes.

Bad values end in ``parser.error`` (a usage line and the precise reason, exit status 2),
never in a traceback.
"""

from __future__ import annotations

import argparse

from envs.core.registry import game_class, list_envs


def add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                        help="show progress bars (default: on)")


def env_ids(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """The env ids of a comma list; an unknown one is a usage error naming the valid ids."""
    ids = [e for e in text.split(",") if e]
    if not ids:
        parser.error(f"--env needs an env id; valid: {', '.join(list_envs())}")
    for env_id in ids:
        try:
            game_class(env_id)
        except ValueError as err:
            parser.error(str(err))
    return ids


def positive_ints(parser: argparse.ArgumentParser, flag: str, text: str) -> list[int]:
    """The positive ints of a comma list (``--batch-sizes 1,64``)."""
    values = []
    for item in (t for t in text.split(",") if t):
        try:
            value = int(item)
        except ValueError:
            parser.error(f"{flag}: {item!r} is not an integer")
        if value < 1:
            parser.error(f"{flag}: {value} is not a positive integer")
        values.append(value)
    if not values:
        parser.error(f"{flag} needs at least one value")
    return values


def player_counts(parser: argparse.ArgumentParser, env_id: str, text: str) -> list[int]:
    """A comma list of player counts of ``env_id`` (empty: every supported count)."""
    counts = game_class(env_id).PLAYER_COUNTS
    if not text:
        return list(counts)
    wanted = positive_ints(parser, "--players", text)
    for p in wanted:
        if p not in counts:
            parser.error(f"{env_id} supports {', '.join(map(str, counts))} players, not {p}")
    return wanted


def player_count(parser: argparse.ArgumentParser, env_id: str, value: int | None) -> int:
    """One player count of ``env_id`` (None: its ``DEFAULT_PLAYERS``)."""
    cls = game_class(env_id)
    if value is None:
        return cls.DEFAULT_PLAYERS
    if value not in cls.PLAYER_COUNTS:
        parser.error(f"{env_id} supports {', '.join(map(str, cls.PLAYER_COUNTS))} players, "
                     f"not {value}")
    return value
