"""Files the commands write (--policy, --plot, --record): refused before the run where they cannot
be written, never written over a file the user has, and nothing left behind when writing fails."""
import errno
import importlib.util
import json
import os

import pytest

from conftest import run_engine
from engine.outputs import CannotWrite, NewFile

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
SOLVE = ["solve", "rules/tictactoe.rules"]
FIT = ["fit", "rules/tictactoe.rules", "--features", "rows", "--games", "2", "--budget", "50"]


@pytest.mark.parametrize("command, flag, name", [
    (SOLVE, "--policy", "p.jsonl"), (FIT, "--record", "r.jsonl"),
    (["search", "rules/nidavellir.rules", "--algo", "beam"], "--plot", "s.png"),
])
def test_an_output_that_cannot_be_written_is_a_usage_error_before_the_run(tmp_path, command, flag, name):
    cases = [
        ("", f"error: {flag}: expected a file name, got an empty one"),  # an unset $OUT in a script
        (str(tmp_path / "nodir" / name), f"error: {flag} {tmp_path / 'nodir' / name}: there is no folder "
                                         f"{tmp_path / 'nodir'}"),
        (str(tmp_path / ("." + name.split(".")[1])), f"expected a name before .{name.split('.')[1]}"),
    ]
    folder, named = tmp_path / "taken", tmp_path / ("d" + name)  # a folder, and one named as the file would be
    folder.mkdir()
    named.mkdir()
    cases.append((str(folder), f"{flag} {folder}: expected a file name ending in"))
    cases.append((str(named), f"{flag} {named}: a folder; give the name of a new file, such as "
                              f"{named / ('out.' + name.split('.')[1])}"))
    for path, message in cases:
        r = run_engine(*command, flag, path)
        assert r.returncode == 2 and message in r.stderr, (path, r.stderr)
        assert "Traceback" not in r.stderr and r.stdout == ""  # refused before the run: nothing played or solved
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["taken", "d" + name])  # nothing new


def test_fit_record_writes_its_rows_under_the_name_given_and_nothing_else(tmp_path):
    out = tmp_path / "rows.jsonl"
    r = run_engine(*FIT, "--record", out, "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == json.loads(r.stdout)["rows"] > 0
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]  # no hidden file left beside it


def test_a_file_that_takes_the_name_while_the_run_goes_on_is_kept_and_the_output_too(tmp_path):
    target = tmp_path / "out.jsonl"
    out = NewFile("--record", str(target), (".jsonl",), "fit")
    out.open()
    out.write("row\n")
    target.write_text("the user's\n")  # another run, or the user, took the name meanwhile
    with pytest.raises(CannotWrite) as e:
        out.finish()
    assert str(e.value) == (f"--record {target}: a file of that name appeared while fit ran; the output is in "
                            f"{out.part}")
    out.abandon()  # as a command's clean-up would: the output named in the error stays
    assert target.read_text() == "the user's\n" and open(out.part).read() == "row\n"


def test_a_write_that_fails_removes_the_hidden_file_and_says_why(tmp_path):
    target = tmp_path / "p.png"
    out = NewFile("--plot", str(target), (".png",), "solve")

    def fill(stream):
        stream.write(b"partly")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as a full disk does
    with pytest.raises(CannotWrite) as e:
        out.write_all(fill, binary=True)
    assert str(e.value) == f"--plot {target}: could not be written (No space left on device); nothing was left behind"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed (pip install -e '.[plot]')")
def test_a_plot_of_more_paths_than_a_machine_integer_holds_is_drawn(tmp_path):
    # 8 ** 30 paths (about 1.2e27) all end with the score 30: past the 64-bit integers matplotlib takes
    path = tmp_path / "many.rules"
    path.write_text('state { n: 0..30 = 0 }\naction step "step {k}" { choose k in 1..8  n += 1 }\nturn { step }\n'
                    "terminal n == 30\nscore n\n")
    r = run_engine("solve", path, "--plot", tmp_path / "m.png")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed (pip install -e '.[plot]')")
@pytest.mark.parametrize("command", [["solve", "rules/tictactoe.rules"],
                                     ["search", "rules/nidavellir.rules", "--algo", "beam", "--budget", "200"]])
def test_json_names_the_plot_drawn(tmp_path, command):
    target = tmp_path / "p.png"
    r = run_engine(*command, "--plot", target, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["plot"] == str(target) and target.read_bytes()[:4] == b"\x89PNG"
