"""Languages beyond English: hand-checked stem and synonym matches, character-level Chinese,
and a capability table that tells the truth about missing resources."""
import pytest

from meteor_core import MeteorConfig, MeteorParameterError, Scorer, score
from meteor_core import languages as langs
from meteor_core.cli import main
from meteor_core.tokenize import tokenize
from meteor_core.languages import LANGUAGES, capabilities
from meteor_core.tokenize import tokenize
from skip_policy import require


@pytest.mark.parametrize("lang, cand, ref, pair", [
    ("pt-BR", "eles chegaram", "ele chegou", ("chegaram", "chegou")),
    ("pt-PT", "nós chegamos", "eles chegaram", ("chegamos", "chegaram")),
    ("fr", "ils parlaient", "il parlait", ("parlaient", "parlait")),
    ("es", "ellos hablaban", "ella hablaba", ("hablaban", "hablaba")),
    ("de", "die kinder spielten", "das kind spielte", ("spielten", "spielte")),
    ("it", "parlavano", "parlava", ("parlavano", "parlava")),
    ("ru", "книги", "книга", ("книги", "книга")),
])
def test_snowball_stem_matches(lang, cand, ref, pair):
    best = score(cand, ref, language=lang, stages=("exact", "stem")).best
    links = {(best.candidate_tokens[l.candidate].text, best.reference_tokens[l.reference].text): l.stage for l in best.links}
    assert links[pair] == "stem"
    assert f"lang:{lang}" in score(cand, ref, language=lang, stages=("exact", "stem")).signature


def test_english_keeps_porter_and_portuguese_without_stem_stage_is_exact_only():
    assert score("chegaram", "chegou", language="pt", stages=("exact",)).best.stats.matches == 0
    assert "stem(porter)" in score("runs", "running").signature


def require_thesaurus(code):
    """Set-up installs the Debian thesauri: missing, the test skips here and fails in CI."""
    lang = LANGUAGES[code]
    require(langs.thesaurus_path(lang) is not None,
            f"{langs.MYTHES_DIR / lang.thesaurus} is missing (Debian package {lang.debian_package}; "
            "bash scripts/setup.sh installs it)")


def test_portuguese_thesaurus_synonym():
    require_thesaurus("pt-BR")
    best = score("a loja", "o armazém", language="pt-BR").best
    link = best.link_for_candidate(1)
    assert link is not None and link.stage == "synonym" and "th_pt_BR.dat" in link.evidence


def test_french_thesaurus_synonym_is_symmetric():
    # A pair listed in both directions; tests/test_options.py checks pairs listed one way only.
    require_thesaurus("fr")
    forward = score("abaissant", "humiliant", language="fr").best
    backward = score("humiliant", "abaissant", language="fr").best
    assert forward.stats.matches == backward.stats.matches == 1
    assert forward.links[0].stage == backward.links[0].stage == "synonym"


def test_chinese_character_level_by_hand():
    # cand 我们去北京 (5 chars), ref 我们明天去北京 (7 chars): matches 我 们 去 北 京 (m = 5),
    # chunks: 我们 | 去北京 -> 2. P = 1, R = 5/7, Fmean = (5/7) / (0.9 + 0.1*5/7) = 50/68,
    # penalty 0.5 (2/5)^3 = 4/125.
    best = score("我们去北京", "我们明天去北京", language="zh").best
    assert [t.text for t in best.candidate_tokens] == ["我", "们", "去", "北", "京"]
    assert (best.stats.matches, best.stats.chunks) == (5, 2)
    assert best.breakdown.precision == 1.0 and best.breakdown.recall == pytest.approx(5 / 7)
    assert best.score == pytest.approx(50 / 68 * (1 - 4 / 125), abs=1e-12)
    assert {s.stage: s.available for s in best.stage_status} == {"exact": True, "stem": False, "synonym": False}


