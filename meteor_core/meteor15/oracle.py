"""Run the original METEOR 1.5 jar (Java) as a reference: the parity tests and the validation
bench compare this package with it. Never used for scoring.

The jar is started once in its `-stdio` mode (as pycocoevalcap does) and fed one line per
request: `SCORE ||| ref1 ||| ... ||| hyp` answers the statistics line, `EVAL ||| stats ...`
answers one score per statistics line and then their aggregate.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Optional, Sequence

from .data import jar_path

DEFAULT_ARGS = ("-l", "en", "-norm")


def java_available() -> bool:
    return shutil.which("java") is not None


class JarError(RuntimeError):
    pass


class JarOracle:
    """`java -jar meteor-1.5.jar - - -stdio <args>` kept running; not thread-safe."""

    def __init__(self, args: Sequence[str] = DEFAULT_ARGS, jar: Optional[Path] = None, timeout: float = 600.0):
        self.jar = Path(jar) if jar else jar_path()
        if not self.jar.exists():
            raise JarError(f"METEOR 1.5 jar not found at {self.jar} "
                           "(python -m meteor_core setup-meteor15 --with-jar, run by scripts/setup.sh --test)")
        if not java_available():
            raise JarError("java not found (Debian: default-jre-headless, installed by scripts/setup.sh --test)")
        self.args = tuple(args)
        self.timeout = timeout
        env = dict(os.environ, JAVA_TOOL_OPTIONS="-Dfile.encoding=UTF-8")
        self._process = subprocess.Popen(
            ["java", "-Xmx2G", "-jar", str(self.jar), "-", "-", "-stdio", *self.args],
            cwd=str(self.jar.parent), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, bufsize=0)
        self._pending = b""  # bytes read from the jar but not yet returned as lines

    def _ask(self, line: str, answers: int = 1) -> list[str]:
        if "\n" in line or "\r" in line:
            raise ValueError("the jar's protocol is one line per request")
        process = self._process
        process.stdin.write((line + "\n").encode("utf-8"))
        process.stdin.flush()
        out = []
        deadline = time.monotonic() + self.timeout
        while len(out) < answers:
            line, newline, rest = self._pending.partition(b"\n")
            if newline:
                self._pending = rest
                out.append(line.decode("utf-8").strip())
                continue
            ready, _, _ = select.select([process.stdout], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise JarError(f"the jar did not answer within {self.timeout:.0f} s")
            chunk = os.read(process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise JarError(f"the jar exited (code {process.poll()})")
            self._pending += chunk
        return out

    def stats_line(self, hypothesis: str, references: Sequence[str]) -> str:
        for text in (hypothesis, *references):
            if "|||" in text:
                raise ValueError("'|||' separates fields in the jar's protocol")
        return self._ask(" ||| ".join(("SCORE", *references, hypothesis)))[0]

    def stats(self, hypothesis: str, references: Sequence[str]) -> list[float]:
        return [float(x) for x in self.stats_line(hypothesis, references).split()]

    def evaluate(self, stats_lines: Sequence[str]) -> tuple[list[float], float]:
        """(score of each statistics line, score of their aggregate)."""
        answers = self._ask(" ||| ".join(("EVAL", *stats_lines)), len(stats_lines) + 1)
        return [float(a) for a in answers[:-1]], float(answers[-1])

    def score(self, hypothesis: str, references: Sequence[str]) -> float:
        return self.evaluate([self.stats_line(hypothesis, references)])[0][0]

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def __enter__(self) -> "JarOracle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
