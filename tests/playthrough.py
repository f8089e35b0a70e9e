"""Golden playthroughs: a fixed-seed game of any registered env written as readable text.

Each line of a playthrough is one of:

* the header: env id, VERSION, players, seed and policy;
* a decision asked: ``step seat DECISION | legal: names | -> chosen``;
* an automatic decision: ``     auto seat S DECISION -> ACTION`` (forced by public
  information and applied inside ``step``, design.md);
* ``     rewards [...]`` on the step that pays them, and ``     revealed to seats [...]``
  for a step that showed hidden information;
* a rendered board (the full view), every ``BOARD_EVERY`` decisions and at the end, each of
  its lines behind ``BOARD_MARK``.

Everything but the boards is the *trace*: a change there is a change of the rules or of the
encoding, which needs a VERSION bump; a change of the boards alone is a change of the render.
"""

from __future__ import annotations

import numpy as np

import envs

SEED = 2024
BOARD_EVERY = 50
MAX_LISTED = 16
BOARD_MARK = "  | "


def playthrough(env_id: str, players: int) -> str:
    """The golden text of ``env_id`` at ``players`` seats (module doc)."""
    game = envs.make_game(env_id, players)
    state = game.init(1, seed=SEED)
    policy = np.random.default_rng(players)
    lines = [f"# {env_id} v{game.VERSION}, {players} players, seed {SEED}, policy: uniform "
             f"legal (numpy default_rng({players}))"]
    lines += _automatic(game, state)
    for step in range(game.max_decisions + 1):
        if state.done[0]:
            break
        if step % BOARD_EVERY == 0:
            lines += _board(game, state)
        legal = np.flatnonzero(game.legal_action_mask(state)[0])
        names = [game.action_name(int(a)) for a in legal]
        listed = " ".join(names[:MAX_LISTED]) + (
            f" ... ({len(names)})" if len(names) > MAX_LISTED else "")
        action = int(policy.choice(legal))
        lines.append(f"{step:4d} seat {int(state.current_player[0])} "
                     f"{game.decision_name(state, 0)} | legal: {listed} | -> "
                     f"{game.action_name(action)}")
        state = game.step(state, np.array([action]))
        lines += _automatic(game, state)
        if state.rewards[0].any():
            lines.append(f"     rewards {state.rewards[0].tolist()}")
    else:
        raise AssertionError(f"{env_id}: the playthrough ran past max_decisions")
    lines += _board(game, state)
    lines.append(f"scores {game.scores(state)[0].tolist()}")
    return "\n".join(lines) + "\n"


def _automatic(game, state) -> list[str]:
    record = game.step_record(state)
    lines = [f"     auto seat {seat} {game.phase_name(phase)} -> {game.action_name(action)}"
             for seat, phase, action in record.automatic_of(0)]
    seats = np.flatnonzero(record.revealed[0]).tolist()
    if seats:
        lines.append(f"     revealed to seats {seats}")
    return lines


def _board(game, state) -> list[str]:
    return [BOARD_MARK + line for line in game.render(state, 0).splitlines()]


def trace(text: str) -> list[str]:
    """The lines of a playthrough that are not boards."""
    return [line for line in text.splitlines() if not line.startswith(BOARD_MARK)]


def version_of(text: str) -> int:
    """The VERSION in a playthrough's header."""
    header = text.splitlines()[0]
    return int(header.split(" v", 1)[1].split(",", 1)[0])
