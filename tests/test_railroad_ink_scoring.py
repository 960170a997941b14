"""The score of rules/railroad-ink.rules on hand-drawn boards, each worked out by hand from the
scoring rules in shared/data/railroad-ink.md (A5), and the orientations of every route."""
import pytest

from conftest import ROOT
from engine.load import command_line_predicates, load_game
from engine.runtime import Cell

RULES = ROOT / "rules" / "railroad-ink.rules"

# The drawings: rows 0-6 down, columns 0-6 across, exits round the board (R road, L rail).
# A route is `o`, a station `S`, an overpass `X`, a 4-way special `+`, an empty space `.`.
# Between two spaces: `-` `|` a road and `=` `#` a rail joining them (or leading off the board
# when drawn at the edge), `*` an open end (a route end facing an empty space or a blank side).
# Each placement is (row, col, route, "N E S W"): the sides of the route as drawn, `_` blank.

TERMS = {
    "exits": "sum(exit_points[exits_reached(n)] for n in networks(board))",
    "highway": "longest_trail(board, grid, road)",
    "railway": "longest_trail(board, grid, rail)",
    "centre": "count(c for c in centre where c in board)",
    "errors": "open_ends(board, grid)",
}

ROAD_NS, ROAD_EW = "road _ road _", "_ road _ road"
RAIL_NS, RAIL_EW = "rail _ rail _", "_ rail _ rail"


def line(cells, route, sides):
    """The same route, drawn the same way, on several spaces."""
    return [(r, c, route, sides) for r, c in cells]


class Scoring:
    def __init__(self):
        self.game = load_game(str(RULES))
        self.predicates = {}

    def route(self, name):
        ck = self.game.checker
        return self.game.compiler.const_value(ck.globals[name])

    def state(self, placements):
        """The initial state (the 12 exits) with the routes drawn on it."""
        s0 = self.game.initial_state()
        i = self.game.field_names.index("board")
        board = s0[i]
        for row, col, name, sides in placements:
            want = [None if x == "_" else x for x in sides.split()]
            drawn = [t for t in self.route(name).orientations()
                     if [None if x is None else x.name for x in t.labels] == want]
            assert drawn, f"{name} cannot be drawn as {sides}"
            cell = Cell((row, col))
            assert cell not in board, f"two routes on {cell}"
            board = board.set(cell, drawn[0])
        return s0[:i] + (board,) + s0[i + 1:]

    def holds(self, s, text):
        if text not in self.predicates:
            [(_, holds_in)] = command_line_predicates(self.game, [text])
            self.predicates[text] = holds_in
        return self.predicates[text](s)

    def check(self, placements, total, facts=(), **terms):
        """Each scoring term has the value worked out (and not one more), and they add up."""
        assert set(terms) == set(TERMS)
        s = self.state(placements)
        for name, value in terms.items():
            assert self.holds(s, f"{TERMS[name]} == {value}"), f"{name} is not {value}"
            assert not self.holds(s, f"{TERMS[name]} == {value + 1}")
        for text in facts:
            assert self.holds(s, text), text
        t = terms
        assert t["exits"] + t["highway"] + t["railway"] + t["centre"] - t["errors"] == total
        assert self.game.returns(s) == (total,)


@pytest.fixture(scope="module")
def scoring():
    return Scoring()


