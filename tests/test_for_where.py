"""`for NAME in COLLECTION where COND { ... }`: the body runs for the elements where COND holds,
tested as each element comes, as an `if` inside the loop would."""
import textwrap

from engine.load import load_game


def game_with(tmp_path, action: str):
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(f"""\
        state {{ moves: 0..99 = 0  done: bool = no }}
        action step {{ {action}  done = yes }}
        turn {{ step }}
        terminal done
        score moves
        """))
    return load_game(str(path))


def final_moves(game) -> list:
    s = game.initial_state()
    return sorted(game.returns(game.apply(s, m))[0] for m in game.legal_moves(s))


def test_the_condition_is_tested_as_each_element_comes_after_the_body_ran_for_those_before(tmp_path):
    # by hand: i = 1 > 0 adds 2; 2 > 2 no; 3 > 2 adds 2; 4 > 4 no; 5 > 4 adds 2: 6. A condition
    # tested once before the loop would let all five in: 10.
    game = game_with(tmp_path, "for i in 1..5 where i > moves { moves += 2 }")
    assert final_moves(game) == [6]


def test_it_is_the_loop_with_an_if_inside(tmp_path):
    filtered = game_with(tmp_path, "for i in 1..5 where i % 2 == 1 { moves += i }")
    (tmp_path / "inner").mkdir()
    inner = game_with(tmp_path / "inner", "for i in 1..5 { if i % 2 == 1 { moves += i } }")
    assert final_moves(filtered) == final_moves(inner) == [9]  # 1 + 3 + 5


def test_a_body_that_forks_forks_only_for_the_elements_kept(tmp_path):
    # i = 1 and i = 3 each add 0 or i: 0, 1, 3, 4 (i = 2 is left out, else 2, 5 and 6 too)
    game = game_with(tmp_path, "for i in 1..3 where i != 2 { choose k in 0..1  moves += k * i }")
    assert final_moves(game) == [0, 1, 3, 4]
