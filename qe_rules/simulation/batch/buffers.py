"""Arrays the batch keeps to write in again: from sale to sale of a chunk, and from a
played chunk to the next.

A new array's memory pages fault on first touch, and freed memory goes back to the system
at the top of the heap, so arrays made anew at every sale or chunk faulted again each time
(a tenth of a run or more). :func:`kept` is the one way the batch keeps them: by a key in a
store that the chunk, its knowledge or a caller holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["kept"]


def kept(store: dict[Any, Any], key: object, shape: tuple[int, ...], dtype: Any) -> Any:
    """The array ``store`` keeps under ``key`` where it has ``shape`` and ``dtype``, else a
    new one of zeros, kept there from now on. Its contents are those last written."""
    found = store.get(key)
    if found is None or found.shape != shape or found.dtype != dtype:
        found = store[key] = np.zeros(shape, dtype=dtype)
    return found
