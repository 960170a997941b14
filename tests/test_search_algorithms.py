"""The search algorithms of search/ on hand-made games and on published figures (seeds 001 and 003)."""
import random
from collections import Counter

import pytest

from conftest import ROOT
from engine import load_game
from search.agents import ALGORITHMS, Options, make_agent, plan
from search.backtrack import backtrack
from search.beam import beam
from search.max_score import max_score
from search import mcts as mcts_module
from search.mcts import mcts
from search.play import Tally, play
from search.protocol import CHANCE
from search.random_walk import random_walk


class OnePlayer:
    """What the hand-written one-player games share: no heuristic, states are their own keys."""

    num_players = 1

    def evaluate(self, s, heuristic=None, player=None):
        return self.returns(s)[0]

    def key(self, s):
        return s

    def describe(self, m):
        return m


class DictTree(OnePlayer):
    """Seed 003's test tree as a one-player game: a state is a node's name, a move the name of a
    child (children in sorted order, as seed 003's DictTreeIterator yields them), leaves are terminal.
    A leaf's return is its entry in `scores` (0 when absent)."""

    def __init__(self, root: str, tree: dict, scores: dict = None):
        self.root = root
        self.children: dict = {}
        self.scores = scores or {}

        def walk(name, sub):
            self.children[name] = tuple(sorted(sub))
            for k, v in sub.items():
                walk(k, v)

        walk(root, tree)

    def initial_state(self):
        return self.root

    def current_player(self, s):
        return 0

    def legal_moves(self, s):
        return self.children[s]

    def chance_outcomes(self, s):
        return ()

    def apply(self, s, m):
        return m

    def is_terminal(self, s):
        # seed 003's iterator returns len(children) > 0 here, the wrong way round; a leaf ends a line
        return not self.children[s]

    def returns(self, s):
        return (float(self.scores.get(s, 0)),)



SEED_003_TREE = {
    "Algorithms": {
        "Breadth-First": {},
        "Depth-First": {"Backtracking": {}, "Beam Search": {}},
        "Other": {"Monte Carlo Tree Search": {}},
    }
}


def test_backtracking_observers_see_seed_003s_tree_in_pre_order():
    seen = []
    backtrack(DictTree("Root", SEED_003_TREE), "Root", observers=[seen.append])
    # by hand: enter Root, then its only child Algorithms, whose children in sorted order are
    # Breadth-First (a leaf), Depth-First (leaves Backtracking, Beam Search in sorted order) and
    # Other (leaf Monte Carlo Tree Search). Seed 003's own list had 15 entries because its observer
    # also saw each parent again on the way back up; ours sees each state once, when it is entered.
    assert seen == ["Root", "Algorithms", "Breadth-First", "Depth-First", "Backtracking", "Beam Search",
                    "Other", "Monte Carlo Tree Search"]


def test_a_full_backtrack_of_seed_003s_tree_costs_one_call_per_inner_node_and_per_edge():
    r = backtrack(DictTree("Root", SEED_003_TREE), "Root")
    # by hand: legal_moves once for each of the 4 inner nodes (Root, Algorithms, Depth-First, Other)
    # and apply once for each of the 7 edges; leaves are terminal, so their moves are never asked for
    assert r.fm_calls == 4 + 7
    assert r.iterations == 4  # lines that ended: one per leaf


def test_backtracking_returns_the_line_to_the_best_leaf():
    scores = {"Breadth-First": 1, "Backtracking": 3, "Beam Search": 2, "Monte Carlo Tree Search": 2}
    r = backtrack(DictTree("Root", SEED_003_TREE, scores), "Root")
    assert r.best_score == 3  # the highest score written above
    assert [m for m, _ in r.best_line] == ["Algorithms", "Depth-First", "Backtracking"]
    assert r.move == "Algorithms"


class Ring(DictTree):
    """a -> b -> c -> a round and round, and c -> end, which ends the game with 5."""

    def __init__(self):
        super().__init__("a", {}, {"end": 5})
        self.children = {"a": ("b",), "b": ("c",), "c": ("a", "end"), "end": ()}


def test_backtracking_does_not_follow_a_move_back_to_a_state_on_its_line():
    r = backtrack(Ring(), "a", budget=1000)
    assert r.best_score == 5 and [m for m, _ in r.best_line] == ["b", "c", "end"]
    # by hand: the moves of a, b and c (3 calls) and the applies of b, c, a (back on the line, not
    # followed) and end (4 calls); without the check the line went round until the budget ran out
    assert r.fm_calls == 7


