"""Who moves next: the next player in order, unless a `pass to` in the turn, a trigger or a
chance block names another."""

import pytest

from conftest import TAKE_LAST, first_diagnostic, run_engine
from engine import RuleErrors
from engine.load import load_game

GAME = """
players A, B, C
state { n: 0..9 = 0  rolling: bool = no }
action step "step" { n += 1 }
action again "again" { n += 1  pass to current }
action skip "skip" { n += 1  pass to C }
action roll "roll" { rolling = yes  pass to current }
chance when rolling { draw d in [1, 2]  if d == 1 { pass to B }  rolling = no }
EXTRA
turn { either { step } or { again } or { skip } or { roll } }
terminal n == 9
score n
"""


def loaded(tmp_path, extra: str = ""):
    path = tmp_path / "order.rules"
    path.write_text(GAME.replace("EXTRA", extra))
    return load_game(str(path))


def after(game, s, label: str):
    """The state after the move (or chance outcome) with this label."""
    if game.current_player(s) < 0:
        [m] = [m for m, _ in game.chance_outcomes(s) if m.label == label]
    else:
        [m] = [m for m in game.legal_moves(s) if m.label == label]
    return game.apply(s, m)


def test_without_pass_to_the_next_player_in_order_moves(tmp_path):
    game = loaded(tmp_path)
    s = game.initial_state()
    movers = []
    for _ in range(4):
        movers.append(game.current_player(s))
        s = after(game, s, "step")
    assert movers == [0, 1, 2, 0]  # A, B, C, A


def test_pass_to_current_moves_again_and_pass_to_a_player_skips_to_them(tmp_path):
    game = loaded(tmp_path)
    s = after(game, game.initial_state(), "again")
    assert game.current_player(s) == 0  # A again
    s = after(game, s, "skip")
    assert game.current_player(s) == 2  # A passed to C, over B
    s = after(game, s, "step")
    assert game.current_player(s) == 0  # then on in order: C to A


def test_a_chance_block_passes_the_turn_on_the_draw_that_says_so(tmp_path):
    game = loaded(tmp_path)
    rolled = after(game, game.initial_state(), "roll")
    assert game.current_player(rolled) < 0  # chance moves; A keeps the turn for after it
    assert game.current_player(after(game, rolled, "d = 2")) == 0  # A again
    assert game.current_player(after(game, rolled, "d = 1")) == 1  # B


def test_a_trigger_names_who_moves_after_the_move(tmp_path):
    # the trigger runs once the move is made and B is to move next; it hands the turn to C
    game = loaded(tmp_path, "when n == 1 { pass to C }")
    s = after(game, game.initial_state(), "step")
    assert game.current_player(s) == 2


def test_pass_to_needs_a_player(tmp_path):
    d, shown = first_diagnostic(tmp_path / "bad.rules", GAME.replace("EXTRA", "").replace("pass to C", "pass to 3"))
    assert (d.code, d.message) == ("type-mismatch", "`pass to` must be player, got int"), shown


TALLY = """
players A, B, C
state { scores: map<player, int> = {p: 0 for p in players}  turns: 0..9 = 0 }
action step "{current} scores" { scores[current] += 1  turns += 1 }
turn { step }
terminal turns == 4 or any(scores[p] >= 3 for p in players)
score for p: scores[p] - max(scores[q] for q in players where q != p)
view "{len(players)} players: {players}"
"""


def test_players_is_the_list_of_the_players_in_turn_order(tmp_path):
    path = tmp_path / "tally.rules"
    path.write_text(TALLY)
    game = load_game(str(path))
    s = game.initial_state()
    assert game.view(s) == "3 players: [A, B, C]"
    for _ in range(4):
        [m] = game.legal_moves(s)
        s = game.apply(s, m)
    # by hand: A, B, C, A score one each: A 2, B 1, C 1; each less the best of the others
    assert game.is_terminal(s) and tuple(game.returns(s)) == (1, -1, -1)


def test_a_file_that_names_something_players_keeps_its_own(tmp_path):
    path = tmp_path / "own.rules"
    path.write_text(TALLY.replace("view ", "const players = [C, B]\nview "))
    game = load_game(str(path))
    assert game.view(game.initial_state()) == "2 players: [C, B]"


