"""solve --sweep NAME: a solve for each value of a parameter, one row each."""
from __future__ import annotations

import json

import pytest

from conftest import run_engine

# by hand: from 0, adding 1 or 2 until x >= n, the best end is n + 1 (one short of n, then 2);
# the states are x = 0..n+1, n + 2 of them
REACH = """game "reach"
param n in 1..3 = 1
state { x: 0..9 = 0 }
action add "add {k}" { choose k in 1..2  x += k }
turn { add }
terminal x >= n
score x
"""


def test_a_sweep_solves_once_for_each_value_and_prints_a_row_each(tmp_path):
    path = tmp_path / "reach.rules"
    path.write_text(REACH)
    r = run_engine("solve", path, "--sweep", "n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "reach: solved for each value of n"
    assert lines[1].split() == ["n", "best", "score", "paths", "to", "it", "distinct", "states", "seconds", "first",
                                "move"]
    # by hand, the paths to the best end: n = 1: add 2; n = 2: add 1, add 2; n = 3: 1, 1, 2 and 2, 2, of
    # which the best line takes the soonest end
    assert [row.split()[:4] + row.split()[-2:] for row in lines[2:]] == [
        ["1", "2", "1", "3", "add", "2"], ["2", "3", "1", "4", "add", "1"], ["3", "4", "2", "5", "add", "2"]]
    out = json.loads(run_engine("solve", path, "--sweep", "n", "--json").stdout)
    assert (out["game"], out["sweep"]) == ("reach", "n")
    assert [(run["swept"], run["set"], run["best_score"], run["distinct_states"]) for run in out["runs"]] == [
        (1, ["n=1"], 2, 3), (2, ["n=2"], 3, 4), (3, ["n=3"], 4, 5)]  # a whole number as a number


def test_a_value_the_file_forbids_is_a_row_and_a_failing_solve_says_which_value(tmp_path):
    path = tmp_path / "reach.rules"
    path.write_text(REACH + 'forbid n == 2 "two is not played"\n')
    r = run_engine("solve", path, "--sweep", "n", "--max-states", 4)  # n = 3 has 5 states
    assert r.returncode == 1
    assert r.stdout.splitlines()[3:] == ["  2  forbidden by the file", "  3  more than 4 states"]
    assert r.stderr.startswith(f"with --set n=3:\nerror: {path}: more than 4 states and not solved yet")
    out = json.loads(run_engine("solve", path, "--sweep", "n", "--max-states", 4, "--json").stdout)
    assert [sorted(run) for run in out["runs"][1:]] == [["forbidden", "swept"], ["error", "max_states", "swept"]]
    assert "two is not played" in out["runs"][1]["forbidden"]


def test_a_value_whose_rules_fail_is_a_row_and_the_other_values_are_still_solved(tmp_path):
    # n = 2: the first `add 1` reaches x = 1, where [5, 6][x + 1] reads past the end of the list
    path = tmp_path / "reach.rules"
    path.write_text(REACH.replace("terminal x >= n", "terminal x >= n or n == 2 and [5, 6][x + 1] < 0"))
    r = run_engine("solve", path, "--sweep", "n")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    rows = r.stdout.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [["1", "2"], ["2", "failed:"], ["3", "4"]], r.stdout
    assert r.stderr.startswith(f"with --set n=2:\n{path}:6:"), r.stderr
    assert "error[runtime]: index 2 is outside a list" in r.stderr and "--set n=2` looks among random" in r.stderr
    out = json.loads(run_engine("solve", path, "--sweep", "n", "--json").stdout)
    assert [sorted(run)[:2] for run in out["runs"]] == [["best_line", "best_score"], ["diagnostics", "error"],
                                                         ["best_line", "best_score"]]
    assert out["runs"][1]["diagnostics"][0]["code"] == "runtime"


def test_a_sweep_of_numbers_skips_those_past_the_one_with_too_many_states(tmp_path):
    # n + 2 states (by hand, above): with at most 3, n = 2 stops at the limit and n = 3 is not tried
    path = tmp_path / "reach.rules"
    path.write_text(REACH)
    r = run_engine("solve", path, "--sweep", "n", "--max-states", 3)
    assert r.returncode == 1
    assert r.stdout.splitlines()[2:] == [
        r.stdout.splitlines()[2], "  2  more than 3 states", "  3  skipped",
        "  skipped: 3, as n=2 has more than 3 states; --sweep n=3 solves it all the same (--max-states N lets solve "
        "hold more)"]
    assert r.stdout.splitlines()[2].split()[:4] == ["1", "2", "1", "3"]
    assert r.stderr.count("more than 3 states") == 1
    out = json.loads(run_engine("solve", path, "--sweep", "n", "--max-states", 3, "--json").stdout)
    assert out["runs"][2] == {"swept": 3, "skipped": "n=2 has more than 3 states"}
    assert out["runs"][1]["max_states"] == 3
    named = json.loads(run_engine("solve", path, "--sweep", "n=1..3", "--max-states", 3, "--json").stdout)
    assert [("skipped" in run, "error" in run) for run in named["runs"]] == [(False, False), (False, True),
                                                                         (False, True)]  # each named value tried
    r = run_engine("solve", path, "--sweep", "n=1..3", "--max-states", 3)  # the message once, then a line
    assert r.stderr.count("not solved yet") == 1 and r.stderr.endswith(
        "with --set n=3: more than 3 states too, as with n=2\n"), r.stderr


@pytest.mark.parametrize("args, message", [
    (("--sweep", "nn"), "error: --sweep nn: the file has no parameter nn; did you mean n?"),
    (("--sweep", "n", "--set", "n=2"), "error: --sweep n: n is set by --set n=2; sweep it or set it"),
    (("--sweep", "n", "--policy", "p.jsonl"), "error: --policy takes one solve: it cannot go with --sweep"),
    (("--sweep", "n", "--moves"), "error: --moves: the table of --sweep has a row per value, without the first "
                                  "moves; with --json each run has them, or solve one value with --set n=V"),
    (("--sweep", "n", "--lines", "2"), "error: --lines: the table of --sweep has a row per value, without the "
                                       "lines of best play (--lines 0 counts them in a column); with --json each run "
                                       "has them, or solve one value with --set n=V"),
    (("--sweep", "n,m"), "error: --sweep n,m: a --sweep names one parameter; for each combination of two "
                         "parameters' values, name each: --sweep n --sweep m"),
    (("--sweep", "n", "--sweep", "n=2"), "error: --sweep n is given twice; a parameter is swept once, its values "
                                         "named together: --sweep n=V,W,..."),
], ids=["unknown", "set-too", "policy", "moves", "lines", "two", "twice"])
def test_a_sweep_that_cannot_run_is_a_usage_error(tmp_path, args, message):
    path = tmp_path / "reach.rules"
    path.write_text(REACH)
    r = run_engine("solve", path, *args)
    assert (r.returncode, r.stderr) == (2, message + "\n")


def test_values_from_which_no_end_can_be_reached_are_rows_that_say_so_and_the_message_is_told_once(tmp_path):
    path = tmp_path / "ring.rules"
    path.write_text('game "ring"\nparam target in 1..5 = 1\nstate { n: 0..3 = 0  spent: int = 0 scored }\n'
                    'action go "go" { n = (n + 1) % 4  spent -= 1 }\nturn { go }\nterminal n == target\n'
                    "score spent\n")
    r = run_engine("solve", path, "--sweep", "target")
    # by hand: target t of 1..3 is t steps round the ring of four; 4 and 5 are never reached
    assert r.returncode == 1 and r.stderr.count("no end of the game can be reached") == 1, r.stderr
    rows = [row.split(None, 1) for row in r.stdout.splitlines()[2:]]
    assert [(t, rest.split()[0]) for t, rest in rows[:3]] == [("1", "-1"), ("2", "-2"), ("3", "-3")], r.stdout
    assert [(t, rest.strip()) for t, rest in rows[3:]] == [("4", "no end can be reached: no value"),
                                                            ("5", "no end can be reached: no value")], r.stdout
    assert json.loads(run_engine("solve", path, "--set", "target=4", "--json").stdout)["no_end"] is True


def test_a_sweep_counts_the_lines_of_best_play_and_measures_in_columns(tmp_path):
    path = tmp_path / "reach.rules"
    path.write_text(REACH)
    r = run_engine("solve", path, "--sweep", "n", "--lines", "0", "--measure", "x % 2", "--measure", "10 * x")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].split()[:12] == ["n", "best", "score", "paths", "to", "it", "lines", "of", "best", "play", "x",
                                     "%"]
    # by hand: n = 1: add 2 (x = 2); n = 2: add 1, add 2 (x = 3); n = 3: 1, 1, 2 and 2, 2 (x = 4), each
    # first move as good, so two lines of best play
    assert [row.split()[:6] for row in lines[2:]] == [["1", "2", "1", "1", "0", "20"], ["2", "3", "1", "1", "1", "30"],
                                                      ["3", "4", "2", "2", "0", "40"]]


