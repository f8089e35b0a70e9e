"""The docs: generated game pages current, rules specs shipped and every § citation real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import envs
from envs import docs
from envs.core.registry import game_class

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "rules"  # the source, where the checkout has it
SHIPPED = [e for e in envs.list_envs() if docs.shipped(game_class(e))]
HEADING = re.compile(r"^#{1,5}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
CITATION = re.compile(r"§(\d+(?:\.\d+)*)")


@pytest.mark.parametrize("env_id", SHIPPED)
def test_the_game_page_is_current(env_id):
    path = docs.path_of(env_id)
    assert path.exists(), f"missing {path}: run python -m envs.docs"
    assert path.read_text() == docs.page(env_id), f"{path} is stale: run python -m envs.docs"


@pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="no ../shared/rules beside this checkout")
def test_the_shipped_rules_are_copies_of_the_shared_source():
    for source in SHARED_RULES.glob("*.md"):
        copy = ROOT / "docs" / "rules" / source.name
        assert copy.exists() and copy.read_text() == source.read_text(), (
            f"docs/rules/{source.name} differs from {source}: copy it again")


@pytest.mark.parametrize("env_id", SHIPPED)
def test_every_section_the_code_cites_exists_in_the_rules(env_id):
    rules = (ROOT / "docs" / "rules" / f"{env_id}.md").read_text()
    sections = set(HEADING.findall(rules))
    sources = [*(ROOT / "envs" / env_id).glob("*.py"), ROOT / "agents" / f"{env_id}.py"]
    missing = {}
    for source in (s for s in sources if s.exists()):
        for number in CITATION.findall(source.read_text()):
            if number not in sections:
                missing.setdefault(f"§{number}", []).append(source.name)
    assert not missing, f"sections cited but not in docs/rules/{env_id}.md: {missing}"


def test_docs_check_reports_a_stale_page(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(docs, "DOCS", tmp_path)
    assert docs.main(["--env", "cairo", "--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert docs.main(["--env", "cairo"]) == 0
    assert docs.main(["--env", "cairo", "--check"]) == 0


@pytest.mark.parametrize("env_id", SHIPPED)
def test_every_decoding_snippet_of_a_page_runs_as_printed(env_id):
    """A policy designer copies these: each page has one, and it runs as it stands."""
    snippets = re.findall(r"```python\n(.*?)```", docs.page(env_id), flags=re.S)
    assert snippets, f"docs/{env_id}.md shows no decoding snippet"
    for code in snippets:
        exec(code, {})  # the page's own example, as printed
