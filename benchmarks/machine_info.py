"""What a benchmark's report says of the machine it ran on: its processor, cores and versions, and its load.

>>> load().count(" / ")
2
>>> machine("numpy 2.4.6").endswith(", numpy 2.4.6")
True
"""

from __future__ import annotations

import os
import platform


def load() -> str:
    """The load average over 1, 5 and 15 minutes, as ``"0.95 / 1.77 / 2.73"``."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on Linux
        return "unknown"


def machine(*versions: str) -> str:
    """The processor's model, the number of CPUs, Python's version and then ``versions`` (``"numpy 2.4.6"``)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return ", ".join([cpu, f"{os.cpu_count()} CPUs", f"Python {platform.python_version()}", *versions])
