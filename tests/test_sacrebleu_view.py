"""sacreBLEU beside METEOR: the numbers are sacreBLEU's own (checked against its command line,
an independent path through the package: files in, text out), the CLI JSON carries them, and
the one-line explanation attributes the difference to the setting that causes it."""
import math
import json
import re
import subprocess
import sys

import pytest

from meteor_core import score
from meteor_core import sacrebleu_view as sv
from meteor_core.cli import main
from meteor_core.report import bleu_for

SEGMENTS = [  # candidate, two references
    ("The cat sat on a mat.", ["the cat sat on the mat", "A cat was sitting on the mat."]),
    ("o cupom vale só até domingo", ["o cupom vale para toda a loja até domingo", "o cupom vale até domingo"]),
    ("The President, Mr. Smith, didn't say it.", ["The president (Mr. Smith) did not say it.", "Smith said nothing."]),
]


def _sacrebleu_cli(tmp_path, candidates, references, *options):
    paths = []
    for k in range(len(references[0])):  # one reference stream per file
        path = tmp_path / f"ref{k}.txt"
        path.write_text("".join(refs[k] + "\n" for refs in references), encoding="utf-8")
        paths.append(str(path))
    out = subprocess.run([sys.executable, "-m", "sacrebleu", *paths, "-w", "10", *options],
                         input="".join(c + "\n" for c in candidates), capture_output=True, text=True, check=True)
    return out.stdout


def test_corpus_bleu_equals_sacrebleu_command_line(tmp_path):
    candidates = [c for c, _ in SEGMENTS]
    references = [r for _, r in SEGMENTS]
    ours = sv.corpus_bleu(candidates, references)
    theirs = json.loads(_sacrebleu_cli(tmp_path, candidates, references, "-f", "json"))
    assert ours.score == pytest.approx(theirs["score"], abs=1e-9)
    assert ours.signature == theirs["signature"]  # nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|...
    assert "tok:13a" in ours.signature and "case:mixed" in ours.signature


def test_sentence_bleu_equals_sacrebleu_command_line(tmp_path):
    candidates = [c for c, _ in SEGMENTS]
    references = [r for _, r in SEGMENTS]
    lines = _sacrebleu_cli(tmp_path, candidates, references, "--sentence-level").strip().splitlines()
    theirs = [float(re.search(r"= ([0-9.]+)", line).group(1)) for line in lines]
    signature = lines[0].split(" = ")[0].removeprefix("BLEU|")
    for (candidate, refs), expected in zip(SEGMENTS, theirs):
        ours = sv.sentence_bleu(candidate, refs)
        assert ours.score == pytest.approx(expected, abs=1e-9)
    assert sv.sentence_bleu(*SEGMENTS[0]).signature == signature
    assert "eff:yes" in signature


def test_corpus_with_a_varying_number_of_references():
    """A segment with one reference among segments with two: the missing one is skipped (not
    an empty reference of length 0), the statistics are the sum of the segments' own, and the
    signature says nrefs:var."""
    references = [SEGMENTS[0][1], SEGMENTS[1][1][:1], SEGMENTS[2][1]]
    corpus = sv.corpus_bleu([c for c, _ in SEGMENTS], references)
    parts = [sv.sentence_bleu(c, refs) for (c, _), refs in zip(SEGMENTS, references)]
    assert list(corpus.counts) == [sum(p.counts[n] for p in parts) for n in range(4)]
    assert list(corpus.totals) == [sum(p.totals[n] for p in parts) for n in range(4)]
    assert corpus.reference_length == sum(p.reference_length for p in parts)
    assert corpus.signature.startswith("nrefs:var|")


