"""Every command of the README runs as printed, from the root of a copy of the repository.

Each line of the README's ``bash`` blocks is run by bash in a temporary copy of the
repository (so commands that write, such as ``python -m envs.docs``, leave the checkout
alone), with only the exceptions listed in ``CASES``: the setup and ``pytest`` blocks and the
TensorBoard server are skipped; long jobs get small budgets appended (argparse keeps the last
value of an option given twice, so an appended ``--games 1`` overrides a printed
``--games 600``); ``<game>`` is filled from the record ``agents.play`` wrote; interactive
commands are fed their input on stdin. A README line missing from ``CASES``, or a case
whose line left the README, fails the listing test, so the README cannot grow a command
nobody runs.

The chain of the first session (train, play, replay, picture, the notebook), the soaks,
throughput and docs run in the default test run with tiny budgets (about 40 s on 2 idle
cores, most of it the training run); the tournaments, the search-budget benchmark and the
other training variants are ``slow`` (a trained agent and the search agent take tens of
seconds even for a few games), and the default run checks that each of them answers
``--help`` and knows every option the README gives it.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text()

# What a tiny training run needs: a few dozen decisions, a handful of evaluation games.
TRAIN_BUDGET = ("--timesteps 64 --imitate-decisions 64 --eval-games 3 --elo-games 3 "
                "--num-envs 4 --n-steps 16 --batch-size 64 --no-progress")
TRAIN = "python -m train.selfplay --env cairo"
PLAY = "python -m agents.play --env cairo --opponents greedy,runs/latest/checkpoints/final.zip"
RECORD_LINE = re.compile(r"The game's record: (runs/games/(\S+)\.jsonl)")


@dataclasses.dataclass(frozen=True)
class Case:
    """How the test runs one README command."""

    budget: str = ""  # appended to the command
    stdin: str = ""  # fed to the command
    expect: str = ""  # text its output must hold, or "file:PATH" for a file it must write
    slow: bool = False  # only under ``pytest -m slow`` (the default run checks --help)
    skip: str = ""  # why it is not run at all


SETUP = "not run: CI installs the project its own way (.ci/run)"
CASES: dict[str, Case] = {
    "python3 -m venv .venv && . .venv/bin/activate": Case(skip=SETUP),
    "pip install torch --index-url https://download.pytorch.org/whl/cpu": Case(skip=SETUP),
    'pip install -e ".[dev]"': Case(skip=SETUP),
    "pytest": Case(skip="the test run itself"),
    TRAIN: Case(TRAIN_BUDGET, expect="file:runs/latest/checkpoints/final.zip"),
    PLAY: Case(stdin="?\nquit\n", expect="The game's record: runs/games/"),
    "python -m envs.replay runs/games/<game>.jsonl": Case(expect="--- position 0"),
    "python -m envs.picture --record runs/games/<game>.jsonl --out final.png":
        Case(expect="file:final.png"),
    "python -m benchmarks.tournament --env cairo --agents random,greedy,"
    "trained=runs/latest/checkpoints/final.zip --guests ismcts":
        Case("--games 1 --guests ismcts:simulations=1:rollout_depth=0:wave=1 --guest-games 1 "
             "--bootstrap 10 --no-progress", expect="wrote runs/tournaments/cairo_3p_",
             slow=True),
    "python -m benchmarks.throughput --out benchmarks/results":
        Case("--env cairo --players 3 --batch-sizes 1 --threads 1 --seconds 0.01 "
             "--min-batch-steps 1 --no-progress", expect="file:benchmarks/results/throughput.md"),
    "python -m benchmarks.profile --env cairo --part step":  # compiles afresh (minutes)
        Case("--seconds 1 --top 5", expect="share of the samples", slow=True),
    "python -m benchmarks.soak --env cairo --games 10000": Case("--games 1 --batch 1"),
    "python -m benchmarks.soak --env discoveries --policy contract_biased":
        Case("--games 1 --batch 1"),
    "python -m benchmarks.search_budget --env batavia":
        Case("--simulations 2 --games 1 --field-games 1 --no-progress",
             expect="file:benchmarks/results/batavia_search_budget.md", slow=True),
    "python -m envs.docs": Case(expect="file:docs/cairo.md"),
    # Compiles every game's kernels, on one thread and on two: minutes on a cold cache.
    "python -m envs.compile": Case(expect="cache:", slow=True),
    "python -m train.selfplay --env cairo --no-preset": Case(TRAIN_BUDGET, slow=True),
    "python -m train.selfplay --env cairo --players 4 --timesteps 2000000 --seed 1":
        Case(TRAIN_BUDGET, slow=True),
    "python -m train.selfplay --resume runs/latest/checkpoints/latest.zip --timesteps 1000000":
        Case("--timesteps 256 --eval-games 3 --elo-games 3 --no-progress", slow=True),
    "python -m train.selfplay --env cairo --ray --ray-workers 4": Case(TRAIN_BUDGET, slow=True),
    "python -m train.selfplay --env cairo --imitate medal_hunter --shaping 1.0":
        Case(TRAIN_BUDGET, slow=True),
    "python -m train.selfplay --env cairo --hints greedy,economist,medal_hunter --imitate "
    "medal_hunter": Case(TRAIN_BUDGET, slow=True),
    "python -m train.selfplay --help": Case(expect="--timesteps"),
    "tensorboard --logdir runs": Case(skip="a server: it runs until stopped"),
    "TRADEWINDS_RUN_DIR=runs/latest jupyter nbconvert --to html --execute "
    "notebooks/selfplay_cairo.ipynb": Case(expect="file:notebooks/selfplay_cairo.html"),
    "python -m benchmarks.tournament --env cairo --agents random,greedy,"
    "trained=runs/latest/checkpoints/final.zip --games 600 --save-games 5":
        Case("--games 1 --bootstrap 10 --no-progress", expect="game records in", slow=True),
}


def readme_commands() -> list[str]:
    """The command lines of the README's bash blocks, in order, comments dropped, each once."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#") and command not in lines:
                lines.append(command)
    return lines


