"""Corpus parsing (every malformed case names file, line, problem), analysis and correlations."""
import json
import math
import random

import pytest
import pandas as pd

from meteor_core import MeteorConfig, MeteorInputError
from meteor_core.corpus import analyze_corpus, compare_systems
from meteor_core.corpus_io import (MAX_FILE_BYTES, corpus_from_parallel, corpus_from_table, decode, read_table)
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
        # Without an id column a segment is its line number; JSONL has no header line to count.
        by_line = corpus_from_table(table, "candidate", ["reference"], None)
        assert by_line.id_source == f"line number in {name}" + ("" if name.endswith(".jsonl") else " (header = line 1)")


@pytest.mark.parametrize("name, data, message", [
    ("bad.tsv", "id\tcandidate\treference\ns1\tcaf\xe9\tx\n".encode("latin-1"),
     "bad.tsv: line 2 is not UTF-8 (invalid continuation byte at byte 7 of the line)"),
    ("crlf.tsv", "\ufeffid\tcandidate\treference\r\ns1\tok\tx\r\n\xff\tb\tc\r\n".encode("utf-8").replace(
        b"\xc3\xbf", b"\xff"), "crlf.tsv: line 3 is not UTF-8 (invalid start byte at byte 1 of the line)"),
    ("comma.tsv", b"id,candidate,reference\n1,a,b\n", "comma.tsv: line 1 has no tab"),
    # UTF-16 said as such (it was "line 1 is not UTF-8 ... at byte 1": a tester)
    ("u16.tsv", "id\tcandidate\treference\n".encode("utf-16"),
     "u16.tsv is UTF-16 (it starts with a UTF-16 byte-order mark); save the file as UTF-8"),
    ("u16be.tsv", b"\xfe\xff" + "id\tcandidate\n".encode("utf-16-be"), "u16be.tsv is UTF-16"),
    ("notjson.jsonl", b"id\tcandidate\n1\ta\n", "notjson.jsonl: line 1 is not JSON"),
    ("empty.csv", b"", "empty.csv: line 1 should be a header row"),
    ("dup.tsv", b"a\ta\n1\t2\n", "column name(s) repeated: 'a'"),
    ("wide.csv", b",".join(b"c%d" % k for k in range(120_000)) + b"\n", "line 1 has 120000 columns; the limit is 1000"),
])
def test_unusable_files_are_named(name, data, message):
    with pytest.raises(MeteorInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_table(data, name)


def test_size_cap():
    with pytest.raises(MeteorInputError, match=r"huge.tsv: 20,000,001 bytes is over the 20 MB limit \(20,000,000 bytes\)"):
        read_table(b"x" * (MAX_FILE_BYTES + 1), "huge.tsv")
    # 20 MB as the app's uploader counts it (decimal): a file of 20 MiB was read by the command
    # line and refused by the uploader.
    assert MAX_FILE_BYTES == 20_000_000
    assert len(decode(b"x" * MAX_FILE_BYTES, "big.tsv")) == MAX_FILE_BYTES


def test_missing_column_lists_the_columns():
    table = read_table(TSV, "c.tsv")
    with pytest.raises(MeteorInputError, match="column\\(s\\) 'hyp' not found; the columns are 'id', 'candidate'"):
        corpus_from_table(table, "hyp", ["reference"])


def test_tokens_held_counts_every_scored_candidate_and_reference_token():
    """What the app's cache weighs an analysis by: s1 3 + 3 + 2 (two references), s2 2 + 2;
    s3 has no reference and is not scored, so it holds nothing."""
    data = (b"id\tcandidate\treference\treference2\n"
            b"s1\tthe cat sat\tthe cat sat\ta cat\n"
            b"s2\ta dog\tthe dog\t\n"
            b"s3\tlonely words here\t\t\n")
    corpus = corpus_from_table(read_table(data, "rows.tsv"), "candidate", ["reference", "reference2"], "id")
    analysis = analyze_corpus(corpus, EXACT)
    assert analysis.counts_sentence() == "3 data lines, 2 scored, 1 not scored"
    assert analysis.tokens_held == 3 + 3 + 2 + 2 + 2


def test_counts_add_up_and_problems_are_in_line_order():
    """8 data lines: an empty line, a ragged row, a bad human score (kept, scored), an empty
    reference (rejected by the scorer): every line is either scored or listed with file, line
    and reason, in line order."""
    data = (b"id\tcandidate\treference\thuman\n"
            b"s1\tthe cat\tthe cat\t50\n"
            b"\n"
            b"s3\tonly two fields\n"
            b"s4\tthe dog\tthe dog\tn/a\n"
            b"s5\tthe dog\t   \t10\n"
            b"s6\tthe dog\tthe dog\t70\n"
            b"s7\ta cat\tthe cat\t20\n"
            b"s8\tdogs\tthe dog\t\n")
    table = read_table(data, "rows.tsv")
    corpus = corpus_from_table(table, "candidate", ["reference"], "id", "human")
    analysis = analyze_corpus(corpus, EXACT)
    assert analysis.counts_sentence() == "8 data lines, 5 scored, 3 not scored"
    assert [str(p) for p in analysis.not_scored] == [
        "rows.tsv, line 3: empty line", "rows.tsv, line 4: 2 fields, the header has 4",
        "rows.tsv, line 6: reference is empty (no tokens after tokenization)"]
    assert analysis.ids == ("s1", "s4", "s6", "s7", "s8") and analysis.lines == (2, 5, 7, 8, 9)
    assert analysis.human == (50.0, None, 70.0, 20.0, None)
    assert [str(p) for p in analysis.human_notes] == [
        "rows.tsv, line 5: human score 'n/a' is not a number: segment scored, left out of the correlations",
        "rows.tsv, line 9: no human score: segment scored, left out of the correlations"]
    assert {c.n for c in analysis.correlations} == {3}  # s1, s6, s7
    summary = analysis.summary()
    assert (summary["data_lines"], summary["segments_scored"], summary["segments_not_scored"]) == (8, 5, 3)


def test_json_values_that_used_to_crash():
    """A 400-digit human score (OverflowError), a 5000-digit integer (ValueError past Python's
    digit limit), arrays nested 100,000 deep (RecursionError), a lone surrogate escape, lines
    '{}' (IndexError in the app): each becomes a listed problem or a note, never a crash."""
    lines = [json.dumps({"candidate": "the cat", "reference": "the cat", "human": int("9" * 400)}),
             '{"candidate": "a", "reference": "a", "human": ' + "7" * 5000 + "}",
             "[" * 100_000 + "]" * 100_000,
             '{"candidate": "bad \\ud800 text", "reference": "x"}',
             "{}",
             json.dumps({"candidate": "the dog", "reference": "the dog", "human": "1e400"}),
             # a list of references with a number past its first item (a mutation audit: checking
             # the first item only crashed with AttributeError)
             json.dumps({"candidate": "the cat", "reference": ["the cat", 5]}),
             json.dumps({"candidate": "the cat", "reference": ["the cat", None, "a cat"]}),
             '{"candidate": "the cat", "reference": "the cat}',  # unterminated: the column is said
             '{"candidate": "the cat" "reference": "the cat"}']
    table = read_table("\n".join(lines).encode(), "odd.jsonl")
    corpus = corpus_from_table(table, "candidate", ["reference"], human_column="human")
    assert [str(p) for p in corpus.problems] == [
        "odd.jsonl, line 2: not valid JSON (a number too long to read)",
        "odd.jsonl, line 3: not valid JSON (nested too deeply)",
        "odd.jsonl, line 4: 'candidate' holds an unpaired surrogate escape (such as \\ud800), which is not text",
        "odd.jsonl, line 5: 'candidate' is missing or not text",
        "odd.jsonl, line 7: 'reference' must be a string or a list of strings (in a list, null or \"\" is a missing "
        "one), not a list holding a number",
        "odd.jsonl, line 9: not valid JSON (Unterminated string starting at column 39)",
        "odd.jsonl, line 10: not valid JSON (Expecting ',' delimiter at column 25)"]
    # A null item in a list is an empty reference, as in batch and frames (the line was refused)
    assert corpus.lines == (1, 6, 8) and corpus.human == (None, None, None)
    assert corpus.references[2] == ("the cat", "a cat") and corpus.reference_positions[2] == (1, 3)
    assert corpus.references_as_given(2) == ("the cat", "", "a cat")
    assert [p.line for p in corpus.human_notes] == [1, 6, 8]
    assert corpus.data_lines == 10
    only_empty = read_table(b"{}\n{}\n", "empty.jsonl")
    assert only_empty.columns == () and only_empty.data_lines == 2


@pytest.mark.parametrize("ending", [b"\r", b"\r\n", b"\n"])
def test_every_line_ending_ends_a_line(ending):
    hyp = ending.join([b"the cat", b"a dog", b"a bird"]) + ending
    ref = ending.join([b"the cat", b"the dog", b"the bird"])
    corpus = corpus_from_parallel(("hyp.txt", hyp), [("ref.txt", ref)])
    assert corpus.candidates == ("the cat", "a dog", "a bird") and corpus.ids == ("1", "2", "3")
    table = read_table(ending.join([b"candidate\treference", b"the cat\tthe cat", b"a dog\tthe dog"]), "t.tsv")
    assert [r["candidate"] for r in table.rows] == ["the cat", "a dog"] and table.lines == (2, 3)


def test_unicode_line_separators_stay_inside_a_line():
    """U+2028 is valid raw inside a JSON string; str.splitlines would split the row in two."""
    rows = [{"candidate": "the cat\u2028sat", "reference": "the cat sat"}, {"candidate": "a dog", "reference": "a dog"}]
    data = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode()
    table = read_table(data, "sep.jsonl")
    assert table.lines == (1, 2) and table.rows[0]["candidate"] == "the cat\u2028sat" and not table.problems
    corpus = corpus_from_parallel(("h.txt", "a\u2028b\x0cc\nd\n".encode()), [("r.txt", b"x\ny\n")])
    assert corpus.candidates == ("a\u2028b\x0cc", "d")


def test_many_columns_parse_without_quadratic_work():
    header = "\t".join(f"c{k}" for k in range(1000))
    table = read_table((header + "\n" + "\t".join("x" * 1000) + "\n").encode(), "wide.tsv")
    assert len(table.columns) == 1000 and len(table.rows) == 1


def test_candidate_column_cannot_be_a_reference():
    table = read_table(TSV, "c.tsv")
    with pytest.raises(MeteorInputError, match="chosen as the candidate and as a reference"):
        corpus_from_table(table, "reference", ["reference"])


def test_human_column_cannot_be_the_candidate_or_a_reference():
    """--human-column candidate gave a note per line ("is not a number") and no correlation (a
    tester); it is refused as the clash it is, like candidate = reference."""
    table = read_table(TSV, "c.tsv")
    for human, role in (("candidate", "the candidate"), ("reference", "a reference")):
        with pytest.raises(MeteorInputError, match=f"'{human}' is chosen as the human scores and as {role}"):
            corpus_from_table(table, "candidate", ["reference"], None, human)


def test_parallel_files_length_mismatch():
    with pytest.raises(MeteorInputError, match="hyp.txt has 2 lines, ref.txt has 1$"):
        corpus_from_parallel(("hyp.txt", b"a\nb\n"), [("ref.txt", b"a\n")])
    # Extra lines that are all empty, at the end of the longer file: said (a tester saw only 202 vs 200)
    with pytest.raises(MeteorInputError, match="hyp.txt has 4 lines, ref.txt has 2; the last 2 lines of hyp.txt are "
                                               "empty: delete them if they are not segments$"):
        corpus_from_parallel(("hyp.txt", b"a\n\n\n \n"), [("ref.txt", b"a\n\n")])
    with pytest.raises(MeteorInputError, match="; the last line of ref.txt is empty: delete it if it is not a segment$"):
        corpus_from_parallel(("hyp.txt", b"a\n"), [("ref.txt", b"a\n\n")])
    with pytest.raises(MeteorInputError, match="hyp.txt has 3 lines, ref.txt has 1$"):  # not all empty
        corpus_from_parallel(("hyp.txt", b"a\n\nb\n"), [("ref.txt", b"a\n")])
    with pytest.raises(MeteorInputError, match="bad_sys.txt has 1 line, ref.txt has 2$"):  # not "1 lines" (a tester)
        corpus_from_parallel(("bad_sys.txt", b"a\n"), [("ref.txt", b"a\nb\n")])
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


def test_a_zero_corpus_bleu_says_why():
    # TSV's segments have 3 and 2 tokens: no 4-gram anywhere, so unsmoothed corpus BLEU is 0.
    corpus = corpus_from_table(read_table(TSV, "c.tsv"), "candidate", ["reference"], "id")
    summary = analyze_corpus(corpus, EXACT).summary()
    assert summary["corpus_bleu"] == 0.0
    assert summary["corpus_bleu_zero_reason"] == ("no matching 4-gram in the whole corpus: unsmoothed corpus BLEU is 0 "
                                                  "(no candidate has 4 tokens, so there is no 4-gram to match)")
    four = corpus_from_table(read_table(b"candidate\treference\na b c d\ta b c e\n", "f.tsv"), "candidate", ["reference"])
    missed = analyze_corpus(four, EXACT).summary()["corpus_bleu_zero_reason"]
    assert missed == "no matching 4-gram in the whole corpus: unsmoothed corpus BLEU is 0"  # a 4-gram, unmatched
    smoothed = analyze_corpus(corpus, EXACT.with_changes(bleu_smoothing="method1")).summary()
    assert smoothed["corpus_bleu"] > 0 and smoothed["corpus_bleu_zero_reason"] == ""
    no_trigram = corpus_from_table(read_table(b"candidate\treference\na dog\tthe dog\n", "d.tsv"), "candidate",
                                   ["reference"])
    undefined = analyze_corpus(no_trigram, EXACT.with_changes(bleu_smoothing="method6")).summary()
    assert undefined["corpus_bleu"] == 0.0 and "trigram in the corpus" in undefined["corpus_bleu_zero_reason"]
    assert undefined["corpus_bleu_zero_reason"].endswith("(no candidate has 3 tokens, so there is no 3-gram to match)")
    nothing = corpus_from_table(read_table(b"candidate\treference\nx y\ta b\n", "n.tsv"), "candidate", ["reference"])
    unmatched = analyze_corpus(nothing, EXACT.with_changes(bleu_smoothing="method1")).summary()
    assert (unmatched["corpus_bleu"], unmatched["corpus_bleu_zero_reason"]) == (0.0, "no matching 1-gram in the whole corpus")
    long = b"candidate\treference\nthe cat sat on the mat\tthe cat sat on the mat\n"
    whole = analyze_corpus(corpus_from_table(read_table(long, "l.tsv"), "candidate", ["reference"]), EXACT).summary()
    assert (whole["corpus_bleu"], whole["corpus_bleu_zero_reason"]) == (1.0, "")


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
    # constant but with a rounded mean (sums of squares ~1e-33, not 0): r was 0.0 (a tester)
    assert pearson([0.1] * 3, [1, 2, 3]) is None
    assert pearson([1, 2, 3], [0.7] * 3) is None


def test_system_comparison_pairs_by_line_with_hand_computed_deltas():
    """Both rows have id 'x': pairing by id gave wrong deltas. Expected values by hand (exact
    stage, 2005 parameters alpha 0.9, beta 3, gamma 0.5).
    Line 2, reference 'the cat sat on the mat' (6 tokens):
    - A 'the cat sat on the mat': m 6, 1 chunk: 1 - 0.5/6^3 = 431/432; BLEU 1.
    - B 'the cat sat on a mat': m 5, P = R = 5/6, 2 chunks: 5/6 (1 - 0.5 (2/5)^3) = 5/6 * 0.968;
      BLEU (5/6 * 3/5 * 2/4 * 1/3)^(1/4) = (1/12)^(1/4).
    Line 3, reference 'a small cat sat on the mat' (7 tokens, no repeated word):
    - A 'a cat sat on the mat': m 6, P 1, R 6/7, Fmean 6/6.9, 2 chunks: 6/6.9 (1 - 0.5/27);
      BLEU exp(1 - 7/6) (4/5 * 3/4 * 2/3)^(1/4).
    - B 'on the mat a small cat sat': m 7, 2 chunks: 1 - 0.5 (2/7)^3 = 339/343;
      BLEU (5/6 * 3/5 * 1/4)^(1/4) = (1/8)^(1/4): METEOR up, BLEU down."""
    data = (b"id\tA\tB\treference\n"
            b"x\tthe cat sat on the mat\tthe cat sat on a mat\tthe cat sat on the mat\n"
            b"x\ta cat sat on the mat\ton the mat a small cat sat\ta small cat sat on the mat\n")
    table = read_table(data, "two.tsv")
    a = corpus_from_table(table, "A", ["reference"], "id")
    b = corpus_from_table(table, "B", ["reference"], "id")
    comparison = compare_systems([a, b], EXACT, ("A", "B"), resamples=50, trials=50)
    rows = comparison.pair_rows(0, 1)
    a2, b2 = 431 / 432, 5 / 6 * 0.968
    a3, b3 = 6 / 6.9 * (1 - 0.5 / 27), 339 / 343
    bleu_b2 = (1 / 12) ** 0.25
    bleu_a3, bleu_b3 = math.exp(1 - 7 / 6) * 0.4 ** 0.25, (1 / 8) ** 0.25
    assert [r["line"] for r in rows] == [2, 3]  # |delta| 0.191 before 0.135
    assert rows[0]["meteor_delta"] == pytest.approx(b2 - a2, abs=1e-12)
    assert rows[0]["bleu_delta"] == pytest.approx(bleu_b2 - 1, abs=1e-12)
    assert not rows[0]["disagree"]
    assert rows[1]["meteor_delta"] == pytest.approx(b3 - a3, abs=1e-12)
    assert rows[1]["bleu_delta"] == pytest.approx(bleu_b3 - bleu_a3, abs=1e-12)
    assert rows[1]["disagree"]
    assert comparison.pair_rows(1, 0)[0]["meteor_delta"] == pytest.approx(a2 - b2, abs=1e-12)


def test_ranking_and_refusals():
    data = (b"id\tA\tB\treference\n"
            b"1\tthe cat sat on the mat\ton the mat\tthe cat sat on the mat\n"
            b"2\ta dog barked\t\tthe dog barked\n")
    table = read_table(data, "r.tsv")
    a = corpus_from_table(table, "A", ["reference"], "id")
    b = corpus_from_table(table, "B", ["reference"], "id")
    comparison = compare_systems([a, b], EXACT, ("A", "B"), resamples=20, trials=20)
    # B's line 3 is empty: an output of nothing, scored 0 and counted (left out before, it let B
    # off the recall of that line)
    assert comparison.common_lines == (2, 3) and comparison.left_out == ()
    ranking = comparison.ranking()
    # A: m 6 + 2 of 6 + 3 words each side, 2 chunks: 8/9 (1 - 0.5 (2/8)^3) = 8/9 * 127/128
    assert [r["system"] for r in ranking] == ["A", "B"] and ranking[0]["corpus_meteor"] == pytest.approx(8 / 9 * 127 / 128)
    assert comparison.mean_segment_order() == ()  # A's mean is higher too: nothing to say
    # B: 'on the mat' and nothing: m 3, P 3/3, R 3/9, Fmean 10PR / (R + 9P) = 5/14, 1 chunk: 5/14 (1 - 0.5/27)
    assert ranking[1]["corpus_meteor"] == pytest.approx(5 / 14 * (1 - 0.5 / 27))
    with pytest.raises(MeteorInputError, match="at least two systems"):
        compare_systems([a], EXACT, ("A",))
    with pytest.raises(MeteorInputError, match="names must differ"):
        compare_systems([a, b], EXACT, ("A", "A"))
    with pytest.raises(MeteorInputError, match="two different systems"):
        comparison.pair_rows(1, 1)


def _compare_a_and_b(data: bytes, config: MeteorConfig):
    """Systems A and B of a TSV with a 'reference' column, compared (20 resamples and trials)."""
    table = read_table(data, "t.tsv")
    systems = [corpus_from_table(table, name, ["reference"]) for name in ("A", "B")]
    return compare_systems(systems, config, ("A", "B"), resamples=20, trials=20)


def test_ranking_is_by_corpus_meteor_where_the_mean_of_segments_disagrees():
    """A mutation audit's find: ranking by the mean of segment scores passed, as every fixture
    ranked both ways alike. Reference 1 is ten words, reference 2 'yes'.
    - A: line 1 identical (1 chunk of 10), line 2 'no' (0). Corpus m 10 of 11 and 11, 1 chunk:
      10/11 (1 - 0.5/1000); mean (1 - 0.5/1000) / 2.
    - B: line 1 the first five words (P 1, R 1/2, Fmean 10/19, 1 chunk of 5), line 2 'yes' (1 -
      0.5). Corpus m 6 of 6 and 11, 2 chunks: Fmean 4/7, times 1 - 0.5/27; mean higher than A's."""
    data = (b"id\tA\tB\treference\n"
            b"1\tone two three four five six seven eight nine ten\tone two three four five\t"
            b"one two three four five six seven eight nine ten\n"
            b"2\tno\tyes\tyes\n")
    comparison = _compare_a_and_b(data, EXACT)
    ranking = comparison.ranking()
    assert [(r["rank"], r["system"]) for r in ranking] == [(1, "A"), (2, "B")]
    assert comparison.mean_segment_order() == ("B", "A")  # the page says so where the mean is the usual number
    assert ranking[0]["corpus_meteor"] == pytest.approx(10 / 11 * (1 - 0.5 / 1000), abs=1e-12)
    assert ranking[1]["corpus_meteor"] == pytest.approx(4 / 7 * (1 - 0.5 / 27), abs=1e-12)
    assert ranking[0]["mean_segment_meteor"] == pytest.approx((1 - 0.5 / 1000) / 2, abs=1e-12)
    assert ranking[1]["mean_segment_meteor"] == pytest.approx((10 / 19 * (1 - 0.5 / 125) + 0.5) / 2, abs=1e-12)
    assert ranking[1]["mean_segment_meteor"] > ranking[0]["mean_segment_meteor"]


def test_pair_rows_pair_segments_by_line_when_one_system_has_a_line_unscored():
    """A mutation audit's find: swapping the two systems' segment indices in the BLEU delta
    passed, because every fixture had both systems scored on the same lines (same indices).
    A's line 2 holds a control character (refused), so A's segments are lines 3, 4 and B's 2, 3, 4."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    data = (b"id\tA\tB\treference\n"
            b"1\tthe \x1b cat\tthe cat\tthe cat sat\n"
            b"2\tthe dog ran away\tthe dog ran away\tthe dog ran away\n"
            b"3\ta b c d\ta b c e\ta b c d\n")
    comparison = _compare_a_and_b(data, MeteorConfig(stages=("exact",), bleu_smoothing="method1"))
    assert comparison.analyses[0].lines == (3, 4) and comparison.analyses[1].lines == (2, 3, 4)
    rows = comparison.pair_rows(0, 1)
    assert [r["line"] for r in rows] == [4, 3]
    line4 = rows[0]
    expected_b = sentence_bleu(["a b c d".split()], "a b c e".split(), smoothing_function=SmoothingFunction().method1)
    assert (line4["bleu_a"], line4["bleu_b"]) == (1.0, pytest.approx(expected_b, abs=1e-12))
    assert line4["bleu_delta"] == pytest.approx(expected_b - 1.0, abs=1e-12)
    assert (rows[1]["bleu_a"], rows[1]["bleu_b"], rows[1]["bleu_delta"]) == (1.0, 1.0, 0.0)


def test_csv_export_neutralizes_formulas():
    from meteor_core.corpus import rows_to_csv

    rows = [{"id": "=cmd|' /C calc'!A0", "candidate": "@SUM(1+1)", "reference": "+1+1", "meteor": -0.5,
             "note": "-2", "plain": "fine = ok", "wide": "\uff1d1+1"}]
    lines = rows_to_csv(rows).splitlines()
    assert lines[1] == "'=cmd|' /C calc'!A0,'@SUM(1+1),'+1+1,-0.5,'-2,fine = ok,'\uff1d1+1"


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


def test_cli_tsv_escapes_ids_and_column_options_need_a_table(tmp_path, capsys):
    from meteor_core.cli import main

    rows = [{"id": "a\tb", "candidate": "the cat", "reference": "the cat"},
            {"id": "two\nlines\\", "candidate": "a dog", "reference": "the dog"}]
    table = tmp_path / "ids.jsonl"
    table.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert main(["corpus", "--candidates", str(table), "--id-column", "id", "--tsv", "--stages", "exact"]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[-1] == "" and len(out) == 4  # header + 2 rows: nothing split
    assert [line.split("\t")[0] for line in out[1:3]] == ["a\\tb", "two\\nlines\\\\"]
    assert all(len(line.split("\t")) == len(out[0].split("\t")) for line in out[:3])
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a\n")
    ref.write_text("a\n")
    for option in (["--id-column", "id"], ["--human-column", "human"]):
        assert main(["corpus", "--candidates", str(hyp), "--references", str(ref), *option]) == 2
        assert "column options apply to TSV, CSV and JSONL tables" in capsys.readouterr().err


def test_corpus_sacrebleu_is_sacrebleus_own_on_the_raw_text():
    """Case kept and 13a tokens on the text as given (the nltk corpus BLEU beside it is on
    METEOR's lowercased tokens); an empty candidate line is not scored and not in either."""
    import sacrebleu

    data = corpus_from_table(read_table(
        (b'{"c": "The cat sat on the mat.", "r": ["the cat sat on a mat", "A cat sat on the mat."]}\n'
         b'{"c": "", "r": ["unused"]}\n'
         b'{"c": "Dogs bark, loudly!", "r": ["dogs bark loudly"]}\n'), "t.jsonl"), "c", ["r"])
    analysis = analyze_corpus(data, MeteorConfig(stages=("exact",)))
    expected = sacrebleu.corpus_bleu(["The cat sat on the mat.", "Dogs bark, loudly!"],
                                     [["the cat sat on a mat", "dogs bark loudly"], ["A cat sat on the mat.", None]])
    assert analysis.sacrebleu.score == expected.score and analysis.sacrebleu.counts == tuple(expected.counts)
    assert abs(analysis.sacrebleu.score / 100 - analysis.corpus_bleu) > 0.05  # a different number, hence both
    assert analysis.summary()["sacrebleu"]["signature"].startswith("nrefs:var|case:mixed|eff:no|tok:13a")  # 2 and 1 references


def test_a_jsonl_object_with_a_key_twice_is_refused_not_read_as_its_last_value():
    """A tester: {"candidate": "a b", ..., "candidate": "x"} was read as "x" (json keeps the last
    value) and scored 0 without a word; a table's repeated column name was refused already."""
    jsonl = ('{"candidate": "a b", "reference": "a b"}\n'
             '{"candidate": "a b", "reference": "a b", "candidate": "x"}\n'
             '{"candidate": "c d", "reference": {"text": "c", "text": "d"}}\n').encode()
    table = read_table(jsonl, "dup.jsonl")
    assert [row["candidate"] for row in table.rows] == ["a b"]
    assert [(p.line, p.message) for p in table.problems] == [
        (2, 'the key "candidate" comes twice in one object: which one is meant is not clear; give it once'),
        (3, 'the key "text" comes twice in one object: which one is meant is not clear; give it once')]


def test_jsonl_lines_may_name_their_reference_differently():
    """A tester's find: a JSONL file whose lines use "reference" on some and "references" on
    others had every line refused for the key it lacked ("'references' is missing or not
    text"). A key a line does not have is like an empty cell; a line with none of them is
    refused, saying so. A key that is there but not text is still an error."""
    from meteor_core import score

    jsonl = ('{"candidate": "the cat sat", "reference": "the cat sat"}\n'
             '{"candidate": "a dog", "references": ["the dog", "a dog barked"]}\n'
             '{"candidate": "x y", "other": "z"}\n'
             '{"candidate": "x y", "reference": 3, "references": ["x y"]}\n').encode()
    data = corpus_from_table(read_table(jsonl, "m.jsonl"), "candidate", ["reference", "references"])
    assert data.references == (("the cat sat",), ("the dog", "a dog barked"))
    assert [(p.line, p.message) for p in data.problems] == [
        (3, "no reference: none of 'reference', 'references' is a key on this line"),
        (4, "'reference' must be a string or a list of strings (in a list, null or \"\" is a missing one), not a number")]
    # A key a line does not have is not noted (one line with both keys gave every other line a
    # note: a tester); a null or "" item is, naming only its key.
    assert data.reference_notes == ()
    jsonl = ('{"candidate": "a b", "reference": "a b", "references": ["a"]}\n'
             '{"candidate": "a b", "references": ["a b"]}\n'
             '{"candidate": "a b", "references": ["a b", null, ""]}\n').encode()
    notes = corpus_from_table(read_table(jsonl, "n.jsonl"), "candidate", ["reference", "references"]).reference_notes
    assert [(p.line, p.message) for p in notes] == [
        (3, "empty reference in 'references': left out, segment scored against the others")]
    analysis = analyze_corpus(data, MeteorConfig())
    assert analysis.corpus.segments[1].score == score("a dog", ["the dog", "a dog barked"]).score


def test_an_empty_reference_cell_is_left_out_not_the_row():
    """A tester's table with a second reference on some lines only: 3 of 6 rows were lost to
    "reference 2 is empty". Now an empty cell beside a non-empty reference is left out (with a
    note) and the row scored against the rest; a row whose references are all empty is still
    not scored, and notes speak only of segments that were scored."""
    from meteor_core import score

    tsv = ("id\tcandidate\treference\treference2\thuman\n"
           "a\tthe cat sat\tthe cat sat\ta cat sat\t1\n"
           "b\tthe dog ran\tthe dog ran fast\t\t2\n"
           "c\ta bird sang\ta bird sings\t   \tabc\n"
           "d\ta fish\t \t \t\n"
           "e\tx y\tx y\tx z\t\n").encode()
    data = corpus_from_table(read_table(tsv, "t.tsv"), "candidate", ["reference", "reference2"], "id", "human")
    assert data.references[1:3] == (("the dog ran fast",), ("a bird sings",))
    assert [(p.line, p.message) for p in data.reference_notes] == [
        (3, "empty reference in 'reference2': left out, segment scored against the others"),
        (4, "empty reference in 'reference2': left out, segment scored against the others")]
    analysis = analyze_corpus(data, MeteorConfig())
    assert analysis.ids == ("a", "b", "c", "e")
    assert [(p.line, p.message) for p in analysis.unscored] == [
        (5, "all 2 references are blank: no reference to score against")]  # not "reference 1 is empty"
    assert analysis.corpus.segments[1].score == score("the dog ran", ["the dog ran fast"]).score
    # line 5 was not scored, so it gets no "segment scored" note; a blank cell is "no human score"
    assert [(p.line, p.message.split(":")[0]) for p in analysis.human_notes] == [
        (4, "human score 'abc' is not a number"), (6, "no human score")]
    assert analysis.summary()["empty_references_left_out"] == [str(p) for p in data.reference_notes]
    # parallel text files: an empty line in one reference file, likewise
    parallel = corpus_from_parallel(("h.txt", b"a b\nc d\n"), [("r1.txt", b"a b\nc d\n"), ("r2.txt", b"x\n\n")])
    assert parallel.references == (("a b", "x"), ("c d",))
    assert [str(p) for p in parallel.reference_notes] == [
        "r2.txt, line 2: empty line: left out, segment scored against the other references"]


def test_empty_and_malformed_lines_count_toward_a_limit():
    """A tester's 19 MB of blank lines under a two-line header: every line became a problem to
    list (148 s, 5.2 GB in the CLI; the app froze for 206 s at 9.7 GB). Lines after the header
    are now capped at MAX_DATA_LINES, good or not, and text files at MAX_SEGMENTS lines, checked
    before the lines are made."""
    from meteor_core.corpus_io import MAX_DATA_LINES, MAX_SEGMENTS, line_count, read_lines, split_lines

    blank = "\n" * MAX_DATA_LINES
    # a table holds 5 lines per segment of the limit (a long table: a row per system output)
    table_blank = "\n" * (5 * MAX_SEGMENTS)
    with pytest.raises(MeteorInputError, match="more than 100,000 lines after the header; the limit is 100,000 lines "
                                               r"\(a long table's rows, one per system output, empty or malformed ones "
                                               r"included\), each corpus taken from it 20,000 segments"):
        read_table(("candidate,reference\na,a\n" + table_blank).encode(), "f.csv")
    with pytest.raises(MeteorInputError, match="more than 100,000 lines after the header"):
        read_table(("candidate,reference\n" + "x\n" * (5 * MAX_SEGMENTS) + "a,a\n").encode(), "f.csv")
    with pytest.raises(MeteorInputError, match="100,001 lines; the limit is 100,000 lines"):
        read_table(('{"candidate": "a", "reference": "a"}\n' + table_blank).encode(), "f.jsonl")
    assert len(read_table(("candidate,reference\na,a\n" + blank).encode(), "f.csv").problems) == MAX_DATA_LINES
    with pytest.raises(MeteorInputError, match="20,001 lines with text; the limit is 20,000 segments"):
        read_lines(("a\n" * MAX_SEGMENTS + "b").encode(), "f.txt")
    with pytest.raises(MeteorInputError, match="40,001 lines; the limit is 40,000 lines"):
        read_lines(("\n" * MAX_DATA_LINES + "b").encode(), "f.txt")
    # empty lines besides the segments, as in tables (20,000 segments and one empty line were refused)
    assert len(read_lines(("a\n" * MAX_SEGMENTS + "\n" * 5).encode(), "ok.txt")) == MAX_SEGMENTS + 5
    # one row past the limit, in either table format: the count with its separator, like the others;
    # refused when the rows become segments, since a long table (a row per system) has more rows
    # than segments (24,375 rows of 1,875 WMT22 zh-en segments were refused when read: a tester)
    for data, name in [(("candidate,reference\n" + "a,a\n" * (MAX_SEGMENTS + 1)).encode(), "f.csv"),
                       (('{"candidate": "a", "reference": "a"}\n' * (MAX_SEGMENTS + 1)).encode(), "f.jsonl")]:
        table = read_table(data, name)
        assert len(table.rows) == MAX_SEGMENTS + 1
        with pytest.raises(MeteorInputError, match="more than 20,000 rows; the limit is 20,000 segments"):
            corpus_from_table(table, "candidate", ["reference"])
    # at the limits, and blank lines between good rows, still read
    table = read_table(("candidate,reference\n" + "a,a\n\n" * MAX_SEGMENTS).encode(), "ok.csv")
    assert len(table.rows) == MAX_SEGMENTS and len(table.problems) == MAX_SEGMENTS
    assert len(read_lines(("a\r\n" * MAX_SEGMENTS).encode(), "ok.txt")) == MAX_SEGMENTS
    for text in ["", "a", "a\n", "a\r\nb\rc\n\n", "\r\r\n\n"]:
        assert line_count(text) == len(split_lines(text))


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs a named pipe")
def test_a_pipe_is_read_only_up_to_the_size_limit(tmp_path):
    """A tester's `--candidates /dev/stdin` fed 300 MB: a pipe has no size to check first, so it
    was read whole (327 MB of memory) before being refused. Now reading stops one byte past
    the limit."""
    import os
    import threading

    from meteor_core.corpus_io import MAX_FILE_BYTES, load_file

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    written = []

    def writer():
        try:
            with open(fifo, "wb") as stream:
                for _ in range(64):  # 64 MB at most, 1 MB at a time
                    stream.write(b"\n" * (1 << 20))
                    written.append(1)
        except BrokenPipeError:  # the reader stopped: what this test expects
            pass

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with pytest.raises(MeteorInputError, match="more than the 20 MB limit"):
        load_file(str(fifo))
    thread.join(timeout=60)
    assert not thread.is_alive() and len(written) < 64


def test_when_no_line_is_scored_the_reasons_are_given():
    """A tester: every row malformed gave only "the corpus is empty"; the reasons were lost."""
    data = corpus_from_table(read_table(b"candidate,reference\nx\ny\n", "a.csv"), "candidate", ["reference"])
    with pytest.raises(MeteorInputError) as error:
        analyze_corpus(data, EXACT)
    assert str(error.value) == ("no segment could be scored: a.csv, line 2: 1 fields, the header has 2; "
                                "a.csv, line 3: 1 fields, the header has 2")
    many = corpus_from_table(read_table(b"candidate,reference\n" + b"x\n" * 7, "b.csv"), "candidate", ["reference"])
    with pytest.raises(MeteorInputError, match=r"b.csv, line 6: 1 fields, the header has 2; and 2 more$"):
        analyze_corpus(many, EXACT)


def test_identical_outputs_are_judged_line_by_line_and_references_must_match():
    """A tester: X = "a dog" / "the cat sat on the mat" / "" and Y = "" / "a dog" / "the cat sat on
    the mat" have the same scored candidates in order, so they were called identical while the
    only line both scored (2) differs, 0.9977 against 0. And systems scored against different
    references were compared without a word."""
    ref = ("ref.txt", b"the cat sat on the mat\n" * 3)
    x = corpus_from_parallel(("X.txt", b"a dog\nthe cat sat on the mat\n\n"), [ref])
    y = corpus_from_parallel(("Y.txt", b"\na dog\nthe cat sat on the mat\n"), [ref])
    comparison = compare_systems([x, y], EXACT, ["X", "Y"], resamples=20, trials=20)
    assert comparison.common_lines == (1, 2, 3)  # an empty output is scored (0), so every line counts
    assert not [n for n in comparison.significance.notes if "identical" in n]
    same = compare_systems([x, x], EXACT, ["X", "X2"], resamples=20, trials=20)
    assert "X and X2 have identical outputs on every line both scored" in same.significance.notes
    other = corpus_from_parallel(("X.txt", b"a dog\nthe cat sat on the mat\n\n"), [("r2.txt", b"a\nb\nc\n")])
    with pytest.raises(MeteorInputError, match=r"X and X2 are scored against different references \(line 1\)"):
        compare_systems([x, other], EXACT, ["X", "X2"], resamples=20, trials=20)


def test_when_the_scorer_refuses_every_segment_file_line_and_system_are_named():
    """A tester: a candidate file the scorer refused line by line gave "no segment could be scored
    (candidate is empty ..., ...)" with no line (and ", ..." after one reason), and compare did not
    say which system. (Blank lines are outputs of nothing now, scored 0: control characters are
    refused.)"""
    from meteor_core import Scorer

    refused = corpus_from_parallel(("E.txt", b"\x1b\na \x1b\n"), [("r.txt", b"a\nb\n")])
    with pytest.raises(MeteorInputError) as error:
        analyze_corpus(refused, EXACT)
    why = "remove it (only tab, newline and carriage return are accepted as whitespace)"
    assert str(error.value) == (f"no segment could be scored: E.txt, line 1: candidate contains control character "
                                f"U+001B at character 0; {why}; E.txt, line 2: candidate contains control character "
                                f"U+001B at character 2; {why}")
    good = corpus_from_parallel(("A.txt", b"a\nb\n"), [("r.txt", b"a\nb\n")])
    with pytest.raises(MeteorInputError, match=r"^E: no segment could be scored: E.txt, line 1: "):
        compare_systems([good, refused], EXACT, ["A", "E"], resamples=10, trials=10)
    with pytest.raises(MeteorInputError, match=r"^no segment could be scored: segment 1: reference is empty "
                                               r"\(no tokens after tokenization\)$"):
        Scorer(EXACT).score_corpus(["a"], [[" "]], skip_invalid=True)
    blank = analyze_corpus(corpus_from_parallel(("B.txt", b"\n \n"), [("r.txt", b"a\nb\n")]), EXACT)
    assert [s.score for s in blank.corpus.segments] == [0.0, 0.0] and blank.corpus.breakdown.score == 0.0


def test_significance_settings_are_checked_before_scoring_and_digits_are_ascii(capsys, monkeypatch):
    """A tester: compare_systems(trials=2.5) raised a bare TypeError, a bad seed was refused only
    after every system was scored, and --seed took "1_2345" and Arabic-Indic digits."""
    from meteor_core import MeteorParameterError
    from meteor_core import corpus as corpus_module
    from meteor_core.cli import main

    good = corpus_from_parallel(("A.txt", b"a\nb\n"), [("r.txt", b"a\nb\n")])
    scored = []
    monkeypatch.setattr(corpus_module, "analyze_systems", lambda *a, **k: scored.append(1))
    for settings in ({"trials": 2.5}, {"resamples": 0}, {"seed": -1}, {"seed": 2 ** 32}, {"seed": True}):
        with pytest.raises(MeteorParameterError):
            compare_systems([good, good], EXACT, ["A", "B"], **settings)
    assert not scored
    for seed in ("1_2345", "\u0661\u0662", "12.0"):
        with pytest.raises(SystemExit):
            main(["compare", "--references", "r.txt", "--candidates", "A.txt", "B.txt", "--seed", seed])
        assert f"argument --seed: {seed!r} is not a whole number" in capsys.readouterr().err


def test_sacrebleu_of_a_corpus_counts_every_segment_read_as_sacrebleu_does():
    """A tester: a system with an empty output line got sacreBLEU over its scored lines only
    (65.59 where sacrebleu itself gives 65.36), so outputting nothing on hard segments paid. An
    empty output is scored now (0); a line METEOR refuses (a control character) still counts in
    sacreBLEU, as sacrebleu counts it."""
    import sacrebleu

    hyps, refs = ["the cat sat", "bad \x1b line", "a dog ran home"], ["the cat sat down", "hard one here",
                                                                   "a dog ran home"]
    data = corpus_from_parallel(("h.txt", "\n".join(hyps).encode() + b"\n"), [("r.txt", "\n".join(refs).encode())])
    analysis = analyze_corpus(data, EXACT)
    assert len(analysis.corpus.segments) == 2 and analysis.sacrebleu_segments == 3
    assert analysis.sacrebleu.score == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=1e-9)
    assert analysis.summary()["sacrebleu_segments"] == 3


def test_pair_rows_give_each_systems_best_reference():
    """A tester: the compared segment showed only A's best reference while B's alignment was
    drawn against its own (the other reference)."""
    refs = [("r1.txt", b"the cat sat on the mat\n"), ("r2.txt", b"a feline was sitting upon a rug\n")]
    x = corpus_from_parallel(("X.txt", b"the cat sat on the mat\n"), refs)
    y = corpus_from_parallel(("Y.txt", b"a feline was sitting on a rug\n"), refs)
    comparison = compare_systems([x, y], EXACT, ["X", "Y"], resamples=10, trials=10)
    row = comparison.pair_rows(0, 1)[0]
    assert (row["best_reference_a"], row["best_reference_b"]) == ("the cat sat on the mat",
                                                                  "a feline was sitting upon a rug")
    assert "reference" not in row and "reference_b" not in row  # read as reference columns (a tester)


def test_comparison_counts_add_up_with_lines_scored_nowhere():
    """A tester: "298 segments scored in every system (1 lines left out)" out of 300 data lines:
    a line refused in every system was in neither count."""
    table = read_table(b"id\tref\tsa\tsb\n1\ta b\ta b\t\x1b\n2\tc d\tc d\tc d\n3\tx\n4\te f\te\tf\n", "cnt.tsv")
    systems = [corpus_from_table(table, name, ["ref"], "id") for name in ("sa", "sb")]
    comparison = compare_systems(systems, EXACT, ["sa", "sb"], resamples=10, trials=10)
    assert (len(comparison.common_lines), comparison.left_out, comparison.scored_nowhere) == (2, (2,), 1)
    assert comparison.left_out_sentence() == "1 line(s) scored in some systems only and 1 line(s) scored in none left out"
    assert comparison.to_dict()["lines_scored_nowhere"] == 1


def test_an_unclosed_quote_in_a_csv_is_named_as_such():
    """A tester's find: an unclosed quote swallowed the rest of the file into one field,
    reported only as "2 fields, the header has 3"."""
    table = read_table(b'id,candidate,reference\na,"the cat,the cat\nb,a dog,a dog\n', "q.csv")
    assert [(p.line, p.message) for p in table.problems] == [
        (2, '2 fields, the header has 3; a quoted field runs from line 2 to line 3 (an unclosed "?)')]
    table = read_table(b'id,candidate,reference\na,"the cat\nsat",the cat sat\nb,a dog\n', "q.csv")
    assert table.rows[0]["candidate"] == "the cat\nsat"  # a quoted line break is fine
    assert [(p.line, p.message) for p in table.problems] == [(4, "2 fields, the header has 3")]


def test_a_refused_reference_is_listed_under_its_own_file():
    """A tester: an empty line in the reference file was listed as "cand.txt, line 3: reference
    is empty". Each refusal names the file it is about: the candidate file, the one reference
    file, or with several the file of the reference the reason numbers (after blank ones left
    out)."""
    one = analyze_corpus(corpus_from_parallel(("cand.txt", b"a b\n\x1b\nc d\n"), [("ref.txt", b"a b\nc\n\n")]), EXACT)
    assert [str(p) for p in one.unscored] == [
        "cand.txt, line 2: candidate contains control character U+001B at character 0; remove it (only tab, newline "
        "and carriage return are accepted as whitespace)",
        "ref.txt, line 3: reference is empty (no tokens after tokenization)"]
    # line 1: both reference lines blank (kept, so the scorer says why: all of them, both files);
    # line 2: r1.txt's blank line left out, then r2.txt's "!" has no tokens when punctuation is
    # dropped: the scorer's "reference 1" is r2.txt
    several = analyze_corpus(corpus_from_parallel(("c.txt", b"a b\na b\nx\n"),
                                                  [("r1.txt", b" \n\nx\n"), ("r2.txt", b"\n!\nx\n")]),
                             EXACT.with_changes(drop_punctuation=True))
    assert [(p.file, p.line, p.message.split(" is ")[0]) for p in several.unscored] == [
        ("r1.txt and r2.txt", 1, "all 2 references are blank: no reference to score against"), ("r2.txt", 2, "reference")]


def test_reference_named_reads_back_what_reference_field_wrote():
    """The file of a refused reference comes from the scorer's message (reference_field's
    words), so the reader is checked against the writer for every position and count, and
    against the messages of the scorer itself."""
    from meteor_core import score
    from meteor_core.references import reference_field, reference_named

    for count in range(1, 6):
        for number in range(1, count + 1):
            assert reference_named(f"{reference_field(number, count)} is empty (no tokens)", count) == number
    assert reference_named("candidate is empty (no tokens)", 3) is None
    assert reference_named("references mix strings and token lists; give one kind", 1) is None
    assert reference_named("reference 4 is empty", 3) is None  # not one of the 3
    for references, number in ((["", "a"], 1), (["a", "!"], 2), (["!"], 1)):
        with pytest.raises(MeteorInputError) as refused:
            score("a", references, drop_punctuation=True)
        assert reference_named(str(refused.value), len(references)) == number


def test_one_long_tsv_line_is_refused_alone_and_a_long_csv_field_says_whose_limit():
    """A tester: one 355,000-character candidate in a TSV refused the whole file with the csv
    module's "field larger than field limit (131072)". A TSV line is now split at its tabs
    (no quoting, no limit), so only that line is refused, by the scorer's limit, as in a
    plain-text file; in a CSV the csv module's limit stays, said as such."""
    long_text = "x " * 177_500
    tsv = f"id\tcandidate\treference\n1\tthe cat\tthe cat\n2\t{long_text}\ta b\n3\ta dog\tthe dog\n".encode()
    analysis = analyze_corpus(corpus_from_table(read_table(tsv, "m.tsv"), "candidate", ["reference"], "id"), EXACT,
                              workers=1)
    assert analysis.counts_sentence().startswith("3 data lines, 2 scored, 1 not scored")
    assert [str(p) for p in analysis.unscored] == [
        "m.tsv, line 3: candidate has 355,000 characters; the limit is 200,000 per side"]
    with pytest.raises(MeteorInputError) as refused:
        read_table(f"id,candidate,reference\n1,the cat,the cat\n2,{long_text},a b\n".encode(), "m.csv")
    assert str(refused.value) == ("m.csv: line 3: a field is longer than 131,072 characters, the CSV reader's limit "
                                  "(a TSV or JSONL file has none)")
    # TSV as before: a quote is text, a blank line is noted, a tab-less line has 1 field
    table = read_table(b'id\tcandidate\treference\n1\t"the cat\t"a"\n\n3\tno tabs\n', "q.tsv")
    assert table.rows == ({"id": "1", "candidate": '"the cat', "reference": '"a"'},)
    assert [str(p) for p in table.problems] == ["q.tsv, line 3: empty line",
                                                "q.tsv, line 4: 2 fields, the header has 3"]


def test_a_row_without_an_id_is_named_by_its_line():
    """A tester: JSONL lines with "id": null or no id key (beside lines that have one) showed
    an empty id in the table, --tsv and --json. They are now "line N", and the id source says
    how many rows that is; a TSV's blank id cell alike."""
    jsonl = ('{"id": "a1", "candidate": "the cat", "reference": "the cat"}\n'
             '{"id": null, "candidate": "a dog", "reference": "the dog"}\n'
             '{"candidate": "hi", "reference": "hello"}\n'
             '{"id": 7, "candidate": "yes", "reference": "yes"}\n').encode()
    data = corpus_from_table(read_table(jsonl, "s.jsonl"), "candidate", ["reference"], "id")
    assert data.ids == ("a1", "line 2", "line 3", "7")
    assert data.id_source == "the 'id' column ('line N' for the 2 rows without one)"
    tsv = corpus_from_table(read_table(b"id\tcandidate\treference\nx\ta\ta\n \tb\tb\n", "t.tsv"), "candidate",
                            ["reference"], "id")
    assert tsv.ids == ("x", "line 3") and tsv.id_source.endswith("('line N' for the 1 row without one)")
    assert corpus_from_table(read_table(b"id\tcandidate\treference\nx\ta\ta\n", "t.tsv"), "candidate", ["reference"],
                             "id").id_source == "the 'id' column"


def test_segments_not_proven_optimal_are_counted_and_named(tmp_path):
    """A tester: 104 of 500 long paragraphs hit the node budget, and no corpus output counted
    them (only each row's optimal column). The analysis lists their lines, the summary counts
    them, the CLI says so on stderr, and the segment's own warning says how to raise the budget."""
    import subprocess
    import sys
    from pathlib import Path

    from meteor_core.methods import search_of

    hard = ("a c a b a b b b c b a a b a", "b b c a c b b c a c a b a a")  # needs more than 5 nodes
    config = MeteorConfig(stages=("exact",), node_budget=5)
    candidates, references = f"the cat sat\n{hard[0]}\n", f"the cat sat\n{hard[1]}\n"
    data = corpus_from_parallel(("c.txt", candidates.encode()), [("r.txt", references.encode())])
    analysis = analyze_corpus(data, config)
    assert analysis.lines_not_proven_optimal == (2,)
    assert [row["optimal"] for row in analysis.rows] == [True, False]
    summary = analysis.summary()
    assert summary["segments_not_proven_optimal"] == 1 and summary["lines_not_proven_optimal"] == [2]
    unproven = analysis.corpus.segments[1].best
    assert unproven.warnings[-1].startswith("alignment search hit its node budget (5): the best alignment found is "
                                            "shown, optimality not proven")
    assert "--node-budget on the command line, node_budget in the library" in unproven.warnings[-1]
    # not "slightly": at a budget of 100 a newcomer's 150-word pair moved from 0.8149 to 0.7168
    assert "a better one may give another score" in unproven.warnings[-1] and "slightly" not in unproven.warnings[-1]
    assert search_of(unproven) == ("fewest crossings after the most matches (exact search); not proven optimal on "
                                   "this pair (node budget)")
    assert search_of(analysis.corpus.segments[0].best) == "fewest crossings after the most matches (exact search)"
    assert analyze_corpus(data, EXACT).lines_not_proven_optimal == ()  # the default budget proves it
    (tmp_path / "c.txt").write_text(candidates, encoding="utf-8")
    (tmp_path / "r.txt").write_text(references, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "meteor_core", "corpus", "--candidates", str(tmp_path / "c.txt"),
                          "--references", str(tmp_path / "r.txt"), "--stages", "exact", "--node-budget", "5",
                          "--workers", "1"], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert ("note: 1 segment(s) not proven optimal: the alignment search hit its node budget (5), the best alignment "
            "found is used and a better one could change the score (line 2; optimal false in --json and "
            "--tsv output); a larger --node-budget may prove them\n") in run.stderr


def test_a_reference_of_invisible_characters_is_left_out_as_a_blank_one(capsys, monkeypatch):
    """A tester: a reference line holding only a zero-width space sank its segment ("reference 2
    is empty"), an empty output included, where a blank line is left out. Left out likewise, in
    corpus files and in batch."""
    import json

    from meteor_core.cli import main

    data = corpus_from_parallel(("c.txt", "a b\n\n".encode()), [("r1.txt", "a b\nd e\n".encode()),
                                                                  ("r2.txt", "x\n\u200b\u200d\n".encode())])
    analysis = analyze_corpus(data, EXACT)
    assert not analysis.unscored and [s.score for s in analysis.corpus.segments][1] == 0.0
    assert [(p.file, p.line) for p in analysis.reference_notes] == [("r2.txt", 2)]
    monkeypatch.setattr("sys.stdin", __import__("io").TextIOWrapper(__import__("io").BytesIO(
        (json.dumps({"candidate": "the cat", "references": ["\u200b", "the cat"]}) + "\n").encode())))
    assert main(["batch", "--stages", "exact", "--no-bleu"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["best_reference"] == 1 and row["references"][0] is None


def test_corpus_sacrebleu_reads_empty_reference_lines_as_sacrebleu_does():
    """A tester: with empty lines in a reference file, the page's sacreBLEU was 41.87 where
    `sacrebleu r1 r2 -i hyp` gave 42.90: sacreBLEU keeps an empty reference (its length 0 can
    be the closest to a short output); the references were given to it with the empty ones left
    out. Now as the files are; METEOR still leaves them out (paper mode)."""
    import sacrebleu

    hyps = ["The cat sat on the mat.", "Yes.", "Dogs bark loudly at night."]
    first = ["the cat sat on a mat", "", "dogs bark at night"]
    second = ["A cat sat on the mat.", "Yes, that is right, he said.", ""]
    files = [(name, ("\n".join(texts) + "\n").encode()) for name, texts in
             (("hyp.txt", hyps), ("r1.txt", first), ("r2.txt", second))]
    analysis = analyze_corpus(corpus_from_parallel(files[0], files[1:]), MeteorConfig(stages=("exact",)))
    expected = sacrebleu.corpus_bleu(hyps, [first, second])
    assert analysis.sacrebleu.score == expected.score and analysis.sacrebleu.reference_length == expected.ref_len
    without = sacrebleu.corpus_bleu(hyps, [[r or None for r in first], [r or None for r in second]])
    assert expected.ref_len != without.ref_len  # the empty line is what changes it
    assert analysis.rows[1]["best_reference"] == 2 and analysis.rows[1]["reference_length"] == 9  # METEOR: left out


def test_corpus_bleu_uses_every_reference_as_nltk_does():
    """nltk's corpus_bleu over all of a segment's references (a mutation audit: BLEU against the
    first reference only went unnoticed)."""
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

    hyps = ["the cat sat on the mat today", "a dog ran in the big park"]
    first = ["the cat is on the mat today", "the dog runs in the big park"]
    second = ["a cat sat on the mat today", "a dog ran in the big green park"]
    files = [(name, ("\n".join(texts) + "\n").encode()) for name, texts in
             (("hyp.txt", hyps), ("r1.txt", first), ("r2.txt", second))]
    analysis = analyze_corpus(corpus_from_parallel(files[0], files[1:]), MeteorConfig(stages=("exact",)))
    tokens = [(seg.best.candidate_tokens.norms, [r.reference_tokens.norms for r in seg.per_reference])
              for seg in analysis.corpus.segments]
    expected = nltk_corpus_bleu([refs for _, refs in tokens], [hyp for hyp, _ in tokens])
    first_only = nltk_corpus_bleu([refs[:1] for _, refs in tokens], [hyp for hyp, _ in tokens])
    assert analysis.corpus_bleu == expected and abs(expected - first_only) > 0.1


@pytest.mark.parametrize("fmt, text, hint", [
    ("tsv", '{"candidate": "a cat", "references": ["a cat"]}\n', "(it begins with {: is it JSONL?)"),
    ("csv", '{"candidate": "a cat"}\n', "(it begins with {: is it JSONL?)"),
    ("tsv", "candidate,reference\na,b\n", "(it has commas: is it really CSV?)"),
    ("csv", "candidate\treference\na\tb\n", "(it has tabs: is it really TSV?)"),
])
def test_a_header_without_the_delimiter_says_which_format_it_looks_like(fmt, text, hint):
    """A tester pasted JSON Lines with the format on TSV and was asked whether it was CSV."""
    with pytest.raises(MeteorInputError) as error:
        read_table(text.encode(), "pasted", fmt)
    assert str(error.value).endswith(hint), str(error.value)


def test_identical_systems_share_their_rank():
    """A tester: two identical systems were ranked 1 and 2. Equal corpus METEOR, equal rank (1, 1, 3)."""
    data = (b"id\tA\tB\tC\treference\n1\tthe cat sat\tthe cat sat\ta dog\tthe cat sat\n"
            b"2\ta dog ran\ta dog ran\tthe cat\ta dog ran fast\n")
    table = read_table(data, "t.tsv")
    systems = [corpus_from_table(table, name, ["reference"]) for name in ("A", "B", "C")]
    ranking = compare_systems(systems, EXACT, ("A", "B", "C"), resamples=20, trials=20).ranking()
    assert [(r["rank"], r["system"]) for r in ranking] == [(1, "A"), (1, "B"), (3, "C")]


def test_human_scores_are_numbers_as_score_files_write_them(tmp_path):
    """A tester: "1_000" and Arabic-Indic "١٢" were read by float() as 1000 and 12 and entered the
    correlations; and a text column named "HUMAN-refB" (a human translation scored as a system)
    was guessed as the human scores, 800 notes "is not a number"."""
    from meteor_core.corpus_io import read_corpus_files

    rows = ["1_000", "\u0661\u0662", "5,5", "0x10", "nan", "-2.5e1", " +.5 ", "7"]
    path = tmp_path / "human.tsv"
    path.write_text("candidate\treference\thuman\n" + "".join(f"a b\ta b\t{h}\n" for h in rows))
    # mostly not numbers: not guessed as the human scores, named: read as numbers where they are
    assert read_corpus_files(str(path)).human is None
    corpus = read_corpus_files(str(path), human_column="human")
    assert list(corpus.human) == [None, None, None, None, None, -25.0, 0.5, 7.0]
    assert len(corpus.human_notes) == 5
    assert corpus.human_notes[2].message == ("human score '5,5' is not a number (a decimal comma: write a point, 0.9): "
                                            "segment scored, left out of the correlations")
    path = tmp_path / "sys3.tsv"
    path.write_text("seg_id\tHUMAN-refB\tcandidate\treference\n"
                    + "".join(f"{k}\tthe human text {k}\tthe cat {k}\tthe cat sat {k}\n" for k in range(4)))
    corpus = read_corpus_files(str(path))
    assert corpus.human is None and not corpus.human_notes


def test_utf16_without_a_byte_order_mark_is_said_to_be_utf16():
    """A tester: read as UTF-8 it gave columns "i\\x00d\\x00" (NUL bytes printed to the terminal)
    or "line counts differ"; with the mark it was already said."""
    for data in ("id\tcandidate\treference\n1\ta\tb\n".encode("utf-16-le"), "a b\nc d\n".encode("utf-16-be")):
        with pytest.raises(MeteorInputError, match=r"^t\.tsv looks like UTF-16 \(every second byte is zero"):
            decode(data, "t.tsv")
    assert decode(b"a\x00b\tc d e f g\n", "t.tsv") == "a\x00b\tc d e f g\n"  # a stray NUL is not UTF-16
    # Cyrillic and Chinese have few zero bytes in UTF-16, and UTF-32 has a mark of its own (a tester)
    with pytest.raises(MeteorInputError, match=r"looks like UTF-16 \(little-endian\) \(no byte-order mark\)"):
        decode("id\tкот сидит\n1\tпривет мир\n".encode("utf-16-le"), "t.tsv")
    with pytest.raises(MeteorInputError, match=r"looks like UTF-16 \(big-endian\)"):
        decode("猫坐在垫子上\n你好世界\n".encode("utf-16-be"), "t.tsv")
    with pytest.raises(MeteorInputError, match=r"is UTF-32 \(it starts with a UTF-32 byte-order mark\)"):
        decode("x\n".encode("utf-32"), "t.tsv")
    assert decode("кот\tсидит\n".encode(), "t.tsv") == "кот\tсидит\n"
    with pytest.raises(MeteorInputError, match=r"call it x\.tsv\.gz"):
        read_table(b"a\tb\n", "data.gz")


def test_a_binary_file_is_not_said_to_be_utf16():
    """The CLI attacker: /bin/ls was said to "look like UTF-16"; zero bytes on both sides of the
    byte pairs are a program's or an image's, not UTF-16's."""
    program = b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00\x01\x00\x00\x00\xd0a" + bytes(40) + b"abc\n" * 20
    with pytest.raises(MeteorInputError) as error:
        decode(program, "ls")
    assert str(error.value) == ("ls is not a text file (54 zero bytes in its first 146, as in a program or an image); "
                                "give a UTF-8 text file")
    # UTF-16 of ASCII has its zero bytes on one side of each pair, and is still said as UTF-16
    with pytest.raises(MeteorInputError, match=r"^t\.tsv looks like UTF-16 \(every second byte is zero"):
        decode(("a\tb\n" * 30).encode("utf-16-le") + bytes(2), "t.tsv")


def test_a_missing_plain_text_file_or_a_directory_is_said_so(tmp_path):
    """The CLI attacker: `corpus --candidates` a missing .txt or a directory, without
    --references, was told to add --references."""
    from meteor_core.corpus_io import read_corpus_files

    with pytest.raises(MeteorInputError, match=r"missing\.txt: No such file or directory$"):
        read_corpus_files(str(tmp_path / "missing.txt"))
    with pytest.raises(MeteorInputError, match=r": Is a directory$"):
        read_corpus_files(str(tmp_path))
    (tmp_path / "here.txt").write_text("the cat\n")
    with pytest.raises(MeteorInputError, match=r"here\.txt is read as plain text .*give its reference file\(s\)"):
        read_corpus_files(str(tmp_path / "here.txt"))


def test_the_default_candidate_column_is_found_in_any_case(tmp_path):
    """A tester: "Candidate" was not found by the CLI's default, though the app and the reference
    columns are found in any case."""
    from meteor_core.corpus_io import read_corpus_files

    path = tmp_path / "t.tsv"
    path.write_text("Candidate\tReference\nthe cat\tthe cat sat\n")
    corpus = read_corpus_files(str(path))
    assert corpus.candidates == ("the cat",) and corpus.references == (("the cat sat",),)
    path.write_text("id\tsystem_a\treference\n1\tthe cat\tthe cat sat\n")  # none: said with the way out
    with pytest.raises(MeteorInputError, match=r"no column named 'candidate': name the candidate column with "
                                               r"--candidate-column \(columns: id, system_a, reference\)"):
        read_corpus_files(str(path))


def _guess(data: bytes, name: str):
    """The candidate and system defaults the corpus pages take, from corpus_io's guesses."""
    from meteor_core.corpus_io import output_columns, reference_columns_of, system_name_column, text_columns

    table = read_table(data, name)
    refs = reference_columns_of(table.columns)
    named = output_columns(table, refs)
    return named or text_columns(table, refs), system_name_column(table, refs)


def test_column_guesses_on_the_tables_testers_gave():
    """Each of these scored the wrong column on a corpus page, with no warning (testers)."""
    sentence = "the cat sat on the mat"
    # an empty column before the output (real WMT de-en: doc_id empty on every row)
    assert _guess(f"seg_id\tdoc_id\tsource\treference\tOnline-A\n1\t\tquelle\t{sentence}\t{sentence}\n"
                  f"2\t\tquelle\t{sentence}\ta cat\n".encode(), "w.tsv") == (["Online-A"], None)
    # a two-row long table: the system names are no output, and the table is said to be long
    assert _guess(f"system\tsource\ttranslation\treference\nOnline-A\tHallo Welt\thello world how are you\t{sentence}\n"
                  f"Online-B\tHallo Welt\thi world\t{sentence}\n".encode(), "t.tsv") == (["translation"], "system")
    # dates, languages, document ids and JSON objects are not outputs
    assert _guess(f"date,lang,doc_id,translation,reference\n2024-01-01,de,d1,{sentence},{sentence}\n"
                  f"2024-01-02,fr,d2,a cat,{sentence}\n2024-01-03,es,d3,the mat,{sentence}\n".encode(), "d.csv") \
        == (["translation"], None)
    assert _guess(json.dumps({"meta": {"lp": "de-en"}, "tags": ["a"], "translation": "a cat",
                              "reference": sentence}).encode() + b"\n", "m.jsonl") == (["translation"], None)
    # one-word outputs beside one-word references are outputs; a named column of them is found
    assert _guess(b"candidate\treference\nyes\tyes\nno\tno\nyes\tno\nno\tyes\n", "o.tsv") == (["candidate"], None)
    # a wide WMT table: every system column, and no long-table note for its document ids
    wide = (f"seg_id\tdoc_id\treference\tALMAnaCH-Inria\tCUNI-Transformer\n"
            f"1\tmediafax.cz.1\t{sentence}\t{sentence}\tthe cat sat\n2\tmediafax.cz.1\t{sentence}\ta mat\tthe cat\n")
    assert _guess(wide.encode(), "wide.tsv") == (["ALMAnaCH-Inria", "CUNI-Transformer"], None)


def test_column_guesses_do_not_lean_on_the_references_words():
    """A tester: the names test was switched off by references of fewer than two words on
    average (Chinese, JSONL lists, short dialogue), and doc_id, lp, system and file_name were
    scored again (0.0000); numeric hyp_len and candidate_score were outputs; HUMAN-refB, a human
    translation, was never offered; a comment column came first."""
    zh = "该公司今天发布了一款新手机。"
    assert _guess(f"doc_id\tseg_id\tsource\tref\tOnline-A\tHUMAN-refB\n"
                  f"doc0\t1\tThe company released a phone.\t{zh}\t公司今天发布了新手机。\t{zh}\n"
                  f"doc0\t2\tIt is new.\t它是新的。\t这是新的。\t它是新的。\n".encode(), "zh.tsv") \
        == (["Online-A", "HUMAN-refB"], None)
    long_zh = "system\tdoc_id\tcandidate\treference\n" + "".join(
        f"{s}\tdoc{k}\t公司发布了手机{k}。\t{zh}\n" for k in range(3) for s in ("Online-A", "Online-B"))
    assert _guess(long_zh.encode(), "l.tsv") == (["candidate"], "system")
    line = {"lp": "zh-en", "doc_id": "doc0", "Online-A": "The company launched a phone.",
            "Online-B": "A phone was launched.", "references": ["The company released a new phone today."]}
    assert _guess((json.dumps(line) + "\n" + json.dumps(line) + "\n").encode(), "w.jsonl") \
        == (["Online-A", "Online-B"], None)
    dialogue = "system\tdoc_id\ttranslation\treference\n" + "".join(
        f"{s}\tdlg{k}\tThank you!\tThanks!\n" for k in range(2) for s in ("Online-A", "Online-B"))
    assert _guess(dialogue.encode(), "d.tsv") == (["translation"], "system")
    assert _guess(b"seg_id\tmt\tref\tmt_score\thyp_len\n1\tthe cat sat\tthe cat sat\t0.5\t3\n"
                  b"2\ta dog\tthe dog\t0.7\t2\n", "n.tsv") == (["mt"], None)
    assert _guess(b"seg_id\tcomment\tOnline-A\treference\n1\tcheck this one later\tthe cat\tthe cat sat\n"
                  b"2\t\ta dog\tthe dog\n", "c.tsv") == (["Online-A"], None)
    assert _guess(b"candidate\treference\n.\tthe cat\n.\tthe dog\n.\ta cow\n.\ta hen\n", "dot.tsv") \
        == (["candidate"], None)  # a broken system, named so: scored
    assert _guess(b"mt_system\tmt_output\treference\ngoogle\tthe cat sat\tthe cat sat\n"
                  b"deepl\ta cat sat\tthe cat sat\nbing\tthe cat\tthe cat sat\n", "m.tsv") == (["mt_output"], "mt_system")
    # an LLM evaluation's "model" column names the systems too (only sys* did)
    assert _guess(b"model\tprompt_id\toutput\treference\ngpt-4o\t1\tthe cat sat\tthe cat sat\n"
                  b"llama-3\t1\ta cat sat\tthe cat sat\ngpt-4o\t2\tthe dog\tthe dog ran\n"
                  b"llama-3\t2\ta dog ran\tthe dog ran\n", "llm.tsv") == (["output"], "model")
    # a column of text named so is no names column
    assert _guess(b"model_output\treference\nthe cat sat on the mat\tthe cat sat\na dog ran away\tthe dog ran\n",
                  "mo.tsv") == (["model_output"], None)


def test_chinese_output_in_a_column_named_like_a_system_is_output():
    """A tester: "SYSTRAN" and "Sys-0" columns of Chinese output (no spaces: one "word" each)
    were taken for the names of a long table, and Compare chose no systems."""
    zh = ["该公司今天发布了一款新手机。", "去年价格上涨了百分之五。", "她五月访问了北京。", "会议被推迟了。"]
    rows = "".join(f"{k}\t{z}\t{z[:-1]}。\t{z}\n" for k, z in enumerate(zh))
    assert _guess(("id\tref\tOnline-A\tSYSTRAN\n" + rows).encode(), "s.tsv") == (["Online-A", "SYSTRAN"], None)
    spaced = "system\tcandidate\treference\n" + "".join(
        f"{s}\tthe cat sat {k}\tthe cat sat on the mat\n" for k in range(3) for s in ("Google Translate", "DeepL Pro"))
    assert _guess(spaced.encode(), "g.tsv") == (["candidate"], "system")


def test_a_long_table_pivots_to_a_column_per_system():
    """Segments pair by id and reference; a system without a row for one has no cell there and
    is counted on its own rows; repeated segments and rows without a system are said."""
    from meteor_core.corpus_io import pivot_long

    table = read_table(b"seg_id\tsystem\tcandidate\treference\n1\tA\tthe cat\tthe cat sat\n1\tB\ta cat\tthe cat sat\n"
                       b"2\tA\tthe dog\tthe dog ran\n2\tB\ta dog\tthe dog ran\n3\tA\tx y\tthe end\n", "l.tsv")
    long = pivot_long(table, "system", "candidate", ["reference"], "seg_id")
    wide = long.wide
    assert wide.columns == ("seg_id", "reference", "A", "B") and wide.lines == (2, 4, 6) and wide.name == "l.tsv"
    assert [row.get("B") for row in wide.rows] == ["a cat", "a dog", None]
    assert long.systems == ("A", "B") and long.rows == (3, 2) and long.absent == ((), ("seg_id 3",))
    assert long.repeated == ((), ()) and long.unnamed == ()
    corpus_a, corpus_b = long.corpora(["A", "B"], ["reference"], "seg_id")
    # B: its 2 rows, both scored; segment 3 (A's line 6) is not a line of B's
    assert corpus_b.candidates == ("a cat", "a dog") and corpus_b.problems == () and corpus_b.data_lines == 2
    assert corpus_a.candidates == ("the cat", "the dog", "x y") and corpus_a.data_lines == 3
    # read as any table, the missing cell was a problem at another system's line
    assert [p.line for p in corpus_from_table(wide, "B", ["reference"], "seg_id").problems] == [6]

    # B's output twice (a file concatenated): paired k-th with k-th and said; a row without a
    # system name is a problem of every system, counted in its data lines
    doubled = read_table(b"seg_id\tsystem\tcandidate\treference\n1\tA\tthe cat\tthe cat sat\n1\tB\ta cat\tthe cat sat\n"
                         b"1\tB\ta cat\tthe cat sat\n1\t\torphan\tthe cat sat\n", "d.tsv")
    long = pivot_long(doubled, "system", "candidate", ["reference"], "seg_id")
    # A has no row for B's repeat, which is said as B's repeat, not as a segment A misses
    assert long.repeated == ((), (4,)) and long.unnamed == (5,) and long.absent == ((), ())
    corpus_a, corpus_b = long.corpora(["A", "B"], ["reference"], "seg_id")
    # the row naming no system is no system's: said once, not charged to each (a tester)
    assert corpus_a.problems == () and corpus_a.data_lines == 1
    assert corpus_b.data_lines == 2 and len(corpus_b.candidates) == 2
    assert long.notes() == [
        "B has 1 row(s) repeating a segment it already has (the same 'seg_id' and references; line 4): the k-th "
        "of them is paired with the k-th repeat of every other system, and left out where the others have none "
        "(as when a system's output is in the file twice)",
        "1 row(s) name no system in 'system' (line 5): not compared"]


def test_a_long_table_pools_language_pairs_apart_and_says_test_set_repeats_once():
    """A tester: pooled, seg_id 7 of cs-en and of de-en were one segment ("no row for seg_id
    7, seg_id 7"); without ids, a test set's repeated sentence gave every system "output in the
    file twice?"; a system named like a reference stays a system."""
    from meteor_core.corpus_io import pivot_long

    rows = "".join(f"{lp}\t7\t{s}\tout {s}\tsame ref\n" for lp in ("cs-en", "de-en") for s in ("A", "reference")
                   if (lp, s) != ("de-en", "A"))
    table = read_table(("lp\tseg_id\tsystem\tcandidate\treference\n" + rows).encode(), "p.tsv")
    long = pivot_long(table, "system", "candidate", ["reference"], "seg_id", "lp")
    assert len(long.wide.rows) == 2 and long.systems == ("A", "reference (system)")
    assert long.absent == (("de-en seg_id 7",), ()) and long.reference_columns == ("reference",)
    assert [row["seg_id"] for row in long.wide.rows] == ["cs-en 7", "de-en 7"]  # an id names its pair
    repeats = read_table(b"system\tcandidate\treference\nA\ta\tr1\nB\tb\tr1\nA\ta\tr1\nB\tb\tr1\n", "r.tsv")
    notes = pivot_long(repeats, "system", "candidate", ["reference"]).notes()
    assert notes == ["1 segment(s) have the references of an earlier one in every system (lines of A: 4): without "
                     "an id column a segment is its references, so a sentence the test set repeats is paired k-th "
                     "with k-th, as in the file"]


def test_a_long_table_counts_segments_not_rows_against_the_limit():
    """WMT22 zh-en: 24,375 rows of 1,875 segments were refused as over 20,000; the limit holds
    for the segments (the pivot's rows)."""
    from meteor_core.corpus_io import Limits, pivot_long

    body = "".join(f"{k}\t{s}\tout {k}\tref {k}\n" for k in range(30) for s in ("A", "B", "C"))
    table = read_table(("seg_id\tsystem\tcandidate\treference\n" + body).encode(), "z.tsv", limits=Limits(segments=50))
    assert len(table.rows) == 90
    long = pivot_long(table, "system", "candidate", ["reference"], "seg_id")
    corpora = long.corpora(long.systems, ["reference"], "seg_id", Limits(segments=50))
    assert [len(c.candidates) for c in corpora] == [30, 30, 30]
    with pytest.raises(MeteorInputError, match="more than 50 rows; the limit is 50 segments"):
        corpus_from_table(table, "candidate", ["reference"], "seg_id", limits=Limits(segments=50))


def test_comparison_says_when_a_system_is_a_reference_and_which_system_scored_nothing():
    """A human translation that is also the reference ranks first for that alone: said. With no
    segment common to all systems, the error names each system's count."""
    from meteor_core.corpus import compare_analyses

    corpus = corpus_from_table(read_table(b"candidate\thuman\treference\nthe cat sat\tthe cat sat\tthe cat sat\n"
                                          b"a dog ran\tthe dog ran\tthe dog ran\n", "h.tsv"), "candidate", ["reference"])
    human = corpus_from_table(read_table(b"candidate\thuman\treference\nthe cat sat\tthe cat sat\tthe cat sat\n"
                                         b"a dog ran\tthe dog ran\tthe dog ran\n", "h.tsv"), "human", ["reference"])
    comparison = compare_systems([corpus, human], MeteorConfig(stages=("exact",)), ["mt", "HUMAN-refA"])
    assert "HUMAN-refA's output equals a reference on 2 of 2 segments" in " ".join(comparison.significance.notes)
    assert not any(n.startswith("mt's") for n in comparison.significance.notes)
    shifted = corpus_from_table(read_table(b"candidate\treference\n\n\nthe cat\tthe cat\n", "s.tsv"), "candidate",
                                ["reference"])
    analyses = [analyze_corpus(c, MeteorConfig(stages=("exact",))) for c in (corpus, shifted)]
    with pytest.raises(MeteorInputError, match=r"no segment was scored in every system: nothing to compare "
                                               r"\(a: 2 scored; b: 1 scored\)"):
        compare_analyses(analyses, ["a", "b"], MeteorConfig(stages=("exact",)))


def test_jsonl_numbers_name_systems_and_meet_where_conditions():
    """A JSONL long table may name its systems by number ({"system": 7}): --where system=7 and
    the pivot read them as written (they matched nothing, and such rows named no system)."""
    from meteor_core.corpus_io import pivot_long, rows_where

    lines = [{"seg": k, "system": s, "candidate": f"out {s} {k}", "reference": f"ref {k}"} for k in (1, 2) for s in (7, 8.5)]
    table = read_table("".join(json.dumps(line) + "\n" for line in lines).encode(), "n.jsonl")
    assert [row["candidate"] for row in rows_where(table, "system", "7").rows] == ["out 7 1", "out 7 2"]
    assert [row["candidate"] for row in rows_where(table, "seg", "2").rows] == ["out 7 2", "out 8.5 2"]
    long = pivot_long(table, "system", "candidate", ["reference"], "seg")
    assert long.systems == ("7", "8.5") and long.unnamed == () and long.absent == ((), ())
    fewer = read_table("".join(json.dumps(line) + "\n" for line in lines[:3]).encode(), "f.jsonl")
    assert pivot_long(fewer, "system", "candidate", ["reference"], "seg").absent == ((), ("seg 2",))


def _long_rows(system_column: str, systems, segments: int, same_output: bool = False) -> bytes:
    """A long table listing one system after another, as WMT's outputs.tsv does."""
    lines = [f"seg_id\t{system_column}\tcandidate\treference"]
    for s in systems:
        lines += [f"{k}\t{s}\tthe {'' if same_output else s.lower() + ' '}cat {k}\tthe cat sat {k}" for k in range(segments)]
    return ("\n".join(lines) + "\n").encode()


def test_a_long_table_listing_one_system_after_another_is_seen_past_its_first_2000_rows():
    """WMT22 ja-en's outputs.tsv: 2,008 segments a system, one system after another; the guess read
    the first 2,000 rows, which name one system, and its 14 systems were scored as one corpus."""
    from meteor_core.corpus_io import system_name_column

    table = read_table(_long_rows("system", ["Online-A", "Online-B"], 2008), "ja-en.tsv")
    assert system_name_column(table, ["reference"]) == "system"


def test_a_system_column_with_a_name_of_its_own_is_seen_by_the_rows_shape():
    """"provider", "Übersetzer": the rows grouped by the column are outputs of the same segments,
    one row a segment, different outputs. Rows repeated per annotator (the same output under each
    name), one row per segment with a document column, and a language pair column are not."""
    from meteor_core.corpus_io import system_name_column

    def guess(data: bytes):
        return system_name_column(read_table(data, "t.tsv"), ["reference"])

    assert guess(_long_rows("provider", ["DeepL", "Google"], 5)) == "provider"
    assert guess(_long_rows("Übersetzer", ["DeepL", "Google", "Bing"], 3)) == "Übersetzer"
    assert guess(_long_rows("annotator", ["ann1", "ann2"], 5, same_output=True)) is None
    wide = "doc\tcandidate\treference\n" + "".join(f"d{k // 3}\tthe cat {k}\tthe cat sat {k}\n" for k in range(9))
    assert guess(wide.encode()) is None
    two_pairs = "pair\tcandidate\treference\n" + "".join(f"{p}\tthe cat {k}\tthe {p} cat {k}\n"
                                                         for p in ("de-en", "cs-en") for k in range(4))
    assert guess(two_pairs.encode()) is None
    # the name words still come first, and a one-system table is no long table
    assert guess(_long_rows("system", ["Online-A"], 5)) is None


def test_a_table_listing_one_language_pair_after_another_is_seen_past_its_first_2000_rows():
    """WMT22's outputs.tsv of cs-en and de-en: cs-en's 17,376 rows come first, the guess read 2,000
    rows, and the two pairs were pooled in one ranking without the Language pair box."""
    from meteor_core.corpus_io import language_pair_column

    rows = "".join(f"{lp}\tA\t{k}\tthe cat {k}\tthe cat sat {k}\n" for lp in ("cs-en", "de-en") for k in range(2001))
    table = read_table(("lp\tsystem\tseg_id\tcandidate\treference\n" + rows).encode(), "t.tsv")
    assert language_pair_column(table, ["system"]) == "lp"


def test_a_reference_column_blank_on_every_row_is_not_a_default_reference():
    """WMT22 ja-en's reference_alt is empty throughout: taken by default on the corpus pages,
    every one of its 2,008 segments was said to have an empty reference."""
    from meteor_core.corpus_io import default_reference_columns

    rows = "".join(f"{k}\tthe cat {k}\tthe cat sat {k}\t\n" for k in range(3))
    table = read_table(("seg_id\tcandidate\treference\treference_alt\n" + rows).encode(), "t.tsv")
    assert default_reference_columns(table) == ["reference"]
    # with text in one row it is a reference; all blank, the named ones stay (the check says why)
    filled = read_table(("candidate\treference\treference_alt\na\tb\t\nc\td\te\n").encode(), "f.tsv")
    assert default_reference_columns(filled) == ["reference", "reference_alt"]
    blank = read_table(b"candidate\treference\na\t\n", "b.tsv")
    assert default_reference_columns(blank) == ["reference"]


@pytest.mark.parametrize("data, said", [
    (b"candidate,reference\n", "h.csv: a header row and no data rows"),
    (b"candidate,reference\r\n\r\n \n", "h.csv: a header row and no data rows (2 lines after it, all blank)")])
def test_a_header_without_rows_is_refused_saying_so(data, said):
    """The app said none of the columns was clearly a system's output, beside one named
    candidate (a tester); the CLI scored nothing and said the corpus was empty."""
    with pytest.raises(MeteorInputError) as error:
        read_table(data, "h.csv")
    assert str(error.value) == said


def test_a_jsonl_reference_list_counts_as_reference_text_for_the_default():
    """A file mixing "references" lists and "reference" strings: the app took "reference"
    alone and scored 1 line of 2 (0.6466); the CLI takes both (0.6559)."""
    from meteor_core.corpus_io import default_reference_columns

    lines = ('{"candidate": "a dog runs", "references": ["a dog is running"]}\n'
             '{"candidate": "the cat", "reference": "the cat sat"}\n'
             '{"candidate": "x", "ref_blank": ["", " "]}\n')
    table = read_table(lines.encode(), "mixed.jsonl")
    assert default_reference_columns(table) == ["references", "reference"]
    corpus = corpus_from_table(table, "candidate", default_reference_columns(table))
    assert [list(refs) for refs in corpus.references[:2]] == [["a dog is running"], ["the cat sat"]]


def test_meteor15_mode_says_how_many_lines_it_scored_without_a_reference():
    """A helper: the same file gave "17 scored, 3 not scored" in paper and nltk mode and "18
    scored, 2 not scored" in METEOR 1.5 mode, without a word. The jar scores a line whose
    reference is empty (0); the other modes refuse it. The count says so."""
    data = b"id\tcandidate\treference\ns1\tthe cat\tthe cat sat\ns5\t\t\ns6\ta dog\t\n"
    table = read_table(data, "t.tsv")
    corpus = corpus_from_table(table, "candidate", ["reference"], "id")
    paper = analyze_corpus(corpus, MeteorConfig(), workers=1)
    assert paper.counts_sentence() == "3 data lines, 1 scored, 2 not scored"
    jar = analyze_corpus(corpus, MeteorConfig(mode="meteor15"), workers=1)
    assert jar.counts_sentence() == ("3 data lines, 3 scored (2 of them with no reference words at all: 0, as the "
                                     "METEOR 1.5 jar scores them; the other modes do not score such lines), 0 not scored")
    assert jar.empty_reference_lines == (3, 4)


def test_meteor15_mode_lists_every_line_scored_with_an_empty_reference():
    """A helper: with two reference columns, the counts named lines 3 and 5 (no reference
    words: 0) while the list of "empty references scored" named lines 2 and 4 (one cell blank)
    and left 3 and 5 out. The list now holds every scored line with an empty reference."""
    data = (b"candidate,reference,reference2\nthe cat,the cat,\na dog,,\nthe sun,,the sun\nit rains,,\n"
            b"a tree,a tree,a tree\n")
    corpus = corpus_from_table(read_table(data, "e.csv"), "candidate", ["reference", "reference2"])
    jar = analyze_corpus(corpus, MeteorConfig(mode="meteor15"), workers=1)
    assert jar.empty_reference_lines == (3, 5)
    assert [p.line for p in jar.reference_notes] == [2, 3, 4, 5]
    assert [p.message for p in jar.reference_notes if p.line in (3, 5)] == [
        "no reference has a word: scored 0, as the jar scores it"] * 2
    assert [jar.segment(line).score for line in (3, 5)] == [0.0, 0.0]
    paper = analyze_corpus(corpus, MeteorConfig(), workers=1)
    assert [p.line for p in paper.reference_notes] == [2, 4] and [p.line for p in paper.not_scored] == [3, 5]


@pytest.mark.parametrize("fmt", ["tsv", "csv", "jsonl"])
def test_a_long_tables_repeated_cells_are_one_string(fmt):
    """A long table repeats each segment's reference (and source, ids, names) on every system's
    row: WMT22 cs-en's and de-en's 37,216 rows held 45.8 MB read, 19.9 MB with one string per
    distinct cell."""
    reference = "the cat sat on the mat"
    records = [{"system": system, "candidate": f"a cat {system}", "reference": reference} for system in ("A", "B")]
    if fmt == "jsonl":
        text = "\n".join(json.dumps(r) for r in records)
    else:
        sep = "\t" if fmt == "tsv" else ","
        text = "\n".join([sep.join(records[0]), *(sep.join(r.values()) for r in records)])
    rows = read_table(text.encode(), f"t.{fmt}").rows
    assert rows[0]["reference"] == rows[1]["reference"] == reference
    assert rows[0]["reference"] is rows[1]["reference"]


def test_absent_segments_are_counted_among_the_distinct_ones():
    """A tester: with A's output for segment 1 twice and B without segment 3, the note said "B has
    no row for 1 of the 6 segments" of a file with 5 (A's repeat made a sixth row)."""
    from meteor_core.corpus_io import pivot_long

    rows = [f"{system}\t{k}\tc{k}\tr{k}" for system in ("A", "B") for k in range(1, 6) if (system, k) != ("B", 3)]
    table = read_table(("system\tseg_id\tcandidate\treference\n" + "\n".join(rows) + "\nA\t1\tagain\tr1\n").encode(),
                       "long.tsv")
    long = pivot_long(table, "system", "candidate", ["reference"], "seg_id")
    assert len(long.wide.rows) == 6 and long.distinct_segments == 5
    assert "B has no row for 1 of the 5 segments (seg_id 3): they are left out of the comparison for every system" \
        in long.notes()


def test_a_mixed_long_table_keeps_each_scored_rows_system():
    """corpus_from_table(system_column=...): the system of each row scored, in the rows'
    order; a row the scorer refuses (an empty reference, a control character) takes its
    system with it, so the names stay beside their own rows."""
    data = ("id\tsystem\tcandidate\treference\n"
            "1\tA\tthe cat\tthe cat sat\n"
            "1\tB\ta cat\t\n"           # line 3: an empty reference, refused by the scorer
            "2\tA\tthe dog\tthe dog ran\n"
            "2\tB\ta dog\x07\tthe dog ran\n"  # line 5: a control character, refused by the scorer
            "3\t\tcat\tthe cat\n")      # line 6: no system named
    table = read_table(data.encode(), "long.tsv")
    corpus = corpus_from_table(table, "candidate", ["reference"], "id", system_column="system")
    assert corpus.systems == ("A", "B", "A", "B", "") and corpus.system_column == "system"
    analysis = analyze_corpus(corpus, MeteorConfig(), workers=1)
    assert analysis.lines == (2, 4, 6) and analysis.systems == ("A", "A", "")
    assert [(r["id"], r["system"]) for r in analysis.rows] == [("1", "A"), ("2", "A"), ("3", "")]
    assert list(analysis.rows[0])[:3] == ["id", "system", "line"]
    plain = corpus_from_table(table, "candidate", ["reference"], "id")
    assert plain.systems == () and "system" not in analyze_corpus(plain, MeteorConfig(), workers=1).rows[0]
    with pytest.raises(MeteorInputError, match="'model' not found"):
        corpus_from_table(table, "candidate", ["reference"], "id", system_column="model")


def test_a_jsonl_line_of_blank_references_is_said_as_batch_says_it(tmp_path):
    """A tester: corpus read a JSONL file unlike batch. A byte-order mark starting a later line
    (files joined with cat) made it "not valid JSON" (batch reads it); a line whose
    "references" is [null, ""] said "reference 1 is empty", as if another were there, and
    counted the "reference" key it lacks as a third. METEOR 1.5 mode still scores it 0, as the jar."""
    from meteor_core import score
    from meteor_core.corpus_io import read_corpus_files

    path = tmp_path / "joined.jsonl"
    path.write_bytes(b'{"candidate": "a b", "reference": "a b"}\n'
                     b'\xef\xbb\xbf{"candidate": "a c", "reference": "a b"}\n'
                     b'{"candidate": "a c", "references": [null, ""]}\n')
    data = read_corpus_files(str(path))
    paper = analyze_corpus(data, MeteorConfig(), workers=1)
    assert paper.lines == (1, 2) and [str(p) for p in paper.not_scored] == [
        f"{path}, line 3: all 2 references are blank: no reference to score against"]
    jar = analyze_corpus(data, MeteorConfig(mode="meteor15"), workers=1)
    assert jar.lines == (1, 2, 3) and jar.corpus.segments[2].score == 0.0
    with pytest.raises(MeteorInputError, match=r"^all 2 references are blank: no reference to score against$"):
        score("a b", ["", " \u200b"])
    with pytest.raises(MeteorInputError, match=r"^reference is empty"):  # one reference: as before
        score("a b", [""])
    assert score("a b", ["", " "], mode="meteor15").score == 0.0


def test_a_tsv_row_cut_by_quoting_says_why():
    """An app tester wrote a TSV with Python's csv writer (quoting, as pandas does): a quoted tab
    and a quoted line break split three rows, said only as "8 fields, the header has 6". Now
    the reason names quoting and the way out; a plain short row is said as before."""
    tsv = ('id\treference\tsysA\n'
           '1\tthe cat\tthe cat\n'
           '2\t"he said ""hi\tthere"" twice"\the said hi\n'
           '3\t"multi\n'
           'line"\tmulti line\n'
           '4\tonly two\n').encode()
    table = read_table(tsv, "q.tsv")
    quoting = ("; a TSV is read without quoting (a \" is text, as in WMT's files), so a tab or line break inside "
               "quotes splits the row: save the table as CSV")
    assert [(p.line, p.message) for p in table.problems] == [
        (3, "4 fields, the header has 3" + quoting), (4, "2 fields, the header has 3" + quoting),
        (5, "2 fields, the header has 3" + quoting), (6, "2 fields, the header has 3")]
