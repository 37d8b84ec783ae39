"""Paper-mode alignment: per stage, the maximum number of matches, then the fewest crossings
over the whole alignment, then the fewest chunks, then the lexicographically smallest vector of
partners (spec section 1, Decisions). Objective "chunks" swaps crossings and chunks (METEOR 1.5
style). Exact: branch and bound with a node budget; past the budget the best alignment found so
far is returned and flagged optimal=False.

Why it is fast (spec section 3):
  * an edge alone in its connected component is in every maximum matching: fixed up front;
  * equivalence stages (exact, stem) under the crossings objective: two crossing edges with the
    same key can always be uncrossed, strictly removing crossings, so every crossing-optimal
    alignment matches each key's occurrences in order. A key with equal counts on both sides is
    then fully determined, and the search only chooses which occurrences of the longer side
    are used, in increasing order.
"""
from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from typing import Optional, Sequence

from .stages import Stage, StageEdge

_SKIP = 1 << 60  # an unmatched candidate position sorts after every partner in the lex vector


def count_crossings(pairs: Sequence[tuple[int, int]]) -> int:
    """Pairs (i, j), (k, l) cross iff (i - k)(j - l) < 0: inversions of j in candidate order."""
    refs = [j for _, j in sorted(pairs)]
    seen: list[int] = []
    total = 0
    for j in refs:
        total += len(seen) - bisect_right(seen, j)
        insort(seen, j)
    return total


def count_chunks(pairs: Sequence[tuple[int, int]]) -> int:
    """Fewest runs of consecutive mappings (i, j), (i + 1, j + 1)."""
    ordered = sorted(pairs)
    chunks = 0
    previous = None
    for i, j in ordered:
        if previous is None or i != previous[0] + 1 or j != previous[1] + 1:
            chunks += 1
        previous = (i, j)
    return chunks


