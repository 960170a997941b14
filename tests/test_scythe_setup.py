"""Starting state of rules/scythe.rules for every player mat and faction.

Every expected figure is typed from the reference data file data/scythe.md
(section 1a for the mats, section 5a for the factions, section 8a for the bans, 6c for the board);
none of it is produced by running the engine, and the data file is not read here.
"""
import pytest

from conftest import ROOT
from engine.diagnostics import UsageError
from engine.load import load_game

RULES = str(ROOT / "rules" / "scythe.rules")

# data/scythe.md section 1a "Mat header values": mat -> (starting popularity, starting coins).
MATS = {
    "industrial": (2, 4),
    "engineering": (2, 5),
    "militant": (3, 4),
    "patriotic": (2, 6),
    "innovative": (3, 5),
    "mechanical": (3, 6),
    "agricultural": (4, 7),
}

# data/scythe.md section 5a "Starting values, home base, starting workers":
# faction -> (start power, start combat cards, home base (col,row), the two starting-worker territories (col,row)).
# Coordinates are typed exactly as printed there: (col,row), column first.
FACTIONS = {
    "nordic": (4, 1, (4, 0), [(4, 1), (5, 1)]),
    "rusviet": (3, 2, (7, 3), [(6, 3), (6, 4)]),
    "crimea": (5, 0, (2, 8), [(3, 7), (3, 8)]),
    "saxony": (1, 4, (0, 7), [(0, 6), (1, 7)]),
    "polania": (2, 3, (0, 3), [(1, 3), (0, 4)]),
    "albion": (3, 0, (1, 0), [(1, 1), (2, 1)]),
    "togawa": (0, 2, (7, 7), [(6, 6), (6, 7)]),
}

# data/scythe.md section 8a: the two official bans, as (mat, faction).
BANNED = {("industrial", "rusviet"), ("patriotic", "crimea")}

ALLOWED = [(mat, faction) for mat in MATS for faction in FACTIONS if (mat, faction) not in BANNED]


def cell(col_row):
    """(col,row) as printed in data/scythe.md -> [row, col] as in the engine's state.

    The data file writes offset coordinates column first (section 6a); the state lists
    cells row first, so the two numbers swap places.
    """
    col, row = col_row
    return [row, col]


def initial(mat, faction, **extra):
    """The JSON view of the initial state for a mat and a faction (plus any other settings)."""
    game = load_game(RULES, {"mat": mat, "faction": faction, **extra})
    return game.state_json(game.initial_state())


def assert_starting_values(s, mat, faction):
    """Power and cards from the faction (5a), popularity and coins from the mat (1a),
    1 worker on each of the faction's 2 starting territories and the character on its home base (5a)."""
    power, cards, home, worker_cells = FACTIONS[faction]
    popularity, coins = MATS[mat]
    assert s["power"] == power
    assert s["cards"] == cards
    assert s["popularity"] == popularity
    assert s["coins"] == coins
    assert s["workers"] == sorted(cell(w) for w in worker_cells)
    assert s["character"] == cell(home)


@pytest.mark.parametrize("mat, faction", ALLOWED, ids=[f"{m}-{f}" for m, f in ALLOWED])
def test_initial_state(mat, faction):
    """Every allowed combination starts with the values of data/scythe.md 1a (mat) and 5a (faction)."""
    assert_starting_values(initial(mat, faction), mat, faction)


@pytest.mark.parametrize("mat, faction", sorted(BANNED), ids=[f"{m}-{f}" for m, f in sorted(BANNED)])
def test_banned_combination_needs_allow_banned(mat, faction):
    """The 8a bans are refused by name unless allow_banned=yes; allowed anyway, they start as 1a/5a say."""
    with pytest.raises(UsageError) as info:
        initial(mat, faction)
    message = str(info.value).lower()
    assert faction in message and mat in message, str(info.value)
    assert_starting_values(initial(mat, faction, allow_banned="yes"), mat, faction)


def test_allowed_combinations_are_all_but_the_banned_two():
    """The parametrization of test_initial_state: 7 mats x 7 factions = 49, minus the 2 bans = 47."""
    assert len(MATS) == 7 and len(FACTIONS) == 7
    everything = {(mat, faction) for mat in MATS for faction in FACTIONS}
    assert BANNED <= everything and len(BANNED) == 2
    assert len(ALLOWED) == len(set(ALLOWED)) == 47
    assert set(ALLOWED) == everything - BANNED


@pytest.mark.parametrize("faction", list(FACTIONS))
def test_the_view_shows_the_starting_values_and_hexes_as_the_data_writes_them(faction):
    game = load_game(RULES, {"mat": "innovative", "faction": faction})
    lines = game.view(game.initial_state()).splitlines()
    power, cards, (home_col, home_row), worker_cells = FACTIONS[faction]
    popularity, coins = MATS["innovative"]
    assert lines[0].startswith(f"turn 0: coins {coins}, popularity {popularity}, power {power}, "
                               f"combat cards {cards}, fortune ")
    # the workers in the order of the state (row first), each written col,row
    workers = " ".join(f"{c},{r}" for c, r in sorted(worker_cells, key=lambda cr: (cr[1], cr[0])))
    assert lines[3] == f"character on {home_col},{home_row}; workers on {workers}"
    assert lines[4] == "mechs: none; structures: none"


def test_move_labels_write_hexes_as_the_data_does():
    game = load_game(RULES, {"mat": "innovative", "faction": "togawa"})
    labels = [m.label for m in game.legal_moves(game.initial_state())]
    # data/scythe.md 6c: 6,6 (SE: home:Togawa) and 6,7 (E: home:Togawa) lie next to Togawa's base at 7,7
    for hex_ in ("6,6", "6,7"):
        assert any(f"Move: character 7,7 -> {hex_}" in label for label in labels), hex_