def test_a_budget_stops_backtracking_of_seed_003s_tree_early():
    r = backtrack(DictTree("Root", SEED_003_TREE), "Root", budget=5)
    # in pre-order the first 5 calls are: moves(Root), apply Algorithms, moves(Algorithms),
    # apply Breadth-First (a leaf: one line ended), apply Depth-First; entering Depth-First also
    # fetches its moves before the budget is looked at again, so 6 at most
    assert 5 <= r.fm_calls <= 6
    assert r.iterations == 1


# ---------------------------------------------------------------- Nidavellir, seed 001's blog model

@pytest.fixture(scope="module")
def blog():
    return load_game("rules/nidavellir.rules", {"variant": "blog"})


def pouches(game, line):
    """The sorted coin values of the pouch at the start and after each move of a line."""
    return [tuple(sorted(c["value"] for c in step["state"]["pouch"])) for step in game.line_json(line)]


@pytest.mark.parametrize("seed", range(1, 11))
def test_max_score_finds_the_optimum_58_within_100000_calls(blog, seed):
    # 58: the exhaustive optimum published in seed 001 (seed 001's max-score run found it after
    # 32,865 plays; equal states sharing one node here makes the DAG far smaller than the tree)
    r = max_score(blog, blog.initial_state(), budget=100_000, rng=random.Random(seed), heuristic="coin_sum")
    assert r.best_score == 58
    assert r.fm_calls <= 100_000


def test_beam_of_width_100_on_the_coin_sum_finds_seed_001s_55_and_its_line(blog):
    r = beam(blog, blog.initial_state(), width=100, rng=random.Random(1), heuristic="coin_sum")
    # seed 001: "Limiting this to the top 100 beams in every step, we only get a best strategy with a
    # sum of 55", by this line of pouches
    assert r.best_score == 55
    assert pouches(blog, r.best_line) == [(2, 3, 4, 5), (2, 3, 5, 7), (2, 3, 5, 12), (2, 5, 5, 12),
                                          (2, 5, 10, 12), (2, 5, 10, 22), (2, 7, 10, 22), (2, 7, 17, 22),
                                          (2, 7, 22, 24)]


def test_a_complete_backtrack_finds_58_after_every_one_of_the_1104806_lines(blog):
    r = backtrack(blog, blog.initial_state())
    # seed 001's published paths per round: 1, 6, 36, 216, 1296, 7746, 44552, 233251, 1104806
    per_round = [1, 6, 36, 216, 1296, 7746, 44552, 233251, 1104806]
    assert r.best_score == 58
    assert r.iterations == 1_104_806
    # legal_moves once at each node of rounds 0-7 (round 8 is terminal) and apply once per edge,
    # that is once per node of rounds 1-8
    assert r.fm_calls == sum(per_round[:8]) + sum(per_round[1:])
    assert pouches(blog, r.best_line)[-1] == (2, 7, 24, 25)  # seed 001's winning line ends there


# the most one line from the start can cost: 8 rounds, each fetching the legal moves (1 call) and
# applying all of C(4, 2) = 6 pairs (6 calls) -- by hand from the blog model's rules
ONE_LINE = 8 * (1 + 6)


@pytest.mark.parametrize("name", [a for a in ALGORITHMS if a != "osla"])
def test_a_budget_stops_an_algorithm_within_one_line_of_it(blog, name):
    agent = make_agent(name, Options(heuristic="coin_sum"))
    for budget in (100, 500, 2000):
        for seed in range(3):
            r = agent(blog, blog.initial_state(), budget=budget, rng=random.Random(seed))
            # none of these budgets lets any algorithm see every line (backtrack needs 1,679,013 calls,
            # beam of width 100 about 3,000), so each spends its budget, overshooting by less than a line
            assert budget <= r.fm_calls <= budget + ONE_LINE, (budget, seed, r.fm_calls)


def dag_size(game):
    """(non-terminal distinct states, edges) of the game's graph from its initial state, by a plain
    breadth-first walk over game.key written here, independently of search/."""
    start = game.initial_state()
    seen, layer, inner, edges = {game.key(start)}, [start], 0, 0
    while layer:
        nxt = []
        for s in layer:
            moves = () if game.is_terminal(s) else game.legal_moves(s)
            inner += bool(moves)
            edges += len(moves)
            for m in moves:
                t = game.apply(s, m)
                if game.key(t) not in seen:
                    seen.add(game.key(t))
                    nxt.append(t)
        layer = nxt
    return inner, edges


