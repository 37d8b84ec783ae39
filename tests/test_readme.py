"""The README's library example runs as written (a tester copied it: an attribute it named was
on another object, and the way to set alpha, beta and gamma was not shown)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _library_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Library\n"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_library_example_runs_and_gives_its_numbers():
    names: dict = {}
    exec(compile(_library_block(), "README.md (Library)", "exec"), names)
    result, corpus = names["result"], names["corpus"]
    # "the cat sat on a mat" vs "the cat sat on the mat": 5 of 6 words, 2 chunks:
    # Fmean 5/6, penalty 0.5 (2/5)^3 = 0.032 -> 0.80667 (README, worked example)
    assert abs(result.score - 5 / 6 * (1 - 0.5 * (2 / 5) ** 3)) < 1e-12
    assert result.best.candidate_tokens.texts == ("the", "cat", "sat", "on", "a", "mat")
    assert len(corpus.segments) == 2 and 0 < corpus.score <= 1
