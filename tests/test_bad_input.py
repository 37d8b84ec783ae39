import importlib
import itertools
import json
import re
import math
import os

import pytest

from meteor_core import (MAX_TOKENS, MeteorConfig, MeteorInputError, MeteorParameterError, MeteorParams, Scorer, score,
                         tokenize)


@pytest.mark.parametrize("candidate, message", [
    ("the \x1b[31mcat", "control character U+001B at character 4"),
    (" ".join(["w"] * (MAX_TOKENS + 1)), f"candidate has {MAX_TOKENS + 1:,} tokens; the limit is {MAX_TOKENS:,}"),
])
def test_bad_candidate(candidate, message):
    with pytest.raises(MeteorInputError, match=re.escape(message)):
        score(candidate, "the cat")


def test_bad_reference_is_named():
    with pytest.raises(MeteorInputError, match="reference 2 is empty"):
        score("the cat", ["the cat", " "])
    with pytest.raises(MeteorInputError, match="at least one reference"):
        score("the cat", [])


@pytest.mark.parametrize("kwargs, message", [
    (dict(alpha=1.5), "alpha must be in"), (dict(alpha=-0.1), "alpha must be in"),
    (dict(beta=-1), "beta must be >= 0"), (dict(gamma=-0.5), "gamma must be in"),
    (dict(alpha=float("nan")), "finite"),
    (dict(beta=10 ** 400), "beta must be a finite number"),  # was a raw OverflowError (a tester)
])
def test_bad_parameters(kwargs, message):
    with pytest.raises(MeteorParameterError, match=message):
        MeteorParams(**kwargs)


def test_bad_options():
    with pytest.raises(MeteorParameterError, match="unknown stage"):
        MeteorConfig(stages=("exact", "paraphrase"))
    with pytest.raises(MeteorParameterError, match="mode must be"):
        MeteorConfig(mode="fast")
    with pytest.raises(MeteorParameterError, match="nltk mode"):
        MeteorConfig(mode="nltk", stages=("exact",))


def test_extremes_never_nan():
    for params in (MeteorParams(0.0, 0.0, 0.0), MeteorParams(1.0, 0.0, 1.0), MeteorParams(1.0, 100.0, 1.0)):
        result = score("a b c", "c b a", params=params, stages=("exact",))
        assert not math.isnan(result.score) and 0 <= result.score <= 1


def test_tokenizer_keeps_offsets_and_pretokenized_input():
    tokens = tokenize("Don't stop, e-mail me!")
    assert [t.text for t in tokens] == ["Don't", "stop", ",", "e-mail", "me", "!"]
    assert [t.norm for t in tokens][0] == "don't"
    text = "Don't stop, e-mail me!"
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert [t.text for t in tokenize("A b", keep_case=True)] == ["A", "b"]
    assert [t.norm for t in tokenize("A, b.", drop_punctuation=True)] == ["a", "b"]
    assert [t.text for t in tokenize("a,b c", tokenizer="whitespace")] == ["a,b", "c"]
    pre = tokenize(["New", "York"])
    assert [(t.text, t.start, t.end) for t in pre] == [("New", 0, 3), ("York", 4, 8)]
    # dropped punctuation keeps the offsets in the tokens joined by spaces: "Hello , World !"
    kept = tokenize(["Hello", ",", "World", "!"], drop_punctuation=True)
    assert [(t.text, t.norm, t.start, t.end) for t in kept] == [("Hello", "hello", 0, 5), ("World", "world", 8, 13)]
    with pytest.raises(MeteorInputError, match="contains whitespace"):
        tokenize(["New York"])


@pytest.mark.parametrize("mode", ["paper", "nltk", "meteor15"])
@pytest.mark.parametrize("tokens, message", [
    (["New York", "is"], r"candidate token 0 \('New York'\) is empty or contains whitespace"),
    (["a", ""], r"candidate token 1 \(''\) is empty or contains whitespace"),
    (["\u200d", "a"], r"candidate token 0 \('\\u200d'\) has only invisible format characters"),
    (["a", 5], "candidate token 1 is not a string: 5"),
])
def test_a_token_list_must_hold_words_in_every_mode(meteor15_data, wordnet_reader, mode, tokens, message):
    """The README says so for every mode; METEOR 1.5 mode joined the tokens and normalized them
    again ("New York" scored as two words 0.4604, ["a", ""] against ["a"] 1.0: a tester)."""
    from meteor_core import MeteorConfig, Scorer

    scorer = Scorer(MeteorConfig(mode=mode))
    with pytest.raises(MeteorInputError, match=message):
        scorer.score(tokens, [["New", "York"]])
    with pytest.raises(MeteorInputError, match=message.replace("candidate token", "reference token")):
        scorer.score(["New", "York"], [tokens])