def test_max_score_sees_every_line_of_the_blog_model_at_one_call_per_state_and_per_edge(blog):
    # equal states share one node and a node is expanded once: legal_moves once per non-terminal
    # distinct state, apply once per edge of the graph (2,297 + 11,654 = 13,951 by dag_size)
    inner, edges = dag_size(blog)
    r = max_score(blog, blog.initial_state(), budget=100_000, rng=random.Random(1), heuristic="coin_sum")
    assert r.best_score == 58
    assert r.fm_calls == inner + edges


FAR = """game "far"
state { x: 0..10000 = 0 }
action add "+{k}" { choose k in 1..3  x += k }
turn { add }
terminal x >= 9999
score x
heuristic ahead = x
"""


@pytest.mark.parametrize("seed", range(6))
def test_max_score_without_an_ended_line_plays_the_child_of_the_best_value(tmp_path, seed):
    # no line reaches 9,999 within 100 calls: by the heuristic, +3 is the child worth most, whichever
    # descent the budget ran out in
    path = tmp_path / "far.rules"
    path.write_text(FAR)
    game = load_game(str(path))
    r = max_score(game, game.initial_state(), budget=100, rng=random.Random(seed), heuristic="ahead")
    assert r.best_line == () and game.describe(r.move) == "+3"


def test_one_step_look_ahead_costs_one_call_plus_one_per_move_whatever_the_budget(blog):
    r = make_agent("osla")(blog, blog.initial_state(), budget=1, rng=random.Random(0))
    assert r.fm_calls == 1 + 6  # legal_moves once, then apply each of the 6 first trades


# ---------------------------------------------------------------- tic-tac-toe: wins and blocks

def replay(game, labels):
    """The state reached from the initial state by the moves with these labels."""
    s = game.initial_state()
    for label in labels:
        by_label = {m.label: m for m in game.legal_moves(s)}
        assert label in by_label, (label, sorted(by_label))
        s = game.apply(s, by_label[label])
    return s


# X on (0, 0) and (0, 1), O on (1, 0) and (1, 1), X to move: (0, 2) completes X's row 0 and wins at
# once, while O threatens (1, 2); it is X's only line with two marks and a free cell, so the only win
WIN = (["X at (0, 0)", "O at (1, 0)", "X at (0, 1)", "O at (1, 1)"], "X at (0, 2)")
# X on (0, 0) and (2, 2), O on (1, 1) and (0, 2), X to move: O threatens (2, 0) on the diagonal
# (0, 2)-(1, 1)-(2, 0); X has no line with two marks and a free cell (its diagonal is blocked by O
# at (1, 1)), so every other move loses at once. (2, 0) also gives X two threats, (1, 0) and (2, 1).
BLOCK = (["X at (0, 0)", "O at (1, 1)", "X at (2, 2)", "O at (0, 2)"], "X at (2, 0)")


