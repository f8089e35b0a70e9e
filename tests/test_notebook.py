"""The self-play notebook runs top to bottom on a tiny toy run (nbclient, no papermill)."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy_agents import TOY_BASELINES

import agents

pytest.importorskip("nbclient")
pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("sb3_contrib")

import nbclient
import nbformat
import torch

from train.analysis import RUN_DIR_ENV
from train.selfplay import main

torch.set_num_threads(1)

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "selfplay_cairo.ipynb"


@pytest.fixture()
def toy_run(tmp_path) -> Path:
    agents.register_baselines("toy", TOY_BASELINES)
    try:
        return main(["--env", "toy", "--timesteps", "1536", "--num-envs", "16", "--n-steps",
                     "32", "--batch-size", "128", "--net-arch", "16", "--eval-games", "12",
                     "--elo-games", "6", "--no-progress", "--out", str(tmp_path)])
    finally:
        agents.unregister_baselines("toy")


def test_notebook_executes_on_a_toy_run(toy_run, monkeypatch):
    monkeypatch.setenv(RUN_DIR_ENV, str(toy_run))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    params = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1, "one parameter cell"
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(REPO)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2, "learning curve and Elo plot"
    text = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert "highest_first" in text and "Elo" in text
    assert toy_run.name in "\n".join(o.get("data", {}).get("text/plain", "") for o in outputs)


def test_notebook_is_committed_without_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
