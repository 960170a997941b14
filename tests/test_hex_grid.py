"""`engine.runtime.HexGrid`: neighbours on the Scythe board checked against reference data typed
from the Scythe data file, symmetry of neighbours, straight lines counted by hand on a small
even-r block, and a small odd-r grid worked out by hand.

Every coordinate in this file is written (col, row) -- col first, the convention of the Scythe
data file -- and turned into the engine's row-first `Cell((row, col))` only by `cell()` below.
"""

from engine.runtime import Cell, HexGrid, components

CLOCKWISE = ["NE", "E", "SE", "SW", "W", "NW"]

# ---------------------------------------------------------------------------------------------
# Typed from scythe.md section 6e ("Compact machine-readable transcription"): all 54 cells of the
# board, 47 territories + 7 home bases, (col, row) -> type. Even rows are shifted right (even-r).
SCYTHE_CELLS = {
    (1, 0): "home_albion", (4, 0): "home_nordic",
    (1, 1): "mountain", (2, 1): "farm", (3, 1): "village", (4, 1): "forest", (5, 1): "tundra",
    (6, 1): "village",
    (0, 2): "lake", (1, 2): "tundra", (2, 2): "lake", (3, 2): "tundra", (4, 2): "mountain",
    (5, 2): "farm", (6, 2): "farm",
    (0, 3): "home_polania", (1, 3): "forest", (2, 3): "mountain", (3, 3): "forest", (4, 3): "lake",
    (5, 3): "forest", (6, 3): "village", (7, 3): "home_rusviet",
    (0, 4): "farm", (1, 4): "village", (2, 4): "lake", (3, 4): "factory", (4, 4): "mountain",
    (5, 4): "tundra", (6, 4): "mountain",
    (0, 5): "forest", (1, 5): "forest", (2, 5): "farm", (3, 5): "tundra", (4, 5): "lake",
    (5, 5): "village", (6, 5): "lake",
    (0, 6): "mountain", (1, 6): "village", (2, 6): "village", (3, 6): "tundra", (4, 6): "forest",
    (5, 6): "mountain", (6, 6): "tundra",
    (0, 7): "home_saxony", (1, 7): "tundra", (2, 7): "lake", (3, 7): "farm", (4, 7): "mountain",
    (5, 7): "village", (6, 7): "farm", (7, 7): "home_togawa",
    (2, 8): "home_crimea", (3, 8): "village",
}

# Home bases, (col, row): typed from scythe.md section 6e (the `home_<faction>` lines); used to
# resolve the `home:<Faction>` entries of the 6c neighbour column.
HOME = {
    "Albion": (1, 0), "Nordic": (4, 0), "Polania": (0, 3), "Rusviet": (7, 3),
    "Saxony": (0, 7), "Togawa": (7, 7), "Crimea": (2, 8),
}

