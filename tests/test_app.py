"""AppTest for every page: no exception, query parameters reproduce a pair, figure specs."""
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
COUPON = {"cand": "o cupom vale só até domingo", "ref": "o cupom vale para toda a loja até domingo",
          "stages": "exact"}


def _app(page: str = "app.py", **params) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _figures(at):
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def test_segment_explorer_from_query_params(wordnet_reader):
    at = _app(**COUPON)
    assert _metric(at, "METEOR") == "0.5563"
    assert _metric(at, "matches m") == "5" and _metric(at, "chunks c") == "2"
    diagram = _figures(at)[0]
    stage_traces = [t for t in diagram["data"] if t.get("meta", {}).get("kind") == "stage"]
    assert [t["meta"]["stage"] for t in stage_traces] == ["exact"]
    chunk_shapes = [s for s in diagram["layout"]["shapes"] if s.get("name", "").startswith("chunk")]
    assert sorted({s["name"] for s in chunk_shapes}) == ["chunk 1", "chunk 2"]
    assert len(chunk_shapes) == 4  # a band on each row per chunk
    assert any("4-gram" in w.value for w in at.warning)  # BLEU 0 explained


def test_all_stages_get_a_trace_and_url_round_trip(wordnet_reader):
    at = _app(cand="the cars started quickly and the auto stopped", ref="the car starts fast and the automobile halted")
    diagram = _figures(at)[0]
    stages = {t["meta"]["stage"] for t in diagram["data"] if t.get("meta", {}).get("kind") == "stage"}
    assert stages == {"exact", "stem", "synonym"}
    legend = {t["name"] for t in diagram["data"] if t.get("meta", {}).get("kind") == "stage"}
    assert "stem (2)" in legend and "synonym (2)" in legend
    assert at.query_params["cand"] == "the cars started quickly and the auto stopped"
    assert at.query_params["stages"] == "exact,stem,synonym" and at.query_params["mode"] == "paper"


def test_multi_reference_lists_all_and_marks_best(wordnet_reader):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["cand"] = "this is a good test"
    at.query_params["ref"] = ["this is a test", "this is also a test"]
    at.run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["reference"]) == ["this is a test", "this is also a test"]
    assert list(table[""]).count("★ best") == 1


def test_nltk_difference_is_shown(wordnet_reader):
    at = _app(cand="the cat sat on a mat", ref="the cat sat on the mat")
    assert any("nltk mode aligns this pair differently" in i.value for i in at.info)
    assert any(t.get("meta", {}).get("kind") == "diff" for t in _figures(at)[0]["data"])


@pytest.mark.parametrize("params, message", [
    ({"cand": "   ", "ref": "the cat"}, "candidate is empty"),
    ({"cand": "the cat", "ref": "the cat", "alpha": "abc"}, "not a number"),
    ({"cand": " ".join(["w"] * 2001), "ref": "w"}, "limit is 2000"),
])
def test_bad_input_gives_a_message_not_a_traceback(params, message):
    at = _app(**params)
    texts = [e.value for e in at.error] + [w.value for w in at.warning]
    assert any(message in t for t in texts), texts


def test_user_text_is_not_html():
    source = (ROOT / "lens" / "ui.py").read_text() + "".join(p.read_text() for p in (ROOT / "app_pages").glob("*.py"))
    assert "unsafe_allow_html" not in source


def test_how_meteor_works_page(wordnet_reader):
    at = AppTest.from_file(str(ROOT / "app_pages" / "how_meteor_works.py"), default_timeout=120)
    for key, value in COUPON.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    # First step shows tokens only: no links.
    first = _figures(at)[0]
    assert all(not [x for x in t["x"] if x is not None] for t in first["data"] if t.get("meta", {}).get("kind") == "stage")
    at.select_slider[0].set_value("score").run()
    assert not at.exception
    assert any("0.5563" in m.value for m in at.markdown)
    texts = " ".join(m.value for m in at.markdown)
    assert "not 0.830" in texts
    objective_titles = [f["layout"]["title"]["text"] for f in _figures(at) if f["layout"].get("title")]
    assert any("fewest crossings: 6 chunks" in t for t in objective_titles)
    assert any("fewest chunks: 3 chunks" in t for t in objective_titles)


def test_language_from_url_and_capabilities():
    at = _app(cand="eles chegaram cedo", ref="ele chegou cedo", lang="pt-BR")
    diagram = _figures(at)[0]
    legend = {t["name"] for t in diagram["data"] if t.get("meta", {}).get("kind") == "stage"}
    assert "stem (1)" in legend
    capability = next(d.value for d in at.dataframe if "stemmer" in d.value.columns)
    assert "Snowball portuguese (nltk)" in list(capability["stemmer"])
    assert "lang:pt-BR" in at.markdown[-1].value or any("lang:pt-BR" in c.value for c in at.caption)


def test_unknown_language_in_url_is_reported():
    at = _app(cand="a b", ref="a b", lang="xx")
    assert any("lang='xx' is not a supported language" in w.value for w in at.warning)
