"""The progress bar of long runs: shown only on a terminal, after its delay, with the time left."""
import functools
import io

from conftest import ROOT
from engine import cli
from engine.progress import ProgressBar


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Clock:
    """A clock that reads what the test sets."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def shown(bar: ProgressBar, stream: Terminal) -> str:
    return stream.getvalue().split("\r")[-1].replace("\x1b[K", "")


def test_the_time_left_is_the_time_so_far_scaled_to_the_work_left():
    stream, clock = Terminal(), Clock()
    bar = ProgressBar(100, "games", stream=stream, eta=True, clock=clock)
    clock.now += 10.0
    bar.update(25)  # a quarter in 10 s: three quarters more take 30 s
    assert shown(bar, stream) == "[#######.......................]  25% 25/100 games  10.0 s, about 30 s left"
    clock.now += 290.0
    bar.update(50, "best 57")  # half in 300 s: 300 s (5 minutes) more
    assert shown(bar, stream).endswith("50/100 games  best 57  300.0 s, about 5 min left")
    clock.now += 5100.0
    bar.update(75)  # three quarters in 5,400 s: 1,800 s (30 minutes) more
    assert shown(bar, stream).endswith("75/100 games  5400.0 s, about 30 min left")
    bar = ProgressBar(1000, "calls", stream=stream, eta=True, clock=clock)
    clock.now += 5400.0
    bar.update(300)  # 30% in 1.5 h: 3.5 h more
    assert shown(bar, stream).endswith("300/1,000 calls  5400.0 s, about 3.5 h left")


def test_no_time_left_is_guessed_before_the_first_step_at_the_end_or_without_eta():
    stream, clock = Terminal(), Clock()
    for eta, done in ((True, 0), (True, 10), (False, 5)):
        bar = ProgressBar(10, "games", stream=stream, eta=eta, clock=clock)
        clock.now += 2.0
        bar.update(done)
        assert "left" not in shown(bar, stream) and shown(bar, stream).endswith(" 2.0 s")


def test_nothing_is_shown_before_the_delay_or_when_stderr_is_no_terminal():
    clock = Clock()
    quiet = io.StringIO()
    ProgressBar(10, "games", stream=quiet, eta=True, clock=clock).update(5)
    early = Terminal()
    bar = ProgressBar(10, "games", stream=early, clock=clock)
    clock.now += 0.5
    bar.update(5)
    assert quiet.getvalue() == "" and early.getvalue() == ""


def test_check_says_about_how_long_is_left(monkeypatch):
    # check on rules/scythe.rules takes minutes: its bar, like play's, says how long is left
    stream, clock, update = Terminal(), Clock(), ProgressBar.update

    def tick(*args, **kwargs):
        clock.now += 10.0  # every update comes ten seconds after the one before
        return update(*args, **kwargs)
    monkeypatch.setattr(ProgressBar, "update", tick)
    monkeypatch.setattr(cli, "ProgressBar", functools.partial(ProgressBar, stream=stream, clock=clock))
    assert cli.main(["check", str(ROOT / "rules" / "tictactoe.rules"), "--examples", "4"]) == 0
    assert "1/4 examples" in stream.getvalue() and "about 30 s left" in stream.getvalue()