# Typed from scythe.md section 6c ("Full hex table"), column "all on-board neighbours
# (dir:col,row)", one entry per territory, directions in the order the data file lists them.
SCYTHE_NEIGHBOURS = {
    (1, 1): {"NE": "home:Albion", "E": (2, 1), "SE": (1, 2), "SW": (0, 2)},
    (2, 1): {"NW": "home:Albion", "E": (3, 1), "SE": (2, 2), "SW": (1, 2), "W": (1, 1)},
    (3, 1): {"E": (4, 1), "SE": (3, 2), "SW": (2, 2), "W": (2, 1)},
    (4, 1): {"NE": "home:Nordic", "E": (5, 1), "SE": (4, 2), "SW": (3, 2), "W": (3, 1)},
    (5, 1): {"NW": "home:Nordic", "E": (6, 1), "SE": (5, 2), "SW": (4, 2), "W": (4, 1)},
    (6, 1): {"SE": (6, 2), "SW": (5, 2), "W": (5, 1)},
    (0, 2): {"NE": (1, 1), "E": (1, 2), "SE": (1, 3), "SW": "home:Polania"},
    (1, 2): {"NW": (1, 1), "NE": (2, 1), "E": (2, 2), "SE": (2, 3), "SW": (1, 3), "W": (0, 2)},
    (2, 2): {"NW": (2, 1), "NE": (3, 1), "E": (3, 2), "SE": (3, 3), "SW": (2, 3), "W": (1, 2)},
    (3, 2): {"NW": (3, 1), "NE": (4, 1), "E": (4, 2), "SE": (4, 3), "SW": (3, 3), "W": (2, 2)},
    (4, 2): {"NW": (4, 1), "NE": (5, 1), "E": (5, 2), "SE": (5, 3), "SW": (4, 3), "W": (3, 2)},
    (5, 2): {"NW": (5, 1), "NE": (6, 1), "E": (6, 2), "SE": (6, 3), "SW": (5, 3), "W": (4, 2)},
    (6, 2): {"NW": (6, 1), "SE": "home:Rusviet", "SW": (6, 3), "W": (5, 2)},
    (1, 3): {"NW": (0, 2), "NE": (1, 2), "E": (2, 3), "SE": (1, 4), "SW": (0, 4),
             "W": "home:Polania"},
    (2, 3): {"NW": (1, 2), "NE": (2, 2), "E": (3, 3), "SE": (2, 4), "SW": (1, 4), "W": (1, 3)},
    (3, 3): {"NW": (2, 2), "NE": (3, 2), "E": (4, 3), "SE": (3, 4), "SW": (2, 4), "W": (2, 3)},
    (4, 3): {"NW": (3, 2), "NE": (4, 2), "E": (5, 3), "SE": (4, 4), "SW": (3, 4), "W": (3, 3)},
    (5, 3): {"NW": (4, 2), "NE": (5, 2), "E": (6, 3), "SE": (5, 4), "SW": (4, 4), "W": (4, 3)},
    (6, 3): {"NW": (5, 2), "NE": (6, 2), "E": "home:Rusviet", "SE": (6, 4), "SW": (5, 4),
             "W": (5, 3)},
    (0, 4): {"NW": "home:Polania", "NE": (1, 3), "E": (1, 4), "SE": (1, 5), "SW": (0, 5)},
    (1, 4): {"NW": (1, 3), "NE": (2, 3), "E": (2, 4), "SE": (2, 5), "SW": (1, 5), "W": (0, 4)},
    (2, 4): {"NW": (2, 3), "NE": (3, 3), "E": (3, 4), "SE": (3, 5), "SW": (2, 5), "W": (1, 4)},
    (3, 4): {"NW": (3, 3), "NE": (4, 3), "E": (4, 4), "SE": (4, 5), "SW": (3, 5), "W": (2, 4)},
    (4, 4): {"NW": (4, 3), "NE": (5, 3), "E": (5, 4), "SE": (5, 5), "SW": (4, 5), "W": (3, 4)},
    (5, 4): {"NW": (5, 3), "NE": (6, 3), "E": (6, 4), "SE": (6, 5), "SW": (5, 5), "W": (4, 4)},
    (6, 4): {"NW": (6, 3), "NE": "home:Rusviet", "SW": (6, 5), "W": (5, 4)},
    (0, 5): {"NE": (0, 4), "E": (1, 5), "SE": (0, 6)},
    (1, 5): {"NW": (0, 4), "NE": (1, 4), "E": (2, 5), "SE": (1, 6), "SW": (0, 6), "W": (0, 5)},
    (2, 5): {"NW": (1, 4), "NE": (2, 4), "E": (3, 5), "SE": (2, 6), "SW": (1, 6), "W": (1, 5)},
    (3, 5): {"NW": (2, 4), "NE": (3, 4), "E": (4, 5), "SE": (3, 6), "SW": (2, 6), "W": (2, 5)},
    (4, 5): {"NW": (3, 4), "NE": (4, 4), "E": (5, 5), "SE": (4, 6), "SW": (3, 6), "W": (3, 5)},
    (5, 5): {"NW": (4, 4), "NE": (5, 4), "E": (6, 5), "SE": (5, 6), "SW": (4, 6), "W": (4, 5)},
    (6, 5): {"NW": (5, 4), "NE": (6, 4), "SE": (6, 6), "SW": (5, 6), "W": (5, 5)},
    (0, 6): {"NW": (0, 5), "NE": (1, 5), "E": (1, 6), "SE": (1, 7), "SW": "home:Saxony"},
    (1, 6): {"NW": (1, 5), "NE": (2, 5), "E": (2, 6), "SE": (2, 7), "SW": (1, 7), "W": (0, 6)},
    (2, 6): {"NW": (2, 5), "NE": (3, 5), "E": (3, 6), "SE": (3, 7), "SW": (2, 7), "W": (1, 6)},
    (3, 6): {"NW": (3, 5), "NE": (4, 5), "E": (4, 6), "SE": (4, 7), "SW": (3, 7), "W": (2, 6)},
    (4, 6): {"NW": (4, 5), "NE": (5, 5), "E": (5, 6), "SE": (5, 7), "SW": (4, 7), "W": (3, 6)},
    (5, 6): {"NW": (5, 5), "NE": (6, 5), "E": (6, 6), "SE": (6, 7), "SW": (5, 7), "W": (4, 6)},
    (6, 6): {"NW": (6, 5), "SE": "home:Togawa", "SW": (6, 7), "W": (5, 6)},
    (1, 7): {"NW": (0, 6), "NE": (1, 6), "E": (2, 7), "W": "home:Saxony"},
    (2, 7): {"NW": (1, 6), "NE": (2, 6), "E": (3, 7), "SE": "home:Crimea", "W": (1, 7)},
    (3, 7): {"NW": (2, 6), "NE": (3, 6), "E": (4, 7), "SE": (3, 8), "SW": "home:Crimea",
             "W": (2, 7)},
    (4, 7): {"NW": (3, 6), "NE": (4, 6), "E": (5, 7), "SW": (3, 8), "W": (3, 7)},
    (5, 7): {"NW": (4, 6), "NE": (5, 6), "E": (6, 7), "W": (4, 7)},
    (6, 7): {"NW": (5, 6), "NE": (6, 6), "E": "home:Togawa", "W": (5, 7)},
    (3, 8): {"NW": (3, 7), "NE": (4, 7), "W": "home:Crimea"},
}


