"""Writing checkpoints and run files atomically.

A checkpoint is the SB3 zip of the model plus a ``tradewinds.json`` entry (see
``agents.policy``). Every file here is first written to a temporary name in the destination's
own directory, flushed to disk, then moved over the destination with ``os.replace`` (atomic
on POSIX and Windows within one filesystem): a run killed at any moment leaves either the
previous complete file or the new complete file, never a broken one.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agents.policy import CHECKPOINT_FORMAT, METADATA_ENTRY


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path`` atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Same directory (same filesystem) and same suffix (SB3 appends ".zip" to bare names).
    tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write a text file atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def save_checkpoint(model: Any, path: str | Path, metadata: dict[str, Any]) -> Path:
    """Save ``model`` (an SB3 algorithm) with ``metadata`` as ``tradewinds.json``, atomically.

    Args:
        model: the MaskablePPO model.
        path: destination zip.
        metadata: must hold env_id, num_players, version and timesteps (``checkpoint_info``
            reads them back).
    """
    missing = {"env_id", "num_players", "version", "timesteps"} - set(metadata)
    if missing:
        raise ValueError(f"checkpoint metadata lacks {sorted(missing)}")
    with atomic_path(path) as tmp:
        model.save(str(tmp))
        with zipfile.ZipFile(tmp, "a") as archive:
            archive.writestr(METADATA_ENTRY, json.dumps(
                {"format": CHECKPOINT_FORMAT, **metadata}, indent=2, default=_jsonable))
    return Path(path)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def git_revision() -> str | None:
    """The repository's HEAD commit, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def find_run_dir(checkpoint: str | Path) -> Path | None:
    """The run directory a checkpoint belongs to: the nearest parent holding config.json."""
    for parent in Path(checkpoint).resolve().parents[:3]:
        if (parent / "config.json").is_file():
            return parent
    return None