def chunk_spans(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Chunks as half-open spans (cand_start, cand_end, ref_start, ref_end), in candidate order."""
    spans: list[list[int]] = []
    for i, j in sorted(pairs):
        if spans and i == spans[-1][1] and j == spans[-1][3]:
            spans[-1][1] += 1
            spans[-1][3] += 1
        else:
            spans.append([i, i + 1, j, j + 1])
    return [tuple(s) for s in spans]


@dataclass(frozen=True)
class StageAlignment:
    """What one stage added: its links (with evidence), whether proven optimal, effort."""

    stage: str
    links: tuple[StageEdge, ...]
    candidate_edges: int
    optimal: bool
    nodes: int


def _max_matching(cands: list[int], adjacency: dict[int, list[int]]) -> dict[int, int]:
    """Kuhn's augmenting paths; returns cand -> ref for one maximum matching."""
    match_ref: dict[int, int] = {}

    def augment(u: int, seen: set[int]) -> bool:
        for r in adjacency[u]:
            if r in seen:
                continue
            seen.add(r)
            if r not in match_ref or augment(match_ref[r], seen):
                match_ref[r] = u
                return True
        return False

    for u in cands:
        augment(u, set())
    return {u: r for r, u in match_ref.items()}


def _components(edges: Sequence[StageEdge], adjacency: dict[int, list[int]], equivalence: bool
                ) -> list[tuple[list[int], list[int]]]:
    """Connected components of the stage's bipartite graph as (cands, refs), sorted."""
    if equivalence:
        # Equal keys relate all-to-all: candidates with the same partner list form a component.
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in sorted(adjacency):
            groups.setdefault(tuple(adjacency[c]), []).append(c)
        return [(cands, list(refs)) for refs, cands in groups.items()]
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in edges:
        a, b = find((0, e.candidate)), find((1, e.reference))
        if a != b:
            parent[a] = b
    found: dict[tuple[int, int], tuple[set[int], set[int]]] = {}
    for e in edges:
        cands, refs = found.setdefault(find((0, e.candidate)), (set(), set()))
        cands.add(e.candidate)
        refs.add(e.reference)
    return [(sorted(c), sorted(r)) for c, r in found.values()]


def solve_stage(
    stage: Stage,
    edges: Sequence[StageEdge],
    fixed: Sequence[tuple[int, int]],
    candidate_length: int,
    objective: str = "crossings",
    node_budget: int = 20_000,
) -> StageAlignment:
    """Choose this stage's links among `edges`, given links `fixed` by earlier stages."""
    if not edges:
        return StageAlignment(stage.name, (), 0, True, 0)
    evidence = {(e.candidate, e.reference): e.evidence for e in edges}
    adjacency: dict[int, list[int]] = {}
    for e in edges:
        adjacency.setdefault(e.candidate, []).append(e.reference)
    for refs in adjacency.values():
        refs.sort()

    monotone = stage.equivalence and objective == "crossings"
    forced: list[tuple[int, int]] = []
    variable: list[tuple[list[int], list[int], int]] = []  # (cands, refs, max matching size)
    for cands, refs in _components(edges, adjacency, stage.equivalence):
        n_edges = sum(len(adjacency[c]) for c in cands)
        if n_edges == 1:
            forced.append((cands[0], refs[0]))
        elif monotone and len(cands) == len(refs):
            forced.extend(zip(cands, refs))  # uncrossing lemma: in order, fully determined
        else:
            size = len(_max_matching(cands, adjacency))
            variable.append((cands, refs, size))

    base = list(fixed) + forced
    if not variable:
        links = tuple(StageEdge(i, j, evidence[(i, j)]) for i, j in sorted(forced))
        return StageAlignment(stage.name, links, len(edges), True, 0)

    search = _BranchAndBound(base, variable, adjacency, candidate_length, objective, monotone, node_budget)
    chosen, optimal, nodes = search.run()
    pairs = sorted(forced + chosen)
    links = tuple(StageEdge(i, j, evidence[(i, j)]) for i, j in pairs)
    return StageAlignment(stage.name, links, len(edges), optimal, nodes)


class _BranchAndBound:
    """Depth-first over the variable candidate positions in increasing order, partners in
    increasing order, "unmatched" last: leaves come in lexicographic order of the vector."""

    def __init__(self, base, variable, adjacency, candidate_length, objective, monotone, node_budget):
        self.base = base
        self.objective = objective
        self.monotone = monotone
        self.budget = node_budget
        self.n = candidate_length
        self.order: list[int] = sorted(c for cands, _, _ in variable for c in cands)
        self.comp_of: dict[int, int] = {}
        self.need: list[int] = []
        self.comp_refs: list[list[int]] = []
        for index, (cands, refs, size) in enumerate(variable):
            for c in cands:
                self.comp_of[c] = index
            self.need.append(size)
            self.comp_refs.append(refs)
        self.options = {c: adjacency[c] for c in self.order}
        self.remaining = [len(cands) for cands, _, _ in variable]  # undecided candidates per comp
        self.matched = [0] * len(variable)
        self.last = [-1] * len(variable)  # last partner per comp (monotone mode)
        # Crossings of each variable edge with the fixed base, computed once.
        self.cross_base = {}
        for c in self.order:
            for r in self.options[c]:
                self.cross_base[(c, r)] = sum(1 for (k, l) in base if (c - k) * (r - l) < 0)
        self.base_crossings = count_crossings(base)
        # Lower bound on crossings still to come: each candidate the component must still
        # match adds at least its cheapest crossings with the base.
        position = {c: k for k, c in enumerate(self.order)}
        self.comp_min_cross: list[list[tuple[int, int]]] = [  # (cost, order index), cheapest first
            sorted((min(self.cross_base[(c, r)] for r in adjacency[c]), position[c]) for c in cands)
            for cands, _, _ in variable]
        self.depth = 0
        # Per-candidate partner in the base (for chunk bounds) and whether a position can
        # ever be matched / linked to its right neighbour.
        self.partner: list[Optional[int]] = [None] * candidate_length
        for i, j in base:
            self.partner[i] = j
        self.base_partner = list(self.partner)  # partner changes during the search; bounds use the base
        self.total_matches = len(base) + sum(self.need)
        self.decided: dict[int, int] = {}
        self.is_variable = [False] * candidate_length
        for c in self.order:
            self.is_variable[c] = True
        self._can_link: Optional[list[bool]] = None  # built on first use (only crossing ties need it)
        self.used_refs: set[int] = set()
        self.chosen_refs_sorted: list[int] = []
        self.vector: list[int] = []
        self.nodes = 0
        self.exhausted = False
        self.best_cost = None
        self.best_vector: list[int] = []
        self.best_pairs: list[tuple[int, int]] = []

    @property
    def can_link(self) -> list[bool]:
        """Whether positions i and i + 1 could ever form a link (optimistic, for chunk bounds)."""
        if self._can_link is None:
            possible = [self._possible(i) for i in range(self.n)]
            self._can_link = [any(r + 1 in possible[i + 1] for r in possible[i]) for i in range(self.n - 1)]
        return self._can_link

    def _possible(self, i: int) -> set[int]:
        if self.base_partner[i] is not None:
            return {self.base_partner[i]}
        return set(self.options.get(i, ()))

    # -- bounds -------------------------------------------------------------------------
    def _chunk_lower_bound(self) -> int:
        """chunks = matches - links; links bounded by optimistic links on undecided pairs."""
        links = 0
        can_link = self.can_link
        partner = self.partner
        decided = self.decided
        variable = self.is_variable
        for i in range(self.n - 1):
            left_open = variable[i] and i not in decided
            right_open = variable[i + 1] and (i + 1) not in decided
            if left_open or right_open:
                links += can_link[i]
            else:
                a, b = partner[i], partner[i + 1]
                if a is not None and b is not None and b == a + 1:
                    links += 1
        return self.total_matches - links

    def _cost(self, crossings: int, chunks: int) -> tuple[int, int]:
        return (crossings, chunks) if self.objective == "crossings" else (chunks, crossings)

    def _prefix_not_better(self) -> bool:
        depth = len(self.vector)
        return self.vector > self.best_vector[:depth]

    # -- search -------------------------------------------------------------------------
    def _seed(self, variable_adjacency) -> None:
        """Incumbent, so a result exists even at budget 0 and pruning starts strong: per
        component, in monotone mode the in-order assignment with the fewest crossings against
        the base (dynamic programme, ignoring the other components); otherwise any maximum
        matching (Kuhn)."""
        pairs = []
        by_comp: dict[int, list[int]] = {}
        for c in self.order:
            by_comp.setdefault(self.comp_of[c], []).append(c)
        for comp, cands in by_comp.items():
            if self.monotone:
                pairs.extend(self._monotone_dp(cands, self.comp_refs[comp]))
            else:
                pairs.extend(_max_matching(cands, variable_adjacency).items())
        everything = self.base + pairs
        partner_of = dict(pairs)
        self.best_cost = self._cost(count_crossings(everything), count_chunks(everything))
        self.best_vector = [partner_of.get(c, _SKIP) for c in self.order]
        self.best_pairs = sorted(pairs)

    def _monotone_dp(self, cands: list[int], refs: list[int]) -> list[tuple[int, int]]:
        """Order-preserving matching of min(len) pairs minimising crossings with the base."""
        short, long_, swap = (cands, refs, False) if len(cands) <= len(refs) else (refs, cands, True)
        cost = (lambda a, b: self.cross_base[(b, a)]) if swap else (lambda a, b: self.cross_base[(a, b)])
        p, q = len(short), len(long_)
        inf = float("inf")
        dp = [[inf] * (q + 1) for _ in range(p + 1)]
        take = [[False] * (q + 1) for _ in range(p + 1)]
        for j in range(q + 1):
            dp[0][j] = 0
        for i in range(1, p + 1):
            for j in range(i, q + 1):
                skip, use = dp[i][j - 1], dp[i - 1][j - 1] + cost(short[i - 1], long_[j - 1])
                if use <= skip:
                    dp[i][j], take[i][j] = use, True
                else:
                    dp[i][j] = skip
        result, i, j = [], p, q
        while i > 0:
            if take[i][j]:
                a, b = short[i - 1], long_[j - 1]
                result.append((b, a) if swap else (a, b))
                i -= 1
            j -= 1
        return result

    def run(self) -> tuple[list[tuple[int, int]], bool, int]:
        self._seed(self.options)
        limit = sys.getrecursionlimit()
        if len(self.order) + 200 > limit:
            sys.setrecursionlimit(len(self.order) + 200)
        try:
            self._descend(0, self.base_crossings)
        finally:
            sys.setrecursionlimit(limit)
        return self.best_pairs, not self.exhausted, self.nodes

    def _future_crossings(self) -> int:
        total = 0
        depth = self.depth
        need, matched = self.need, self.matched
        for comp, entries in enumerate(self.comp_min_cross):
            still = need[comp] - matched[comp]
            if still <= 0:
                continue
            for cost, k in entries:
                if k > depth:
                    if cost == 0:
                        break  # the rest cost nothing either
                    total += cost
                    still -= 1
                    if not still:
                        break
        return total

    def _bound_ok(self, crossings: int) -> bool:
        best = self.best_cost
        if self.objective == "crossings":
            crossings += self._future_crossings()
            if crossings != best[0]:
                return crossings < best[0]  # the chunk bound only matters on a crossings tie
            bound = (crossings, self._chunk_lower_bound())
        else:
            bound = (self._chunk_lower_bound(), crossings)
        if bound != best:
            return bound < best
        return not self._prefix_not_better()

    def _descend(self, depth: int, crossings: int) -> None:
        if depth == len(self.order):
            self._leaf(crossings)
            return
        c = self.order[depth]
        self.depth = depth
        comp = self.comp_of[c]
        self.remaining[comp] -= 1
        need_after = self.need[comp] - self.matched[comp]
        refs = self.comp_refs[comp]
        for r in self.options[c]:
            if r in self.used_refs or (self.monotone and r <= self.last[comp]):
                continue
            # Feasibility: after taking r, can the component still reach its maximum?
            if self.monotone:
                free_refs = len(refs) - bisect_right(refs, r)
            else:
                free_refs = len(refs) - self.matched[comp] - 1
            if min(self.remaining[comp], free_refs) < need_after - 1:
                continue
            self.nodes += 1
            if self.nodes > self.budget:
                self.exhausted = True
                break
            added = self.cross_base[(c, r)] + len(self.chosen_refs_sorted) - bisect_right(self.chosen_refs_sorted, r)
            previous_last = self.last[comp]
            self._take(c, r, comp)
            self.depth = depth
            if self._bound_ok(crossings + added):
                self._descend(depth + 1, crossings + added)
            self._untake(c, r, comp, previous_last)
            if self.exhausted:
                break
        if not self.exhausted:
            # Leave c unmatched, if the component can still reach its maximum without it.
            free_refs = (len(refs) - bisect_right(refs, self.last[comp])) if self.monotone \
                else len(refs) - self.matched[comp]
            if min(self.remaining[comp], free_refs) >= need_after:
                self.nodes += 1
                if self.nodes > self.budget:
                    self.exhausted = True
                else:
                    self.decided[c] = _SKIP
                    self.vector.append(_SKIP)
                    self.depth = depth
                    if self._bound_ok(crossings):
                        self._descend(depth + 1, crossings)
                    self.vector.pop()
                    del self.decided[c]
        self.remaining[comp] += 1

    def _take(self, c: int, r: int, comp: int) -> None:
        self.used_refs.add(r)
        insort(self.chosen_refs_sorted, r)
        self.matched[comp] += 1
        self.last[comp] = r
        self.decided[c] = r
        self.partner[c] = r
        self.vector.append(r)

    def _untake(self, c: int, r: int, comp: int, previous_last: int) -> None:
        self.used_refs.discard(r)
        del self.chosen_refs_sorted[bisect_left(self.chosen_refs_sorted, r)]
        self.matched[comp] -= 1
        self.last[comp] = previous_last
        del self.decided[c]
        self.partner[c] = None
        self.vector.pop()

    def _leaf(self, crossings: int) -> None:
        if any(m != need for m, need in zip(self.matched, self.need)):
            return
        pairs = [(c, r) for c, r in self.decided.items() if r != _SKIP]
        chunks = count_chunks(self.base + pairs)
        cost = self._cost(crossings, chunks)
        if cost < self.best_cost or (cost == self.best_cost and self.vector < self.best_vector):
            self.best_cost = cost
            self.best_vector = list(self.vector)
            self.best_pairs = sorted(pairs)


def align_paper(
    candidate_words: Sequence[str],
    reference_words: Sequence[str],
    stages: Sequence[Stage],
    objective: str = "crossings",
    node_budget: int = 20_000,
) -> tuple[StageAlignment, ...]:
    """Run the stages in order, each on the words no earlier stage matched."""
    fixed: list[tuple[int, int]] = []
    cand_used: set[int] = set()
    ref_used: set[int] = set()
    outcomes = []
    for stage in stages:
        cand_free = [i for i in range(len(candidate_words)) if i not in cand_used]
        ref_free = [j for j in range(len(reference_words)) if j not in ref_used]
        edges = stage.edges(candidate_words, reference_words, cand_free, ref_free) if stage.available else []
        outcome = solve_stage(stage, edges, fixed, len(candidate_words), objective, node_budget)
        outcomes.append(outcome)
        for link in outcome.links:
            fixed.append((link.candidate, link.reference))
            cand_used.add(link.candidate)
            ref_used.add(link.reference)
    return tuple(outcomes)