def test_cli_score_json_carries_sacrebleu(capsys, wordnet_reader):
    import sacrebleu

    candidate, refs = SEGMENTS[0]
    argv = ["score", "--candidate", candidate, "--json"]
    for ref in refs:
        argv += ["--reference", ref]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)["sacrebleu"]
    assert data["sentence"]["score"] == pytest.approx(sacrebleu.sentence_bleu(candidate, refs).score, abs=1e-12)
    assert data["corpus"]["score"] == pytest.approx(
        sacrebleu.corpus_bleu([candidate], [[r] for r in refs]).score, abs=1e-12)
    # Clipped against both references, case kept: cat sat on mat . / "cat sat" "sat on" "mat ." / "cat sat on"
    assert data["sentence"]["counts"] == [5, 3, 1, 0]
    assert data["why_different"].startswith("sacreBLEU ")


def test_difference_is_the_smoothing_when_only_smoothing_differs():
    # Lowercase, whitespace-separated, no punctuation: 13a and METEOR tokens agree and case
    # cannot matter; unsmoothed BLEU is 0 (no common 4-gram) while sacreBLEU smooths.
    result = score("o cupom vale só até domingo", ["o cupom vale para toda a loja até domingo"], stages=("exact",))
    ours = bleu_for(result)
    view = sv.view(result, ours)
    by_factor = {d.factor: d.points for d in view.differences}
    assert ours.score == 0.0
    assert by_factor["case"] == 0.0 and by_factor["tokenization"] == pytest.approx(0.0, abs=1e-9)
    assert by_factor["smoothing"] == pytest.approx(view.sentence.score, abs=1e-9)
    assert "smoothing" in view.why_different and "case" not in view.why_different


@pytest.mark.parametrize("candidate, smoothing", [("the cat sat", "method1"), ("the cat", "method1"),
                                                  ("the cat sat", "method3")])
def test_a_candidate_too_short_for_4_grams_names_the_orders_not_the_tokens(candidate, smoothing):
    """A teacher: "the cat sat" with method1 said "smoothing +36.79; tokenization -20.69", and
    both tokenizations are the same. sacreBLEU stops at the first order without n-grams, nltk
    counts it 0 of 1: that step is named, before smoothing (after it, the smoothing step took the
    credit: a tester), and the tokens add nothing."""
    result = score(candidate, ["the cat sat on the mat"], stages=("exact",), bleu_smoothing=smoothing)
    ours = bleu_for(result)
    view = sv.view(result, ours)
    by_factor = {d.factor: d.points for d in view.differences}
    assert by_factor["tokenization"] == pytest.approx(0.0, abs=1e-9)
    assert by_factor["n-gram orders"] > 0 and "tokenization" not in view.why_different
    if smoothing == "method3":  # sacreBLEU's exp smoothing: once the orders agree, nothing is left
        assert by_factor["smoothing"] == pytest.approx(0.0, abs=1e-9)
    assert sum(by_factor.values()) == pytest.approx(view.sentence.score - 100.0 * ours.score, abs=1e-9)
    # nltk's method1 by hand on "the cat sat": p1..p3 = 1 (every n-gram matches), p4 = 0.1 / 1 (its
    # epsilon over max(1, 0) 4-grams); brevity 3 vs 6 tokens: exp(1 - 6/3); BLEU = BP * 0.1^(1/4)
    if (candidate, smoothing) == ("the cat sat", "method1"):
        assert 100 * ours.score == pytest.approx(100 * math.exp(1 - 6 / 3) * 0.1 ** 0.25, abs=1e-9)
        # sacreBLEU: p1..p3 = 1 over 3 orders: 100 BP. Every order counted, its exp smoothing gives
        # the empty 4-gram order 1 / (2 * 1): 100 BP 0.5^(1/4). The orders step is the difference.
        assert view.sentence.score == pytest.approx(100 * math.exp(1 - 6 / 3), abs=1e-9)
        assert by_factor["n-gram orders"] == pytest.approx(100 * math.exp(-1) * (1 - 0.5 ** 0.25), abs=1e-9)


