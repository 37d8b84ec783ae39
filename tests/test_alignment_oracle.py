"""Paper mode equals a brute-force enumeration of the definition (spec section 1) on small
random inputs with tiny vocabularies (so words repeat), for 1, 2 and 3 stages, both
objectives. The stages here are synthetic (no WordNet needed): a key stage standing in for
stems and a non-transitive feature stage standing in for synonyms."""
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core.align import align_paper, count_chunks, count_crossings
from meteor_core.stages import FeatureStage, KeyStage, exact_stage

VOCAB = ["a", "aa", "b", "bb", "c"]
STEM = KeyStage("stem", lambda w: w[0], "first letter", "stem")
# Not transitive: a~b (s1), b~c (s2), but not a~c.
SYNONYMS = {"a": ("s1",), "b": ("s1", "s2"), "c": ("s2",), "aa": ("s3",), "bb": ("s3", "s1")}
SYN = FeatureStage("synonym", lambda w: SYNONYMS.get(w, ()), "toy synonyms")
STAGE_SETS = [(exact_stage(),), (exact_stage(), STEM), (exact_stage(), STEM, SYN), (SYN,), (exact_stage(), SYN)]
INF = float("inf")


def crossings_brute(pairs):
    return sum(1 for a in pairs for b in pairs if a < b and (a[0] - b[0]) * (a[1] - b[1]) < 0)


def brute_force(cand, ref, stages, objective):
    fixed = []
    for stage in stages:
        used_c = {i for i, _ in fixed}
        used_r = {j for _, j in fixed}
        free_c = [i for i in range(len(cand)) if i not in used_c]
        free_r = [j for j in range(len(ref)) if j not in used_r]
        adjacency = defaultdict(list)
        for e in stage.edges(cand, ref, free_c, free_r):
            adjacency[e.candidate].append(e.reference)
        best = []

        def rec(k, chosen, used):
            if k == len(free_c):
                everything = fixed + chosen
                cross, chunks = crossings_brute(everything), count_chunks(everything)
                cost = (-len(chosen), cross, chunks) if objective == "crossings" else (-len(chosen), chunks, cross)
                partner = dict(chosen)
                vector = tuple(partner.get(i, INF) for i in free_c)
                if not best or (cost, vector) < best[0]:
                    best[:] = [(cost, vector), list(chosen)]
                return
            i = free_c[k]
            for j in adjacency[i]:
                if j not in used:
                    rec(k + 1, chosen + [(i, j)], used | {j})
            rec(k + 1, chosen, used)

        rec(0, [], frozenset())
        fixed = fixed + best[1]
    return sorted(fixed)


words = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6)


@settings(max_examples=400, deadline=None)
@given(cand=words, ref=words, stage_set=st.sampled_from(range(len(STAGE_SETS))),
       objective=st.sampled_from(["crossings", "chunks"]))
def test_paper_alignment_equals_brute_force(cand, ref, stage_set, objective):
    stages = STAGE_SETS[stage_set]
    outcome = align_paper(cand, ref, stages, objective, node_budget=10**6)
    pairs = sorted((l.candidate, l.reference) for o in outcome for l in o.links)
    assert pairs == brute_force(cand, ref, stages, objective)
    assert all(o.optimal for o in outcome)
    assert count_crossings(pairs) == crossings_brute(pairs)


def test_crossings_counterexample_to_min_cost_assignment():
    # Spec section 3: cand "c c b c", ref "b c". Fewest crossings keeps c[3] -> c[1].
    outcome = align_paper(["c", "c", "b", "c"], ["b", "c"], (exact_stage(),), "crossings")
    pairs = sorted((l.candidate, l.reference) for l in outcome[0].links)
    assert pairs == [(2, 0), (3, 1)]


def test_lexicographic_tie_break():
    # Two equally good choices for the single "a": ties go to the smallest reference position.
    outcome = align_paper(["a"], ["a", "x", "a"], (exact_stage(),), "crossings")
    assert [(l.candidate, l.reference) for l in outcome[0].links] == [(0, 0)]


def test_budget_exhaustion_keeps_a_maximum_matching():
    cand = ["a", "b"] * 12
    ref = ["b", "a"] * 12
    outcome = align_paper(cand, ref, (exact_stage(),), "chunks", node_budget=50)
    assert len(outcome[0].links) == 24  # still maximum
    assert outcome[0].optimal is False