COMMANDS = readme_commands()


def test_every_readme_command_is_listed_here_and_every_case_is_in_the_readme():
    assert set(COMMANDS) - set(CASES) == set(), "README commands this test does not know"
    assert set(CASES) - set(COMMANDS) == set(), "cases whose command left the README"


class Workspace:
    """A copy of the repository in which the README's commands run, each at most once."""

    def __init__(self, root: Path):
        self.root = root
        self.outputs: dict[str, subprocess.CompletedProcess] = {}
        self.started: dict[str, float] = {}  # when each command started
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("TRADEWINDS_RUN_DIR", "MPLBACKEND")}
        # The copy's packages, not the checkout's (an editable install points there), and
        # this interpreter's `python`, `jupyter` first on the PATH.
        self.env["PYTHONPATH"] = str(root)
        self.env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent),
                                            self.env.get("PATH", "")])

    def run(self, command: str) -> subprocess.CompletedProcess:
        """Run a README command (after what it needs), as printed plus its case's budget."""
        if command in self.outputs:
            return self.outputs[command]
        case = CASES[command]
        if "runs/latest" in command and command != TRAIN:
            self.run(TRAIN)
        line = command
        if "<game>" in command:
            (game,) = RECORD_LINE.findall(self.run(PLAY).stdout)
            line = command.replace("<game>", shlex.quote(game[1]))
        line = f"{line} {case.budget}".strip()
        self.started[command] = time.time()
        done = subprocess.run(["bash", "-c", line], cwd=self.root, env=self.env,
                              input=case.stdin, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (f"README command failed: {line}\n"
                                      f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        self.outputs[command] = done
        return done


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("readme") / "tradewinds"
    shutil.copytree(REPO, root, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "runs", ".ruff_cache", ".pytest_cache", "*.egg-info", "build",
        "dist"))
    return Workspace(root)


def _params(slow: bool) -> list:
    return [pytest.param(c, id=c[:70]) for c in COMMANDS
            if not CASES[c].skip and CASES[c].slow == slow]


@pytest.mark.parametrize("command", _params(slow=False))
def test_the_readme_command_runs_as_printed(workspace, command):
    _check(workspace, command)


@pytest.mark.slow
@pytest.mark.parametrize("command", _params(slow=True))
def test_the_slow_readme_command_runs_as_printed(workspace, command):
    _check(workspace, command)


def _check(workspace: Workspace, command: str) -> None:
    done = workspace.run(command)
    expect = CASES[command].expect
    if expect.startswith("file:"):
        # Written by the command itself: some of these files are committed.
        path = workspace.root / expect[5:]
        assert path.exists(), f"{command} wrote no {expect[5:]}"
        assert path.stat().st_mtime >= workspace.started[command] - 1, f"{path} is old"
    else:
        assert expect in done.stdout, f"{command} did not say {expect!r}:\n{done.stdout}"


@pytest.mark.parametrize("command", _params(slow=True))
def test_the_slow_readme_command_exists_and_answers_help(command, capsys):
    """The default run's check of a slow command: its module has a main that knows
    ``--help`` and every option the README gives it."""
    words = shlex.split(command)
    module = importlib.import_module(words[2])
    with pytest.raises(SystemExit) as stop:
        module.main(["--help"])
    assert stop.value.code in (0, None)
    help_text = capsys.readouterr().out
    for option in (w.split("=")[0] for w in words[3:] if w.startswith("--")):
        assert option in help_text, f"{command}: {option} is not an option"
