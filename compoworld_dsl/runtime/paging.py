"""A list answered a page at a time (`pages N` on a tool, D38): what one page holds, and which
page an element is on. The gateway answers agents with `page_of`; the sampler counts the pages
a reference plan reads with `page_count` and `page_holding`, so both agree on one arithmetic."""

from __future__ import annotations


def page_of(items: list, page: int, size: int) -> dict:
    """One page of a list answer: the elements of page `page` (1 first) and whether more follow.
    No total: an agent asked how many there are must read every page, as it would from a real
    API that pages."""
    start = (page - 1) * size
    return {"items": items[start : start + size], "page": page, "more": start + size < len(items)}


def page_count(count: int, size: int) -> int:
    """Calls that read every element of a list of `count` in pages of `size` (one for none)."""
    return max(1, -(-count // size))


def page_holding(index: int, size: int) -> int:
    """The page (1 first) that holds the element at `index` (0 first)."""
    return index // size + 1
