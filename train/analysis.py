"""Reading a self-play run back: learning curve, evaluation, Elo table, and their plots.

The notebooks only call these functions and display what they return. A run directory is
what ``train.selfplay`` writes (see its docstring): ``metrics.jsonl`` (one JSON line per
update), ``eval.json`` (win rates against the baselines, and the Elo rows of the final
tournament when one ran; a resumed run adds ``eval_<timesteps>.json``) and ``config.json``.
``save_learning_curve`` draws all of it into the run's ``learning_curve.png``, which every
run writes at its end.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np

RUN_DIR_ENV = "TRADEWINDS_RUN_DIR"


def default_out() -> Path:
    """``runs/`` at the repository root (where ``python -m train.selfplay`` writes from there),
    else ``runs/`` in the working directory."""
    beside_repo = Path(__file__).resolve().parents[1] / "runs"
    return beside_repo if beside_repo.is_dir() else Path("runs")


def find_runs(out: str | Path = "runs", env_id: str | None = None) -> list[Path]:
    """Run directories under ``out`` (those with a config.json), oldest first.

    Run names end in ``__{unix time}``, which orders them; ``env_id`` keeps one game's.
    """
    runs = [p.parent for p in Path(out).glob("*/config.json")]
    if env_id is not None:
        runs = [r for r in runs if r.name.split("_v")[0] == env_id]

    def started(run: Path) -> tuple[int, str]:
        tail = run.name.rsplit("__", 1)[-1]
        return (int(tail) if tail.isdigit() else 0, run.name)

    return sorted(runs, key=started)


def resolve_run_dir(run_dir: str | Path | None = None, out: str | Path | None = None,
                    env_id: str | None = None) -> Path:
    """The run to analyse: ``run_dir`` if given, else ``$TRADEWINDS_RUN_DIR``, else the newest
    run of ``env_id`` under ``out`` (``default_out()`` when None).

    A relative ``run_dir`` is looked for in the working directory and then in each folder
    above it: ``jupyter nbconvert --execute notebooks/x.ipynb`` runs the notebook from
    ``notebooks/``, while ``TRADEWINDS_RUN_DIR=runs/latest`` was written from the repository
    root. Links are resolved (``runs/latest`` gives the run's own name, for plot titles).

    Raises:
        FileNotFoundError: nothing found (the message says how to make a run).
    """
    chosen = run_dir or os.environ.get(RUN_DIR_ENV)
    if chosen:
        path = Path(chosen)
        bases = [Path.cwd(), *Path.cwd().parents] if not path.is_absolute() else [Path()]
        for base in bases:
            if (base / path / "config.json").is_file():
                return (base / path).resolve()
        raise FileNotFoundError(f"{path} is not a run directory (no config.json"
                                + (f" in {Path.cwd()} or a folder above it)"
                                   if not path.is_absolute() else ")"))
    out = default_out() if out is None else Path(out)
    runs = find_runs(out, env_id)
    if not runs:
        game = env_id or "ENV"
        raise FileNotFoundError(
            f"no run of {game!r} under {str(out)!r}: train one with "
            f"`python -m train.selfplay --env {game}` or set ${RUN_DIR_ENV}"
        )
    return runs[-1]


def load_config(run_dir: str | Path) -> dict[str, Any]:
    return json.loads((Path(run_dir) / "config.json").read_text())


def load_metrics(run_dir: str | Path) -> list[dict[str, Any]]:
    """The per-update records of ``metrics.jsonl``, in order (a torn last line is skipped).

    A resumed run appends to the file; records are kept in timestep order with the later
    record winning where a resume repeated an update.
    """
    path = Path(run_dir) / "metrics.jsonl"
    if not path.is_file():
        return []
    records: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run
        records[int(record["timesteps"])] = record
    return [records[t] for t in sorted(records)]


def smooth(values: np.ndarray, weights: np.ndarray, window: int) -> np.ndarray:
    """Trailing weighted mean over ``window`` points (weights: games per update); NaNs skipped."""
    values = np.asarray(values, dtype=np.float64)
    weights = np.where(np.isnan(values), 0.0, np.asarray(weights, dtype=np.float64))
    filled = np.where(np.isnan(values), 0.0, values)
    num = np.cumsum(filled * weights)
    den = np.cumsum(weights)
    num[window:] = num[window:] - num[:-window]
    den[window:] = den[window:] - den[:-window]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.maximum(den, 1e-12), np.nan)


def learning_curve(run_dir: str | Path, window: int = 10) -> dict[str, np.ndarray]:
    """The learning curve of a run.

    Returns:
        dict of (U,) float arrays over the U updates: ``timesteps``, ``win_rate`` (share of the
        update's finished games the learner won), ``win_rate_smoothed`` (over ``window``
        updates, weighted by games), ``mean_reward``, ``steps_per_s``, and
        ``win_rate_vs_{kind}`` for each opponent kind met (NaN where none was met).
    """
    records = load_metrics(run_dir)
    curve: dict[str, np.ndarray] = {}

    def column(key: str) -> np.ndarray:
        return np.array([r.get(key, np.nan) for r in records], dtype=np.float64)

    curve["timesteps"] = column("timesteps")
    curve["games"] = np.nan_to_num(column("games"))
    for key in ("win_rate", "mean_reward", "steps_per_s"):
        curve[key] = column(key)
    curve["win_rate_smoothed"] = smooth(curve["win_rate"], curve["games"], window)
    kinds = sorted({k for r in records for k in r.get("win_rate_vs", {})})
    for kind in kinds:
        curve[f"win_rate_vs_{kind}"] = np.array(
            [r.get("win_rate_vs", {}).get(kind, np.nan) for r in records], dtype=np.float64)
    return curve


def curve_halves(run_dir: str | Path, kind: str = "scripted") -> dict[str, Any] | None:
    """Did the learner improve against one kind of opponent: its first-place rate in the
    first half of the run's updates against the second half.

    Counts the games that began after the training started (``curve_games_vs`` in
    ``metrics.jsonl``): every row starts a game at once, and the first games to end are the
    short ones, so each row's first game is left out (a frozen policy's raw rate falls
    over the first updates for that reason alone).

    Returns:
        None where either half has no such game; else ``first`` and ``second`` (each
        ``games``, ``firsts``, ``rate``, ``ci95``: the normal half-width) and ``change``,
        ``change_ci95`` (the second's rate minus the first's, 95% half-width).
    """
    records = load_metrics(run_dir)
    middle = len(records) // 2
    halves = []
    for part in (records[:middle], records[middle:]):
        games = sum(r.get("curve_games_vs", {}).get(kind, 0) for r in part)
        firsts = sum(r.get("curve_firsts_vs", {}).get(kind, 0) for r in part)
        if not games:
            return None
        rate = firsts / games
        halves.append({"games": games, "firsts": firsts, "rate": rate,
                       "ci95": 1.96 * math.sqrt(rate * (1 - rate) / games)})
    first, second = halves
    return {"kind": kind, "first": first, "second": second,
            "change": second["rate"] - first["rate"],
            "change_ci95": math.hypot(first["ci95"], second["ci95"])}


def curve_halves_line(halves: dict[str, Any] | None) -> str:
    """``curve_halves`` in one sentence (what the run's report prints)."""
    if halves is None:
        return "Learning curve: too few games in one half of the run to compare the halves."
    first, second = halves["first"], halves["second"]
    return (f"Learning curve against the {halves['kind']} opponents (first place; each row's "
            f"first game left out): first half {first['rate']:.1%} +- {first['ci95']:.1%} "
            f"({first['games']} games), second half {second['rate']:.1%} +- "
            f"{second['ci95']:.1%} ({second['games']} games); change "
            f"{100 * halves['change']:+.1f} +- {100 * halves['change_ci95']:.1f} points.")


def load_evaluation(run_dir: str | Path) -> dict[str, Any] | None:
    """``eval.json`` of a run, or None before the run has finished."""
    path = Path(run_dir) / "eval.json"
    return json.loads(path.read_text()) if path.is_file() else None


def load_evaluations(run_dir: str | Path) -> list[dict[str, Any]]:
    """Every evaluation of a run (``eval.json``, and ``eval_<timesteps>.json`` of its resumed
    parts), in timestep order: the probes of its agent against the baselines over training."""
    found = [json.loads(p.read_text()) for p in Path(run_dir).glob("eval*.json")]
    return sorted(found, key=lambda e: int(e["timesteps"]))


def agent_label(name: str, checkpoint: str | None = None) -> str:
    """A short label for table rows: checkpoint paths become ``trained (<file>)``."""
    if checkpoint is not None and name == checkpoint:
        return f"trained ({Path(name).name})"
    if "/" in name or os.sep in name or name.endswith(".zip"):
        return f"policy ({Path(name).name})"
    return name


def win_rate_table(run_dir: str | Path) -> list[dict[str, Any]]:
    """The final evaluation's win rates (one row per baseline); [] before the run finished."""
    evaluation = load_evaluation(run_dir)
    return list(evaluation["win_rates"]) if evaluation else []


def elo_table(run_dir: str | Path) -> list[dict[str, Any]]:
    """The final tournament's Elo rows (best first) with short agent labels; [] if none."""
    evaluation = load_evaluation(run_dir)
    if not evaluation or not evaluation.get("elo"):
        return []
    checkpoint = evaluation.get("checkpoint")
    return [{**row, "agent": agent_label(str(row["agent"]), checkpoint)}
            for row in evaluation["elo"]]


def table_markdown(rows: list[dict[str, Any]], columns: list[str] | None = None) -> str:
    """Rows as a Markdown table (for ``IPython.display.Markdown``)."""
    from train.evaluate import markdown_table

    return markdown_table(rows, columns)


def evaluation_markdown(run_dir: str | Path) -> str:
    """The final evaluation as Markdown: win rates against each baseline, then Elo."""
    evaluation = load_evaluation(run_dir)
    if evaluation is None:
        return "_No evaluation yet: the run has not finished._"
    text = (f"**{evaluation['env_id']} v{evaluation['version']}, "
            f"{evaluation['num_players']} players, {evaluation['timesteps']} timesteps.** "
            "Win rate: share of games the trained agent finishes first, its seat rotated "
            "(chance is about 1/P).\n\n" + table_markdown(win_rate_table(run_dir)))
    elo = elo_table(run_dir)
    if elo:
        columns = [c for c in ("rank", "agent", "elo", "elo_low", "elo_high", "games",
                               "first_place_rate", "mean_reward") if c in elo[0]]
        text += "\n\n**Elo** (random anchored, 95% interval)\n\n" + table_markdown(elo, columns)
    return text


def summary(run_dir: str | Path) -> dict[str, Any]:
    """Headline facts of a run: env, players, timesteps, updates, final smoothed win rate."""
    config = load_config(run_dir)
    records = load_metrics(run_dir)
    curve = learning_curve(run_dir)
    last = curve["win_rate_smoothed"][-1] if len(records) else float("nan")
    return {
        "run": Path(run_dir).name,
        "env": config.get("env"),
        "players": config.get("players"),
        "timesteps": int(records[-1]["timesteps"]) if records else 0,
        "updates": int(records[-1]["updates"]) if records else 0,
        "games": int(records[-1].get("games_total", 0)) if records else 0,
        "final_win_rate_smoothed": float(last),
    }


# ---------------------------------------------------------------------- plots
def plot_learning_curve(curve: dict[str, np.ndarray], title: str = "") -> Any:
    """A matplotlib Figure: win rate per update (raw, smoothed, per opponent kind)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    _draw_win_rates(ax, curve)
    ax.set_title(title or "self-play learning curve")
    fig.tight_layout()
    return fig


def _draw_win_rates(ax: Any, curve: dict[str, np.ndarray],
                    evaluations: list[dict[str, Any]] = ()) -> None:
    """The training games' win rates over timesteps on ``ax`` (raw, smoothed, per opponent
    kind), and each evaluation's win rate against each baseline (95% interval) as probes."""
    x = curve["timesteps"]
    ax.plot(x, curve["win_rate"], color="0.75", lw=1, label="win rate (per update)")
    ax.plot(x, curve["win_rate_smoothed"], color="C0", lw=2, label="win rate (smoothed)")
    for i, key in enumerate(k for k in curve if k.startswith("win_rate_vs_")):
        ax.plot(x, smooth(curve[key], np.ones_like(x), 10), lw=1, ls="--", color=f"C{i + 1}",
                label=key.replace("win_rate_vs_", "vs "))
    opponents = list(dict.fromkeys(r["opponent"] for e in evaluations for r in e["win_rates"]))
    for i, name in enumerate(opponents):
        probes = [(e["timesteps"], r["win_rate"], r["ci95"]) for e in evaluations
                  for r in e["win_rates"] if r["opponent"] == name]
        t, rate, ci = (np.array(column, dtype=np.float64) for column in zip(*probes, strict=True))
        ax.errorbar(t, rate, yerr=ci, fmt="os^vDP"[i % 6], ms=6, capsize=3,
                    color=f"C{(i + 5) % 10}", label=f"evaluation vs {name}")
    if evaluations and evaluations[0]["win_rates"]:
        ax.axhline(evaluations[0]["win_rates"][0]["chance"], color="k", lw=0.8, ls=":",
                   label="chance")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("share of games finished first")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="x-small")


