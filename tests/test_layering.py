"""The architecture's rules: no game knowledge in engine/ or search/; search/ does not import engine/."""
import re

from conftest import ROOT

GAME_WORDS = re.compile(r"scythe|nidavellir|railroad|tic.?tac|togawa|rusviet|crimea|polania|saxony|nordic|"
                        r"albion|royal treasure|popularity|coin", re.I)


def python_files(folder):
    return sorted((ROOT / folder).rglob("*.py"))


def test_engine_and_search_name_no_game():
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for folder in ("engine", "search") for p in python_files(folder)
            for i, line in enumerate(p.read_text().splitlines(), 1) if GAME_WORDS.search(line)]
    assert hits == []


def test_search_never_imports_engine():
    pattern = re.compile(r"^\s*(from|import)\s+engine\b", re.M)
    offenders = [str(p) for p in python_files("search") if pattern.search(p.read_text())]
    assert offenders == []
