"""Fuzzing (issue 12): whatever the text or bytes, the library raises only MeteorInputError /
MeteorParameterError, and `batch` answers every input line with exactly one line of valid JSON
in valid UTF-8. Bounded time: a fixed number of examples per test, no deadline (CI machines
are shared), derandomized so a CI failure reproduces."""
import contextlib
import io
import json
import math
import sys
import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor_core import MeteorConfig, MeteorInputError, MeteorParameterError, score
from meteor_core.cli import main

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Characters that have broken tokenizers before, mixed into arbitrary Unicode (surrogates
# included: st.characters() leaves them out by default).
TRICKY = ["\u0301", "\u093f", "\u3099", "\u200b", "\u200d", "\u00ad", "\ufeff", "\u200e", "\u2028", "\u2029",
          "\x00", "\x1b", "\x85", "\r", "\t", "\n", "\ud800", "\udcff", "'", "-", "\u2019", "_", "é", "猫", "ネ",
          "가", "\U0001F469", "\u0627", "\u0644", "ß", "İ", "\uf900", "\u2260", " "]
char = st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=()))
text = st.one_of(st.text(char, max_size=40), st.lists(st.sampled_from(["the", "cat", "sat", "a", "mat", "cats",
                                                                      "feline", "Mat", ",", "."]) | char,
                                                     max_size=25).map(" ".join))
tokens = st.lists(st.text(char, max_size=6), max_size=8)
references = st.one_of(text, st.lists(text, max_size=3), st.lists(tokens, min_size=1, max_size=2))
configs = st.one_of(
    st.builds(MeteorConfig, mode=st.just("nltk"), keep_case=st.booleans(), drop_punctuation=st.booleans(),
              tokenizer=st.sampled_from(["default", "whitespace", "char"])),
    st.builds(MeteorConfig, mode=st.just("paper"), objective=st.sampled_from(["crossings", "chunks"]),
              language=st.sampled_from(["en", "fr", "de", "zh", "ja", "ar"]), keep_case=st.booleans(),
              drop_punctuation=st.booleans(), tokenizer=st.sampled_from(["default", "whitespace", "char"])),
    st.builds(MeteorConfig, language=st.sampled_from(["zh", "ja"]), tokenizer=st.just("segmenter")),
)


def _check_result(result):
    assert 0.0 <= result.score <= 1.0 and not math.isnan(result.score)
    for segment in result.per_reference:
        for token in segment.candidate_tokens:
            assert token.text and token.start < token.end
        assert 0 <= segment.stats.matches <= min(segment.stats.candidate_length, segment.stats.reference_length)


@FUZZ
@given(candidate=st.one_of(text, tokens), refs=references, config=configs)
def test_library_raises_only_its_own_errors(wordnet_reader, candidate, refs, config):
    try:
        result = score(candidate, refs, config=config)
    except (MeteorInputError, MeteorParameterError):
        return
    _check_result(result)
    if isinstance(candidate, str):
        for token in result.best.candidate_tokens:
            assert candidate[token.start:token.end] == token.text  # offsets into the text as given


@FUZZ
@given(candidate=st.binary(max_size=60), reference=st.binary(max_size=60))
def test_library_on_bytes_as_argv_delivers_them(wordnet_reader, candidate, reference):
    """Undecodable bytes arrive as lone surrogates (surrogateescape): an input error, no crash."""
    as_text = [b.decode("utf-8", "surrogateescape") for b in (candidate, reference)]
    try:
        _check_result(score(as_text[0], [as_text[1]]))
    except MeteorInputError:
        pass


@FUZZ
@given(words=st.lists(st.text(char, min_size=1, max_size=8), min_size=1, max_size=8))
def test_nfc_and_nfd_spellings_score_alike(wordnet_reader, words):
    sentence = " ".join(words)
    try:
        same = score(unicodedata.normalize("NFC", sentence), [unicodedata.normalize("NFC", sentence)])
    except MeteorInputError:
        return
    mixed = score(unicodedata.normalize("NFC", sentence), [unicodedata.normalize("NFD", sentence)])
    assert mixed.score == same.score


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(char, max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(char, max_size=5), children,
                                                                       max_size=4),
    max_leaves=12)
json_line = st.one_of(
    st.builds(lambda c, r: json.dumps({"candidate": c, "references": r}, ensure_ascii=False).encode("utf-8",
                                                                                                   "surrogatepass"),
              text, st.lists(text, max_size=3)),
    st.builds(lambda v: json.dumps(v).encode(), json_values),
    st.binary(max_size=80).filter(lambda b: b"\n" not in b),
)


@FUZZ
@given(lines=st.lists(json_line, min_size=1, max_size=8))
def test_batch_answers_every_line_once(wordnet_reader, lines):
    lines = [line.replace(b"\n", b" ") for line in lines]
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(b"".join(line + b"\n" for line in lines)), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["batch", "--workers", "1"])
    finally:
        sys.stdin = stdin
    written = out.getvalue()
    written.encode("utf-8")  # strict: valid UTF-8, no lone surrogate
    rows = written.split("\n")
    assert rows[-1] == "" and len(rows) - 1 == len(lines)
    for number, row in enumerate(rows[:-1], start=1):
        data = json.loads(row)
        assert ("error" in data and data["error"].startswith(f"line {number}: ")) or 0 <= data["score"] <= 1
        assert "internal error" not in data.get("error", "")
    errors = sum(row.startswith('{"error": ') for row in rows[:-1])
    assert code == (2 if errors == len(lines) else 0)  # 2: no line scored
    assert (f"{errors:,} of {len(lines):,} line(s) not scored" in err.getvalue()) == bool(errors)