# ---------------------------------------------------------------------------------------------
def cell(col, row):
    """The engine's cell for data-file coordinates (col, row): the engine's Cell is row first."""
    return Cell((row, col))


def resolve(entry):
    """A neighbour entry of the 6c table as a cell: (col, row), or "home:<Faction>"."""
    if isinstance(entry, str):
        return cell(*HOME[entry.removeprefix("home:")])
    return cell(*entry)


def grid(coords, layout):
    """A HexGrid of the given (col, row) coordinates."""
    return HexGrid([cell(c, r) for c, r in coords], layout)


def is_subsequence(items, of):
    """Whether items appear in `of` in the same relative order."""
    rest = iter(of)
    return all(x in rest for x in items)


def normal(run):
    """A run as a direction-free key: the smaller of it and its reverse."""
    return min(tuple(run), tuple(reversed(run)))


def runs(*runs_col_row):
    """Hand-written runs of (col, row) coordinates as a set of direction-free cell runs."""
    return {normal([cell(c, r) for c, r in run]) for run in runs_col_row}


SCYTHE = grid(SCYTHE_CELLS, "even-r")


# --- the Scythe board (expected values typed from scythe.md section 6) -------------------------
def test_scythe_tables_have_the_right_size():
    """The typed tables themselves: 54 cells, 47 territories, 7 home bases (scythe.md 6b/6e)."""
    assert len(SCYTHE_CELLS) == 54
    assert len(SCYTHE_NEIGHBOURS) == 47
    homes = {xy for xy, kind in SCYTHE_CELLS.items() if kind.startswith("home_")}
    assert homes == set(HOME.values())
    assert set(SCYTHE_NEIGHBOURS) == set(SCYTHE_CELLS) - homes