def _draw_elo_probes(ax: Any, evaluations: list[dict[str, Any]]) -> None:
    """The trained agent's paired Elo difference to each baseline (95% interval) at each
    evaluation on ``ax``.

    Differences, not ratings: every evaluation's round robin has its own scale (random is
    1000 in each, the gaps above it move with the games played), so the ratings of two
    evaluations do not compare, while a difference does. Random is left out: its hundreds of
    points would flatten the rest.
    """
    probes = [(e["timesteps"], row) for e in evaluations for row in e.get("elo") or ()
              if row["agent"] not in ("trained", "random") and "trained_minus" in row]
    if not probes:
        ax.text(0.5, 0.5, "no Elo round robin in this run (--elo-games 0)", ha="center",
                va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    names = list(dict.fromkeys(row["agent"] for _, row in probes))
    end = max(float(max(t for t, _ in probes)) * 1.05, 1.0)
    for i, name in enumerate(names):
        mine = [(t, row["trained_minus"]) for t, row in probes if row["agent"] == name]
        # Side by side, so that the intervals at one evaluation do not hide each other.
        t = np.array([m[0] for m in mine], np.float64) + (i - (len(names) - 1) / 2) * end / 150
        diff, low, high = (np.array([m[1][k] for m in mine], np.float64)
                           for k in ("elo", "low", "high"))
        ax.errorbar(t, diff, yerr=[diff - low, high - diff], fmt="o-", color=f"C{i + 1}",
                    capsize=4, ms=6, label=f"trained − {name}")
    ax.axhline(0.0, color="k", lw=1, ls=":")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("Elo difference (95% interval)")
    ax.set_xlim(0, end)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="x-small")


