"""Invariants that read old(EXPR), the state before the last step: checked on every step by
validate, check and solve, where a state invariant cannot say "an owner never changes"."""
from __future__ import annotations

import json

import pytest

from conftest import run_engine
from engine.load import check_file
from engine.diagnostics import RuleErrors

# Two players in turn claim one of the spaces 0..3, four claims in all. `where k not in owner`
# keeps a space's owner once it has one; without it a claimed space can be taken over.
CLAIMS = """game "claims"
players A, B
state { owner: map<int, player> = {}  n: 0..4 = 0 }
action claim "{current} claims {k}" { choose k in 0..3 WHERE  owner[k] = current  n += 1 }
turn { claim }
terminal n == 4
score for p: count(k for k in keys(owner) where owner[k] == p)
invariant all(k in owner and owner[k] == old(owner)[k] for k in keys(old(owner)))
invariant n == old(n) + 1
"""

# One player rolls a die three times and adds it up: the total never goes down, across the chance
# steps too. `bad` lets a roll of 1 take 2 off instead.
ROLLS = """game "rolls"
param bad = no
state { total: 0..18 = 0  rolls: 0..3 = 0  rolled: bool = no  last: 1..6 = 1 }
chance when not rolled { draw r in 1..6  last = r  rolled = yes }
action add "add {last}" { require rolled  total += if bad and last == 1 and total >= 2 then -2 else last
                           rolls += 1  rolled = no }
turn { add }
terminal rolls == 3 and not rolled
score total
invariant total >= old(total)
"""


@pytest.fixture
def claims(tmp_path):
    def write(where: str):
        path = tmp_path / "claims.rules"
        path.write_text(CLAIMS.replace("WHERE", where), encoding="utf-8")
        return path
    return write


def test_rules_that_keep_every_step_invariant_pass_validate_check_and_solve(claims, tmp_path):
    path = claims("where k not in owner")
    assert run_engine("validate", path).returncode == 0
    r = run_engine("check", path, "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["ok"] and out["invariants"] == 2
    assert run_engine("solve", path).returncode == 0
    rolls = tmp_path / "rolls.rules"
    rolls.write_text(ROLLS, encoding="utf-8")
    assert run_engine("solve", rolls).returncode == 0 and run_engine("check", rolls).returncode == 0


def test_a_claim_taken_over_breaks_the_step_invariant_in_validate_check_and_solve(claims):
    # by hand: the fewest moves are two, A claims 0 then B claims 0 (the moves in order, breadth first)
    path = claims("")
    v = run_engine("validate", path)
    assert v.returncode == 1 and f"{path}:8:1: error[invariant]: invariant does not hold after " in v.stderr
    c = run_engine("check", path)
    assert c.returncode == 1
    assert c.stdout.endswith(
        "moves from the initial state (no line of fewer moves breaks a rule or property):\n"
        "  1. A claims 0\n  2. B claims 0\n"
        'state before the last step: {"owner": [[0, "A"]], "n": 1, "to_move": "B"}\n'
        'state: {"owner": [[0, "B"]], "n": 2, "to_move": "A"}\n')
    failure = json.loads(run_engine("check", path, "--json").stdout)["failure"]
    assert (failure["at"], failure["moves"], failure["before"]["owner"]) == (
        f"{path}:8:1", ["A claims 0", "B claims 0"], [[0, "A"]])
    s = run_engine("solve", path)
    assert s.returncode == 1 and s.stdout == ""
    assert "invariant does not hold after 2 moves; no fewer moves break an invariant" in s.stderr
    assert s.stderr.endswith("  1. A claims 0\n  2. B claims 0\n"
                             'state before the last step: {"owner": [[0, "A"]], "n": 1, "to_move": "B"}\n'
                             'state: {"owner": [[0, "B"]], "n": 2, "to_move": "A"}\n')


def test_a_step_invariant_is_checked_on_chance_steps_too(tmp_path):
    # by hand: a first roll of 2 or more brings the total to 2 or more, and a second roll of 1 then
    # takes 2 off: roll, add, roll 1, add 1, four steps (chance outcomes are steps of the line)
    path = tmp_path / "rolls.rules"
    path.write_text(ROLLS, encoding="utf-8")
    r = run_engine("solve", path, "--set", "bad=yes")
    assert r.returncode == 1 and f"{path}:10:1: error[invariant]: invariant does not hold after 4 moves" in r.stderr
    assert "  1. chance: r = 2\n  2. add 2\n  3. chance: r = 1\n  4. add 1\n" in r.stderr  # chance's steps marked
    c = json.loads(run_engine("check", path, "--set", "bad=yes", "--json").stdout)["failure"]
    assert c["at"] == f"{path}:10:1" and c["moves"][-1] == "add 1" and c["state"]["total"] < c["before"]["total"]
    assert [m.startswith("chance: r = ") for m in c["moves"]] == [True, False] * (len(c["moves"]) // 2)


@pytest.mark.parametrize("text, message", [
    ("terminal old(n) == 4", "old(...) outside an invariant"),
    ("def before(x) = old(x)\ninvariant before(n) <= n", "old(...) outside an invariant"),
    ("invariant old(old(n)) <= n", "old(...) inside old(...)"),
    ("invariant old(n, n) <= n", "old() takes 1 argument, got 2"),
], ids=["terminal", "def", "nested", "arity"])
def test_old_outside_an_invariant_of_the_file_is_an_error_at_old(tmp_path, text, message):
    game = ('state { n: 0..4 = 0 }\naction step { n += 1 }\nturn { step }\n'
            + ("terminal n == 4\n" if not text.startswith("terminal") else "") + "score n\n" + text + "\n")
    path = tmp_path / "g.rules"
    path.write_text(game, encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    [d] = info.value.diagnostics
    assert d.message == message and d.span.line == game.splitlines().index(
        next(line for line in game.splitlines() if "old(" in line)) + 1


def test_an_invariant_given_on_the_command_line_may_read_old(claims, tmp_path):
    # the claims game without `where k not in owner`: by hand A claims 0, then B takes it over; the
    # command line says so without the file's own invariants (removed here)
    path = claims("")
    path.write_text("\n".join(line for line in path.read_text().splitlines() if not line.startswith("invariant")))
    owner_stays = "all(k in owner and owner[k] == old(owner)[k] for k in keys(old(owner)))"
    c = json.loads(run_engine("check", path, "--invariant", owner_stays, "--json").stdout)["failure"]
    assert (c["at"], c["moves"], c["before"]["owner"]) == ("--invariant:1:1", ["A claims 0", "B claims 0"],
                                                           [[0, "A"]])
    s = run_engine("solve", path, "--invariant", owner_stays)
    assert s.returncode == 1 and "invariant does not hold after 2 moves; no fewer moves break" in s.stderr
    assert run_engine("solve", claims("where k not in owner"), "--invariant", owner_stays).returncode == 0
    r = run_engine("search", path, "--algo", "beam", "--filter", "n >= old(n)")  # a filter sees one state
    assert r.returncode == 2 and "--filter:1:6: error[misplaced]: old(...) outside an invariant" in r.stderr