def test_unicode_words():
    assert [t.text for t in tokenize("até domingo — São Paulo")] == ["até", "domingo", "—", "São", "Paulo"]


# -- Unicode (issue 12 item 8) ------------------------------------------------------------------
NFC, NFD = "caf\u00e9", "cafe\u0301"


def test_nfc_and_nfd_spellings_match_in_paper_mode():
    """Was 0: the NFD spelling split into 'cafe' + a combining accent."""
    assert score(f"un {NFC}", [f"un {NFD}"]).score == score(f"un {NFC}", [f"un {NFC}"]).score == 1 - 0.5 / 8
    tokens = tokenize(f"un {NFD} noir")
    assert [t.text for t in tokens] == ["un", NFD, "noir"] and tokens[1].norm == NFC
    assert [(t.start, t.end) for t in tokens] == [(0, 2), (3, 8), (9, 13)]  # offsets into the given text


def test_nltk_mode_keeps_nltks_matching_form(wordnet_reader):
    """nltk lowercases and does not normalize: NFC vs NFD do not match there, as in nltk."""
    from nltk.translate.meteor_score import meteor_score

    ours = score(NFC, [NFD], mode="nltk").score
    assert ours == meteor_score([[NFD]], [NFC], wordnet=wordnet_reader) == 0.0  # our reader: same synsets, fast


def test_zero_width_and_format_characters_are_not_tokens():
    text = "\ufeffthe\u200bcat \u200e sat on the ma\u00adt\u200d"
    tokens = tokenize(text)
    assert [t.norm for t in tokens] == ["the", "cat", "sat", "on", "the", "mat"]
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert tokens[-1].text == "ma\u00adt\u200d"
    assert [t.norm for t in tokenize("a\u200bb \u200b c", tokenizer="whitespace")] == ["a", "b", "c"]
    assert score("the cat", ["the\u200b cat"]).score == score("the cat", ["the cat"]).score
    with pytest.raises(MeteorInputError, match="token 1 .* only invisible format characters"):
        tokenize(["a", "\u200b"])
    # ZWNJ and ZWJ are word characters to regex: alone they were tokens with an empty form
    for tokenizer in ("default", "char", "whitespace"):
        assert tokenize("x \u200d y \u200c z", tokenizer=tokenizer).texts == ("x", "y", "z")
    assert tokenize("\U0001F468\u200d\U0001F469 ok").texts == ("\U0001F468\u200d\U0001F469", "ok")  # one emoji
    assert tokenize("ab\u200dc").texts == ("ab\u200dc",) and tokenize("ab\u200dc")[0].norm == "abc"
    assert score("x \u200d y", ["x y"]).score == score("x y", ["x y"]).score
    with pytest.raises(MeteorInputError, match="empty"):
        score("\u200d", ["\u200d"])


@pytest.mark.parametrize("tokenizer", ["default", "char"])
def test_an_emoji_is_one_token_as_on_screen(tokenizer):
    """A flag was two regional-indicator letters, so "\U0001F1E9\U0001F1EA" (DE) and
    "\U0001F1EA\U0001F1F8" (ES) matched on E; skin tones and ZWJ families fell apart too."""
    de, es, fr = "\U0001F1E9\U0001F1EA", "\U0001F1EA\U0001F1F8", "\U0001F1EB\U0001F1F7"
    thumb, heart, keycap = "\U0001F44D\U0001F3FD", "\u2764\ufe0f", "1\ufe0f\u20e3"
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    text = f"ok {de}{fr} {thumb} {family} {heart} {keycap} {de}\U0001F1EB"
    tokens = tokenize(text, tokenizer=tokenizer)
    assert tokens.texts == ("ok", de, fr, thumb, family, heart, keycap, de, "\U0001F1EB")  # an odd indicator alone
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert tokens[4].norm == "\U0001F468\U0001F469\U0001F467"  # the joiners are format characters
    assert score(f"flag {de}", [f"flag {es}"]).best.stats.matches == 1
    # Subdivision flags differ only in their tag characters, which the matching form keeps.
    scotland = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000E007F"
    wales = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbwls") + "\U000E007F"
    assert tokenize(f"{scotland} x", tokenizer=tokenizer).texts == (scotland, "x")
    assert score(scotland, [wales]).score == 0 and score(scotland, [scotland]).best.stats.matches == 1
    assert tokenize(["\U000E0067x"]).norms == ("x",)  # stray tags are still left out


