"""`pip install .` gives the library and the `meteor-lens` command (pyproject.toml): a user's
pipeline imports meteor_core from site-packages, not from this checkout."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_frames_without_pandas_says_which_extra_to_install():
    """The library installs without pandas; meteor_core.frames needs it (a newcomer got a bare
    "No module named 'pandas'")."""
    ran = subprocess.run([sys.executable, "-c", "import sys; sys.modules['pandas'] = None; import meteor_core.frames"],
                         capture_output=True, text=True, cwd=ROOT)
    assert ran.returncode == 1
    assert ran.stderr.strip().endswith("ImportError: meteor_core.frames needs pandas: pip install "
                                       "'meteor-lens[frames]' (or pip install pandas)")


def test_pip_install_gives_the_library_and_the_meteor_lens_command(tmp_path):
    # A copy of what the package is made of: building in the checkout would leave build/ there.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "meteor_core", source / "meteor_core", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "site"
    # --no-deps: the dependencies are this venv's; pip fetches setuptools from PyPI to build.
    built = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                            str(source)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    packaged = sorted(p.relative_to(target / "meteor_core").as_posix()
                      for p in (target / "meteor_core").rglob("*.py"))
    assert packaged == sorted(p.relative_to(ROOT / "meteor_core").as_posix()
                              for p in (ROOT / "meteor_core").rglob("*.py"))
    script = target / "bin" / "meteor-lens"
    assert script.exists()
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())}
    ran = subprocess.run([sys.executable, str(script), "score", "--candidate", "the cat sat on the mat", "--reference",
                          "the cat sat on the mat", "--json"], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert f'"score": {431 / 432}' in ran.stdout  # 6 of 6 words, 1 chunk: 1 - 0.5 * (1/6)^3 = 431/432
    helped = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, env=env)
    assert helped.stdout.startswith("usage: meteor-lens ")  # not "python -m meteor_core" (a newcomer)
    where = subprocess.run([sys.executable, "-c", "import meteor_core; print(meteor_core.__file__, "
                            "meteor_core.__version__)"], capture_output=True, text=True, cwd=tmp_path, env=env)
    path, version = where.stdout.split()
    assert Path(path).is_relative_to(target) and version in (target / "meteor_lens-" f"{version}.dist-info").name