def test_scythe_grid_contains_exactly_the_board_cells():
    """contains() holds for the 54 cells of 6e and not for the empty spots of the 6b picture or
    off-board coordinates."""
    assert len(SCYTHE.cells) == 54
    for xy in SCYTHE_CELLS:
        assert SCYTHE.contains(cell(*xy)), xy
    # (col, row) spots drawn as "." in 6b, and coordinates off the 8 x 9 board
    for xy in [(0, 0), (2, 0), (7, 0), (0, 1), (7, 1), (7, 2), (7, 4), (7, 5), (7, 6), (0, 8),
               (4, 8), (7, 8), (-1, 4), (8, 3), (3, -1), (3, 9)]:
        assert not SCYTHE.contains(cell(*xy)), xy


def test_scythe_neighbours_match_the_data_file():
    """For each of the 47 territories the set of neighbours equals the 6c column
    "all on-board neighbours" (home bases included)."""
    for xy, expected in SCYTHE_NEIGHBOURS.items():
        got = set(SCYTHE.neighbours(cell(*xy)))
        assert got == {resolve(e) for e in expected.values()}, xy


def test_scythe_neighbours_are_clockwise_from_the_north_east():
    """The order of neighbours() is NE, E, SE, SW, W, NW: the 6c direction labels of the cells, in
    the order the grid returns them, are a subsequence of that list."""
    for xy, expected in SCYTHE_NEIGHBOURS.items():
        label = {resolve(e): d for d, e in expected.items()}
        order = [label[n] for n in SCYTHE.neighbours(cell(*xy))]
        assert is_subsequence(order, CLOCKWISE), (xy, order)


def test_scythe_neighbours_are_symmetric():
    """b is a neighbour of a iff a is a neighbour of b, for all 54 cells (home bases included);
    a property of any hex grid, independent of the typed tables."""
    for a in SCYTHE.cells:
        for b in SCYTHE.cells:
            assert (b in SCYTHE.neighbours(a)) == (a in SCYTHE.neighbours(b)), (a, b)


def test_scythe_factory_has_six_neighbours():
    """The Factory (3,4) is surrounded by six territories (scythe.md 6a/6c), in the order
    NE, E, SE, SW, W, NW."""
    assert SCYTHE.neighbours(cell(3, 4)) == tuple(
        cell(*xy) for xy in [(4, 3), (4, 4), (4, 5), (3, 5), (2, 4), (3, 3)])


# --- lines on a small even-r block, worked out by hand -----------------------------------------
# A 3 x 3 even-r block, cells written (col, row); even rows are shifted half a hex right. With
# hexes 2 units wide, a cell's centre is at x = 2*col + 1 on even rows and x = 2*col on odd rows:
#
#   row 0:     (0,0)   (1,0)   (2,0)          x = 1, 3, 5
#   row 1: (0,1)   (1,1)   (2,1)              x = 0, 2, 4
#   row 2:     (0,2)   (1,2)   (2,2)          x = 1, 3, 5
#
# The three axes: E-W (same row), down-right (SE, x + 1 per row), down-left (SW, x - 1 per row).
#   E-W:  three rows of 3            -> runs of 2: 3 * 2 = 6,  runs of 3: 3
#   SE:   (0,0) (1,1) (1,2)          x 1 -> 2 -> 3    length 3
#         (1,0) (2,1) (2,2)          x 3 -> 4 -> 5    length 3
#         (0,1) (0,2)                x 0 -> 1         length 2   (nothing above x = -1)
#         (2,0)                      x 5 -> 6 is off  length 1
#                                    -> runs of 2: 2 + 2 + 1 = 5,  runs of 3: 2
#   SW:   (1,0) (1,1) (0,2)          x 3 -> 2 -> 1    length 3
#         (2,0) (2,1) (1,2)          x 5 -> 4 -> 3    length 3
#         (0,0) (0,1)                x 1 -> 0         length 2   (x = -1 below is off)
#         (2,2)                      x 5, nothing at x = 6 above   length 1
#                                    -> runs of 2: 2 + 2 + 1 = 5,  runs of 3: 2
# Total: 16 runs of 2 (= the number of adjacent pairs: degrees 3+4+2 + 3+6+5 + 2+4+3 = 32, / 2),
# 7 runs of 3, and no run of 4 or more (the longest chain has 3 hexes).
BLOCK = [(c, r) for r in range(3) for c in range(3)]


