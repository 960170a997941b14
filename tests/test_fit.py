"""Least squares for value heuristics, and the fit command: figures worked out by hand."""
import json

import pytest

from conftest import run_engine
from search.fit import fit_groups, least_squares


def test_points_on_a_plane_give_back_its_weights_and_bias():
    # y = 2a - 3b + 5 at five points chosen by hand
    xs = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]
    ys = [5, 7, 2, 4, 6]
    f = least_squares(xs, ys)
    assert f.weights == pytest.approx((2, -3), abs=1e-4)
    assert f.bias == pytest.approx(5, abs=1e-4)
    assert f.r2 == pytest.approx(1)
    assert f.rmse == pytest.approx(0, abs=1e-4)


def test_a_line_through_three_points_that_do_not_lie_on_one():
    # x 1, 2, 3 and y 1, 2, 2: slope = sum(dx dy) / sum(dx^2) = 1 / 2, bias = 5/3 - 2 * 1/2 = 2/3;
    # residuals -1/6, 1/3, -1/6: squared error 1/6 against a spread of 2/3, so R^2 = 3/4
    f = least_squares([(1,), (2,), (3,)], [1, 2, 2])
    assert f.weights[0] == pytest.approx(0.5, abs=1e-5)
    assert f.bias == pytest.approx(2 / 3, abs=1e-5)
    assert f.r2 == pytest.approx(0.75, abs=1e-5)
    assert f.rmse == pytest.approx((1 / 18) ** 0.5, abs=1e-5)


def test_a_feature_that_repeats_another_still_fits():
    # b = 2a carries nothing new: the ridge splits the weight instead of failing on a singular system
    xs = [(a, 2 * a) for a in range(5)]
    ys = [3 * a + 1 for a in range(5)]
    f = least_squares(xs, ys)
    assert [f.predict(x) for x in xs] == pytest.approx(ys, abs=1e-3)


def test_each_group_gets_its_own_fit():
    rows = [(1, (x,), 2 * x) for x in range(4)] + [(2, (x,), 10 - x) for x in range(4)]
    fits = fit_groups(rows)
    assert list(fits) == [1, 2]
    assert fits[1].weights[0] == pytest.approx(2, abs=1e-4) and fits[1].bias == pytest.approx(0, abs=1e-4)
    assert fits[2].weights[0] == pytest.approx(-1, abs=1e-4) and fits[2].bias == pytest.approx(10, abs=1e-4)


def test_no_rows_is_an_error():
    with pytest.raises(ValueError):
        least_squares([], [])


PLANE = """game "Two counters"
state { a: 0..9 = 0  b: 0..9 = 0  phase: 0..2 = 0 }
action step "a {x}" { require phase < 2  choose x in 0..1  a += x  phase += 1 }
turn { step }
terminal phase == 2
score a
heuristic a_now = a
heuristic b_now = b
heuristic phase_now = phase
"""


