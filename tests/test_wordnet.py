"""The fast WordNet reader gives the same synsets as nltk's own reader."""
from meteor_core.wordnet import DEBIAN_PACKAGES, DEBIAN_WORDNET_DIR, LEXNAMES, copy_from_debian
from skip_policy import require


def test_fast_reader_matches_nltk(wordnet_reader):
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = WordNetCorpusReader(wordnet_reader.root.path if hasattr(wordnet_reader.root, "path") else str(wordnet_reader.root), None)
    words = ["car", "cars", "running", "ran", "better", "geese", "was", "feline", "good", "abroad",
             "a", "the", "1", "don't", "e-mail", "New_York", "ate", "leaves", "axes", "fastest", "xyzzy"]
    # plus every 997th lemma of each index file, inflected
    for pos in ("noun", "verb", "adj", "adv"):
        with open(f"{reference.root.path}/index.{pos}", encoding="utf-8") as f:
            lemmas = [line.split(" ", 1)[0] for line in f if not line.startswith(" ")]
        for lemma in lemmas[::997]:
            words += [lemma, lemma + "s", lemma + "ed", lemma + "ing"]
    assert len(words) > 500
    for word in words:
        expected = [s.name() for s in reference.synsets(word)]
        assert [wordnet_reader.synset_name(k) for k in wordnet_reader.synset_keys(word)] == expected, word
        assert [s.name() for s in wordnet_reader.synsets(word)] == expected, word
    assert wordnet_reader.synset("cat.n.01").offset() == 2121620
    assert wordnet_reader.get_version() == "3.0"


def test_lexnames_has_45_files_in_order():
    assert len(LEXNAMES) == 45
    assert LEXNAMES[0] == "adj.all 3" and LEXNAMES[3] == "noun.Tops 1" and LEXNAMES[44] == "adj.ppl 3"


def test_debian_copy_recipe(tmp_path):
    target = copy_from_debian(tmp_path / "wordnet")
    # Set-up installs the Debian packages: missing, this skips here and fails in CI.
    require(target is not None, f"{DEBIAN_WORDNET_DIR} has no WordNet (Debian packages {' '.join(DEBIAN_PACKAGES)})")
    lines = (target / "lexnames").read_text().splitlines()
    assert lines[5] == "05\tnoun.animal\t1"
    assert (target / "data.noun").stat().st_size > 10_000_000


def test_missing_wordnet_is_reported_not_skipped(monkeypatch):
    from meteor_core import MeteorConfig, Scorer
    from meteor_core import wordnet as wn
    from meteor_core.report import explain, result_to_dict

    missing = wn.WordNetStatus(False, "", "", "WordNet 3.0 was not found ... Fix: " + wn.FIX_COMMAND)
    monkeypatch.setattr(wn, "load_wordnet", lambda: (None, missing))
    scorer = Scorer(MeteorConfig())
    result = scorer.score("the auto", ["the car"])
    assert result.best.stats.matches == 1
    status = {s.stage: s for s in result.best.stage_status}
    assert status["synonym"].available is False
    assert any(wn.FIX_COMMAND in w for w in result.best.warnings)
    assert "synonym(unavailable)" in result.signature
    assert "UNAVAILABLE" in explain(result)
    assert result_to_dict(result)["stages"][2]["available"] is False