def test_a_game_without_a_players_declaration_has_one_player(tmp_path):
    path = tmp_path / "one.rules"
    path.write_text("state { n: 0..9 = 0 }\naction step { n += 1 }\nturn { step }\nterminal n == 2\n"
                    "score n * len(players)\n")
    game = load_game(str(path))
    s = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    assert tuple(game.returns(game.apply(s, game.legal_moves(s)[0]))) == (2,)


def test_a_parameter_named_players_that_hides_the_list_is_named_in_the_hint_of_an_error_it_causes(tmp_path):
    path = tmp_path / "count.rules"
    path.write_text("players A, B, C\nparam players in 2..3 = 3\nstate { n: 0..3 = 0 }\naction step { n += 1 }\n"
                    "turn { step }\nterminal n == 3\nscore for p: count(q for q in players where q == p)\n")
    with pytest.raises(RuleErrors) as info:
        load_game(str(path))
    [d] = info.value.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("type-mismatch", 7, 31) and d.hint == (
        f"`players` here is a parameter declared at {path}:2:7, which hides the list of the players "
        "(A, B, C); `players A, B, C, D first n` lets a parameter n say how many of them play")


def test_next_player_is_the_one_after_in_turn_order_and_the_first_after_the_last(tmp_path):
    # by hand: A moves and skips B, so C moves next, then (C's move skipping A) B, then (B skipping C) A
    path = tmp_path / "skip.rules"
    path.write_text("players A, B, C\nstate { seen: list<player> = [] }\n"
                    'action go "{current} goes" { seen += current  pass to next_player(next_player(current)) }\n'
                    "turn { go }\nterminal len(seen) == 4\nscore 0\n"
                    "invariant next_player(A) == B and next_player(B) == C and next_player(C) == A\n")
    game = load_game(str(path))
    s = game.initial_state()
    while not game.is_terminal(s):
        [m] = game.legal_moves(s)
        s = game.apply(s, m)
    assert game.state_json(s)["seen"] == ["A", "C", "B", "A"]
    assert game.broken_invariants(s) == []
    d = first_diagnostic(tmp_path / "bad.rules", "players A, B\nstate { n: 0..1 = 0 }\naction go { n += 1 }\n"
                         "turn { go }\nterminal n == 1\nscore for p: if next_player(1) == p then 1 else 0\n")[0]
    assert (d.code, d.span.line, d.span.col, d.message) == ("type-mismatch", 6, 29,
                                                            "next_player() needs a player, got int")


def test_a_parameter_says_how_many_of_the_players_named_play(tmp_path):
    # take 1 or 2 of 4, the last to take wins. By hand: alone, A wins; two: A takes 1 and leaves B 3,
    # from which either take lets A take the last; three or four: A cannot win, and of its moves as
    # bad the longest defence, taking 1, lets B leave C 1 or 2 (a pile of 3 goes to the mover's next)
    path = tmp_path / "last.rules"
    path.write_text(TAKE_LAST)
    rows = run_engine("solve", path, "--sweep", "seats").stdout.splitlines()[1:]
    assert [row.split() for row in rows] == [
        ["seats", "A", "B", "C", "D", "distinct", "states", "seconds", "first", "move"],
        ["1", "1", "-", "-", "-"] + rows[1].split()[5:],
        ["2", "1", "0", "-", "-"] + rows[2].split()[5:], ["3", "0", "0", "1", "-"] + rows[3].split()[5:],
        ["4", "0", "0", "1", "0"] + rows[4].split()[5:]]
    game = load_game(str(path), {"seats": "3"})
    assert (game.num_players, game.player_names) == (3, ("A", "B", "C"))


@pytest.mark.parametrize("text, code, message", [
    ("players A, B first 3", "runtime", "3 players, of the 2 that `players` names: expected 1 to 2 (while setting up "
                                        "the game)"),
    ("players A, B first n", "not-constant", "the number of players must not depend on the state ('n')"),
    ("players A, B first yes", "type-mismatch", "the number of players must be int, got bool"),
])
def test_the_number_of_players_is_a_whole_number_of_the_names_set_before_the_game(tmp_path, text, code, message):
    path = tmp_path / "bad.rules"
    path.write_text(f"{text}\nstate {{ n: 0..3 = 0 }}\naction go {{ n += 1 }}\nturn {{ go }}\nterminal n == 3\n"
                    "score n\n")
    with pytest.raises(RuleErrors) as info:
        load_game(str(path))
    d = info.value.diagnostics[0]
    assert (d.code, d.message, d.span.line) == (code, message, 1)
