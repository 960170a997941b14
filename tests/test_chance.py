"""`chance when COND { ... draw x in c ... }`: chance nodes with weighted outcomes, against
probabilities worked out by hand, and the diagnostics of misplaced draws and choices."""
import json
import re
import random
import time
from fractions import Fraction

import pytest

from conftest import ROOT, first_diagnostic, run_engine
from engine.cli import main
from engine.diagnostics import RuleRuntimeError
from engine.load import load_game
from search.protocol import CHANCE

DICE = "tests/fixtures/dice.rules"


@pytest.fixture(scope="module")
def dice():
    return load_game(DICE)


def test_a_state_where_the_chance_condition_holds_is_a_chance_node_without_moves(dice):
    s = dice.initial_state()
    assert dice.current_player(s) == CHANCE
    assert dice.legal_moves(s) == ()


def test_two_dice_give_eleven_totals_with_the_textbook_weights(dice):
    # of the 36 equally likely (a, b), 6 - |t - 7| give the total t: 1/36 for 2 and 12 ... 6/36 for 7
    outcomes = dice.chance_outcomes(dice.initial_state())
    by_total = {}
    for move, p in outcomes:
        total = dict(zip(dice.field_names, move.next))["total"]
        by_total[total] = p
    assert sorted(by_total) == list(range(2, 13))
    for t, p in by_total.items():
        assert p == pytest.approx(float(Fraction(6 - abs(t - 7), 36)), abs=1e-12)
    assert sum(by_total.values()) == pytest.approx(1.0, abs=1e-12)


def test_an_outcome_is_labelled_by_its_first_draws_and_how_many_others_and_keeps_the_player(dice):
    s = dice.initial_state()
    labels = [m.label for m, _ in dice.chance_outcomes(s)]
    assert labels[0] == "a = 1 | b = 1"  # a total of 2 has one way
    # by hand: a total of 7 has six ways, the first a = 1, b = 6; a total of 3 two
    assert "a = 1 | b = 6 (or 5 others)" in labels and "a = 1 | b = 2 (or 1 other)" in labels
    assert not any(label.startswith("a = 6 | b = 1") for label in labels)
    after = dice.chance_outcomes(s)[0][0].next
    assert dice.current_player(after) == 0
    assert [m.label for m in dice.legal_moves(after)] == ["keep 2", "reroll"]