def test_a_highway_joining_two_exits_scores_4(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #         |
    #   0   . o . . . . .
    #         |
    #   1 L . o . . . . . L
    #         |
    #   2   . o . . . . .
    #         |
    #   3 R . o . . . . . R
    #         |
    #   4   . o . . . . .
    #         |
    #   5 L . o . . . . . L
    #         |
    #   6   . o . . . . .
    #         |
    #         R   L   R
    # exits:   the highway joins the road exits above (0,1) and below (6,1): 2 exits, 4 points;
    #          the other 10 exits are alone (1 exit, 0 points)
    # highway: 7 spaces in one line                                     7
    # railway: no railway on the board                                  0
    # centre:  column 1 is outside columns 2-4                          0
    # errors:  both ends lead off the board (at the exits)              0
    # total:   4 + 7 + 0 + 0 - 0 = 11
    scoring.check(line([(r, 1) for r in range(7)], "straight_highway", ROAD_NS), total=11,
                  exits=4, highway=7, railway=0, centre=0, errors=0,
                  facts=["joins() == 1"])  # one network, 2 exits: one beyond its first


def test_a_railway_joining_three_exits_scores_8(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #             #
    #   0   . . . o . . .
    #             #
    #   1 L=o=o=o=o=o=o=o=L
    #
    #   2   . . . . . . .
    #
    #   3 R . . . . . . . R
    #
    #   4   . . . . . . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . . .
    #
    #         R   L   R
    # exits:   row 1 joins the rail exits left of (1,0) and right of (1,6); the T at (1,3) and
    #          the straight at (0,3) join the rail exit above (0,3): 3 exits, 8 points
    # highway: none                                                      0
    # railway: row 1, (1,0) to (1,6), is 7 spaces; the branch to (0,3) cannot be added to it
    #          (it ends there), and (0,3)-(1,3)-...-(1,6) is only 5        7
    # centre:  row 1 and row 0 are outside rows 2-4                      0
    # errors:  the T's blank side faces (2,3); every end reaches an exit  0
    # total:   8 + 0 + 7 + 0 - 0 = 15
    scoring.check(line([(1, c) for c in (0, 1, 2, 4, 5, 6)], "straight_railway", RAIL_EW)
                  + [(1, 3, "t_railway", "rail rail _ rail"), (0, 3, "straight_railway", RAIL_NS)],
                  total=15, exits=8, highway=0, railway=7, centre=0, errors=0,
                  facts=["joins() == 2"])  # one network, 3 exits: two beyond its first


def test_the_longest_highway_counts_every_space_of_one_unbroken_chain(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #
    #   0  -o-o-o-o-o-o-o
    #                   |
    #   1 L . . . . . . o L
    #                   |
    #   2   . . . . . . o
    #                   |
    #   3 R . . . . . . o R
    #                   |
    #   4   . . . . . . o
    #                   |
    #   5 L . . . . . . o L
    #                   |
    #   6  -o-o-o-o-o-o-o
    #
    #         R   L   R
    # A U along the top row, down the right column and back along the bottom row. Its two ends
    # face off the board left of (0,0) and (6,0), where there is no exit: not errors. Every exit
    # faces a blank side or an empty space: not joined, and not errors either.
    # exits:   the U reaches no exit; every exit is alone                0
    # highway: 7 (row 0) + 5 (column 6, rows 1-5) + 7 (row 6) spaces    19
    # railway: none                                                      0
    # centre:  nothing in rows 2-4, columns 2-4                          0
    # errors:  none                                                      0
    # total:   19
    scoring.check(line([(0, c) for c in range(6)], "straight_highway", ROAD_EW)
                  + [(0, 6, "curve_highway", "_ _ road road")]
                  + line([(r, 6) for r in range(1, 6)], "straight_highway", ROAD_NS)
                  + [(6, 6, "curve_highway", "road _ _ road")]
                  + line([(6, c) for c in range(6)], "straight_highway", ROAD_EW),
                  total=19, exits=0, highway=19, railway=0, centre=0, errors=0)


def test_the_longest_railway_does_not_count_a_branch(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #
    #   0  =o=o=o=o=o=o=o=
    #                 #
    #   1 L . . . . . o . L
    #                 #
    #   2   . . . . . o=o=
    #
    #   3 R . . . . . . . R
    #
    #   4   . . . . . . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . . .
    #
    #         R   L   R
    # A railway along row 0 with a T at (0,5) that turns down to (1,5), (2,5) and off the
    # board right of (2,6). The rail exit above (0,3) faces a blank side.
    # exits:   no exit reached                                           0
    # railway: (0,0) to (0,5) is 6 spaces, then (1,5), (2,5), (2,6): 9; the branch (0,6) is
    #          left out (the whole of row 0 is only 7, (0,6)-(0,5)-...-(2,6) only 5)    9
    # highway: none                                                      0
    # centre:  none                                                      0
    # errors:  the ends left of (0,0), right of (0,6) and right of (2,6) lead off the board  0
    # total:   9
    scoring.check(line([(0, c) for c in (0, 1, 2, 3, 4, 6)], "straight_railway", RAIL_EW)
                  + [(0, 5, "t_railway", "_ rail rail rail"), (1, 5, "straight_railway", RAIL_NS),
                     (2, 5, "curve_railway", "rail rail _ _"), (2, 6, "straight_railway", RAIL_EW)],
                  total=9, exits=0, highway=0, railway=9, centre=0, errors=0)


def test_each_occupied_central_space_scores_1(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #           #   #
    #   0   . . o . o . .
    #           #   #
    #   1 L . . o . o . . L
    #           #   #
    #   2   . . o . o . .
    #           #   #
    #   3 R . . o . o . . R
    #           #   #
    #   4   . . o . o . .
    #           #   #
    #   5 L . . o . o . . L
    #           #   #
    #   6   . . o . o . .
    #           #   #
    #         R   L   R
    # Two railways down columns 2 and 4, from the top edge to the bottom edge (no exit there).
    # exits:   neither reaches an exit                                   0
    # railway: each is 7 spaces; only one of two equal chains scores     7
    # highway: none                                                      0
    # centre:  (2,2) (3,2) (4,2) (2,4) (3,4) (4,4)                       6
    # errors:  all four ends lead off the board                          0
    # total:   7 + 6 = 13
    scoring.check(line([(r, c) for c in (2, 4) for r in range(7)], "straight_railway", RAIL_NS),
                  total=13, exits=0, highway=0, railway=7, centre=6, errors=0)


def test_each_route_end_facing_an_empty_space_costs_1(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #
    #   0   . . . . . . .
    #
    #   1 L . . . . . . . L
    #
    #   2   . . . . . . .
    #
    #   3 R . . .*o*. . . R
    #             *
    #   4   . . . . . . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . . .
    #
    #         R   L   R
    # One highway T in the middle of the board: its three ends face empty spaces.
    # exits:   none                                                      0
    # highway: one space with highway and no join                        1
    # railway: none                                                      0
    # centre:  (3,3)                                                     1
    # errors:  east, south and west ends                                 3
    # total:   0 + 1 + 0 + 1 - 3 = -1
    # loose ends (open ends facing an empty space): all 3
    scoring.check([(3, 3, "t_highway", "_ road road road")], total=-1,
                  exits=0, highway=1, railway=0, centre=1, errors=3, facts=["loose_ends(board, grid) == 3"])


def test_a_route_end_against_the_blank_side_of_a_route_costs_1(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #
    #   0  -o-o-o-o-o-o-o-
    #       *
    #   1 L o . . . . . . L
    #       |
    #   2   o . . . . . .
    #       |
    #   3 R o . . . . . . R
    #       |
    #   4   o . . . . . .
    #       |
    #   5 L o . . . . . . L
    #       |
    #   6   o . . . . . .
    #       |
    #         R   L   R
    # A highway along row 0 (both ends off the board) and another down column 0 whose top end
    # faces the blank south side of (0,0): the two are not joined. Column 0's west sides are
    # blank, so the exits on the left are not reached.
    # exits:   no exit reached                                           0
    # highway: row 0 is 7 spaces, column 0 (rows 1-6) 6                   7
    # railway: none                                                      0
    # centre:  none                                                      0
    # errors:  the north end of (1,0), against the blank side of (0,0); the south end of (6,0)
    #          leads off the board                                       1
    # total:   7 - 1 = 6
    # loose ends: none; the one open end faces a blank side, not an empty space
    scoring.check(line([(0, c) for c in range(7)], "straight_highway", ROAD_EW)
                  + line([(r, 0) for r in range(1, 7)], "straight_highway", ROAD_NS),
                  total=6, exits=0, highway=7, railway=0, centre=0, errors=1,
                  facts=["count(n for n in networks(board) where cell(0, 0) in n and cell(1, 0) in n) == 0",
                         "loose_ends(board, grid) == 0"])


def test_a_network_reaching_one_exit_scores_0_and_unconnected_exits_are_not_errors(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #         |
    #   0  -o-o . . . . .
    #
    #   1 L . . . . . . . L
    #
    #   2   . . . . . . .
    #
    #   3 R . . . . . . . R
    #
    #   4   . . . . . . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . o-o-
    #                 |
    #         R   L   R
    # Two short highways, each from a road exit to the edge of the board (no exit there).
    # exits:   each network reaches 1 exit: 0 points; with the 10 lone exits, 12 networks
    #          reach exactly 1 exit                                      0
    # highway: (0,1)-(0,0) and (6,5)-(6,6), 2 spaces each, one counts    2
    # railway: none                                                      0
    # centre:  none                                                      0
    # errors:  the ends left of (0,0) and right of (6,6) lead off the board; the 10 exits with
    #          nothing drawn at them are not errors                      0
    # total:   2
    scoring.check([(0, 1, "curve_highway", "road _ _ road"), (0, 0, "straight_highway", ROAD_EW),
                   (6, 5, "curve_highway", "_ road road _"), (6, 6, "straight_highway", ROAD_EW)],
                  total=2, exits=0, highway=2, railway=0, centre=0, errors=0,
                  facts=["count(n for n in networks(board) where exits_reached(n) == 1) == 12"])


def test_a_station_joins_road_and_rail_into_one_network(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #         |   #
    #   0   . S=o=o=o=o=o
    #                   #
    #   1 L . . . . . . o=L
    #
    #   2   . . . . . . .
    #
    #   3 R . . . . . . . R
    #
    #   4   . . . . . . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . . .
    #
    #         R   L   R
    # A curve station at (0,1): road north to the road exit, rail east along row 0 to a rail T
    # at (0,3) (north to the rail exit) and on round (0,6) to the rail exit right of (1,6).
    # exits:   road exit above (0,1), rail exits above (0,3) and right of (1,6), all one network
    #          through the station: 3 exits, 8 (apart they would be 0 + 4)          8
    # highway: the station is the only highway space, no highway join    1
    # railway: (0,1) to (0,6) and (1,6): 7 spaces, the station counted  7
    # centre:  none                                                      0
    # errors:  the station's road leads to an exit, (1,6)'s rail too; (0,5)'s blank north side
    #          faces the road exit, which is no error                    0
    # total:   8 + 1 + 7 = 16
    scoring.check([(0, 1, "curve_station", "road rail _ _"), (0, 2, "straight_railway", RAIL_EW),
                   (0, 3, "t_railway", "rail rail _ rail"), (0, 4, "straight_railway", RAIL_EW),
                   (0, 5, "straight_railway", RAIL_EW), (0, 6, "curve_railway", "_ _ rail rail"),
                   (1, 6, "curve_railway", "rail rail _ _")],
                  total=16, exits=8, highway=1, railway=7, centre=0, errors=0,
                  facts=["count(n for n in networks(board) where cell(0, 1) in n) == 1"])


def crossing(middle):
    """A highway along row 3 and a railway down column 3, crossing at (3,3) on `middle`."""
    return (line([(3, c) for c in (0, 1, 2, 4, 5, 6)], "straight_highway", ROAD_EW)
            + line([(r, 3) for r in (0, 1, 2, 4, 5, 6)], "straight_railway", RAIL_NS)
            + [(3, 3, middle, "rail road rail road")])


def test_an_overpass_keeps_road_and_rail_in_two_networks(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #             #
    #   0   . . . o . . .
    #             #
    #   1 L . . . o . . . L
    #             #
    #   2   . . . o . . .
    #             #
    #   3 R-o-o-o-X-o-o-o-R
    #             #
    #   4   . . . o . . .
    #             #
    #   5 L . . . o . . . L
    #             #
    #   6   . . . o . . .
    #             #
    #         R   L   R
    # exits:   the highway joins the road exits left and right of row 3 (4); the railway the
    #          rail exits above and below column 3 (4); the overpass does not join them: 8
    # highway: row 3, the overpass counted: 7                            7
    # railway: column 3, the overpass counted: 7                         7
    # centre:  (3,2) (3,3) (3,4) (2,3) (4,3)                             5
    # errors:  every end reaches an exit                                 0
    # total:   8 + 7 + 7 + 5 = 27
    scoring.check(crossing("overpass"), total=27, exits=8, highway=7, railway=7, centre=5, errors=0,
                  facts=["count(n for n in networks(board) where cell(3, 3) in n) == 2",
                         "joins() == 2"])  # two networks of 2 exits: one beyond the first in each


def test_a_cross_station_in_the_same_place_makes_one_network_of_four_exits(scoring):
    # The board above with the special cross station at (3,3) instead of the overpass.
    # exits:   one network with the 4 exits: 12                          12
    # highway 7, railway 7, centre 5, errors 0 as above
    # total:   12 + 7 + 7 + 5 = 31
    scoring.check(crossing("cross_station"), total=31, exits=12, highway=7, railway=7, centre=5, errors=0,
                  facts=["count(n for n in networks(board) where cell(3, 3) in n) == 1",
                         "joins() == 3"])  # one network of 4 exits: three beyond its first


def test_the_longest_highway_may_pass_a_4_way_junction_twice(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #                 |
    #   0   . . . . . o .
    #                 |
    #   1 L . . . o-o-o . L
    #             |
    #   2   . . . o . . .
    #             |
    #   3 R-o-o-o-+-o . . R
    #             | |
    #   4   . . . o-o . .
    #
    #   5 L . . . . . . . L
    #
    #   6   . . . . . . .
    #
    #         R   L   R
    # From the road exit left of (3,0) along row 3 into the 4-way highway junction (3,3), east
    # round the loop (3,4) (4,4) (4,3) back into the junction from the south, out north to
    # (2,3), (1,3), (1,4), (1,5), (0,5) and the road exit above it.
    # exits:   the road exits left of (3,0) and above (0,5): 2 exits, 4  4
    # highway: the trail (3,0) (3,1) (3,2) (3,3) (3,4) (4,4) (4,3) (3,3) (2,3) (1,3) (1,4) (1,5)
    #          (0,5) uses all 12 joins once and passes (3,3) twice by different routes: 13
    # railway: none                                                      0
    # centre:  (3,2) (3,3) (3,4) (4,4) (4,3) (2,3)                       6
    # errors:  every side of the junction is joined; both ends reach exits  0
    # total:   4 + 13 + 0 + 6 = 23
    scoring.check(line([(3, c) for c in (0, 1, 2)], "straight_highway", ROAD_EW)
                  + [(3, 3, "cross_highway", "road road road road"),
                     (3, 4, "curve_highway", "_ _ road road"), (4, 4, "curve_highway", "road _ _ road"),
                     (4, 3, "curve_highway", "road road _ _"), (2, 3, "straight_highway", ROAD_NS),
                     (1, 3, "curve_highway", "_ road road _"), (1, 4, "straight_highway", ROAD_EW),
                     (1, 5, "curve_highway", "road _ _ road"), (0, 5, "straight_highway", ROAD_NS)],
                  total=23, exits=4, highway=13, railway=0, centre=6, errors=0)


def test_a_branching_highway_and_a_railway_with_one_open_end(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #         |       |
    #   0   . o . . . o .
    #         |       |
    #   1 L . o . . o-o . L
    #         |     |
    #   2   . o . . o . .
    #         |     |
    #   3 R . o-o-o-o . . R
    #         |   *
    #   4   . o . . . . .
    #         |
    #   5 L . o . . o=o=o=L
    #         |     #
    #   6   . o . o=o . .
    #         |   #
    #         R   L   R
    # A highway down column 1 between two road exits, with a T at (3,1) branching east along
    # row 3 to a T at (3,3) (its south end open), up column 4 and over to the road exit above
    # (0,5). A railway from the rail exit right of (5,6) round to the rail exit below (6,3).
    # exits:   highway: road exits above (0,1), below (6,1), above (0,5): 3 exits, 8;
    #          railway: rail exits right of (5,6) and below (6,3): 2 exits, 4     12
    # highway: from (0,1) (or (6,1)) 4 spaces down to (3,1), then (3,2) (3,3) (3,4) (2,4) (1,4)
    #          (1,5) (0,5): 4 + 7 = 11; column 1 alone is only 7         11
    # railway: (5,6) (5,5) (5,4) (6,4) (6,3)                             5
    # centre:  (3,2) (3,3) (3,4) (2,4)                                   4
    # errors:  the south end of (3,3) faces the empty (4,3)              1
    # total:   12 + 11 + 5 + 4 - 1 = 31
    scoring.check(line([(r, 1) for r in (0, 1, 2, 4, 5, 6)], "straight_highway", ROAD_NS)
                  + [(3, 1, "t_highway", "road road road _"), (3, 2, "straight_highway", ROAD_EW),
                     (3, 3, "t_highway", "_ road road road"), (3, 4, "curve_highway", "road _ _ road"),
                     (2, 4, "straight_highway", ROAD_NS), (1, 4, "curve_highway", "_ road road _"),
                     (1, 5, "curve_highway", "road _ _ road"), (0, 5, "straight_highway", ROAD_NS),
                     (5, 6, "straight_railway", RAIL_EW), (5, 5, "straight_railway", RAIL_EW),
                     (5, 4, "curve_railway", "_ rail rail _"), (6, 4, "curve_railway", "rail _ _ rail"),
                     (6, 3, "curve_railway", "_ rail rail _")],
                  total=31, exits=12, highway=11, railway=5, centre=4, errors=1)


def test_a_station_links_the_two_sides_of_an_overpass(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #             #
    #   0   . . . o . . .
    #             #
    #   1 L . . . o . . . L
    #             #
    #   2   . . S=o . . .
    #           | #
    #   3 R-o-o-o-X-o-o-o-R
    #             #
    #   4   . . . o . . .
    #             #
    #   5 L . . . o . . . L
    #             #
    #   6   . . . o . . .
    #             #
    #         R   L   R
    # The overpass board, but (3,2) is a highway T going north to a curve station at (2,2)
    # whose rail goes east into a rail T at (2,3) on column 3.
    # exits:   highway and railway are one network through the station: 4 exits, 12    12
    # highway: row 3, 7 spaces; the branch (2,2)-(3,2) ends at the station, and
    #          (2,2) (3,2) ... (3,6) is only 6                            7
    # railway: column 3, 7 spaces; (2,2) (2,3) ... (6,3) is only 6        7
    # centre:  (2,2) (2,3) (3,2) (3,3) (3,4) (4,3)                       6
    # errors:  the station's and the Ts' blank sides face empty spaces: no error  0
    # total:   12 + 7 + 7 + 6 = 32
    scoring.check(line([(3, c) for c in (0, 1, 4, 5, 6)], "straight_highway", ROAD_EW)
                  + line([(r, 3) for r in (0, 1, 4, 5, 6)], "straight_railway", RAIL_NS)
                  + [(3, 2, "t_highway", "road road _ road"), (3, 3, "overpass", "rail road rail road"),
                     (2, 3, "t_railway", "rail _ rail rail"), (2, 2, "curve_station", "_ rail road _")],
                  total=32, exits=12, highway=7, railway=7, centre=6, errors=0,
                  facts=["count(n for n in networks(board) where cell(3, 3) in n) == 1"])


def lattice():
    """Railways along rows 1 and 5 and down column 3, highways along row 3 and down columns 1
    and 5, every line from exit to exit, meeting on crosses and cross stations."""
    placements = []
    for r, sides, route in ((1, RAIL_EW, "straight_railway"), (3, ROAD_EW, "straight_highway"),
                            (5, RAIL_EW, "straight_railway")):
        placements += line([(r, c) for c in (0, 2, 4, 6)], route, sides)
    for c, sides, route in ((1, ROAD_NS, "straight_highway"), (3, RAIL_NS, "straight_railway"),
                            (5, ROAD_NS, "straight_highway")):
        placements += line([(r, c) for r in (0, 2, 4, 6)], route, sides)
    return placements + [
        (1, 1, "cross_station", "road rail road rail"), (1, 3, "cross_railway", "rail rail rail rail"),
        (1, 5, "cross_station", "road rail road rail"), (3, 1, "cross_highway", "road road road road"),
        (3, 3, "cross_station", "rail road rail road"), (3, 5, "cross_highway", "road road road road"),
        (5, 1, "cross_station", "road rail road rail"), (5, 3, "cross_railway", "rail rail rail rail"),
        (5, 5, "cross_station", "road rail road rail")]


def test_one_network_reaching_all_12_exits_scores_45(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #         |   #   |
    #   0   . o . o . o .
    #         |   #   |
    #   1 L=o=S=o=+=o=S=o=L
    #         |   #   |
    #   2   . o . o . o .
    #         |   #   |
    #   3 R-o-+-o-S-o-+-o-R
    #         |   #   |
    #   4   . o . o . o .
    #         |   #   |
    #   5 L=o=S=o=+=o=S=o=L
    #         |   #   |
    #   6   . o . o . o .
    #         |   #   |
    #         R   L   R
    # exits:   every line ends at an exit at both ends and the stations join road and rail:
    #          one network with all 12 exits: 45                          45
    # highway: row 3 and columns 1 and 5 make an H (no loop): the longest chain goes from an
    #          end of column 1 (3 joins to (3,1)), along row 3 to (3,5) (4 joins), to an end of
    #          column 5 (3 joins): 10 joins, 11 spaces                   11
    # railway: the same H turned over: rows 1 and 5 joined by column 3   11
    # centre:  (2,3) (3,2) (3,3) (3,4) (4,3); the four corners are empty  5
    # errors:  every end reaches an exit or a route                      0
    # total:   45 + 11 + 11 + 5 = 72
    scoring.check(lattice(), total=72, exits=45, highway=11, railway=11, centre=5, errors=0)


def test_one_network_reaching_11_exits_scores_40(scoring):
    #       0 1 2 3 4 5 6
    #         R   L   R
    #             #   |
    #   0   . . . o . o .
    #         *   #   |
    #   1 L=o=S=o=+=o=S=o=L
    #         |   #   |
    #   2   . o . o . o .
    #         |   #   |
    #   3 R-o-+-o-S-o-+-o-R
    #         |   #   |
    #   4   . o . o . o .
    #         |   #   |
    #   5 L=o=S=o=+=o=S=o=L
    #         |   #   |
    #   6   . o . o . o .
    #         |   #   |
    #         R   L   R
    # The board above without (0,1): the road exit above it is alone, and the north road end of
    # the cross station (1,1) faces the empty (0,1).
    # exits:   11 exits, 40; the lone exit 0                             40
    # highway: column 1 from (6,1) still gives 3 + 4 + 3 joins: 11       11
    # railway: unchanged                                                 11
    # centre:  unchanged                                                  5
    # errors:  the north end of (1,1)                                     1
    # total:   40 + 11 + 11 + 5 - 1 = 66
    scoring.check([p for p in lattice() if p[:2] != (0, 1)], total=66,
                  exits=40, highway=11, railway=11, centre=5, errors=1)


ORIENTATIONS = {
    # A straight looks the same turned a half turn and mirrored: along or across.
    "straight_highway": 2, "straight_railway": 2,
    # A curve in each of 4 corners; its mirror image is the curve of another corner.
    "curve_highway": 4, "curve_railway": 4,
    # A T with its blank side on each of 4 sides; mirrored across its stem it is unchanged.
    "t_highway": 4, "t_railway": 4,
    # The overpass: road north-south and rail east-west, or the other way round; a half turn or a
    # mirror image swaps each line's two ends, which are alike.
    "overpass": 2,
    # Road on one of 4 sides, rail opposite; the mirror image (road east, rail west becomes road
    # west, rail east) is the half turn.
    "straight_station": 4,
    # Road and rail on two adjacent sides: the rail is either the next side clockwise from the
    # road or the next anticlockwise, and no turn changes which; a mirror image does (it is
    # chiral): 4 turns x 2 mirror images.
    "curve_station": 8,
    # All four sides alike.
    "cross_highway": 1, "cross_railway": 1,
    # The odd side (rail among 3 roads, road among 3 rails) on each of 4 sides; mirrored across
    # the line through it, it is unchanged.
    "highway_station": 4, "railway_station": 4,
    # Two roads on adjacent sides, two rails on the others: the pair of roads is at one of 4
    # corners; mirrored across the diagonal between the pairs it is unchanged.
    "corner_station": 4,
    # Roads opposite, rails opposite: roads north-south or east-west.
    "cross_station": 2,
    # An exit piece: its one side facing each of the 4 directions.
    "road_exit": 4, "rail_exit": 4,
}


def test_each_route_has_the_orientations_counted_by_hand(scoring):
    comp, ck = scoring.game.compiler, scoring.game.checker
    dice_and_specials = {t.name for k in ("all_routes", "specials") for t in comp.const_value(ck.globals[k])}
    assert dice_and_specials <= set(ORIENTATIONS)
    counted = {name: len(scoring.route(name).orientations()) for name in ORIENTATIONS}
    assert counted == ORIENTATIONS
    sides = {name: {tuple(t.labels) for t in scoring.route(name).orientations()} for name in ORIENTATIONS}
    # distinct orientations differ in their sides (with the overpass and the stations alike)
    assert {name: len(s) for name, s in sides.items()} == ORIENTATIONS


def with_fields(game, s, **values):
    """s with some state fields replaced (what follows the fields is kept)."""
    s = list(s)
    for name, v in values.items():
        s[game.field_names.index(name)] = v
    return tuple(s)


def test_the_outlook_heuristic_adds_what_its_comment_says_and_is_the_score_in_the_last_round(scoring):
    g = scoring.game
    # The highway T of the board above: score -1, 3 loose ends, no network reaching two exits.
    # outlook = 7 * score + left * loose + (before round 7) 7 * joins + (4 + left // 2) * loose
    #           + (12 - 4 * left) * specials drawn - left * networks of routes reaching one exit,
    #           with left = 7 - round
    t = scoring.state([(3, 3, "t_highway", "_ road road road")])
    # round 1: -7 + 6 * 3 + 0 + (4 + 3) * 3 = 32; round 5: -7 + 2 * 3 + (4 + 1) * 3 = 14
    assert g.evaluate(with_fields(g, t, round=1), "outlook", 0) == 32
    assert g.evaluate(with_fields(g, t, round=5), "outlook", 0) == 14
    # round 7: the score times 7
    assert g.evaluate(with_fields(g, t, round=7), "outlook", 0) == -7
    # The cross station board: score 31, no loose end, one network of 4 exits (3 joins), and the
    # cross station counted as a special drawn in round 2.
    # round 2: 7 * 31 + 0 + 7 * 3 + 0 + (12 - 4 * 5) * 1 = 217 + 21 - 8 = 230
    cross = scoring.state(crossing("cross_station"))
    used = cross[g.field_names.index("used")].set(scoring.route("cross_station"), 2)
    assert g.evaluate(with_fields(g, cross, round=2, used=used), "outlook", 0) == 230
    # round 6: 217 + 21 + (12 - 4 * 1) * 1 = 246; round 7: 217
    assert g.evaluate(with_fields(g, cross, round=6, used=used), "outlook", 0) == 246
    assert g.evaluate(with_fields(g, cross, round=7, used=used), "outlook", 0) == 217
    # A straight highway under the road exit above (0, 1): one network of a route and one exit.
    # Score: no exit points (one exit), highway 1 (a tile, no join), its south end open: 0.
    # round 1: 0 + 6 * 1 + 0 + (4 + 3) * 1 - 6 * 1 = 7, and 13 without the charge; round 5:
    # 2 * 1 + (4 + 1) * 1 - 2 = 5; round 7: 0
    lone = scoring.state([(0, 1, "straight_highway", "road _ road _")])
    assert g.evaluate(with_fields(g, lone, round=1), "outlook", 0) == 7
    assert g.evaluate(with_fields(g, lone, round=1), "outlook_uncharged", 0) == 13
    assert g.evaluate(with_fields(g, lone, round=5), "outlook", 0) == 5
    assert g.evaluate(with_fields(g, lone, round=7), "outlook", 0) == 0
