"""The nltk tokenizer: nltk's word_tokenize, as Hugging Face evaluate's meteor tokenizes text
before nltk's meteor_score. The oracle is nltk itself (its tokenizer and its score)."""
from __future__ import annotations

import importlib

import nltk.tokenize
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import word_tokenize
from nltk.translate.meteor_score import meteor_score

from meteor_core import MeteorConfig, MeteorInputError, MeteorParameterError, score
from meteor_core.scorer import scorer_for
from meteor_core.tokenize import tokenize

tokenize_module = importlib.import_module("meteor_core.tokenize")  # the package exports a function of that name

SENTENCES = [
    "I cannot go to the party, don't wait.",
    'He said "stop" loudly -- twice.',
    "The U.S. economy grew 3.5% in 2023 (a record).",
    "Ünïcode café’s naïve—test isn’t ASCII…",
    "''Quoted'' and ``quoted`` forms; it's 5 o'clock",
    "e-mail me at 10:30, won't you?",
]
#: Evaluate's shape: predictions and references as text; each pair's nltk score on word_tokenize tokens.
PAIRS = [
    ("I cannot go to the party, don't wait.", "I can not go to the party; do not wait!"),
    ('He said "stop" loudly.', 'He shouted "stop".'),
    ("The U.S. economy grew 3.5% in 2023.", "The US economy expanded by 3.5 percent in 2023."),
]


def _no_punkt(monkeypatch) -> None:
    """What this machine has (nltk.download cannot run here): no sentence model."""
    monkeypatch.setattr(tokenize_module, "punkt_available", lambda: False)
    scorer_for.cache_clear()  # a scorer's signature says what the model was when it was made


@pytest.mark.parametrize("text", SENTENCES)
def test_tokens_are_word_tokenizes_and_offsets_point_at_them(text, monkeypatch):
    _no_punkt(monkeypatch)
    tokens = tokenize(text, tokenizer="nltk")
    assert list(tokens.texts) == word_tokenize(text, preserve_line=True)
    for token, start, end in zip(tokens.texts, tokens.starts, tokens.ends):
        written = text[start:end]
        assert written == token or (token in ("``", "''") and written in ('"', "``", "''")), (token, written)
    assert list(tokens.starts) == sorted(tokens.starts)


@pytest.mark.parametrize("candidate, reference", PAIRS)
def test_nltk_mode_on_text_scores_what_evaluate_scores(candidate, reference, monkeypatch, wordnet_reader):
    _no_punkt(monkeypatch)
    expected = meteor_score([word_tokenize(reference, preserve_line=True)], word_tokenize(candidate, preserve_line=True))
    result = score(candidate, [reference], config=MeteorConfig(mode="nltk", tokenizer="nltk"))
    assert result.score == pytest.approx(expected, abs=1e-12)
    assert "|tok:nltk-one-sentence|" in result.signature


def test_the_default_tokenizer_differs_where_the_readme_says(monkeypatch, wordnet_reader):
    # "cannot" is can + not for word_tokenize, one word here: the reason to offer the nltk tokenizer
    _no_punkt(monkeypatch)
    candidate, reference = "I cannot go", "I can not go"
    with_nltk = score(candidate, [reference], config=MeteorConfig(mode="nltk", tokenizer="nltk")).score
    default = score(candidate, [reference], config=MeteorConfig(mode="nltk")).score
    assert with_nltk == pytest.approx(meteor_score([["I", "can", "not", "go"]], ["I", "can", "not", "go"]))
    assert default == pytest.approx(meteor_score([["I", "can", "not", "go"]], ["I", "cannot", "go"]))
    assert with_nltk > 0.99 > 0.3 > default


def _install_a_sentence_model(tmp_path, monkeypatch) -> None:
    """An untrained English punkt_tab model (empty tables) in a data path of the test's own:
    nltk splits sentences with it as with the real one, only without learnt abbreviations."""
    import nltk.data

    model = tmp_path / "tokenizers" / "punkt_tab" / "english"
    model.mkdir(parents=True)
    for name in ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab"):
        (model / name).write_text("")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path), *nltk.data.path])
    _forget_the_model()


