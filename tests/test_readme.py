"""The README stays true: its Python quickstart runs and every command it shows exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_quickstart_runs():
    (quickstart,) = re.findall(r"```python\n(.*?)```", README, re.S)
    exec(compile(quickstart, "README quickstart", "exec"), {})


def test_every_command_of_the_readme_is_a_module_with_a_main():
    commands = set(re.findall(r"^python -m ([\w.]+)", "\n".join(
        re.findall(r"```bash\n(.*?)```", README, re.S)), re.M))
    assert {"train.selfplay", "agents.play", "envs.replay", "benchmarks.tournament"} <= commands
    for name in sorted(commands - {"pip"}):
        module = importlib.import_module(name)
        assert callable(getattr(module, "main", None)), f"python -m {name} has no main()"


def test_the_setup_block_comes_first_and_the_test_command_second():
    first, second = re.findall(r"```bash\n(.*?)```", README, re.S)[:2]
    lines = [line for line in first.splitlines() if line and not line.startswith("#")]
    assert lines[-2].startswith("pip install torch --index-url") and "cpu" in lines[-2]
    assert lines[-1] == 'pip install -e ".[dev]"'
    assert second.strip() == "pytest"


def test_the_readme_and_docs_link_only_to_files_in_the_repository():
    root = Path(__file__).resolve().parent.parent
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the page
            if not (page.parent / target.split("#")[0]).exists():
                broken.append(f"{page.relative_to(root)}: {target}")
    assert not broken, f"links to files not in the repository: {broken}"
    assert (root / "docs" / "design.md").exists()
    assert "shared/design.md" not in README and "[docs/design.md](docs/design.md)" in README
