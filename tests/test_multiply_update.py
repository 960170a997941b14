"""`*=` multiplies an int field, an int entry of a map or list, or an int `var`, keeping a range's
bound as `=` does; on anything but an int, and on a `scored` field, it is an error."""
import textwrap

from conftest import first_diagnostic
from engine import load_game
from engine.frame_room import with_room


def one_move_later(tmp_path, text):
    """The state after the only move of the game's first turn, and the game."""
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    game = load_game(str(path))
    (move,) = with_room(game.legal_moves, game.initial_state())
    return game, game.apply(game.initial_state(), move)


def test_times_equals_multiplies_a_field_an_entry_and_a_var(tmp_path):
    game, s = one_move_later(tmp_path, """
        state { n: int = 3  row: list<int> = [1, 2, 5]  tally: map<str, int> = {"a": -4}
                capped: 0..10 = 4 clamp  done: bool = no }
        action go {
            n *= 7
            row[2] *= n
            tally["a"] *= 2
            var k = 2
            for i in 1..3 { k *= i }
            n += k
            capped *= 3
            done = yes
        }
        turn { go }
        terminal done
        score n
        """)
    # n: 3 * 7 = 21, then + 2*1*2*3 = 12 -> 33; row[2]: 5 * 21 = 105; tally a: -4 * 2 = -8;
    # capped: 4 * 3 = 12, clamped to 10
    n, row, tally, capped, done = s[:5]
    assert (n, row, dict(tally), capped, done) == (33, (1, 2, 105), {"a": -8}, 10, True)
    assert game.is_terminal(s) and game.returns(s) == (33,)


def test_times_equals_on_a_set_is_a_type_error_at_the_statement(tmp_path):
    d, text = first_diagnostic(tmp_path / "g.rules", textwrap.dedent("""\
        state { seen: set<int> = {1}  n: 0..1 = 0 }
        action go { seen *= 2  n = 1 }
        turn { go }
        terminal n == 1
        score 0
        """))
    assert (d.code, d.message, d.span.line, d.span.col) == (
        "type-mismatch", "'*=' multiplies an int, 'seen' is set<int>", 2, 13), text


def test_times_equals_on_a_scored_field_is_refused_as_setting_it(tmp_path):
    d, text = first_diagnostic(tmp_path / "g.rules", textwrap.dedent("""\
        state { points: int = 1 scored  n: 0..1 = 0 }
        action go { points *= 2  n = 1 }
        turn { go }
        terminal n == 1
        score points
        """))
    assert (d.code, d.message, d.span.line, d.span.col) == (
        "scored", "scored field 'points' changes only by += and -=", 2, 13), text
