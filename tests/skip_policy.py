"""No silent skips in CI.

A test that needs a resource set-up installs (WordNet, the Debian thesauri, chromium) calls
`require(condition, reason)`: outside CI a missing resource skips the test, saying why; in CI
(`CI` set, as `.ci/run` does) it fails. As a safety net, conftest.py installs the two hooks
below: with `CI` set, any skip (a `pytest.skip`, a `skipif` mark, a module-level skip) is
reported as a failure unless its test is on ALLOWED_SKIPS with a reason. xfail is not a skip
and is left alone.
"""
from __future__ import annotations

import fnmatch
import os

import pytest

#: Skips CI accepts: node id pattern (fnmatch) -> why skipping there is right. Keep it short.
ALLOWED_SKIPS: dict[str, str] = {}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def require(condition: bool, reason: str) -> None:
    """Skip outside CI, fail in CI, when a resource the test needs is missing."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"missing in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _allowed(nodeid: str) -> bool:
    return any(fnmatch.fnmatchcase(nodeid, pattern) for pattern in ALLOWED_SKIPS)


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason.removeprefix("Skipped: ")


def _fail(report, reason: str) -> None:
    report.outcome = "failed"
    report.longrepr = (f"{report.nodeid} skipped in CI ({reason}). CI must not skip: install the "
                       "resource in set-up, or list the test in tests/skip_policy.py ALLOWED_SKIPS with a reason.")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and not hasattr(report, "wasxfail") and not _allowed(report.nodeid):
        _fail(report, _skip_reason(report))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and not _allowed(report.nodeid):
        _fail(report, _skip_reason(report))