def learning_curve_figure(run_dir: str | Path, window: int = 10) -> Any:
    """A matplotlib Figure of a run: its win rates over training with the evaluations' win
    rates against each baseline (top), and the Elo probes of its evaluations: the paired
    difference to each baseline (bottom).

    Built without pyplot (no GUI backend, no global figure list): a training run draws it
    on any machine, and the figure is garbage-collected like any object.
    """
    from matplotlib.figure import Figure

    evaluations = load_evaluations(run_dir)
    fig = Figure(figsize=(8, 8), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    _draw_win_rates(top, learning_curve(run_dir, window), evaluations)
    top.set_title("win rate over training, and against each baseline at each evaluation")
    top.set_xlabel("")  # the panels share the axis: one label, under the lower one
    _draw_elo_probes(bottom, evaluations)
    bottom.set_title("Elo of the trained agent minus each baseline's, at each evaluation")
    config = load_config(run_dir)
    fig.suptitle(f"{config.get('env')}, {config.get('players')} players: "
                 f"{Path(run_dir).resolve().name}", fontsize="medium")
    return fig


def save_learning_curve(run_dir: str | Path, name: str = "learning_curve.png") -> Path:
    """Draw ``learning_curve_figure`` into ``<run_dir>/<name>`` (atomically); returns the path."""
    from train.checkpoint import atomic_path

    path = Path(run_dir) / name
    with atomic_path(path) as tmp:
        learning_curve_figure(run_dir).savefig(tmp, format="png", dpi=100)
    return path


def plot_elo(rows: list[dict[str, Any]], title: str = "") -> Any:
    """A matplotlib Figure: Elo per agent with its confidence interval (horizontal bars)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.6 * max(len(rows), 1) + 1.5))
    if rows:
        names = [r["agent"] for r in rows][::-1]
        elo = np.array([r["elo"] for r in rows], dtype=float)[::-1]
        low = np.array([r.get("elo_low", r["elo"]) for r in rows], dtype=float)[::-1]
        high = np.array([r.get("elo_high", r["elo"]) for r in rows], dtype=float)[::-1]
        ax.barh(names, elo - elo.min() + 50, left=elo.min() - 50, color="C0", alpha=0.6)
        ax.errorbar(elo, names, xerr=[elo - low, high - elo], fmt="o", color="k", capsize=4)
        ax.set_xlabel("Elo (random anchored)")
    else:
        ax.text(0.5, 0.5, "no Elo table in this run", ha="center", va="center")
        ax.set_axis_off()
    ax.set_title(title or "final Elo")
    fig.tight_layout()
    return fig