def test_half_width_katakana_and_han_beyond_the_bmp_are_characters_too():
    """A tester: half-width katakana was one word, so "ｶﾀｶﾅ" scored 0 against "ｶﾀｶﾅﾃｽﾄ" where
    the full-width spelling scores as 4 of 7 characters in one chunk: P = 1, R = 4/7,
    Fmean = (4/7) / (0.9 + 0.1 * 4/7) = 40/67, penalty 0.5 (1/4)^3 = 1/128."""
    for candidate, reference in (("ｶﾀｶﾅ", "ｶﾀｶﾅﾃｽﾄ"), ("カタカナ", "カタカナテスト")):
        assert score(candidate, reference, language="ja").score == pytest.approx(40 / 67 * (1 - 1 / 128), abs=1e-12)
    # a half-width voiced-sound mark stays with its kana; Han of plane 2 and small kana of the
    # phonetic extensions are characters of their own
    assert [t.text for t in tokenize("ｶﾞｷﾞ 𠮷野家 ㇰㇱ", tokenizer="char")] == ["ｶﾞ", "ｷﾞ", "𠮷", "野", "家", "ㇰ", "ㇱ"]


def test_chinese_and_japanese_segmenters_recorded_in_signature():
    zh = score("我们今天去北京大学", "我们去北京大学", language="zh", tokenizer="segmenter")
    assert [t.text for t in zh.best.candidate_tokens] == ["我们", "今天", "去", "北京大学"]
    assert "tok:jieba-" in zh.signature
    ja = score("今日は良い天気です", "今日は天気です", language="ja", tokenizer="segmenter")
    assert [t.text for t in ja.best.candidate_tokens] == ["今日", "は", "良い", "天気", "です"]
    assert "tok:janome-" in ja.signature
    with pytest.raises(MeteorParameterError, match="segmenter tokenizer is for zh and ja"):
        MeteorConfig(language="en", tokenizer="segmenter")


def test_nltk_mode_is_english_only():
    with pytest.raises(MeteorParameterError, match="nltk mode reproduces nltk's English pipeline"):
        MeteorConfig(mode="nltk", language="fr")


def test_capability_table_reflects_a_missing_thesaurus(monkeypatch, tmp_path):
    monkeypatch.setattr(langs, "MYTHES_DIR", tmp_path)  # no thesaurus files here
    rows = {r.code: r for r in capabilities()}
    assert rows["pt-BR"].synonyms_available is False
    assert "apt-get install mythes-pt-br" in rows["pt-BR"].synonyms
    assert rows["es"].synonyms.startswith("none")
    result = Scorer(MeteorConfig(language="pt-BR")).score("a loja", ["o armazém"])
    status = {s.stage: s for s in result.best.stage_status}
    assert status["synonym"].available is False and "mythes-pt-br" in status["synonym"].message
    assert any("mythes-pt-br" in w for w in result.best.warnings)


def test_cli_languages_and_lang(capsys):
    assert main(["languages"]) == 0
    out = capsys.readouterr().out
    assert "pt-BR" in out and "Snowball portuguese" in out and "jieba" in out
    assert main(["score", "--lang", "pt", "--stages", "exact,stem", "--candidate", "chegaram", "--reference", "chegou"]) == 0
    assert "stem 'cheg'" in capsys.readouterr().out


@pytest.mark.parametrize("code, expected", [
    ("EN", "en"), ("En", "en"), ("FR", "fr"), ("fr-FR", "fr"), ("de-AT", "de"), ("en_US", "en"),
    ("pt_BR", "pt-BR"), ("PT-br", "pt-BR"), ("pt-pt", "pt-PT"), ("pt", "pt-BR"),
    ("pt-AO", None), ("xx", None), ("xx-FR", None), ("", None),
])
def test_language_codes_in_any_case_with_a_region(code, expected):
    """A tester's find: pt-br and PT-BR worked but EN, FR, fr-FR, pt_BR and en_US were refused.
    A region falls back to its language only when the language has no regions of its own."""
    found = langs.resolve(code)
    assert (found.code if found else None) == expected
    if expected:
        assert MeteorConfig(language=code).language == expected
    else:
        with pytest.raises(MeteorParameterError, match="unknown language"):
            MeteorConfig(language=code)


