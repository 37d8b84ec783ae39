"""An independent oracle for paper-mode alignment (spec section 1), for the tests only.

It shares no code with meteor_core's aligner or stages: its own edges (every candidate /
reference pair that a plain relation function accepts), its own crossing and chunk counting
(pairwise, by the definitions), and exhaustive enumeration of every maximum matching of each
stage. Per stage it keeps the matching with, in order: the most links (maximum matching, by
construction), the fewest crossings of the whole alignment, the fewest chunks of the whole
alignment (objective "chunks" swaps these two), and the lexicographically smallest vector of
partners of the stage's free candidate positions (unmatched = +infinity).

Exhaustive, so only for inputs whose stages have few maximum matchings; `count_matchings`
says how many a stage would enumerate so that a test can choose inputs that fit.
"""
from __future__ import annotations

from typing import Callable, Sequence

INFINITY = float("inf")
Relation = Callable[[str, str], bool]


def crossings(pairs: Sequence[tuple[int, int]]) -> int:
    """Pairs (i, j), (k, l) cross iff (i - k)(j - l) < 0."""
    pairs = list(pairs)
    return sum(1 for a in range(len(pairs)) for b in range(a + 1, len(pairs))
               if (pairs[a][0] - pairs[b][0]) * (pairs[a][1] - pairs[b][1]) < 0)


def chunks(pairs: Sequence[tuple[int, int]]) -> int:
    """Fewest groups of consecutive candidate words mapped in order onto consecutive reference
    words: every pair without the pair (i - 1, j - 1) starts one."""
    present = set(pairs)
    return sum(1 for i, j in present if (i - 1, j - 1) not in present)


def stage_edges(candidate: Sequence[str], reference: Sequence[str], relation: Relation,
                fixed: Sequence[tuple[int, int]]) -> dict[int, list[int]]:
    """Free candidate position -> related free reference positions (ascending)."""
    used_c = {i for i, _ in fixed}
    used_r = {j for _, j in fixed}
    found = {}
    for i, a in enumerate(candidate):
        if i in used_c:
            continue
        partners = [j for j, b in enumerate(reference) if j not in used_r and relation(a, b)]
        if partners:
            found[i] = partners
    return found


def maximum_size(options: dict[int, list[int]]) -> int:
    """Size of a maximum matching: augmenting paths (Kuhn), each searched with a stack."""
    owner: dict[int, int] = {}  # reference -> candidate
    partner: dict[int, int] = {}  # candidate -> reference
    for start in options:
        reached_from: dict[int, int] = {}  # reference -> the candidate that reached it
        stack, end = [start], None
        while stack and end is None:
            i = stack.pop()
            for j in options[i]:
                if j in reached_from:
                    continue
                reached_from[j] = i
                if j not in owner:
                    end = j
                    break
                stack.append(owner[j])
        while end is not None:  # flip the alternating path back to `start`
            i = reached_from[end]
            previous = partner.get(i)
            owner[end], partner[i] = i, end
            end = previous
    return len(owner)


def _matchings(options: dict[int, list[int]], size: int):
    """Every matching of `size` pairs (as {candidate: reference}) of the stage's edges, by
    depth-first enumeration with an explicit stack."""
    positions = sorted(options)
    stack = [(0, {})]
    while stack:
        depth, chosen = stack.pop()
        if len(chosen) + len(positions) - depth < size:
            continue
        if depth == len(positions):
            yield chosen
            continue
        i = positions[depth]
        taken = set(chosen.values())
        stack.append((depth + 1, chosen))
        for j in options[i]:
            if j not in taken:
                stack.append((depth + 1, {**chosen, i: j}))


def count_matchings(candidate, reference, relations: Sequence[Relation], objective: str = "crossings",
                    limit: int = 10**6) -> int:
    """How many maximum matchings the stages would enumerate (counting stops at `limit`)."""
    fixed: list[tuple[int, int]] = []
    total = 0
    for relation in relations:
        options = stage_edges(candidate, reference, relation, fixed)
        for _ in _matchings(options, maximum_size(options)):
            total += 1
            if total >= limit:
                return total
        fixed += _best_for_stage(options, fixed, objective)
    return total


def _best_for_stage(options, fixed, objective):
    size = maximum_size(options)
    positions = sorted(options)
    # crossings of the whole alignment = among the fixed pairs + fixed with chosen + among chosen
    among_fixed = crossings(fixed)
    with_fixed = {(i, j): sum(1 for k, l in fixed if (i - k) * (j - l) < 0) for i in options for j in options[i]}
    best = None
    for chosen in _matchings(options, size):
        pairs = list(chosen.items())
        cross = among_fixed + sum(with_fixed[p] for p in pairs) + crossings(pairs)
        chunk = chunks(list(fixed) + pairs)
        cost = (cross, chunk) if objective == "crossings" else (chunk, cross)
        rank = (cost, [chosen.get(i, INFINITY) for i in positions])
        if best is None or rank < best[0]:
            best = (rank, sorted(chosen.items()))
    return best[1] if best else []


def align(candidate: Sequence[str], reference: Sequence[str], relations: Sequence[Relation],
          objective: str = "crossings") -> list[tuple[int, int]]:
    """The paper-mode alignment, stage after stage, as sorted (candidate, reference) pairs."""
    fixed: list[tuple[int, int]] = []
    for relation in relations:
        fixed = fixed + _best_for_stage(stage_edges(candidate, reference, relation, fixed), fixed, objective)
    return sorted(fixed)
