"""A user synonym table is one more stage: no change to the aligner."""
import pytest

from meteor_core import MeteorConfig, MeteorInputError, Scorer, SynonymTable
from meteor_core.cli import main


def test_table_stage_matches_after_builtin_stages():
    table = SynonymTable.from_text("# domain terms\nsku,article\ncart\tbasket\n".replace("\t", ","), name="shop")
    scorer = Scorer(MeteorConfig(stages=("exact", "stem", "table:shop")), [table])
    best = scorer.score("add the sku to the cart", ["add the article to the basket"]).best
    by_stage = best.matches_by_stage()
    assert by_stage == {"exact": 4, "stem": 0, "table:shop": 2}
    link = best.link_for_candidate(2)
    assert link.stage == "table:shop" and link.reference == 2 and "sku ~ article" in link.evidence
    # P = R = 1, one chunk: 0.5 / 6^3 penalty.
    assert best.score == pytest.approx(1 - 0.5 / 216, abs=1e-12)


def test_table_groups_are_not_transitive_across_rows():
    table = SynonymTable.from_text("a,b\nb,c\n", name="t")
    scorer = Scorer(MeteorConfig(stages=("exact", "table:t")), [table])
    assert scorer.score("a", ["c"]).best.stats.matches == 0
    assert scorer.score("a", ["b"]).best.stats.matches == 1


def test_bad_tables():
    with pytest.raises(MeteorInputError, match="line 2: a row needs two or more words"):
        SynonymTable.from_text("a,b\nlonely\n", name="t")
    with pytest.raises(MeteorInputError, match="has no groups"):
        SynonymTable.from_text("# only a comment\n", name="t")
    # A tester: entries with a space were accepted and could never match (tokens hold none)
    with pytest.raises(MeteorInputError, match="synonym table 't' line 2: 'new york' is more than one word; entries "
                                               "are single words"):
        SynonymTable.from_text("cat,feline\nNew York,NYC\n", name="t")
    with pytest.raises(MeteorInputError, match="line 1: 'big, large' is more than one word"):
        SynonymTable.from_text('"big, large",huge\n', name="t")


def test_a_bad_table_file_is_named_by_its_path_and_other_modes_refuse_before_reading(tmp_path, capsys):
    """A tester: `--mode nltk --synonyms /dev/null` said "synonym table 'null' has no groups":
    the file's stem, and not the real problem (nltk mode takes no table)."""
    empty = tmp_path / "empty.csv"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    with pytest.raises(MeteorInputError, match=f"^synonym table {empty} has no groups$"):
        SynonymTable.from_file(empty)
    for mode, message in (("nltk", "nltk mode has no user synonym tables; use paper mode"),
                          ("meteor15", "meteor15 mode uses the jar's own synonym files; user synonym tables are a "
                                       "paper-mode stage")):
        assert main(["score", "--candidate", "a", "--reference", "a", "--mode", mode, "--synonyms", str(empty)]) == 2
        assert capsys.readouterr().err == f"error: {message}\n"


def test_cli_synonyms_file(tmp_path, capsys):
    path = tmp_path / "shop.tsv"
    path.write_text("sku\tarticle\n", encoding="utf-8")
    code = main(["score", "--candidate", "the sku", "--reference", "the article", "--synonyms", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "table:shop" in out and "METEOR 0.9375" in out


def test_a_table_saved_with_a_bom_or_in_nfd_matches_like_any_other(tmp_path, capsys):
    """A tester: a UTF-8 BOM (Excel's "CSV UTF-8") stayed glued to the first word, and a word
    written in NFD matched neither spelling, so those groups matched nothing, silently."""
    import unicodedata

    path = tmp_path / "t.csv"
    path.write_bytes("\ufeffautomobile,vehicle\n".encode("utf-8"))
    assert SynonymTable.from_file(path).groups == (("automobile", "vehicle"),)
    assert main(["score", "--candidate", "the automobile", "--reference", "the vehicle", "--stages", "exact",
                 "--synonyms", str(path)]) == 0
    assert capsys.readouterr().out.startswith("METEOR 0.937500")  # 2 of 2 matched in 1 chunk: 1 - 0.5 * (1/2)^3
    nfd = SynonymTable.from_text(unicodedata.normalize("NFD", "Café") + ",coffee\u200b")
    assert nfd.groups == (("caf\u00e9", "coffee"),)
    scorer = Scorer(MeteorConfig(stages=("exact",)), synonym_tables=(nfd,))
    for spelling in ("NFC", "NFD"):
        assert scorer.score(unicodedata.normalize(spelling, "a café"), ["a coffee"]).best.stats.matches == 2


def test_a_language_without_synonyms_does_not_ask_for_the_table_it_was_given():
    """A tester: Spanish with a user table still said "add a user synonym table"."""
    table = SynonymTable("es", (("grande", "largo"),))
    given = Scorer(MeteorConfig(language="es"), (table,)).score("casa grande", ["casa largo"]).best
    assert [l.stage for l in given.links] == ["exact", "table:es"]
    assert given.warnings == ("this project has no synonym resource for Spanish; the synonym table(s) given run as "
                              "their own stage",)
    alone = Scorer(MeteorConfig(language="es")).score("casa grande", ["casa largo"]).best
    assert alone.warnings == ("this project has no synonym resource for Spanish; a user synonym table (CSV/TSV: the "
                              "command line's --synonyms, the library's synonym_tables) can add domain terms",)
