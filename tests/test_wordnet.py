"""The fast WordNet reader gives the same synsets as nltk's own reader; finding WordNet never
writes anything and survives read-only or empty nltk_data folders."""
import os

import pytest

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
    # The satellite adjectives (read in one pass at start-up) are nltk's own scan's.
    assert wordnet_reader.satellite_offsets == reference.satellite_offsets
    assert len(wordnet_reader.satellite_offsets) == 10693  # WordNet 3.0's adjective satellites


def test_synset_names_equal_nltks_on_a_sample_of_every_data_file(wordnet_reader):
    # synset_name reads only the first lemma and the index (not nltk's whole Synset): every
    # 37th synset of each data file, satellites, markers such as "(a)" and capitals included,
    # named by a fresh reader first (nothing in nltk's cache), then by nltk's own code.
    import random
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from meteor_core.wordnet import _reader_class

    root = wordnet_reader.root.path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        ours = _reader_class()(root)
        reference = WordNetCorpusReader(root, None)
    keys = []
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        with open(f"{root}/data.{name}", encoding="utf-8") as f:
            lines = [line for line in f if not line.startswith(" ")]
        keys += [f"{pos}{int(line[:8]):08d}" for line in lines[::37]]
        keys += [f"{pos}{int(line[:8]):08d}" for line in lines if "(" in line.split("|")[0].split(" ", 5)[4]][:50]
    assert len(keys) > 3000
    names = [ours.synset_name(key) for key in keys]
    assert not any(ours._synset_offset_cache[p] for p in "nvasr")  # no Synset was built
    expected = [reference.synset_from_pos_and_offset(key[0], int(key[1:])).name() for key in keys]
    assert names == expected
    assert sum(".s." in name for name in names) > 200  # satellites, named by their own pos
    random.Random(3).shuffle(keys)
    assert [ours.synset_name(key) for key in keys[:200]] == [reference.synset_from_pos_and_offset(
        key[0], int(key[1:])).name() for key in keys[:200]]  # from the cache, the same


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


def _debian_wordnet_required():
    import os

    if not (wn_module().DEBIAN_WORDNET_DIR / "data.noun").is_file():
        if os.environ.get("CI"):
            pytest.fail("Debian's wordnet-base is not installed: scripts/setup.sh should have installed it")
        pytest.skip("needs Debian's wordnet-base (scripts/setup.sh installs it)")


def wn_module():
    from meteor_core import wordnet

    return wordnet


@pytest.fixture
def nltk_data_only(monkeypatch):
    """nltk looks only in the given folders (not ~/nltk_data); WordNet reloaded before and after."""
    import nltk.data

    def use(*folders):
        monkeypatch.setattr(nltk.data, "path", [str(f) for f in folders])
        monkeypatch.setenv("NLTK_DATA", os.pathsep.join(str(f) for f in folders))
        wn_module()._load.cache_clear()

    yield use
    wn_module()._load.cache_clear()


def _synonym_score(mode="paper"):
    from meteor_core import MeteorConfig, Scorer

    result = Scorer(MeteorConfig(mode=mode)).score("the automobile", ["the car"])
    return result.best.matches_by_stage().get("synonym", 0), result.best.stage_status[-1]


def test_scoring_never_writes_into_empty_nltk_data(tmp_path, nltk_data_only):
    """Issue 12 item 9: an empty writable NLTK_DATA used to get 35 MB copied into it silently at
    the first score. Scoring now only reads: the stage is reported unavailable with the command
    that copies (setup-wordnet), and the folder stays empty."""
    _debian_wordnet_required()
    empty = tmp_path / "nltk_data"
    empty.mkdir()
    nltk_data_only(empty)
    synonyms, status = _synonym_score()
    assert synonyms == 0 and not status.available
    assert "setup-wordnet` copies it" in status.message and str(empty) in status.message
    assert list(empty.rglob("*")) == []


def test_unwritable_nltk_data_reports_instead_of_raising(tmp_path, nltk_data_only):
    """Issue 12 item 9: a first NLTK_DATA entry that cannot be written made every score raise
    OSError. (A path under a regular file cannot be created, even by root.)"""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    nltk_data_only(blocker / "nltk_data")
    for mode in ("paper", "nltk"):
        synonyms, status = _synonym_score(mode)
        assert synonyms == 0 and not status.available and wn_module().FIX_COMMAND in status.message


def test_wordnet_zip_in_nltk_data_is_used(tmp_path, nltk_data_only, wordnet_reader):
    import shutil

    corpora = tmp_path / "corpora"
    corpora.mkdir()
    shutil.make_archive(str(corpora / "wordnet"), "zip", root_dir=wordnet_reader.root.path + "/..",
                        base_dir="wordnet")
    nltk_data_only(tmp_path)
    synonyms, status = _synonym_score()
    assert synonyms == 1 and status.available and "wordnet.zip" in wn_module().wordnet_status().path


def test_no_wordnet_anywhere_is_reported(tmp_path, nltk_data_only, monkeypatch):
    nltk_data_only(tmp_path)
    monkeypatch.setattr(wn_module(), "DEBIAN_WORDNET_DIR", tmp_path / "none")
    synonyms, status = _synonym_score()
    assert synonyms == 0 and not status.available and wn_module().FIX_COMMAND in status.message


def test_setup_wordnet_announces_its_copy_and_survives_unwritable_target(tmp_path, nltk_data_only):
    _debian_wordnet_required()
    target_root = tmp_path / "nltk_data"
    nltk_data_only(target_root)
    log = []
    status = wn_module().install_wordnet(log=log.append)
    assert status.available and _synonym_score()[0] == 1 and any("Copying WordNet (about 35 MB)" in line and str(target_root) in line
                                     for line in log)
    assert (target_root / "corpora" / "wordnet" / "lexnames").is_file()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    nltk_data_only(blocker / "nltk_data")
    log = []
    status = wn_module().install_wordnet(log=log.append)
    assert any("Could not write" in line for line in log)