@pytest.mark.parametrize("mode", ["paper", "nltk"])
def test_inputs_of_the_wrong_type_are_input_errors(mode, wordnet_reader):
    """None, numbers and bytes were TypeErrors, which skip_invalid does not skip."""
    from meteor_core import Scorer

    for candidate, references, message in [("a", [None], "reference must be a string or a list of token strings, "
                                                         "not NoneType"),
                                           ("a", [5], "not int"), (None, ["a"], "candidate must be .* not NoneType"),
                                           (b"a", ["a"], "not bytes"), ("a", None, "references must be"),
                                           ("a", [["a"], None], "reference 2 must be")]:
        with pytest.raises(MeteorInputError, match=message):
            score(candidate, references, mode=mode)
    scorer = Scorer(MeteorConfig(mode=mode))
    corpus = scorer.score_corpus(["a b", "a", "c"], [["a b"], [None], ["c"]], skip_invalid=True)
    assert [s.index for s in corpus.skipped] == [1] and len(corpus.segments) == 2
    # an empty candidate scores 0 (a system may output nothing); an empty reference is refused
    assert scorer.score_tokens([], tokenize("a")).score == 0.0
    with pytest.raises(MeteorInputError, match="reference is empty"):
        scorer.score_tokens(tokenize("a"), [])


@pytest.mark.parametrize("candidate, references", [([], [["a", "b"]]), ([], [["a"], ["b", "c"]]), ("", ["a b"]),
                                                   ("  ", ["a", "b c"])])
def test_an_empty_candidate_scores_0_in_every_mode(candidate, references, wordnet_reader):
    """A captioning tester: nltk's meteor_score (and HF evaluate's mean) scores an empty caption
    0; nltk mode refused it, so its corpus mean left the segment out (0.175925 over 79 segments
    against HF's 0.174160 over 80). Paper mode refused it too, until an MT tester blanked 300 of
    1,984 outputs and lost 0.0014 of corpus METEOR: it scores 0 there too (m = 0)."""
    from nltk.translate.meteor_score import meteor_score

    result = score(candidate, references, mode="nltk")
    as_tokens = [r.split() if isinstance(r, str) else r for r in references]
    assert result.score == meteor_score(as_tokens, []) == 0.0
    note = "the candidate has no tokens, so no word can match: METEOR is undefined for m = 0 and reported as 0"
    assert all(r.breakdown.note == note for r in result.per_reference)
    paper = score(candidate, references, mode="paper")
    assert paper.score == 0.0 and all(r.breakdown.note == note for r in paper.per_reference)
    assert [(r.stats.matches, r.stats.candidate_length, r.stats.chunks) for r in paper.per_reference] == \
        [(0, 0, 0)] * len(references)


@pytest.mark.parametrize("candidate, references", [(["a", "b"], [[]]), ([], [[]]), ("a b", ["a b", " "])])
def test_an_empty_reference_is_refused_in_nltk_mode_too(candidate, references, wordnet_reader):
    """nltk gives 0 for an empty reference; here it is missing data, refused as in paper mode:
    else a corpus line empty in every file scored 0 and counted (a documented difference)."""
    with pytest.raises(MeteorInputError, match="reference( 2)? is empty"):
        score(candidate, references, mode="nltk")


