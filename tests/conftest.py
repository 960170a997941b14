"""Shared fixtures: paths of the repository and its rule files."""
import multiprocessing
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# A suite started in the background by a shell (`pytest &`) ignores Ctrl-C, and so would every
# command it runs, which keep an ignored Ctrl-C ignored: the tests of Ctrl-C would wait for ever.
# They send it themselves, so the suite takes it as a terminal session would.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*.rules"))
# Settings the generic tests use for a rule file whose full game is too long for a quick suite
# (Scythe: up to 40 turns, some with thousands of moves).
TEST_SETTINGS = {"scythe.rules": {"max_turns": "6"}}


def suite_settings(path) -> dict:
    return dict(TEST_SETTINGS.get(Path(path).name, {}))


def set_args(path) -> list:
    """`--set K=V` arguments for suite_settings(path)."""
    return [a for k, v in suite_settings(path).items() for a in ("--set", f"{k}={v}")]


def first_diagnostic(path: Path, text: str):
    """Write text to path, check it, and return the first diagnostic (the check must fail)."""
    from engine.diagnostics import RuleErrors
    from engine.load import check_file
    path.write_text(text)
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    return info.value.diagnostics[0], info.value.render()


@pytest.fixture(scope="module")
def tictactoe():
    """rules/tictactoe.rules, loaded once for a module's tests."""
    from engine import load_game
    return load_game(str(ROOT / "rules" / "tictactoe.rules"))


def run_engine(*args, timeout=120):
    """Run `python -m engine ARGS` from the repository root; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def engine_cli():
    return run_engine


class Platform:
    """What multiprocessing tells of the platform, changed for a test: `without_fork()` makes it
    one that cannot fork (as Windows), and `contexts` lists the start methods asked for."""

    def __init__(self, monkeypatch):
        self.monkeypatch, self.contexts = monkeypatch, []
        get_context = multiprocessing.get_context

        def recorded(method=None):
            self.contexts.append(method)
            return get_context(method)
        monkeypatch.setattr(multiprocessing, "get_context", recorded)

    def without_fork(self):
        self.monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])


@pytest.fixture
def platform(monkeypatch):
    return Platform(monkeypatch)


# Players take 1 or 2 of a pile of 4 in turn; the last to take wins. `seats` says how many of the
# four named play (a game of one to four players).
TAKE_LAST = """param seats in 1..4 = 2
players A, B, C, D first seats
state { pile: 0..20 = 4  last: player = A }
action take "{current} takes {k}" { choose k in 1..2 where k <= pile  pile -= k  last = current }
turn { take }
terminal pile == 0
score for p: if p == last then 1 else 0
"""
