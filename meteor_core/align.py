"""Paper-mode alignment: per stage, the maximum number of matches, then the fewest crossings
over the whole alignment, then the fewest chunks, then the lexicographically smallest vector of
partners (spec section 1, Decisions). Objective "chunks" swaps crossings and chunks (METEOR 1.5
style). Exact, with a deterministic work budget per stage: past it the best alignment found is
returned and flagged optimal=False.

How (spec section 3, and why it is fast):
  * stages relate word *types* (stages.WordGraph): the candidate words of one component that
    relate to all of its reference words form a block (p candidate and q reference positions,
    every pair related), so equal words on both sides never become p x q edge objects;
  * an edge alone in its component is in every maximum matching; under the crossings
    objective a block is matched in order (uncrossing lemma: two crossing edges of one block
    can be swapped, strictly removing crossings), so a block with p = q is fixed and one with
    p != q only chooses which occurrences of its longer side are used;
  * when what is left has few maximum matchings (one or two repeated words, the usual case),
    they are enumerated (_solve_small), split into parts that cannot change each other's
    cost (far apart, or equal cost whatever both choose), each part on its own;
  * otherwise it is solved exactly by a dynamic programme over the candidate positions in
    increasing order (_Search). The state after position t holds only what the rest of the
    alignment can see: per unfinished component its progress, the partner of position t if
    position t + 1 may link to it, and the partners already chosen that a later edge could
    still cross or collide with (partners above every later option only count). Equal
    states merge, which is what makes long segments with many repeated words tractable,
    and a state that another with the same progress beats whatever follows is dropped
    (_drop_dominated: at 160 tokens a layer of 638 states kept 122);
  * a state is dropped when its cost plus a lower bound on the rest exceeds the best
    alignment found so far: per component, the cheapest completion of its progress, with the
    crossings every completion must add (_prepare_crossing_bound), and the references of a
    block with more candidate positions that it passed over unused, which a later position
    must take and every chosen partner above them crosses (in _Search.run);
  * states are kept in the lexicographic order of their best prefix, so among equal costs the
    first arrival is the lexicographically smallest: the tie-break costs nothing extra.

Everything is iterative (no recursion whose depth grows with the input) and touches no
process-wide state. Work is counted in deterministic units (one per DP transition or option
prepared), so the same input gives the same result on any machine.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from heapq import heappush, heapreplace
from itertools import accumulate, combinations, permutations, product, repeat
from math import comb, perm
from operator import add, itemgetter, le
from typing import Optional, Sequence

from .params import DEFAULT_NODE_BUDGET
from .stages import Stage, StageEdge, WordGraph

_SKIP = 1 << 60  # an unmatched candidate position sorts after every partner in the lex vector
_NONE = -10  # "no partner" in partner arrays: never equal to r - 1 or r + 1 for a position r
#: Beam widths of the bounded searches (_Search.solve). A greedy pass (width 1) gives the
#: exact programme its incumbent: on real text it is as good an incumbent as a wider beam
#: (the same optimum proven, 0 of 3,968 WMT22 pairs and 40 joined 80- and 160-token pairs
#: flagged) and align_stages took 16-27% less time per pair at 80 and 160 tokens. Only when
#: the exact run spends its budget does a beam of width 4 look for a better answer to return
#: (flagged). On 600 random pairs over 2-30 letters, against width 4 alone: 33 flagged
#: answers better, 4 worse; 248 flagged instead of 246 (3 proofs lost, 1 gained). 4 rather
#: than 8: the beam took half the time of long pairs.
_GREEDY_WIDTH = 1
_BEAM_WIDTH = 4


def count_crossings(pairs: Sequence[tuple[int, int]]) -> int:
    """Pairs (i, j), (k, l) cross iff (i - k)(j - l) < 0: inversions of j in candidate order
    (Fenwick tree, O(n log n))."""
    refs = [j for _, j in sorted(pairs)]
    if len(refs) < 300:  # insertion into a sorted list: memmove beats the tree at this size
        seen: list[int] = []
        total = 0
        for count, j in enumerate(refs):
            at = bisect_right(seen, j)
            total += count - at
            seen.insert(at, j)
        return total
    size = max(refs) + 2
    tree = [0] * (size + 1)
    total = 0
    for seen, j in enumerate(refs):
        k = j + 1  # count the earlier refs <= j
        below = 0
        while k > 0:
            below += tree[k]
            k -= k & -k
        total += seen - below
        k = j + 1
        while k <= size:
            tree[k] += 1
            k += k & -k
    return total


def count_chunks(pairs: Sequence[tuple[int, int]]) -> int:
    """Fewest runs of consecutive mappings (i, j), (i + 1, j + 1)."""
    chunks = 0
    pi = pj = -2
    for i, j in sorted(pairs):
        if i != pi + 1 or j != pj + 1:
            chunks += 1
        pi, pj = i, j
    return chunks


@dataclass(frozen=True)
class StageAlignment:
    """What one stage added: its links (with evidence), whether proven optimal, effort."""

    stage: str
    links: tuple[StageEdge, ...]
    candidate_edges: int
    optimal: bool
    nodes: int  # work units spent (deterministic; compare with the node budget)


# -- components --------------------------------------------------------------------------

_BLOCK_IN_ORDER = 0  # every pair related; matched in order (crossings objective), p != q
_FREE = 1  # any matching of the component's edges
_INFINITE = 1 << 80
# Progress of a free component: positions skipped, and for free blocks 1 + the partner of the
# last link-less edge (see _Search.prepare), packed in one integer.
_PTR_SHIFT = 12
_SKIP_MASK = (1 << _PTR_SHIFT) - 1
# How position t changes the tuple of unfinished components' progress.
_ALONE, _STARTS, _GOES_ON, _ENDS = range(4)


class _Component:
    """A connected component of a stage's graph with more than one maximum matching candidate."""

    __slots__ = ("kind", "cands", "refs", "p", "q", "size", "options", "fallback", "block")

    def __init__(self, kind, cands, refs, size, options, fallback, block=False):
        self.kind = kind
        self.block = block  # every candidate position relates to every reference position
        self.cands = cands  # ascending candidate positions
        self.refs = refs  # ascending reference positions
        self.p = len(cands)
        self.q = len(refs)
        self.size = size  # maximum matching size
        self.options = options  # _FREE: candidate position -> ascending partners (built lazily)
        self.fallback = fallback  # a maximum matching (pairs), used when the search must stop


def _merge(groups: list[list[int]]) -> list[int]:
    if len(groups) == 1:
        return groups[0]
    return sorted(x for g in groups for x in g)


def _components(graph: WordGraph):
    """(candidate groups, reference groups, group pairs) per connected component."""
    if graph.one_to_one:
        for a in range(len(graph.candidate_groups)):
            yield [a], [a], [(a, a)]
        return
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x):
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    for a, b in graph.pairs:
        ra, rb = find((0, a)), find((1, b))
        if ra != rb:
            parent[ra] = rb
    found: dict[tuple[int, int], tuple[set, set, list]] = {}
    for a, b in graph.pairs:
        cands, refs, pairs = found.setdefault(find((0, a)), (set(), set(), []))
        cands.add(a)
        refs.add(b)
        pairs.append((a, b))
    for cands, refs, pairs in found.values():
        yield sorted(cands), sorted(refs), pairs


def _type_level_matching(graph: WordGraph, cand_types, ref_types, pairs):
    """A maximum matching of a component whose candidate group a relates to reference group b
    for (a, b) in pairs: a maximum flow over groups (capacity = group size), then expanded
    into positions. Work grows with the number of groups, not of position pairs."""
    cap_c = {a: len(graph.candidate_groups[a]) for a in cand_types}
    cap_r = {b: len(graph.reference_groups[b]) for b in ref_types}
    adjacency: dict[int, list[int]] = {}
    back: dict[int, list[int]] = {}
    for a, b in pairs:
        adjacency.setdefault(a, []).append(b)
        back.setdefault(b, []).append(a)
    flow: dict[tuple[int, int], int] = {}
    for a, b in pairs:  # greedy start
        f = min(cap_c[a], cap_r[b])
        if f:
            flow[(a, b)] = f
            cap_c[a] -= f
            cap_r[b] -= f
    while True:  # augmenting paths source -> a -> b (-> a' backwards -> b' ...) -> sink
        previous: dict = {}
        frontier = [("c", a) for a in cand_types if cap_c[a] > 0]
        for node in frontier:
            previous[node] = None
        end = None
        while frontier and end is None:
            following = []
            for side, x in frontier:
                if side == "c":
                    for b in adjacency[x]:
                        node = ("r", b)
                        if node not in previous:
                            previous[node] = (side, x)
                            if cap_r[b] > 0:
                                end = node
                                break
                            following.append(node)
                else:
                    for a in back[x]:
                        node = ("c", a)
                        if node not in previous and flow.get((a, x), 0) > 0:
                            previous[node] = (side, x)
                            following.append(node)
                if end is not None:
                    break
            frontier = following
        if end is None:
            break
        path = [end]
        while previous[path[-1]] is not None:
            path.append(previous[path[-1]])
        path.reverse()  # c, r, c, r, ..., r
        amount = min(cap_c[path[0][1]], cap_r[path[-1][1]])
        for k in range(2, len(path) - 1, 2):  # backward edges r -> c
            amount = min(amount, flow[(path[k][1], path[k - 1][1])])
        for k in range(0, len(path) - 1):
            (s1, x1), (_, x2) = path[k], path[k + 1]
            if s1 == "c":
                flow[(x1, x2)] = flow.get((x1, x2), 0) + amount
            else:
                flow[(x2, x1)] -= amount
        cap_c[path[0][1]] -= amount
        cap_r[path[-1][1]] -= amount
    next_c = {a: 0 for a in cand_types}
    next_r = {b: 0 for b in ref_types}
    matching = []
    for (a, b), f in sorted(flow.items()):
        for _ in range(f):
            matching.append((graph.candidate_groups[a][next_c[a]], graph.reference_groups[b][next_r[b]]))
            next_c[a] += 1
            next_r[b] += 1
    return sorted(matching)


