"""`graph(edges)` and the built-ins on it: against networkx on random graphs, in a small game counted
by hand, and its mistakes reported where they are."""
import random

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from engine import RuleErrors, RuleRuntimeError, load_game
from engine.runtime import Graph, components, to_json
from search.solve import solve

EDGES = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=20)


@settings(max_examples=200, deadline=None)
@given(EDGES, st.integers(0, 9), st.integers(0, 9), st.sets(st.integers(0, 9)), st.sets(st.integers(0, 12)))
def test_nodes_neighbours_distance_and_components_agree_with_networkx(edges, a, b, some, lone):
    g, ref = Graph(edges, lone), nx.Graph()
    ref.add_nodes_from(lone)  # nodes given besides the edges', with an edge or not
    ref.add_edges_from(edges)
    ref.remove_edges_from(nx.selfloop_edges(ref))  # an edge from a node to itself joins it to nothing
    assert list(g.nodes) == sorted(ref.nodes)
    for x in ref.nodes:
        assert list(g.neighbours(x)) == sorted(ref.neighbors(x))
    if a in ref and b in ref and nx.has_path(ref, a, b):
        assert g.distance(a, b) == nx.shortest_path_length(ref, a, b)
    else:
        assert g.distance(a, b) is None
    inside = some & set(ref.nodes)
    assert set(components(g, some)) == {frozenset(c) for c in nx.connected_components(ref.subgraph(inside))}


def test_an_edge_written_as_a_set_joins_the_same_nodes_as_a_pair():
    pairs = [(3, 1), (1, 2)]
    assert Graph(pairs) == Graph([frozenset(p) for p in pairs])
    assert Graph(pairs).nodes == (1, 2, 3) and Graph(pairs).neighbours(1) == (2, 3)


TRAVEL = """game "Travel"
    source "a test game: walk along roads between towns"
enum Town { ash, birch, cedar, dale, elm, fir }
const roads: graph<Town> = graph([(ash, birch), (birch, cedar), (cedar, dale), (ash, cedar), (elm, fir)])
const rivers = graph({{ash, dale}, {dale, elm}})
state { at: Town = ash  steps: 0..3 = 0 }
action walk "to {to}" {
    choose to in neighbours(roads, at)
    at = to
    steps += 1
}
turn { walk }
terminal steps == 3
score SCORE
"""


def travel(tmp_path, score="distance(roads, ash, at) + len(components(roads, nodes(roads))) "
                           "+ len(neighbours(rivers, dale))"):
    path = tmp_path / "travel.rules"
    path.write_text(TRAVEL.replace("SCORE", score), encoding="utf-8")
    return load_game(str(path))


def test_a_walk_along_the_roads_of_a_graph_counted_by_hand(tmp_path):
    sol = solve(travel(tmp_path))
    # from ash: birch or cedar (2); then birch: ash, cedar; cedar: ash, birch, dale (5); then 10
    assert sol.paths_per_depth == [1, 2, 5, 10]
    # dale is 2 roads from ash; the roads make 2 groups (ash to dale, elm and fir); dale has 2 rivers
    assert sol.value == (2 + 2 + 2,)
    assert [m.label for m, _ in sol.best_line] == ["to birch", "to cedar", "to dale"]


EDGE_LISTS = "graph() needs a list or set of edges, each a pair (a, b) or a set {a, b} of nodes of one type, got "


