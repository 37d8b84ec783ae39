"""Server-side time of a Segment Explorer render for a 40-token pair (AppTest, no browser):
first run (cold caches) vs re-runs (cached core call), plus the core call alone.

    .venv/bin/python bench/bench_app.py
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from meteor_core import MeteorConfig  # noqa: E402
from meteor_core.explore import explore  # noqa: E402

CAND = ("the committee said on monday that the new rules , which were approved last year after a long debate , "
        "would take effect in january and that companies must report their emissions every quarter")
REF = ("on monday the committee announced that the new regulations , approved last year following lengthy "
       "debates , will come into force in january and firms will have to report emissions each quarter")


def main() -> None:
    print(f"pair: {len(CAND.split())} x {len(REF.split())} tokens")
    t = time.perf_counter()
    explore(CAND, [REF], MeteorConfig())
    cold = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(20):
        explore(CAND, [REF], MeteorConfig())
    warm = (time.perf_counter() - t) / 20
    print(f"core explore(): first {cold * 1000:.0f} ms (includes WordNet load), then {warm * 1000:.1f} ms")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["cand"] = CAND
    at.query_params["ref"] = REF
    t = time.perf_counter()
    at.run()
    first = time.perf_counter() - t
    times = []
    for _ in range(5):
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
    print(f"page script: first run {first * 1000:.0f} ms, re-runs median {sorted(times)[2] * 1000:.0f} ms "
          f"(ratio {first / sorted(times)[2]:.1f}x)")


if __name__ == "__main__":
    main()