def test_solve_gives_the_expected_total_of_the_best_reroll_policy():
    # keep a first roll of 8 or more, else reroll (a second roll is worth 7 on average):
    # (8*5 + 9*4 + 10*3 + 11*2 + 12*1) / 36 + 7 * 21/36 = 140/36 + 147/36 = 287/36
    r = run_engine("solve", DICE, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == [pytest.approx(287 / 36, abs=1e-12)]  # JSON keeps 12 places


@pytest.mark.parametrize("seed", range(12))
def test_the_best_line_goes_on_through_the_rolls_as_the_best_policy_plays_them(seed):
    # the policy worked out above: keep a first total of 8 or more, roll again below 7 (7 is a tie;
    # the first best move, keep, is taken), then keep whatever comes
    line = json.loads(run_engine("solve", DICE, "--seed", seed, "--json").stdout)["best_line"][1:]
    first = line[0]
    assert first.get("chance") and first["state"]["rolls"] == 1
    t = first["state"]["total"]
    a, b = (int(x.split(" = ")[1]) for x in first["move"].split(" (or ")[0].split(" | "))
    assert a + b == t
    if t >= 7:
        assert [(x["move"], x.get("chance", False)) for x in line[1:]] == [(f"keep {t}", False)]
    else:
        assert [x.get("chance", False) for x in line[1:]] == [False, True, False]
        assert line[1]["move"] == "reroll" and line[3]["move"] == f"keep {line[2]['state']['total']}"


def test_the_rolls_of_the_best_line_come_up_as_often_as_their_weights_say(dice):
    from search.solve import solve
    rng = random.Random(5)
    firsts = [solve(dice, rng=rng).best_line[0][1] for _ in range(720)]
    total = dice.field_names.index("total")
    sevens = sum(s[total] == 7 for s in firsts)
    assert abs(sevens - 120) < 5 * 10  # 6/36 of 720, binomial s.d. 10


def test_the_text_marks_the_steps_chance_made():
    r = run_engine("solve", DICE, "--seed", "3")
    lines = r.stdout.splitlines()
    assert "  best line (chance outcomes drawn by weight with --seed 3: one way the game may go):" in lines
    at = lines.index("  best line (chance outcomes drawn by weight with --seed 3: one way the game may go):")
    assert lines[at + 1].startswith("    chance: a = ") and not lines[at + 2].startswith("    chance")


def test_draw_counts_copies_so_a_die_with_repeated_faces_is_weighted(tmp_path):
    # a six-sided die with faces 1, 1, 2, 2, 2, 3: weights 2/6, 3/6 and 1/6
    path = tmp_path / "die.rules"
    path.write_text("""\
state { face: 0..3 = 0 }
chance when face == 0 { draw f in bag([1, 1, 2, 2, 2, 3]) face = f }
action stop { face = face }
turn { stop }
terminal face > 0
score face
""")
    g = load_game(str(path))
    weights = {m.label: p for m, p in g.chance_outcomes(g.initial_state())}
    assert weights == pytest.approx({"f = 1": 2 / 6, "f = 2": 3 / 6, "f = 3": 1 / 6})


ONE_DIE = """\
state { marks: 0..9 = 0  big: bool = no  face: 0..6 = 0  rolled: bool = no }
def faces() = if big then 1..6 else 1..2
chance when not rolled { draw f in faces() face = f rolled = yes }
action mark { marks += 1 }
action grow { big = yes }
action again { rolled = no }
turn { choose a in [1, 2, 3] if a == 1 { mark } else if a == 2 { grow } else { again } }
terminal marks == 9
score marks
"""


def test_outcomes_worked_out_once_carry_each_states_own_other_fields(tmp_path):
    # the roll reads and writes only `rolled` and `face`: a state with 3 marks has the outcomes a
    # state without marks had, with its own 3 marks kept; a die of two faces gives 1/2 each
    path = tmp_path / "die.rules"
    path.write_text(ONE_DIE)
    g = load_game(str(path))
    field = {name: i for i, name in enumerate(g.field_names)}
    s = g.initial_state()
    three = s[:field["marks"]] + (3,) + s[field["marks"] + 1:]
    for state, marks in ((s, 0), (three, 3), (s, 0)):
        outcomes = g.chance_outcomes(state)
        assert [(m.next[field["marks"]], m.next[field["face"]], p) for m, p in outcomes] == \
            [(marks, 1, 0.5), (marks, 2, 0.5)]


def test_a_field_read_only_in_a_def_the_roll_calls_changes_the_outcomes(tmp_path):
    # `faces()` reads `big`: with it the die has 6 faces (1/6 each), without it 2
    path = tmp_path / "die.rules"
    path.write_text(ONE_DIE)
    g = load_game(str(path))
    big = g.field_names.index("big")
    s = g.initial_state()
    grown = s[:big] + (True,) + s[big + 1:]
    assert len(g.chance_outcomes(s)) == 2
    assert [p for _, p in g.chance_outcomes(grown)] == pytest.approx([1 / 6] * 6)
    assert len(g.chance_outcomes(s)) == 2


def test_railroad_ink_rolls_give_168_outcomes_on_every_board():
    # three route dice of six faces and the junction die (three faces, each twice): 56 multisets
    # of three route faces times 3 junction faces; three straight highways with an overpass come
    # 1 way in 6^3 times 2/6 = 1/648, three different route faces with a station 3! ways = 1/108
    from conftest import ROOT

    game = load_game(str(ROOT / "rules" / "railroad-ink.rules"))
    board, to_draw = game.field_names.index("board"), game.field_names.index("to_draw")
    rng = random.Random(3)
    s, boards = game.initial_state(), set()
    while not game.is_terminal(s):
        if game.current_player(s) != CHANCE:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            continue
        outcomes = game.chance_outcomes(s)
        assert len(outcomes) == 168 and sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(m.next[board] == s[board] for m, _ in outcomes)
        weight = {tuple(sorted(t.name for t in m.next[to_draw])): p for m, p in outcomes}
        assert weight[("overpass",) + ("straight_highway",) * 3] == pytest.approx(1 / 648)
        assert weight[("curve_highway", "straight_highway", "straight_railway", "straight_station")] == \
            pytest.approx(1 / 108)
        boards.add(s[board])
        s = game.apply(s, rng.choice(outcomes)[0])
    assert len(boards) == 7  # a roll on each round's own board


def test_check_and_validate_accept_the_dice_game():
    for cmd in (("validate", DICE), ("check", DICE, "--examples", 50)):
        r = run_engine(*cmd)
        assert r.returncode == 0, r.stdout + r.stderr


BASE = """\
state { n: 0..9 = 0  rolled: bool = no }
action step { n += 1 }
turn { step }
terminal n == 9
score n
"""

# (id, extra text, code, line, column of the offending statement)
MISPLACED = [
    ("draw-in-an-action", "action roll { draw x in 1..6 n = x }", "misplaced", 6, 15),
    ("choose-in-chance", "chance when not rolled { choose x in 1..6 rolled = yes }", "misplaced", 6, 26),
    ("call-in-chance", "chance when not rolled { step rolled = yes }", "misplaced", 6, 26),
    ("optional-in-chance", "chance when not rolled { optional { rolled = yes } }", "misplaced", 6, 26),
    ("either-in-chance", "chance when not rolled { either { rolled = yes } or { rolled = yes } }", "misplaced", 6, 26),
    ("draw-from-a-number", "chance when not rolled { draw x in 6 rolled = yes }", "type-mismatch", 6, 36),
    ("condition-not-a-bool", "chance when n { rolled = yes }", "type-mismatch", 6, 13),
]


@pytest.mark.parametrize("row_id, extra, code, line, col", MISPLACED, ids=[r[0] for r in MISPLACED])
def test_misplaced_draws_and_choices_are_diagnostics_at_their_statement(tmp_path, row_id, extra, code, line, col):
    d, shown = first_diagnostic(tmp_path / "game.rules", BASE + extra + "\n")
    assert (d.code, d.span.line, d.span.col) == (code, line, col), shown


def test_a_draw_from_an_empty_collection_is_a_runtime_diagnostic_in_validate(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(BASE + "chance when not rolled { draw x in [] rolled = yes }\n")
    r = run_engine("validate", path)
    assert r.returncode == 1
    assert "draw from an empty collection" in r.stdout + r.stderr
    assert f"{path}:6:36" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


# (id, chance block, its diagnostic's line and column, the weight left, by hand): BASE's chance
# blocks start on line 6, column 1
PRUNED = [
    ("one-require", "chance when not rolled {\n draw x in 1..6\n require x != 6\n rolled = yes }", 8, 2, "5/6"),
    ("two-requires", "chance when not rolled {\n draw x in 1..6\n draw y in 1..6\n require x != 6\n"
     " if x == 1 { require y > 2 }\n rolled = yes }", 6, 1, "7/9"),  # 1 - 6/36 (x = 6) - 2/36 (x = 1, y < 3)
    # two draws, the require reads one of them: 1 - 1/6 (x = 6)
    ("of-one-draw", "chance when not rolled {\n draw x in 1..6\n draw y in 1..6\n require x != 6\n"
     " rolled = yes }", 9, 2, "5/6"),
    ("in-a-for", "chance when not rolled {\n for i in 1..2 {\n draw x in 1..4\n require x > 1 }\n"
     " rolled = yes }", 9, 2, "9/16"),  # (3/4)^2
    # the require reads what the draws made together, not a draw: 1 - 1/4 (two 1s)
    ("of-the-sum", "chance when not rolled {\n var t = 0\n for i in 1..2 {\n draw x in 1..2\n t += x }\n"
     " require t > 2\n rolled = yes }", 11, 2, "3/4"),
]


@pytest.mark.parametrize("row_id, block, line, col, left", PRUNED, ids=[r[0] for r in PRUNED])
def test_a_chance_block_whose_requires_drop_draws_is_an_error_at_the_require(tmp_path, row_id, block, line,
                                                                           col, left):
    path = tmp_path / "game.rules"
    path.write_text(BASE + block + "\n")
    for cmd in ("validate", "solve", "check"):
        r = run_engine(cmd, path)
        assert r.returncode == 1, r.stdout + r.stderr
        out = r.stdout + r.stderr
        assert (f"{path}:{line}:{col}: error[runtime]: the outcomes of the chance block weigh {left} "
                "in all: expected 1") in out, (cmd, out)
        assert "drops the draws that fail it" in out and "Traceback" not in out
        # one draw and one require: the draw the hint suggests is the block's own, written from the file
        told = {"one-require": "`draw x in [x for x in 1..6 where x != 6]`, and no `require`",
                "of-one-draw": "`draw x in [x for x in 1..6 where x != 6]`, and no `require`",
                "in-a-for": "`draw x in [x for x in 1..4 where x > 1]`, and no `require`"}.get(
            row_id, "for example `draw d in [d for d in 1..6 where d != 1]`")  # two requires: no one way
        if row_id == "of-the-sum":  # no draw's values pass it: what such draws do is the way
            assert "with their weight: say in the block what such draws do instead" in out, out
        else:
            assert f"draw only from the values allowed, {told}" in out, out


@pytest.mark.parametrize("algo", ["mcts", "backtrack", "random-walk"])
def test_search_shows_the_state_a_chance_block_whose_outcomes_weigh_too_little_failed_in(tmp_path, algo):
    path = tmp_path / "game.rules"
    path.write_text(BASE + PRUNED[0][1] + "\n")
    r = run_engine("search", path, "--algo", algo, "--budget", "200")
    assert r.returncode == 1
    assert "the outcomes of the chance block weigh 5/6 in all" in r.stderr, r.stderr
    # the initial state: no step taken yet, the dice not rolled
    assert r.stderr.endswith('the state it failed in: {"n": 0, "rolled": false}\n'), r.stderr


def test_a_chance_block_whose_draws_leave_a_fields_range_is_an_error_at_the_assignment(tmp_path):
    # no require anywhere: the draws 5 and 6 would put `low` (0..4) out of its range, so 4/6 is left
    path = tmp_path / "game.rules"
    path.write_text(BASE.replace("rolled: bool", "low: 0..4 = 0  rolled: bool")
                    + "chance when not rolled {\n draw x in 1..6\n low = x\n rolled = yes }\n")
    for cmd in ("validate", "solve"):
        r = run_engine(cmd, path)
        out = r.stdout + r.stderr
        assert r.returncode == 1, out
        assert f"{path}:8:2: error[runtime]: the outcomes of the chance block weigh 2/3 in all: expected 1" in out
        assert "draws where 'low' would leave its range 0..4 are dropped, with their weight (line 8)" in out
        assert "require" not in out and "Traceback" not in out


def test_a_chance_block_with_no_outcome_left_says_so(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(BASE + "chance when not rolled { draw x in 1..6 require x > 6 rolled = yes }\n")
    r = run_engine("play", path, "--agents", "random", "--games", 2)
    assert r.returncode == 1
    assert f"{path}:6:41: error[runtime]: the chance block has no outcome left" in r.stderr


def test_a_sampled_draw_that_a_require_drops_is_the_same_error(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(BASE + "chance when not rolled { draw x in 1..6 require x != 6 rolled = yes }\n")
    game = load_game(str(path))
    rng = random.Random(0)
    with pytest.raises(RuleRuntimeError, match="weigh 5/6 in all"):
        for _ in range(200):  # each draw is dropped with chance 1/6
            game.sample_chance(game.initial_state(), rng)


def test_validate_weighs_the_outcomes_of_a_block_it_reaches_even_if_no_playout_draws_a_dropped_one(tmp_path):
    # one playout, whose one roll is a 1 to 5 five times in six: validate lists the outcomes all the same
    path = tmp_path / "game.rules"
    path.write_text(BASE + "chance when not rolled { draw x in 1..6 require x != 6 rolled = yes }\n")
    r = run_engine("validate", path, "--playouts", 1)
    assert r.returncode == 1
    assert f"{path}:6:41: error[runtime]: the outcomes of the chance block weigh 5/6 in all: expected 1 " \
           "(in the initial state)" in r.stderr  # its chance node: no line of moves leads there


@pytest.mark.parametrize("turned_off, in_a_row", [("", True), ("rolled = yes", False)])
def test_a_range_error_after_chance_steps_in_a_row_asks_whether_the_block_turns_its_condition_off(
        tmp_path, turned_off, in_a_row):
    # `rolled` never set: the block runs again and again, adding a die to `total` until it leaves 0..20
    # (at least 4 draws, as a die shows at most 6); set, the block runs once and a later one overflows
    path = tmp_path / "game.rules"
    path.write_text(BASE.replace("rolled: bool = no", "rolled: bool = no  total: 0..20 = 0")
                    .replace("n += 1", "n += 1  rolled = no  total += 6")
                    + f"chance when not rolled and n > 0 {{ draw x in 1..6  total += x  {turned_off} }}\n")
    r = run_engine("validate", path, "--playouts", 1)
    assert r.returncode == 1 and "error[runtime]" in r.stderr, r.stderr
    assert ("chance steps came" in r.stderr) == in_a_row, r.stderr
    if in_a_row:
        assert re.search(r"here chance steps came \d+ in a row: a `chance when COND` block runs again while COND "
                         r"holds: does the block make COND false\?", r.stderr), r.stderr


def test_sampling_draw_by_draw_follows_the_textbook_weights(dice):
    # sample_chance draws a, then b, instead of listing all outcomes; over 36,000 draws each total t
    # should come up about 1000 * (6 - |t - 7|) times (binomial s.d. below 40; allow 5 s.d.)
    rng = random.Random(7)
    s = dice.initial_state()
    counts = {}
    for _ in range(36_000):
        total = dict(zip(dice.field_names, dice.sample_chance(s, rng).next))["total"]
        counts[total] = counts.get(total, 0) + 1
    assert sorted(counts) == list(range(2, 13))
    for t, n in counts.items():
        assert abs(n - 1000 * (6 - abs(t - 7))) < 200, (t, n)


def test_play_deals_the_same_rolls_game_by_game_to_agents_that_play_differently():
    # Railroad Ink rolls four dice at the start of each of its 7 rounds, whatever was drawn:
    # with the same seed, an agent drawing at random and one always taking the first move
    # see the same rolls, game by game, on boards that differ.
    from conftest import ROOT
    from search.agents import make_agent
    from search.budget import Result
    from search.play import play

    game = load_game(str(ROOT / "rules" / "railroad-ink.rules"))
    to_draw, board, round_ = (game.field_names.index(f) for f in ("to_draw", "board", "round"))

    def first(game, state, *, budget, rng, memory=None, progress=None, observers=()):
        return Result(game.legal_moves(state)[0], (), None, 0, 0, 0, ())

    runs = []
    for agent in (make_agent("random"), first):
        rolls, ends = {}, []  # (game, round) -> the dice at the round's first decision
        play(game, [("agent", agent)], games=2, budget=1, rng=random.Random(5),
             decided=lambda g, s: rolls.setdefault((g, s[round_]), s[to_draw]),
             show=lambda g, s: ends.append(s[board]))
        runs.append((rolls, ends))
    (rolls_a, ends_a), (rolls_b, ends_b) = runs
    assert len(rolls_a) == 2 * 7 and all(len(dice) == 4 for dice in rolls_a.values())
    assert rolls_a == rolls_b
    assert ends_a != ends_b


def test_a_games_rolls_do_not_depend_on_how_many_rolls_the_games_before_it_used(dice):
    # an agent that always rerolls rolls twice a game, one that always keeps rolls once; each game
    # has its own generator, so with the same seed the first roll of every game is the same
    from search.budget import Result
    from search.play import play

    def always(label):
        def agent(game, state, *, budget, rng, memory=None, progress=None, observers=()):
            moves = game.legal_moves(state)  # a second roll has to be kept
            return Result(next((m for m in moves if m.label.startswith(label)), moves[0]), (), None, 0, 0, 0, ())
        return agent

    firsts = []
    for label in ("keep", "reroll"):
        first = {}
        play(dice, [(label, always(label))], games=5, budget=1, rng=random.Random(2),
             decided=lambda g, s: first.setdefault(g, dict(zip(dice.field_names, s))["total"]))
        firsts.append(first)
    assert len(firsts[0]) == 5 and firsts[0] == firsts[1]


def test_play_with_two_jobs_prints_what_one_job_prints():
    args = ("play", "rules/railroad-ink.rules", "--agents", "random", "--games", "5", "--seed", "4", "--show",
            "--json")
    runs = []
    for jobs in ("1", "2"):
        r = run_engine(*args, "--jobs", jobs)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        out.pop("seconds")
        runs.append(out)
    assert runs[0] == runs[1]
    assert [s["game"] for s in runs[1]["shown"]] == [1, 2, 3, 4, 5]


def test_play_with_two_jobs_on_a_system_that_cannot_fork_starts_its_processes_afresh_for_the_same_games(
        platform, capsys):
    args = ["play", "rules/railroad-ink.rules", "--agents", "random", "--games", "3", "--seed", "4", "--json",
            "--measure", "len(used)", "--show", "moves"]
    runs = []
    for jobs in ("1", "2"):
        assert main([*args, "--jobs", jobs]) == 0
        runs.append(capsys.readouterr())
        platform.without_fork()
    one, two = ({k: v for k, v in json.loads(r.out).items() if k != "seconds"} for r in runs)
    assert one == two  # scores, the final boards, each move's board and the measures
    assert platform.contexts == ["spawn"]  # one job needs no other process; two on this system are started afresh
    assert runs[1].err == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_games_played_from_a_first_game_are_those_games_of_the_longer_run(jobs):
    args = ("play", "rules/railroad-ink.rules", "--agents", "random", "--seed", "4", "--show", "--json")
    whole = json.loads(run_engine(*args, "--games", "5").stdout)
    r = run_engine(*args, "--games", "2", "--first-game", "4", "--jobs", jobs)
    assert r.returncode == 0, r.stderr
    part = json.loads(r.stdout)
    assert part["first_game"] == 4
    assert part["agents"][0]["scores"] == whole["agents"][0]["scores"][3:]
    assert part["shown"] == whole["shown"][3:]  # games 4 and 5, each with its final board
    plain = run_engine(*[a for a in args if a != "--show"], "--games", "2", "--first-game", "4", "--jobs", jobs)
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["agents"][0]["scores"] == part["agents"][0]["scores"]


def test_two_players_keep_their_seats_when_a_run_starts_later():
    args = ("play", "rules/tictactoe.rules", "--agents", "random,random", "--seed", "3", "--json")
    whole = json.loads(run_engine(*args, "--games", "5").stdout)["agents"]
    part = json.loads(run_engine(*args, "--games", "2", "--first-game", "4").stdout)["agents"]
    assert [a["scores"] for a in part] == [a["scores"][3:] for a in whole]  # game 4 starts with the second agent


def test_an_agent_seed_changes_the_agents_draws_and_not_the_rolls():
    from search.agents import make_agent
    from search.play import play
    game = load_game("rules/railroad-ink.rules")
    runs = []
    for agent_seed in (0, 12345):
        rolls: dict = {}  # (game, round) -> the dice still to draw at the round's first decision

        def decided(g, s):
            fields = dict(zip(game.field_names, s))
            rolls.setdefault((g, fields["round"]), sorted(map(repr, fields["to_draw"])))
        tallies = play(game, [("random", make_agent("random"))], games=3, budget=1, rng=random.Random(4),
                       decided=decided, agent_seed=agent_seed)
        runs.append((rolls, tallies[0].scores))
    (rolls_a, scores_a), (rolls_b, scores_b) = runs
    assert len(rolls_a) == 3 * 7 and all(len(r) == 4 for r in rolls_a.values())  # four dice, seven rounds a game
    assert rolls_a == rolls_b
    assert scores_a != scores_b  # random moves of their own: other boards


def test_a_first_game_below_one_is_a_usage_error():
    r = run_engine("play", "rules/tictactoe.rules", "--agents", "random", "--games", "2", "--first-game", "0")
    assert r.returncode == 2
    assert "--first-game 0: expected a positive number" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_rule_failing_in_a_jobs_process_is_reported_as_with_one_process(tmp_path):
    path = tmp_path / "zero.rules"
    path.write_text('game "t"\nstate { x: 0..3 = 0 }\naction a { x += 1 }\nturn { a }\nterminal x == 2\n'
                    'score 1 // (x - x)\n')
    outs = [run_engine("play", path, "--agents", "random", "--games", "3", "--jobs", jobs, timeout=60)
            for jobs in ("1", "2")]
    assert [r.returncode for r in outs] == [1, 1]
    # the game named is the first to fail of those played: with --jobs 2, game 2 may fail before game 1 begins
    game = re.compile(r"in game [123] of the run")
    assert game.sub("in game N", outs[0].stderr) == game.sub("in game N", outs[1].stderr)
    assert "zero.rules:6:13: error[runtime]: division by zero" in outs[1].stderr  # the divisor `x - x` at col 13
    # the rule's line, the command that looks for a line of moves to the failure, and the two steps before it
    assert f"\n  6 | score 1 // (x - x)\n    |             ^^^^^\nhint: `python -m engine check {path}` looks among " \
           "random lines of play for a short one that leads here (`--examples 1000` looks at more)\n" in outs[1].stderr
    assert outs[1].stderr.endswith(", while scoring the end; the steps from the initial state:\n  1. a\n  2. a\n"
                                   'the state it failed in: {"x": 2}\n')  # by hand: two steps of x += 1


def test_an_error_that_cannot_cross_processes_still_ends_play_with_jobs(dice):
    from search.play import play

    class Odd(Exception):
        def __init__(self, a, b):  # pickles as Odd(msg) and so cannot be rebuilt in the parent
            super().__init__(f"{a} {b}")

    def failing(game, state, *, budget, rng, memory=None, progress=None, observers=()):
        raise Odd("no", "move")

    with pytest.raises(RuntimeError, match="Odd: no move"):
        play(dice, [("failing", failing)], games=2, budget=1, rng=random.Random(0), jobs=2)


def test_after_a_game_fails_in_a_jobs_process_no_other_game_begins(dice, tmp_path):
    from search.play import play
    begun = tmp_path / "begun"

    def slow_then_failing(game, state, *, budget, rng, memory=None, progress=None, observers=()):
        with open(begun, "a") as f:  # the workers are forked: they count in a file
            f.write("x")
        time.sleep(0.2)
        raise ValueError("no move")

    with pytest.raises(ValueError, match="no move"):
        play(dice, [("failing", slow_then_failing)], games=40, budget=1, rng=random.Random(0), jobs=2)
    # The two first games fail at about the same time; the 38 others are skipped, not played.
    assert len(begun.read_text()) <= 4


def _second_fails_others_skipped(g):  # in place of a worker's game: pickled by name, so at module level
    return ("skipped", None) if g != 1 else ("failed", ValueError("game 2 failed"))


def test_a_game_skipped_before_the_failed_one_still_raises_the_failure(dice, monkeypatch):
    import search.play
    from search.play import play

    monkeypatch.setattr(search.play, "_game_in_worker", _second_fails_others_skipped)
    shown = []
    with pytest.raises(ValueError, match="game 2 failed"):
        play(dice, [("random", lambda *a, **k: None)], games=3, budget=1, rng=random.Random(0), jobs=2,
             show=lambda g, end: shown.append(g), summary=lambda g, s: None)
    assert shown == []


def _rule_file_gone():  # a rebuild that fails in each process started afresh: pickled by name, at module level
    raise FileNotFoundError("the rule file is gone")


def test_a_process_that_cannot_rebuild_the_game_fails_its_games_instead_of_being_started_again(dice, platform):
    from search.play import play

    platform.without_fork()
    with pytest.raises(FileNotFoundError, match="the rule file is gone"):
        play(dice, [("random", lambda *a, **k: None)], games=3, budget=1, rng=random.Random(0), jobs=2,
             show=lambda g, end: None, summary=lambda g, s: None, rebuild=_rule_file_gone)


def test_draws_that_change_nothing_are_named_with_all_their_values(tmp_path):
    # a is drawn and forgotten: by hand, three outcomes of 1/3, each reached by a = 1 and by a = 2
    path = tmp_path / "ab.rules"
    path.write_text("state { x: 0..3 = 0  done: bool = no }\n"
                    "chance when not done { draw a in 1..2  draw b in 1..3  x = b  done = yes }\n"
                    "turn { }\nterminal done\nscore x\n")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert [(m["move"], m["probability"]) for m in out["first_moves"]] == [
        ("a = 1 or 2 | b = 1", pytest.approx(1 / 3)), ("a = 1 or 2 | b = 2", pytest.approx(1 / 3)),
        ("a = 1 or 2 | b = 3", pytest.approx(1 / 3))]
    # eight values of one draw that lead to one state: the first five and how many more
    path.write_text("state { x: 0..3 = 0  done: bool = no }\n"
                    "chance when not done { draw d in 1..9  x = min(d, 2)  done = yes }\n"
                    "turn { }\nterminal done\nscore x\n")
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert [m["move"] for m in out["first_moves"]] == ["d = 1", "d = 2, 3, 4, 5, 6 or 3 more"]


def test_a_best_line_whose_chance_steps_each_have_one_outcome_says_nothing_of_draws(tmp_path):
    path = tmp_path / "certain.rules"
    path.write_text('state { n: 0..3 = 0  rolled: bool = no }\n'
                    'chance when not rolled { draw d in [2]  n += 1  rolled = yes }\n'
                    'action go "go" { rolled = no }\nturn { go }\nterminal n == 3\nscore n\n')
    r = run_engine("solve", path)
    # by hand: roll, go, roll, go, roll: five steps, each roll certain
    assert "  best line (5 moves):\n    chance: d = 2\n    go\n" in r.stdout and "drawn by weight" not in r.stdout


def test_the_deck_of_the_language_reference_deals_without_replacement_and_without_its_take_with(tmp_path):
    block = next(b for b in re.findall(r"```rules\n(.*?)```", (ROOT / "docs" / "language.md").read_text(), re.S)
                 if "deck -= c" in b)
    # by hand: of the ten pairs of 1..5 the higher card is 2 once, 3 twice, 4 three times and 5 four
    # times, a mean of 40/10 = 4; with replacement, of the 25 draws max k comes 2k - 1 times, a mean of
    # (1 + 6 + 15 + 28 + 45) / 25 = 3.8
    for text, mean in ((block, 4), (block.replace("deck -= c", ""), 3.8)):
        path = tmp_path / "deck.rules"
        path.write_text(text)
        out = json.loads(run_engine("solve", path, "--json").stdout)
        assert out["best_score"] == pytest.approx(mean)