@pytest.mark.parametrize("score, at, message, hint", [
    ('distance(roads, ash, "elm")', '"elm"', "distance() on a graph<Town> needs a Town, got str",
     "elm is a value of Town: write it without quotes"),
    ("len(neighbours(roads, cell(0, 0)))", "cell(0, 0)", "neighbours() on a graph<Town> needs a Town, got cell",
     None),
    ("len(cells(roads))", "roads", "cells() needs a grid, got graph<Town>", "nodes(g) gives the nodes of a graph"),
    ("len(nodes(square_grid(2, 2)))", "square_grid", "nodes() needs a graph, got grid",
     "cells(g) gives the cells of a grid"),
    ("len(nodes(graph([1, 2])))", "[1, 2]", EDGE_LISTS + "list<int>", None),
    ("len(nodes(graph([(ash, 1)])))", "[(ash, 1)]", EDGE_LISTS + "list<(Town, int)>", None),
    ("len(nodes(graph([(ash, birch)], [1])))", "[1]",
     "graph() needs a collection of nodes second, of the edges' type Town, got list<int>", None),
])
def test_a_graph_used_wrongly_is_an_error_at_the_argument(tmp_path, score, at, message, hint):
    with pytest.raises(RuleErrors) as info:
        travel(tmp_path, score)
    [d] = info.value.diagnostics
    assert (d.code, d.message, d.hint) == ("type-mismatch", message, hint)
    assert (d.span.line, d.span.col) == (14, len("score ") + score.index(at) + 1)  # the score line, by hand


def load_errors(tmp_path, old: str, new: str) -> list:
    """The diagnostics of loading TRAVEL (scored 0) with `old` written as `new`."""
    path = tmp_path / "changed.rules"
    path.write_text(TRAVEL.replace(old, new).replace("SCORE", "0"), encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        load_game(str(path))
    return info.value.diagnostics


def test_a_graph_declared_of_one_node_type_refuses_another(tmp_path):
    d = load_errors(tmp_path, "const roads: graph<Town>", "const roads: graph<int>")[0]
    assert d.message == "'roads' is declared graph<int>, got graph<Town>"


@pytest.mark.parametrize("score, message, hint", [
    ("distance(roads, at, elm)", "no path from ash to elm",
     "components(g, nodes(g)) gives the groups of nodes that paths join"),
    ("distance(rivers, at, ash)", "birch is not a node of the graph", "nodes(g) gives the nodes of the graph"),
])
def test_a_distance_without_a_path_is_a_runtime_error_with_a_hint(tmp_path, score, message, hint):
    game = travel(tmp_path, score)
    s = game.initial_state()
    if "rivers" in score:
        s = game.apply(s, next(m for m in game.legal_moves(s) if m.label == "to birch"))
    with pytest.raises(RuleRuntimeError) as info:
        game.returns(s)
    assert (info.value.message, info.value.hint) == (message, hint)


def test_an_edge_of_one_node_is_an_error_where_the_graph_is_made(tmp_path):
    [d] = load_errors(tmp_path, "{{ash, dale}, {dale, elm}}", "{{ash, dale}, {elm}}")
    assert (d.code, d.message) == ("runtime", "an edge joins two nodes, got {elm} (while setting up the game)")
    assert (d.span.line, d.span.col) == (5, len("const rivers = ") + 1)  # the rivers line, by hand
    [d] = load_errors(tmp_path, "{{ash, dale}, {dale, elm}}", "[(ash, dale), (elm, elm)]")
    assert (d.code, d.message) == ("runtime", "an edge joins two different nodes, got (elm, elm) (while setting up "
                                              "the game)")  # as {elm} is: no edge is dropped unseen
    assert d.hint == "a graph has no edge from a node to itself; graph(edges, nodes) adds nodes with no edges"


def test_neighbours_of_a_grid_and_of_the_graph_of_its_edges_agree():
    # the edges of a 3 x 4 grid, each space to the one right of it and below it, by hand
    from engine.runtime import Cell, Grid
    grid = Grid(3, 4)
    edges = [(Cell((r, c)), Cell((r, c + 1))) for r in range(3) for c in range(3)] + \
            [(Cell((r, c)), Cell((r + 1, c))) for r in range(2) for c in range(4)]
    random.Random(1).shuffle(edges)
    g = Graph(edges)
    for cell in grid.cells:
        assert set(g.neighbours(cell)) == set(grid.neighbours(cell))
    assert g.distance(Cell((0, 0)), Cell((2, 3))) == 2 + 3


def test_a_graph_in_json_is_its_edges_each_once_in_order():
    assert to_json(Graph([(3, 1), (1, 2), (2, 1), (4, 4)])) == [[1, 2], [1, 3]]