def test_a_sweep_with_json_gives_each_run_its_first_moves(tmp_path):
    path = tmp_path / "reach.rules"
    path.write_text(REACH)
    out = json.loads(run_engine("solve", path, "--sweep", "n=2..3", "--moves", "--json").stdout)
    # by hand: adding 1 or 2 from 0, the best ends are n + 1: for n = 2, add 1 then 2 (3), or add 2 at
    # once (2); for n = 3, add 1 or 2 first, each going on to 4
    assert [[(m["move"], m["value"]) for m in run["first_moves"]] for run in out["runs"]] == [
        [("add 1", [3]), ("add 2", [2])], [("add 1", [4]), ("add 2", [4])]]


def test_a_parameter_that_takes_any_number_is_swept_over_the_numbers_named_only():
    r = run_engine("solve", "rules/nidavellir.rules", "--sweep", "rounds")
    assert r.returncode == 2
    assert "rounds takes any value; a parameter to sweep takes yes or no" in r.stderr
    assert r.stderr.endswith("; or name the numbers: --sweep rounds=A..B or rounds=V,W,...\n")
    out = json.loads(run_engine("solve", "rules/nidavellir.rules", "--sweep", "rounds=1..2", "--json").stdout)
    # the rows are those of solving with --set rounds=1 and with --set rounds=2, one at a time
    one = [json.loads(run_engine("solve", "rules/nidavellir.rules", "--set", f"rounds={k}", "--json").stdout)
           for k in (1, 2)]
    assert [(run["swept"], run["best_score"]) for run in out["runs"]] == [(1, one[0]["best_score"]),
                                                                      (2, one[1]["best_score"])]
    out = json.loads(run_engine("solve", "rules/nidavellir.rules", "--sweep", "rounds=3,1", "--json").stdout)
    assert [run["swept"] for run in out["runs"]] == [1, 3]
    r = run_engine("solve", "rules/nidavellir.rules", "--sweep", "rounds=3..1")
    assert (r.returncode, r.stderr) == (2, "error: --sweep rounds=3..1: 3 is above 1; the range is written from the "
                                           "least, rounds=1..3\n")


