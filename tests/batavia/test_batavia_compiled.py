"""Batavia on the compiled core: the same functions as plain Python, and the same games on
one thread and two."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def test_worked_examples_pass_as_plain_python():
    """A few worked examples (the auction's remainder, a tied seal, the move, the exchange,
    the pirates, final scoring, a forced draw) pass with the JIT off: the same functions,
    as Python."""
    examples = ("example_1_ or example_8_ or example_9_ or example_13_ or example_15_ or "
                "example_19_ or drawn_automatically")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(TESTS / "batavia" / "test_batavia_examples.py"),
         str(TESTS / "batavia" / "test_batavia_cards.py"), "-k", examples],
        cwd=ROOT, env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, capture_output=True,
        text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "7 passed" in result.stdout
