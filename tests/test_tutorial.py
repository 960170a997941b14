"""docs/tutorial.md: its rule files and commands, against what the game's arithmetic says."""
import json
import re

import pytest

from conftest import ROOT, run_engine
from engine.load import load_game
from search.solve import solve

TEXT = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
RULES = re.findall(r"```rules\n(.*?)```", TEXT, re.S)  # the first file, the file with its parameter, the dice
COMMANDS = [line for block in re.findall(r"```sh\n(.*?)```", TEXT, re.S) for line in block.splitlines()]


def ordered_sums(n: int, parts=(1, 2, 3)) -> int:
    """The ways to write n as a sum of the parts in order: the games of the race to n."""
    ways = [1] + [0] * n
    for t in range(1, n + 1):
        ways[t] = sum(ways[t - p] for p in parts if p <= t)
    return ways[n]


@pytest.fixture
def first(tmp_path):
    path = tmp_path / "race.rules"
    path.write_text(RULES[0], encoding="utf-8")
    return path


def test_the_tutorial_has_its_rule_files_and_its_commands():
    assert len(RULES) == 3 and "param target" in RULES[1] and "chance when" in RULES[2]
    assert len(COMMANDS) == 7 and all(c.startswith("python -m engine ") for c in COMMANDS)


def test_the_first_file_validates(first):
    run = run_engine("validate", first)
    assert (run.returncode, run.stdout) == (0, f"{first}: ok (Race to 21)\n")


def test_the_misspelt_name_is_pointed_at_with_the_declared_name_as_a_hint(first):
    text = first.read_text(encoding="utf-8").replace("where total + k", "where totl + k")
    first.write_text(text, encoding="utf-8")
    [(line, at)] = [(i, row.index("totl") + 1) for i, row in enumerate(text.splitlines(), 1) if "totl" in row]
    run = run_engine("validate", first)
    assert run.returncode == 1
    assert f"{first}:{line}:{at}: error[unknown-name]: unknown name 'totl'" in run.stderr
    assert "hint: did you mean 'total'?" in run.stderr


def test_solve_counts_the_ordered_sums_of_21_and_finds_that_a_wins_by_saying_1(first):
    run = run_engine("solve", first, "--json")
    out = json.loads(run.stdout)
    assert out["terminal_paths"] == ordered_sums(21) == 223_317
    # by hand: total 0 only with A to move, total 1 only with B (A made it), totals 2 to 21 with either
    assert out["distinct_states"] == 1 + 1 + 2 * 20
    assert out["value"] == [1, -1]
    assert [step["move"] for step in out["best_line"][:2]] == ["start", "A adds 1"]


@pytest.mark.parametrize("target", range(2, 26))
def test_with_the_parameter_a_wins_unless_the_target_is_a_multiple_of_4(tmp_path, target):
    path = tmp_path / "race.rules"
    path.write_text(RULES[1], encoding="utf-8")
    value = solve(load_game(str(path), {"target": str(target)})).value
    assert value == ((1, -1) if target % 4 else (-1, 1))


def test_each_command_of_the_tutorial_runs_on_its_final_files(tmp_path):
    (tmp_path / "race.rules").write_text(RULES[1], encoding="utf-8")
    (tmp_path / "dice.rules").write_text(RULES[2], encoding="utf-8")
    for command in COMMANDS:
        args = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', command)][3:]
        run = run_engine(*[str(tmp_path / a) if a.endswith(".rules") else a for a in args], timeout=300)
        assert "Traceback" not in run.stderr, command
        assert run.returncode == (1 if args[0] == "check" else 0), (command, run.stderr)
        if args[0] == "check":  # A is to move after an even number of moves; 20 needs 7 moves of 3 or less
            assert "check failed after 8 moves" in run.stdout
            shown = TEXT.split(command + "\n```\n\n```text\n", 1)[1].split("```", 1)[0]
            assert run.stdout.replace(str(tmp_path / "race.rules"), "race.rules") == shown  # what the page shows


def test_a_target_outside_its_range_is_refused_with_the_range(tmp_path):
    path = tmp_path / "race.rules"
    path.write_text(RULES[1], encoding="utf-8")
    run = run_engine("solve", path, "--set", "target=200")
    assert run.returncode == 2 and "2..100" in run.stderr


def test_the_dice_game_is_worth_what_keeping_7_or_more_makes(tmp_path):
    totals = [a + b for a in range(1, 7) for b in range(1, 7)]
    again = sum(totals) / 36  # a second roll, kept whatever it is
    best = sum(max(t, again) for t in totals) / 36
    assert best == pytest.approx(287 / 36)
    path = tmp_path / "dice.rules"
    path.write_text(RULES[2], encoding="utf-8")
    assert solve(load_game(str(path))).value[0] == pytest.approx(best)


@pytest.mark.parametrize("rules, flags, title", [
    (0, [], "Race to 21: solved"), (1, ["--set", "target=20"], "Race to 21 (target=20): solved"),
    (2, [], "Two dice, one reroll: solved")])
def test_the_solve_outputs_shown_are_what_solve_prints(tmp_path, rules, flags, title):
    path = tmp_path / "game.rules"
    path.write_text(RULES[rules], encoding="utf-8")
    [shown] = [b for b in re.findall(r"```text\n(.*?)```", TEXT, re.S) if b.startswith(title)]
    printed = run_engine("solve", path, *flags).stdout

    def timeless(text):
        return re.sub(r"solved in \d+\.\d+ s", "solved in T s", text).splitlines()
    assert timeless(printed)[:len(timeless(shown))] == timeless(shown)  # the page may stop before the end
