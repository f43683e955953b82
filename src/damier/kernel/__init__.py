"""The kernel: move generation, make/unmake, hashing and perft on integer arrays (Numba).

Numba's on-disk cache checks only the source file of each compiled function, not the files
of the functions it calls: after an edit of ``movegen.py`` the cached ``perft`` would still
run the old move generator. So the cache is keyed on all the kernel's sources together:
when any of them changes, the whole kernel cache is dropped before anything loads from it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _refresh_cache() -> None:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for source in sorted(here.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    cache = here / "__pycache__"
    stamp = cache / "kernel.fingerprint"
    fingerprint = digest.hexdigest()
    try:
        if stamp.read_text() == fingerprint:
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        stamp.write_text(fingerprint)
    except OSError:
        pass  # a read-only install: Numba then compiles in memory or uses its own cache dir


_refresh_cache()