@pytest.mark.parametrize("candidate, reference, code", [
    ("猫坐在垫子上", "猫坐在垫子上面", "zh"),
    ("私は猫です", "私は犬です", "ja"),  # kana: Japanese, though the text holds Han characters too
    ("ｶﾀｶﾅﾃｷｽﾄ", "ｶﾀｶﾅﾃｷｽﾄﾀﾞ", "ja"),  # half-width katakana, which the ja tokenizer splits (a tester: no hint)
    ("𰀀𰀁𰀂", "𰀀𰀁𰀃", "zh"),  # Han extension G
])
def test_chinese_or_japanese_under_a_spaced_language_says_which_language_to_choose(candidate, reference, code):
    """A tester: a Chinese pair under the default language (en) scored 0, "no word matched",
    with no hint that the whole sentence was one token."""
    name = LANGUAGES[code].name
    for mode in ("paper", "nltk"):
        result = score(candidate, [reference], mode=mode).best
        assert result.score == 0 and len(result.candidate_tokens) == 1
        hint = [w for w in result.warnings if f"written in {name} without spaces" in w]
        assert len(hint) == 1 and f"choose {name} ({code})" in hint[0] and f"--lang {code}" in hint[0], result.warnings
    chosen = score(candidate, [reference], language=code).best
    assert chosen.score > 0 and not [w for w in chosen.warnings if "without spaces" in w]


def test_no_script_hint_for_spaced_text_or_a_lone_character():
    for candidate, reference in (("the cat sat", "the cat sat"), ("the 猫 sat", "the 猫 sat"),
                                 ("le chat noir", "le chat noir"), ("القط جلس", "القط يجلس")):
        assert not [w for w in score(candidate, [reference]).best.warnings if "without spaces" in w]
    assert not [w for w in score("猫坐在垫子上", ["猫坐在垫子上面"], tokenizer="char").best.warnings
                if "without spaces" in w]


@pytest.mark.parametrize("language, text, expected", [
    ("fr", "l'automobile d\u2019Anne qu'il jusqu'à aujourd'hui",
     ("l'", "automobile", "d\u2019", "Anne", "qu'", "il", "jusqu'", "à", "aujourd'hui")),
    ("it", "dell'anno l'amico un'amica", ("dell'", "anno", "l'", "amico", "un'", "amica")),
    ("en", "l'automobile don't", ("l'automobile", "don't")),  # English keeps inner apostrophes
    ("de", "l'automobile", ("l'automobile",)),
])
def test_french_and_italian_split_an_elided_word_off(language, text, expected):
    """A teacher: "la voiture" against "l'automobile" scored 0 in French, "l'automobile" being
    one token, though voiture ~ automobile; "aujourd'hui" is one word, not an elision."""
    tokens = tokenize(text, language=language)
    assert tokens.texts == expected
    assert [text[start:end] for start, end in zip(tokens.starts, tokens.ends)] == list(expected)
    assert tokenize(["l'automobile"], language="fr").texts == ("l'automobile",)  # token lists as given


def test_an_elided_article_no_longer_hides_a_french_synonym():
    require_thesaurus("fr")
    result = score("la voiture", ["l'automobile"], language="fr").best
    # voiture ~ automobile (synonym), la / l' unmatched: P = R = 1/2, Fmean 1/2, one chunk of one
    # match: penalty 0.5 (1/1)^3; METEOR 0.25
    assert [(l.candidate, l.reference, l.stage) for l in result.links] == [(1, 1, "synonym")]
    assert result.score == pytest.approx(0.25)
    italian = score("l'amico di Marco", ["amico di Marco"], language="it").best
    assert (italian.stats.matches, italian.stats.chunks, italian.stats.candidate_length) == (3, 1, 4)


def test_a_capital_dotted_i_matches_i():
    """A teacher: "İstanbul" lowercased to i + COMBINING DOT ABOVE and never matched "istanbul"."""
    result = score("İstanbul ISTANBUL", ["istanbul istanbul"]).best
    assert [(l.candidate, l.reference, l.stage) for l in result.links] == [(0, 0, "exact"), (1, 1, "exact")]
    assert score("İstanbul", ["istanbul"], keep_case=True).best.stats.matches == 0  # case kept: apart


