"""A move found by a random walk down the turn (`sample_move`), the move list cut off at a
limit (`legal_moves_within`), and `validate` using both on a turn too wide to list."""
import random

from conftest import run_engine
from engine.load import load_game
from search.beam import beam
from search.budget import Budgeted

# x and y from 1..10, kept when x * y is a multiple of 6, then an optional mark.
GAME = """
game "pairs"
state { x: int = 0  y: int = 0  marked: bool = no  turns: int = 0 }
turn {
    choose a in 1..10
    choose b in 1..10
    require (a * b) % 6 == 0
    x = a
    y = b
    marked = no
    optional { marked = yes }
    turns += 1
}
terminal turns == 2
score x + y
"""


def pairs(tmp_path):
    path = tmp_path / "pairs.rules"
    path.write_text(GAME)
    return load_game(str(path))


def test_every_sampled_move_is_a_legal_move_and_every_legal_move_gets_sampled(tmp_path):
    game = pairs(tmp_path)
    s = game.initial_state()
    legal = {m.next for m in game.legal_moves(s)}
    # by hand: a * b is a multiple of 6 for a = 6 (10 values of b), for a = 1, 5 or 7 with b = 6
    # (1 each), a = 2, 4, 8 or 10 with b = 3, 6 or 9 (3 each), a = 3 or 9 with b = 2, 4, 6, 8 or
    # 10 (5 each): 10 + 3 + 12 + 10 = 35 pairs, each marked or not
    assert len(legal) == 70
    rng = random.Random(5)
    drawn = [game.sample_move(s, rng).next for _ in range(3000)]
    assert set(drawn) <= legal
    assert set(drawn) == legal


def test_no_sampled_move_at_the_end_or_where_every_path_fails(tmp_path):
    game = pairs(tmp_path)
    rng = random.Random(1)
    s = game.sample_move(game.sample_move(game.initial_state(), rng).next, rng).next
    assert game.is_terminal(s) and game.sample_move(s, rng) is None
    path = tmp_path / "none.rules"
    path.write_text(GAME.replace("require (a * b) % 6 == 0", "require a * b > 100"))
    stuck = load_game(str(path))
    assert stuck.legal_moves(stuck.initial_state()) == ()
    assert stuck.sample_move(stuck.initial_state(), rng) is None


def test_the_move_list_is_given_up_past_the_limit(tmp_path):
    game = pairs(tmp_path)
    s = game.initial_state()
    assert game.legal_moves_within(s, 70) == game.legal_moves(s)  # 70 paths, counted above
    assert game.legal_moves_within(s, 69) is None


def test_validate_samples_a_turn_too_wide_to_list_and_still_checks_the_invariants(tmp_path):
    # 200 x 200 = 40,000 paths a turn, more than validate lists; half the moves mark
    wide = (GAME.replace("1..10", "1..200").replace("require (a * b) % 6 == 0", "")
            .replace("score x + y", "score x + y\ninvariant not marked"))
    path = tmp_path / "wide.rules"
    path.write_text(wide)
    r = run_engine("validate", path)
    assert r.returncode == 1
    assert "wide.rules:16:1: error[invariant]: invariant does not hold after" in r.stderr
    path.write_text(wide.replace("invariant not marked", "invariant x <= 200 and y <= 200"))
    r = run_engine("validate", path)
    assert r.returncode == 0, r.stderr


def test_some_moves_lists_a_state_within_the_limit_and_draws_the_limit_from_a_wider_one(tmp_path):
    game = pairs(tmp_path)
    s = game.initial_state()
    fm = Budgeted(game, s, None)
    assert fm.some_moves(s, 70, random.Random(0)) == game.legal_moves(s)
    assert fm.calls == 1
    fm = Budgeted(game, s, None)
    drawn = fm.some_moves(s, 20, random.Random(0))
    legal = {m.next for m in game.legal_moves(s)}
    assert 1 <= len(drawn) <= 20 and {m.next for m in drawn} <= legal
    assert len({m.next for m in drawn}) == len(drawn)  # equal moves once
    assert fm.calls == 21  # the attempt to list, then one per draw


def test_a_beam_with_sample_still_finds_the_best_pair_when_the_draws_cover_it(tmp_path):
    # the score is the last pair's sum: 10 + 10 = 100 is no multiple of 6, 9 + 10 and 10 + 9 are
    # (90), so 19 at most
    game = pairs(tmp_path)
    full = beam(game, game.initial_state(), width=5, rng=random.Random(0))
    assert full.best_score == 19
    sampled = beam(game, game.initial_state(), width=5, rng=random.Random(0), sample=60)
    assert sampled.best_score == 19  # 60 draws of the 70 moves: the four best ones (19, marked or not) show up


def test_a_sample_below_one_is_a_usage_error():
    r = run_engine("search", "rules/tictactoe.rules", "--algo", "beam", "--sample", "0")
    assert r.returncode == 2 and "--sample 0: expected a positive number" in r.stderr


def test_a_beam_filter_also_drops_the_lines_that_end_where_it_is_false(tmp_path):
    # state: x, y, marked, turns, ...; best last pair with x + y <= 15: 6 + 9 or 9 + 6 (54, a
    # multiple of 6); 7 + 8 = 15 (56) and 8 + 7 are not
    game = pairs(tmp_path)
    r = beam(game, game.initial_state(), width=5, rng=random.Random(0), keep=lambda s: s[0] + s[1] <= 15)
    assert r.best_score == 15
    assert all(t[0] + t[1] <= 15 for _, t in r.best_line)
