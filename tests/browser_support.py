"""Shared harness for the browser tests: a Streamlit server whose stderr is kept (so a
server-side traceback fails the test), Debian's Chromium driven by Playwright, and one check,
`assert_clean`, that fails on anything a user would see as broken: an exception box, an error
alert, a "Page not found" dialog, a JavaScript error in the page, or a traceback on the server.

Use it as:

    def test_something(streamlit_server, browser_page):
        page = browser_page
        page.goto(streamlit_server.url("/how"))
        ...
        assert_clean(page, streamlit_server)

`streamlit_server` and `browser_page` are fixtures defined in conftest.py."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterable, Optional

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_chromium() -> None:
    """Chromium is part of the test set-up (`setup.sh --test`): missing in CI is a failure.
    Outside CI (a developer's laptop without Debian) the browser tests skip, saying why."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        pytest.fail("Debian chromium is missing: bash scripts/setup.sh --test installs it")
    pytest.skip("Debian chromium not installed (bash scripts/setup.sh --test)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StreamlitServer:
    """`streamlit run app.py` on a free port, stderr and stdout kept in a log file."""

    def __init__(self, log_dir: Path, extra_args: Iterable[str] = (), script: Optional[Path] = None,
                 usage_stats_flag: bool = True):
        """`script` (default: this checkout's app.py) runs from its own folder, so that folder's
        .streamlit/config.toml applies; usage_stats_flag=False leaves usage statistics to it."""
        script = Path(script or ROOT / "app.py")
        self.port = free_port()
        self.log_path = log_dir / f"streamlit-{self.port}.log"
        self._log = open(self.log_path, "wb")
        self._mark = 0
        flags = ["--browser.gatherUsageStats", "false"] if usage_stats_flag else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
             "--server.port", str(self.port), *flags, *extra_args],
            cwd=script.parent, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited with {self.process.returncode}:\n{self.log()}")
            try:
                urllib.request.urlopen(self.url("/_stcore/health"), timeout=2)
                return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"streamlit did not start within 90 s:\n{self.log()}")

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def new_log(self) -> str:
        """What the server printed since the previous call (each test sees only its own)."""
        text = self.log()
        fresh, self._mark = text[self._mark:], len(text)
        return fresh

    def rss_bytes(self) -> int:
        """Resident memory of the server process (Linux /proc)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("VmRSS not found")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._log.close()


def watch_page_errors(page) -> list[str]:
    """JavaScript errors raised in the page, collected as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._meteor_js_errors = errors  # read back by assert_clean
    return errors


def page_problems(page, server: Optional[StreamlitServer] = None, allow_errors: Iterable[str] = ()) -> list[str]:
    """Everything on screen (and on the server) that says something broke."""
    problems = []
    for box in page.locator("[data-testid=stException]").all():
        problems.append("exception box: " + box.inner_text()[:500])
    allowed = tuple(allow_errors)
    for alert in page.locator("[data-testid=stAlertContentError]").all():
        text = alert.inner_text()
        if not any(a in text for a in allowed):
            problems.append("error alert: " + text[:500])
    body = page.inner_text("body")
    if "Page not found" in body:
        problems.append("'Page not found' dialog")
    problems += [f"JavaScript error: {e}" for e in getattr(page, "_meteor_js_errors", [])]
    if server is not None:
        log = server.new_log()
        if "Traceback" in log or "Exception" in log:
            problems.append("server log:\n" + log[-3000:])
    return problems


def assert_clean(page, server: Optional[StreamlitServer] = None, allow_errors: Iterable[str] = (),
                 screenshot: Optional[str] = None) -> None:
    """Fail with every problem found; save a screenshot first when asked (or on failure)."""
    problems = page_problems(page, server, allow_errors)
    if screenshot or problems:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / (screenshot or "failure.png")), full_page=True)
    assert not problems, "\n".join(problems)


def wait_for_app(page, timeout: float = 90_000) -> None:
    """Until Streamlit has finished running the script: its app element says the script is not
    running and no rerun is requested, and no 'Running...' status widget shows. The status
    widget alone appears only some time into a run, so a Back pressed 400 ms after a click
    could land while the click's run still ran (on a loaded machine Streamlit then ran the
    page Back left, or none: a CI flake)."""
    page.wait_for_selector("[data-testid=stMain]", timeout=timeout)
    page.wait_for_function(
        "() => { const app = document.querySelector('[data-testid=stApp]');"
        " const state = app && app.getAttribute('data-test-script-state');"
        " return state !== 'running' && state !== 'rerunRequested' && state !== 'stopRequested'"
        " && !document.querySelector('[data-testid=stStatusWidget]'); }", timeout=timeout)
    page.wait_for_timeout(300)


def click_toolbar_button(page, element, name: str, attempts: int = 3) -> None:
    """Click a button of the toolbar Streamlit shows above `element` while the pointer is on it,
    as a user does: hover the element, then click. On a loaded machine the grid below sometimes
    won the browser's hit test for the button's spot for the whole 30 s timeout (1 run in 3 with
    two other browsers running; the button stood still, 24 px above the grid). Hover and click
    again a few times, then send the click to the button itself: the test is about what the
    button does, not about where Streamlit layers its toolbar."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    button = element.get_by_role("button", name=name)
    for _ in range(attempts):
        element.evaluate("element => element.scrollIntoView({block: 'center'})")
        element.hover()
        page.wait_for_timeout(300)
        try:
            button.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    button.dispatch_event("click")
