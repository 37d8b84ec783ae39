import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # browser_support, skip_policy

# With CI set, a skipped test is a failed test (except skip_policy.ALLOWED_SKIPS): a machine
# where set-up could not install a resource must not give a green run that tested nothing.
from skip_policy import pytest_make_collect_report, pytest_runtest_makereport  # noqa: E402,F401  (hooks)


@pytest.fixture(scope="session")
def wordnet_reader():
    """WordNet is part of the test set-up (README's test command installs it): a missing
    WordNet is a failure, not a skip, so a broken set-up cannot pass quietly."""
    from meteor_core.wordnet import load_wordnet

    reader, status = load_wordnet()
    if not status.available:
        pytest.fail(status.message)
    return reader


@pytest.fixture(scope="session")
def meteor15_data():
    """METEOR 1.5's data (paraphrase table, function words) from the pycocoevalcap wheel, which
    README's test command installs: skipped outside CI when missing, a failure in CI."""
    from meteor_core.meteor15.data import load_data
    from skip_policy import require

    status = load_data()[1]
    require(status.available, status.message)


@pytest.fixture(scope="module")
def streamlit_server(tmp_path_factory):
    """One app server per test module; its output is checked by browser_support.assert_clean."""
    from browser_support import StreamlitServer, require_chromium

    require_chromium()
    server = StreamlitServer(tmp_path_factory.mktemp("streamlit"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    from browser_support import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(chromium):
    """A fresh browser context (own session) per test, JavaScript errors recorded."""
    from browser_support import watch_page_errors

    context = chromium.new_context(viewport={"width": 1400, "height": 1800})
    page = context.new_page()
    watch_page_errors(page)
    try:
        yield page
    finally:
        context.close()