def _free_options(graph: WordGraph, cand_types, pairs) -> dict[int, list[int]]:
    related: dict[int, list[int]] = {}
    for a, b in pairs:
        related.setdefault(a, []).append(b)
    options = {}
    for a in cand_types:
        partners = _merge([graph.reference_groups[b] for b in related[a]])
        for i in graph.candidate_groups[a]:
            options[i] = partners
    return options


# -- one stage ---------------------------------------------------------------------------

def solve_stage(
    stage: Stage,
    graph: WordGraph,
    partner: list[int],
    objective: str = "crossings",
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> tuple[list[tuple[int, int]], int, bool, int]:
    """Choose this stage's links given `partner` (candidate position -> reference position of
    the links fixed by earlier stages, _NONE if unmatched). Returns (pairs, related pairs,
    optimal, work)."""
    in_order = objective == "crossings"
    forced: list[tuple[int, int]] = []
    variable: list[_Component] = []
    n_edges = 0
    work = 0
    if graph.one_to_one:  # key stages: each pair of groups is a whole block (the common case)
        for cands, refs in zip(graph.candidate_groups, graph.reference_groups):
            p, q = len(cands), len(refs)
            n_edges += p * q
            if p == q and (in_order or p == 1):
                forced.extend(zip(cands, refs))  # uncrossing lemma: in order, fully determined
            elif in_order:
                variable.append(_Component(_BLOCK_IN_ORDER, cands, refs, min(p, q), None, list(zip(cands, refs))))
            else:
                variable.append(_Component(_FREE, cands, refs, min(p, q), {i: refs for i in cands},
                                           list(zip(cands, refs)), block=True))
        work += len(graph.candidate_groups)
        components = ()
    else:
        components = _components(graph)
    for cand_types, ref_types, pairs in components:
        cands = _merge([graph.candidate_groups[a] for a in cand_types])
        refs = _merge([graph.reference_groups[b] for b in ref_types])
        p, q = len(cands), len(refs)
        block = len(pairs) == len(cand_types) * len(ref_types)
        edges = p * q if block else sum(len(graph.candidate_groups[a]) * len(graph.reference_groups[b])
                                        for a, b in pairs)
        n_edges += edges
        work += len(pairs)
        if edges == 1:
            forced.append((cands[0], refs[0]))
        elif block and in_order:
            if p == q:
                forced.extend(zip(cands, refs))  # uncrossing lemma: in order, fully determined
            else:
                variable.append(_Component(_BLOCK_IN_ORDER, cands, refs, min(p, q), None, list(zip(cands, refs))))
        elif block:
            # Fallback: in order, the leftmost occurrences of the longer side.
            variable.append(_Component(_FREE, cands, refs, min(p, q), {i: refs for i in cands},
                                       list(zip(cands, refs)), block=True))
        else:
            matching = _type_level_matching(graph, cand_types, ref_types, pairs)
            work += len(pairs) * 2 + len(matching)
            variable.append(_Component(_FREE, cands, refs, len(matching),
                                       _free_options(graph, cand_types, pairs), matching))
    if not variable:
        return sorted(forced), n_edges, True, work
    base = list(partner)
    for i, j in forced:
        base[i] = j
    budget = max(0, node_budget - work)
    small = _solve_small(variable, base, objective, budget)
    if small is not None:
        return sorted(forced + small[0]), n_edges, True, work + small[1]
    if all(comp.block or comp.kind == _BLOCK_IN_ORDER for comp in variable):
        # Each block matched in order, leftmost first, is the lexicographically first maximum
        # matching. If the whole alignment is then one chunk, nothing has fewer chunks or
        # crossings (one chunk has none), so under either objective it is the optimum, proven
        # without a search (identical texts of repeated words took the whole budget under
        # fewest chunks, then were flagged; 1,999 x "x" against 60 under fewest crossings).
        # One chunk over all blocks together: "the , the , ..." against itself is two blocks,
        # neither a run on its own (it was flagged under fewest chunks at 2,000 tokens). Tried
        # only where enumeration would not do (it is exact and cheap on small cases); a pass
        # over the pairs, small beside the search it saves or precedes.
        in_order = [pair for comp in variable for pair in comp.fallback]
        if count_chunks([(i, j) for i, j in enumerate(base) if j >= 0] + in_order) == 1:
            return sorted(forced + in_order), n_edges, True, work + len(in_order)
    if objective == "chunks" and all(comp.block for comp in variable):
        chosen, optimal, spent = _LinksFirst(variable, base, len(partner)).solve(budget)
    else:
        chosen, optimal, spent = _Search(variable, base, objective, len(partner)).solve(budget)
    return sorted(forced + chosen), n_edges, optimal, work + spent


#: Most alignments _solve_small compares one by one (the common case on real sentences: one or
#: two repeated words such as "the" 2 x 3).
_SMALL = 64


def _component_choices(comp: _Component) -> Optional[list]:
    """Every maximum matching of a small component (lists of pairs, in the lexicographic order
    of their partner vectors), or None if too many."""
    p, q = comp.p, comp.q
    cands, refs = comp.cands, comp.refs
    if comp.kind == _BLOCK_IN_ORDER:
        if (comb(q, p) if p < q else comb(p, q)) > _SMALL:
            return None
        if p < q:
            return [list(zip(cands, chosen)) for chosen in combinations(refs, p)]
        return [list(zip(chosen, refs)) for chosen in combinations(cands, q)]
    if comp.block:
        count = perm(q, p) if p <= q else comb(p, q) * perm(q, q)
        if count > _SMALL:
            return None
        if p <= q:
            return [list(zip(cands, chosen)) for chosen in permutations(refs, p)]
        found = [list(zip(chosen, order)) for chosen in combinations(cands, q) for order in permutations(refs)]
        # in the lexicographic order of the partner vectors (unmatched last), as the rest
        found.sort(key=lambda pairs: [dict(pairs).get(c, _SKIP) for c in cands])
        return found
    total = 1
    for c in cands:
        total *= len(comp.options[c]) + 1
        if total > 4 * _SMALL:
            return None
    found = []
    for choice in product(*[comp.options[c] + [_NONE] for c in cands]):
        taken = [r for r in choice if r != _NONE]
        if len(taken) == comp.size and len(set(taken)) == len(taken):
            found.append([(c, r) for c, r in zip(cands, choice) if r != _NONE])
    return found


def _cost_units(n: int, objective: str) -> tuple[int, int]:
    """(crossing unit, link unit) of the enumerations' one-integer costs, as in _Search: the
    primary objective scaled above the other (n + 1 > any link count, n * n + 1 > any crossing
    count)."""
    return (n + 1, 1) if objective == "crossings" else (1, n * n + 1)


def _solve_small(components: list[_Component], base: list[int], objective: str, budget: int):
    """Exact by enumeration when the components have few maximum matchings: every choice is
    scored by (objective, then the lexicographic vector) and the least is taken. Components
    whose choices cannot change each other's cost (far apart, or equal costs whatever both
    choose) are solved apart: the best combination of independent parts is the best of each
    part, also for the tie-break, since their positions are disjoint. Returns (pairs, work),
    or None when a part has more than _SMALL combinations or the work exceeds `budget`."""
    limit = min(budget, _SMALL)
    if len(components) == 1 and components[0].size == 1:
        comp = components[0]
        count = comp.p * comp.q if comp.kind == _BLOCK_IN_ORDER or comp.block else \
            sum(len(comp.options[c]) for c in comp.cands)
        return _one_link(comp, base, objective) if count <= limit else None
    choices = []
    for comp in components:
        found = _component_choices(comp)
        if found is None or len(found) > limit:
            return None
        choices.append(found)
    count = len(choices)

    def parts_of(linked):
        """The connected parts of the components under the (x, y) pairs in `linked`."""
        part_of = list(range(count))

        def find(x):
            while part_of[x] != x:
                part_of[x] = part_of[part_of[x]]
                x = part_of[x]
            return x

        for x, y in linked:
            part_of[find(x)] = find(y)
        found: dict = {}
        for x in range(count):
            found.setdefault(find(x), []).append(x)
        return list(found.values())

    # Two components can change each other's cost only if they may be adjacent or may cross
    # depending on their choices; otherwise they cross whatever both choose, or never.
    near = [(x, y) for x in range(count) for y in range(x + 1, count)
            if not ((components[x].cands[-1] + 1 < components[y].cands[0] or
                     components[y].cands[-1] + 1 < components[x].cands[0]) and
                    (components[x].refs[-1] < components[y].refs[0] or
                     components[y].refs[-1] < components[x].refs[0]))]
    for members in parts_of(near):  # refuse before any table is built
        total = 1
        for x in members:
            total *= len(choices[x])
        if total > limit:
            return None
    n = len(base)
    sorted_refs = sorted(l for l in base if l >= 0)
    cross_unit, link_unit = _cost_units(n, objective)
    edge_cost: dict = {}  # edge -> its cost against the fixed links (crossings, fixed neighbours)
    prefixes: dict = {}  # c -> sorted references of the fixed links left of c
    for combination in choices:
        for part in combination:
            for c, r in part:
                if (c, r) in edge_cost:
                    continue
                prefix = prefixes.get(c)
                if prefix is None:
                    prefix = prefixes[c] = sorted([l for l in base[:c] if l >= 0])
                # crossings = left-and-above + right-and-below = below_c + below_r - 2 (left-and-below)
                crossings = len(prefix) + bisect_left(sorted_refs, r) - 2 * bisect_left(prefix, r)
                links = (c > 0 and base[c - 1] == r - 1) + (c + 1 < n and base[c + 1] == r + 1)
                edge_cost[(c, r)] = crossings * cross_unit - links * link_unit

    def cost_of(pairs):
        """Cost of one component's chosen pairs (in candidate order) on top of the fixed links:
        their own costs, minus a link unit per adjacent pair, plus a crossing unit per pair
        crossing."""
        cost = 0
        for a, (c, r) in enumerate(pairs):
            cost += edge_cost[(c, r)]
            for c2, r2 in pairs[a + 1:]:
                if r2 < r:
                    cost += cross_unit
                elif c2 == c + 1 and r2 == r + 1:
                    cost -= link_unit
        return cost

    def cost_between(pairs, others):
        """Crossings and links between the choices of two components (disjoint positions)."""
        cost = 0
        for c, r in pairs:
            for c2, r2 in others:
                if (c < c2) != (r < r2):
                    cost += cross_unit
                elif (c2 == c + 1 and r2 == r + 1) or (c == c2 + 1 and r == r2 + 1):
                    cost -= link_unit
        return cost

    work = sum(len(found) for found in choices)
    if work > budget:  # each part fits, all of them together may not (a tester: 7 units of 5)
        return None
    own = [[cost_of(pairs) for pairs in found] for found in choices]
    tables: dict = {}  # (x, y) -> cost between each choice of x and each choice of y
    for x, y in near:
        work += len(choices[x]) * len(choices[y])
        if work > budget:
            return None
        table = [[cost_between(pairs, others) for others in choices[y]] for pairs in choices[x]]
        if len({value for row in table for value in row}) > 1:  # equal costs: no interaction
            tables[(x, y)] = table
    chosen = []
    for members in parts_of(tables):
        if len(members) == 1:
            # Choices come in the lexicographic order of their vectors (combinations and
            # permutations of increasing positions): the first least cost is the answer.
            x = members[0]
            best = None
            for index, cost in enumerate(own[x]):
                if best is None or cost < best[0]:
                    best = (cost, index)
            chosen.extend(choices[x][best[1]])
            continue
        sizes = [len(choices[x]) for x in members]
        total = 1
        for size in sizes:
            total *= size
        work += total
        if total > limit or work > budget:
            return None
        inside = [(members.index(x), members.index(y), table) for (x, y), table in tables.items()
                  if x in members]
        positions = sorted(c for x in members for c in components[x].cands)

        def vector(indices):
            partner_of = dict(pair for x, i in zip(members, indices) for pair in choices[x][i])
            return [partner_of.get(c, _SKIP) for c in positions]

        best_cost = best_indices = best_vector = None
        for indices in product(*[range(size) for size in sizes]):
            cost = sum([own[x][i] for x, i in zip(members, indices)])
            for u, v, table in inside:
                cost += table[indices[u]][indices[v]]
            if best_cost is None or cost < best_cost:
                best_cost, best_indices, best_vector = cost, indices, None
            elif cost == best_cost:  # a tie: the lexicographically smaller vector
                if best_vector is None:
                    best_vector = vector(best_indices)
                candidate_vector = vector(indices)
                if candidate_vector < best_vector:
                    best_indices, best_vector = indices, candidate_vector
        chosen.extend(pair for x, i in zip(members, best_indices) for pair in choices[x][i])
    return sorted(chosen), work


def _one_link(comp: _Component, base: list[int], objective: str):
    """The common small case (a word once on one side, twice or more on the other): one link
    to place. Each option is scored on its own (crossings with the fixed links, links to fixed
    neighbours) in the lexicographic order of the partner vectors, and the first least wins:
    the same answer as the enumeration, without building its tables. Returns (pairs, work)."""
    n = len(base)
    cross_unit, link_unit = _cost_units(n, objective)
    best = best_pair = None
    work = 0
    for c in comp.cands:  # ascending, and each position's partners ascending: lexicographic
        left, right = base[:c], base[c + 1:]
        before = base[c - 1] if c > 0 else _NONE
        after = base[c + 1] if c + 1 < n else _NONE
        for r in (comp.options[c] if comp.kind == _FREE and not comp.block else comp.refs):
            crossings = len([l for l in left if l > r]) + len([l for l in right if 0 <= l < r])
            cost = crossings * cross_unit - ((before == r - 1) + (after == r + 1)) * link_unit
            work += 1
            if best is None or cost < best:
                best, best_pair = cost, (c, r)
    return [best_pair], work


class _LinksFirst:
    """Fewest chunks over blocks (exact and stem stages), in two levels.

    chunks = matches - links, and matches are fixed, so the objective is: most links, then
    fewest crossings, then the lexicographic rule. Call an edge linked when it forms a link
    (with a diagonal neighbour, fixed or chosen) and a singleton otherwise. Two singletons of
    one block never cross in an optimum (swapping their partners removes that crossing, adds
    none elsewhere and cannot lose a link: they had none). So an optimum is: its set X of
    linked edges, plus, per block, the remaining positions matched in order (the crossings
    objective's case, solved by _Search), where the rest cannot add a link (X has the most
    links). Level one enumerates every X with the most links by a programme over the
    positions that can link at all; level two solves the rest for each X."""

    #: Most sets of linked edges compared before the search gives up (flagged).
    MAX_LINK_SETS = 64

    def __init__(self, components: list[_Component], base: list[int], n: int):
        self.components = components
        self.base = base
        self.n = n

    def _linkable(self) -> dict[int, list[int]]:
        base = self.base
        possible = {c: set(comp.refs) for comp in self.components for c in comp.cands}
        found = {}
        for comp in self.components:
            for c in comp.cands:
                before, after = possible.get(c - 1, ()), possible.get(c + 1, ())
                left = base[c - 1] if c > 0 else _NONE
                right = base[c + 1] if c + 1 < self.n else _NONE
                options = [r for r in comp.refs
                           if left == r - 1 or right == r + 1 or r - 1 in before or r + 1 in after]
                if options:
                    found[c] = options
        return found

    @staticmethod
    def _links_to_go(positions, linkable, base) -> list[dict]:
        """to_go[t][r]: most links positions t + 1.. can add when position t takes r (_NONE:
        no linked edge), ignoring that two positions may want one partner: an upper bound."""
        P = len(positions)
        to_go = [None] * P
        best_next = 0  # from t + 1 on, when t's partner does not continue into t + 1
        gains_next: dict = {}  # partner r' of t + 1 -> links at t + 1 (fixed neighbours) and after
        for t in range(P - 1, -1, -1):
            c = positions[t]
            adjacent = t + 1 < P and positions[t + 1] == c + 1
            row = {_NONE: best_next}
            for r in linkable[c]:
                follow = gains_next.get(r + 1) if adjacent else None
                row[r] = best_next if follow is None or follow + 1 < best_next else follow + 1
            to_go[t] = row
            left = base.get(c - 1, _NONE)
            right = base.get(c + 1, _NONE)
            gains_next = {r: (left == r - 1) + (right == r + 1) + row[r] for r in linkable[c]}
            best_next = max(row[_NONE], max(gains_next.values()))
        return to_go

    def _prepare_side(self, linkable: dict[int, list[int]], base: dict[int, int]):
        """What _link_sets needs of one orientation, computed once: the positions, per
        position the partners later positions may link with, the bound from _links_to_go,
        and the reference gaps later links could take. Work: set operations, counted 1/16."""
        positions = sorted(linkable)
        P = len(positions)
        future: list[set] = [set() for _ in range(P + 1)]  # partners later positions may link with
        for t in range(P - 1, -1, -1):
            future[t] = future[t + 1] | set(linkable[positions[t]])
        to_go = self._links_to_go(positions, linkable, base)
        # Each link takes a gap (r, r + 1) of the reference: gaps[t] = the gaps links counted
        # at positions t.. could take. A gap is lost once its right end is used, or its left
        # end by anything but the current position: a second bound on the links to come.
        gaps: list[set] = [set() for _ in range(P + 1)]
        for t in range(P - 1, -1, -1):
            gaps[t] = gaps[t + 1] | {g for r in linkable[positions[t]] for g in (r - 1, r)}
        work = (sum(len(f) for f in future) + sum(len(row) for row in to_go) + sum(len(g) for g in gaps)) // 16
        return (linkable, base, positions, future, to_go, gaps), work

    def _link_sets(self, side, budget: int, width: Optional[int] = None, floor: int = 0):
        """Every set of linked edges with the most links: (links, [sets], work), or (None, None,
        work) past the budget (work: the budget) or MAX_LINK_SETS, or with no complete set.
        `side` (from _prepare_side): the positions of one side that can link, their options and
        fixed partners. A state is dropped when a bound
        cannot reach `floor` links. width: keep only that many states per position (a beam:
        its best is a floor for the exact run)."""
        linkable, base, positions, future, to_go, gaps = side
        P = len(positions)
        work = 0
        option_sets = {}  # per position, for a pending state's one possible partner
        # state: (partner of the previous position if it may link to this one, whether this
        # position must continue it, partners used that later positions could still want)
        layer = {(_NONE, False, ()): (0, [])}
        layers = [layer]  # per depth: {state: (links, [(parent index, partner or _NONE)])}
        keys_at = []
        for t, c in enumerate(positions):
            adjacent_prev = t > 0 and positions[t - 1] == c - 1
            adjacent_next = t + 1 < P and positions[t + 1] == c + 1
            next_options = set(linkable[positions[t + 1]]) if adjacent_next else ()
            left_fixed = base.get(c - 1, _NONE)
            right_fixed = base.get(c + 1, _NONE)
            keep_after = future[t + 1]
            bound = to_go[t]
            gaps_after = gaps[t + 1]
            open_gaps = len(gaps_after)
            children: dict = {}
            keys = list(layer)
            for index, key in enumerate(keys):
                prev, pending, used = key
                value = layer[key][0]
                if not adjacent_prev:
                    prev = _NONE
                moves = [] if pending else [(_NONE, 0, False)]
                options = linkable[c]
                if pending:  # only prev + 1 continues the link: no scan of every option
                    if c not in option_sets:
                        option_sets[c] = set(options)
                        work += len(options) >> 3
                    options = (prev + 1,) if prev + 1 in option_sets[c] else ()
                taken = set(used) if len(used) > 8 else used  # membership per option below
                work += len(options) >> 3  # the scan itself, skipped partners included
                for r in options:
                    if r in taken:
                        continue
                    gain = (prev == r - 1 or left_fixed == r - 1) + (right_fixed == r + 1)
                    if gain:
                        moves.append((r, gain, False))
                    elif r + 1 in next_options:
                        moves.append((r, 0, True))  # linked only if the next position continues
                work += len(moves)
                if work > budget:
                    return None, None, budget
                for r, gain, must in moves:
                    total = value + gain
                    if total + bound[r] < floor:
                        continue
                    if r == _NONE:
                        new_used = tuple(u for u in used if u in keep_after)
                    else:
                        new_used = tuple(sorted(u for u in used + (r,) if u in keep_after))
                    if floor:
                        lost = {u - 1 for u in used} | {u for u in used if u != r}
                        if r != _NONE:
                            lost.add(r - 1)
                        if total + open_gaps - len(lost & gaps_after) < floor:
                            continue
                    child = (r if adjacent_next else _NONE, must, new_used)
                    known = children.get(child)
                    if known is None or total > known[0]:
                        children[child] = (total, [(index, r)])
                    elif total == known[0]:
                        known[1].append((index, r))
            if width is not None and len(children) > width:
                kept = sorted(children.items(), key=lambda item: -(item[1][0] + bound[item[0][0]]
                                                                     if adjacent_next else item[1][0]))[:width]
                children = dict(kept)
            keys_at.append(keys)
            layer = children
            layers.append(layer)
        finals = [(key, entry) for key, entry in layer.items() if not key[1]]
        if not finals:
            return None, None, work
        best = max(entry[0] for _, entry in finals)
        # Every path to a best final state (iterative depth-first walk back); the beam: one.
        sets = []
        stack = [(P, key, ()) for key, entry in finals if entry[0] == best]
        if width is not None:
            stack = stack[:1]
        while stack:
            t, key, chosen = stack.pop()
            if t == 0:
                sets.append(sorted(chosen))
                if width is not None:
                    break
                if len(sets) > self.MAX_LINK_SETS:
                    return None, None, work
                continue
            work += 1
            if work > budget:  # many sets tie: walking them back is work too
                return None, None, budget
            for index, r in layers[t][key][1]:
                stack.append((t - 1, keys_at[t - 1][index], chosen + (((positions[t - 1], r),) if r != _NONE else ())))
        return best, sets, work

    def solve(self, budget: int):
        work = sum(comp.p * comp.q for comp in self.components)
        if work > budget:
            return self._give_up(budget)
        linkable = self._linkable()
        by_reference: dict[int, list[int]] = {}
        for c, options in linkable.items():
            for r in options:
                by_reference.setdefault(r, []).append(c)
        fixed = {c: r for c, r in enumerate(self.base) if r >= 0}
        fixed_pairs = list(fixed.items())  # in candidate order
        fixed_by_reference = {r: c for c, r in fixed.items()}
        sides = []
        for side_linkable, side_base, transposed in ((linkable, fixed, False), (by_reference, fixed_by_reference, True)):
            side, spent = self._prepare_side(side_linkable, side_base)
            work += spent
            sides.append((side, transposed))
        if work > budget:
            return self._give_up(budget)
        # The longest runs first: they cost at most a quarter of the p * q already charged, so
        # they always fit; computed after the beams, they found the budget spent on long
        # repetitive pairs, and the answer past the budget was the in-order alignment ("x y" x
        # 150 against "y x" x 150: 300 chunks where runs give 2; a tester).
        runs, spent = self._longest_runs(budget - work)
        work += spent
        # Floors on the most links: the in-order alignment (the crossings objective's
        # answer for these blocks) and a beam over each side.
        in_order, _, spent = self._complete((), (budget - work) // 8)
        work += spent
        fixed_links = len(fixed) - count_chunks(fixed_pairs)
        everything = fixed_pairs + in_order
        floor = len(everything) - count_chunks(everything) - fixed_links
        in_order_links = floor
        guesses = []  # (links, set of linked edges) beating in order: the answer if all else fails
        for side, transposed in sides:
            links, sets, spent = self._link_sets(side, (budget - work) // 4, width=16)
            work += spent  # a beam that fails still spent its work (all of its allowance, or less)
            if links is not None and links > in_order_links:
                floor = max(floor, links)
                guesses.append((links, sorted((c, r) for r, c in sets[0]) if transposed else sets[0]))
        if runs:
            everything = fixed_pairs + runs
            links = len(everything) - count_chunks(everything) - fixed_links
            if links > in_order_links:
                floor = max(floor, links)
                guesses.append((links, runs))
        # Which side is cheap is not known beforehand: alternate, quadrupling the allowance.
        found = None
        allowance = 1000
        while found is None and work < budget:
            for side, transposed in sides:
                spend = min(allowance, budget - work)
                links, sets, spent = self._link_sets(side, spend, floor=floor)
                # A failure counts the whole allowance: retrying is pointless when the cause is
                # not the budget (too many tied sets), and the loop must end.
                work += spent if links is not None else spend
                if links is not None:
                    if transposed:
                        sets = [sorted((c, r) for r, c in linked) for linked in sets]
                    found = (links, sets)
                    break
            allowance *= 4
        if found is None:  # past the budget: the best alignment seen (flagged)
            if not guesses:
                return in_order, False, work
            # Of the sets with the most links, the one whose completion crosses least (a beam's
            # or the runs': either can win).
            most = max(links for links, _ in guesses)
            completed = [self._complete(linked, 0)[0] for links, linked in guesses if links == most]
            chosen = min(completed, key=lambda pairs: count_crossings(fixed_pairs + pairs))
            return chosen, False, work
        sets = found[1]
        best = None
        optimal = True
        positions = sorted(c for comp in self.components for c in comp.cands)
        # The linked edges' own crossings bound the whole; the rest only adds crossings.
        ranked = sorted((count_crossings(fixed_pairs + linked), number) for number, linked in enumerate(sets))
        for lower, number in ranked:
            if best is not None and lower > best[0][0]:
                break
            pairs, proven, spent = self._complete(sets[number], max(0, budget - work))
            work += spent
            optimal = optimal and proven
            partner_of = dict(pairs)
            rank = (count_crossings(fixed_pairs + pairs), [partner_of.get(c, _SKIP) for c in positions])
            if best is None or rank < best[0]:
                best = (rank, pairs)
        return best[1], optimal, work

    def _longest_runs(self, budget: int) -> tuple[list[tuple[int, int]], int]:
        """(linked edges, work): the longest diagonal runs of related pairs first, each cut
        where a longer run took a position; runs of one pair are left to the completion. A
        floor for the search, and the answer past the budget when it beats the beam's:
        on "x y" x 40 against "y x" x 40 the beam's best was the in-order alignment (80
        chunks) while two runs cover everything (2 chunks). Work: a scan, counted 1/8 as in
        _link_sets, of each related pair (at most twice); past `budget`, the runs found so far."""
        component_of_candidate = {c: k for k, comp in enumerate(self.components) for c in comp.cands}
        component_of_reference = {r: k for k, comp in enumerate(self.components) for r in comp.refs}
        on_candidate, on_reference = component_of_candidate.get, component_of_reference.get
        runs = []
        work = 0
        for comp in self.components:
            cost = (2 * comp.p * comp.q) >> 3  # p * q start checks, at most p * q steps along runs
            if work + cost > budget:
                continue  # this word's runs do not fit; a smaller word's may (a break skipped them all)
            work += cost
            for c in comp.cands:
                before = on_candidate(c - 1, -1)
                for r in comp.refs:
                    if before == on_reference(r - 1, -2):
                        continue  # (c - 1, r - 1) is related too: not where a run starts
                    length = 1
                    while on_candidate(c + length, -1) == on_reference(r + length, -2):
                        length += 1
                    if length > 1:
                        runs.append((-length, c, r))
        runs.sort()  # longest first; then leftmost in the candidate, then in the reference
        used_candidates, used_references = set(), set()
        linked: list[tuple[int, int]] = []
        for negative_length, c, r in runs:
            piece: list[tuple[int, int]] = []
            for d in range(1 - negative_length):  # one step past the end closes the last piece
                free = d < -negative_length and c + d not in used_candidates and r + d not in used_references
                if free:
                    piece.append((c + d, r + d))
                    continue
                if len(piece) > 1:
                    linked += piece
                    used_candidates.update(i for i, _ in piece)
                    used_references.update(j for _, j in piece)
                piece = []
        return sorted(linked), work

    def _give_up(self, budget: int):
        """Past the budget before searching: the components' fallback matchings or, when they
        fit the budget and link more, the longest runs completed in order; flagged, with the
        whole budget reported spent (as _Search reports it), not the units used."""
        fixed_pairs = [(c, r) for c, r in enumerate(self.base) if r >= 0]

        def links(pairs):
            everything = fixed_pairs + pairs
            return len(everything) - count_chunks(everything)

        # The fewest-crossings alignment of the blocks first (within half the budget; nothing
        # when every block is square): on "x y" x 500 against "y x" x 501 it is one chunk,
        # where the in-order fallback had 1,000 and the runs did not fit the budget (a tester).
        chosen, _, spent = self._complete((), budget // 2)
        runs, _ = self._longest_runs(budget - spent)
        if runs:
            completed = self._complete(runs, 0)[0]
            if links(completed) > links(chosen):
                chosen = completed
        return chosen, False, budget

    def _complete(self, linked, budget):
        """The rest of an alignment given its linked edges: each block's remaining positions
        in order, fewest crossings (then the lexicographic rule)."""
        base = list(self.base)
        for i, j in linked:
            base[i] = j
        taken_c = {i for i, _ in linked}
        taken_r = {j for _, j in linked}
        forced, variable = [], []
        for comp in self.components:
            cands = [c for c in comp.cands if c not in taken_c]
            refs = [r for r in comp.refs if r not in taken_r]
            if not cands or not refs:
                continue
            if len(cands) == len(refs):
                forced.extend(zip(cands, refs))
            else:
                variable.append(_Component(_BLOCK_IN_ORDER, cands, refs, min(len(cands), len(refs)), None,
                                           list(zip(cands, refs)), block=True))
        if not variable:
            return list(linked) + forced, True, 0
        for i, j in forced:
            base[i] = j
        chosen, optimal, work = _Search(variable, base, "crossings", self.n).solve(budget)
        return list(linked) + forced + chosen, optimal, work


def _drop_dominated(children: dict, later: list[int], loose: tuple[int, ...],
                    budget: int) -> tuple[Optional[dict], int]:
    """Drop the states another state of the same layer beats whatever follows. A state B
    is beaten by A when every completion of B is also one of A and costs no more from A:
    * the same previous partner and pending flag, and the same progress in every component
      except the in-order blocks with more reference than candidate positions (slots
      `loose`), where A's last reference used is no later than B's (A may then take every
      later reference B may);
    * a completion costs the same from both except for its crossings with the partners
      chosen so far: a later edge to r crosses `above` plus the visible partners above r,
      and A's count is no larger at any r;
    * A's prefix costs no more and, at equal cost, is lexicographically smaller (a tie then
      goes to A's completion too).
    Only for in-order blocks: a free component's option can collide with a visible partner,
    which this does not compare. Later edges take only the partners in `later` (ascending),
    so "any r" is any r in `later`, and the count can change only at the largest of them
    below a visible partner. Returns the states kept (None once the work exceeds `budget`)
    and the work spent."""
    groups: dict = {}
    # Every state of a layer has the same components open, so the slots compared are the
    # same for all: one C-level getter (a tuple of them, or () when none is compared).
    compared = None
    for item in children.items():
        key = item[0]
        progress = key[0]
        if loose:
            if compared is None:
                slots = [i for i in range(len(progress)) if i not in loose]
                compared = itemgetter(*slots) if slots else (lambda progress: ())
            progress = compared(progress)
        group = (progress, key[3], key[4])
        members = groups.get(group)
        if members is None:
            groups[group] = [item]
        else:
            members.append(item)
    if len(groups) == len(children):
        return children, 0
    kept_children = {}
    work = 0
    budget <<= 2  # counted in quarter units
    for members in groups.values():
        if len(members) == 1:
            key, value = members[0]
            kept_children[key] = value
            continue
        # Cost first, then the prefix's lexicographic order (parent rank, option).
        members.sort(key=_cost_then_prefix)
        # Each distinct visible partner once (states of a group share most of them).
        partners = set().union(*[key[1] for key, _ in members])
        points = sorted({later[at - 1] for at in map(bisect_left, repeat(later), partners) if at})
        kept: list[tuple[int, ...]] = []
        for key, value in members:
            visible = key[1]
            total = key[2] + len(visible)
            # Crossings of a later edge to r: below every point, at each point where some
            # state's count changes, and above every visible partner (`above` alone).
            profile = (*[key[0][i] for i in loose], total, *[total - bisect_right(visible, v) for v in points],
                       key[2])
            work += 4 + len(points) + 2 * len(kept)  # a quarter unit per profile entry, half per comparison
            if work > budget:
                return None, budget >> 2
            for other in kept:
                if all(map(le, other, profile)):
                    break
            else:
                kept.append(profile)
                kept_children[key] = value
    return kept_children, work >> 2


def _pairs_above(visible: tuple[int, ...], refs: list[int]) -> int:
    """Pairs (v, f) of two ascending sequences with v > f, counted along the shorter one (a
    block with many candidate positions may leave many references unused)."""
    if len(refs) <= len(visible):
        return len(visible) * len(refs) - sum(map(bisect_right, repeat(visible), refs))
    return sum(map(bisect_left, repeat(refs), visible))


def _table_by_used(comp) -> bool:
    """An in-order block with more candidate positions (p) than references (q) has its
    completion table indexed by references used (rows of q + 1) rather than by positions
    skipped (rows of p - q + 1), whichever is shorter."""
    return comp.q < comp.p - comp.q


def _table_units(comp: _Component) -> int:
    """Work charged for a component's completion table (_Search._completion_table): a unit
    per row, and 1/16 per cell of a two-dimensional table."""
    p, q = comp.p, comp.q
    if comp.kind == _FREE:
        return p + 1
    width = q - p + 1 if p < q else (q if _table_by_used(comp) else p - q) + 1
    return p + 1 + (p + 1) * width // 16


# A child of _Search.run: key -> (cost, bound, parent rank, choice, estimate, crossings with the
# items ahead, crossings with the unused references of open long blocks).
_key_of = _cost_of = itemgetter(0)
_value_of = _bound_of = itemgetter(1)
_items_of = itemgetter(5)
_held_of = itemgetter(6)
_prefix_choice = itemgetter(2, 3)


def _prefix_of(item):
    """A child's place in the lexicographic order of prefixes: (parent rank, choice)."""
    value = item[1]
    return value[2], value[3]


def _estimate_then_prefix(item):
    """A child's estimate, then its place in the prefix order (the greedy pass's choice)."""
    value = item[1]
    return value[4], value[2], value[3]


def _cost_then_prefix(item):
    value = item[1]
    return value[0], value[2], value[3]


class _Search:
    """The exact dynamic programme over the variable candidate positions (module docstring)."""

    def __init__(self, components: list[_Component], base: list[int], objective: str, n: int):
        self.components = components
        self.base = base  # candidate -> reference of every fixed link (earlier stages, forced)
        self.objective = objective
        self.n = n

    # -- preparation ---------------------------------------------------------------------
    @staticmethod
    def _static_options(comp: _Component, k: int) -> tuple[int, list[int]]:
        """(index of the first option within comp.refs, the options) of the k-th candidate
        position of `comp`, before any state is known."""
        if comp.kind == _BLOCK_IN_ORDER:
            if comp.p < comp.q:
                return k, comp.refs[k:k + comp.q - comp.p + 1]
            lo = max(0, k - (comp.p - comp.q))
            return lo, comp.refs[lo:min(k, comp.q - 1) + 1]
        return 0, comp.options[comp.cands[k]]

    def _free_block_options(self) -> dict:
        """Options of the positions of free blocks (chunks objective). A position either links
        (partner r with (c - 1, r - 1) or (c + 1, r + 1) possible: a "linkable" option) or is
        a singleton; a block's singletons take increasing partners (see prepare), so the k-th
        position's singleton partner is among references k - a - b .. of the block, where a,
        b bound the earlier positions that link or stay unmatched (and symmetrically from the
        end): a window of the block's references. Returns {position: (0, options)} and sets
        self.window_of[position] = (lowest, highest) singleton partner."""
        base = self.base
        possible: dict[int, object] = {}
        for comp in self.components:
            for c in comp.cands:
                possible[c] = comp.options[c] if comp.kind == _FREE else comp.refs
        found = {}
        self.window_of = {}
        for comp in self.components:
            if comp.kind != _FREE or not comp.block:
                continue
            refs = comp.refs
            skips = comp.p - comp.size
            linkable = []
            for c in comp.cands:
                before, after = possible.get(c - 1), possible.get(c + 1)
                before_set = set(before) if before is not None else ()
                after_set = set(after) if after is not None else ()
                left = base[c - 1] if c > 0 else _NONE
                right = base[c + 1] if c + 1 < len(base) else _NONE
                linkable.append({r for r in refs if left == r - 1 or right == r + 1
                                 or r - 1 in before_set or r + 1 in after_set})
            with_links = [bool(lc) for lc in linkable]
            before_count = 0
            after_count = sum(with_links)
            for k, c in enumerate(comp.cands):
                after_count -= with_links[k]
                lo = max(0, k - before_count - skips)
                hi = min(comp.q - 1, comp.q - comp.p + k + after_count + skips)
                before_count += with_links[k]
                options = sorted(set(refs[lo:hi + 1]) | linkable[k])
                found[c] = (0, options)
                self.window_of[c] = (refs[lo], refs[hi]) if lo <= hi else (1, 0)  # (1, 0): empty
        return found

    def prepare(self, budget: int) -> int:
        """Per position: options and their static costs (crossings with the fixed links,
        links to fixed neighbours); per component a table of the cheapest completion from
        each progress (the search's lower bound); the state layout. Returns the work spent,
        or -1 when the options alone exceed the budget."""
        comps = self.components
        if sum(comp.p * comp.q for comp in comps if comp.kind == _FREE and comp.block) > budget:
            return -1
        block_options = self._free_block_options()
        entries = []
        total_options = 0
        for c_index, comp in enumerate(comps):
            for k, c in enumerate(comp.cands):
                first, options = block_options[c] if c in block_options else self._static_options(comp, k)
                total_options += len(options)
                entries.append((c, c_index, k, first, options))
        # Everything below is charged up front (options, completion tables, one unit per
        # position), so preparing never runs past the budget before it is checked.
        spent = total_options + len(entries) + sum(_table_units(comp) for comp in comps)
        if spent > budget:
            return -1
        entries.sort()
        self.order = [e[0] for e in entries]
        self.windows = [self.window_of.get(c) for c in self.order]
        L = len(entries)
        base = self.base
        n = self.n
        crossings_first = self.objective == "crossings"
        # The cost of a path is one integer: the primary objective scaled above the secondary.
        scale = n + 1 if crossings_first else n * n + 1
        self.scale = scale
        self.cross_unit, self.link_unit = (scale, 1) if crossings_first else (1, scale)
        # Crossings of (c, r) with the fixed links: below_c + below_r - 2 * #{k < c, l < r}.
        fixed = [(k, l) for k, l in enumerate(base) if l >= 0]
        fixed_refs = sorted(l for _, l in fixed)
        seen_refs: list[int] = []
        f = 0
        self.first_index, self.options, self.costs, self._crossings = [], [], [], []
        self.comp_of, self.k_of = [], []
        cross_unit, link_unit = self.cross_unit, self.link_unit
        positions_of: list[list[int]] = [[] for _ in comps]  # per component, its positions t by k
        for t, (c, c_index, k, first, options) in enumerate(entries):
            while f < len(fixed) and fixed[f][0] < c:
                insort(seen_refs, fixed[f][1])
                f += 1
            below_c = len(seen_refs)
            left = base[c - 1] if c > 0 else _NONE
            right = base[c + 1] if c + 1 < n else _NONE
            crossings = [below_c + bisect_left(fixed_refs, r) - 2 * bisect_left(seen_refs, r) for r in options]
            self._crossings.append(crossings)
            costs = [cross * cross_unit - ((left == r - 1) + (right == r + 1)) * link_unit
                     for cross, r in zip(crossings, options)]
            self.costs.append(costs)
            self.first_index.append(first)
            self.options.append(options)
            self.comp_of.append(c_index)
            self.k_of.append(k)
            positions_of[c_index].append(t)
        option_sets = [set(options) for options in self.options]
        # Links between two variable positions are counted at the later one.
        order = self.order
        self.link_prev = [False] + [a + 1 == b for a, b in zip(order, order[1:])]
        self.keep_prev = self.link_prev[1:] + [False]
        if crossings_first:
            # Bound: the tables below, from costs that assume every possible link to a
            # variable left neighbour (links only break ties between equal crossings).
            self.bound_costs = list(self.costs)
            for t in range(1, L):
                if self.link_prev[t]:
                    before = option_sets[t - 1]
                    self.bound_costs[t] = [cost - link_unit * (r - 1 in before)
                                           for cost, r in zip(self.costs[t], self.options[t])]
            self.links_after = None
        else:
            # Links come first: the tables count crossings only, and links_after[t][r] is the
            # most links positions t + 1.. can still add when t takes r (None: unmatched),
            # from a programme that ignores that two positions may want one partner.
            self.bound_costs = self._crossings  # cross_unit is 1 under this objective
            self.links_after = self._links_after(base)
        # Free blocks (chunks objective): an edge that ends up in a chunk of its own is a
        # "singleton". Two singletons of one block never cross in an optimum: swapping their
        # partners removes that crossing, adds none elsewhere and loses no link (they had
        # none). So a block's singletons take increasing partners, and an edge that breaks
        # that order must link: to its left neighbour, or to its right one, which must then
        # take the next reference position ("pending"). The search enforces exactly this.
        self.neighbours = []  # per position: (left fixed partner, right fixed partner, next options or None)
        for t, c in enumerate(self.order):
            following = option_sets[t + 1] if t + 1 < L and self.order[t + 1] == c + 1 else None
            self.neighbours.append((base[c - 1] if c > 0 else _NONE, base[c + 1] if c + 1 < n else _NONE, following))
        # The items' crossings go into bound_costs first (see _prepare_crossing_bound).
        spent += self._prepare_crossing_bound(budget, budget - spent, total_options)
        # Cheapest completion of each component from each progress, counting only static costs.
        self.tables = [self._completion_table(comp, positions) for comp, positions in zip(comps, positions_of)]
        # The range of partners later positions can take: chosen partners below it can no
        # longer cross or collide with anything; those above it cross every later edge.
        self.low = list(accumulate(reversed([options[0] for options in self.options]), min, initial=1 << 62))[::-1]
        self.high = list(accumulate(reversed([options[-1] for options in self.options]), max, initial=-1))[::-1]
        # State layout: the progress of every component started and not finished.
        first_t: dict[int, int] = {}
        last_t: dict[int, int] = {}
        for t, c_index in enumerate(self.comp_of):
            first_t.setdefault(c_index, t)
            last_t[c_index] = t
        self.slot = []  # (index of the component in the progress tuple, how t changes it)
        self.loose_after = []
        short_blocks = {c for c, comp in enumerate(comps) if comp.kind == _BLOCK_IN_ORDER and comp.p < comp.q}
        active: list[int] = []
        # Per position: the other open in-order blocks with more candidate than reference
        # positions, as (slot in the progress tuple before t, the block, its positions passed).
        long_blocks = {c for c, comp in enumerate(comps) if comp.kind == _BLOCK_IN_ORDER and comp.p > comp.q}
        self.long_open = []
        passed = [0] * len(comps)
        # The open long blocks and the short ones' slots change only where a component starts
        # or ends: rebuilt there, not scanned over every open component at each position.
        long_now: list[tuple[int, int]] = []  # (slot, block) of the open long blocks
        loose = ()
        for t in range(L):
            c_index = self.comp_of[t]
            self.long_open.append([(i, comps[c].refs, min(passed[c], comps[c].q)) for i, c in long_now
                                   if c != c_index] if long_now else [])
            passed[c_index] += 1
            starts, ends = first_t[c_index] == t, last_t[c_index] == t
            if starts and ends:
                self.slot.append((-1, _ALONE))
            elif starts:
                position = bisect_left(active, c_index)
                active.insert(position, c_index)
                self.slot.append((position, _STARTS))
            elif ends:
                position = active.index(c_index)
                del active[position]
                self.slot.append((position, _ENDS))
            else:
                self.slot.append((active.index(c_index), _GOES_ON))
            if starts != ends:
                long_now = [(i, c) for i, c in enumerate(active) if c in long_blocks]
                # Slots whose progress is the last reference used (see _drop_dominated).
                loose = tuple([i for i, c in enumerate(active) if c in short_blocks])
            self.loose_after.append(loose)
        self.steps = self._steps()
        return spent

    def _steps(self) -> list:
        """What the search reads at each position that no state changes, gathered once per search
        rather than once per run (a greedy run spent about 11 us a position at 160 tokens); what
        depends only on the component, once per component."""
        per_component = []
        for comp, table in zip(self.components, self.tables):
            kind = comp.kind
            in_order_short = kind == _BLOCK_IN_ORDER and comp.p < comp.q
            in_order_long = kind == _BLOCK_IN_ORDER and comp.p > comp.q
            per_component.append((comp, kind, in_order_short, in_order_long, in_order_long and _table_by_used(comp),
                                  kind == _FREE and comp.block, table, comp.p - comp.size, comp.p - 1))
        if self.items_ahead is not None:
            aheads, option_items = self.items_ahead[1:], self.option_items
        else:
            aheads = option_items = repeat(None)
        steps = []
        for (c_index, k, slot, options, costs, first, lo_next, hi_next, prev_links, keep, neighbours, window,
             ahead_next, items, long_open) in zip(self.comp_of, self.k_of, self.slot, self.options, self.costs,
                                                  self.first_index, self.low[1:], self.high[1:], self.link_prev,
                                                  self.keep_prev, self.neighbours, self.windows, aheads,
                                                  option_items, self.long_open):
            (comp, kind, in_order_short, in_order_long, by_used, free_block, table, free_skips,
             last_k) = per_component[c_index]
            # The choices of an in-order block: (option index or -1 for unmatched, progress after,
            # pending after), by option (more references) or by references used (more positions).
            if in_order_short:
                choices = [(x, first + x, False) for x in range(len(options))]
            elif in_order_long:
                choices = [(used - first, used + 1, False) for used in range(first, first + len(options))]
            else:
                choices = None
            lo_window, hi_window = window or (None, None)
            # ahead_next: the items certainly ahead; items: each option's share of them (cost units).
            steps.append((comp, kind, in_order_short, in_order_long, by_used, free_block, k, *slot, options, costs,
                          first, lo_next, hi_next, prev_links, keep, *neighbours, lo_window, hi_window, table,
                          free_skips, k == last_k, choices, ahead_next, items, long_open))
        return steps

    def _prepare_crossing_bound(self, budget: int, remaining: int, total_options: int) -> int:
        """Crossings with edges every completion must place, for the bound (crossings
        objective). An "item" is such an edge: a position of a component that matches all its
        positions, or a reference occurrence of one that matches all its references; its box
        is its possible candidate and reference positions. An edge (c, r) crosses every item
        whose box lies right of c and below r, whatever the item's partner: that count is
        added to the option's cost in bound_costs (each pair is counted once, at its left
        edge), so the completion tables hold it. Before, only pairs of items whose boxes lay
        one above-left of the other counted: at 160 tokens the root bound was 15-45
        crossings under the optimum. A chosen partner above an item still ahead crosses it
        too: `items_ahead` keeps the items certainly ahead at each depth for the search (the
        references a block passed over unused are ahead as well, but depend on the state: the
        search counts them). Returns the work spent."""
        self.items_ahead = self.items_leaving = None
        if self.objective != "crossings":
            return 0
        order = self.order
        items = []  # (depth from which the item is certainly ahead, rmax)
        for comp in self.components:
            if comp.kind == _BLOCK_IN_ORDER and comp.p > comp.q:
                for i in range(comp.q):
                    items.append((bisect_left(order, comp.cands[i]), comp.refs[i]))
            elif comp.p == comp.size:
                for k, c in enumerate(comp.cands):
                    _, options = self._static_options(comp, k) if comp.kind == _BLOCK_IN_ORDER else (0, comp.options[c])
                    items.append((bisect_left(order, c), options[-1]))
        L = len(order)
        work = (len(items) * L + total_options * 4) // 16
        if not items or work > min(budget // 4, remaining):
            return 0
        ahead = [[] for _ in range(L + 1)]  # rmax of the items certainly ahead at depth t, ascending
        by_depth: dict[int, list[int]] = {}
        for depth, rmax in items:
            by_depth.setdefault(depth, []).append(rmax)
        current: list[int] = []
        for t in range(L, -1, -1):
            for rmax in by_depth.get(t, ()):
                insort(current, rmax)
            ahead[t] = list(current)
        # Items certainly ahead of position t (depth t + 1 on: their candidate positions are
        # all right of t's) with rmax below the option cross it.
        # The same per-option shares are what the search adds for each new edge (_steps).
        cross_unit = self.cross_unit
        self.option_items = [[cross_unit * bisect_left(ahead_next, r) for r in options]
                             for ahead_next, options in zip(ahead[1:], self.options)]
        self.bound_costs = [list(map(add, costs, items)) for costs, items in zip(self.bound_costs, self.option_items)]
        self.items_ahead = ahead
        # The items whose box starts at each position: ahead before it, no longer after.
        self.items_leaving = [by_depth.get(t, ()) for t in range(L + 1)]
        return work

    def _links_after(self, base) -> list:
        """links_after[t]: {r: most links from positions t + 1.. given t takes r} plus key
        _NONE for t unmatched (backward programme over (position, partner))."""
        L = len(self.order)
        n = self.n
        after = [None] * L
        best_from_next = 0  # most links from t + 1.. when t's partner cannot link to t + 1
        gain_next: dict = {}  # r' -> links counted at t + 1 and after when t + 1 takes r'
        for t in range(L - 1, -1, -1):
            c = self.order[t]
            adjacent_next = t + 1 < L and self.order[t + 1] == c + 1
            row = {}
            for r in self.options[t]:
                follow = gain_next.get(r + 1) if adjacent_next else None
                row[r] = best_from_next if follow is None else max(best_from_next, follow + 1)
            row[_NONE] = best_from_next
            after[t] = row
            left = base[c - 1] if c > 0 else _NONE
            right = base[c + 1] if c + 1 < n else _NONE
            gain = {r: (right == r + 1) + row[r] for r in self.options[t]}
            best_here = max([best_from_next] + [(left == r - 1) + g for r, g in gain.items()])
            gain_next, best_from_next = gain, best_here
        self.links_at_start = best_from_next
        return after

    def _completion_table(self, comp: _Component, positions: list[int]) -> list:
        """The least static cost of the component's positions k..: table[k] for free
        components; for an in-order block with more reference positions, table[k][e] (e:
        reference positions passed over so far); with more candidate positions, table[k][d]
        (d: positions skipped so far, d <= p - q) or, when the block has fewer references
        than skips, table[k][i] (i: references used so far, i <= q; see _table_by_used). Either
        way a row holds the smaller of the two ranges, so 1,999 candidate positions against one
        reference cost 2 cells per row, not 1,999."""
        costs = self.bound_costs
        if comp.kind == _FREE:
            must = comp.p == comp.size
            suffix = [0] * (comp.p + 1)
            for k in range(comp.p - 1, -1, -1):
                cheapest = min(costs[positions[k]])
                suffix[k] = suffix[k + 1] + (cheapest if must else min(0, cheapest))
            return suffix
        p, q = comp.p, comp.q
        if p < q:
            slack = q - p
            table = [[_INFINITE] * (slack + 1) for _ in range(p + 1)]
            table[p] = [0] * (slack + 1)
            for k in range(p - 1, -1, -1):  # position k takes reference index k + e, e >= d
                row, after, here = table[k], table[k + 1], costs[positions[k]]
                best = _INFINITE
                for e in range(slack, -1, -1):
                    value = here[e] + after[e]
                    if value < best:
                        best = value
                    row[e] = best
        else:
            slack = p - q
            by_used = _table_by_used(comp)
            table = [[_INFINITE] * ((q if by_used else slack) + 1) for _ in range(p + 1)]
            table[p][q if by_used else slack] = 0  # every reference used, every skip taken
            for k in range(p - 1, -1, -1):  # i references used, k - i positions skipped: match ref i or skip
                row, after, here = table[k], table[k + 1], costs[positions[k]]
                lo = max(0, k - slack)  # here[x] is the cost of reference lo + x
                for i in range(lo, min(k, q) + 1):
                    d = k - i
                    if by_used:
                        best = after[i] if d < slack else _INFINITE
                        matched = after[i + 1] if i < q else _INFINITE
                    else:
                        best = after[d + 1] if d < slack else _INFINITE
                        matched = after[d] if i < q else _INFINITE
                    if i < q:
                        value = here[i - lo] + matched
                        if value < best:
                            best = value
                    row[i if by_used else d] = best
        return table

    def _remaining(self, c_index: int, k: int, progress: int) -> int:
        """Lower bound of the component's cost from its k-th position on."""
        comp = self.components[c_index]
        table = self.tables[c_index]
        if comp.kind == _FREE:
            return table[k]
        if comp.p < comp.q:
            return table[k][progress + 1 - k]  # progress: last reference index used
        # progress: references used
        return table[k][progress] if _table_by_used(comp) else table[k][k - progress]

    def _items_crossed(self, carried, held, visible, above, progress, state, long_open, long_comp, k):
        """The part of a child's bound that its parent fixes (cost units), for position k of its
        component (long_comp: that component when it has more candidate than reference
        positions): crossings of the chosen partners with the items ahead (`carried`) and
        with the references the other open long blocks passed over unused (from `held`, the
        parent's crossings with every open long block's unused references; both kept up to
        date from parent to child by the search). Also returns those references, sorted, for
        the new edge's share, and the crossings with the long component's own unused
        references after skipping and after matching."""
        # References of open long blocks that positions already passed could have taken and
        # did not (used <= j < passed): later positions take them, so every chosen partner
        # above one crosses it. They are not items ahead (counted in `carried`), so nothing
        # counts twice. At 160 tokens this cut the exact stage's work by a third (108,598 to
        # 71,093 units on 60 pairs; at 200 tokens 552,748 to 216,677, 5 more proven).
        unused = []
        for i, refs, passed in long_open:
            used = progress[i]
            if used < passed:
                unused += refs[used:passed]
        if unused:
            unused.sort()
        own_skip = own_match = own_before = 0
        if long_comp is not None:
            # Its own references passed and unused after this step: from state (skipped) or
            # state + 1 (matched) up to k; before it, up to k - 1 (in `held`, not the other
            # blocks' share).
            cross_unit = self.cross_unit
            n_visible = len(visible)
            end = min(k + 1, long_comp.q)
            if state < end:
                refs = long_comp.refs[state:end]
                own_skip = (_pairs_above(visible, refs) + len(refs) * above) * cross_unit
                own_match = own_skip - (n_visible - bisect_right(visible, refs[0]) + above) * cross_unit
                own_before = own_skip
                if k < long_comp.q:  # reference k is passed only by this step
                    own_before -= (n_visible - bisect_right(visible, refs[-1]) + above) * cross_unit
        return carried + held - own_before, unused, own_skip, own_match

    # -- the programme ---------------------------------------------------------------------
    def run(self, budget: int, width: Optional[int], incumbent: Optional[int]):
        """Forward DP. width None: exact (a state is dropped only when its lower bound
        exceeds the incumbent); otherwise a beam of the `width` states of least bound.
        Returns (cost, pairs, work)."""
        comps = self.components
        L = len(self.order)
        order, options_all, keep_prev = self.order, self.options, self.keep_prev
        cross_unit, link_unit = self.cross_unit, self.link_unit
        # A state: (component progress tuple, chosen partners still visible, count of chosen
        # partners above every later option, partner of the previous position or _NONE,
        # whether this position must continue the previous one's chunk).
        start_bound = sum(self._remaining(c_index, 0, -1 if comp.kind == _BLOCK_IN_ORDER and comp.p < comp.q else 0)
                          for c_index, comp in enumerate(comps))
        items_ahead = self.items_ahead
        links_after = self.links_after
        if links_after is not None:
            start_bound -= self.links_at_start * link_unit
        # Dominance (exact when no free component can collide with a chosen partner): see
        # _drop_dominated.
        dominance = width is None and all(comp.kind == _BLOCK_IN_ORDER for comp in comps)
        width_cut = width is not None and links_after is None
        later, passed = None, -1  # for dominance, built on its first use
        layer = [((), (), 0, _NONE, False)]
        layer_cost = [0]
        layer_bound = [start_bound]  # sum over components of their cheapest completion
        # Per state: its chosen partners' crossings with the items ahead of its position (cost
        # units), updated from parent to child rather than recounted over the partners.
        layer_items = [0]
        # And its crossings with the references open long blocks passed over unused (the same).
        layer_held = [0]
        items_leaving = self.items_leaving
        history = []  # per position: [(parent rank, choice)] in rank order
        work = 0
        steps = self.steps
        for t in range(L):
            (comp, kind, in_order_short, in_order_long, by_used, free_block, k, position, change, options,
             costs, first, lo_next, hi_next, prev_links, keep, left_fixed, right_fixed, following,
             lo_window, hi_window, table, free_skips, ends, block_choices, ahead_next, option_items,
             long_open) = steps[t]
            links_now = None if links_after is None else links_after[t]
            if items_ahead is not None:
                leaving_here = items_leaving[t]
            links_before = None if links_after is None or t == 0 else links_after[t - 1]
            children: dict = {}
            # Beam (crossings objective): the `width` least estimates of the states found so
            # far (a max-heap, negated; an improved state keeps its older, higher entry), so
            # a child above all of them is not built. Under the chunks objective a state's
            # bound depends on more than its key, and the cut is left to the sort below.
            least: list[int] = []
            for rank in range(len(layer)):
                progress, visible, above, prev, pending = layer[rank]
                cost0 = layer_cost[rank]
                if change == _STARTS or change == _ALONE:
                    state = -1 if in_order_short else 0
                else:
                    state = progress[position]
                # The component's own bound, to be replaced by the child's.
                if kind == _FREE:
                    own = table[k]
                    after_bound = 0 if ends else table[k + 1]
                elif in_order_short:
                    own = table[k][state + 1 - k]
                elif by_used:
                    own = table[k][state]
                else:
                    own = table[k][k - state]
                bound0 = layer_bound[rank] - own
                if links_now is not None:  # the link part of the bound is recomputed per child
                    bound0 += (self.links_at_start if t == 0 else links_before[prev if keep_prev[t - 1] else _NONE]) * link_unit
                # choices: (option index or -1 for unmatched, progress after, pending after)
                if in_order_short:
                    choices = block_choices[state + 1 - first:]
                elif in_order_long:
                    choices = [block_choices[state - first]] if state < comp.q else []
                    if k - state < free_skips:
                        choices.append((-1, state, False))
                elif free_block:
                    skips = state & _SKIP_MASK
                    floor = (state >> _PTR_SHIFT) - 1  # partner of the block's last singleton
                    choices = []
                    for x in range(len(options)):
                        r = options[x]
                        if r in visible:
                            continue
                        if (prev_links and prev == r - 1) or left_fixed == r - 1 or right_fixed == r + 1:
                            choices.append((x, state, False))  # linked already
                            continue
                        if r > floor and lo_window <= r <= hi_window:
                            choices.append((x, skips | ((r + 1) << _PTR_SHIFT), False))
                        if following is not None and r + 1 in following:
                            choices.append((x, state, True))
                    if skips < free_skips:
                        choices.append((-1, state + 1, False))
                else:
                    choices = [(x, state, False) for x in range(len(options))]
                    if state < free_skips:
                        choices.append((-1, state + 1, False))
                if pending:
                    choices = [choice for choice in choices if choice[0] >= 0 and options[choice[0]] == prev + 1]
                work += len(choices) + (len(visible) >> 3)
                if work > budget:  # stop before this step: the whole budget is spent, no more
                    return None, None, budget
                parent_items = None
                child_items = child_held = 0
                crossed_above = len(visible) + above
                for x, new_state, new_pending in choices:
                    if x >= 0:
                        r = options[x]
                        if kind == _FREE and r in visible:
                            continue  # taken by an earlier position
                        at = bisect_right(visible, r)
                        cost = cost0 + costs[x] + (crossed_above - at) * cross_unit
                        if prev_links and prev == r - 1:
                            cost -= link_unit
                        if kind == _FREE:
                            child_bound = bound0 + after_bound
                        elif in_order_short:
                            child_bound = bound0 + (0 if ends else table[k + 1][new_state - k])
                        elif by_used:
                            child_bound = bound0 + table[k + 1][state + 1]
                        else:
                            child_bound = bound0 + table[k + 1][k - state]
                    else:
                        r = _NONE
                        cost = cost0
                        if kind == _FREE:
                            child_bound = bound0 + after_bound
                        elif by_used:
                            child_bound = bound0 + table[k + 1][state]
                        else:
                            child_bound = bound0 + table[k + 1][k + 1 - state]
                    if links_now is not None:
                        child_bound -= links_now[r] * link_unit
                    estimate = cost + child_bound
                    if incumbent is not None and estimate > incumbent:
                        continue
                    if items_ahead is not None:
                        if parent_items is None:  # once per parent, for its first child past the check
                            # The chosen partners' crossings with the items ahead, from the parent's
                            # own count: less those with the items that stopped being ahead here
                            # (each crossed by the partners above it).
                            carried = layer_items[rank]
                            for a in leaving_here:
                                carried -= (above + len(visible) - bisect_right(visible, a)) * cross_unit
                            if long_open or in_order_long:
                                parent_items, unused, own_skip, own_match = self._items_crossed(
                                    carried, layer_held[rank], visible, above, progress, state, long_open,
                                    comp if in_order_long else None, k)
                                others = parent_items - carried
                            else:  # no open long block: nothing unused to count, the call is skipped
                                parent_items, unused, others = carried, None, 0
                        if x >= 0:
                            child_items = carried + option_items[x]
                            child_held = others
                            if unused:  # the new edge crosses those references below it
                                child_held += bisect_left(unused, r) * cross_unit
                            if in_order_long:
                                child_held += own_match
                        else:
                            child_items = carried
                            child_held = others + own_skip if in_order_long else others
                        estimate += child_items + child_held
                    if incumbent is not None and estimate > incumbent:
                        continue
                    if len(least) == width and estimate > -least[0]:
                        continue  # worse than `width` states already found: cannot be kept
                    # Keep only the partners a later edge can cross or collide with.
                    grown = visible[:at] + (r,) + visible[at:] if x >= 0 else visible
                    if grown and (grown[0] < lo_next or grown[-1] > hi_next):
                        a = bisect_left(grown, lo_next)
                        b = bisect_right(grown, hi_next)
                        new_above = above + len(grown) - b
                        grown = grown[a:b]
                    else:
                        new_above = above
                    if change == _GOES_ON:
                        new_progress = progress[:position] + (new_state,) + progress[position + 1:]
                    elif change == _STARTS:
                        new_progress = progress[:position] + (new_state,) + progress[position:]
                    elif change == _ENDS:
                        new_progress = progress[:position] + progress[position + 1:]
                    else:
                        new_progress = progress
                    key = (new_progress, grown, new_above, r if keep else _NONE, new_pending)
                    known = children.get(key)
                    if known is None or cost < known[0]:
                        children[key] = (cost, child_bound, rank, x if x >= 0 else _SKIP, estimate, child_items,
                                         child_held)
                        if known is None and width_cut:
                            if len(least) < width:
                                heappush(least, -estimate)
                            elif estimate < -least[0]:
                                heapreplace(least, -estimate)
            if not children:
                return None, None, work  # no completion (possible for free components only)
            if dominance and len(children) > 1:
                if later is None:  # the partners positions t + 1.. can take, kept up to date below
                    last_option = {r: at for at, options in enumerate(options_all) for r in options}
                    later = sorted(last_option)
                    leaving: dict[int, list[int]] = {}  # position -> partners last offered there
                    for r, at in last_option.items():
                        leaving.setdefault(at, []).append(r)
                    work += len(later) >> 3
                while passed < t:
                    passed += 1
                    for r in leaving.get(passed, ()):
                        del later[bisect_left(later, r)]
                children, spent = _drop_dominated(children, later, self.loose_after[t], budget - work)
                work += spent
                if children is None:
                    return None, None, budget
            if width == 1:  # the greedy pass: the first least estimate in prefix order, without a sort
                key, value = min(children.items(), key=_estimate_then_prefix) if len(children) > 1 else \
                    next(iter(children.items()))
                layer, layer_cost, layer_bound, layer_items, layer_held = [key], [value[0]], [value[1]], [value[5]], \
                    [value[6]]
                history.append([(value[2], value[3])])
                continue
            entries = sorted(children.items(), key=_prefix_of) if len(children) > 1 else list(children.items())
            if width is not None and len(entries) > width:
                cut = sorted(range(len(entries)), key=lambda e: (entries[e][1][4], e))[:width]
                entries = [entries[e] for e in sorted(cut)]
            # C-level passes over the kept states (no per-state Python frame).
            layer = list(map(_key_of, entries))
            values = list(map(_value_of, entries))
            layer_cost = list(map(_cost_of, values))
            layer_bound = list(map(_bound_of, values))
            layer_items = list(map(_items_of, values))
            layer_held = list(map(_held_of, values))
            history.append(list(map(_prefix_choice, values)))
        best = min(range(len(layer)), key=lambda e: (layer_cost[e], e))
        pairs = []
        rank = best
        for t in range(L - 1, -1, -1):
            parent, x = history[t][rank]
            if x != _SKIP:
                pairs.append((order[t], options_all[t][x]))
            rank = parent
        return layer_cost[best], pairs, work

    def fallback(self) -> list[tuple[int, int]]:
        return [pair for comp in self.components for pair in comp.fallback]

    def solve(self, budget: int) -> tuple[list[tuple[int, int]], bool, int]:
        """Exact when the budget allows: a greedy pass gives an incumbent, then the exact
        programme keeps only states whose bound does not exceed it. Past the budget: the
        better of the greedy alignment and a wider beam's (run on a reserve kept back from
        the exact run), or the components' fallback matchings, flagged not optimal."""
        spent = self.prepare(budget)
        if spent < 0:
            return self.fallback(), False, budget
        incumbent, found, work = self.run(budget - spent, _GREEDY_WIDTH, None)
        spent += work
        if found is None:
            found = self.fallback()
            incumbent = self.cost_of(found)
        # A wider beam costs about its width times the greedy pass; keep twice that back (at most
        # half of what is left) so that a failed exact run still leaves room for it.
        reserve = min((budget - spent) // 2, 2 * _BEAM_WIDTH * work)
        if spent < budget - reserve:
            cost, pairs, work = self.run(budget - spent - reserve, None, incumbent)
            spent += work
            if pairs is not None:
                return pairs, True, spent
        if spent < budget:
            cost, pairs, work = self.run(budget - spent, _BEAM_WIDTH, None)
            spent += work
            if pairs is not None and cost <= incumbent:
                found = pairs
        return found, False, spent

    def cost_of(self, pairs: list[tuple[int, int]]) -> int:
        """The programme's cost of a full choice (for an alignment found outside it)."""
        fixed = [(i, j) for i, j in enumerate(self.base) if j >= 0]
        everything = fixed + pairs
        cross = count_crossings(everything) - count_crossings(fixed)
        # links = matches - chunks; only links that involve a chosen pair count
        links = (len(everything) - count_chunks(everything)) - (len(fixed) - count_chunks(fixed))
        return cross * self.cross_unit - links * self.link_unit


def align_stages(
    candidate_words: Sequence[str],
    reference_words: Sequence[str],
    stages: Sequence[Stage],
    objective: str = "crossings",
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> list[tuple[str, list[tuple[int, int, str]], int, bool, int]]:
    """Run the stages in order, each on the words no earlier stage matched. Per stage:
    (name, links as (candidate, reference, evidence) in candidate order, related pairs,
    optimal, work). The scorer's form of align_paper (no intermediate objects)."""
    n = len(candidate_words)
    partner = [_NONE] * n
    ref_taken = [False] * len(reference_words)
    outcomes = []
    all_free = True
    for stage in stages:
        if not stage.available:
            outcomes.append((stage.name, [], 0, True, 0))
            continue
        if all_free:
            free_c, free_r = range(n), range(len(reference_words))
        else:
            free_c = [i for i in range(n) if partner[i] < 0]
            free_r = [j for j, taken in enumerate(ref_taken) if not taken]
        graph = stage.relate(candidate_words, reference_words, free_c, free_r) if free_c and free_r else None
        if graph is None or not graph.candidate_groups:
            outcomes.append((stage.name, [], 0, True, 0))
            continue
        pairs, n_edges, optimal, work = solve_stage(stage, graph, partner, objective, node_budget)
        links = [(i, j, e) for (i, j), e in zip(pairs, stage.evidence_of(candidate_words, reference_words, pairs))]
        for i, j in pairs:
            partner[i] = j
            ref_taken[j] = True
        all_free = all_free and not pairs
        outcomes.append((stage.name, links, n_edges, optimal, work))
    return outcomes


def align_paper(
    candidate_words: Sequence[str],
    reference_words: Sequence[str],
    stages: Sequence[Stage],
    objective: str = "crossings",
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> tuple[StageAlignment, ...]:
    """Run the stages in order, each on the words no earlier stage matched."""
    return tuple(StageAlignment(name, tuple(StageEdge(*link) for link in links), n_edges, optimal, work)
                 for name, links, n_edges, optimal, work in
                 align_stages(candidate_words, reference_words, stages, objective, node_budget))
