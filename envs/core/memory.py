"""Keep freed heap memory in the process, so that large batches stop paying page faults.

A batched step at B = 1024 allocates and frees arrays of hundreds of kB to ~10 MB (the
observations, the masks, the (R, 182, 4) planes of the legality code). With glibc's default
settings such blocks come from fresh memory maps, or from heap memory handed back to the
kernel after the previous step, and every page is faulted in (and zeroed by the kernel) again
on first touch. That cost grows with B and was a quarter of a whole cairo step at B = 1024.
Raising the map threshold and the trim threshold keeps the freed blocks for reuse. It changes
no result, only where memory comes from; the process keeps its peak heap size.
"""

from __future__ import annotations

import ctypes
import functools
import platform

# mallopt parameters of glibc's <malloc.h>.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
# Blocks below this size come from the heap: glibc's largest accepted value (HEAP_MAX_SIZE / 2
# on 64-bit), above the ~10 MB observation of a cairo batch of 1024.
MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 1 << 30  # free memory kept at the top of the heap before it is returned


@functools.cache
def retain_freed_memory() -> bool:
    """Tune glibc's allocator, once per process (see the module doc); True when applied.

    A no-op returning False where the C library is not glibc (macOS, Windows, musl). Later
    calls return the first call's answer without trying again.
    """
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(
        libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