@pytest.mark.parametrize("name", ["mcts", "osla", "flat-mc", "alpha-beta"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_agent_takes_an_immediate_win(tictactoe, name, seed):
    before, winning = WIN
    s = replay(tictactoe, before)
    r = make_agent(name)(tictactoe, s, budget=1000, rng=random.Random(seed))
    assert tictactoe.describe(r.move) == winning


@pytest.mark.parametrize("name", ["mcts", "flat-mc", "alpha-beta"])  # osla sees one move ahead: not O's reply
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_agent_blocks_an_immediate_threat(tictactoe, name, seed):
    before, block = BLOCK
    s = replay(tictactoe, before)
    r = make_agent(name)(tictactoe, s, budget=1000, rng=random.Random(seed))
    assert tictactoe.describe(r.move) == block


# ---------------------------------------------------------------- chance nodes

HEADS, TAILS = 0.25, 0.75  # the coin's weights, written here; the expected frequencies below come from them


class CoinCalls(OnePlayer):
    """Each round a coin is flipped (heads with weight 0.25, tails 0.75), then the player, seeing
    it, calls heads or tails: one point per call that matches the flip. A state is
    (flips so far, calls so far)."""


    def __init__(self, rounds: int = 1):
        self.rounds = rounds

    def initial_state(self):
        return ((), ())

    def current_player(self, s):
        flips, calls = s
        return CHANCE if len(flips) == len(calls) < self.rounds else 0

    def legal_moves(self, s):
        flips, calls = s
        return ("call heads", "call tails") if len(flips) > len(calls) else ()

    def chance_outcomes(self, s):
        return (("heads", HEADS), ("tails", TAILS)) if self.current_player(s) == CHANCE else ()

    def apply(self, s, m):
        flips, calls = s
        if m in ("heads", "tails"):
            return (flips + (m,), calls)
        return (flips, calls + (m.removeprefix("call "),))

    def is_terminal(self, s):
        return len(s[1]) == self.rounds

    def returns(self, s):
        flips, calls = s
        return (float(sum(f == c for f, c in zip(flips, calls))),)



def flip_results(states):
    """The outcome of the flip that produced each state that was just flipped."""
    return [flips[-1] for flips, calls in states if len(flips) == len(calls) + 1]


def assert_heads_about_a_quarter(flips):
    # 1,000 or more flips at p = 0.25: the standard error of the frequency is at most
    # sqrt(0.25 * 0.75 / 1000) = 0.014, so 0.06 is more than four standard errors
    assert len(flips) >= 1000
    assert abs(Counter(flips)["heads"] / len(flips) - HEADS) < 0.06


def test_random_walk_draws_chance_outcomes_by_their_weights():
    game, seen = CoinCalls(rounds=10), []
    # one walk of 10 rounds costs 30 calls (flip, legal moves, call), so 100 walks: 1,000 flips
    random_walk(game, game.initial_state(), budget=3000, rng=random.Random(7), observers=[seen.append])
    assert_heads_about_a_quarter(flip_results(seen))


def test_mcts_draws_chance_outcomes_by_their_weights():
    game, seen = CoinCalls(rounds=40), []
    # most flips are drawn in rollouts; the tree's chance nodes draw by weight too, but only their
    # first visit to an outcome creates (and shows) a state, so they add few of the flips seen
    mcts(game, game.initial_state(), budget=4000, rng=random.Random(8), observers=[seen.append])
    assert_heads_about_a_quarter(flip_results(seen))


def test_play_draws_chance_outcomes_by_their_weights():
    game, finals = CoinCalls(rounds=10), []
    play(game, [("random", make_agent("random"))], games=100, budget=10, rng=random.Random(9),
         show=lambda g, s: finals.append(s))
    assert len(finals) == 100
    assert_heads_about_a_quarter([f for flips, _ in finals for f in flips])


def test_beam_draws_chance_outcomes_by_their_weights():
    game, flips = CoinCalls(rounds=40), []
    for seed in range(30):  # 30 runs of 40 flips each: 1,200 flips
        r = beam(game, game.initial_state(), width=4, rng=random.Random(seed))
        flips += r.best_line[-1][1][0]
    assert_heads_about_a_quarter(flips)


def test_every_line_of_a_beam_meets_the_same_chance_outcomes():
    game, seen = CoinCalls(rounds=10), []
    beam(game, game.initial_state(), width=4, rng=random.Random(11), observers=[seen.append])
    calls_seen = {calls for _, calls in seen}
    assert len(calls_seen) > 10  # the beam held several lines ...
    # ... and each number of flips was reached by one sequence of flips only
    flip_lines = {flips for flips, _ in seen}
    assert len(flip_lines) == 10 and len({len(f) for f in flip_lines}) == 10


def test_backtrack_visits_both_outcomes_of_a_chance_node():
    game, seen = CoinCalls(rounds=1), []
    r = backtrack(game, game.initial_state(), observers=[seen.append])
    assert (("heads",), ()) in seen
    assert (("tails",), ()) in seen
    assert r.iterations == 4  # by hand: 2 flips times 2 calls
    # by hand: asking for chance outcomes costs nothing; 2 flips applied, then at each of the 2
    # flipped states legal_moves once and 2 calls applied: 2 + 2 * (1 + 2)
    assert r.fm_calls == 8
    assert r.best_score == 1  # calling what was flipped


@pytest.mark.parametrize("name", ALGORITHMS)
def test_a_planned_line_through_chance_nodes_calls_every_flip_right(name):
    game = CoinCalls(rounds=3)
    r = plan(game, game.initial_state(), name, budget=2000, rng=random.Random(10))
    flips, calls = r.best_line[-1][1]
    # the player sees each flip before calling it, so the best line calls each one right
    assert calls == flips
    assert r.best_score == 3


def test_an_mcts_leaf_that_is_only_evaluated_does_not_pay_for_its_moves():
    game = load_game(str(ROOT / "rules" / "tictactoe.rules"))
    # one call for the root's 9 moves and one to play each: every opening is tried and valued
    r = mcts(game, game.initial_state(), budget=10, rng=random.Random(1), rollout_depth=0, heuristic="rows")
    [root] = [n for n in r.memory.values() if n.state == game.initial_state()]
    assert r.fm_calls == 10 and all(ch is not None for ch in root.children)
    assert all(n.options is None for n in r.memory.values() if n is not root)


@pytest.mark.parametrize("limit", [10, 100_000])
def test_a_later_mcts_decision_past_the_table_limit_keeps_the_tree_below_its_state(tictactoe, monkeypatch, limit):
    monkeypatch.setattr(mcts_module, "TABLE_LIMIT", limit)
    first = mcts(tictactoe, tictactoe.initial_state(), budget=400, rng=random.Random(1), rollout_depth=0,
                 heuristic="rows")
    [root] = [n for n in first.memory.values() if n.state == tictactoe.initial_state()]
    mine = max((ch for ch in root.children if ch is not None), key=lambda ch: ch.n)
    reply = max((ch for ch in mine.children if ch is not None), key=lambda ch: ch.n)
    visits = reply.n

    def marks(node):
        return set(node.state[0].items())
    # marks are never taken off, so a position that play can still reach from `reply` holds its two marks
    assert any(not marks(reply) <= marks(n) for n in first.memory.values())
    held = len(first.memory)
    later = mcts(tictactoe, reply.state, budget=50, rng=random.Random(1), rollout_depth=0, heuristic="rows",
                 reuse=first.memory)
    # past the limit every state kept lies below `reply`; below it the rest of the tree stays too
    assert all(marks(reply) <= marks(n) for n in later.memory.values()) == (held > limit)
    [again] = [n for n in later.memory.values() if n.state == reply.state]
    assert again is reply and reply.n > visits  # the same node, grown on


def test_mcts_backing_up_the_best_line_prefers_a_rare_10_to_a_sure_3():
    # tests/fixtures/needle.rules: opening 1 leads to 100 replies, every fourth worth 10 and the
    # rest 0 (mean 2.5); opening 2 to 100 replies worth 3. The best line is opening 1 (10 points).
    game = load_game(str(ROOT / "tests" / "fixtures" / "needle.rules"))

    def picks(backup):
        return [game.describe(mcts(game, game.initial_state(), budget=150, rng=random.Random(seed), rollout_depth=0,
                                   heuristic="got_so_far", backup=backup).move) for seed in range(20)]
    by_mean, by_best = Counter(picks("mean")), Counter(picks("max"))
    assert by_mean["path 2"] >= 18  # the mean of opening 1's replies is below 3
    assert by_best["path 1"] >= 12  # once a 10 is found it counts, not the mean


def test_an_mcts_iteration_that_draws_an_outcome_goes_on_to_a_move_after_it():
    # a drawn flip changes nothing the player has done, so valuing the flipped state teaches little.
    # By hand, from a first flip not yet called: 1 call lists the 2 calls and 2 play them (two
    # iterations); the third draws a flip (1 call), lists the calls after it (1) and plays one (1)
    game = CoinCalls(rounds=3)
    r = mcts(game, (("heads",), ()), budget=6, rng=random.Random(3), rollout_depth=0)
    assert r.fm_calls == 6 and r.iterations == 3
    [flipped] = [n for n in r.memory.values() if (len(n.state[0]), len(n.state[1])) == (2, 1)]
    assert flipped.options is not None and sum(ch is not None for ch in flipped.children) == 1


def test_mcts_with_the_chance_horizon_plans_up_to_the_next_flip_and_draws_none():
    game, seen = CoinCalls(rounds=3), []
    start = (("heads",), ())  # the first flip came up heads; the player calls
    r = mcts(game, start, budget=50, rng=random.Random(3), rollout_depth=0, horizon="chance",
             observers=[seen.append])
    assert r.move == "call heads"  # one point, against none
    assert seen and all(len(flips) == 1 for flips, _ in seen)  # nothing past the next flip
    # without the horizon the same search draws the next flips
    seen.clear()
    mcts(game, start, budget=50, rng=random.Random(3), rollout_depth=0, observers=[seen.append])
    assert any(len(flips) > 1 for flips, _ in seen)


PUSH = """game "push your luck"
param start in 0..30 = 10
state { pot: 0..40 = start  rolled: bool = no  done: bool = no }
chance when rolled { draw d in 1..6  pot = if d == 1 then 0 else pot + d  rolled = no  done = yes }
action roll "roll" { require not done  rolled = yes }
action stop "stop" { require not done  done = yes }
turn { either { roll } or { stop } }
terminal done and not rolled
score pot
heuristic pot_now = pot
"""


@pytest.mark.parametrize("start, move", [(10, "roll"), (25, "stop")])
def test_osla_values_a_roll_by_the_mean_of_what_it_may_bring(tmp_path, start, move):
    # by hand: a roll from pot n is worth (0 + (n + 2) + ... + (n + 6)) / 6 = (5n + 20) / 6: 11.67
    # from 10, more than stopping at 10; 24.17 from 25, less than 25. Before the roll the pot is
    # unchanged, so valued there both moves look alike
    from search.osla import osla
    path = tmp_path / "push.rules"
    path.write_text(PUSH)
    game = load_game(str(path), {"start": str(start)})
    for seed in range(5):
        r = osla(game, game.initial_state(), rng=random.Random(seed), heuristic="pot_now")
        assert game.describe(r.move) == move


TOSS = """game "toss until heads"
state { heads: bool = no  n: 0..3 = 0 }
chance when not heads { draw d in 1..2  if d == 2 { heads = yes } }
action keep "keep" { n = 3 }
action again "again" { heads = no  n += 1 }
turn { either { keep } or { again } }
terminal n == 3
score n
"""


def test_osla_values_chance_that_comes_back_to_itself_by_the_heuristic_there(tmp_path):
    # tails tosses again, from the very same state: followed for ever it never ended. By hand: after
    # "again" the toss is worth half of heads (n = 1, so 1) and half of the toss met again, valued by
    # the score there (1): 1, less than keep's 3, so osla keeps
    from search.osla import osla
    path = tmp_path / "toss.rules"
    path.write_text(TOSS)
    game = load_game(str(path))
    s = game.initial_state()
    s = game.apply(s, game.chance_outcomes(s)[1][0])  # heads: the player chooses
    assert game.describe(osla(game, s, rng=random.Random(0)).move) == "keep"


def test_a_run_too_deep_for_the_stack_is_an_error_not_a_traceback(monkeypatch, capsys):
    import engine.cli_search as cli_search
    from engine.cli import main

    def deep(args):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(cli_search, "cmd_stats", deep)
    assert main(["stats", "rules/tictactoe.rules"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the run went deeper than the stack allows") and "Traceback" not in err, err


REACH_FOUR = """game "reach four"
state { n: 0..5 = 0 }
action add "add {k}" { choose k in 1..2  n += k }
turn { add }
terminal n >= 4
score 1
"""


def test_of_lines_as_good_a_search_reports_the_shortest(tmp_path):
    # every line scores 1; by hand the shortest are add 2, add 2 (two moves), while backtracking
    # tries add 1 first and so first ends after four
    path = tmp_path / "four.rules"
    path.write_text(REACH_FOUR)
    game = load_game(str(path))
    r = backtrack(game, game.initial_state(), budget=10_000)
    assert r.best_score == 1 and [game.describe(m) for m, _ in r.best_line] == ["add 2", "add 2"]
    assert r.first_best_at < r.fm_calls  # the score was first met on a longer line


def test_a_win_rate_has_the_standard_error_of_the_mean_of_its_wins():
    # one win in ten games of two players (1 for a win, -1 for a loss): by hand the sample standard
    # deviation of the wins (1 or 0) is sqrt(0.1 * 0.9 * 10 / 9), so the standard error is 0.1
    t = Tally("a")
    for g in range(10):
        t.add((1, -1) if g == 0 else (-1, 1), 0)
    assert (t.wins, t.losses, t.win_rate) == (1, 9, 0.1)
    assert t.win_rate_stderr == pytest.approx(0.1)
    wins = Tally("w", scores=[1] + [0] * 9)
    assert wins.stderr == pytest.approx(t.win_rate_stderr)


class Trap(OnePlayer):
    """From the start, `win` ends the game (score 1) and `trap` leads to a state whose only move
    comes back to it: a random line from the start goes round for ever half the time."""

    def initial_state(self):
        return "start"

    def current_player(self, s):
        return 0

    def legal_moves(self, s):
        return ["win", "trap"] if s == "start" else ["round"] if s == "trapped" else []

    def chance_outcomes(self, s):
        return ()

    def apply(self, s, m):
        return {"win": "won", "trap": "trapped", "round": "trapped"}[m]

    def is_terminal(self, s):
        return s == "won"

    def returns(self, s):
        return (1.0 if s == "won" else 0.0,)


@pytest.mark.parametrize("algo", ALGORITHMS)
@pytest.mark.parametrize("seed", range(4))
def test_a_game_whose_random_lines_can_go_round_for_ever_ends_every_search_within_its_budget(algo, seed):
    r = plan(Trap(), "start", algo, budget=1000, rng=random.Random(seed))
    assert r.fm_calls <= 1000 + 50  # the budget, and at most what was under way (rhea: one generation's lines)
    if r.best_line:  # a line found is one that ends with the win
        assert [m for m, _ in r.best_line] == ["win"] and r.best_score == 1


class Climb(Trap):
    """From 0, `win` ends the game (score 1) and `up` climbs; from 1 on, `up` is the only move: a
    line that climbs meets a new state at every move and never ends."""

    def initial_state(self):
        return 0

    def legal_moves(self, s):
        return [] if s == "won" else ["win", "up"] if s == 0 else ["up"]

    def apply(self, s, m):
        return "won" if m == "win" else s + 1


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_a_line_without_end_through_ever_new_states_ends_every_search_within_its_budget(algo):
    r = plan(Climb(), 0, algo, budget=1000, rng=random.Random(1))
    assert r.fm_calls <= 1000 + 50
    assert r.move in ("win", "up")  # a decision all the same


class Corridor(Trap):
    """Four steps `on` to the end (score 1); `off` at any of them is a dead end, no move and no
    end: a random line is stuck after two moves on average, a search that looks ahead goes on."""

    def initial_state(self):
        return 0

    def legal_moves(self, s):
        return ["on", "off"] if s in (0, 1, 2, 3) else []

    def apply(self, s, m):
        return s + 1 if m == "on" else "stuck"

    def is_terminal(self, s):
        return s == 4

    def returns(self, s):
        return (1.0 if s == 4 else 0.0,)


@pytest.mark.parametrize("algo", ["flat-mc", "rhea"])
@pytest.mark.parametrize("seed", range(6))
def test_a_move_by_move_search_leaves_budget_to_the_moves_past_a_random_line_stuck_at_a_dead_end(algo, seed):
    # the random line that estimates the length is stuck after a move or two: the decisions after as many
    # moves still had a share (the one at the estimate took all that was left, and the line was no result)
    r = plan(Corridor(), 0, algo, budget=4000, rng=random.Random(seed))
    assert r.fm_calls <= 4000 + 50
    assert r.best_line and r.best_line[-1][1] in (4, "stuck"), r  # the line played was played to its end
    if algo == "flat-mc":  # whose random lines from `on` find the end, and from `off` never
        assert ([m for m, _ in r.best_line], r.best_score) == (["on"] * 4, 1), r


def test_a_move_by_move_search_reports_the_line_its_decisions_played_not_its_probe():
    # osla values `a` by its end (1) and `b` by the score of B as it stands (0), so it plays `a`; the
    # random line that first estimates the game's length may go `b`, `c` to 5, a line osla never played
    tree = DictTree("S", {"a": {}, "b": {"c": {}}}, {"a": 1, "c": 5})
    for seed in range(8):
        r = plan(tree, "S", "osla", budget=100, rng=random.Random(seed))
        assert ([m for m, _ in r.best_line], r.best_score) == (["a"], 1), seed


class SafeOrGamble(OnePlayer):
    """`safe` ends the game with 1; `gamble` rolls a twenty-sided die: a 20 ends it with 10, the rest
    with 0 (a mean of 0.5). A state is the move taken, then the roll."""

    def initial_state(self):
        return ()

    def current_player(self, s):
        return CHANCE if s == ("gamble",) else 0

    def legal_moves(self, s):
        return ("safe", "gamble") if s == () else ()

    def chance_outcomes(self, s):
        return (("20", 1 / 20), ("1 to 19", 19 / 20)) if s == ("gamble",) else ()

    def apply(self, s, m):
        return s + (m,)

    def is_terminal(self, s):
        return s in (("safe",), ("gamble", "20"), ("gamble", "1 to 19"))

    def returns(self, s):
        return (1.0 if s == ("safe",) else 10.0 if s == ("gamble", "20") else 0.0,)


def test_a_move_by_move_search_reports_the_line_played_not_a_lucky_roll_a_decision_weighed():
    # osla weighs `gamble` by the mean of its rolls, 10/20 = 0.5 by hand, below safe's 1, so it plays
    # `safe`; the roll of 20 it weighed on the way is no line it played
    for seed in range(8):
        r = plan(SafeOrGamble(), (), "osla", budget=100, rng=random.Random(seed))
        assert ([m for m, _ in r.best_line], r.best_score) == (["safe"], 1), seed


@pytest.mark.parametrize("algo", ["osla", "flat-mc", "rhea"])
@pytest.mark.parametrize("seed", range(3))
def test_a_move_by_move_search_asked_to_stop_stops_while_its_first_random_line_goes_round(algo, seed):
    # the random line that first estimates the game's length may go round for ever in Trap: asked to
    # stop at the first report, the search stops there, not a quarter of a billion calls later
    told = []
    r = plan(Trap(), "start", algo, budget=10**9, rng=random.Random(seed),
             progress=lambda calls, best: told.append(calls) or True)
    assert r.fm_calls < 3 * 2000  # a few reports' worth at most (search/budget.py reports every 2,000)


@pytest.mark.parametrize("algo", ["mcts", "random-walk"])
def test_a_random_line_stops_after_a_thousand_moves_so_a_looping_puzzle_gets_many(algo):
    # half the random lines of Trap go round for ever; each stops after 1,000 moves, so 100,000 calls
    # try many lines, and one of them wins (it cannot but be `win`)
    r = plan(Trap(), "start", algo, budget=100_000, rng=random.Random(0))
    assert r.iterations > 10 and [m for m, _ in r.best_line] == ["win"]


def test_a_rollout_that_goes_round_stops_at_a_thousand_moves_and_is_counted_as_cut():
    from search.budget import Budgeted, rollout
    endless = Ring()
    endless.children["c"] = ("a",)  # a -> b -> c -> a for ever
    fm = Budgeted(endless, "a", None)
    line: list = []
    assert rollout(fm, "a", random.Random(1), line) == "b"  # 1,000 = 3 * 333 + 1 moves on from a
    assert (len(line), fm.cut, fm.result().cut) == (1000, 1, 1)
    rollout(fm, "a", random.Random(1), [], depth=10)  # a depth of its own: stopped as asked, no cut
    ends = Ring()  # at c, the end is one of two moves: a line ends long before 1,000 moves
    rollout(ends_fm := Budgeted(ends, "a", None), "a", random.Random(1), [])
    assert (fm.cut, ends_fm.cut, ends_fm.best_score) == (1, 0, 5)


def test_the_seats_an_agent_holds_in_one_game_are_one_sample_of_its_standard_errors():
    t = Tally("self")
    for g, returns in enumerate([(1, -1), (0, 0), (-1, 1), (1, -1)]):  # one agent in both seats
        t.add(returns, 0, g)
        t.add(returns, 1, g)
    # by hand: each game's mean score is 0, so no spread; its win rates are 1/2, 0, 1/2, 1/2, mean
    # 3/8, spread sum (1/8)^2 * 3 + (3/8)^2 = 12/64, over 4 * 3: s.e. sqrt(1/64) = 1/8
    assert (t.games, t.mean, t.stderr, t.win_rate) == (8, 0, 0, 3 / 8)
    assert t.win_rate_stderr == pytest.approx(1 / 8)
    apart = Tally("apart")  # the same seats told without their games: 8 samples
    for returns in [(1, -1), (0, 0), (-1, 1), (1, -1)]:
        apart.add(returns, 0)
        apart.add(returns, 1)
    assert apart.stderr == pytest.approx((6 / 7 / 8) ** 0.5)  # scores 1,-1,0,0,-1,1,1,-1: variance 6/7


def test_rave_credits_each_node_once_a_label_for_every_label_its_mover_played_later_on():
    # a reference by the definition: node i is credited once for each distinct label that its mover
    # played at a step j >= i of the line, rollout steps past the tree's path included
    class Game:
        def current_player(self, s):
            return s[0]

        def describe(self, m):
            return m

    class Node:
        def __init__(self, s):
            self.state, self.player, self.amaf = s, s[0], {}
    rng = random.Random(5)
    for _ in range(50):
        steps = rng.randint(1, 30)
        states = [(rng.randint(0, 1), k) for k in range(steps + 1)]
        line = [(rng.choice("abcd"), states[k + 1]) for k in range(steps)]
        path = [Node(s) for s in states[:rng.randint(1, steps + 1)]]  # the rest of the line is a rollout's
        v = [1.0, -1.0]
        mcts_module._amaf_update(Game(), path, line, v)
        for i, node in enumerate(path[:-1]):
            played = {line[j][0] for j in range(i, steps) if states[j][0] == node.player}
            assert node.amaf == {label: [1, [1.0, -1.0]] for label in played}