def test_difference_is_the_case_when_only_case_differs():
    # nltk method3 is sacreBLEU's exp smoothing; the candidate differs from the reference only
    # in the capital T, which sacreBLEU (case kept) counts as a different word.
    result = score("The cat sat on the mat", ["the cat sat on the mat"], stages=("exact",), bleu_smoothing="method3")
    view = sv.view(result, bleu_for(result))
    by_factor = {d.factor: d.points for d in view.differences}
    assert bleu_for(result).score == pytest.approx(1.0)
    assert by_factor["case"] == pytest.approx(view.sentence.score - 100.0)
    assert abs(by_factor["smoothing"]) < 1e-9 and abs(by_factor["tokenization"]) < 1e-9
    assert "case" in view.why_different and "smoothing (" not in view.why_different


def test_equal_scores_say_what_the_steps_measured():
    """A teacher: a Chinese pair, both BLEUs 0, was said to be one where 'case, smoothing and
    tokenization change nothing', though smoothing would change this BLEU and 13a made one token
    of each sentence. Equal scores are said of the path the differences measure; equal by
    cancellation is said so; Chinese and Japanese get a word on 13a."""
    result = score("我喜欢吃苹果", ["我爱吃苹果"], language="zh")
    view = sv.view(result, bleu_for(result))
    assert view.sentence.score == 0.0 and bleu_for(result).score == 0.0
    assert view.sentence.hypothesis_length == 1  # 13a: the whole sentence is one token
    assert "no step changes the score" in view.why_different and "change nothing" not in view.why_different
    assert "MT papers score zh with sacreBLEU's own tokenizer (-tok zh)" in view.why_different
    english = score("the cat sat on the mat", ["the cat sat on the mat"])
    assert sv.view(english, bleu_for(english)).why_different == (
        "Both give 100.00 (0-100) here: going from sacreBLEU's settings to this BLEU's one at a time (case, then "
        "smoothing, then tokens), no step changes the score.")

    class Ours:  # the two fields explain_difference reads of a BleuResult
        score, smoothing = 0.4, "method3"

    sacre = sv.SacreBleu(40.0, (4, 3, 2, 1), (5, 4, 3, 2), 1.0, 5, 5, "")
    steps = (sv.Difference("case", "c", 2.5), sv.Difference("smoothing", "s", 0.0),
             sv.Difference("tokenization", "t", -2.5))
    assert sv.explain_difference(sacre, Ours(), steps) == (
        "Both give 40.00 (0-100) here, but not because nothing differs: case (c) +2.50; tokenization (t) -2.50, "
        "which cancel out.")


def test_no_equivalent_smoothing_is_said():
    result = score("the cat sat", ["the cat sat on the mat"], stages=("exact",), bleu_smoothing="method2")
    view = sv.view(result, bleu_for(result))
    assert view.differences == () and "no sacreBLEU equivalent" in view.why_different


@pytest.mark.parametrize("keep_case", [False, True])
@pytest.mark.parametrize("smoothing", ["none", "method1", "method3"])
def test_view_reuses_counts_but_equals_fresh_sacrebleu_calls(keep_case, smoothing):
    # view() tokenizes and counts each pair once per case setting and derives the other scores
    # with sacreBLEU's compute_bleu; every number must equal a fresh sacreBLEU call per setting.
    from sacrebleu.metrics import BLEU

    for candidate, references in SEGMENTS:
        result = score(candidate, references, stages=("exact",), keep_case=keep_case, bleu_smoothing=smoothing)
        ours = bleu_for(result)
        view = sv.view(result, ours)
        sentence_metric, corpus_metric = BLEU(effective_order=True), BLEU()
        assert view.sentence.score == sentence_metric.sentence_score(candidate, references).score
        corpus = corpus_metric.corpus_score([candidate], [[r] for r in references])
        assert (view.corpus.score, view.corpus.counts, view.corpus.totals, view.corpus.brevity_penalty) == (
            corpus.score, tuple(corpus.counts), tuple(corpus.totals), corpus.bp)
        assert view.sentence.signature == str(sentence_metric.get_signature())
        assert view.corpus.signature == str(corpus_metric.get_signature())
        steps = [BLEU(effective_order=True).sentence_score(candidate, references).score]
        if not keep_case:
            steps.append(BLEU(lowercase=True, effective_order=True).sentence_score(candidate, references).score)
        smooth = sv.SMOOTHING_EQUIVALENT[smoothing]
        steps.append(BLEU(lowercase=not keep_case, smooth_method=smooth).corpus_score(
            [candidate], [[r] for r in references]).score)
        steps.append(100.0 * ours.score)
        expected = [a - b for a, b in zip(steps, steps[1:])]
        assert [d.points for d in view.differences] == expected


