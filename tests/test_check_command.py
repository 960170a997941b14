"""`python -m engine check`: Hypothesis plays lines of every game and checks invariants and built-in properties.

The command-line tests run the real command on the rule files; the tests of the
built-in properties call `engine.properties.check_game` on tiny hand-written
games that each break one property.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tracemalloc
from types import SimpleNamespace

import pytest

from conftest import ROOT, RULE_FILES, run_engine, set_args, suite_settings
from engine import load_game
from engine import model as m
from engine.cli import main
from engine import properties
from engine.properties import BUILT_IN, check_game, check_in_parts
from search.protocol import CHANCE

FIXTURE = ROOT / "tests" / "fixtures" / "subtle.rules"
SWEEP_EXAMPLES = 200  # per parameter value, in-process
SWEEP_EXAMPLES_LONG = 25  # for games of many moves with wide choices (railroad-ink: ~40 moves of ~100 each)
LONG_GAMES = {"railroad-ink.rules", "scythe.rules"}
SMALL_DOMAIN = 8


def numbered_moves(output: str) -> list:
    """The move labels of a failure report, in order."""
    return re.findall(r"^  \d+\. (.*)$", output, re.M)


def small_parameter_values(path) -> list:
    """(name, value as `--set` text) for every value of every parameter whose domain is small."""
    game = load_game(str(path))
    c = game.compiler
    out = []
    for d in game.checker.decls:
        if not isinstance(d, m.Param):
            continue
        if d.domain is not None:
            values = [str(v) for v in c.expr(d.domain)(c.blank_env())]
        elif isinstance(c.params[d.name.name], bool):
            values = ["yes", "no"]
        else:
            continue  # an int without a domain
        if len(values) <= SMALL_DOMAIN:
            out += [(d.name.name, v) for v in values]
    return out


SWEEP = [(path, name, value) for path in RULE_FILES for name, value in small_parameter_values(path)]


# ---------------- the rule files pass ----------------

SAMPLE_NOTE = ("  no failure on these lines of play: a sample of the game's lines, not all of them (`solve` checks "
               "the invariants in every state of a game small enough)\n")


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_rule_file_passes_check_with_200_examples(path):
    # Railroad Ink's takes about 70 s of one core: the limit, against a hang, leaves room for a busy machine
    r = run_engine("check", path, "--examples", 200, *set_args(path), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.fullmatch(rf"{re.escape(str(path))}: ok \(200 examples, [\d,]+ steps, \d+ invariants? "
                        rf"\+ 6 built-in properties\)\n{re.escape(SAMPLE_NOTE)}", r.stdout), r.stdout
    assert r.stderr == ""


def test_a_game_with_one_line_of_play_is_checked_once_and_counted_in_the_singular(tmp_path):
    # by hand: n goes 0, 1, 2, 3, 4 and the game ends, so the one line of play has 4 moves; there
    # is 1 invariant. Hypothesis stops when no other line is left to try.
    path = tmp_path / "line.rules"
    path.write_text('state { n: 0..9 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 4\n'
                    'score n\ninvariant n <= 4\n', encoding="utf-8")
    r = run_engine("check", path, "--examples", 5)
    assert (r.returncode, r.stdout) == (
        0, f"{path}: ok (1 example, 4 steps, 1 invariant + 6 built-in properties)\n  no failure on any line of "
           "play of at most 1,000 moves: Hypothesis ran out of new lines to try, so every line was checked (1 "
           "played of the 5 examples asked)\n")


def test_a_check_that_runs_out_of_lines_says_every_line_was_checked(tmp_path):
    # by hand: from 0, adding 1 or 2 until n >= 4 gives 8 lines (f(n) = f(n+1) + f(n+2), f(3) = 2,
    # f(2) = 3, f(1) = 5, f(0) = 8), so 200 examples asked run out of lines; two parts each play them all
    path = tmp_path / "eight.rules"
    path.write_text("state { n: 0..5 = 0 }\naction add { choose k in 1..2  n += k }\nturn { add }\n"
                    "terminal n >= 4\nscore n\n", encoding="utf-8")
    for jobs, played in ((1, 8), (2, 16)):
        out = json.loads(run_engine("check", path, "--json", "--jobs", jobs).stdout)
        assert (out["ok"], out["examples"], out["every_line"]) == (True, played, True)
    r = run_engine("check", path, "--examples", 8)  # as many as there are: Hypothesis stops at the count asked
    assert "a sample of the game's lines" in r.stdout
    out = json.loads(run_engine("check", "rules/tictactoe.rules", "--json", "--examples", 20).stdout)
    assert (out["examples"], out["every_line"]) == (20, False)
    assert (out["file"], out["game"], out["set"], out["seed"]) == ("rules/tictactoe.rules", "Tic-tac-toe", [], 0)


def test_the_parameter_sweep_covers_every_small_domain():
    assert {(p.name, n, v) for p, n, v in SWEEP} >= {
        ("nidavellir.rules", "players", "2"), ("nidavellir.rules", "players", "5"),
        ("nidavellir.rules", "variant", "official"), ("nidavellir.rules", "variant", "blog")}


@pytest.mark.parametrize("path,name,value", SWEEP, ids=[f"{p.stem}-{n}={v}" for p, n, v in SWEEP])
def test_every_rule_file_passes_check_with_every_value_of_each_small_parameter(path, name, value):
    examples = SWEEP_EXAMPLES_LONG if path.name in LONG_GAMES else SWEEP_EXAMPLES
    r = check_game(load_game(str(path), {**suite_settings(path), name: value}), examples=examples, seed=0)
    assert r.failure is None, r.failure


# ---------------- failures: the shortest line, the invariant, the state ----------------

def test_round_below_5_fails_with_a_counterexample_of_exactly_five_moves():
    r = run_engine("check", "rules/nidavellir.rules", "--invariant", "round < 5")
    assert r.returncode == 1
    assert r.stdout.startswith("rules/nidavellir.rules: check failed after 5 moves\n"
                               "--invariant:1:1: error[invariant]: invariant does not hold\n"
                               "  1 | round < 5\n"
                               "    | ^^^^^^^^^\n"
                               "moves from the initial state (no line of fewer moves breaks a rule or property):\n")
    assert len(numbered_moves(r.stdout)) == 5  # by hand: the round goes up by one a move
    state = json.loads(r.stdout.splitlines()[-1].removeprefix("state: "))
    assert state["round"] == 5
    assert "Traceback" not in r.stderr and "Falsifying" not in r.stdout + r.stderr


FOUR_DICE = """game "four dice"
state { total: 0..200 = 0  rolled: bool = yes  moves: 0..30 = 0 }
chance when not rolled {
    draw a in 1..6
    draw b in 1..6
    draw c in 1..6
    draw d in 1..6
    total += a + b + c + d
    rolled = yes
}
action roll "roll" { rolled = no  moves += 1 }
action add "add 1" { total += 1  moves += 1 }
turn { either { add } or { roll } }
terminal moves == 30
score total
"""


@pytest.mark.parametrize("limit, fewest", [(20_000, True), (2, False)])
def test_a_failure_is_shortened_to_the_fewest_moves_by_checking_every_state_before_it(tmp_path, limit, fewest):
    # by hand: a total of 24 takes 24 adds, or a roll of four sixes (the only roll that makes 24),
    # so the fewest moves are the roll and its outcome. Handed a failure of 24 adds, the walk
    # through every state fewer moves from the start finds those two; with a limit of 2 states
    # (the start and the state after one add) it gives up before
    path = tmp_path / "dice.rules"
    path.write_text(FOUR_DICE, encoding="utf-8")
    game = load_game(str(path))
    below_24 = (SimpleNamespace(span=None), lambda s: dict(zip(game.field_names, s))["total"] < 24)
    run = properties._Run(game, (below_24,), None)
    found = properties.Failure("invariant", "invariant does not hold", None, ("add 1",) * 24, {})
    shortest = properties._fewest(run, found, limit=limit)
    assert shortest.fewest is fewest
    assert shortest.moves == (("roll", "chance: a = 6 | b = 6 | c = 6 | d = 6") if fewest else ("add 1",) * 24)


def test_the_subtle_fixture_is_caught_after_exactly_the_three_moves_that_break_it():
    r = run_engine("check", FIXTURE)
    assert r.returncode == 1
    assert f"{FIXTURE}:29:1: error[invariant]: invariant does not hold" in r.stdout
    assert numbered_moves(r.stdout) == ["press green", "press blue", "press red"]
    assert r.stdout.endswith('state: {"matched": 3, "opened": 0, "presses": 3}\n')


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_seed_shrinks_the_fixture_to_the_same_three_moves(seed):
    game = load_game(str(FIXTURE))
    f = check_game(game, examples=200, seed=seed).failure
    assert f.moves == ("press green", "press blue", "press red")


def test_a_seed_makes_a_run_reproducible():
    first, second = (run_engine("check", "rules/tictactoe.rules", "--seed", 7, "--examples", 50,
                                "--invariant", "len(marks) < 6") for _ in range(2))
    assert first.returncode == 1
    assert first.stdout == second.stdout


def test_a_rule_that_fails_while_playing_is_reported_with_the_line_that_reaches_it(tmp_path):
    f = tmp_path / "index.rules"
    f.write_text("state { x: 0..5 = 0 }\naction go \"go {k}\" { choose k in 1..2  x += k }\nturn { go }\n"
                 "terminal x >= 5 or [0, 1, 2, 3][x] < 0\nscore x\n")
    r = run_engine("check", f)
    assert r.returncode == 1
    assert f"{f}:4:20: error[runtime]: index 4 is outside a list of 4 elements: [0, 1, 2, 3]" in r.stdout
    assert "hint: a list's indexes run from 0 to len(xs) - 1" in r.stdout
    assert numbered_moves(r.stdout) == ["go 2", "go 2"]
    assert "Traceback" not in r.stdout + r.stderr
    failure = json.loads(run_engine("check", f, "--json").stdout)["failure"]
    assert failure["hint"].startswith("a list's indexes run from 0 to len(xs) - 1")


def test_json_output_is_one_object_with_the_failure():
    r = run_engine("check", FIXTURE, "--json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["ok"] is False and out["properties"] == len(BUILT_IN)
    assert out["failure"]["at"] == f"{FIXTURE}:29:1"
    assert out["failure"]["moves"] == ["press green", "press blue", "press red"]
    assert out["failure"]["state"] == {"matched": 3, "opened": 0, "presses": 3}
    assert out["failure"]["hint"] is None  # a broken invariant has no hint


def test_jobs_share_the_examples_and_the_shortest_failure_is_reported():
    # 31 examples in 2 processes: 16 and 15, which add up to the 31 asked for
    ok = run_engine("check", "rules/tictactoe.rules", "--examples", 31, "--jobs", 2)
    assert ok.returncode == 0 and "ok (31 examples, " in ok.stdout, ok.stdout + ok.stderr
    # the fixture's shortest failing line, as with one process; the same seed and jobs, the same report
    first, second = (run_engine("check", FIXTURE, "--jobs", 2) for _ in range(2))
    assert first.returncode == 1
    assert numbered_moves(first.stdout) == ["press green", "press blue", "press red"]
    assert first.stdout == second.stdout


def test_without_fork_or_a_way_to_rebuild_the_game_the_parts_are_checked_one_after_another_with_the_same_report(
        platform):
    game = load_game("rules/tictactoe.rules")
    forked = check_in_parts(game, jobs=2, examples=31)
    one_job = check_in_parts(game, jobs=1, examples=31)
    platform.without_fork()
    seen = []
    alone = check_in_parts(game, jobs=2, examples=31, progress=lambda n, k: seen.append((n, k)))
    assert alone == forked and alone.examples == 31
    assert alone.steps != one_job.steps  # the lines of two parts, not those of one
    assert seen[-1] == (alone.examples, alone.steps)  # progress adds up the parts


def test_check_with_two_jobs_on_a_system_that_cannot_fork_starts_its_processes_afresh_with_the_same_report(
        platform, capsys):
    # by hand: X, O, X, O, X is the least a game can go before five cells are marked
    args = ["check", "rules/tictactoe.rules", "--examples", "31", "--jobs", "2", "--invariant", "len(marks) < 5",
            "--json"]
    runs = []
    for system in ("forks", "cannot fork"):
        assert main(args) == 1
        runs.append(capsys.readouterr())
        platform.without_fork()
    forked, started = (json.loads(r.out) for r in runs)
    assert started == forked
    assert len(started["failure"]["moves"]) == 5
    assert platform.contexts == ["fork", "spawn"]
    assert runs[1].err == ""


def test_check_leaves_no_hypothesis_directory_behind(tmp_path):
    r = subprocess.run([sys.executable, "-m", "engine", "check", ROOT / "tests" / "fixtures" / "subtle.rules"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert list(tmp_path.iterdir()) == []


# ---------------- usage errors ----------------

@pytest.mark.parametrize("expr,expected", [
    ("rund < 5", "--invariant:1:1: error[unknown-name]: unknown name 'rund'\n  1 | rund < 5\n    | ^^^^\n"
                 "hint: did you mean 'round'?"),
    ("round + 1", "--invariant:1:1: error[type-mismatch]: an invariant must be bool, got int\n"
                  "  1 | round + 1\n    | ^^^^^^^^^"),
    ("round <", "--invariant:1:8: error[syntax]: expected a name"),
    ("round < 5 && round >= 0", "--invariant:1:11: error[syntax]: expected "),
    ("round in 0..8", "--invariant:1:11: error[syntax]: expected "),
])
def test_a_bad_invariant_expression_is_a_usage_error_with_a_caret_not_a_traceback(expr, expected):
    r = run_engine("check", "rules/nidavellir.rules", "--invariant", expr)
    assert r.returncode == 2
    assert r.stderr.startswith(expected), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.parametrize("expr, hint", [
    ("round < 5 && round >= 0", "write `and` for both"),
    ("round in 0..8", "a range after `in` goes in brackets: x in (1..5)"),
])
def test_a_habit_in_an_invariant_expression_gets_the_hint_it_gets_in_a_file(expr, hint):
    r = run_engine("check", "rules/nidavellir.rules", "--invariant", expr)
    assert r.returncode == 2
    assert r.stderr.rstrip("\n").endswith(f"\nhint: {hint}"), r.stderr


def test_the_second_invariant_is_line_2_of_the_command_line_source():
    r = run_engine("check", "rules/nidavellir.rules", "--invariant", "round >= 0", "--invariant", "pouch")
    assert r.returncode == 2
    assert r.stderr.startswith("--invariant:2:1: error[type-mismatch]: an invariant must be bool, got bag<Coin>\n"
                               "  2 | pouch\n")


@pytest.mark.parametrize("args,message", [
    (["rules/nidavellir.rules", "--examples", "0"], "error: --examples 0: expected a positive number"),
    (["rules/nidavellir.rules", "--set", "players=9"], "error: --set players=9: 'players' must be in 2..5"),
    (["rules/missing.rules"], "error: rules/missing.rules: no such rule file"),
    (["rules/tictactoe.rule"], "error: rules/tictactoe.rule: no such rule file; did you mean rules/tictactoe.rules?"),
    (["rules/scyth.rules"], "error: rules/scyth.rules: no such rule file; did you mean rules/scythe.rules?"),
    (["rules/nidavellir.rules", "--jobs", "0"], "error: --jobs 0: expected a positive number"),
])
def test_usage_errors_exit_2_in_one_line(args, message):
    r = run_engine("check", *args)
    assert r.returncode == 2
    assert r.stderr == message + "\n"


# ---------------- built-in properties, on tiny games that break them ----------------

class Counter:
    """Add 1 or 2 to a counter until it reaches 4: a correct one-player game, state (n,)."""

    num_players = 1

    def initial_state(self):
        return (0,)

    def current_player(self, s):
        return 0

    def legal_moves(self, s):
        return () if self.is_terminal(s) else ("add 1", "add 2")

    def chance_outcomes(self, s):
        return ()

    def apply(self, s, mv):
        return (s[0] + int(mv[-1]),)

    def is_terminal(self, s):
        return s[0] >= 4

    def returns(self, s):
        return (float(s[0]),)

    def evaluate(self, s, heuristic=None):
        return float(s[0])

    def key(self, s):
        return tuple(s)

    def describe(self, mv):
        return mv


class ApplyChangesItsInput(Counter):
    def initial_state(self):
        return [0]

    def apply(self, s, mv):
        s[0] += int(mv[-1])
        return list(s)


class FifthMoveChangesItsInput(Counter):
    """Eight moves a state; the fifth one writes into the state it is applied to."""

    def initial_state(self):
        return [0]

    def legal_moves(self, s):
        return () if self.is_terminal(s) else tuple(f"add {k}" for k in range(1, 9))

    def apply(self, s, mv):
        if mv == "add 5":
            s[0] += 5
        return [s[0] + int(mv[-1])]


class CoarseKeys(Counter):
    def key(self, s):
        return s[0] // 2  # 0 and 1 share a key but not their next states


class CoarseKeysOtherLabels(Counter):
    """0 and 1 share a key; 1 lists its moves in the other order."""

    def key(self, s):
        return 0 if s[0] < 2 else s[0]

    def legal_moves(self, s):
        return () if self.is_terminal(s) else (("add 2", "add 1") if s[0] == 1 else ("add 1", "add 2"))


class CoarseKeysOtherEvaluations(Counter):
    """State (n, m): m is 1 when the line began with add 2, and counts in the evaluation but not in
    the key, the moves or the next keys."""

    def initial_state(self):
        return (0, 0)

    def apply(self, s, mv):
        return (s[0] + int(mv[-1]), 1 if s == (0, 0) and mv == "add 2" else s[1])

    def evaluate(self, s, heuristic=None):
        return float(s[0] + s[1])

    def key(self, s):
        return s[0]


class Wide(Counter):
    """1,000 moves a state, three moves deep: state (last move, depth)."""

    def initial_state(self):
        return (0, 0)

    def legal_moves(self, s):
        return () if self.is_terminal(s) else tuple(f"go {i}" for i in range(1000))

    def apply(self, s, mv):
        return (int(mv[3:]), s[1] + 1)

    def is_terminal(self, s):
        return s[1] >= 3


class MovesAtTheEnd(Counter):
    def legal_moves(self, s):
        return ("add 1", "add 2")


class NoReturns(Counter):
    def returns(self, s):
        return ()


class CoinFlips(Counter):
    """A chance node before every move: heads adds 1, tails adds 2."""

    weights = (0.5, 0.5)

    def current_player(self, s):
        return CHANCE

    def legal_moves(self, s):
        return ()

    def chance_outcomes(self, s):
        return () if self.is_terminal(s) else tuple(zip(("heads 1", "tails 2"), self.weights))


class UnfairCoin(CoinFlips):
    weights = (0.5, 0.6)


class ImpossibleOutcome(CoinFlips):
    weights = (1.0, 0.0)


class ApplyFails(Counter):
    def apply(self, s, mv):
        if s[0] == 1 and mv == "add 2":
            raise KeyError("no such move")
        return super().apply(s, mv)


class SameLabelTwice(Counter):
    def legal_moves(self, s):
        return () if self.is_terminal(s) else ("add 1", "add 2", "add 2")


def check(game, **options):
    return check_game(game, examples=100, seed=0, **options)


def test_a_correct_game_passes_every_built_in_property():
    r = check(Counter())
    assert r.failure is None
    assert r.examples > 0 and r.steps >= 2 * r.examples


def test_a_game_whose_apply_changes_its_input_state_is_caught():
    f = check(ApplyChangesItsInput()).failure
    assert f.code == "property" and f.span is None
    assert f.message.startswith("apply changed its input state: applying 'add 1' turned [0] into [1]")
    assert f.moves == ()


def test_a_change_made_by_a_later_move_is_caught_and_placed_between_two_checks():
    # checked after moves 1, 2, 4, 8: the fifth changes [0] into [5], seen after the eighth
    f = check(FifthMoveChangesItsInput()).failure
    assert f.code == "property" and f.moves == ()
    assert f.message.startswith("apply changed its input state: applying one of the moves from 'add 5' to "
                                "'add 8' (moves 5-8) turned [0] into [5]")


def test_a_game_whose_equal_keys_lead_to_different_states_is_caught():
    f = check(CoarseKeys()).failure
    assert f.message.startswith("equal keys give different next states")
    assert f.moves == ("add 1",)


def test_a_game_whose_equal_keys_list_other_moves_is_caught_with_both_lists():
    f = check(CoarseKeysOtherLabels()).failure
    assert f.message == ("equal keys give different legal moves: the state with this key in the initial state had "
                         "'add 1', 'add 2', this one has 'add 2', 'add 1'")
    assert f.moves == ("add 1",)


def test_a_game_whose_equal_keys_evaluate_differently_is_caught_with_both_evaluations():
    # (2, 0) after add 1, add 1 evaluates to 2; (2, 1) after add 2 to 3; both have key 2
    f = check(CoarseKeysOtherEvaluations()).failure
    assert f.message.startswith("equal keys give different evaluations: the state with this key after ")
    assert {"(2.0,)", "(3.0,)"} == set(re.findall(r"\(\d\.0,\)", f.message))


def test_check_keeps_no_moves_of_the_states_it_has_seen():
    # 50 lines of 3 moves, each state 1,000 moves: memory held between lines, when the moves of
    # the last state visited are gone. Keeping each state's labels and the keys of its next
    # states, as check once did, held about 80 kB for each of the 100 or so states with moves (8.3 MB)
    held = []
    tracemalloc.start()
    try:
        r = check_game(Wide(), examples=50, seed=0,
                       progress=lambda *_: held.append(tracemalloc.get_traced_memory()[0]))
    finally:
        tracemalloc.stop()
    assert r.failure is None and r.examples == 50
    assert max(held) - held[0] < 3_000_000  # about 0.7 MB now, most of it Hypothesis's own record of the lines


def test_a_terminal_state_with_legal_moves_is_caught():
    f = check(MovesAtTheEnd()).failure
    assert f.message == "a terminal state has legal moves: expected none, got 2 ('add 1', 'add 2')"
    assert f.moves == ("add 2", "add 2")


def test_a_terminal_state_without_returns_is_caught():
    f = check(NoReturns()).failure
    assert f.message == "returns of a terminal state: expected 1 finite number(s), got ()"


def test_chance_outcomes_whose_weights_do_not_sum_to_1_are_caught():
    f = check(UnfairCoin()).failure
    assert f.message == "chance outcomes' weights sum to 1.1: expected 1 (2 outcome(s))"
    assert f.moves == ()


def test_a_chance_outcome_without_a_positive_weight_is_caught():
    f = check(ImpossibleOutcome()).failure
    assert f.message == "chance outcome 'tails 2' has weight 0.0: expected a positive number"


def test_hypothesis_picks_chance_outcomes_and_shrinks_through_them():
    over = SimpleNamespace(span=m.Span("--invariant", 1, 1, 1, 6))
    r = check(CoinFlips())
    assert r.failure is None
    f = check(CoinFlips(), extra_invariants=[(over, lambda s: s[0] != 3)]).failure
    assert f.code == "invariant" and f.span is over.span
    assert f.moves == ("chance: heads 1", "chance: tails 2")  # the steps chance took, marked


def test_a_legal_move_that_cannot_be_applied_is_caught():
    f = check(ApplyFails()).failure
    assert f.message == "apply of move 'add 2' raised KeyError: 'no such move'"
    assert f.moves == ("add 1",)


def test_two_moves_of_one_state_with_the_same_label_are_caught():
    f = check(SameLabelTwice()).failure
    assert f.message == "moves of one state have distinct labels: 'add 2' labels 2 moves"
    assert f.moves == ()


def test_six_built_in_properties_are_checked():
    assert len(BUILT_IN) == 6


def test_the_commands_reference_shows_what_check_prints():
    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    block = re.search(r"^    \$ python -m engine check (.*)\n((?:    [^$].*\n)+)", reference, re.M)
    args = re.findall(r'"[^"]*"|\S+', block.group(1))
    r = run_engine("check", *(a.strip('"') for a in args))
    assert r.stdout == re.sub(r"^    ", "", block.group(2), flags=re.M)


def _rule_file_gone():  # a rebuild that fails in each process started afresh: pickled by name, at module level
    raise FileNotFoundError("the rule file is gone")


def test_a_check_process_that_cannot_rebuild_the_game_fails_instead_of_being_started_again(platform):
    game = load_game("rules/tictactoe.rules")
    platform.without_fork()
    with pytest.raises(FileNotFoundError, match="the rule file is gone"):
        check_in_parts(game, jobs=2, examples=4, rebuild=_rule_file_gone)


def test_a_module_loaded_besides_does_not_change_the_lines_a_seed_plays(tmp_path, monkeypatch):
    game = load_game("rules/railroad-ink.rules")

    def lines():
        keys = []
        recorder = (SimpleNamespace(span=None), lambda s: keys.append(game.key(s)) or True)
        check_game(game, examples=20, seed=3, extra_invariants=[recorder])
        return keys
    before = lines()
    # Hypothesis draws now and then a number from the source of modules loaded from outside
    # site-packages: a module of the user's, full of numbers in the range of the moves' indices
    (tmp_path / "numbers_of_mine.py").write_text("N = [" + ", ".join(map(str, range(11, 160, 2))) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sys.modules, "numbers_of_mine", __import__("numbers_of_mine"))
    assert lines() == before


def test_check_shows_every_state_through_the_view_as_validate_does(tmp_path):
    # by hand: the view reads a list of two at index n, so it fails once n reaches 2, after 2 moves
    path = tmp_path / "view.rules"
    path.write_text('state { n: 0..3 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 3\nscore n\n'
                    'view ["none", "one"][n]\n', encoding="utf-8")
    r = run_engine("check", path)
    assert r.returncode == 1
    assert r.stdout.startswith(f"{path}: check failed after 2 moves\n{path}:6:6: error[runtime]: index 2 is "
                               "outside a list of 2 elements"), r.stdout
    assert "(while showing the state below through the view)\n" in r.stdout


@pytest.mark.parametrize("score, ok", [("10 // k", True), ("10 // (k - 2)", False)])
def test_a_score_that_fails_before_the_end_is_no_failure_but_one_that_fails_at_the_end_is(tmp_path, score, ok):
    # by hand: k is 0 at the start and 2 at the end; 10 // k fails only at the start, 10 // (k - 2) at the end
    path = tmp_path / "score.rules"
    path.write_text(f"state {{ k: 0..2 = 0 }}\naction step {{ k += 1 }}\nturn {{ step }}\nterminal k == 2\n"
                    f"score {score}\n", encoding="utf-8")
    r = run_engine("check", path)
    assert r.returncode == (0 if ok else 1), r.stdout
    if not ok:
        assert r.stdout.startswith(f"{path}: check failed after 2 moves\n{path}:5:14: error[runtime]: division by "
                                   "zero (while scoring the state below)\n"), r.stdout


def test_a_rule_failing_while_the_moves_are_listed_says_so(tmp_path):
    # by hand: after two steps n == 2, and listing its moves reads index 2 of a list of two
    path = tmp_path / "list.rules"
    path.write_text('state { n: 0..3 = 0 }\naction step { n += [1, 1][n] }\nturn { step }\nterminal n == 3\n'
                    'score n\n', encoding="utf-8")
    r = run_engine("check", path)
    assert r.returncode == 1
    assert (f"{path}: check failed after 2 moves\n{path}:2:20: error[runtime]: index 2 is outside a list of 2 "
            "elements: [1, 1] (while listing the moves of the state below)\n") in r.stdout, r.stdout


def test_check_counts_the_lines_that_stop_at_a_dead_end(tmp_path):
    # by hand: the one line goes 0, 1, 2 and stops there, where the require holds no more and n == 4
    # (the end) is not reached
    path = tmp_path / "dead.rules"
    path.write_text("state { n: 0..4 = 0 }\naction step { require n != 2  n += 1 }\nturn { step }\n"
                    "terminal n == 4\nscore n\n", encoding="utf-8")
    out = json.loads(run_engine("check", path, "--json").stdout)
    assert (out["ok"], out["examples"], out["steps"], out["dead_ends"]) == (True, 1, 2, 1)
    assert ("  1 of the lines stopped at a dead end, a state that is not terminal where no move is legal"
            in run_engine("check", path).stdout)


def test_a_failure_shows_its_state_through_the_view_too():
    # tic-tac-toe's view draws the grid a row a line; the state after three marks, drawn by hand
    # from the state check prints
    r = run_engine("check", "rules/tictactoe.rules", "--invariant", "len(marks) < 3", "--seed", "1")
    assert r.returncode == 1
    marks = json.loads(r.stdout.split("\nstate: ", 1)[1].split("\n", 1)[0])["marks"]
    rows = [["."] * 3 for _ in range(3)]
    for (row, col), mark in marks:
        rows[row][col] = mark
    assert r.stdout.endswith("as the view shows it:\n" + "".join(f"  {''.join(row)}\n" for row in rows))
    out = json.loads(run_engine("check", "rules/tictactoe.rules", "--invariant", "len(marks) < 3", "--seed", "1",
                                "--json").stdout)
    assert out["failure"]["view"] == "\n".join("".join(row) for row in rows)
    s = run_engine("solve", "rules/tictactoe.rules", "--invariant", "len(marks) < 3")
    assert s.stderr.endswith("as the view shows it:\n  XOX\n  ...\n  ...\n")  # X, O, X along the top, in order
