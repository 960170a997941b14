"""A rule file's `agent` settings: their diagnostics, their precedence under the command line,
the tic-tac-toe heuristic against hand counts, and MCTS with it against the issue's criterion."""
import argparse
import random

import pytest

from engine.cli_search import ALGORITHM_OPTIONS, _options
from engine.diagnostics import RuleErrors
from engine.load import check_file, load_game
from search.agents import Options, make_agent
from search.agents import _options as agents_options
from search.budget import Budgeted
from search.mcts import mcts
from test_search_algorithms import BLOCK, WIN, replay
from test_search_commands import json_of

GAME = """\
state { n: 0..3 = 0 }
action step { n += 1 }
turn { step }
terminal n == 3
score n
heuristic first = n
heuristic second = 3 - n
"""

# (id, the agent declaration, code, the text the message or hint names)
BROKEN = [
    ("misspelt-algorithm", "agent mtcs { depth = 0 }", "unknown-name", "did you mean 'mcts'"),
    ("no-such-algorithm", "agent minimax { depth = 0 }", "unknown-name", "the algorithms are backtrack"),
    ("option-the-algorithm-lacks", "agent mcts { width = 5 }", "unknown-name",
     "mcts takes heuristic, depth, backup, horizon, exploration, rave"),
    ("misspelt-option", "agent beam { widht = 5 }", "unknown-name", "did you mean 'width'"),
    ("undeclared-heuristic", "agent beam { heuristic = secnd }", "unknown-name", "did you mean 'second'"),
    ("number-for-a-heuristic", "agent osla { heuristic = 3 }", "type-mismatch", "the name of a heuristic"),
    ("name-for-a-number", "agent beam { width = second }", "type-mismatch", "expected a number"),
    ("zero-width", "agent beam { width = 0 }", "out-of-range", "1 or more"),
    ("fraction-for-a-whole-number", "agent beam { width = 2.5 }", "type-mismatch", "expected a whole number, got 2.5"),
    ("name-for-the-exploration", "agent mcts { exploration = high }", "type-mismatch", "expected a number"),
    ("negative-rave", "agent mcts { rave = -1 }", "out-of-range", "rave -1: expected 0 or more"),
    ("negative-exploration", "agent mcts { exploration = -0.5 }", "out-of-range",
     "exploration -0.5: expected 0 or more"),
    ("negative-depth", "agent rhea { depth = -2 }", "out-of-range", "depth -2: expected 0 or more"),
    ("fraction-for-the-rave", "agent mcts { rave = 0.5 }", "type-mismatch", "expected a whole number, got 0.5"),
    ("unknown-backup", "agent mcts { backup = best }", "type-mismatch", "expected one of mean, max, got 'best'"),
    ("number-for-a-backup", "agent mcts { backup = 1 }", "type-mismatch", "expected one of mean, max, got 1"),
    ("unknown-horizon", "agent mcts { horizon = round }", "type-mismatch", "expected one of end, chance, got 'round'"),
    ("option-twice", "agent rhea { depth = 2, depth = 3 }", "duplicate", "first given at"),
    ("agent-twice", "agent osla { }\nagent osla { heuristic = first }", "duplicate", "first declared at"),
]


@pytest.mark.parametrize("row_id, decl, code, words", BROKEN, ids=[r[0] for r in BROKEN])
def test_a_bad_agent_declaration_is_a_diagnostic_at_its_line(tmp_path, row_id, decl, code, words):
    path = tmp_path / "game.rules"
    path.write_text(GAME + decl + "\n")
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    d = info.value.diagnostics[0]
    assert d.code == code, info.value.render()
    assert d.span.file == str(path) and d.span.line == GAME.count("\n") + decl.count("\n") + 1
    assert words in d.message + " " + (d.hint or ""), info.value.render()


