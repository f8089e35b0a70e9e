"""``python -m train.selfplay`` end to end on the toy game: run, checkpoint, resume, analysis."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import ENV_CASES, ENV_IDS

import agents

pytest.importorskip("sb3_contrib")

import torch

from agents.policy import checkpoint_info, load_policy_agent
from train import analysis
from train.config import (
    Config,
    build_parser,
    field_docs,
    merge_resumed,
    parse_args,
    reproduce_command,
    resolve,
)
from train.selfplay import main

torch.set_num_threads(1)

TINY = ["--env", "toy", "--players", "3", "--num-envs", "16", "--n-steps", "32",
        "--batch-size", "128", "--net-arch", "32,32", "--snapshot-every", "1",
        "--checkpoint-every", "2", "--eval-games", "30", "--elo-games", "6", "--no-progress"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, toy_baselines) -> Path:
    """A 2,048-step run (4 updates) with the toy scripted baselines in the pool."""
    out = tmp_path_factory.mktemp("runs")
    return main([*TINY, "--timesteps", "2048", "--out", str(out), "--exp-name", "tiny"])


def test_tiny_run_writes_its_files(tiny_run):
    assert tiny_run.name.startswith("toy_v1__tiny__0__")
    config = json.loads((tiny_run / "config.json").read_text())
    assert config["env"] == "toy" and config["players"] == 3 and config["timesteps"] == 2048
    for name in ("checkpoints/final.zip", "checkpoints/latest.zip", "eval.json", "eval.md",
                 "metrics.jsonl", "learning_curve.png"):
        assert (tiny_run / name).is_file(), name
    assert (tiny_run.parent / "latest").resolve() == tiny_run.resolve()
    assert list((tiny_run / "tb").rglob("events.out.tfevents.*"))
    assert len(list((tiny_run / "pool").glob("snapshot_*.pt"))) == 3  # after updates 1..3
    assert not list(tiny_run.rglob(".tmp-*")), "no temporary files left behind"
    records = analysis.load_metrics(tiny_run)
    assert [r["updates"] for r in records] == [1, 2, 3, 4]
    assert {"win_rate", "win_rate_vs", "steps_per_s", "update_steps_per_s", "learn_s",
            "rollout_s"} <= set(records[-1])
    assert all(r["update_steps_per_s"] > 0 for r in records)
    assert "train/loss" in records[-1]


def test_a_run_draws_its_learning_curve_and_its_report_names_it(tiny_run):
    png = (tiny_run / "learning_curve.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    assert "![learning curve](learning_curve.png)" in (tiny_run / "eval.md").read_text()
    figure = analysis.learning_curve_figure(tiny_run)
    win_rates, elo = figure.axes
    labels = set(win_rates.get_legend_handles_labels()[1])
    assert {"win rate (smoothed)", "chance", "evaluation vs random",
            "evaluation vs highest_first", "evaluation vs lowest_first"} <= labels
    # The Elo probes: the trained agent's paired difference to each baseline at the run's
    # end (random left out), side by side around the evaluation's timestep.
    evaluation = json.loads((tiny_run / "eval.json").read_text())
    probes = {c.get_label(): c.lines[0].get_xydata() for c in elo.containers}
    assert set(probes) == {"trained − highest_first", "trained − lowest_first"}
    drawn = 0
    for row in evaluation["elo"]:
        if (label := f"trained − {row['agent']}") in probes:
            ((t, diff),) = probes[label]
            assert diff == row["trained_minus"]["elo"] and abs(t - 2048) < 2048 * 0.02
            drawn += 1
    assert drawn == 2


def test_checkpoint_metadata_and_policy_agent(tiny_run):
    final = tiny_run / "checkpoints" / "final.zip"
    info = checkpoint_info(final)
    assert info["env_id"] == "toy" and info["num_players"] == 3
    assert info["version"] == info["VERSION"] == 1
    assert info["timesteps"] == 2048 and info["updates"] == 4
    assert info["deterministic"] is False, "the trainer's agents sample by default"
    agent = load_policy_agent(final, "toy", 3)
    import envs

    game = envs.make_game("toy", 3)
    state = game.init(64, seed=0)
    for seat in range(3):
        actions = agent.act(game, state, seat)
        mask = game.legal_action_mask(state)
        rows = state.current_player == seat
        assert actions.shape == (64,) and actions.dtype == np.int64
        assert mask[np.flatnonzero(rows), actions[rows]].all()
    # The agent registry loads it as well.
    made = agents.make_agent(str(final), "toy", 3, seed=5)
    fresh = load_policy_agent(final, "toy", 3, seed=5)
    np.testing.assert_array_equal(made.act(game, state, 0), fresh.act(game, state, 0))


def test_resume_continues_the_run(tiny_run, tmp_path):
    tiny_run = Path(shutil.copytree(tiny_run, tmp_path / tiny_run.name))
    latest = tiny_run / "checkpoints" / "latest.zip"
    snapshots_before = sorted(p.name for p in (tiny_run / "pool").glob("snapshot_*.pt"))
    again = main(["--resume", str(latest), "--timesteps", "3072", "--no-progress",
                  "--elo-games", "0"])
    assert again == tiny_run, "a resumed run continues in its own directory"
    # The first run's agent and evaluation stay; the resumed run's are named by timesteps.
    assert checkpoint_info(tiny_run / "checkpoints" / "final.zip")["timesteps"] == 2048
    assert (tiny_run / "eval_3072.md").exists() and (tiny_run / "eval.md").exists()
    # The curve is drawn again, with the evaluations of both parts as probes.
    assert "learning_curve.png" in (tiny_run / "eval_3072.md").read_text()
    assert [e["timesteps"] for e in analysis.load_evaluations(tiny_run)] == [2048, 3072]
    info = checkpoint_info(tiny_run / "checkpoints" / "final_3072.zip")
    assert info["timesteps"] == 3072 and info["updates"] == 6
    assert info["config"]["num_envs"] == 16, "settings come from the checkpoint"
    snapshots = sorted(p.name for p in (tiny_run / "pool").glob("snapshot_*.pt"))
    assert snapshots[: len(snapshots_before)] == snapshots_before
    assert len(snapshots) == len(snapshots_before) + 1  # after update 5
    records = analysis.load_metrics(tiny_run)
    assert [r["updates"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert records[-1]["timesteps"] == 3072
    # Nothing left to do: a resume at the target only evaluates.
    assert main(["--resume", str(latest), "--timesteps", "3072", "--no-progress",
                 "--elo-games", "0", "--eval-games", "3"]) == tiny_run


def test_resume_refuses_to_change_the_game(tiny_run):
    latest = tiny_run / "checkpoints" / "latest.zip"
    with pytest.raises(SystemExit, match="cannot change"):
        main(["--resume", str(latest), "--players", "2"])


def test_analysis_reads_the_run(tiny_run, monkeypatch, tmp_path):
    curve = analysis.learning_curve(tiny_run)
    lengths = {len(v) for v in curve.values()}
    assert len(lengths) == 1 and lengths.pop() >= 4
    assert np.all((curve["win_rate"] >= 0) & (curve["win_rate"] <= 1))
    assert np.all(np.diff(curve["timesteps"]) > 0)
    assert any(k.startswith("win_rate_vs_") for k in curve)
    rows = analysis.win_rate_table(tiny_run)
    assert {r["opponent"] for r in rows} == {"random", "highest_first", "lowest_first"}
    elo = analysis.elo_table(tiny_run)
    assert {r["agent"] for r in elo} == {"random", "trained", "highest_first", "lowest_first"}
    assert [r["rank"] for r in elo] == [1, 2, 3, 4]
    assert next(r for r in elo if r["agent"] == "random")["elo"] == 1000
    assert analysis.summary(tiny_run)["env"] == "toy"
    monkeypatch.setenv(analysis.RUN_DIR_ENV, str(tiny_run))
    assert analysis.resolve_run_dir() == tiny_run
    # Relative to a folder above the working directory (nbconvert runs from notebooks/),
    # through a link whose own name is not the run's.
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "latest").symlink_to(tiny_run)
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")
    monkeypatch.setenv(analysis.RUN_DIR_ENV, "runs/latest")
    assert analysis.resolve_run_dir() == tiny_run.resolve()
    monkeypatch.setenv(analysis.RUN_DIR_ENV, "no_such_run")
    with pytest.raises(FileNotFoundError, match="or a folder above it"):
        analysis.resolve_run_dir()
    monkeypatch.delenv(analysis.RUN_DIR_ENV)
    assert analysis.resolve_run_dir(out=tiny_run.parent, env_id="toy") == tiny_run
    with pytest.raises(FileNotFoundError, match=r"train\.selfplay"):
        analysis.resolve_run_dir(out=tiny_run.parent, env_id="cairo")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    assert analysis.plot_learning_curve(curve).axes
    assert analysis.plot_elo(elo).axes


def test_the_curve_counts_leave_out_each_rows_first_game(tiny_run):
    records = analysis.load_metrics(tiny_run)
    counted = sum(sum(r["curve_games_vs"].values()) for r in records if "curve_games_vs" in r)
    # 16 rows, every one of them past its first toy game in 2,048 steps
    assert counted == records[-1]["games_total"] - 16
    assert all(r["curve_firsts_vs"][k] <= r["curve_games_vs"][k]
               for r in records if "curve_games_vs" in r for k in r["curve_games_vs"])
    evaluation = json.loads((tiny_run / "eval.json").read_text())
    assert evaluation["curve_halves"]["kind"] == "scripted"
    assert "Learning curve against the scripted opponents" in (tiny_run / "eval.md").read_text()


def test_curve_halves_compares_the_first_and_the_second_half_of_the_updates(tmp_path):
    counts = [(10, 2), (30, 9), (20, 10), (40, 24)]  # (games, firsts) against scripted
    lines = [json.dumps({"timesteps": 100 * i, "updates": i,
                         "curve_games_vs": {"scripted": g, "random": 5},
                         "curve_firsts_vs": {"scripted": f, "random": 5}})
             for i, (g, f) in enumerate(counts, start=1)]
    (tmp_path / "metrics.jsonl").write_text("\n".join(lines) + "\n")
    halves = analysis.curve_halves(tmp_path)
    assert (halves["first"]["games"], halves["first"]["firsts"]) == (40, 11)
    assert (halves["second"]["games"], halves["second"]["firsts"]) == (60, 34)
    assert halves["change"] == pytest.approx(34 / 60 - 11 / 40)
    first_ci = 1.96 * (11 / 40 * 29 / 40 / 40) ** 0.5
    assert halves["first"]["ci95"] == pytest.approx(first_ci)
    second_ci = 1.96 * (34 / 60 * 26 / 60 / 60) ** 0.5
    assert halves["change_ci95"] == pytest.approx((first_ci**2 + second_ci**2) ** 0.5)
    assert "change +29.2 +- " in analysis.curve_halves_line(halves)
    assert analysis.curve_halves(tmp_path, "snapshot") is None


def test_metrics_reader_skips_a_torn_line(tmp_path):
    lines = [json.dumps({"timesteps": t, "updates": i, "win_rate": 0.5, "games": 4})
             for i, t in enumerate((100, 200), start=1)]
    (tmp_path / "metrics.jsonl").write_text("\n".join(lines) + '\n{"timesteps": 3')
    assert [r["timesteps"] for r in analysis.load_metrics(tmp_path)] == [100, 200]
    smoothed = analysis.smooth(np.array([1.0, np.nan, 0.0]), np.array([1, 5, 3]), 2)
    np.testing.assert_allclose(smoothed, [1.0, 1.0, 0.0])


@pytest.mark.parametrize(("env_id", "num_players"), ENV_CASES, ids=ENV_IDS)
def test_selfplay_runs_on_every_registered_env(env_id, num_players, tmp_path):
    run = main(["--env", env_id, "--players", str(num_players), "--no-preset",
                "--timesteps", "64", "--num-envs", "4", "--n-steps", "16", "--batch-size", "32",
                "--net-arch", "16", "--eval-games", "0", "--elo-games", "0", "--no-progress",
                "--out", str(tmp_path)])
    info = checkpoint_info(run / "checkpoints" / "final.zip")
    assert (info["env_id"], info["num_players"], info["timesteps"]) == (env_id, num_players, 64)
    load_policy_agent(run / "checkpoints" / "final.zip", env_id, num_players)
    # The command a table names for this checkpoint gives the same run (where it writes and
    # how fast it goes aside).
    command = reproduce_command(info["config"])
    assert command.startswith(f"python -m train.selfplay --env {env_id} --seed 0 --no-preset")
    again = dataclasses.asdict(resolve(shlex.split(command)[3:])[0])
    aside = ("out", "progress", "resume", "exp_name", "torch_threads", "device")
    assert {k: v for k, v in again.items() if k not in aside} == {
        k: v for k, v in info["config"].items() if k not in aside}
    from benchmarks.tournament import checkpoint_source

    source = checkpoint_source(str(run / "checkpoints" / "final.zip"))
    assert source == f"trained by `{command}` (64 timesteps)"


# ---------------------------------------------------------------------- the config and CLI
def test_every_config_field_is_a_documented_option():
    docs = field_docs()
    parser_help = build_parser().format_help()
    for name in Config.__dataclass_fields__:
        assert docs.get(name), f"field {name} has no docstring"
        assert "--" + name.replace("_", "-") in parser_help


def test_cli_parses_types_and_rejects_unknown_options(capsys):
    cfg, given = parse_args(["--env", "toy", "--num-envs", "8", "--no-anneal-lr",
                             "--learning-rate", "1e-3"])
    assert (cfg.env, cfg.num_envs, cfg.anneal_lr, cfg.learning_rate) == ("toy", 8, False, 1e-3)
    assert given == {"env", "num_envs", "anneal_lr", "learning_rate"}
    with pytest.raises(SystemExit):
        parse_args(["--env", "toy", "--no-such-option", "1"])
    assert "unrecognized arguments" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["--num-envs", "many"])


def test_resumed_config_keeps_the_checkpoints_settings_unless_given():
    stored = {**Config(env="toy", players=3, num_envs=16).__dict__, "removed_field": 1}
    cli, given = parse_args(["--resume", "x.zip", "--timesteps", "99"])
    merged = merge_resumed(stored, cli, given)
    assert (merged.env, merged.num_envs, merged.timesteps, merged.resume) == (
        "toy", 16, 99, "x.zip")
    cli, given = parse_args(["--resume", "x.zip", "--net-arch", "8"])
    with pytest.raises(ValueError, match="net-arch"):
        merge_resumed(stored, cli, given)


def test_the_device_option_resolves_and_refuses_a_missing_gpu(monkeypatch):
    assert Config(device="cpu").torch_device() == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert Config().device == "auto" and Config().torch_device() == "cpu"
    with pytest.raises(ValueError, match=r"--device cuda, but torch sees no CUDA GPU"):
        Config(device="cuda").torch_device()
    with pytest.raises(SystemExit, match=r"--device cuda, but torch sees no CUDA GPU"):
        main(["--env", "toy", "--device", "cuda", "--no-progress"])
    with pytest.raises(ValueError, match=r"--device must be one of auto, cpu, cuda, got 'tpu'"):
        Config(device="tpu").torch_device()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert Config().torch_device() == Config(device="cuda").torch_device() == "cuda"
    assert Config(device="cpu").torch_device() == "cpu"


def test_default_player_count_and_bad_values():
    assert Config(env="toy").resolved_players() == 3
    with pytest.raises(ValueError, match="JSON"):
        Config(game_options="{nope").options()
    with pytest.raises(ValueError, match="net-arch"):
        Config(net_arch="a,b").hidden_sizes()


def test_bad_runs_exit_with_a_message_naming_the_valid_choices():
    with pytest.raises(SystemExit, match=r"--env is required; registered: .*toy"):
        main(["--timesteps", "10"])
    with pytest.raises(SystemExit, match="unknown env id 'nope'"):
        main(["--env", "nope"])
    with pytest.raises(SystemExit, match="valid: 2, 3"):
        main(["--env", "toy", "--players", "5"])
    with pytest.raises(SystemExit, match="unknown option"):
        main(["--env", "toy", "--game-options", '{"bogus": 1}'])
    with pytest.raises(SystemExit, match="num-envs must be >= 1"):
        main(["--env", "toy", "--num-envs", "0"])


# ---------------------------------------------------------------------- reproducibility
def test_training_is_deterministic_for_a_seed(tmp_path, toy_baselines):
    args = [*TINY, "--timesteps", "1024", "--eval-games", "3", "--elo-games", "0"]
    runs = [main([*args, "--out", str(tmp_path / name)]) for name in ("a", "b")]
    params = [torch.load(r / "pool" / "snapshot_0000000512.pt", weights_only=False)
              ["state_dict"] for r in runs]
    for key, value in params[0].items():
        torch.testing.assert_close(value, params[1][key], rtol=0, atol=0)
    metrics = [analysis.load_metrics(r) for r in runs]
    assert [m["win_rate"] for m in metrics[0]] == [m["win_rate"] for m in metrics[1]]


@pytest.mark.slow
def test_default_toy_run_learns_to_beat_random(tmp_path, toy_baselines):
    """A longer toy run (about 15 s of training): the trained agent beats random clearly."""
    run = main(["--env", "toy", "--timesteps", "100000", "--no-progress", "--eval-games", "600",
                "--out", str(tmp_path)])
    evaluation = json.loads((run / "eval.json").read_text())
    rows = {r["opponent"]: r for r in evaluation["win_rates"]}
    assert rows["random"]["win_rate"] > rows["random"]["chance"] + 0.08
    elo = {r["agent"]: r for r in evaluation["elo"]}
    assert elo["trained"]["elo_low"] > elo["random"]["elo"]


def test_warm_started_shaped_run(tmp_path, toy_baselines, capsys):
    run = main([*TINY, "--timesteps", "1024", "--imitate", "highest_first",
                "--imitate-decisions", "2000", "--shaping", "1.0", "--eval-games", "3",
                "--elo-games", "0", "--device", "cpu", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "warm start: imitated highest_first on 2000 decisions" in out
    # The device and thread count come first; without a bar, each update prints its rate.
    assert out.index("device: cpu (--device cpu), torch threads: 1") < out.index("warm start")
    for update, steps in ((1, "512"), (2, "1,024")):
        assert re.search(rf"^update {update}: {steps} steps, [\d,]+ steps/s \(learn "
                         r"[\d.]+ s, rollout [\d.]+ s\)", out, re.MULTILINE), out
    assert checkpoint_info(run / "checkpoints" / "final.zip")["config"]["shaping"] == 1.0
    with pytest.raises(SystemExit, match=r"--imitate 'nope': toy has the scripted agents"):
        main([*TINY, "--imitate", "nope"])
    with pytest.raises(SystemExit, match="--shaping >= 0"):
        main([*TINY, "--shaping", "-1"])


def test_run_with_action_hints_loads_them_with_its_checkpoint(tmp_path, toy_baselines):
    run = main([*TINY, "--timesteps", "512", "--hints", "highest_first",
                "--imitate", "highest_first", "--imitate-decisions", "500",
                "--eval-games", "3", "--elo-games", "0", "--out", str(tmp_path)])
    final = run / "checkpoints" / "final.zip"
    assert checkpoint_info(final)["config"]["hints"] == "highest_first"
    agent = load_policy_agent(final, "toy", 3)
    import envs

    game = envs.make_game("toy", 3)
    assert agent.hints.names == ("highest_first",)
    assert agent.policy.observation_space.shape == (game.observation_shape[0]
                                                    + game.num_actions,)
    state = game.init(16, seed=1)
    actions = agent.act(game, state, state.current_player)
    assert game.legal_action_mask(state)[np.arange(16), actions].all()
    with pytest.raises(SystemExit, match="--hints '' differs from the checkpoint's"):
        main(["--resume", str(final), "--hints", "", "--no-progress"])
    with pytest.raises(SystemExit, match="hint agent 'lowest_first' of toy has no "
                                         "action_values"):
        main([*TINY, "--hints", "lowest_first"])


def test_a_game_preset_fills_the_options_not_given(monkeypatch):
    from train import presets
    from train.config import resolve

    monkeypatch.setitem(presets.PRESETS, "toy", {"timesteps": 1234, "ent_coef": 0.05})
    cfg, _ = resolve(["--env", "toy", "--ent-coef", "0.02"])
    assert (cfg.timesteps, cfg.ent_coef) == (1234, 0.02)
    cfg, _ = resolve(["--env", "toy", "--no-preset"])
    assert cfg.timesteps == Config().timesteps