def test_lines_counts_on_a_3x3_even_r_block():
    """lines(2) and lines(3) on the hand-drawn 3 x 3 even-r block: 16 runs of 2, 7 of 3."""
    g = grid(BLOCK, "even-r")
    assert len(g.lines(2)) == 16
    assert len(g.lines(3)) == 7


def test_lines_of_one_are_the_single_hexes_once():
    """A run of 1 is a single hex, and each run is listed once: 9 runs on the 3 x 3 block."""
    g = grid(BLOCK, "even-r")
    assert sorted(g.lines(1)) == [(cell(c, r),) for c, r in sorted(BLOCK, key=lambda xy: xy[::-1])]


def test_lines_are_each_listed_once():
    """No run comes back twice, not even reversed (hand drawing above: each line once)."""
    g = grid(BLOCK, "even-r")
    for k in (2, 3):
        got = g.lines(k)
        assert len({normal(run) for run in got}) == len(got), k


def test_lines_of_three_on_a_3x3_even_r_block():
    """The 7 runs of 3, as worked out in the drawing above (either direction accepted)."""
    g = grid(BLOCK, "even-r")
    expected = runs(
        [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],   # E-W
        [(0, 0), (1, 1), (1, 2)], [(1, 0), (2, 1), (2, 2)],                            # SE
        [(1, 0), (1, 1), (0, 2)], [(2, 0), (2, 1), (1, 2)],                            # SW
    )
    assert {normal(run) for run in g.lines(3)} == expected


def test_lines_of_two_include_the_short_diagonals():
    """Short diagonal pairs from the drawing are runs of 2: (0,1)-(0,2) (SE), (0,0)-(0,1) and
    (2,0)-(2,1) (SW); (0,0) and (0,2), two rows apart, are not."""
    g = grid(BLOCK, "even-r")
    two = {normal(run) for run in g.lines(2)}
    assert runs([(0, 1), (0, 2)], [(0, 0), (0, 1)], [(2, 0), (2, 1)]) <= two
    assert normal([cell(0, 0), cell(0, 2)]) not in two


def test_lines_longer_than_the_grid_are_empty():
    """No straight run of 4 (or 10) hexes fits in the 3 x 3 block, nor of 10 on the Scythe board
    (9 rows, at most 7 cells in a row of 6c)."""
    g = grid(BLOCK, "even-r")
    assert g.lines(4) == ()
    assert g.lines(10) == ()
    assert SCYTHE.lines(10) == ()


# --- odd-r, worked out by hand -----------------------------------------------------------------
# The same 3 x 3 block, but odd rows shifted right ("odd-r"):
#
#   row 0: (0,0)   (1,0)   (2,0)
#   row 1:     (0,1)   (1,1)   (2,1)
#   row 2: (0,2)   (1,2)   (2,2)
#
# r odd:  NW (c,r-1)   NE (c+1,r-1) W (c-1,r) E (c+1,r) SW (c,r+1)   SE (c+1,r+1)
# r even: NW (c-1,r-1) NE (c,r-1)   W (c-1,r) E (c+1,r) SW (c-1,r+1) SE (c,r+1)


