"""Comprehensions of several `for`s: every combination, the first `for` outermost, each `where`
tested with the names bound so far; values worked out by hand."""
import pytest

from engine import RuleErrors
from engine.load import load_game

GAME = """game "c"
const runs = [[1, 2], [3]]
def f(xs) = EXPR
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score n
view text(EXPR)
"""


def shown(tmp_path, expr: str, through_def: bool = False) -> str:
    """EXPR's value as text; through_def: inside a def whose parameter xs is `runs` (whose type
    the checker does not know there)."""
    path = tmp_path / "c.rules"
    text = GAME.replace("EXPR", expr)
    if through_def:
        text = text.replace(f"view text({expr})", "view text(f(runs))")
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    return game.view(game.initial_state())


@pytest.mark.parametrize("expr, value", [
    ("[c for l in xs for c in l]", "[1, 2, 3]"),
    ("[(a, b) for a in 1..3 for b in 1..3 where b < a]", "[[2, 1], [3, 1], [3, 2]]"),  # text() writes tuples so
    ("[a * 10 + b for a in 1..3 where a != 2 for b in 1..a where b != a]", "[31, 32]"),
    ("[a + b + c for a in 0..1 for b in 0..1 for c in [10, 20]]", "[10, 20, 11, 21, 11, 21, 12, 22]"),
    ("sum(c for l in xs for c in l)", "6"),
    ("count(c for l in xs for c in l where c > 1)", "2"),
    ("any(c == 3 for l in xs for c in l)", "yes"),
    ("all(c < 3 for l in xs for c in l)", "no"),
    ("max(len(l) * c for l in xs for c in l)", "4"),
    ("first(c for l in xs for c in l where c > 1) else 0", "2"),
    ("{a * b for a in 1..2 for b in 1..2}", "{1, 2, 4}"),
    ("{(a, b): a * b for a in 1..2 for b in 2..3}", "{[1, 2]: 2, [1, 3]: 3, [2, 2]: 4, [2, 3]: 6}"),
    ("sorted(c for l in xs for c in l where c != 2)", "[1, 3]"),
])
def test_several_fors_go_over_every_combination_in_order(tmp_path, expr, value):
    assert shown(tmp_path, expr.replace("xs", "runs")) == value
    if "xs" in expr:
        assert shown(tmp_path, expr, through_def=True) == value


def test_a_later_for_sees_the_names_of_an_earlier_one_and_nothing_outside_sees_them(tmp_path):
    assert shown(tmp_path, "[len([b for a in 1..2 for b in 1..a]), 0]") == "[3, 0]"
    with pytest.raises(RuleErrors) as e:
        shown(tmp_path, "[b for a in 1..2 for b in 1..a] + [b]")
    assert "unknown name 'b'" in e.value.render()


def test_a_for_over_a_number_is_an_error_at_that_number(tmp_path):
    with pytest.raises(RuleErrors) as e:
        shown(tmp_path, "[a for a in 1..2 for b in 5]")
    d = e.value.diagnostics[0]
    assert (d.code, d.message, d.span.line, d.span.col) == ("type-mismatch", "'for' needs a collection, got int", 3,
                                                            39)


def test_an_enum_named_where_a_value_is_wanted_is_the_list_of_its_values(tmp_path):
    path = tmp_path / "cards.rules"
    path.write_text("""game "cards"
enum Suit { S, H, D }
record Card { suit: Suit, rank: int }
const deck = [Card(s, r) for s in Suit for r in 1..2]
def suits_above(x) = [s for s in Suit where s > x]
state { picked: list<Suit> = []  done: bool = no }
action pick "pick {s}" { choose s in Suit where s != H  picked = picked + [s]  done = len(picked) == 2 }
turn { pick }
terminal done
score len(deck)
view join(" ", [text(Suit), text(suits_above(S)), text(picked)])
""", encoding="utf-8")
    game = load_game(str(path))
    s = game.initial_state()
    assert game.view(s) == "[S, H, D] [H, D] []"
    assert [m.label for m in game.legal_moves(s)] == ["pick S", "pick D"]  # H left out, by its where
    assert game.returns(s) == (6.0,)  # 3 suits x 2 ranks


def test_an_empty_braces_in_a_comprehension_is_the_kind_the_declared_type_asks_for(tmp_path):
    # {} is a map, set or bag as the context needs, item by item in a comprehension too
    path = tmp_path / "empty.rules"
    path.write_text("players A, B\n"
                    "state { s: map<player, set<int>> = {p: {} for p in players}\n"
                    "        l: list<bag<int>> = [{} for i in 1..2]  n: 0..1 = 0 }\n"
                    "action go { n += 1  s[current] += 3  l[0] += 5 }\nturn { go }\nterminal n == 1\n"
                    "score len(s[A]) + len(l[0])\n", encoding="utf-8")
    game = load_game(str(path))
    s = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    assert game.state_json(s) == {"s": {"A": [3], "B": []}, "l": [[5], []], "n": 1, "to_move": "B"}
    assert game.returns(s) == (2.0, 2.0)  # one value in A's set, one in the first bag


def test_a_board_drawn_as_rows_of_text_is_read_cell_by_cell_with_chars(tmp_path):
    # by hand: the rows "..#", "#.#", "..." have walls at (0, 2), (1, 0) and (1, 2); from (0, 0) the
    # walker reaches (2, 0) in four steps at best: (0, 1), (1, 1), (2, 1), (2, 0)
    import json

    from conftest import run_engine
    path = tmp_path / "walk.rules"
    path.write_text('game "walk"\nconst rows = ["..#", "#.#", "..."]\nconst board = square_grid(3, 3)\n'
                    'const walls = set(c for c in cells(board) where chars(rows[c.row])[c.col] == "#")\n'
                    "state { at: cell = cell(0, 0)  spent: int = 0 scored }\n"
                    'action step "to {c}" { choose c in neighbours(board, at) where c not in walls  at = c  '
                    "spent -= 1 }\nturn { step }\nterminal at == cell(2, 0)\nscore spent\n"
                    "view text(sorted(walls))\n", encoding="utf-8")
    game = load_game(str(path))
    assert game.view(game.initial_state()) == "[(0, 2), (1, 0), (1, 2)]"
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert out["best_score"] == -4
    assert [step["move"] for step in out["best_line"][1:]] == ["to (0, 1)", "to (1, 1)", "to (2, 1)", "to (2, 0)"]
