"""The top-level command line: no command, an unknown command, a misspelt option, --version."""
import json
import re
import tomllib

import pytest

from conftest import ROOT
from engine.cli import main

# The commands as the README's Commands section lists them, in its order.
_SECTION = (ROOT / "README.md").read_text().split("## Commands", 1)[1].split("\nALGORITHM OPTIONS:", 1)[0]
COMMANDS = re.findall(r"^    python -m engine (\w+) ", _SECTION, re.M)


def usage_error(capsys, *argv):
    """Run the command line on argv, which must fail as a usage error; its one line (on stdout,
    with --json, the same message as an object)."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert out == "" if "--json" not in argv else json.loads(out)["error"] == err.strip()[len("error: "):]
    return err.strip()


def test_the_readme_lists_the_seven_commands():
    assert COMMANDS == ["validate", "solve", "check", "search", "play", "stats", "fit"]


def test_no_command_names_every_command(capsys):
    assert usage_error(capsys) == ("error: python -m engine: expected a command, one of "
                                   + ", ".join(COMMANDS) + " (python -m engine COMMAND --help tells more)")


def test_a_misspelt_command_is_named_as_the_one_likely_meant(capsys):
    assert usage_error(capsys, "sovle", "rules/nidavellir.rules") == (
        "error: python -m engine: no command 'sovle'; did you mean 'solve'? the commands are " + ", ".join(COMMANDS))


def test_an_unknown_command_far_from_any_lists_them(capsys):
    assert usage_error(capsys, "frobnicate") == (
        "error: python -m engine: no command 'frobnicate'; the commands are " + ", ".join(COMMANDS))


def test_an_option_before_the_command_says_the_command_comes_first(capsys):
    msg = usage_error(capsys, "--json", "solve", "rules/nidavellir.rules")
    assert msg.startswith("error: python -m engine: expected a command before the options")
    assert msg.endswith("got '--json'")


@pytest.mark.parametrize("file", ["rules/nidavellir.rules", "missing.rules", "tests/fixtures"])
def test_a_file_given_first_says_a_command_comes_before_it(capsys, file):
    msg = usage_error(capsys, file, "--json")
    assert msg == (f"error: python -m engine: expected a command before the file, one of {', '.join(COMMANDS)}; "
                   f"for example python -m engine validate {file}")


@pytest.mark.parametrize("argv, message", [
    (["solve", "rules/nidavellir.rules", "--jsn"],
     "error: python -m engine solve: unrecognized arguments: --jsn; did you mean --json?"),
    (["play", "rules/tictactoe.rules", "--agents", "random", "--budgt", "3"],
     "error: python -m engine play: unrecognized arguments: --budgt 3; did you mean --budget?"),
    (["stats", "rules/tictactoe.rules", "--lines=9"],  # the README's usage lines: solve takes it
     "error: python -m engine stats: unrecognized arguments: --lines=9; --lines is an option of solve"),
    (["solve", "rules/tictactoe.rules", "--dept", "5"],  # an option is taken as written, never as a shortening
     "error: python -m engine solve: unrecognized arguments: --dept 5; did you mean --depth?"),
    (["play", "rules/tictactoe.rules", "--agents", "random", "--game", "5"],
     "error: python -m engine play: unrecognized arguments: --game 5; did you mean --games?"),
    (["solve", "rules/tictactoe.rules", "--playouts", "3"],
     "error: python -m engine solve: unrecognized arguments: --playouts 3; --playouts is an option of validate"),
    (["solve", "rules/tictactoe.rules", "--budget", "3"],
     "error: python -m engine solve: unrecognized arguments: --budget 3; --budget is an option of search, play "
     "and fit"),
    (["validate", "rules/tictactoe.rules", "--dept", "3"],  # closer to another command's option than to its own
     "error: python -m engine validate: unrecognized arguments: --dept 3; did you mean --depth? (an option of solve, "
     "search, play, stats and fit)"),
    (["solve", "rules/nidavellir.rules", "rules/tictactoe.rules"],
     "error: python -m engine solve: unrecognized arguments: rules/tictactoe.rules"),
    (["solve", "rules/nidavellir.rules", "--set", "variant=blog", "players=3"],  # one --set for two parameters
     "error: python -m engine solve: unrecognized arguments: players=3; each parameter takes a --set of its own: "
     "--set players=3"),
])
def test_an_option_the_command_does_not_take_is_named_with_the_one_likely_meant(capsys, argv, message):
    assert usage_error(capsys, *argv) == message


@pytest.mark.parametrize("argv, message", [
    (["solve", "rules/tictactoe.rules", "--depth", "3", "--depth=5"],
     "error: python -m engine solve: --depth given 2 times (3, 5): give it once"),
    (["search", "rules/nidavellir.rules", "--algo", "beam", "--algo", "mcts"],
     "error: python -m engine search: --algo given 2 times (beam, mcts): give it once"),
])
def test_an_option_of_one_value_given_twice_is_a_usage_error_not_the_last_taken(capsys, argv, message):
    assert usage_error(capsys, *argv) == message


def test_options_that_gather_values_or_take_none_may_repeat(capsys):
    assert main(["solve", "rules/nidavellir.rules", "--set", "rounds=1", "--set", "variant=blog", "--json",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["set"] == ["rounds=1", "variant=blog"]  # both --set values taken


def test_version_prints_the_version_of_the_package(capsys):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"python -m engine {version}\n"


def test_with_json_a_failing_command_prints_its_error_as_an_object_too(capsys):
    assert main(["solve", "rules/nidavellir.rules", "--set", "players=9", "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"file": "rules/nidavellir.rules", "error": err.strip()[len("error: "):]}
    assert main(["solve", "rules/nidavellir.rules", "--set", "players=9"]) == 2
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("argv", [["search", "rules/tictactoe.rules", "--json"],
                                  ["solve", "rules/tictactoe.rules", "--json", "--bogus"],
                                  ["check", "rules/tictactoe.rules", "--json", "--invariant", "totl > 0"]])
def test_with_json_an_error_in_the_command_line_itself_prints_an_object_too(capsys, argv):
    assert main(argv) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["file"] == "rules/tictactoe.rules" and out["error"]


RUNTIME = """const step: map<int, int> = {0: 1, 1: 2, 2: 1}
state { cnt: 0..9 = 0 }
action inc "inc {k}" { choose k in 1..2  cnt += step[cnt] }
turn { inc }
terminal cnt >= 6
score cnt
"""


def test_with_json_errors_in_the_rules_come_as_diagnostics_with_their_place(tmp_path, capsys):
    path = tmp_path / "typo.rules"
    path.write_text(RUNTIME.replace("score cnt", "score cnnt"))
    assert main(["solve", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    [d] = out["diagnostics"]  # line 6, column 7: `cnnt`, by hand
    assert (d["file"], d["line"], d["col"], d["end_col"], d["severity"], d["code"]) == \
        (str(path), 6, 7, 11, "error", "unknown-name")
    assert d["hint"] == f"did you mean 'cnt'? (declared at {path}:2:9)" and "unknown name 'cnnt'" in d["message"]


def test_with_json_a_rule_failing_in_a_game_gives_the_place_moves_and_state(tmp_path, capsys):
    # the map has no entry 3: counting 1, 2, 1 reaches cnt = 0 + 1 + 2 = 3 after 2 moves, by hand
    path = tmp_path / "gap.rules"
    path.write_text(RUNTIME)
    assert main(["play", str(path), "--agents", "random", "--games", "1", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["diagnostics"][0]["line"] == 3 and out["diagnostics"][0]["message"] == "no entry 3 in {0: 1, 1: 2, 2: 1}"
    assert (out["in_game"], out["moves"], out["state"]) == (1, ["inc 1", "inc 2"], {"cnt": 3})


def test_validate_with_json_gives_each_file_its_errors_and_warnings(tmp_path, capsys):
    path = tmp_path / "gap.rules"
    path.write_text(RUNTIME)
    missing = tmp_path / "none.rules"
    assert main(["validate", "rules/tictactoe.rules", str(path), str(missing), "--json"]) == 1
    files = json.loads(capsys.readouterr().out)["files"]
    assert files[0] == {"file": "rules/tictactoe.rules", "game": "Tic-tac-toe", "ok": True, "errors": [],
                        "warnings": []}
    assert [(f["file"], f["ok"]) for f in files] == [("rules/tictactoe.rules", True), (str(path), False),
                                                     (str(missing), False)]
    assert [d["code"] for d in files[1]["errors"]] == ["runtime"] and files[1]["errors"][0]["line"] == 3
    assert files[2]["refused"] == f"{missing}: no such rule file"
    # a file that is read but fails its checks is named by its title; one that cannot be parsed, by none
    typo, broken = tmp_path / "typo.rules", tmp_path / "broken.rules"
    typo.write_text('game "Typo"\nstate { n: int = 0 }\nturn { m += 1 }\nterminal n > 1\nscore n\n')
    broken.write_text('game "Broken"\nstate { n: int = 0\n')
    assert main(["validate", str(typo), str(broken), "--json"]) == 1
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["game"], f["errors"][0]["code"]) for f in files] == [("Typo", "unknown-name"), (None, "syntax")]
    # a file read whole but refused a --set it does not take is named by its title too
    assert main(["validate", "rules/nidavellir.rules", "rules/tictactoe.rules", "--set", "variant=blog",
                 "--json"]) == 2
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["game"], f["ok"], "refused" in f) for f in files] == [("Nidavellir: coin trades", True, False),
                                                                     ("Tic-tac-toe", False, True)]


def test_search_help_says_a_few_words_on_every_algorithm(capsys):
    from engine.cli_search import ALGORITHM_HELP
    from search.agents import ALGORITHMS
    assert list(ALGORITHM_HELP) == list(ALGORITHMS)
    with pytest.raises(SystemExit):
        main(["search", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert all(f"{name}: {' '.join(what.split())}" in text for name, what in ALGORITHM_HELP.items()), text


def engine_into_a_closed_pipe(*args, both: bool = True) -> tuple:
    """(exit status, stderr) of `python -m engine ARGS` whose output goes into a pipe closed before
    it writes (as `| head -0` closes it; the engine takes far longer to start than the close): its
    stdout, and with `both` its stderr too (2>&1)."""
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "engine", *args], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT if both else subprocess.PIPE, text=True)
    p.stdout.close()
    err = "" if both else p.stderr.read()
    return p.wait(timeout=120), err


@pytest.mark.parametrize("args, status", [
    (["validate", "rules/tictactoe.rules", "--set", "side=x"], 2),  # a usage error: still 2
    (["solve", "rules/tictactoe.rules", "--invariant", "len(marks) < 3"], 1),  # an invariant that fails
])
def test_an_error_told_into_a_pipe_closed_early_keeps_its_exit_status(args, status):
    assert engine_into_a_closed_pipe(*args)[0] == status


def test_output_cut_short_by_a_closed_pipe_is_exit_status_1_without_a_traceback():
    # the solve succeeded, but what it printed was not read: not a success to report as 0
    status, err = engine_into_a_closed_pipe("solve", "rules/tictactoe.rules", both=False)
    assert (status, err) == (1, "")