def test_fit_records_one_row_per_decision_with_the_games_final_score(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    out = tmp_path / "rows.jsonl"
    r = run_engine("fit", rules, "--features", "a_now", "--by", "phase_now", "--agent", "random", "--games", "5",
                   "--record", out, "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 5 * 2  # two decisions a game
    for g in range(1, 6):
        first, second = [row for row in rows if row["game"] == g]
        assert (first["group"], second["group"]) == (0, 1)
        assert first["features"]["a_now"] == 0
        assert first["final"] == second["final"] >= second["features"]["a_now"]
    fits = {f["group"]: f for f in json.loads(r.stdout)["fits"]}
    assert set(fits) == {0, 1}


def test_fit_from_recorded_rows_prints_the_weights_as_constants_by_group(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    rows = tmp_path / "rows.jsonl"
    # group 1: final = 2 a - 3 b + 5; group 0: final = a + 1 (b all zero)
    data = [(1, a, b, 2 * a - 3 * b + 5) for a, b in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]]
    data += [(0, a, 0, a + 1) for a in range(3)]
    rows.write_text("".join(json.dumps({"game": 1, "group": g, "features": {"a_now": a, "b_now": b}, "final": y})
                            + "\n" for g, a, b, y in data))
    r = run_engine("fit", rules, "--features", "a_now,b_now", "--by", "phase_now", "--from", rows)
    assert r.returncode == 0, r.stderr
    assert "const w_a_now = [100, 200]" in r.stdout
    assert "const w_b_now = [0, -300]" in r.stdout
    assert "const w_bias = [100, 500]" in r.stdout
    assert r.stdout.endswith("# phase_now 0..1: the values met at decisions; the end is none (a heuristic values it "
                             "as the score does: `if END then SCORE else ...`), nor is any phase_now past 1\n")


def test_rows_recorded_by_group_fit_as_one_without_by_and_rows_without_groups_refuse_by(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    grouped, plain = tmp_path / "grouped.jsonl", tmp_path / "plain.jsonl"
    # final = 3 a + 2 in every row, whatever its group: one fit gives it back
    data = [(g, a, 3 * a + 2) for g, a in [(0, 0), (0, 1), (1, 2), (1, 4), (1, 5)]]
    grouped.write_text("".join(json.dumps({"game": 1, "group": g, "features": {"a_now": a}, "final": y}) + "\n"
                               for g, a, y in data))
    r = run_engine("fit", rules, "--features", "a_now", "--from", grouped)
    assert r.returncode == 0, r.stderr
    assert "5 decisions fitted\n" in r.stdout and "const w_a_now = 300\nconst w_bias = 200\n" in r.stdout, r.stdout
    plain.write_text("".join(json.dumps({"game": 1, "group": None, "features": {"a_now": a}, "final": y}) + "\n"
                             for _, a, y in data))
    r = run_engine("fit", rules, "--features", "a_now", "--by", "phase_now", "--from", plain)
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: --by phase_now: the rows of {plain} were recorded without --by, so they have "
                               "no phase_now to group them by; record them again with --by phase_now, or fit them "
                               "without it"), r.stderr


def test_fit_plays_by_a_solved_policy_the_features_of_best_play(tmp_path):
    rules, policy, rows = tmp_path / "counters.rules", tmp_path / "best.jsonl", tmp_path / "rows.jsonl"
    rules.write_text(PLANE)
    assert run_engine("solve", rules, "--policy", policy).returncode == 0
    r = run_engine("fit", rules, "--features", "a_now", "--agent", f"policy:{policy}", "--games", "3",
                   "--record", rows)
    assert r.returncode == 0, r.stderr
    # best play adds 1 to a at both steps: a is 0 then 1 at the decisions, and 2 at the end
    recorded = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [(row["features"]["a_now"], row["final"]) for row in recorded] == [(0, 2), (1, 2)] * 3
    # the same game three times, and the text says so; random play draws, so its games differ
    assert "  the 3 games played were one game over and over (neither the agent nor the game draws anything)" \
        in r.stdout, r.stdout
    r = run_engine("fit", rules, "--features", "a_now", "--agent", "random", "--games", "20")
    assert r.returncode == 0 and "over and over" not in r.stdout, r.stdout
    r = run_engine("fit", rules, "--features", "a_now", "--agent", f"policy:{tmp_path / 'none.jsonl'}")
    assert r.returncode == 2 and "error: --agent policy:" in r.stderr and "cannot read" in r.stderr, r.stderr


def test_fit_never_overwrites_a_file_and_names_unknown_features(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    kept = tmp_path / "kept.jsonl"
    kept.write_text("mine\n")
    r = run_engine("fit", rules, "--features", "a_now", "--games", "1", "--record", kept)
    assert r.returncode == 2 and "exists" in r.stderr
    assert kept.read_text() == "mine\n"
    r = run_engine("fit", rules, "--features", "a_nw", "--games", "1")
    assert r.returncode == 2 and "did you mean 'a_now'" in r.stderr


def test_a_malformed_recorded_row_is_named_by_file_and_line(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"game": 1, "group": None, "features": {"a_now": 1}, "final": 2}) + "\nnot json\n")
    r = run_engine("fit", rules, "--features", "a_now", "--from", rows)
    assert r.returncode == 2
    assert f"{rows}:2:1: not a row recorded by fit with these features (not JSON: Expecting value at column 1)" \
        in r.stderr
    good = json.dumps({"game": 1, "group": None, "features": {"a_now": 1, "b_now": 0}, "final": 2})
    for line, why in [(json.dumps({"features": {"b_now": 1}, "final": 2}), "no a_now among its features: b_now"),
                      (json.dumps({"features": {"a_now": "x"}, "final": 2}), 'a_now is "x", not a number'),
                      (json.dumps([1, 2]), 'expected an object with "features" and "final"')]:
        rows.write_text(f"{good}\n\n{line}\n")  # a blank line, as files joined often have, is passed over
        r = run_engine("fit", rules, "--features", "a_now", "--from", rows)
        assert (r.returncode, r.stderr) == (2, f"error: {rows}:3:1: not a row recorded by fit with these features "
                                               f"({why})\n")


def test_a_score_that_never_varies_has_no_r2_and_an_empty_file_no_fit(tmp_path):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"game": 1, "group": None, "features": {"a_now": a}, "final": 5}) + "\n"
                            for a in range(3)))
    r = run_engine("fit", rules, "--features", "a_now", "--from", rows, "--json")
    assert r.returncode == 0, r.stderr
    [fit] = json.loads(r.stdout)["fits"]  # valid JSON: no NaN
    assert fit["r2"] is None and fit["bias"] == pytest.approx(5)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    r = run_engine("fit", rules, "--features", "a_now", "--from", empty)
    assert r.returncode == 2 and "no decisions to fit" in r.stderr


@pytest.mark.parametrize("flag", [["--games", "5"], ["--agent", "beam"], ["--budget", "10"], ["--width", "3"]])
def test_an_option_for_playing_given_with_recorded_rows_is_a_usage_error(tmp_path, flag):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"game": 1, "group": None, "features": {"a_now": 1}, "final": 2}) + "\n")
    r = run_engine("fit", rules, "--features", "a_now", "--from", rows, *flag)
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: {flag[0]}: nothing is played with --from")


@pytest.mark.parametrize("flags, message", [
    (["--scale", "0"], "error: --scale 0: expected a positive number (the weights are printed times it)"),
    (["--features", "a_now,a_now"], "error: --features a_now,a_now: a_now given twice (a weight each would be "
                                    "printed twice)"),
    (["--from", "ROWS", "--from", "ROWS"], "error: --from ROWS: given twice, so its rows would count twice"),
])
def test_a_scale_below_one_or_a_feature_or_file_given_twice_is_a_usage_error(tmp_path, flags, message):
    rules = tmp_path / "counters.rules"
    rules.write_text(PLANE)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"game": 1, "group": None, "features": {"a_now": 1}, "final": 2}) + "\n")
    flags = [str(rows) if f == "ROWS" else f for f in flags]
    if "--features" not in flags:
        flags += ["--features", "a_now"]
    if "--from" not in flags:
        flags += ["--from", str(rows)]
    r = run_engine("fit", rules, *flags)
    assert (r.returncode, r.stderr) == (2, message.replace("ROWS", str(rows)) + "\n")