def _special_13a(ch: str) -> bool:
    """Characters 13a treats apart from letters: the ones it splits off, digits (which keep a
    period, comma or dash attached), the period, comma and dash themselves, and whitespace."""
    return bool(re.fullmatch(r"[\{-\~\[-\` -\&\(-\+\:-\@\/0-9.,\-]", ch)) or ch.isspace()


def test_lowercasing_keeps_every_character_in_its_13a_class():
    # Why the lowercased statistics may be counted on the cased 13a tokens lowercased: for
    # every code point (bar the three excluded ones), a character 13a treats specially is its
    # own lowercase, and a letter never lowercases into one.
    excluded = sv._CASE_SENSITIVE_13A
    broken = []
    for code in range(0x110000):
        ch = chr(code)
        if ch in excluded or 0xD800 <= code <= 0xDFFF:
            continue
        lowered = ch.lower()
        if _special_13a(ch):
            ok = lowered == ch
        else:
            ok = not any(_special_13a(c) or c in excluded for c in lowered)
        if not ok:
            broken.append(hex(code))
    assert broken == []


TRICKY = [
    ("The Cat, Mr. SMITH, paid 3.50 - 4,00 EUR.", ["the cat (Mr. Smith) paid 3.50-4,00 eur ."]),
    ("İstanbul'DA ẞtraße; KELVIN K and ǅ", ["istanbul'da ßtraße; kelvin k and ǆ"]),
    ("ΟΔΟΣ.Α ΟΔΟΣ", ["οδος.α οδος", "ΟΔΟΣ . Α"]),  # final sigma: lowercased by context
    ("A &QUOT;quote&quot; &AMP; x", ["a \"quote\" & x", "A &quot;QUOTE&quot;"]),  # entities: case-sensitive
    ("x <SKIPPED> y <skipped>", ["x y", "x <skipped> y"]),
    ("Line-\nBREAK\nhere  ", ["line-\nbreak here", "LINEBREAK HERE"]),
    ("", ["Nothing"]),
]


def _sacrebleu_sentence(candidate, references, lowercase):
    from sacrebleu.metrics import BLEU

    theirs = BLEU(lowercase=lowercase, effective_order=True).sentence_score(candidate, references)
    return theirs.score, tuple(theirs.counts), tuple(theirs.totals), theirs.sys_len, theirs.ref_len


def _ours_sentence(candidate, references, lowercase):
    # Lowercased: as differences() gets it, from the cased statistics (reused when lowercasing
    # merges no two words, counted again otherwise).
    statistics = sv._statistics(candidate, references, lowercase=False)
    if lowercase:
        statistics = sv._lowercased_statistics(candidate, references, statistics)
    ours = sv._bleu(statistics)
    return ours.score, tuple(ours.counts), tuple(ours.totals), ours.sys_len, ours.ref_len


@pytest.mark.parametrize("candidate, references", TRICKY)
def test_lowercased_statistics_equal_sacrebleus_own_lowercase_call(candidate, references):
    sv._statistics(candidate, references, lowercase=False)  # fills the tokenizer's cache, as view() does
    assert _ours_sentence(candidate, references, True) == _sacrebleu_sentence(candidate, references, True)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ALPHABET = "aAbBσΣςİiıIßẞǅǆ0123456789.,-&;<>/()' \n\tqQ\u0307"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=30), st.lists(st.text(alphabet=_ALPHABET, max_size=30),
                                                          min_size=1, max_size=3))