def test_every_mode_counts_an_empty_candidate_in_the_corpus(wordnet_reader):
    from nltk.translate.meteor_score import meteor_score

    from meteor_core import Scorer

    candidates, references = ["the cat sat", "", "  "], [["the cat sat on the mat"], ["a dog"], ["a dog"]]
    corpus = Scorer(MeteorConfig(mode="nltk")).score_corpus(candidates, references)
    assert len(corpus.segments) == 3 and not corpus.skipped
    hf_mean = sum(meteor_score([r.split() for r in refs], c.split()) for c, refs in zip(candidates, references)) / 3
    assert corpus.mean_segment_score == pytest.approx(hf_mean, abs=1e-15)
    # paper mode: the empty outputs count (m = 0, their reference length in R): 3 matches of 6 + 2 + 2
    # reference words, 3 of 3 candidate words, one chunk: P = 1, R = 3/10, Fmean = 10PR / (R + 9P)
    paper = Scorer(MeteorConfig()).score_corpus(candidates, references)
    assert not paper.skipped and len(paper.segments) == 3
    fmean = 10 * (3 / 10) / (3 / 10 + 9)
    assert paper.breakdown.score == pytest.approx(fmean * (1 - 0.5 * (1 / 3) ** 3), abs=1e-15)


@pytest.mark.parametrize("mode", ["paper", "nltk", "meteor15"])
def test_a_one_shot_iterator_of_tokens_is_read_once(mode, wordnet_reader):
    """A candidate given as an iterator kept its score but lost its text ('') in the
    result, and its character spans in METEOR 1.5 mode: it was read once to tokenize and
    again, empty, to join."""
    from_list = score(["the", "cat", "sat"], ["the cat sat"], mode=mode)
    from_iterator = score(iter(["the", "cat", "sat"]), ["the cat sat"], mode=mode)
    assert from_iterator.candidate == from_list.candidate == "the cat sat"
    assert from_iterator.best.candidate_tokens == from_list.best.candidate_tokens
    assert from_iterator.score == from_list.score


def test_combining_marks_stay_with_their_word():
    assert [t.text for t in tokenize(f"{NFD} !", drop_punctuation=True)] == [NFD]
    assert [t.text for t in tokenize("\u0915\u093f\u0924\u093e\u092c \u092a\u0922\u093c\u094b")] == \
        ["\u0915\u093f\u0924\u093e\u092c", "\u092a\u0922\u093c\u094b"]  # Devanagari: vowel signs are marks
    ja = tokenize("\u304b\u3099\u304d", language="ja")  # NFD kana + combining voiced mark, character tokens
    assert [t.text for t in ja] == ["\u304b\u3099", "\u304d"] and ja[0].norm == "\u304c"


def test_lone_surrogates_are_rejected():
    with pytest.raises(MeteorInputError, match=r"candidate is not valid Unicode text: lone surrogate U\+D800 at character 4"):
        score("the \ud800cat", ["the cat"])
    with pytest.raises(MeteorInputError, match=r"reference is not valid Unicode text: lone surrogate U\+DCFF"):
        score("the cat", ["the \udcffcat"])  # how undecodable bytes arrive (surrogateescape)


def test_length_is_checked_before_the_text_is_scanned(monkeypatch):
    """Issue 12 item 4: a 20 MB text was tokenized whole (12-14 s, 1.4-2.1 GB) before the
    token limit rejected it."""
    tokenize_module = importlib.import_module("meteor_core.tokenize")  # the package attribute is the function

    def scanned(*args):
        raise AssertionError("the text was scanned before its length was checked")

    monkeypatch.setattr(tokenize_module, "check_text", scanned)
    with pytest.raises(MeteorInputError, match="candidate has 20,000,000 characters; the limit is 200,000"):
        tokenize("word " * 4_000_000, field="candidate")
    monkeypatch.undo()
    with pytest.raises(MeteorInputError, match="has 200,001 characters"):
        tokenize("a" * 200_001)
    assert len(tokenize("a" * 200_000)) == 1
    with pytest.raises(MeteorInputError, match=f"has {MAX_TOKENS + 5:,} tokens"):
        tokenize(". " * (MAX_TOKENS + 5))
    assert len(tokenize(". " * (MAX_TOKENS + 5) + "a", drop_punctuation=True)) == 1


