"""How long each page takes to show its main figure in a real browser, as a ratio to a one-chart
Streamlit page measured in the same run (interleaved, so machine load cancels out).

Time is measured inside the browser: `performance.now()` (milliseconds since navigation start)
when the page's main figure (a Plotly chart, or for /compare the main table) is first visible
in the main area, and when the main area stops changing ("settled": last DOM mutation before
a quiet second). Each sample opens a fresh browser context (a new Streamlit session), after one
unmeasured warm-up visit per page so server caches are warm for both sides.

    .venv/bin/python bench/bench_browser.py                  # this checkout
    .venv/bin/python bench/bench_browser.py --root /tmp/base .   # before and after, interleaved
    .venv/bin/python bench/bench_browser.py --rounds 5 --pages / /how
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

#: page -> what its main figure is ("figure": a Plotly chart, "table": a dataframe)
PAGES = {"/": "figure", "/how": "figure", "/corpus": "figure", "/compare": "table"}

BASELINE_SCRIPT = '''
import plotly.graph_objects as go
import streamlit as st

st.title("Baseline")
st.plotly_chart(go.Figure(go.Scatter(x=[0, 1, 2, 3], y=[1, 3, 2, 4], mode="lines+markers")))
'''

#: Installed before any page script: records when the main figure/table is first visible and
#: when the main area last changed.
PROBE = '''
window.__bench = {figure: null, table: null, last: 0};
(function () {
  function visible(el) { const r = el && el.getBoundingClientRect(); return r && r.width > 0 && r.height > 0; }
  function check() {
    const main = document.querySelector('[data-testid=stMain]');
    if (main) {
      if (window.__bench.figure === null) {
        const f = main.querySelector('.js-plotly-plot .main-svg');
        if (visible(f)) window.__bench.figure = performance.now();
      }
      if (window.__bench.table === null) {
        const t = main.querySelector('[data-testid=stDataFrame] canvas');
        if (visible(t)) window.__bench.table = performance.now();
      }
    }
    if (window.__bench.figure === null || window.__bench.table === null) requestAnimationFrame(check);
  }
  requestAnimationFrame(check);
  new MutationObserver(function () {
    window.__bench.last = performance.now();
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
'''


def measure(browser, url: str, target: str, quiet_ms: int = 1000, timeout_ms: int = 120_000) -> dict:
    """One visit in a fresh context: milliseconds (browser clock) to the main figure, and to
    the last change of the page before it stayed quiet."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(PROBE)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(f"() => window.__bench && window.__bench.{target} !== null", timeout=timeout_ms)
        page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=timeout_ms)
        page.wait_for_function(f"() => performance.now() - window.__bench.last > {quiet_ms}", timeout=timeout_ms,
                               polling=100)
        found = page.evaluate("() => window.__bench")
        return {"main": found[target], "settled": max(found["last"], found[target])}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, nargs="+", default=[ROOT],
                        help="checkout(s) whose app.py is measured; several are interleaved in the same rounds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", nargs="*", default=list(PAGES))
    args = parser.parse_args()
    roots = [r.resolve() for r in args.root]

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "baseline.py").write_text(BASELINE_SCRIPT)
        apps = [StreamlitServer(tmp, script=root / "app.py") for root in roots]
        baseline = StreamlitServer(tmp, script=tmp / "baseline.py")
        samples: dict[tuple[int, str], list[tuple[dict, dict]]] = {}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for app in apps:  # warm-up: imports, WordNet, cached core calls
                    for path in args.pages:
                        measure(browser, app.url(path), PAGES[path])
                measure(browser, baseline.url("/"), "figure")
                for _ in range(args.rounds):
                    for path in args.pages:
                        for index, app in enumerate(apps):
                            base = measure(browser, baseline.url("/"), "figure")
                            mine = measure(browser, app.url(path), PAGES[path])
                            samples.setdefault((index, path), []).append((base, mine))
                browser.close()
        finally:
            for app in apps:
                app.stop()
            baseline.stop()

    print(f"rounds: {args.rounds}; browser clock, ms since navigation; ratio = page / one-chart baseline in the "
          "same round, median over rounds")
    for index, root in enumerate(roots):
        print(f"\ncheckout: {root}")
        print(f"{'page':10s} {'main':>8s} {'baseline':>9s} {'ratio':>6s}   {'settled':>8s} {'baseline':>9s} {'ratio':>6s}")
        for path in args.pages:
            pairs = samples[(index, path)]
            main_ratio = statistics.median(m["main"] / b["main"] for b, m in pairs)
            settled_ratio = statistics.median(m["settled"] / b["settled"] for b, m in pairs)
            print(f"{path:10s} {statistics.median(m['main'] for _, m in pairs):8.0f} "
                  f"{statistics.median(b['main'] for b, _ in pairs):9.0f} {main_ratio:6.2f}   "
                  f"{statistics.median(m['settled'] for _, m in pairs):8.0f} "
                  f"{statistics.median(b['settled'] for b, _ in pairs):9.0f} {settled_ratio:6.2f}")

if __name__ == "__main__":
    main()