def test_lowercased_statistics_equal_sacrebleu_on_random_text(candidate, references):
    sv._statistics(candidate, references, lowercase=False)
    assert _ours_sentence(candidate, references, True) == _sacrebleu_sentence(candidate, references, True)


# Few distinct words, so n-grams repeat within a line and across references: clipping by the
# largest count in any one reference, and the closest reference length, are exercised.
_WORDS = st.lists(st.sampled_from(["the", "The", "cat", "sat", ".", "a,b", "&amp;", "x"]), max_size=14).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_WORDS, st.lists(_WORDS, min_size=1, max_size=4), st.booleans())
def test_statistics_equal_sacrebleus_sentence_score(candidate, references, lowercase):
    # The n-grams are counted here (C-level Counters), not by sacreBLEU: every count, length
    # and score must still be those of its own sentence_score, with case kept or lowercased.
    assert _ours_sentence(candidate, references, lowercase) == _sacrebleu_sentence(candidate, references, lowercase)


def test_statistics_clip_by_the_largest_count_in_one_reference():
    # "the the the" against refs with two and one "the": 2 unigram matches (max, not sum);
    # hypothesis length 3, references 2 and 4 long: closest is the shorter on the tie (2).
    ours = sv._statistics("the the the", ["the the", "the x y z"], lowercase=False)
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == ((2, 1, 0, 0), (3, 2, 1, 0), 3, 2)


def test_views_in_threads_keep_their_own_number_of_references():
    # The tokenizer and the signatures are shared by all threads: pairs with one and with
    # three references scored at once in 8 threads must each get their own signature and scores.
    from concurrent.futures import ThreadPoolExecutor

    pairs = [(c, refs[:k]) for c, refs in [(c, r * 3) for c, r in SEGMENTS] for k in (1, 3)] * 40
    results = [score(c, refs, stages=("exact",)) for c, refs in pairs]
    expected = [sv.view(r, bleu_for(r)) for r in results]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda r: sv.view(r, bleu_for(r)), results))
    assert got == expected
    assert {v.sentence.signature.split("|")[0] for v in got} == {"nrefs:1", "nrefs:3"}


@st.composite
def _sufficient_statistics(draw):
    """Statistics a segment can have: n-gram totals from the hypothesis length, matches up to them."""
    sys_len = draw(st.integers(0, 12))
    totals = tuple(max(sys_len - n + 1, 0) for n in range(1, 5))
    counts = tuple(draw(st.integers(0, total)) for total in totals)
    return sv._Statistics(counts, totals, sys_len, draw(st.integers(0, 15)))


@settings(max_examples=500, deadline=None)
@given(_sufficient_statistics(), st.sampled_from(["none", "floor", "exp"]), st.booleans())
def test_bleu_arithmetic_equals_sacrebleus_compute_bleu(statistics, smooth_method, effective_order):
    # The arithmetic is done here (sacreBLEU's BLEUScore formats strings it is never asked
    # for); every float must be the one compute_bleu gives, bit for bit.
    from sacrebleu.metrics import BLEU

    theirs = BLEU.compute_bleu(list(statistics.counts), list(statistics.totals), statistics.sys_len,
                               statistics.ref_len, smooth_method=smooth_method, effective_order=effective_order)
    ours = sv._bleu(statistics, smooth_method, effective_order)
    assert (ours.score, ours.counts, ours.totals, ours.bp, ours.sys_len, ours.ref_len) == (
        theirs.score, tuple(theirs.counts), tuple(theirs.totals), theirs.bp, theirs.sys_len, theirs.ref_len)


@pytest.mark.parametrize("references", [[["a"], []], [[]]])
def test_corpus_bleu_refuses_a_segment_without_references(references):
    # sacreBLEU itself fails with a TypeError or IndexError far from the cause.
    candidates = ["a", "b"][:len(references)]
    with pytest.raises(ValueError, match=f"segment {len(references)} has no reference"):
        sv.corpus_bleu(candidates, references)


