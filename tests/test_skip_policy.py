"""The CI skip policy (tests/skip_policy.py) proven on small suites run in a subprocess: with
CI set, every kind of skip fails the run, except an allowed one; without CI they stay skips."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

SUITE = '''
import pytest
from skip_policy import require

pytestmark = []

def test_plain_skip():
    pytest.skip("no widget here")

@pytest.mark.skipif(True, reason="marked off")
def test_skipif():
    pass

def test_require_missing():
    require(False, "the widget package is not installed")

def test_require_present():
    require(True, "never shown")

@pytest.mark.xfail(strict=True, reason="known bug")
def test_xfail():
    assert False

def test_allowed():
    pytest.skip("allowed here")
'''

CONFTEST = f'''
import sys
sys.path.insert(0, {str(TESTS)!r})
import skip_policy
skip_policy.ALLOWED_SKIPS["*::test_allowed"] = "demonstration"
from skip_policy import pytest_make_collect_report, pytest_runtest_makereport
'''


def run_suite(tmp_path, ci, extra_files=()):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_suite.py").write_text(SUITE)
    for name, text in extra_files:
        (tmp_path / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    process = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", str(tmp_path)],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    return process.returncode, process.stdout


@pytest.mark.parametrize("ci", ["true", "1"])
def test_in_ci_every_skip_fails_except_the_allowed(tmp_path, ci):
    code, out = run_suite(tmp_path, ci)
    assert code == 1, out
    assert "FAILED test_suite.py::test_plain_skip" in out and "skipped in CI (no widget here)" in out
    assert "ERROR test_suite.py::test_skipif" in out and "skipped in CI (marked off)" in out
    assert "FAILED test_suite.py::test_require_missing - Failed: missing in CI: the widget package" in out
    assert "PASSED test_suite.py::test_require_present" in out
    assert "XFAIL test_suite.py::test_xfail" in out
    assert "SKIPPED [1] test_suite.py" in out and "allowed here" in out


def test_in_ci_a_module_level_skip_stops_the_run(tmp_path):
    module = "import pytest\npytest.skip('no db', allow_module_level=True)\n"
    code, out = run_suite(tmp_path, "true", [("test_module_skip.py", module)])
    assert code == 2, out  # a collection error interrupts the session
    assert "ERROR test_module_skip.py" in out and "skipped in CI (no db)" in out


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_outside_ci_skips_stay_skips(tmp_path, ci):
    code, out = run_suite(tmp_path, ci)
    assert code == 0, out
    assert "1 passed, 4 skipped, 1 xfailed" in out
    assert "the widget package is not installed" in out