def test_a_decomposed_capital_dotted_i_matches_i_too():
    """A tester: I + COMBINING DOT ABOVE (NFD) still missed "istanbul" (the İ rule ran before NFC)."""
    result = score("I\u0307stanbul", ["istanbul"]).best
    assert [(l.candidate, l.reference, l.stage) for l in result.links] == [(0, 0, "exact")]


def test_a_typographic_apostrophe_is_the_typed_one():
    """A tester: ' and \u2019 never matched, so every French elision typed one way missed the other."""
    english = score("I don\u2019t know", ["I don't know"]).best
    assert (english.stats.matches, english.stats.chunks) == (3, 1)
    french = score("l\u2019automobile", ["l'automobile"], language="fr").best
    assert [(l.candidate, l.reference, l.stage) for l in french.links] == [(0, 0, "exact"), (1, 1, "exact")]
    assert score("don\u02bct", ["don't"]).best.stats.matches == 1  # MODIFIER LETTER APOSTROPHE
    # and it splits an elision as the other two do (it stayed one token "l\u02bcautomobile": a tester)
    assert [t.text for t in tokenize("l\u02bcautomobile", language="fr")] == ["l\u02bc", "automobile"]
    assert score("dell\u02bcanno", ["dell'anno"], language="it").best.stats.matches == 2
    # nltk mode keeps nltk's matching (str.lower only): apart there, as in nltk.
    assert score("I don\u2019t know", ["I don't know"], mode="nltk").best.stats.matches == 2


def test_french_words_with_an_apostrophe_of_their_own_stay_whole():
    """A tester: "quelqu'un" was split into "quelqu'" + "un", whose "un" then matched an article."""
    assert [t.text for t in tokenize("quelqu'un sur la presqu'île lorsqu'il pleut", language="fr")] == [
        "quelqu'un", "sur", "la", "presqu'île", "lorsqu'", "il", "pleut"]
    result = score("quelqu'un arrive", ["un homme arrive"], language="fr", stages=("exact",)).best
    assert [(l.candidate, l.reference) for l in result.links] == [(1, 2)]


def test_a_variation_selector_does_not_keep_equal_characters_apart():
    """A teacher: "I ❤️ Paris" (heart + U+FE0F, as phones type it) / "I ❤ Paris" linked 2 words."""
    result = score("I \u2764\ufe0f Paris", ["I \u2764 Paris"]).best
    assert (result.stats.matches, result.stats.chunks) == (3, 1)
    assert result.candidate_tokens.texts[1] == "\u2764\ufe0f"  # the text as typed, only the form without it
    # a token of nothing but a selector keeps it (its form is not empty), as nltk mode keeps both
    assert [t.norm for t in tokenize("a \ufe0f b")] == ["a", "\ufe0f", "b"]
    assert score("I \u2764\ufe0f Paris", ["I \u2764 Paris"], mode="nltk").best.stats.matches == 2


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_chinese_characters_are_called_characters_in_the_core_texts(language):
    """The exact stage's description said "same word" and a pair with nothing matched "no word
    matched" for Chinese and Japanese, where each token is a character (the pages said
    "characters" everywhere else)."""
    result = score("猫坐在垫子上", ["狗跑"], language=language).best
    assert result.breakdown.note.startswith("no character matched: ")
    assert _exact_description(result).startswith("same character or word (after")  # other scripts: whole words
    # words where the tokens are words: split at spaces, English under the char tokenizer (it
    # keeps English words whole); nltk mode (English only)
    for config in (dict(language=language, tokenizer="whitespace"), dict(language="en", tokenizer="char"),
                   dict(language="en"), dict(language="en", mode="nltk")):
        words = score("abc", ["xyz"], **config).best
        assert words.breakdown.note.startswith("no word matched: "), config
        assert _exact_description(words).startswith(("same word (after", "same lowercased word,")), config


def _exact_description(result) -> str:
    return next(s.description for s in result.stage_status if s.stage == "exact")
