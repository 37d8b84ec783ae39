"""AppTest for the Corpus Explorer and System Comparison pages, with uploads."""
import json
from pathlib import Path

import pandas as pd
import pytest
from test_corpus import brute_force_tau_b
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
GOOD = ("id\tcandidate\treference\thuman\n"
        "s1\tthe cat sat on the mat\tthe cat sat on the mat\t95\n"
        "s2\ta dog barked\tthe dog barked loudly\t60\n"
        "s3\ton the mat sat the cat\tthe cat sat on the mat\t40\n"
        "s4\tthe weather is nice today\tthe weather is good today\t85\n").encode()


def _page(name: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app_pages" / name), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.radio(key="corpus-source").set_value("Upload a table (TSV, CSV, JSONL)").run()
    at.file_uploader(key="corpus-upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_sample_corpus_works_without_upload(wordnet_reader):
    at = _page("corpus_explorer.py")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Segments scored"] == "24" and metrics["Not scored"] == "0"
    assert len(at.dataframe) >= 2


def test_upload_scores_and_correlates(wordnet_reader):
    at = _upload(_page("corpus_explorer.py"), "good.tsv", GOOD)
    table = next(d.value for d in at.dataframe if "meteor" in d.value.columns)
    assert list(table["id"]) == ["s1", "s2", "s3", "s4"]
    corr = next(d.value for d in at.dataframe if "Kendall tau-b" in d.value.columns)
    human = [95, 60, 40, 85]
    for metric in ("METEOR", "BLEU"):
        values = list(table[metric.lower()])
        row = corr[corr["metric"] == metric].iloc[0]
        series, people = pd.Series(values), pd.Series(human, dtype=float)
        assert row["Pearson r"] == pytest.approx(series.corr(people, method="pearson"), abs=1e-9)
        assert row["Spearman rho"] == pytest.approx(series.rank().corr(people.rank()), abs=1e-9)
        assert row["Kendall tau-b"] == pytest.approx(brute_force_tau_b(values, human), abs=1e-9)
    assert table["meteor"].iloc[0] == pytest.approx(1 - 0.5 / 216)


@pytest.mark.parametrize("name, data, message", [
    ("latin.tsv", "id\tcandidate\treference\n1\tcaf\xe9\tx\n".encode("latin-1"), "latin.tsv: line 2 is not UTF-8"),
    ("claims.tsv", b"id,candidate,reference\n1,a,b\n", "has no tab"),
    ("claims.jsonl", b"id\tcandidate\n", "is the file really JSONL"),
    ("cols.tsv", b"id\thyp\tref\n1\ta\tb\n", None),
])
def test_malformed_uploads_give_clear_messages(name, data, message):
    at = _upload(_page("corpus_explorer.py"), name, data)
    errors = [e.value for e in at.error]
    if message:
        assert any(message in e for e in errors), errors
    else:  # columns named differently: the mapping offers them; nothing crashes, nothing is scored silently
        assert at.selectbox(key="corpus-cand-col-0").options == ["id", "hyp", "ref"]


def test_ragged_and_empty_rows_are_listed():
    data = GOOD + b"\ns6\tonly two\n"
    at = _upload(_page("corpus_explorer.py"), "ragged.tsv", data)
    assert any("2 row(s) not scored" in w.value for w in at.warning)
    problems = next(d.value for d in at.dataframe if "problem" in d.value.columns)
    assert list(problems["problem"]) == ["ragged.tsv, line 6: empty line",
                                         "ragged.tsv, line 7: 2 fields, the header has 4"]


def test_parallel_files_mismatch():
    at = _page("corpus_explorer.py")
    at.radio(key="corpus-source").set_value("Upload plain-text files").run()
    at.file_uploader(key="corpus-cand-0").set_value(("hyp.txt", b"a\nb\nc\n", "text/plain")).run()
    at.file_uploader(key="corpus-refs").set_value([("ref.txt", b"a\nb\n", "text/plain")]).run()
    assert not at.exception
    assert any("hyp.txt has 3 lines, ref.txt has 2" in e.value for e in at.error)


def test_drill_down_shows_the_selected_segment(wordnet_reader):
    at = _upload(_page("corpus_explorer.py"), "good.tsv", GOOD)
    # Simulate the table selection: the page reads the dataframe's selection state.
    at.session_state["segments-table"] = {"selection": {"rows": [2], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert any(h.value == "Segment s3" for h in at.subheader)
    diagram = json.loads(at.get("plotly_chart")[-2].proto.spec)
    assert {t["meta"]["stage"] for t in diagram["data"] if t.get("meta", {}).get("kind") == "stage"} >= {"exact"}


def test_system_comparison_page(wordnet_reader):
    at = _page("system_comparison.py")
    metrics = [m.value for m in at.metric]
    assert metrics[0] == "0.8912" and metrics[3] == "0.7030"  # sample corpus: system_a, system_b
    deltas = at.dataframe[0].value
    assert list(deltas["meteor_delta"].abs()) == sorted(deltas["meteor_delta"].abs(), reverse=True)
    at.checkbox(key="disagree").check().run()
    filtered = at.dataframe[0].value
    assert len(filtered) == int(deltas["disagree"].sum()) and filtered["disagree"].all()
    at.session_state["delta-table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert len([c for c in at.get("plotly_chart")]) >= 2  # both diagrams
