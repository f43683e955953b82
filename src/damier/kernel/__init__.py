"""The kernel: move generation, make/unmake, hashing and perft on integer arrays (Numba).

Numba's on-disk cache checks only the source file of each compiled function, not the files
of the functions it calls: after an edit of ``movegen.py`` the cached ``perft`` would still
run the old move generator. So the cache is keyed on all the kernel's sources together:
when any of them changes, the whole kernel cache is dropped before anything loads from it.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

KERNEL_SOURCES = sorted(Path(__file__).parent.glob("*.py"))
"""Every source the compiled kernel is made of."""


def key_numba_cache(cache_dir: Path, stamp_name: str, sources: list[Path]) -> None:
    """Drop the Numba cache files in ``cache_dir`` unless ``sources`` are those it was
    compiled from (recorded in the stamp file ``stamp_name``): Numba itself only looks at a
    function's own file, not at the files of the compiled functions it calls."""
    digest = hashlib.sha256()
    for source in sources:
        with contextlib.suppress(OSError):
            digest.update(source.name.encode() + source.read_bytes())
    fingerprint = digest.hexdigest()
    stamp = cache_dir / stamp_name
    with contextlib.suppress(OSError):
        if stamp.read_text() == fingerprint:
            return
    try:
        cache_dir.mkdir(exist_ok=True)
        for stale in [*cache_dir.glob("*.nbi"), *cache_dir.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        stamp.write_text(fingerprint)
    except OSError:
        pass  # a read-only install: Numba then compiles in memory or uses its own cache dir


key_numba_cache(Path(__file__).parent / "__pycache__", "kernel.fingerprint", KERNEL_SOURCES)
