"""The machine a benchmark ran on, for the first line of its report."""

from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def describe_machine() -> str:
    """Platform, processor, cores and Python version on one line."""
    return (
        f"{platform.platform()}; {cpu_model()}; {os.cpu_count()} cores; "
        f"Python {platform.python_version()}"
    )
