"""Compile: runs of simple statements run as generated Python (engine/stmtsource.py) make the
states worked out by hand; every rule file, its expressions and statements generated, lists the
same moves and gives the same scores as with closures alone; and a rule that fails inside a
generated run still names the exact place."""
import random
import textwrap

import pytest

from conftest import RULE_FILES, suite_settings
from engine import load_game
from engine.compile import Compiler
from engine.frame_room import with_room
from search.protocol import CHANCE

SOW = """
    state { board: list<int> = [0, 3, 0, 0, 1]  hand: int = 0  pos: int = 0  sown: 0..3 = 0 }
    action sow "sow {i}" {
        choose i in 0..4 where board[i] > 0
        hand = board[i]
        board[i] = 0
        pos = i
        for k in 1..9 where hand > 0 {
            pos = (pos + 1) % 5
            board[pos] += 1
            hand -= 1
        }
        if pos == 0 { board[0] += 10 } else if pos == 1 { board[1] += 20 } else { pos = 9 }
        sown += 1
    }
    turn { sow }
    terminal sown == 3
    score board[0]
    """


def load(tmp_path, text, name="game.rules"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(str(path))


def moves(game, s):
    return [(m.label, m.next) for m in with_room(game.legal_moves, s)]


def test_a_sowing_loop_makes_the_boards_worked_out_by_hand(tmp_path):
    game = load(tmp_path, SOW)
    # sow 1: 3 seeds into pits 2, 3, 4: [0, 0, 1, 1, 2]; it ends in pit 4, so pos = 9
    # sow 4: 1 seed into pit 0: [1, 3, 0, 0, 0]; it ends in pit 0, which gets 10 more: 11
    assert moves(game, game.initial_state()) == [
        ("sow 1", ((0, 0, 1, 1, 2), 0, 9, 1, 0, 0)),
        ("sow 4", ((11, 3, 0, 0, 0), 0, 0, 1, 0, 0)),
    ]
    # from [11, 3, 0, 0, 0]: sow 0 takes 11 seeds, and the loop's 9 rounds put 9 of them into
    # pits 1, 2, 3, 4, 0, 1, 2, 3, 4: [1, 5, 2, 2, 2], 2 in hand, ending in pit 4 (so pos = 9)
    after = ((11, 3, 0, 0, 0), 0, 0, 1, 0, 0)
    assert moves(game, after)[0] == ("sow 0", ((1, 5, 2, 2, 2), 2, 9, 2, 0, 0))


def test_a_field_that_would_leave_its_range_drops_the_path_or_is_clamped(tmp_path):
    game = load(tmp_path, """
        state { x: 0..5 = 0  y: 0..5 = 0 clamp }
        action big { x += 3  x += 3 }
        action small { x += 1  y += 4  y += 4 }
        turn { either { big } or { small } }
        terminal x == 5
        score x + y
        """)
    # big: 0 + 3 + 3 = 6 leaves 0..5, so no move; small: x = 1, y = 4 + 4 = 8 is kept at 5
    assert moves(game, game.initial_state()) == [("small", (1, 5, 0, 0))]


def test_a_require_after_changes_in_a_loop_drops_the_path(tmp_path):
    game = load(tmp_path, """
        state { xs: list<int> = [1, 2, 3]  n: int = 0 }
        action add "add {d}" {
            choose d in 1..3
            for i in 0..2 { xs[i] += d }
            require sum(xs) < 12
            n += 1
        }
        turn { add }
        terminal n == 2
        score n
        """)
    # sums after adding d to each of three: 6 + 3d, under 12 for d = 1 only
    assert moves(game, game.initial_state()) == [("add 1", ((2, 3, 4), 1, 0, 0))]


def test_a_failure_in_the_middle_of_a_loop_is_reported_where_it_is(tmp_path, engine_cli):
    f = tmp_path / "fill.rules"
    f.write_text("state { x: 0..5 = 0  xs: list<int> = [0, 0, 0] }\n"
                 "action fill { x += 1  for k in 0..3 { xs[k] = k } }\n"
                 "turn { fill }\nterminal x == 5\nscore x + sum(xs)\n")
    r = engine_cli("validate", f)
    assert r.returncode == 1
    assert f"{f}:2:39: error[runtime]: index 3 is outside a list of 3 elements; on the pass of the `for` at line 2 " \
           "where k = 3 (in the initial state)" in r.stderr
    assert "Traceback" not in r.stderr


def closure_twin(path, monkeypatch):
    """The game of path compiled again with every expression and statement run as its closure."""
    with monkeypatch.context() as patch:
        patch.setattr(Compiler, "generate_python", False)
        return load_game(str(path), suite_settings(path))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_rule_file_lists_the_same_moves_as_with_closures_alone(path, monkeypatch):
    game, twin = load_game(str(path), suite_settings(path)), closure_twin(path, monkeypatch)
    rng = random.Random(7)

    def same_values(s):
        assert game.is_terminal(s) == twin.is_terminal(s)
        assert game.returns(s) == twin.returns(s)
        for h in game.heuristics:
            assert [game.evaluate(s, h, p) for p in range(game.num_players)] == \
                   [twin.evaluate(s, h, p) for p in range(game.num_players)], h
        assert game.broken_invariants(s) == [] and twin.broken_invariants(s) == []
        if game.declares_view:
            assert game.view(s) == twin.view(s)
    for _ in range(4):
        s = game.initial_state()
        assert s == twin.initial_state()
        same_values(s)
        while not game.is_terminal(s):
            if game.current_player(s) == CHANCE:
                outcomes = game.chance_outcomes(s)
                assert [(m.label, m.next, w) for m, w in outcomes] == \
                       [(m.label, m.next, w) for m, w in twin.chance_outcomes(s)]
                s = rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0].next
                same_values(s)
                continue
            listed = moves(game, s)
            assert listed == moves(twin, s)
            if not listed:
                break
            s = rng.choice(listed)[1]
            same_values(s)


