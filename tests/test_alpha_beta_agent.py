"""The alpha-beta agent of `play`: depth by depth within its budget, on games of two players whose
returns add up to the same total."""
import json
import random

import pytest

from conftest import run_engine
from engine import load_game
from search.agents import Options, make_agent
from search.alpha_beta_agent import Unfit

TTT = "rules/tictactoe.rules"


def test_it_stays_within_its_budget_and_searches_deeper_with_more(tictactoe):
    s = tictactoe.initial_state()
    agent = make_agent("alpha-beta")
    small = agent(tictactoe, s, budget=200, rng=random.Random(0))
    large = agent(tictactoe, s, budget=5000, rng=random.Random(0))
    # a search stops at the call after the budget: at most one over
    assert small.fm_calls <= 201 and large.fm_calls <= 5001
    assert 1 <= small.iterations < large.iterations  # the depths finished


def test_a_depth_limits_how_deep_it_searches(tictactoe):
    r = make_agent("alpha-beta", Options(depth=1))(tictactoe, tictactoe.initial_state(), budget=100_000,
                                                  rng=random.Random(0))
    # by hand, one move deep from the empty board: the start's moves listed (1), each of the 9 applied
    # (9), each board after it asked whether a move is left, the game going on there (9), and the best
    # move applied again to give the line (1): 20 calls, far below the budget
    assert (r.iterations, r.fm_calls) == (1, 20)


def test_with_the_whole_game_searched_it_stops_before_its_budget(tictactoe):
    # X at (0, 0), O at (1, 1), X at (2, 2): few lines are left, and a search that reaches every end
    # goes no deeper, so a budget far beyond them is not spent
    s = tictactoe.initial_state()
    for label in ("X at (0, 0)", "O at (1, 1)", "X at (2, 2)"):
        s = next(m for m in tictactoe.legal_moves(s) if tictactoe.describe(m) == label).next
    r = make_agent("alpha-beta")(tictactoe, s, budget=10**7, rng=random.Random(0))
    assert r.fm_calls < 10**5 and r.iterations <= 6  # six cells free: at most six moves to an end


UNEVEN = """players A, B
state { n: 0..2 = 0 }
action go "go {k}" { choose k in 1..2  n = k }
turn { go }
terminal n > 0
score for p: if p == A then n else 0 - 1
"""


def test_a_game_whose_returns_do_not_add_up_to_one_total_is_unfit(tmp_path):
    # by hand: the two ends return (1, -1) and (2, -1), whose totals differ
    path = tmp_path / "uneven.rules"
    path.write_text(UNEVEN)
    game = load_game(str(path))
    with pytest.raises(Unfit) as info:
        make_agent("alpha-beta")(game, game.initial_state(), budget=100, rng=random.Random(0))
    assert "add up to different totals, (1, -1) and (2, -1)" in str(info.value), str(info.value)
    r = run_engine("play", path, "--agents", "alpha-beta,random", "--games", "2")
    assert r.returncode == 2 and r.stderr.startswith("error: --agents alpha-beta,random: alpha-beta takes one "
                                                     "player's gain for the other's loss"), r.stderr
    r = run_engine("fit", path, "--features", "score", "--agent", "alpha-beta", "--games", "2")
    assert r.returncode == 2 and r.stderr.startswith("error: --agent alpha-beta: alpha-beta takes one "
                                                     "player's gain"), r.stderr


LAST_TAKES = """players A, B
state { pile: int = 3  last: player = B }
action take "{current} takes {k}" { choose k in 1..2 where k <= pile  pile -= k  last = current }
turn { take }
terminal pile == 0
score for p: if pile > 0 then -1 else if p == last then 1 else -1
"""


def test_a_score_that_adds_up_otherwise_before_the_end_is_taken_as_a_lead_where_the_search_stops(tmp_path):
    # by hand: the ends return (1, -1) or (-1, 1); before the end the score gives both players -1,
    # whose total, -2, is not an end's 0: where the lines stop, no one leads. A pile of 3 is lost for
    # the player to move (taking 1 leaves 2 for the other to take, taking 2 leaves 1), so B wins every
    # game it plays with alpha-beta
    path = tmp_path / "last.rules"
    path.write_text(LAST_TAKES)
    r = run_engine("play", path, "--agents", "alpha-beta,random", "--games", "10", "--json")
    assert r.returncode == 0, r.stderr
    rows = {(row["seat"], row["name"]): row for row in json.loads(r.stdout)["by_seat"]}
    assert rows["B", "alpha-beta"]["wins"] == rows["B", "alpha-beta"]["games"] == 5, rows
    r = run_engine("solve", path, "--alpha-beta", "--depth", "2")
    assert r.returncode == 0 and "  value after 2 moves: A -1, B 1\n" in r.stdout, r.stdout + r.stderr


def test_it_plays_games_of_two_players_only():
    r = run_engine("play", "rules/nidavellir.rules", "--agents", "alpha-beta", "--games", "1")
    assert (r.returncode, r.stderr) == (2, "error: --agents alpha-beta: alpha-beta plays a game of two players, "
                                           "and rules/nidavellir.rules has 1\n")
    r = run_engine("search", "rules/nidavellir.rules", "--algo", "alpha-beta")
    assert r.returncode == 2 and "no algorithm named 'alpha-beta'" in r.stderr
    r = run_engine("fit", "rules/nidavellir.rules", "--features", "coin_sum", "--agent", "alpha-beta")
    assert (r.returncode, r.stderr) == (2, "error: --agent alpha-beta: alpha-beta plays a game of two players, "
                                           "and rules/nidavellir.rules has 1\n")


def test_it_never_loses_tic_tac_toe_against_random_play():
    # tic-tac-toe is a draw under best play (rules/tictactoe.rules' source); a search that sees
    # a few moves ahead wins or draws against random moves
    r = run_engine("play", TTT, "--agents", "alpha-beta,random", "--games", "20", "--json")
    best = json.loads(r.stdout)["agents"][0]
    assert best["name"] == "alpha-beta" and best["games"] == 20 and best["losses"] == 0, best


def test_of_moves_as_good_it_plays_one_drawn_with_its_seed_not_always_the_first_listed(tmp_path):
    # by hand: each of A's three moves ends the game in a draw, so all are as good
    path = tmp_path / "even.rules"
    path.write_text('players A, B\nstate { k: 0..3 = 0 }\naction pick "pick {j}" { choose j in 1..3  k = j }\n'
                    "turn { pick }\nterminal k > 0\nscore 0\n")
    game = load_game(str(path))
    agent = make_agent("alpha-beta")
    picked = {game.describe(agent(game, game.initial_state(), budget=100, rng=random.Random(seed)).move)
              for seed in range(20)}
    assert picked == {"pick 1", "pick 2", "pick 3"}