def test_odd_r_neighbours_worked_by_hand():
    """Neighbours in odd-r from the rules above, in the order NE, E, SE, SW, W, NW."""
    g = grid(BLOCK, "odd-r")
    # (1,1), r odd: NE (2,0), E (2,1), SE (2,2), SW (1,2), W (0,1), NW (1,0) -- all six inside
    assert g.neighbours(cell(1, 1)) == tuple(
        cell(*xy) for xy in [(2, 0), (2, 1), (2, 2), (1, 2), (0, 1), (1, 0)])
    # (2,1), r odd: NE (3,0) off, E (3,1) off, SE (3,2) off, SW (2,2), W (1,1), NW (2,0)
    assert g.neighbours(cell(2, 1)) == (cell(2, 2), cell(1, 1), cell(2, 0))
    # (0,0), r even: NE (0,-1) off, E (1,0), SE (0,1), SW (-1,1) off, W off, NW off
    assert g.neighbours(cell(0, 0)) == (cell(1, 0), cell(0, 1))


def test_layout_changes_the_neighbours():
    """The same cells in even-r: (2,1), r odd, has NE (2,0), SE (2,2), SW (1,2), W (1,1),
    NW (1,0) (6a rule for odd rows) -- five neighbours, not the three of odd-r."""
    g = grid(BLOCK, "even-r")
    assert g.neighbours(cell(2, 1)) == (cell(2, 0), cell(2, 2), cell(1, 2), cell(1, 1), cell(1, 0))


def test_the_seven_lakes_of_the_scythe_board_are_seven_components():
    # the 6c table lists no lake among a lake's neighbours, so no two lakes touch: each is a
    # component of its own, in row order (the engine's cells are row first)
    lakes = [xy for xy, kind in SCYTHE_CELLS.items() if kind == "lake"]
    assert not any(SCYTHE_CELLS.get(resolve(n)[::-1]) == "lake"
                   for xy in lakes for n in SCYTHE_NEIGHBOURS[xy].values())
    board = grid(SCYTHE_CELLS, "even-r")
    in_rows = sorted(cell(*xy) for xy in lakes)
    assert components(board, [cell(*xy) for xy in lakes]) == tuple(frozenset({c}) for c in in_rows)
    land = [cell(*xy) for xy, kind in SCYTHE_CELLS.items() if kind not in ("lake",) and not kind.startswith("home")]
    assert len(land) == 47 - 7 and len(components(board, land)) == 1  # the land is one piece


# --- axial, worked out by hand: the 3 x 3 rhombus of a Hex board -------------------------------
# Each row is shifted half a hex right of the one above:
#
#   row 0: (0,0) (1,0) (2,0)
#   row 1:    (0,1) (1,1) (2,1)
#   row 2:       (0,2) (1,2) (2,2)
#
# Hex's rule (row r, col c touches (r, c-1), (r, c+1), (r-1, c), (r+1, c), (r-1, c+1), (r+1, c-1)),
# written (col, row): NE (c+1,r-1) E (c+1,r) SE (c,r+1) SW (c-1,r+1) W (c-1,r) NW (c,r-1)


def test_axial_neighbours_are_those_of_a_hex_board_worked_by_hand():
    g = grid(BLOCK, "axial")
    assert g.neighbours(cell(1, 1)) == tuple(
        cell(*xy) for xy in [(2, 0), (2, 1), (1, 2), (0, 2), (0, 1), (1, 0)])
    # the acute corners touch two cells, the obtuse ones three
    assert g.neighbours(cell(0, 0)) == (cell(1, 0), cell(0, 1))
    assert g.neighbours(cell(2, 2)) == (cell(1, 2), cell(2, 1))  # W, NW
    assert g.neighbours(cell(2, 0)) == (cell(2, 1), cell(1, 1), cell(1, 0))  # SE, SW, W
    assert g.neighbours(cell(0, 2)) == (cell(1, 1), cell(1, 2), cell(0, 1))  # NE, E, NW


def test_the_short_diagonal_of_an_axial_rhombus_is_one_chain_and_the_long_one_is_not():
    g = grid(BLOCK, "axial")
    assert len(components(g, [cell(2, 0), cell(1, 1), cell(0, 2)])) == 1
    assert len(components(g, [cell(0, 0), cell(1, 1), cell(2, 2)])) == 3
