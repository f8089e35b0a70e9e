"""``python -m envs.compile``: its options are checked before anything compiles."""

from __future__ import annotations

import pytest

from envs import compile as compile_cli


@pytest.mark.parametrize(("argv", "message"), [
    (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["--threads", "1,0"], "threads must be a positive int, got 0"),
    (["--threads", "999"], "threads=999 is more than"),
    (["--env", "chess"], "invalid choice: 'chess'"),
])
def test_bad_options_are_refused_with_the_reason(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        compile_cli.main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err

