"""Every search algorithm on every rule file: it runs, repeats itself for a seed, and plays legal lines."""
import random

import pytest

from conftest import RULE_FILES, suite_settings
from engine import load_game
from search.agents import ALGORITHMS, Options, make_agent, plan
from search.protocol import CHANCE

BUDGET = 300

AGENTS = ALGORITHMS + ("random",)


GAMES = {p.name: load_game(str(p), suite_settings(p)) for p in RULE_FILES}
ONE_PLAYER = [name for name, g in GAMES.items() if g.num_players == 1]


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


@pytest.fixture(params=ONE_PLAYER)
def one_player_game(request):
    return GAMES[request.param]


def options(game) -> Options:
    """The options the command line gives by default: the file's first heuristic, if any."""
    return Options(heuristic=next(iter(game.heuristics), None))


def summary(game, r) -> tuple:
    """What two runs with the same seed must agree on."""
    return (None if r.move is None else game.describe(r.move), [game.describe(m) for m, _ in r.best_line],
            r.best_score, r.fm_calls, r.iterations)


def assert_legal_line(game, line, start=None):
    """Each move of the line is a legal move (or a chance outcome) of the state before it and
    leads to the state recorded."""
    s = game.initial_state() if start is None else start
    for i, (m, recorded) in enumerate(line):
        if game.current_player(s) == CHANCE:  # a sampled outcome: one of the listed next states
            assert game.key(game.apply(s, m)) in [game.key(game.apply(s, o)) for o, _ in game.chance_outcomes(s)], i
            s = game.apply(s, m)
            assert game.key(s) == game.key(recorded), i
            continue
        moves = game.legal_moves(s)
        assert game.describe(m) in [game.describe(x) for x in moves], (i, game.describe(m))
        s = game.apply(s, m)
        assert game.key(s) == game.key(recorded), i
    return s


def assert_score_is_the_return_at_the_end(game, r, player=0):
    """A best line ends a game (terminal or a dead end), and its score is the return there."""
    if r.best_score is None:
        assert r.best_line == ()
        return
    end = r.best_line[-1][1] if r.best_line else game.initial_state()
    assert game.is_terminal(end) or not game.legal_moves(end)
    assert r.best_score == game.returns(end)[player]


@pytest.mark.parametrize("name", ALGORITHMS)
def test_plan_gives_a_legal_line_that_a_seed_repeats(one_player_game, name):
    game = one_player_game  # plan is for one player: `search` refuses the others
    runs = [plan(game, game.initial_state(), name, budget=BUDGET, rng=random.Random(5), opts=options(game))
            for _ in range(2)]
    assert summary(game, runs[0]) == summary(game, runs[1])
    r = runs[0]
    assert_legal_line(game, r.best_line)
    assert_score_is_the_return_at_the_end(game, r)
    assert r.fm_calls > 0


@pytest.mark.parametrize("name", AGENTS)
def test_an_agent_decides_a_legal_first_move_that_a_seed_repeats(game, name):
    agent = make_agent(name, options(game))
    s = game.initial_state()
    if game.current_player(s) == CHANCE:  # agents decide for players: start at the first decision
        s = game.apply(s, game.chance_outcomes(s)[0][0])
    runs = [agent(game, s, budget=BUDGET, rng=random.Random(6)) for _ in range(2)]
    assert summary(game, runs[0]) == summary(game, runs[1])
    r = runs[0]
    assert game.describe(r.move) in [game.describe(m) for m in game.legal_moves(s)]
    assert_legal_line(game, r.best_line, s)
    assert_score_is_the_return_at_the_end(game, r)


def test_make_agent_refuses_an_unknown_name_and_lists_the_known_ones():
    with pytest.raises(ValueError) as e:
        make_agent("nosuch")
    for name in ALGORITHMS:
        assert name in str(e.value)


# no line ever ends: the walk goes back and forth between 0 and 3 (the terminal cannot hold)
ROUND_AND_ROUND = """game "round and round"
state { x: 0..3 = 0 }
action step "step {k}" { choose k in [1, -1]  require x + k >= 0 and x + k <= 3  x += k }
turn { step }
terminal x > 3
score x
heuristic far = x
"""


@pytest.mark.parametrize("name", AGENTS)
def test_an_agent_decides_a_legal_move_where_no_line_it_tries_ends(tmp_path, name):
    path = tmp_path / "round.rules"
    path.write_text(ROUND_AND_ROUND)
    game = load_game(str(path))
    s = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])  # x = 1: two moves
    for budget in (5, 300):
        r = make_agent(name, options(game))(game, s, budget=budget, rng=random.Random(6))
        assert r.best_line == () and r.move is not None, (budget, r)
        assert game.describe(r.move) in ["step 1", "step -1"]
