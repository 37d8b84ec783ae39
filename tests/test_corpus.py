"""Corpus parsing (every malformed case names file, line, problem), analysis and correlations."""
import json
import random

import pytest
import pandas as pd

from meteor_core import MeteorConfig, MeteorInputError
from meteor_core.corpus import analyze_corpus, compare_systems
from meteor_core.corpus_io import (MAX_FILE_BYTES, corpus_from_parallel, corpus_from_table, read_table)
from meteor_core.stats import kendall_tau_b, pearson, spearman

TSV = b"id\tcandidate\treference\thuman\ns1\tthe cat sat\tthe cat sat\t90\ns2\ta dog\tthe dog\t40\n"
EXACT = MeteorConfig(stages=("exact",))


def test_tsv_csv_jsonl_round_trip():
    for name, data in (("c.tsv", TSV), ("c.csv", TSV.replace(b"\t", b",")),
                       ("c.jsonl", b"\n".join(json.dumps({"id": i, "candidate": c, "reference": r}).encode()
                                              for i, c, r in (("s1", "the cat sat", "the cat sat"), ("s2", "a dog", "the dog"))))):
        table = read_table(data, name)
        corpus = corpus_from_table(table, "candidate", ["reference"], "id")
        assert corpus.ids == ("s1", "s2") and corpus.references == (("the cat sat",), ("the dog",))


@pytest.mark.parametrize("name, data, message", [
    ("bad.tsv", "id\tcandidate\treference\ns1\tcaf\xe9\tx\n".encode("latin-1"), "bad.tsv: line 2 is not UTF-8"),
    ("comma.tsv", b"id,candidate,reference\n1,a,b\n", "comma.tsv: line 1 has no tab"),
    ("notjson.jsonl", b"id\tcandidate\n1\ta\n", "notjson.jsonl: line 1 is not JSON"),
    ("empty.csv", b"", "empty.csv: line 1 should be a header row"),
    ("dup.tsv", b"a\ta\n1\t2\n", "column name(s) repeated: a"),
])
def test_unusable_files_are_named(name, data, message):
    with pytest.raises(MeteorInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_table(data, name)


def test_size_cap():
    with pytest.raises(MeteorInputError, match="over the 20 MB limit"):
        read_table(b"x" * (MAX_FILE_BYTES + 1), "huge.tsv")


def test_missing_column_lists_the_columns():
    table = read_table(TSV, "c.tsv")
    with pytest.raises(MeteorInputError, match="column\\(s\\) 'hyp' not found; the columns are 'id', 'candidate'"):
        corpus_from_table(table, "hyp", ["reference"])


def test_row_problems_are_listed_not_dropped():
    data = (b"id\tcandidate\treference\thuman\n"
            b"s1\tthe cat\tthe cat\t50\n"
            b"\n"
            b"s3\tonly two fields\n"
            b"s4\tthe dog\tthe dog\tn/a\n"
            b"s5\t   \tthe dog\t10\n"
            b"s6\tthe dog\tthe dog\t70\n")
    table = read_table(data, "rows.tsv")
    corpus = corpus_from_table(table, "candidate", ["reference"], "id", "human")
    assert [str(p) for p in corpus.problems] == [
        "rows.tsv, line 3: empty line", "rows.tsv, line 4: 2 fields, the header has 4",
        "rows.tsv, line 5: human score 'n/a' is not a number"]
    analysis = analyze_corpus(corpus, EXACT)
    assert analysis.ids == ("s1", "s6")
    assert analysis.unscored == (("s5", "candidate is empty (no tokens after tokenization)"),)
    summary = analysis.summary()
    assert summary["segments_scored"] == 2 and summary["segments_not_scored"] == 4


def test_parallel_files_length_mismatch():
    with pytest.raises(MeteorInputError, match="hyp.txt has 2 lines, ref.txt has 1"):
        corpus_from_parallel(("hyp.txt", b"a\nb\n"), [("ref.txt", b"a\n")])
    corpus = corpus_from_parallel(("hyp.txt", b"a b\nc\n"), [("r1.txt", b"a b\nc\n"), ("r2.txt", b"x\ny\n")])
    assert corpus.references == (("a b", "x"), ("c", "y"))


def test_analysis_sums_and_bleu():
    corpus = corpus_from_table(read_table(TSV, "c.tsv"), "candidate", ["reference"], "id", "human")
    analysis = analyze_corpus(corpus, EXACT)
    # m = 3 + 1, |cand| = 3 + 2, |ref| = 3 + 2, chunks = 1 + 1
    s = analysis.corpus.stats
    assert (s.matches, s.candidate_length, s.reference_length, s.chunks) == (4, 5, 5, 2)
    rows = analysis.rows
    assert rows[0]["meteor"] == pytest.approx(1 - 0.5 / 27) and rows[1]["meteor"] == pytest.approx(0.5 * (1 - 0.5))
    assert rows[0]["bleu"] == 0.0  # 3 tokens: no 4-gram at all
    assert [c.metric for c in analysis.correlations] == ["METEOR", "BLEU"]


def test_correlations_match_pandas_and_the_definition():
    rng = random.Random(3)
    for _ in range(100):
        n = rng.randint(3, 80)
        x = [round(rng.random(), 1) for _ in range(n)]  # rounding makes ties
        y = [rng.choice([10, 20, 30, 40]) + rng.random() * (rng.random() < 0.5) for _ in range(n)]
        if len(set(x)) < 2 or len(set(y)) < 2:
            continue
        xs, ys = pd.Series(x), pd.Series(y)
        assert pearson(x, y) == pytest.approx(xs.corr(ys, method="pearson"), abs=1e-10)
        assert spearman(x, y) == pytest.approx(xs.rank().corr(ys.rank()), abs=1e-10)  # Spearman = Pearson of average ranks
        assert kendall_tau_b(x, y) == pytest.approx(brute_force_tau_b(x, y), abs=1e-10)
    assert pearson([1, 1, 1], [1, 2, 3]) is None  # undefined for a constant series, not NaN


def test_system_comparison_deltas_and_disagreement():
    data = (b"id\tA\tB\treference\n"
            b"1\tthe cat sat on the mat\tthe cat sat on a mat\tthe cat sat on the mat\n"
            b"2\tmat the on sat cat the\tthe cat sat\tthe cat sat on the mat\n")
    table = read_table(data, "two.tsv")
    a = corpus_from_table(table, "A", ["reference"], "id")
    b = corpus_from_table(table, "B", ["reference"], "id")
    comparison = compare_systems(a, b, EXACT, ("A", "B"))
    rows = comparison.rows
    assert [r["id"] for r in rows] == sorted([r["id"] for r in rows], key=lambda i: -abs(next(x["meteor_delta"] for x in rows if x["id"] == i)))
    by_id = {r["id"]: r for r in rows}
    assert by_id["1"]["meteor_delta"] < 0 and by_id["1"]["bleu_delta"] < 0 and not by_id["1"]["disagree"]
    # Segment 2: B is shorter but in order; METEOR falls (recall 1/2), BLEU... both computed by the core:
    assert by_id["2"]["disagree"] == ((by_id["2"]["meteor_delta"] > 0) != (by_id["2"]["bleu_delta"] > 0)
                                      and by_id["2"]["meteor_delta"] != 0 and by_id["2"]["bleu_delta"] != 0)


def brute_force_tau_b(x, y):
    """Kendall tau-b by the definition, over all pairs (an independent reference)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
