"""`play --against FILE.json`: a new run paired game by game with a run saved earlier."""
import json
import statistics

import pytest

from conftest import ROOT, run_engine
from engine.earlier_run import load_earlier_run
from engine.load import load_game
from test_search_commands import ROLLS, json_of, one_line, usage_error


@pytest.fixture
def rolls(tmp_path):
    path = tmp_path / "rolls.rules"
    path.write_text(ROLLS)
    return path


def saved(tmp_path, run: dict, name="earlier.json"):
    path = tmp_path / name
    path.write_text(json.dumps(run))
    return path


def by_hand(scores, first=1, seed=0):
    """A file shaped like the output of `play --json`, with scores written here."""
    return {"game": "three rolls", "games": len(scores), "first_game": first, "budget": 1000, "seed": seed,
            "agent_seed": 0, "set": [], "seconds": 1.0, "stopped": 0,
            "agents": [{"name": "mcts", "games": len(scores), "mean": 0, "stderr": 0, "min": 0, "max": 0,
                        "scores": scores}]}


def test_the_same_games_played_again_by_any_agent_differ_by_nothing(rolls, tmp_path):
    # the score of the three-rolls game is the dice alone, so games 3-6 of seed 5 score the same
    # whoever plays them, whenever: the difference from the saved run is 0 in every game
    earlier = run_engine("play", rolls, "--agents", "random", "--games", "8", "--seed", "5", "--json")
    assert earlier.returncode == 0, earlier.stderr
    path = saved(tmp_path, json.loads(earlier.stdout))
    out = json_of("play", rolls, "--agents", "mcts,osla", "--games", "4", "--first-game", "3", "--seed", "5",
                  "--budget", "20", "--against", path, "--json")
    assert out["against"] == {"file": str(path), "agent": "random", "budget": 1000, "agent_seed": 0,
                              "paired": [{"agent": "mcts", "mean": 0, "stderr": 0},
                                         {"agent": "osla", "mean": 0, "stderr": 0}]}
    assert out["agents"][0]["scores"] == json.loads(earlier.stdout)["agents"][0]["scores"][2:6]


def test_each_game_is_paired_with_the_saved_game_of_its_number(rolls, tmp_path):
    # saved games 3-8 scored 100, 200, ... 600 (written by hand); games 4 and 5 pair with 200 and 300
    path = saved(tmp_path, by_hand([100, 200, 300, 400, 500, 600], first=3))
    out = json_of("play", rolls, "--agents", "random", "--games", "2", "--first-game", "4", "--against", path,
                  "--json")
    mine = out["agents"][0]["scores"]
    diffs = [mine[0] - 200, mine[1] - 300]
    paired = out["against"]["paired"][0]
    assert paired["mean"] == pytest.approx(statistics.mean(diffs), abs=1e-4)
    assert paired["stderr"] == pytest.approx(statistics.stdev(diffs) / 2 ** 0.5, abs=1e-4)
    text = run_engine("play", rolls, "--agents", "random", "--games", "2", "--first-game", "4", "--against", path)
    assert (f"  game by game against mcts of {path} (1,000 calls per decision), the mean difference (stderr):\n"
            f"  random") in text.stdout
    random_run = by_hand([100, 200, 300, 400, 500, 600], first=3)
    random_run["agents"][0]["name"] = "random"  # an agent that takes no budget: none is named
    again = saved(tmp_path, random_run)
    text = run_engine("play", rolls, "--agents", "random", "--games", "2", "--first-game", "4", "--against", again)
    assert f"  game by game against random of {again} (no budget), the mean difference" in text.stdout, text.stdout


def test_a_run_saved_in_parts_pairs_each_game_with_the_part_that_holds_it(rolls, tmp_path):
    # games 1-3 scored 10, 20, 30 and games 4-6 scored 40, 50, 60 (written by hand); games 2-5 pair
    # with 20, 30, 40 and 50
    first = saved(tmp_path, by_hand([10, 20, 30]), "first.json")
    rest = saved(tmp_path, by_hand([40, 50, 60], first=4), "rest.json")
    out = json_of("play", rolls, "--agents", "random", "--games", "4", "--first-game", "2", "--against", first,
                  "--against", rest, "--json")
    diffs = [mine - theirs for mine, theirs in zip(out["agents"][0]["scores"], [20, 30, 40, 50])]
    assert out["against"]["file"] == f"{first}, {rest}"
    assert out["against"]["paired"][0]["mean"] == pytest.approx(statistics.mean(diffs), abs=1e-4)


@pytest.mark.parametrize("second, message", [
    (by_hand([40, 50, 60], first=5), "holds games 1-3, 5-7; this run plays games 1-6"),
    ({**by_hand([30, 40, 50, 60], first=3)}, "game 3 scored 30, but 3 in --against FIRST: not parts of one run"),
    ({**by_hand([40, 50, 60], first=4), "budget": 500},
     "mcts at 500 calls per decision, but --against FIRST: mcts at 1,000 calls per decision; the parts of one run "
     "have the same agent, budget and agent seed"),
])
def test_parts_that_leave_a_game_out_or_are_not_of_one_run_are_a_usage_error(rolls, tmp_path, second, message):
    first = saved(tmp_path, by_hand([1, 2, 3]), "first.json")
    rest = saved(tmp_path, second, "rest.json")
    msg = one_line(usage_error("play", rolls, "--agents", "random", "--games", "6", "--against", first,
                               "--against", rest))
    assert message.replace("FIRST", str(first)) in msg