@pytest.mark.parametrize("mode", ["paper", "nltk", "meteor15"])
def test_too_many_references_are_refused_before_any_alignment(mode, wordnet_reader, monkeypatch):
    # A token list where the list of references belongs: 2,000 one-word references. Before
    # the limit this aligned 2,000 times and ran for minutes; now nothing is aligned at all.
    from meteor_core import MAX_REFERENCES
    from meteor_core.scorer import Scorer

    tokens = [f"w{k % 50}" for k in range(2000)]
    scorer = Scorer(MeteorConfig(mode=mode))
    aligned = []
    monkeypatch.setattr(scorer, "score_tokens", lambda *a: aligned.append(a))
    with pytest.raises(MeteorInputError, match=re.escape(
            f"2,000 references; the limit is {MAX_REFERENCES} per candidate (each is one word: were one "
            "reference's tokens given as the list of references?)")):
        scorer.score(tokens, tokens)
    # A generator is read only one past the limit (an endless one is refused, not drained)
    # and the one-word look is bounded (a helper: 10**7 copies of "a" took 3.6 s to refuse).
    with pytest.raises(MeteorInputError, match=r"^more than 100 references; the limit is 100 per candidate \("):
        scorer.score("a", itertools.repeat("a"))
    read = []
    with pytest.raises(MeteorInputError, match=r"^more than 100 references; the limit is 100 per candidate$"):
        scorer.score("a", (read.append(k) or f"a b {k}" for k in range(10**9)))
    assert len(read) == 101 and aligned == []


def test_the_reference_limit_is_exact_and_configurable():
    from meteor_core import MAX_REFERENCES

    assert MAX_REFERENCES == 100
    refs = ["the cat sat"] * 99 + ["a cat sat"]
    assert score("a cat sat", refs, stages=("exact",)).best_index == 99
    with pytest.raises(MeteorInputError, match=r"^101 references; the limit is 100 per candidate$"):
        score("a cat sat", refs + ["the cat"], stages=("exact",))
    assert len(score("a cat", refs + ["the cat"], stages=("exact",), max_references=101).per_reference) == 101
    for bad in (0, -1, True, 2.5):
        with pytest.raises(MeteorParameterError, match="max_references must be a positive integer"):
            MeteorConfig(max_references=bad)


def test_a_tokenized_reference_given_as_the_list_of_references_is_refused():
    """A tester's find: score(c.split(), r.split()) scored the candidate against each token as a
    one-word reference (0.3333 instead of 0.8067), silently. nltk's shape is
    meteor_score([reference_tokens], candidate_tokens); ours, score(candidate, [reference])."""
    from meteor_core import Scorer, score

    cand, ref = "the cat sat on a mat".split(), "the cat sat on the mat".split()
    with pytest.raises(MeteorInputError, match="were one reference's tokens given as the list of references"):
        score(cand, ref)
    with pytest.raises(MeteorInputError, match="segment 1: the candidate is a list of tokens"):
        Scorer().score_corpus([cand], [ref])
    assert score(cand, [ref]).score == pytest.approx(0.8066666666666668, abs=1e-15)
    assert score(cand, ["the cat sat on the mat", "a cat"]).best_index == 0  # sentences: fine
    assert score(cand, ["mat"]).score > 0  # one one-word reference: fine
    assert score("the cat", ["the", "cat"]).score > 0  # a text candidate with one-word references: fine


