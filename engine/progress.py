"""Progress on stderr for long runs: shown after a second, only when stderr is a terminal."""
from __future__ import annotations

import sys
import time
from typing import Optional


class ProgressBar:
    """A one-line bar: `[#####.....]  50% 5,000/10,000 calls  best 57  1.2 s`; with `eta`, for
    work whose steps take about as long as one another, the time left besides
    (`1.2 s, about 1 s left`)."""

    WIDTH = 30

    def __init__(self, total: Optional[int], unit: str, *, delay: float = 1.0, stream=None, eta: bool = False,
                 clock=time.perf_counter):
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self.clock = clock
        self.start = clock()
        self.delay = delay
        self.eta = eta
        self.shown = False
        self.done: Optional[int] = None  # the last count it was told, shown or not

    def update(self, done: int, note: str = ""):
        self.done = done
        if not self.live:
            return
        elapsed = self.clock() - self.start
        if elapsed < self.delay:
            return
        if self.total:
            frac = min(1.0, done / self.total)
            filled = int(frac * self.WIDTH)
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {frac:4.0%} {done:,}/{self.total:,} {self.unit}"
        else:
            bar = f"{done:,} {self.unit}"
        left = ""
        if self.eta and self.total and 0 < done < self.total:
            left = f", about {_duration(elapsed * (self.total - done) / done)} left"
        self.stream.write(f"\r{bar}{'  ' + note if note else ''}  {elapsed:.1f} s{left}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _duration(seconds: float) -> str:
    """A rough span of time: `40 s`, `3 min`, `1.5 h`."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
