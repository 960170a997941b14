"""`tiles` declarations, the board built-ins and `view`: symmetries counted by hand, placement
on a small board worked out by hand, the diagnostics of bad tile sets, and the dice-free setting
and the text view of rules/railroad-ink.rules."""
import json
import random

import pytest

from conftest import ROOT, first_diagnostic, run_engine
from engine.diagnostics import RuleErrors
from engine.load import check_file, command_line_measures, command_line_predicates, load_game

RAILROAD = ROOT / "rules" / "railroad-ink.rules"

# A 3 x 3 board; one road exit above the middle column, one rail exit left of the middle row.
SMALL = """
enum Side { N, E, S, W }
enum Kind { road, rail }
tiles Piece: Side -> Kind {
    bend = (road, _, _, rail)                  # a station: road N, rail W, joined
    cross = (road, rail, road, rail) groups {N, S}, {E, W}
    plain = (road, _, road, _)
    road_in = (_, _, road, _)
    rail_in = (_, rail, _, _)
}
const grid = square_grid(3, 3)
state { board: map<cell, Piece> = {cell(-1, 1): road_in, cell(1, -1): rail_in}  n: 0..3 = 0 }
action put "{t} at {c}" {
    choose t in orientations(plain)
    choose c in places(board, grid, t)
    board[c] = t
    n += 1
}
turn { put }
terminal n == 3
score len(networks(board))
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiles") / "small.rules"
    path.write_text(SMALL)
    return load_game(str(path))


def holds(game, s, text):
    [(_, fn)] = command_line_predicates(game, [text])
    return fn(s)


def test_orientations_remove_the_repeats_of_symmetric_tiles(small):
    # bend: two different labels on adjacent sides, so no turn maps it to itself (4 turns) and its
    # mirror image puts the rail on the other side of the road, a new tile again: 8.
    # cross: a half turn gives it back; a quarter turn swaps road and rail axes: 2.
    # plain: a half turn gives it back, the mirror too: 2.
    s = small.initial_state()
    # road_in: one labelled side, 4 turns, each its own mirror image: 4.
    for name, n, turns in (("bend", 8, 4), ("cross", 2, 2), ("plain", 2, 2), ("road_in", 4, 4)):
        assert holds(small, s, f"len(orientations({name})) == {n}"), name
        assert holds(small, s, f"len(rotations({name})) == {turns}"), name


def test_a_turn_takes_north_to_east_and_the_mirror_swaps_east_and_west(small):
    s = small.initial_state()
    # rotations(road_in): S (as written), then turned clockwise once: W, twice: N, three times: E
    assert holds(small, s, "[keys(edges(t)) for t in rotations(road_in)] == [[S], [W], [N], [E]]")
    # bend has road N, rail W; its first mirror image (after the four turns) has road N, rail E
    assert holds(small, s, "edges(orientations(bend)[4]) == {N: road, E: rail}")


HEX = """enum Side { A, B, C, D, E, F }
enum Colour { red, blue }
tiles Hex: Side -> Colour {
    pair = (red, blue, _, _, _, _)
    across = (red, _, _, red, _, _)
}
state { n: 0..1 = 0 }
action go { n += 1 }
turn { go }
terminal n == 1
score 0
"""


def test_a_tile_of_six_sides_turns_a_side_at_a_time_and_its_mirror_keeps_the_first_side(tmp_path):
    # counted by hand: `pair` (red then blue clockwise) has 6 turns, and its mirror images have blue
    # then red clockwise, 6 more; `across` (red on two opposite sides) comes back after 3 turns,
    # and is its own mirror image
    path = tmp_path / "hex.rules"
    path.write_text(HEX)
    game = load_game(str(path))
    s = game.initial_state()
    assert holds(game, s, "len(rotations(pair)) == 6 and len(orientations(pair)) == 12")
    assert holds(game, s, "len(rotations(across)) == 3 and len(orientations(across)) == 3")
    # one turn takes each label a side on (A to B); the first mirror image keeps A and takes B to F
    assert holds(game, s, "edges(rotations(pair)[1]) == {B: red, C: blue}")
    assert holds(game, s, "edges(orientations(pair)[6]) == {A: red, F: blue}")


def test_places_are_the_free_cells_joined_to_a_matching_side_without_a_clash(small):
    s = small.initial_state()
    # the upright road fits only below the road exit, at (0, 1); lying down it would face the
    # rail exit with a road at (1, 0): a clash, and it touches nothing else
    labels = [m.label for m in small.legal_moves(s)]
    assert labels == ["plain [road _ road _] at (0, 1)"]
    s = small.apply(s, small.legal_moves(s)[0])
    # now below it at (1, 1), joined to its road end; nothing else touches a road
    assert [m.label for m in small.legal_moves(s)] == ["plain [road _ road _] at (1, 1)"]
    assert holds(small, s, "clashes(board, cell(1, 0), orientations(plain)[1]) == 1")
    assert holds(small, s, "matches(board, cell(1, 1), orientations(plain)[0]) == 1")


def test_places_agree_with_their_definition_on_boards_of_random_play():
    # places() reads the empty cells a labelled side faces, worked out once per board; here it is
    # checked against its definition through two other built-ins, cell by cell: every free cell
    # of the grid where the tile matches at least one side and clashes with none
    game = load_game(str(RAILROAD))
    routes = ["straight_highway", "curve_railway", "t_highway", "t_railway", "overpass",
              "straight_station", "curve_station", "cross_highway", "railway_station", "corner_station"]
    agree = [command_line_predicates(game, [
        f"all(places(board, grid, o) == [c for c in cells(grid) where c not in board"
        f" and matches(board, c, o) >= 1 and clashes(board, c, o) == 0] for o in orientations({name}))"])[0][1]
        for name in routes]
    rng = random.Random(3)
    boards = 0
    for _ in range(3):
        s = game.initial_state()
        while not game.is_terminal(s):
            if game.current_player(s) < 0:
                s = game.sample_chance(s, rng).next
                continue
            assert all(fn(s) for fn in agree)
            boards += 1
            s = rng.choice(game.legal_moves(s)).next
    assert boards > 60  # 7 rounds of three games, several moves each


def test_longest_trails_start_where_a_trail_from_every_piece_would_find_them(monkeypatch):
    # longest_trail() starts its walks only at pieces of odd degree (and one piece of each part
    # with none); on boards of random play it must find what walks from every piece find
    from engine import tiles
    game = load_game(str(RAILROAD))
    trails = command_line_measures(game, ["longest_trail(board, grid, road) * 100 + longest_trail(board, grid, rail)"])
    [(_, both)] = trails
    rng = random.Random(5)
    ends = []
    for _ in range(4):
        s = game.initial_state()
        while not game.is_terminal(s):
            s = (game.sample_chance(s, rng) if game.current_player(s) < 0 else rng.choice(game.legal_moves(s))).next
        ends.append(s)
    found = [both(s) for s in ends]
    monkeypatch.setattr(tiles, "_trail_starts", lambda adj: list(adj))
    assert [both(s) for s in ends] == found
    assert max(found) >= 500  # some board has a highway of 5 spaces or more: the walks were long
    monkeypatch.undo()
    # a ring of four curves has no piece of odd degree: its 4 joins make a trail of 5 spaces
    # (the first counted again at the end), and a straight beside it joins nothing
    ring = ("{cell(0, 0): rotations(curve_highway)[0], cell(0, 1): rotations(curve_highway)[1], "
            "cell(1, 1): rotations(curve_highway)[2], cell(1, 0): rotations(curve_highway)[3], "
            "cell(3, 3): straight_highway}")
    [(_, ring_trail)] = command_line_predicates(game, [f"longest_trail({ring}, grid, road) == 5"])
    assert ring_trail(game.initial_state())


def test_beside_gives_the_cell_across_a_side(small):
    s = small.initial_state()
    assert holds(small, s, "[beside(cell(1, 1), x) for x in [N, E, S, W]] == "
                           "[cell(0, 1), cell(1, 2), cell(2, 1), cell(1, 0)]")


def test_an_overpass_makes_two_networks_and_a_joined_tile_one(small):
    s = small.initial_state()
    # the two exits alone: two networks; a cross at (0,0) joins neither (nothing matches there)
    assert holds(small, s, "len(networks(board)) == 2")
    assert holds(small, s, "len(networks({cell(0, 0): cross})) == 2")
    assert holds(small, s, "len(networks({cell(0, 0): bend})) == 1")


BAD = [
    ("tile-labels", "tiles P: Side -> Kind { a = (road, rail) }", "arity", 4, 25),
    ("tile-label", "tiles P: Side -> Kind { a = (road, _, rail, lava) }", "unknown-name", 4, 45),
    ("tile-group-twice", "tiles P: Side -> Kind { a = (road, road, road, road) groups {N, S}, {S, E} }",
     "duplicate", 4, 70),
    ("tile-group-blank", "tiles P: Side -> Kind { a = (road, _, road, _) groups {N, E} }", "type-mismatch", 4, 59),
    ("tile-sides-not-enum", "tiles P: Sides -> Kind { a = (road) }", "unknown-name", 4, 10),
    ("view-not-str", "view 3", "type-mismatch", 4, 6),
    ("view-twice", 'view "a" view "b"', "duplicate", 4, 10),
    ("places-not-board", "const p = places([1], square_grid(2, 2), 3)", "type-mismatch", 4, 18),
    ("beside-not-side", "const b = beside(cell(0, 0), road)", "type-mismatch", 4, 30),
]
BASE = """enum Side { N, E, S, W }
enum Kind { road, rail }
state { n: 0..1 = 0 }
"""
TAIL = """
action step { n += 1 }
turn { step }
terminal n == 1
score n
"""


@pytest.mark.parametrize("row_id,extra,code,line,col", BAD, ids=[b[0] for b in BAD])
def test_bad_tile_sets_and_board_calls_are_diagnostics_at_their_place(tmp_path, row_id, extra, code, line, col):
    d, shown = first_diagnostic(tmp_path / "game.rules", BASE + extra + TAIL)
    assert (d.code, d.span.line, d.span.col) == (code, line, col), shown


@pytest.mark.parametrize("extra,hint", [
    ("tiles P: Side -> Kind { a = (road, _, none, _) }", "a side carries one of road, rail, or `_` for nothing"),
    ("tiles P: Side -> Kind {\n    a = (road, _, road, _),\n    b = (road, road, _, _)\n}",
     "a tiles declaration takes one entry a line, without commas between them"),
    ("tiles P: Side -> Kind { a = (road, road, road, road) group {N, S}, {E, W} }",
     "`group` may be `groups`: name = (label, ...) groups {side, ...}, {side, ...}"),
])
def test_a_tile_entry_written_as_elsewhere_is_told_how_it_is_written(tmp_path, extra, hint):
    d, shown = first_diagnostic(tmp_path / "game.rules", BASE + extra + TAIL)
    assert d.hint == hint, shown


@pytest.mark.parametrize("sides, warned", [
    ("N, S, E, W", "S is the right side\n"),
    ("up, down, left, right", "down is the right side\n"),
    ("W, N, E, S", "W is the top side\n"),
    ("N, E, S, W", None),  # clockwise from the top
    ("top, right, bottom, left", None),
    ("A, B, C, D", None),  # not named as directions: nothing to tell
])
def test_sides_named_as_directions_out_of_clockwise_order_are_a_warning(tmp_path, sides, warned):
    names = [x.strip() for x in sides.split(",")]
    text = (BASE.replace("enum Side { N, E, S, W }", f"enum Side {{ {sides} }}")
            + f"tiles P: Side -> Kind {{ a = (road, _, _, _) }}\nconst t = a\nconst s = {names[0]}\n" + TAIL)
    path = tmp_path / "game.rules"
    path.write_text(text)
    r = run_engine("validate", path, "--playouts", "0")
    assert r.returncode == 0, r.stderr
    if warned is None:
        assert "side-order" not in r.stderr, r.stderr
    else:
        clockwise = {"N, S, E, W": "N, E, S, W", "up, down, left, right": "up, right, down, left",
                     "W, N, E, S": "N, E, S, W"}[sides]
        assert (f"{path}:1:1: warning[side-order]: tile type 'P' takes the sides of Side clockwise from the top, "
                f"so {warned}") in r.stderr, r.stderr
        assert f"hint: written clockwise from the top: enum Side {{ {clockwise} }}\n" in r.stderr


@pytest.mark.parametrize("typo,where", [
    ("tiles Piece: Side -> Knd {", [(4, 22)]),
    ("tiles Piece: Sid -> Knd {", [(4, 14), (4, 21)]),
])
def test_a_tile_set_with_an_unknown_enum_is_one_error_not_one_per_use_of_its_tiles(tmp_path, typo, where):
    # SMALL uses the type Piece twice and its tiles road_in, rail_in and plain: each would be an
    # unknown name too if the misspelt enum dropped the tile set
    text = SMALL.replace("tiles Piece: Side -> Kind {", typo)
    path = tmp_path / "game.rules"
    path.write_text(text)
    with pytest.raises(RuleErrors) as info:
        check_file(str(path))
    found = [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics]
    assert found == [("unknown-name", line, col) for line, col in where], info.value.render()


def test_without_dice_the_game_starts_with_a_move_and_validates():
    game = load_game(str(RAILROAD), {"dice": "off"})
    s = game.initial_state()
    assert game.current_player(s) == 0
    # any of the 9 die faces, drawn next to an exit: the first moves place routes, or pass to a special
    assert any(m.label.startswith("straight_highway") for m in game.legal_moves(s))
    r = run_engine("validate", RAILROAD, "--set", "dice=off")
    assert r.returncode == 0, r.stdout + r.stderr


def test_play_show_prints_the_final_board_through_the_view():
    r = run_engine("play", RAILROAD, "--agents", "random", "--games", "1", "--show")
    assert r.returncode == 0, r.stderr
    view = r.stdout.split("\n")[1:28]
    assert len(view) == 27
    # the third text line is the row above the board: its exit marks sit in the middle character
    # of columns 1, 3 and 5 (text columns 7, 13, 19): road, rail, road (data A1)
    assert [view[2][i] for i in (7, 13, 19)] == ["|", "#", "|"]
    assert view[2].strip("|# ") == ""


DOUBLE = """enum Side { N, E, S, W }
enum Land { road }
tiles T: Side -> Land {
    dbl = (road, road, road, road) groups {N, E}, {S, W}
}
state { board: map<cell, T> = {}  done: bool = no }
action lay "{o}" { choose o in orientations(dbl)  board[cell(0, 0)] = o }
action stop { done = yes }
turn { if len(board) == 0 { lay } else { stop } }
terminal done
score if board[cell(0, 0)] == orientations(dbl)[1] then 1 else 0
"""


def test_orientations_with_the_same_labels_are_told_apart_by_their_groups_and_read_back(tmp_path):
    # four roads joined in two pairs: by hand two orientations, N-E with S-W and E-S with W-N, whose
    # labels are the same; the text names the groups, so a state printed is read back as itself
    path = tmp_path / "double.rules"
    path.write_text(DOUBLE)
    out = json.loads(run_engine("solve", path, "--json").stdout)
    assert [m["move"] for m in out["first_moves"]] == ["dbl [road road road road] {N E} {S W}",
                                                       "dbl [road road road road] {N W} {E S}"]
    assert out["best_score"] == 1
    (tmp_path / "step.json").write_text(json.dumps(out["best_line"][1]))
    again = json.loads(run_engine("solve", path, "--from", tmp_path / "step.json", "--json").stdout)
    assert again["best_score"] == 1  # the orientation laid, not the other one
    (tmp_path / "other.json").write_text('{"board": [[[0, 0], "dbl [road road road road] {S W} {N E}"]], '
                                         '"done": false}')
    r = run_engine("solve", path, "--from", tmp_path / "other.json")
    assert r.returncode == 2 and "expected one of the orientations 'dbl [road road road road] {N E} {S W}', " \
                                 "'dbl [road road road road] {N W} {E S}'" in r.stderr, r.stderr


EDGE_TILES = {"a": "rgry", "b": "rrgg", "c": "gggg", "d": "rgrg", "e": "bgyr", "f": "yybb", "g": "brbr",
              "h": "gbyb", "i": "yrgb"}  # tests/fixtures/edge-matching.rules, sides N E S W, by colour initial


def edge_solutions(size: int) -> int:
    """Solutions of the edge-matching puzzle counted apart from the engine: cells filled row by row,
    each with an unused tile in each of its distinct quarter turns that matches the tiles above and
    to its left."""
    names = list(EDGE_TILES)[:size * size]
    turns = {n: {EDGE_TILES[n][-k:] + EDGE_TILES[n][:-k] for k in range(4)} for n in names}  # N E S W after k turns

    def fill(k: int, board: list, used: set) -> int:
        if k == size * size:
            return 1
        r, c = divmod(k, size)
        return sum(fill(k + 1, board + [t], used | {n}) for n in names if n not in used for t in turns[n]
                   if (r == 0 or board[k - size][2] == t[0]) and (c == 0 or board[k - 1][1] == t[3]))
    return fill(0, [], set())


@pytest.mark.parametrize("size", [2, 3])
def test_an_edge_matching_puzzle_has_as_many_solutions_as_a_count_apart_from_the_engine(size):
    out = json.loads(run_engine("solve", "tests/fixtures/edge-matching.rules", "--set", f"size={size}",
                                "--lines", "0", "--json").stdout)
    assert out["value"] == [1] and out["best_lines"]["count"] == edge_solutions(size)