ELEMENTS = """
    state { xs: list<0..5> = [4, 0]  ys: list<0..5> = [0, 4] clamp  m: map<int, 0..5> = {1: 4}  n: 0..3 = 0 }
    action a "a {d}" { choose d in 1..2  xs[0] += d  n += 1 }
    action b "b {d}" { choose d in 1..2  ys[1] = ys[1] + d  n += 1 }
    action c "c {d}" { choose d in 1..2  m[1] += d  n += 1 }
    action e "e {d}" { choose d in 1..2  m[1] = 4 + d  n += 1 }
    turn { either { a } or { b } or { c } or { e } }
    terminal n == 3
    score n
    """


def test_an_element_stored_outside_a_collections_range_drops_the_path_or_is_clamped(tmp_path, monkeypatch):
    path = tmp_path / "elements.rules"
    path.write_text(textwrap.dedent(ELEMENTS), encoding="utf-8")
    game, twin = load_game(str(path)), closure_twin(path, monkeypatch)
    # by hand: 4 + 1 = 5 is within 0..5 and 4 + 2 = 6 is not: a 2, c 2 and e 2 drop their paths; ys
    # clamps 6 to 5, so b 1 and b 2 both store 5
    labels = [(label, (xs, ys, dict(m.items()), n)) for label, (xs, ys, m, n, *_) in moves(game, game.initial_state())]
    assert labels == [("a 1", ((5, 0), (0, 4), {1: 4}, 1)), ("b 1", ((4, 0), (0, 5), {1: 4}, 1)),
                      ("b 2", ((4, 0), (0, 5), {1: 4}, 1)), ("c 1", ((4, 0), (0, 4), {1: 5}, 1)),
                      ("e 1", ((4, 0), (0, 4), {1: 5}, 1))], labels
    assert moves(twin, twin.initial_state()) == moves(game, game.initial_state())
