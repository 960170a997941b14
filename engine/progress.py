"""Progress on stderr for long runs: shown after a second, only when stderr is a terminal."""
from __future__ import annotations

import sys
import time
from typing import Optional


class ProgressBar:
    """A one-line bar: `[#####.....]  50% 5,000/10,000 calls  best 57  1.2 s`."""

    WIDTH = 30

    def __init__(self, total: Optional[int], unit: str, *, delay: float = 1.0, stream=None):
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self.start = time.perf_counter()
        self.delay = delay
        self.shown = False

    def update(self, done: int, note: str = ""):
        if not self.live:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.delay:
            return
        if self.total:
            frac = min(1.0, done / self.total)
            filled = int(frac * self.WIDTH)
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {frac:4.0%} {done:,}/{self.total:,} {self.unit}"
        else:
            bar = f"{done:,} {self.unit}"
        self.stream.write(f"\r{bar}{'  ' + note if note else ''}  {elapsed:.1f} s\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
