"""Correlation coefficients for metric-vs-human agreement. Pure Python, no I/O.
Kendall is tau-b (ties on either side handled), the variant WMT reports."""
from __future__ import annotations

import math
from typing import Optional, Sequence


def _check(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"lengths differ: {len(x)} and {len(y)}")


def pearson(x: Sequence[float], y: Sequence[float]) -> Optional[float]:
    """None when undefined (fewer than 2 points or a constant series)."""
    _check(x, y)
    n = len(x)
    if n < 2 or min(x) == max(x) or min(y) == max(y):
        # Constant: tested on the values, since the rounded mean of [0.1] * 3 leaves sums of
        # squares near 1e-33, not 0, and r came out 0.0 where it is undefined (a tester).
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def average_ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = [0.0] * len(values)
    k = 0
    while k < len(order):
        end = k
        while end + 1 < len(order) and values[order[end + 1]] == values[order[k]]:
            end += 1
        rank = (k + end) / 2 + 1
        for m in range(k, end + 1):
            ranks[order[m]] = rank
        k = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> Optional[float]:
    _check(x, y)
    return pearson(average_ranks(x), average_ranks(y))


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> Optional[float]:
    """O(n log n) (Knight 1966): sort by (x, y), count discordant pairs as merge-sort swaps."""
    _check(x, y)
    n = len(x)
    if n < 2:
        return None
    pairs = sorted(zip(x, y))
    total = n * (n - 1) // 2

    def tied(values) -> int:
        count, run = 0, 1
        for k in range(1, len(values)):
            if values[k] == values[k - 1]:
                run += 1
            else:
                count += run * (run - 1) // 2
                run = 1
        return count + run * (run - 1) // 2

    xs = [p[0] for p in pairs]
    ties_x = tied(xs)
    # pairs tied in both x and y
    ties_xy, run = 0, 1
    for k in range(1, n):
        if pairs[k] == pairs[k - 1]:
            run += 1
        else:
            ties_xy += run * (run - 1) // 2
            run = 1
    ties_xy += run * (run - 1) // 2
    ys = [p[1] for p in pairs]
    swaps = 0

    def merge_sort(a: list) -> list:
        nonlocal swaps
        if len(a) < 2:
            return a
        mid = len(a) // 2
        left, right = merge_sort(a[:mid]), merge_sort(a[mid:])
        merged, i, j = [], 0, 0
        while i < len(left) and j < len(right):
            if right[j] < left[i]:
                merged.append(right[j])
                swaps += len(left) - i
                j += 1
            else:
                merged.append(left[i])
                i += 1
        merged.extend(left[i:])
        merged.extend(right[j:])
        return merged

    sorted_y = merge_sort(ys)
    ties_y = tied(sorted_y)
    concordant_minus_discordant = total - ties_x - ties_y + ties_xy - 2 * swaps
    denominator = math.sqrt((total - ties_x) * (total - ties_y))
    if denominator == 0:
        return None
    return concordant_minus_discordant / denominator