def test_a_swept_value_is_given_in_json_as_its_kind_and_in_the_table_as_set_takes_it(tmp_path):
    # by hand: with `far` the target is 3 (best end 4), without it 1 (best end 2); `step` only names
    path = tmp_path / "reach.rules"
    path.write_text(REACH.replace("param n in 1..3 = 1", "param far = no\nparam step in {short, long} = short")
                    .replace("x >= n", "x >= (if far then 3 else 1)"))
    out = json.loads(run_engine("solve", path, "--sweep", "far", "--json").stdout)
    assert [(run["swept"], run["best_score"]) for run in out["runs"]] == [(False, 2), (True, 4)]  # no first
    assert [run["swept"] for run in json.loads(run_engine("solve", path, "--sweep", "step", "--json").stdout)["runs"]] \
        == ["short", "long"]
    assert [row.split()[:2] for row in run_engine("solve", path, "--sweep", "far").stdout.splitlines()[2:]] == [
        ["no", "2"], ["yes", "4"]]


def test_a_parameter_from_a_set_of_numbers_is_swept_in_order(tmp_path):
    path = tmp_path / "reach.rules"
    path.write_text(REACH.replace("param n in 1..3 = 1", "param n in {3, 1} = 1"))
    out = json.loads(run_engine("solve", path, "--sweep", "n", "--json").stdout)
    assert [(run["swept"], run["best_score"]) for run in out["runs"]] == [(1, 2), (3, 4)]  # n + 1, by hand


def test_a_sweep_runs_when_the_default_of_the_swept_parameter_is_forbidden(tmp_path):
    # n = 3 (the default) is forbidden with m = 1: the sweep still solves n = 1 and 2 (n + 1, by hand)
    path = tmp_path / "reach.rules"
    path.write_text(REACH.replace("param n in 1..3 = 1", "param n in 1..3 = 3\nparam m in 1..3 = 1\n"
                                  'forbid n > m + 1 "n at most m + 1"'))
    r = run_engine("solve", path, "--sweep", "n")
    assert r.returncode == 0, r.stderr
    assert [row.split()[:2] for row in r.stdout.splitlines()[2:]] == [["1", "2"], ["2", "3"], ["3", "forbidden"]]


