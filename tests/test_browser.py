"""End to end in a real headless Chromium (Debian's, driven by Playwright): open a URL with
query parameters, wait for the Plotly chart, check its traces in the DOM, save a screenshot."""
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium missing: bash scripts/setup.sh --test installs it")
        pytest.skip("Debian chromium not installed (bash scripts/setup.sh --test)")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(base + "/_stcore/health", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail("streamlit did not start within 60 s")
    yield base
    process.terminate()
    process.wait(timeout=20)


def test_segment_explorer_in_chromium(server):
    from playwright.sync_api import sync_playwright

    query = urllib.parse.urlencode({"cand": "the cat sat on a mat", "ref": "the cat sat on the mat"})
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.goto(f"{server}/?{query}")
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        page.wait_for_timeout(1500)
        traces = page.evaluate("() => document.querySelector('.js-plotly-plot').data.map(t => t.name)")
        shapes = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.shapes.length")
        page.screenshot(path=str(ARTIFACTS / "segment_explorer.png"), full_page=True)
        text = page.inner_text("body")
        browser.close()
    assert "exact (5)" in traces
    assert "candidate" in traces and "reference" in traces
    assert shapes == 4  # 2 chunks x 2 rows
    assert "0.8067" in text


def test_corpus_upload_and_drill_down_in_chromium(server, tmp_path):
    from playwright.sync_api import sync_playwright

    corpus = tmp_path / "upload.tsv"
    corpus.write_text("id\tcandidate\treference\n"
                      "u1\tthe cat sat on the mat\tthe cat sat on the mat\n"
                      "u2\ton the mat sat the cat\tthe cat sat on the mat\n"
                      "u3\tthe dog barked\tthe dog barked loudly\n", encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.goto(f"{server}/corpus")
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
        page.screenshot(path=str(ARTIFACTS / "corpus_explorer_drill_down.png"))
        body = page.inner_text("body")
        browser.close()
    assert "Candidate: on the mat sat the cat" in body
