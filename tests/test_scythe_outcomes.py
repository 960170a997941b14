"""rules/scythe.rules: the distinct outcomes of single actions from the start (Togawa, Innovative),
counted by hand from the board table and the rules in ../shared/data/scythe.md.

Coordinates in the comments are the data file's col,row; the engine prints cells as (row, col).
At the start (data 1a, 5a) the Innovative mat gives popularity 3 and $5, Togawa power 0 and 2
combat cards; the character is on the home base 7,7, the workers on 6,6 (tundra) and 6,7 (farm).
There are no resources yet, so no bottom action can be paid on the first turn.
"""
import pytest

from engine.load import load_game

RULES = "rules/scythe.rules"


@pytest.fixture(scope="module")
def start_moves():
    game = load_game(RULES, {"faction": "togawa", "mat": "innovative"})
    return game.legal_moves(game.initial_state())


def outcomes(moves, prefix: str, contains: str = "") -> set:
    """The distinct next states of the moves whose label starts with prefix and contains `contains`."""
    return {m.next for m in moves if m.label.startswith(prefix) and contains in m.label}


def test_trade_gives_ten_resource_pairs_or_one_popularity(start_moves):
    # data 2, Trade: pay $1, gain any 2 resources (4 kinds, order does not matter: 4 + 3 + 2 + 1
    # = 10 pairs), or gain 1 popularity: 11 outcomes
    assert len(outcomes(start_moves, "trade / upgrade: | Trade:")) == 11


def test_produce_on_the_two_starting_territories(start_moves):
    # data 2, Produce: on up to 2 territories with workers (not upgraded); with 2 workers nothing is
    # paid (the cost boxes start at the 4th worker). 6,6 alone (1 oil), 6,7 alone (1 food), or both: 3
    assert len(outcomes(start_moves, "produce / deploy: | Produce:")) == 3


def test_bolster_gives_power_or_a_combat_card(start_moves):
    # data 2, Bolster: pay $1, +2 power or +1 combat card (not upgraded): 2 outcomes
    assert len(outcomes(start_moves, "bolster / build: | Bolster:")) == 2


def test_gain_is_one_outcome(start_moves):
    assert len(outcomes(start_moves, "move / enlist: | Gain:")) == 1


def test_move_with_the_character_and_two_workers(start_moves):
    # Neighbours from the data 6 table (no river on any of these sides):
    #   home 7,7 -> 6,6 and 6,7 (the hexes listing home:Togawa)
    #   6,6 (A) -> 6,7 (B) and 5,6; 6,5 is a lake (workers never enter), 7,7 a home base
    #   6,7 (B) -> 5,6, 6,6 (A) and 5,7; 7,7 is a home base
    # Up to 2 different units, one territory each; workers are alike, so outcomes are worker bags.
    # One worker moving gives 5 bags: A->B {B,B}, A->5,6 {5,6,B}, B->5,6 {A,5,6}, B->A {A,A},
    # B->5,7 {A,5,7}.
    # The character moving (to 2 places, and Maifuku: a trap placed where it ends, or not: 4 ways)
    # leaves room for no worker or one: 4 x (1 + 5) = 24.
    # Workers only: the 5 bags above, and both moving (A to B or 5,6; B to 5,6, A or 5,7):
    # {B,5,6} (seen), {B,A} (the start again), {B,5,7}, {5,6,5,6}, {5,6,A} (seen), {5,6,5,7}:
    # 3 new, so 5 + 3 = 8. A worker moving on from where another arrived (A->B, then B->5,7)
    # gives one of these bags too.
    # The swap leads to the state of taking the section without its top action, so it is not a
    # Move outcome of its own: 24 + 8 = 32.
    assert len(outcomes(start_moves, "move / enlist: |", "Move:")) == 32
    # with Gain and the section taken without its top action: 34 states after the Move section
    assert len(outcomes(start_moves, "move / enlist:")) == 32 + 1 + 1