def test_negative_zero_is_zero_in_parameters_and_signatures(capsys):
    """A tester's find: --gamma -0 gave "g:-0" in the signature (a second signature for one
    configuration) and "Penalty = -0*(2/2)^3 = -0.000000"; module weights kept their type."""
    from fractions import Fraction

    params = MeteorParams(alpha=-0.0, beta=-0.0, gamma=-0.0)
    assert all(math.copysign(1.0, v) == 1.0 for v in (params.alpha, params.beta, params.gamma))
    assert MeteorConfig(mode="meteor15", weights=(Fraction(1), -0.0, 0.6, 0.8)).weights == (1.0, 0.0, 0.6, 0.8)
    assert all(type(w) is float for w in MeteorConfig(mode="meteor15", weights=(Fraction(1), 0, 1, 1)).weights)
    from meteor_core.cli import main
    assert main(["score", "--candidate", "b a", "--reference", "a b", "--gamma", "-0", "--alpha", "-0.0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "|a:0|" in data["signature"] and "|g:0|" in data["signature"]
    assert math.copysign(1.0, data["penalty"]) == 1.0


def test_a_negative_number_after_its_option_gets_the_parameters_own_message(capsys):
    """`--beta -inf` ended in argparse's "expected one argument" (it reads "-inf" as an
    option), while `--beta=-inf` gave the parameter's message. Both now give it."""
    from meteor_core.cli import _join_dash_values, main

    for value, message in (("-inf", "beta must be a finite number, got -inf"), ("-1e3", "beta must be >= 0, got -1000.0")):
        assert main(["score", "--candidate", "a b", "--reference", "a b", "--beta", value]) == 2
        assert capsys.readouterr().err.strip() == f"error: {message}"
    assert _join_dash_values(["--beta", "-inf", "--objective", "-x", "--", "--alpha", "-1"]) == [
        "--beta=-inf", "--objective", "-x", "--", "--alpha", "-1"]  # other options and words after -- untouched
    for unchanged in (["--alpha", "--beta", "2"], ["--gamma"], ["--beta", "0.5"], ["--beta", "-x"]):
        assert _join_dash_values(unchanged) == unchanged  # argparse says what is missing or wrong


def test_a_text_starting_with_a_dash_is_a_text(capsys):
    """A tester: `--candidate "-LRB-"` (a Penn Treebank token) ended in argparse's "expected
    one argument". A text value now follows its option as any other; an option where the text
    should be still says the text is missing."""
    import json

    from meteor_core.cli import main

    assert main(["score", "--json", "--candidate", "-LRB-", "--reference", "-LRB-", "--reference", "-"]) == 0
    result = json.loads(capsys.readouterr().out)
    # "-", "LRB", "-" on both sides (the tokenizer splits punctuation): 3 of 3 in one chunk
    assert result["candidate_tokens"] == ["-", "LRB", "-"]
    assert result["score"] == pytest.approx(1 - 0.5 * (1 / 3) ** 3)
    for missing in (["score", "--candidate", "--reference", "a"], ["score", "--candidate", "a", "--reference", "--ref", "b"]):
        with pytest.raises(SystemExit):
            main(missing)
        assert "expected one argument" in capsys.readouterr().err


def test_closed_standard_streams_get_a_message(tmp_path):
    """A tester: `batch <&-` and `batch >&-` ended in AttributeError tracebacks, and `score >&-`
    ended 0 with nothing written anywhere."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    line = b'{"candidate": "a b", "references": ["a b"]}\n'
    for command, closed, message in (
            (["score", "--candidate", "a", "--reference", "a"], "stdout", "error: standard output is closed; give the "
                                                                          "command somewhere to write\n"),
            (["batch", "--no-bleu"], "stdout", "error: standard output is closed; give the command somewhere to write\n"),
            (["batch", "--no-bleu"], "stdin", "error: standard input is closed; batch reads its JSON lines from it\n")):
        streams = {"input": line} if closed == "stdout" else {"stdout": subprocess.DEVNULL}
        process = subprocess.run([sys.executable, "-m", "meteor_core", *command], cwd=root, timeout=300,
                                 stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1 if closed == "stdout" else 0),
                                 **streams)
        assert (process.returncode, process.stderr.decode()) == (2, message), command


def test_arguments_are_read_as_utf8_under_an_ascii_locale():
    """A tester: under LC_ALL=POSIX with PYTHONUTF8=0, `--candidate café` arrived as two lone
    surrogates and was refused as "not valid Unicode text"."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    environment = {**os.environ, "LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    process = subprocess.run([sys.executable, "-m", "meteor_core", "score", "--json", "--candidate", "café au lait",
                              "--reference", "café noir"], cwd=root, env=environment, capture_output=True, timeout=300)
    assert process.returncode == 0, process.stderr
    result = json.loads(process.stdout)
    assert result["candidate_tokens"] == ["café", "au", "lait"] and result["matches"] == 1


def test_library_misuse_gets_messages_that_name_the_mistake():
    """A tester's list: each of these gave a misleading message, a TypeError, or was accepted."""
    import numpy as np
    from fractions import Fraction

    from meteor_core import Scorer

    assert MeteorParams(alpha=np.float32(0.5)).alpha == 0.5 and type(MeteorParams(alpha=np.float32(0.5)).alpha) is float
    assert MeteorParams(alpha=Fraction(9, 10)) == MeteorParams(alpha=0.9)
    cases = [
        (lambda: score("a b", ["a b", None]), MeteorInputError, "reference 2 must be a string or a list of token strings, not NoneType"),
        (lambda: score("a b", b"a b"), MeteorInputError, "not bytes: decode them first"),
        (lambda: MeteorConfig(stages="exact"), MeteorParameterError, "not the string 'exact'"),
        (lambda: MeteorConfig(node_budget=True), MeteorParameterError, "node_budget must be a positive integer"),
        (lambda: score("a b", ["a b"], alpha=1.0), MeteorParameterError,
         r"unknown setting 'alpha' \(alpha, beta, gamma and delta are MeteorParams fields"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()
    corpus = Scorer(MeteorConfig(stages=("exact",))).score_corpus((c for c in ["a b", "c d"]),
                                                                  (r for r in [["a b"], ["c e"]]))
    assert [s.stats.matches for s in corpus.segments] == [2, 1]  # generators are read once, not refused


@pytest.mark.parametrize("settings, message", [
    ({"keep_case": "false"}, "keep_case must be True or False, got 'false'"),  # "false" is truthy: it switched case on
    ({"drop_punctuation": 1}, "drop_punctuation must be True or False"),
    ({"zero_penalty_single_chunk": "no"}, "zero_penalty_single_chunk must be True or False"),
    ({"stages": [None]}, "stages must be stage names (strings), got None"),  # was AttributeError
    ({"stages": 5}, "stages must be a sequence of stage names"),  # was TypeError
    ({"language": 5}, "language must be a language code such as 'en', got 5"),  # was AttributeError
    ({"mode": "nltk", "zero_penalty_single_chunk": True}, "nltk mode reproduces nltk's meteor_score"),
    ({"mode": "meteor15", "keep_case": True}, "got tokenizer default, keep_case"),
    # a set's order varies from run to run (hash seed): scores changed between runs (a tester)
    ({"stages": {"exact", "stem", "synonym"}}, "stages must be in pipeline order (a list or tuple), not a set"),
    ({"mode": "meteor15", "weights": 1}, "weights must be a sequence of numbers"),  # was TypeError
    ({"mode": "meteor15", "weights": "1.0 0.6 0.8 0.6"}, "weights must be a sequence of numbers"),  # read per char
])
def test_wrong_settings_are_refused_with_the_field_named(settings, message):
    """A tester's finds: switches took any truthy value, some wrong types raised bare Python
    errors, and nltk mode took the single-chunk rule nltk does not have (1.0 where nltk gives
    0.9375 for identical text)."""
    from meteor_core import MeteorConfig, MeteorParameterError

    with pytest.raises(MeteorParameterError) as error:
        MeteorConfig(**settings)
    assert message in str(error.value)


def test_numpy_booleans_are_switches_too():
    np = pytest.importorskip("numpy")
    from meteor_core import MeteorConfig

    config = MeteorConfig(keep_case=np.bool_(True), zero_penalty_single_chunk=np.bool_(False),
                          node_budget=np.int64(1000), max_tokens=np.int32(50))
    assert config.keep_case is True and config.zero_penalty_single_chunk is False
    assert (config.node_budget, config.max_tokens) == (1000, 50) and type(config.node_budget) is int


@pytest.mark.parametrize("references", [{"the cat sat", "a cat sat"}, frozenset({"the cat"}), {"the cat": 1}])
def test_unordered_references_are_refused(references):
    # A tester's find: a set of references was accepted, and which of two equal references
    # was the best (best_index) followed the hash seed.
    with pytest.raises(MeteorInputError, match="references must be an ordered list"):
        score("the cat sat", references)


@pytest.mark.parametrize("tokens", [{"the", "cat"}, {"the": 0, "cat": 1}])
def test_unordered_token_collections_are_refused(tokens):
    with pytest.raises(MeteorInputError, match="candidate must be a string or a list of token strings"):
        score(tokens, ["the cat"])


@pytest.mark.parametrize("stats, message", [
    ((1, 1, 1, 5), "impossible statistics"),  # more chunks than matches: gave -61.5
    ((2, 1, 1, 1), "impossible statistics"),  # more matches than words: gave 1.875
    ((3, 3, 2, 1), "impossible statistics"),  # more matches than reference words only: recall 1.5, score 1.402
    ((3, 2, 3, 1), "impossible statistics"),  # more matches than candidate words only
    ((-1, 1, 1, 1), "impossible statistics"),  # gave -1.5
    ((1, 0, 1, 1), "impossible statistics"),  # gave a ZeroDivisionError
    ((1, 1, 1, 0), "impossible statistics"),  # a match outside any chunk
    ((1.0, 1, 1, 1), "whole numbers"),
    ((True, 1, 1, 1), "whole numbers"),
])
def test_compute_refuses_statistics_no_alignment_can_have(stats, message):
    """A tester's find: compute() is public and took any numbers."""
    from meteor_core import MeteorStats, compute

    with pytest.raises(MeteorInputError, match=message):
        compute(MeteorStats(*stats), MeteorParams())


def test_compute_takes_numpy_integers_and_the_empty_corpus():
    import numpy as np
    from meteor_core import MeteorStats, compute

    assert compute(MeteorStats(*map(np.int64, (3, 4, 5, 2))), MeteorParams()).score == \
        compute(MeteorStats(3, 4, 5, 2), MeteorParams()).score
    assert compute(MeteorStats(0, 0, 0, 0), MeteorParams()).score == 0.0


def test_a_call_whose_references_hold_too_many_tokens_is_refused_before_any_alignment(monkeypatch):
    """A tester's find: each pair is bounded, but 100 references of 2,000 tokens took 36 s in
    one call. Ten references of the longest allowed is the most one call takes (2.5 s measured
    on that attack), and the refusal comes before any alignment."""
    text = " ".join(["good"] * MAX_TOKENS)
    scorer = Scorer(MeteorConfig(stages=("exact",)))
    assert len(scorer.score(text, [text] * 10).per_reference) == 10
    assert len(scorer.score("a b", ["a b"] * 100).per_reference) == 100  # many short references are fine
    monkeypatch.setattr("meteor_core.scorer.align_stages", lambda *a, **k: pytest.fail("aligned before refusing"))
    with pytest.raises(MeteorInputError, match=r"the 11 references hold 22,000 tokens together; the limit is 20,000"):
        scorer.score(text, [text] * 11)
    small = Scorer(MeteorConfig(stages=("exact",), max_tokens=5))  # the limit follows max_tokens
    with pytest.raises(MeteorInputError, match="the limit is 50 per candidate"):
        small.score("a b", ["a b c d e"] * 11)


def test_meteor15_bounds_the_possible_matches_of_a_call(monkeypatch, wordnet_reader, meteor15_data):
    """A tester's find: 66 references of 300 repetitive tokens, each with about 18,000 possible
    matches, took 45 s in one call. The call's references share one allowance (the bound's
    mechanics, with a small allowance here: 2.5 such references)."""
    import random

    from meteor_core.meteor15 import align as meteor15_align
    from meteor_core.meteor15 import scorer as meteor15_scorer

    monkeypatch.setattr(meteor15_align, "MATCHES_PER_CALL", 46_000)
    monkeypatch.setattr(meteor15_scorer, "MATCHES_PER_CALL", 46_000)
    rng = random.Random(0)
    words = "the prime minister premier spoke said stated told in order to so as to".split()
    candidate = " ".join(rng.choice(words) for _ in range(300))
    references = [" ".join(rng.choice(words) for _ in range(300)) for _ in range(3)]
    scorer = Scorer(MeteorConfig(mode="meteor15"))
    each = [sum(scorer.score(candidate, [r]).best.meteor15.proposed_matches) for r in references]
    assert all(15_000 < count < 23_000 for count in each) and sum(each[:2]) <= 46_000 < sum(each)
    with pytest.raises(MeteorInputError, match="more than 46,000 possible matches together"):
        scorer.score(candidate, references)
    assert len(scorer.score(candidate, references[:2]).per_reference) == 2  # a call within the bound
