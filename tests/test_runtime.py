"""Runtime values behave like their mathematical counterparts (bags are multisets)."""
import pytest
import pickle
from collections import Counter
from itertools import count

from hypothesis import given
from hypothesis import strategies as st

from engine import runtime
from engine.runtime import Bag, Cell, FrozenMap, Grid, combos, components, number_text, pairs, sub_bags, up_to

small = st.lists(st.integers(0, 6), max_size=8)


@given(small, small)
def test_bag_union_and_difference_match_counter(a, b):
    assert Counter(Bag(a).union(Bag(b))) == Counter(a) + Counter(b)
    assert Counter(Bag(a).difference(Bag(b))) == Counter(a) - Counter(b)


@given(small, st.integers(0, 6))
def test_bag_add_remove_and_count_match_counter(a, x):
    bag = Bag(a)
    assert bag.count(x) == a.count(x)
    assert Counter(bag.add(x)) == Counter(a) + Counter([x])
    removed = bag.remove(x)
    if x in a:
        assert Counter(removed) == Counter(a) - Counter([x])
    else:
        assert removed is None


@given(small)
def test_equal_bags_hash_equal_whatever_the_order(a):
    assert Bag(a) == Bag(reversed(a))
    assert hash(Bag(a)) == hash(Bag(list(reversed(a))))


@given(small, st.integers(-1, 9))
def test_selections_counts_what_each_built_in_makes_without_making_it(a, k):
    # the counts checked against the length of what the built-ins make, on small inputs
    assert runtime.selections("pairs", a) == len(pairs(a))
    assert runtime.selections("sub_bags", a) == len(sub_bags(a))
    assert runtime.selections("up_to", a, k) == len(up_to(k, a))
    assert runtime.selections("combinations", a, k) == len(combos(k, a))


@given(st.dictionaries(st.integers(0, 6), st.integers()), st.integers(0, 8))
def test_a_map_without_a_key_is_the_dict_with_the_key_deleted_and_the_map_itself_unchanged(entries, k):
    m = FrozenMap(entries)
    expected = {key: v for key, v in entries.items() if key != k}
    assert m.without(k) == expected and hash(m.without(k)) == hash(FrozenMap(expected))
    assert m == entries  # no map changes: a new one is made


def test_pairs_are_by_position_so_equal_elements_pair_twice():
    assert pairs([5, 5, 7]) == ((5, 5), (5, 7), (5, 7))


def test_up_to_two_of_three_distinct_items():
    assert len(up_to(2, "abc")) == 1 + 3 + 3


def test_combinations_are_by_position_and_count_n_choose_k():
    # by hand: C(5, 2) = 10, C(4, 4) = 1, C(3, 0) = 1 (the empty selection), none of 4 from 3
    assert len(combos(2, range(5))) == 10 and combos(4, "abcd") == (tuple("abcd"),) and combos(0, [1, 2, 3]) == ((),)
    assert combos(4, [1, 2, 3]) == () and combos(2, [7, 7]) == ((7, 7),)
    assert combos(2, [5, 5, 7]) == pairs([5, 5, 7])


def test_the_sub_bags_of_two_twos_and_a_five_keep_none_one_or_both_twos():
    # by hand: 3 ways for the twos (0, 1 or 2 of them) times 2 for the five
    assert sub_bags(Bag([5, 2, 2])) == (Bag(), Bag([2]), Bag([5]), Bag([2, 2]), Bag([2, 5]), Bag([2, 2, 5]))
    assert len(sub_bags([1, 1, 1, 4, 4, 6])) == 4 * 3 * 2


def test_a_3x3_grid_has_8_lines_of_three_and_a_corner_has_2_neighbours():
    g = Grid(3, 3)
    assert len(g.lines(3)) == 8
    assert len(g.neighbours((0, 0))) == 2
    assert len(g.neighbours((1, 1))) == 4
    assert len(Grid(4, 4).lines(3)) == 4 * 2 + 4 * 2 + 4 + 4  # rows, columns, two diagonal directions


def test_components_group_cells_that_neighbour_one_another_in_the_order_of_their_first_cell():
    # by hand, on a 3x3 grid: (0,0)-(0,1) touch, (1,2)-(2,2) touch, (2,0) touches neither; (5,5)
    # is off the grid. (1,1) touches (0,1) and (1,2), joining the first two groups, but (2,0) only
    # across a corner, which is no neighbour
    cells = [Cell(c) for c in [(2, 2), (0, 1), (2, 0), (1, 2), (0, 0), (5, 5)]]
    assert components(Grid(3, 3), cells) == (frozenset({(0, 0), (0, 1)}), frozenset({(1, 2), (2, 2)}),
                                             frozenset({(2, 0)}))
    assert components(Grid(3, 3), cells + [Cell((1, 1))]) == (frozenset({(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)}),
                                                              frozenset({(2, 0)}))
    assert components(Grid(3, 3), []) == ()


def test_with_room_returns_what_the_function_returns_also_when_nested_and_deep():
    from engine.frame_room import with_room

    def depth(n):
        return 0 if n == 0 else 1 + depth(n - 1)
    assert with_room(depth, 900) == 900
    assert with_room(lambda: with_room(depth, 5) + 1) == 6


def test_a_map_made_by_set_knows_the_map_and_key_it_came_from_and_no_other():
    base = FrozenMap({1: "a", 2: "b"})
    made = base.set(3, "c")
    assert made.set_from(base) and made.key_set() == 3
    assert not made.set_from(FrozenMap({1: "a", 2: "b"}))  # an equal map, but not the one
    assert not made.set(4, "d").set_from(base)  # two steps away
    assert not base.set_from(made) and not base.set_from(base)


def test_a_pickled_map_is_equal_but_forgets_where_it_came_from():
    base = FrozenMap({1: "a"})
    made = base.set(2, "b")
    back = pickle.loads(pickle.dumps(made))
    assert back == made and hash(back) == hash(made) and list(back) == [1, 2]
    assert not back.set_from(base)


def test_a_map_made_from_the_first_map_numbered_knows_it_from_an_unnumbered_one(monkeypatch):
    monkeypatch.setattr(runtime, "_serials", count())  # the next serial number is 0, as in a fresh process
    base = FrozenMap({1: "a"})
    made = base.set(2, "b")
    assert made.set_from(base)
    assert not made.set_from(FrozenMap({1: "a"}))


def test_a_set_of_sets_is_written_in_the_order_of_its_sets_items():
    # `<` on sets orders only subsets; sets of sets are written by their items in order, as lists
    # compare: [1] < [1, 2] < [2] < [3]
    sets = frozenset([frozenset([3]), frozenset([2]), frozenset([1]), frozenset([1, 2])])
    assert runtime.format_value(sets) == "{{1}, {1, 2}, {2}, {3}}"
    assert runtime.to_json(sets) == [[1], [1, 2], [2], [3]]


@pytest.mark.parametrize("v, text", [(0.539975, "0.5400"), (0.9, "0.9"), (3, "3"), (3.0, "3"), (2.99999, "3.0000"),
                                     (0.1 + 0.2, "0.3"), (-0.119047619, "-0.1190"), (1 / 3, "0.3333")])
def test_a_number_in_a_report_shows_every_place_rounding_kept(v, text):
    assert number_text(v) == text
