"""The official trade rule of rules/nidavellir.rules, checked against hand-worked trades from data/nidavellir.md."""
import pytest

from engine import load_game

RULES = "rules/nidavellir.rules"


def play(game, *labels):
    """Apply moves by label from the initial state; returns the final state."""
    s = game.initial_state()
    for label in labels:
        moves = {game.describe(m): m for m in game.legal_moves(s)}
        assert label in moves, f"{label!r} not among {sorted(moves)}"
        s = game.apply(s, moves[label])
    return s


def values(game, s, field):
    return [c["value"] if isinstance(c, dict) else c for c in game.state_json(s)[field]]


@pytest.fixture
def three_players():
    return load_game(RULES, {"players": "3"})


@pytest.mark.parametrize("players, rounds", [("2", 8), ("3", 8), ("4", 6), ("5", 6)])
def test_a_game_has_8_rounds_at_2_3_players_and_6_at_4_5(players, rounds):
    # data/nidavellir.md B3: 4 rounds an age at 2-3 players, 3 at 4-5, two ages; a trade a round
    game = load_game(RULES, {"players": players})
    s, played = game.initial_state(), 0
    while not game.is_terminal(s):
        s, played = game.apply(s, game.legal_moves(s)[0]), played + 1
    assert played == rounds


def test_treasure_at_2_3_players_has_28_coins_and_at_4_5_has_34():
    # data/nidavellir.md B1: totals 28 and 34
    for players, total in (("2", 28), ("3", 28), ("4", 34), ("5", 34)):
        g = load_game(RULES, {"players": players})
        assert len(g.state_json(g.initial_state())["treasure"]) == total


def test_smaller_treasure_has_one_each_of_7_9_11(three_players):
    t = values(three_players, three_players.initial_state(), "treasure")
    assert [t.count(v) for v in (7, 9, 11)] == [1, 1, 1]
    assert [t.count(v) for v in (5, 6, 8, 10, 12, 13, 14)] == [2] * 7


def test_trading_3_and_5_gives_an_8_and_the_basic_5_leaves_the_game(three_players):
    # data B2: "pouch 5 and 3 -> the 5 is exchanged for an 8"; a basic coin is discarded
    g = three_players
    before = values(g, g.initial_state(), "treasure")
    s = play(g, "trade 3 and 5 for 8")
    assert values(g, s, "pouch") == [2, 3, 4, 8]
    after = values(g, s, "treasure")
    assert after.count(8) == before.count(8) - 1
    assert after.count(5) == before.count(5)


def test_missing_exact_value_takes_the_next_higher_coin(three_players):
    # one 7 at 3 players: the first trade summing to 7 takes it, the second gets an 8
    g = three_players
    s = play(g, "trade 3 and 4 for 7", "trade 2 and 5 for 8")
    assert values(g, s, "pouch") == [2, 3, 7, 8]


def test_a_gold_coin_traded_away_goes_back_to_the_treasure(three_players):
    g = three_players
    s = play(g, "trade 3 and 4 for 7")
    assert values(g, s, "treasure").count(7) == 0
    s2 = play(g, "trade 3 and 4 for 7", "trade 5 and 7 for 12")
    assert values(g, s2, "treasure").count(7) == 1


def test_with_no_coin_large_enough_the_largest_coin_left_is_taken(three_players):
    g = three_players
    Coin = g.compiler.record_classes["Coin"]
    from engine.runtime import Bag
    s = g.initial_state()
    pouch = Bag([Coin((2, False)), Coin((3, False)), Coin((20, True)), Coin((22, True))])
    treasure = Bag([5, 6, 21, 23])  # 20 + 22 = 42: nothing is that large, 23 is the largest left
    s = (pouch, treasure) + s[2:]
    labels = [g.describe(m) for m in g.legal_moves(s)]
    assert "trade 20 and 22 for 23" in labels
    m = next(m for m in g.legal_moves(s) if g.describe(m) == "trade 20 and 22 for 23")
    assert values(g, g.apply(s, m), "treasure") == [5, 6, 21, 22]


def test_blog_variant_refuses_a_trade_with_no_coin_large_enough():
    g = load_game(RULES, {"variant": "blog"})
    Coin = g.compiler.record_classes["Coin"]
    from engine.runtime import Bag
    s = g.initial_state()
    pouch = Bag([Coin((2, False)), Coin((3, False)), Coin((20, True)), Coin((22, True))])
    s = (pouch, Bag([5, 6, 21, 23])) + s[2:]
    labels = [g.describe(m) for m in g.legal_moves(s)]
    assert not any(label.startswith("trade 20 and 22") for label in labels)
    assert "trade 2 and 20 for 23" in labels


def test_blog_variant_counts_two_equal_coins_as_two_choices():
    g = load_game(RULES, {"variant": "blog"})
    s = play(g, "trade 2 and 3 for 5")  # the 3 (the higher) becomes a 5
    pouch = values(g, s, "pouch")
    assert pouch == [2, 4, 5, 5]
    labels = [g.describe(m) for m in g.legal_moves(s)]
    assert len(labels) == 6  # pairs by position, even though two coins are equal
    assert len(set(labels)) == 6  # labels stay distinct ("[2]" marks the second equal choice)


def test_an_unknown_variant_is_a_usage_error():
    from engine import UsageError
    with pytest.raises(UsageError, match="official, blog"):
        load_game(RULES, {"variant": "house"})