# -- the 13a tokenizer (tokenize_13a.py) against sacreBLEU's own ---------------------------------
# Its rules look at digits, periods, commas, hyphens, rule 1's characters, line ends and the
# entities; every string of up to 5 characters over those classes, then random text.
from itertools import product  # noqa: E402

from meteor_core.tokenize_13a import RULE1_CHARACTERS, tokenize_13a  # noqa: E402


def _sacrebleu_13a():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return Tokenizer13a()


def test_13a_equals_sacrebleu_on_every_short_string():
    theirs = _sacrebleu_13a()
    alphabet = "a1.,-+ \n"
    differ = [text for length in range(6) for text in map("".join, product(alphabet, repeat=length))
              if tokenize_13a(text) != theirs(text)]
    assert differ == []


def test_13a_rule1_characters_are_sacrebleus_class():
    pattern = re.compile(r"[\{-\~\[-\` -\&\(-\+\:-\@\/]")  # sacreBLEU's class, as it writes it
    assert sorted(RULE1_CHARACTERS) == [chr(c) for c in range(0x80) if pattern.fullmatch(chr(c))]
    assert all(tokenize_13a(f"x{c}y") == f"x {c} y" for c in RULE1_CHARACTERS if not c.isspace())


_TEXT_13A = st.lists(st.sampled_from(["a", "B", "7", "0", ".", ",", "-", " ", "\n", "-\n", "&quot;", "&amp;", "&lt;",
                                      "&gt;", "&", "<skipped>", "'", "\t", "é", "Σ", "…", "\u00a0", "(", "$", "/",
                                      "|", "~", "`", "@", "\\", "]", "^", "_"]), max_size=25).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT_13A)
def test_13a_equals_sacrebleu_on_random_text(text):
    assert tokenize_13a(text) == _sacrebleu_13a()(text)