def _forget_the_model() -> None:
    """Whether the model is there is looked up once per process (so that a signature and the
    tokens under it agree): after the test installs or removes one, it is looked up again."""
    word_tokenizes_model = getattr(nltk.tokenize, "_get_punkt_tokenizer", None)  # nltk's own cache (3.10.4)
    if word_tokenizes_model is not None:
        word_tokenizes_model.cache_clear()
    tokenize_module.punkt_available.cache_clear()
    tokenize_module._punkt_tokenizer.cache_clear()
    scorer_for.cache_clear()  # their signatures say what it was


def test_with_a_sentence_model_each_sentence_is_tokenized_as_word_tokenize_does(tmp_path, monkeypatch, wordnet_reader):
    _install_a_sentence_model(tmp_path, monkeypatch)
    try:
        text = "It is 5 o'clock. Next, the \"end\". Done"
        assert tokenize_module.punkt_available()
        tokens = tokenize(text, tokenizer="nltk")
        assert list(tokens.texts) == word_tokenize(text)  # "o'clock", "." (a sentence end) ...
        assert list(tokens.texts) != word_tokenize(text, preserve_line=True)  # ... not "o'clock."
        assert text[tokens.starts[4]:tokens.ends[4]] == "."
        result = score(text, ["It is five o'clock. Next the end."], config=MeteorConfig(mode="nltk", tokenizer="nltk"))
        assert result.score == pytest.approx(
            meteor_score([word_tokenize("It is five o'clock. Next the end.")], word_tokenize(text)), abs=1e-12)
        assert "|tok:nltk+punkt|" in result.signature
    finally:
        monkeypatch.undo()
        _forget_the_model()


def test_the_cli_warns_once_when_the_nltk_tokenizer_has_no_sentence_model(tmp_path, monkeypatch, capsys,
                                                                        wordnet_reader):
    """The CLI attacker: without punkt_tab, "Smith came. He sat." kept "came." as one token, said
    only inside each line's signature (nltk-one-sentence). Now once on stderr; not with the model."""
    import io
    import json

    from meteor_core.cli import main

    line = json.dumps({"candidate": "Smith came. He sat.", "references": ["Smith came. He sat down."]}) + "\n"
    _no_punkt(monkeypatch)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(line.encode() * 2)))
    assert main(["batch", "--tokenizer", "nltk", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert err.count("warning: nltk's sentence model (punkt_tab) is not installed") == 1, err
    assert "|tok:nltk-one-sentence|" in json.loads(out.splitlines()[0])["signature"]
    monkeypatch.undo()
    _install_a_sentence_model(tmp_path, monkeypatch)
    try:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(line.encode())))
        assert main(["batch", "--tokenizer", "nltk", "--workers", "1"]) == 0
        out, err = capsys.readouterr()
        assert "punkt_tab" not in err and "|tok:nltk+punkt|" in json.loads(out)["signature"]
    finally:
        monkeypatch.undo()
        _forget_the_model()


def test_the_nltk_tokenizer_is_english_only_and_not_the_jars():
    with pytest.raises(MeteorParameterError, match="nltk tokenizer .* is for en, not de"):
        tokenize("Das ist gut.", tokenizer="nltk", language="de")
    with pytest.raises(MeteorParameterError, match="tokenizer default"):
        MeteorConfig(mode="meteor15", tokenizer="nltk")


TEXT = st.text(alphabet=st.sampled_from(list("ab c'\".,-`?!()\u200b\u00e9’—…%$1")), max_size=40)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_gives_word_tokenizes_words_in_order(text):
    # with the sentence model where it is installed, as word_tokenize itself
    expected = [t for t in word_tokenize(text, preserve_line=not tokenize_module.punkt_available())
                if t.replace("\u200b", "")]
    try:
        tokens = tokenize(text, tokenizer="nltk", allow_empty=True)
    except MeteorInputError as error:  # only for a reason it names
        assert "token" in str(error), error
        return
    assert list(tokens.texts) == expected
    assert all(0 <= s <= e <= len(text) for s, e in zip(tokens.starts, tokens.ends))
    assert list(tokens.starts) == sorted(tokens.starts)