def test_a_sweep_of_some_values_and_one_stopped_by_ctrl_c_keeps_the_rows_solved(tmp_path, capsys):
    from engine.cli import build_parser, cmd_solve
    from engine.cli_sweep import sweep
    path = tmp_path / "reach.rules"
    path.write_text(REACH.replace("param n in 1..3 = 1", "param n in 1..9 = 1"))

    def solve_until_5(args):  # Ctrl-C while n = 5 is solved
        if "n=5" in args.set:
            raise KeyboardInterrupt
        return cmd_solve(args)
    assert sweep(build_parser().parse_args(["solve", str(path), "--sweep", "n=3..7"]), solve_until_5) == 130
    out = capsys.readouterr().out.splitlines()
    assert [row.split()[:2] for row in out[2:4]] == [["3", "4"], ["4", "5"]]  # n + 1, by hand
    assert out[4] == "  interrupted (Ctrl-C) while solving n=5: --sweep n=5..7 solves the rest"
    assert sweep(build_parser().parse_args(["solve", str(path), "--sweep", "n=5"]), solve_until_5) == 130
    assert capsys.readouterr().out.splitlines()[-1] == "  interrupted (Ctrl-C) while solving n=5: --sweep n=5 " \
        "solves the rest"
    named = tmp_path / "named.rules"  # values that are names: the rest named one by one
    named.write_text(REACH.replace("param n in 1..3 = 1", "enum Size { small, big }\n"
                                   "param size in {small, big} = small\nparam n in 1..3 = 1"))

    def solve_none(args):
        raise KeyboardInterrupt
    assert sweep(build_parser().parse_args(["solve", str(named), "--sweep", "size"]), solve_none) == 130
    assert capsys.readouterr().out.splitlines()[-1] == "  interrupted (Ctrl-C) while solving size=small: " \
        "--sweep size=small,big solves the rest"
    assert sweep(build_parser().parse_args(["solve", str(path), "--sweep", "n=8,2", "--json"]), cmd_solve) == 0
    assert [run["swept"] for run in json.loads(capsys.readouterr().out)["runs"]] == [2, 8]  # in order
    for spec, message in [("n=1,12", "12 is not a value of n; its values: 1..9"),
                          ("n=10..12", "none of the values of n (1..9)"), ("n=a..b", "expected whole numbers A..B"),
                          ("n=8..10", "10 is not a value of n; its values: 1..9"),  # not 8 and 9 alone
                          ("n=0..10", "0 and 10 are not values of n; its values: 1..9"),
                          ("n=3,3", "3 is named twice; a row is solved once for each value")]:
        r = run_engine("solve", path, "--sweep", spec)
        assert (r.returncode, r.stderr) == (2, f"error: --sweep {spec}: {message}\n")


# by hand: adding 1 to `big` from 0 until x >= n, the best end is n with steps of 1 (x = 0..n, n + 1
# states) and n + 1 with steps up to 2 (one short of n, then 2; x = 0..n+1, n + 2 states)
GRID = REACH.replace("param n in 1..3 = 1", "param n in 1..3 = 1\nparam big in 1..2 = 2") \
    .replace("1..2  x", "1..big  x")


