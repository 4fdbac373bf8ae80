"""Plain-text layout shared by every readable output: columns of text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["table"]


def table(header: Sequence[str], rows: Iterable[Sequence[object]], left: int = 1) -> list[str]:
    """Lines of text in columns, the header first: the first ``left`` columns
    left-aligned, the others right-aligned.

    >>> table(["seat", "VP"], [["Ann", 45], ["Bo", 7]])
    ['seat  VP', 'Ann   45', 'Bo     7']
    """
    cells = [list(header), *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    return [
        "  ".join(
            cell.ljust(width) if column < left else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in cells
    ]