def test_13a_long_lines_are_tokenized_alike_but_not_cached():
    from meteor_core.tokenize_13a import CACHED_LINE_CHARS, _cached_13a

    line = "Mr. Smith, 3-4 &amp; 1,000.5 (x)... " * (CACHED_LINE_CHARS // 20)
    before = _cached_13a.cache_info().currsize
    assert len(line) > CACHED_LINE_CHARS
    assert tokenize_13a(line) == _sacrebleu_13a()(line)
    assert _cached_13a.cache_info().currsize == before


def test_the_steps_shown_add_up_to_the_scores_shown():
    """A teacher: "the dog" against "the cat and the dog" said sacreBLEU 22.31 vs 0.00, orders
    +9.05, smoothing +13.27: 22.32. Each step is now the difference of the rounded scores before
    and after it."""
    result = score("the dog", ["the cat and the dog"], stages=("exact",))
    ours = bleu_for(result)
    view = sv.view(result, ours)
    shown = [float(x) for x in re.findall(r" ([+-]\d+\.\d\d)(?=[;.])", view.why_different)]
    assert len(shown) == 2 and f"{view.sentence.score:.2f}" == "22.31" and f"{100 * ours.score:.2f}" == "0.00"
    assert round(sum(shown), 2) == 22.31
    by_factor = {d.factor: d.points for d in view.differences}  # unrounded: orders 9.0449..., shown 9.04
    assert round(by_factor["n-gram orders"], 2) == 9.05 and shown[0] == 9.04


def _view_against_sacrebleu(candidate, references, keep_case, smoothing="none"):
    """Every number of view() against sacreBLEU's own calls, setting by setting."""
    from sacrebleu.metrics import BLEU

    result = score(candidate, references, stages=("exact",), keep_case=keep_case, bleu_smoothing=smoothing)
    ours = bleu_for(result)
    view = sv.view(result, ours)
    texts = [r for r in references if r.strip()]
    sentence = BLEU(effective_order=True).sentence_score(candidate, texts)
    corpus = BLEU().corpus_score([candidate], [[r] for r in texts])
    assert (view.sentence.score, view.sentence.counts, view.sentence.totals, view.sentence.reference_length) == (
        sentence.score, tuple(sentence.counts), tuple(sentence.totals), sentence.ref_len)
    assert (view.corpus.score, view.corpus.counts, view.corpus.totals) == (
        corpus.score, tuple(corpus.counts), tuple(corpus.totals))
    if not keep_case:
        lowered = BLEU(lowercase=True, effective_order=True).sentence_score(candidate, texts).score
        assert view.differences[0].factor == "case"
        assert view.differences[0].points == sentence.score - lowered
    assert math.isclose(sum(d.points for d in view.differences), sentence.score - 100.0 * ours.score, abs_tol=1e-9)
    return result, ours


# Words METEOR's tokenizer and 13a split alike, few of them (n-grams repeat: clipping by the
# largest count in one reference; lengths tie), with case: sacreBLEU's lowercased counts are then
# read off this BLEU's counts (sacrebleu_view._statistics_of_ours) rather than counted again.
_SAME_SPLIT = st.lists(st.sampled_from(["the", "The", "cat", "CAT", "sat", "on", "mat", "."]),
                       min_size=1, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(_SAME_SPLIT, st.lists(_SAME_SPLIT, min_size=1, max_size=3), st.booleans())
def test_view_read_off_this_bleus_counts_equals_sacrebleu(candidate, references, keep_case):
    result, ours = _view_against_sacrebleu(candidate, references, keep_case)
    if not keep_case:  # the path under test was taken
        assert sv._statistics_of_ours(result, ours, references) is not None


def test_view_counts_again_where_the_tokens_differ():
    # "20-year-old": one METEOR token, three 13a words (20 - year-old): sacreBLEU's counts are
    # then counted from its own words, and still equal its own call.
    pairs = SEGMENTS + [("A 20-year-old man", ["a 20-year-old man", "The man is 20"])]
    for candidate, references in pairs:
        result, ours = _view_against_sacrebleu(candidate, references, keep_case=False)
    assert sv._statistics_of_ours(result, ours, pairs[-1][1]) is None
    result = score(*SEGMENTS[0], stages=("exact",))
    assert sv._statistics_of_ours(result, bleu_for(result), SEGMENTS[0][1]) is not None  # the same words


@pytest.mark.parametrize("references", [1, 3, -1])
@pytest.mark.parametrize("sentence", [True, False])
def test_signatures_are_sacrebleus_own(sentence, references):
    # Written here without the package (its import was 45 ms of every batch start): each must
    # be what its BLEU metric says after scoring with that many references (-1: a varying number).
    from sacrebleu.metrics import BLEU

    metric = BLEU(effective_order=sentence)
    metric.num_refs = references  # what scoring sets, as in sacreBLEU's corpus_score
    assert sv._signature(sentence, references) == str(metric.get_signature())


def test_scoring_with_the_sacrebleu_view_does_not_import_sacrebleu():
    code = ("import sys; from meteor_core import score, sacrebleu_view; from meteor_core.report import bleu_for; "
            "r = score('The cat sat.', ['the cat sat on the mat', 'A cat.']); v = sacrebleu_view.view(r, bleu_for(r)); "
            "print(v.sentence.signature, 'sacrebleu' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[1] == "False" and out[0].startswith("nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:")


def test_a_blank_reference_left_out_is_said():
    """A tester: METEOR 1.5 mode scores a blank reference (as the jar does) while this view left it
    out silently: 36.79 with nrefs:1 where sacreBLEU's own call on the line gives 100.00."""
    result = score("fox", ["", "quick fox"], mode="meteor15")
    view = sv.view(result, bleu_for(result))
    assert view.sentence.signature.startswith("nrefs:1|")
    assert view.why_different.endswith(" The blank reference is left out here, as this BLEU leaves it out; "
                                       "sacreBLEU given it counts it as a reference of length 0.")
    assert "blank" not in sv.view(score("fox", ["quick fox"]), bleu_for(score("fox", ["quick fox"]))).why_different
