"""End to end in a real headless Chromium (Debian's, driven by Playwright): open a URL with
query parameters, wait for the Plotly chart, check its traces in the DOM, save a screenshot.
Every test ends with assert_clean: no exception box, error alert, JS error or server traceback."""
import urllib.parse

from browser_support import assert_clean, wait_for_app


def test_segment_explorer_in_chromium(streamlit_server, browser_page):
    page = browser_page
    query = urllib.parse.urlencode({"cand": "the cat sat on a mat", "ref": "the cat sat on the mat"})
    page.goto(streamlit_server.url(f"/?{query}"))
    page.wait_for_selector(".js-plotly-plot", timeout=90_000)
    wait_for_app(page)
    traces = page.evaluate("() => document.querySelector('.js-plotly-plot').data.map(t => t.name)")
    shapes = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.shapes.length")
    text = page.inner_text("body")
    assert_clean(page, streamlit_server, screenshot="segment_explorer.png")
    assert "exact (5)" in traces
    assert "candidate" in traces and "reference" in traces
    assert shapes == 4  # 2 chunks x 2 rows
    assert "0.8067" in text


def test_corpus_upload_and_drill_down_in_chromium(streamlit_server, browser_page, tmp_path):
    corpus = tmp_path / "upload.tsv"
    corpus.write_text("id\tcandidate\treference\n"
                      "u1\tthe cat sat on the mat\tthe cat sat on the mat\n"
                      "u2\ton the mat sat the cat\tthe cat sat on the mat\n"
                      "u3\tthe dog barked\tthe dog barked loudly\n", encoding="utf-8")
    page = browser_page
    page.goto(streamlit_server.url("/corpus"))
    tables = page.locator("[data-testid=stMain] [data-testid=stDataFrame]")
    tables.first.wait_for(timeout=90_000)  # the sample corpus is scored
    page.get_by_text("Upload a table (TSV, CSV, JSONL)").click()
    page.wait_for_selector("input[type=file]", state="attached", timeout=30_000)
    page.set_input_files("input[type=file]", str(corpus))
    page.get_by_text("upload.tsv: 3 rows").wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    grid = tables.last
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 1 * 35 + 17)  # row 2 (u2)
    page.get_by_text("Segment u2").wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    body = page.inner_text("body")
    assert_clean(page, streamlit_server, screenshot="corpus_explorer_drill_down.png")
    assert "Candidate: on the mat sat the cat" in body