def test_two_sweeps_solve_each_combination_of_their_values(tmp_path):
    path = tmp_path / "grid.rules"
    path.write_text(GRID)
    r = run_engine("solve", path, "--sweep", "big", "--sweep", "n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "reach: solved for each value of big and n"
    assert lines[1].split()[:4] == ["big", "n", "best", "score"]
    assert [row.split()[:3] + [row.split()[4]] for row in lines[2:]] == [
        ["1", "1", "1", "2"], ["1", "2", "2", "3"], ["1", "3", "3", "4"],
        ["2", "1", "2", "3"], ["2", "2", "3", "4"], ["2", "3", "4", "5"]]
    out = json.loads(run_engine("solve", path, "--sweep", "n=3", "--sweep", "big", "--json").stdout)
    assert out["sweep"] == ["n", "big"]
    assert [(run["swept"], sorted(run["set"]), run["best_score"]) for run in out["runs"]] == [
        ([3, 1], ["big=1", "n=3"], 3), ([3, 2], ["big=2", "n=3"], 4)]


def test_a_grid_skips_the_last_numbers_past_too_many_states_for_each_value_of_the_others(tmp_path):
    # at most 3 states (by hand, above): with big=1, n = 3 stops at the limit (4 states); with big=2,
    # n = 2 does (4), and n = 3 is skipped
    path = tmp_path / "grid.rules"
    path.write_text(GRID)
    r = run_engine("solve", path, "--sweep", "big", "--sweep", "n", "--max-states", 3)
    assert r.returncode == 1
    assert r.stdout.splitlines()[4:] == [
        "  1    3  more than 3 states", r.stdout.splitlines()[5], "  2    2  more than 3 states", "  2    3  skipped",
        "  skipped: 3, as big=2 n=2 has more than 3 states; --sweep n=3 --set big=2 solves it all the same "
        "(--max-states N lets solve hold more)"]
    assert r.stderr.startswith("with --set big=1 --set n=3:\nerror: ")
    assert r.stderr.endswith("with --set big=2 --set n=2: more than 3 states too, as with big=1 n=3\n")
    r = run_engine("solve", path, "--sweep", "big=1..2", "--sweep", "n=1,2,3", "--max-states", 3)
    assert "skipped" not in r.stdout  # values named are each tried


# by hand: one step at a time from 0 until x >= suits + trump, so the best score is suits + trump (1 at
# least); trump takes -1..suits - 1, so trump=2 only with suits=3
DEPENDENT = """param suits in 2..3 = 2
param trump in -1..suits - 1 = -1
state { x: 0..5 = 0 }
action step { x += 1 }
turn { step }
terminal x >= suits + trump
score x
"""


def test_a_grid_takes_the_values_of_a_range_worked_out_from_a_parameter_swept_before_it(tmp_path):
    path = tmp_path / "dependent.rules"
    path.write_text(DEPENDENT)
    r = run_engine("solve", path, "--sweep", "suits", "--sweep", "trump")
    assert r.returncode == 0, r.stderr
    assert [row.split()[:3] for row in r.stdout.splitlines()[2:]] == [
        ["2", "-1", "1"], ["2", "0", "2"], ["2", "1", "3"], ["3", "-1", "2"], ["3", "0", "3"], ["3", "1", "4"],
        ["3", "2", "5"]]
    r = run_engine("solve", path, "--sweep", "suits", "--sweep", "trump=1..2")  # 2 named: solved where it is a value
    assert r.returncode == 0, r.stderr
    assert [row.split()[:3] for row in r.stdout.splitlines()[2:-1]] == [["2", "1", "3"], ["3", "1", "4"],
                                                                         ["3", "2", "5"]]
    assert r.stdout.splitlines()[-1] == "  not solved: trump=2 with suits=2, where trump takes -1..1"
    r = run_engine("solve", path, "--sweep", "suits", "--sweep", "trump=2", "--json")
    out = json.loads(r.stdout)
    assert ([run["swept"] for run in out["runs"]], out["not_values"]) == ([[3, 2]], [{"swept": [2, 2],
                                                                                      "values": "-1..1"}])
    r = run_engine("solve", path, "--sweep", "suits", "--sweep", "trump=3")
    assert (r.returncode, r.stderr) == (2, "error: --sweep trump=3: 3 is not a value of trump; its values: -1..2\n")
    r = run_engine("solve", path, "--sweep", "trump", "--sweep", "suits")
    assert (r.returncode, r.stderr) == (2, "error: --sweep trump: its values are worked out from suits, swept after "
                                           "it; sweep suits first: --sweep suits --sweep trump\n")


def test_a_grid_of_more_runs_than_a_sweep_takes_is_a_usage_error(tmp_path):
    path = tmp_path / "grid.rules"
    path.write_text(GRID.replace("param n in 1..3 = 1", "param n in 1..200 = 1").replace("1..2 = 2", "1..100 = 2"))
    r = run_engine("solve", path, "--sweep", "n", "--sweep", "big")
    assert (r.returncode, r.stderr) == (2, "error: --sweep n --sweep big: 200 x 100 runs, more than 10,000; name "
                                           "fewer values of one: --sweep NAME=A..B or NAME=V,W,...\n")


def test_a_grid_stopped_by_ctrl_c_says_how_to_solve_the_rest(tmp_path, capsys):
    from engine.cli import build_parser, cmd_solve
    from engine.cli_sweep import sweep
    path = tmp_path / "grid.rules"
    path.write_text(GRID)

    def solve_until(args):  # Ctrl-C while big = 2, n = 2 is solved
        if "big=2" in args.set and "n=2" in args.set:
            raise KeyboardInterrupt
        return cmd_solve(args)
    assert sweep(build_parser().parse_args(["solve", str(path), "--sweep", "big", "--sweep", "n=1..3"]),
                 solve_until) == 130
    out = capsys.readouterr().out.splitlines()
    assert [row.split()[:3] for row in out[2:6]] == [["1", "1", "1"], ["1", "2", "2"], ["1", "3", "3"],
                                                       ["2", "1", "2"]]  # by hand, above
    assert out[6] == "  interrupted (Ctrl-C) while solving big=2 n=2: --sweep big=2 --sweep n=1..3 solves the rest " \
        "(and again those of big=2 solved)"


WIDE = """game "wide"
param big in 1..1000000000000 = 5
state { n: 0..big = 0 }
action step { n += 1 }
turn { step }
terminal n == big
score n
"""


def test_a_parameter_of_a_range_wider_than_memory_sets_up_and_sweeps_in_part(tmp_path):
    # 10 ** 12 values: validate sets the game up with both ends without listing them, a sweep of
    # them all is refused, and one of 3..5 solves (n + 1 states, by hand)
    path = tmp_path / "wide.rules"
    path.write_text(WIDE)
    assert run_engine("validate", path).returncode == 0
    r = run_engine("solve", path, "--sweep", "big")
    assert (r.returncode, r.stderr) == (2, "error: --sweep big: 1,000,000,000,000 values (1..1000000000000), more "
                                           "than 10,000; --sweep big=A..B solves those from A to B\n")
    out = json.loads(run_engine("solve", path, "--sweep", "big=3..5", "--json").stdout)
    assert [(run["swept"], run["distinct_states"]) for run in out["runs"]] == [(3, 4), (4, 5), (5, 6)]
    for value in ("1_0", "+4", "٥"):
        r = run_engine("solve", path, "--set", f"big={value}")
        assert (r.returncode, r.stderr) == (2, f"error: --set big={value}: 'big' takes a whole number, written "
                                               "with the digits 0-9\n")


def test_a_range_in_the_rules_too_large_to_hold_is_a_runtime_error_at_it(tmp_path):
    path = tmp_path / "long.rules"
    path.write_text(WIDE.replace("score n", "score n + len(1..1000000000000)"))
    r = run_engine("solve", path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{path}:7:15: error[runtime]: the range 1..1000000000000 holds 1,000,000,000,000 "
                               "numbers, more than the 10,000,000 a range may hold"), r.stderr


def test_a_sweep_of_a_puzzle_counts_the_paths_to_the_best_score(tmp_path):
    path = tmp_path / "queens.rules"
    path.write_text("param n in 1..8 = 5\nstate { queens: list<int> = [] }\n"
                    "def safe(c) = all(queens[i] != c and abs(queens[i] - c) != len(queens) - i "
                    "for i in 0..len(queens) - 1)\n"
                    'action place "{c}" { choose c in 0..n - 1 where safe(c)  queens += c }\nturn { place }\n'
                    "terminal len(queens) == n\nscore if len(queens) == n then 1 else 0\ndead ends are ends\n")
    text = run_engine("solve", path, "--sweep", "n=4..6").stdout
    rows = [line.split() for line in text.splitlines()[2:]]
    assert text.splitlines()[1].split() == ["n", "best", "score", "paths", "to", "it", "distinct", "states", "seconds",
                                            "first", "move"]
    assert [(n, best, paths) for n, best, paths, *_ in rows] == [("4", "1", "2"), ("5", "1", "10"), ("6", "1", "4")]
    # the solutions of 4, 5 and 6 queens: OEIS A000170


def test_the_values_of_a_sweep_are_written_to_as_many_places_so_their_points_line_up(tmp_path):
    # a 1 drawn from 1..n + 2: 1/3, 1/4, 1/5, 1/6, by hand; 0.25 and 0.2 are exact, written so, their points
    # under those of 0.3333 and 0.1667 (as a single solve writes them, a shorter value is exact)
    path = tmp_path / "one.rules"
    path.write_text("param n in 1..4 = 1\nstate { x: 0..9 = 0  rolled: bool = no }\n"
                    "chance when not rolled { draw d in 1..n + 2  x += d  rolled = yes }\nturn { }\n"
                    "terminal rolled\nscore if x == 1 then 1 else 0\n")
    rows = run_engine("solve", path, "--sweep", "n").stdout.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [["1", "0.3333"], ["2", "0.25"], ["3", "0.2"], ["4", "0.1667"]]
    assert len({row.index(".") for row in rows}) == 1, rows
