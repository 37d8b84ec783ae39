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


def test_cli_synonyms_file(tmp_path, capsys):
    path = tmp_path / "shop.tsv"
    path.write_text("sku\tarticle\n", encoding="utf-8")
    code = main(["score", "--candidate", "the sku", "--reference", "the article", "--synonyms", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "table:shop" in out and "METEOR 0.9375" in out
