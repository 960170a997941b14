"""bench/versus.py: the same command in the working tree and at a commit, side by side."""
import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = ROOT / "bench" / "versus.py"
IN_GIT = subprocess.run(["git", "rev-parse", "--verify", "HEAD"], cwd=ROOT, capture_output=True).returncode == 0


def versus(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not IN_GIT, reason="needs the project's git history")
def test_a_command_runs_on_both_sides_and_the_ratio_is_printed():
    r = versus("--rounds", "1", "--", "solve", "rules/tictactoe.rules", "--json")
    assert r.returncode == 0, r.stderr
    assert "outputs: the same" in r.stdout
    r = versus("--rounds", "1", "--", "solve", "rules/tictactoe.rules")  # text showing its time
    assert r.returncode == 0, r.stderr
    assert "round 1: commit " in r.stdout and "round 1: working tree" in r.stdout
    assert "ratio of medians, working tree / commit: " in r.stdout
    # tic-tac-toe is a draw under best play: both sides solve it the same way
    assert "outputs: the same" in r.stdout


@pytest.mark.skipif(not IN_GIT, reason="needs the project's git history")
def test_an_unknown_commit_and_a_failing_command_are_clear_errors():
    r = versus("--base", "no-such-ref", "--", "solve", "rules/tictactoe.rules")
    assert r.returncode == 1
    assert "versus: cannot export 'no-such-ref'" in r.stderr
    assert "Traceback" not in r.stderr
    r = versus("--rounds", "1", "--", "solve", "rules/no-such.rules")
    assert r.returncode == 1
    assert "versus: the command failed" in r.stderr and "no such rule file" in r.stderr
    r = versus("--rounds", "0")
    assert r.returncode == 2 and "--rounds must be at least 1" in r.stderr


def test_json_outputs_are_compared_without_their_timing():
    spec = importlib.util.spec_from_file_location("versus", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    a = mod.comparable(json.dumps({"seconds": 1.5, "scores": [44, 37]}))
    b = mod.comparable(json.dumps({"seconds": 9.0, "scores": [44, 37]}))
    c = mod.comparable(json.dumps({"seconds": 1.5, "scores": [44, 38]}))
    assert a == b and a != c
    # text: the times in seconds are masked, everything else is kept
    assert mod.comparable("Tic-tac-toe: solved in 0.34 s\n") == mod.comparable("Tic-tac-toe: solved in 12 s\n")
    assert mod.comparable("value: X 0\n") != mod.comparable("value: X 1\n")
