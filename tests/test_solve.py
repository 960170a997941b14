"""`solve` reproduces published figures: seed 001's Nidavellir counts and line, tic-tac-toe's game tree."""
import json

import pytest

from conftest import run_engine


@pytest.fixture(scope="module")
def blog():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_blog_model_counts_the_paths_per_round_of_seed_001(blog):
    assert blog["paths_per_depth"] == [1, 6, 36, 216, 1296, 7746, 44552, 233251, 1104806]
    assert blog["terminal_paths"] == 1104806


def test_blog_model_optimum_is_58(blog):
    assert blog["best_score"] == 58
    assert blog["value"] == [58]


def test_blog_model_best_line_is_the_pouches_of_seed_001(blog):
    pouches = [tuple(c["value"] for c in step["state"]["pouch"]) for step in blog["best_line"]]
    assert pouches == [(2, 3, 4, 5), (2, 3, 5, 7), (2, 5, 5, 7), (2, 5, 7, 10), (2, 7, 7, 10),
                       (2, 7, 10, 14), (2, 7, 10, 24), (2, 7, 17, 24), (2, 7, 24, 25)]
    assert [step["state"]["round"] for step in blog["best_line"]] == list(range(9))


def test_json_output_is_one_object_and_states_serialise_by_field_name(blog):
    state = blog["best_line"][0]["state"]
    assert set(state) == {"pouch", "treasure", "round"}
    assert state["pouch"][0] == {"value": 2, "gold": False}
    assert state["treasure"] == sorted(state["treasure"])


@pytest.fixture(scope="module")
def tictactoe():
    r = run_engine("solve", "rules/tictactoe.rules", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_tictactoe_has_5478_positions_and_255168_games(tictactoe):
    # widely published figures for the full game tree of tic-tac-toe
    assert tictactoe["distinct_states"] == 5478
    assert tictactoe["terminal_paths"] == 255168


def test_tictactoe_is_a_draw_under_perfect_play(tictactoe):
    assert tictactoe["value"] == [0, 0]


def test_tictactoe_games_split_into_known_win_and_draw_counts(tictactoe):
    # 131,184 games won by the first player, 77,904 by the second, 46,080 drawn
    outcomes = {tuple(o["returns"]): o["paths"] for o in tictactoe["outcomes"]}
    assert outcomes == {(1, -1): 131184, (-1, 1): 77904, (0, 0): 46080}


def test_tictactoe_paths_per_depth_start_with_9_then_72_first_moves(tictactoe):
    # 9 first moves, 9*8 replies, ...; the first wins are possible after 5 plies
    assert tictactoe["paths_per_depth"][:6] == [1, 9, 72, 504, 3024, 15120]
    assert tictactoe["paths_per_depth"][5] == 9 * 8 * 7 * 6 * 5


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_official_rule_solves_for_every_player_count(players):
    r = run_engine("solve", "rules/nidavellir.rules", "--set", f"players={players}", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["complete"] is True
    # an upper bound by hand: 2 is never traded up (always the smaller coin), the other three are at most 25
    assert 14 < out["best_score"] <= 2 + 25 + 24 + 23


def test_depth_limit_stops_early():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog", "--depth", "2", "--json")
    out = json.loads(r.stdout)
    assert out["paths_per_depth"] == [1, 6, 36]
    assert out["complete"] is False


def test_human_readable_solve_names_the_best_score():
    r = run_engine("solve", "rules/nidavellir.rules", "--set", "variant=blog")
    assert r.returncode == 0
    assert "best score: 58" in r.stdout


CYCLE = """game "round and round"
state { n: 0..2 = 0  stops: 0..1 = 0 }
action step "step to {n}" { n = (n + 1) % 3 }
action stop "stop at {n}" { require n == 2  stops = 1 }
turn { either { step } or { stop } }
terminal stops == 1
score n
"""


def test_a_game_that_comes_back_to_a_state_is_refused_with_the_loop(tmp_path):
    # by hand: step 0 -> 1 -> 2 -> 0 brings back the initial state after three moves (stop is
    # tried second at each state, so the first line the solver walks down is the loop of steps;
    # a label shows the state as the action left it)
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE)
    r = run_engine("solve", path, "--json")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == (f"error: {path}: the game can come back to a state it was in, so it has no end to solve to: "
                        "the moves step to 1, step to 2, step to 0 lead from the initial state back to it; "
                        "--depth N solves the first N moves\n")


def test_a_game_with_a_loop_solves_to_a_depth(tmp_path):
    # by hand, 4 moves deep: each state has step and, at n = 2, stop (which ends the game), so
    # the paths are 1, 1, 1, 2 (step or stop at n = 2), then 1 (the step from 0 again)
    path = tmp_path / "cycle.rules"
    path.write_text(CYCLE)
    out = json.loads(run_engine("solve", path, "--depth", "4", "--json").stdout)
    assert out["paths_per_depth"] == [1, 1, 1, 2, 1]
    assert out["value"] == [2]
    assert [m["move"] for m in out["best_line"]] == ["start", "step to 1", "step to 2", "stop at 2"]
