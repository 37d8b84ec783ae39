"""Server time of one click on a corpus page that shows a large upload: WMT22 cs-en and de-en as
one long table (37,216 rows, 16 MB; cs-en's 12 systems compared by default). A click that
changes nothing the scores depend on (the sidebar's "What each language gets") reruns the page;
its cost is the server process's CPU time until it is idle again (the scoring pool is not used
by such a rerun). Median of N clicks, per page; with --root, a second checkout measured the same
way in the same run, and the ratio (its time / this checkout's).

    .venv/bin/python bench/bench_rerun.py                        # this checkout
    .venv/bin/python bench/bench_rerun.py --root /tmp/base       # before (a worktree) and after
Data: ../shared/data (wmt_data.py), never needed by the tests.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402
from wmt_data import data_dir  # noqa: E402

PAGES = ("/corpus", "/compare")


def long_table(path: Path) -> int:
    """WMT22 cs-en and de-en rows of outputs.tsv.gz as one TSV (as WMT ships them)."""
    csv.field_size_limit(10**7)
    rows = 0
    with gzip.open(data_dir() / "wmt22-toen" / "outputs.tsv.gz", "rt", encoding="utf-8") as f, \
            open(path, "w", encoding="utf-8") as out:
        header = f.readline()
        out.write(header)
        lp_at = header.rstrip("\n").split("\t").index("lp")
        for line in f:
            if line.split("\t")[lp_at] in ("cs-en", "de-en"):
                out.write(line)
                rows += 1
    return rows


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until_idle(page, pid: int, start_cpu: float, quiet_s: float = 1.0, limit_s: float = 300) -> tuple[float, float]:
    """(CPU seconds since start_cpu, wall seconds) once the server's CPU time stops rising for quiet_s."""
    start = time.time()
    last, quiet_since = cpu_seconds(pid), time.time()
    while time.time() - quiet_since < quiet_s and time.time() - start < limit_s:
        page.wait_for_timeout(100)
        now = cpu_seconds(pid)
        if now - last > 0.005:
            quiet_since = time.time()
        last = now
    return last - start_cpu, time.time() - start - quiet_s


def measure(browser, server: StreamlitServer, table: Path, path: str, clicks: int) -> dict:
    pid = server.process.pid
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server.url(f"{path}?data=table"))
    page.wait_for_selector("input[type=file]", state="attached", timeout=120_000)
    page.wait_for_timeout(1500)
    before = cpu_seconds(pid)
    page.locator("input[type=file]").first.set_input_files(str(table))
    first, _ = until_idle(page, pid, before, quiet_s=3.0)
    cpu, wall = [], []
    toggle = page.locator("[data-testid=stSidebar] [data-testid=stCheckbox]").first
    for _ in range(clicks):
        before = cpu_seconds(pid)
        toggle.click()
        c, w = until_idle(page, pid, before)
        cpu.append(c)
        wall.append(w)
    page.close()
    return {"upload": first, "cpu": statistics.median(cpu), "cpu_max": max(cpu), "wall": statistics.median(wall)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, help="another checkout to measure the same way (the baseline)")
    parser.add_argument("--clicks", type=int, default=6)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    roots = {"this checkout": ROOT} | ({"baseline": args.root.resolve()} if args.root else {})
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "wmt22-cs-de.tsv"
        print(f"table: {long_table(table):,} rows, {table.stat().st_size / 1e6:.1f} MB; {args.clicks} clicks a page")
        results = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, root in roots.items():
                server = StreamlitServer(Path(tmp), script=root / "app.py")
                try:
                    for path in PAGES:
                        results[name, path] = r = measure(browser, server, table, path, args.clicks)
                        print(f"{name:14} {path:9} upload {r['upload']:5.2f} s CPU; per click: CPU median "
                              f"{r['cpu']:.2f} s (max {r['cpu_max']:.2f}), wall median {r['wall']:.2f} s")
                finally:
                    server.stop()
            browser.close()
        if args.root:
            for path in PAGES:
                ratio = results["baseline", path]["cpu"] / results["this checkout", path]["cpu"]
                print(f"{path}: baseline / this checkout, CPU per click: {ratio:.1f}x")


if __name__ == "__main__":
    main()