@pytest.mark.parametrize("change, run_args, message", [
    ({"seed": 4}, (), "played with --seed 4, this run with --seed 0: the games would not meet the same chance "
                      "(give --seed 4)"),
    ({}, ("--games", "7"), "holds games 1-6; this run plays games 1-7"),
    ({}, ("--first-game", "6", "--games", "2"), "holds games 1-6; this run plays games 6-7"),
    ({"game": "four rolls"}, (), "a run of 'four rolls', not of 'three rolls'"),
    ({"set": ["dice=off"]}, (), "played with --set dice=off, this run with no --set"),
    ({"agents": []}, (), "not the output of `play --json` (no game, seed, budget and agents with their scores in it)"),
    ({"budget": "many"}, (), "not the output of `play --json`"),
    ({"set": [1, "dice=off"]}, (), "not the output of `play --json`"),
])
def test_a_saved_run_of_other_games_is_a_usage_error_before_anything_is_played(rolls, tmp_path, change, run_args,
                                                                               message):
    path = saved(tmp_path, {**by_hand([1, 2, 3, 4, 5, 6]), **change})
    # ten million games would take far longer than the time allowed: the check comes first
    games = ("--games", "10000000") if "--games" not in run_args else ()
    r = run_engine("play", rolls, "--agents", "random", *games, *run_args, "--against", path, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.startswith(f"error: --against {path}: ") and message in r.stderr, r.stderr


def test_a_file_that_is_not_json_names_the_line_and_column(rolls, tmp_path):
    path = tmp_path / "cut.json"
    path.write_text('{"game": "three rolls",\n "seed": }')
    msg = one_line(usage_error("play", rolls, "--agents", "random", "--against", path))
    assert msg.startswith(f"error: --against {path}:2:10: not JSON (")


def test_a_missing_file_and_a_game_of_several_players_are_usage_errors(rolls, tmp_path):
    msg = one_line(usage_error("play", rolls, "--agents", "random", "--against", tmp_path / "none.json"))
    assert msg == f"error: --against {tmp_path / 'none.json'}: no such file\n"
    path = saved(tmp_path, by_hand([1, 2, 3]))
    msg = one_line(usage_error("play", "rules/tictactoe.rules", "--agents", "random,random", "--against", path))
    assert "only a one-player game has (Tic-tac-toe has 2 players)" in msg


SAVED_RUNS = {  # docs/railroad-ink-search.md names each: budget, --seed, games, agent seed
    "mcts-2000-seed1.json": (2000, 1, 100, 0),
    "mcts-2000-seed1-agent-seed-1515870810.json": (2000, 1, 100, 1515870810),
    "mcts-500-seed7.json": (500, 7, 64, 0),
}


def test_the_saved_railroad_ink_runs_can_be_played_against():
    # docs/railroad-ink-search.md tells how to pair a variant with these runs: each must stay a
    # run of the rule file's game with the budget, seed and games the document gives it
    title = load_game(str(ROOT / "rules" / "railroad-ink.rules"), {}).title
    paths = sorted((ROOT / "docs" / "railroad-ink-runs").glob("*.json"))
    assert sorted(p.name for p in paths) == sorted(SAVED_RUNS)
    for path in paths:
        budget, seed, games, agent_seed = SAVED_RUNS[path.name]
        run = load_earlier_run([str(path)], title=title, seed=seed, settings=[], first=1, games=games)
        assert (run.budget, len(run.scores), run.agent_seed) == (budget, games, agent_seed)


def test_a_setting_written_another_way_is_the_same_setting(tmp_path):
    # --set fast=true and --set fast=yes are one value: json says it one way, and --against pairs them
    path = tmp_path / "rolls.rules"
    path.write_text(ROLLS.replace('game "three rolls"', 'game "three rolls"\nparam fast = no\nparam n in 1..9 = 3'))
    earlier = json_of("play", path, "--agents", "random", "--games", "2", "--set", "fast=true", "--set", "n=07",
                      "--json")
    assert earlier["set"] == ["fast=yes", "n=7"]
    out = json_of("play", path, "--agents", "random", "--games", "2", "--set", "fast=yes", "--set", "n=7",
                  "--against", saved(tmp_path, earlier), "--json")
    assert out["against"]["paired"] == [{"agent": "random", "mean": 0, "stderr": 0}]  # the dice alone score


def test_one_game_has_no_standard_error_rather_than_a_nought(rolls):
    # the sample's standard error divides by n - 1: of one game it is undefined, not exact
    out = json_of("play", rolls, "--agents", "random,osla", "--games", "1", "--json")
    assert [a["stderr"] for a in out["agents"]] == [None, None] and out["paired"][0]["stderr"] is None
    text = run_engine("play", rolls, "--agents", "random", "--games", "1").stdout
    assert text.splitlines()[-1].split()[:4] == ["random", "1", f"{out['agents'][0]['mean']:.2f}", "(-)"]