def test_a_hyphenated_algorithm_name_and_a_note_are_accepted(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(GAME + 'agent max-score { heuristic = second, }\n    source "a note"\n')
    assert load_game(str(path)).agent_options == {"max-score": {"heuristic": "second"}}


def args(**given):
    """The algorithm options as argparse gives them when only `given` is on the command line."""
    base = {k: None for k in ALGORITHM_OPTIONS if k != "filter"}
    return argparse.Namespace(**{**base, **given})


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent beam { heuristic = second, width = 7 }\n")
    return load_game(str(path))


def test_the_files_settings_apply_to_their_algorithm_only(game):
    assert _options(args(), game, "beam") == Options(heuristic="second", width=7)
    assert _options(args(), game, "mcts") == Options(heuristic="first")  # the first declared, as without agent


def test_a_backup_given_in_the_file_reaches_mcts_and_the_command_line_overrides_it(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent mcts { depth = 0, backup = max }\n")
    g = load_game(str(path))
    assert _options(args(), g, "mcts") == Options(heuristic="first", depth=0, backup="max")
    assert _options(args(backup="mean"), g, "mcts").backup == "mean"


def test_an_exploration_constant_from_the_file_or_the_command_line_reaches_mcts(tmp_path, game):
    # a fraction in the file, a whole number too; the command line wins over the file
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent mcts { depth = 0, exploration = 0.5 }\n")
    g = load_game(str(path))
    assert g.agent_options == {"mcts": {"depth": 0, "exploration": 0.5}}
    assert agents_options("mcts", _options(args(), g, "mcts"))["c"] == 0.5
    assert agents_options("mcts", _options(args(exploration=2.0), g, "mcts"))["c"] == 2.0
    assert "c" not in agents_options("mcts", _options(args(), game, "mcts"))  # none given: mcts's own default
    path.write_text(GAME + "agent mcts { exploration = 1 }\n")
    assert agents_options("mcts", _options(args(), load_game(str(path)), "mcts"))["c"] == 1


def test_a_rave_weight_from_the_file_or_the_command_line_reaches_mcts(tmp_path, game):
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent mcts { depth = 0, rave = 0 }\n")
    g = load_game(str(path))
    assert agents_options("mcts", _options(args(), g, "mcts"))["rave"] == 0
    assert agents_options("mcts", _options(args(rave=50), g, "mcts"))["rave"] == 50
    assert "rave" not in agents_options("mcts", _options(args(), game, "mcts"))  # none given: mcts's own default


def test_depth_end_overrides_the_files_depth_and_lifts_flat_mcs_default(tmp_path):
    # the file asks mcts for no rollouts (depth 0); `--depth end` asks for rollouts to the end,
    # which mcts reads as rollout_depth None; flat-mc's own default is 20 moves, lifted too
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent mcts { depth = 0 }\n")
    g = load_game(str(path))
    assert agents_options("mcts", _options(args(depth="end"), g, "mcts"))["rollout_depth"] is None
    assert agents_options("mcts", _options(args(), g, "mcts"))["rollout_depth"] == 0
    assert agents_options("flat-mc", _options(args(depth="end"), g, "flat-mc"))["rollout_depth"] is None
    assert agents_options("flat-mc", _options(args(), g, "flat-mc"))["rollout_depth"] == 20


@pytest.mark.parametrize("flags,words", [
    (["--agents", "rhea", "--depth", "end"], "rhea needs a horizon"),
    (["--agents", "mcts", "--depth", "soon"], "expected a number of moves or 'end', got 'soon'"),
    (["--agents", "mcts", "--exploration", "-1"], "--exploration -1: expected a number, 0 or more"),
    (["--agents", "mcts", "--exploration", "nan"], "--exploration nan: expected a number, 0 or more"),
    (["--agents", "beam", "--exploration", "1"],
     "beam takes no --exploration, so it would be ignored (it is for mcts)"),
    (["--agents", "mcts", "--rave", "-1"], "--rave -1: expected 0 or more"),
    (["--agents", "mcts", "--rave", "0.5"], "--rave 0.5: expected a whole number"),
    (["--agents", "mcts", "--exploration", "x"], "--exploration x: expected a number"),
    (["--agents", "mcts", "--games", "abc"], "--games abc: expected a whole number"),
    (["--agents", "osla", "--rave", "0"], "osla takes no --rave, so it would be ignored (it is for mcts)"),
    (["--agents", "osla", "--depth", "3"], "osla takes no --depth, so it would be ignored (it is for backtrack, "
                                           "random-walk, beam, mcts, flat-mc, rhea, alpha-beta)"),
    (["--agents", "mtcs"], "--agents mtcs: no algorithm named 'mtcs'; did you mean 'mcts'? expected one of backtrack,"),
    (["--agents", "xyz"], "--agents xyz: no algorithm named 'xyz'; expected one of backtrack,"),
    (["--agents", "xyz"], "alpha-beta, random, or policy:FILE.jsonl (the moves of a file solve --policy wrote)"),
])
def test_a_depth_exploration_or_rave_that_cannot_apply_is_a_usage_error(engine_cli, flags, words):
    r = engine_cli("play", "rules/tictactoe.rules", "--games", "1", *flags)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_command_line_overrides_the_files_settings(game):
    assert _options(args(width=3), game, "beam") == Options(heuristic="second", width=3)
    assert _options(args(heuristic="first"), game, "beam") == Options(heuristic="first", width=7)


def test_search_reports_the_heuristic_the_file_chose(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(GAME + "agent beam { heuristic = second }\n")
    assert json_of("search", path, "--algo", "beam", "--json")["heuristic"] == "second"
    assert json_of("search", path, "--algo", "beam", "--heuristic", "first", "--json")["heuristic"] == "first"


# ------------------------------------------------------------ the tic-tac-toe heuristic

def rows(game, s):
    return [game.evaluate(s, "rows", p) for p in range(2)]


def test_rows_counts_lines_as_the_textbook_evaluation_does(tictactoe):
    # X (0, 0), O (1, 1), X (2, 2). Lines with only X's marks, one each: row 0, row 2, column 0,
    # column 2 (X1 = 4, X2 = 0); only O's, one each: row 1, column 1, the anti-diagonal (O1 = 3);
    # the diagonal holds both. Eval for X = 3*0 + 4 - (3*0 + 3) = 1, for O = 3 - 4 = -1.
    s = replay(tictactoe, ["X at (0, 0)", "O at (1, 1)", "X at (2, 2)"])
    assert rows(tictactoe, s) == [1, -1]
    # X (0, 0), O (1, 1), X (0, 1). Row 0 holds two X's and a free cell (X2 = 1); column 0 one X
    # (X1 = 1); row 1 and the anti-diagonal one O each (O1 = 2); column 1 and the diagonal hold both,
    # the rest are empty. Eval for X = 3 + 1 - (0 + 2) = 2, for O = 2 - (3 + 1) = -2.
    s = replay(tictactoe, ["X at (0, 0)", "O at (1, 1)", "X at (0, 1)"])
    assert rows(tictactoe, s) == [2, -2]


def test_rows_puts_a_win_beyond_any_open_position_and_searches_value_ends_by_it(tictactoe):
    before, winning = WIN
    s = replay(tictactoe, before + [winning])
    assert tictactoe.is_terminal(s)
    assert rows(tictactoe, s) == [11, -11]  # the file's win value: one beyond the largest Eval
    assert Budgeted(tictactoe, s, 1).values(s, "rows") == (11, -11)
    assert Budgeted(tictactoe, s, 1).values(s) == (1, -1)  # without a heuristic: the returns


def test_mcts_values_a_known_end_on_the_heuristics_scale(tictactoe):
    # X to move can complete row 0: the node after that move is an end, known exactly; with a
    # heuristic its value is the heuristic's for a win (11, -11), not the returns (1, -1) mixed with it
    before, winning = WIN
    s = replay(tictactoe, before)
    for heuristic, expected in (("rows", (11, -11)), (None, (1, -1))):
        r = mcts(tictactoe, s, budget=1000, rng=random.Random(1), heuristic=heuristic)
        root = r.memory[tictactoe.key(s)]
        (win,) = [ch for m, ch in zip(root.options, root.children) if tictactoe.describe(m) == winning]
        assert win.exact == expected


@pytest.mark.parametrize("position", [WIN, BLOCK], ids=["win", "block"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_with_the_files_settings_takes_a_win_and_blocks_a_threat(tictactoe, position, seed):
    before, expected = position
    assert tictactoe.agent_options["mcts"] == {"depth": 0}
    r = make_agent("mcts", Options(heuristic="rows", depth=0))(tictactoe, replay(tictactoe, before), budget=1000,
                                                                 rng=random.Random(seed))
    assert tictactoe.describe(r.move) == expected


# ------------------------------------------------------------ the play criterion

def test_mcts_loses_no_game_to_random_play_at_1000_calls_a_decision():
    out = json_of("play", "rules/tictactoe.rules", "--agents", "mcts,random", "--games", "100", "--seed", "1",
                  "--json")
    mcts, _ = out["agents"]
    assert out["budget"] == 1000 and mcts["games"] == 100
    assert mcts["losses"] == 0


def test_mcts_draws_every_game_against_itself_at_1000_calls_a_decision():
    out = json_of("play", "rules/tictactoe.rules", "--agents", "mcts,mcts", "--games", "100", "--seed", "1",
                  "--json")
    assert out["budget"] == 1000
    assert [a["draws"] for a in out["agents"]] == [100, 100]  # tic-tac-toe is a draw under perfect play
