"""Heuristics are evaluated by name, per player with `heuristic NAME for p = EXPR`."""
from conftest import ROOT
from engine import load_game


def test_a_per_player_heuristic_binds_each_player_in_turn():
    game = load_game(str(ROOT / "tests/fixtures/open_lines.rules"))
    centre = next(m for m in game.legal_moves(game.initial_state()) if m.label == "X at (1, 1)")
    s = game.apply(game.initial_state(), centre)
    # hand count: the centre lies on 4 of the 8 lines (row, column, both diagonals);
    # X keeps all 8 lines open, O only the 4 lines that miss the centre
    assert game.evaluate(s, "open_lines", 0) == 8
    assert game.evaluate(s, "open_lines", 1) == 4
    # without a player, the player to move (O)
    assert game.evaluate(s, "open_lines") == 4


def test_a_heuristic_without_a_player_is_the_same_for_everyone():
    game = load_game(str(ROOT / "rules/nidavellir.rules"))
    s = game.initial_state()
    # data: the starting pouch is the coins 2, 3, 4, 5 (seed 001), coin sum 14
    assert [game.evaluate(s, "coin_sum", p) for p in range(game.num_players)] == [14.0]
