"""The process pool (meteor_core/parallel.py): same results as one process, in order, with the
caller's configuration and synonym tables, bounded input read-ahead, and safe from a threaded
caller (the app)."""
import json
import re
import threading
from contextlib import nullcontext

import pytest

from meteor_core import MeteorConfig, Scorer, SynonymTable
from meteor_core import parallel
from meteor_core import wordnet as wn
from test_threads import _pairs

TABLE = SynonymTable("domain", (("kitty", "cat"), ("auto", "car")))


def _corpus(reader):
    pairs = _pairs(reader, count=parallel.MIN_PARALLEL_SEGMENTS + 40)
    # "a\x01b": a control character, refused in every mode (nltk mode scores a blank line 0)
    candidates = [c for c, _ in pairs] + ["the kitty sat", "a\x01b", "an auto"]
    references = [[r] for _, r in pairs] + [["the cat sat"], ["x"], ["a car", "the car"]]
    return candidates, references


def _fresh_scorer(monkeypatch, mode):
    """A scorer on a new WordNet reader whose data files are already open, as a parent's are
    when it forks: the children must not share those file offsets."""
    reader, status = wn.open_wordnet()
    reader.synsets("dog")
    monkeypatch.setattr(wn, "load_wordnet", lambda: (reader, status))
    if mode == "nltk":
        return Scorer(MeteorConfig(mode="nltk"))
    return Scorer(MeteorConfig(stages=("exact", "stem", "synonym", "table:domain")), [TABLE])


@pytest.mark.parametrize("mode", ["paper", "nltk"])
def test_pool_gives_the_single_process_results(wordnet_reader, monkeypatch, mode):
    candidates, references = _corpus(wordnet_reader)
    done = []
    pooled = _fresh_scorer(monkeypatch, mode).score_corpus(
        candidates, references, skip_invalid=True, workers=2, progress=lambda d, t: done.append((d, t)))
    single = _fresh_scorer(monkeypatch, mode).score_corpus(candidates, references, skip_invalid=True, workers=1)
    assert pooled == single
    assert [s.index for s in pooled.skipped] == [len(candidates) - 2]
    assert done == [(k, len(candidates)) for k in range(1, len(candidates) + 1)]
    if mode == "paper":  # the workers had the synonym table
        assert pooled.segments[-2].best.matches_by_stage()["table:domain"] == 1


def test_first_invalid_segment_stops_a_pooled_run_with_its_number(wordnet_reader):
    candidates = ["a b"] * 300
    references = [["a b"]] * 300
    candidates[250] = "a \x1b"
    with pytest.raises(Exception, match="segment 251: candidate contains control character U\\+001B"):
        Scorer(MeteorConfig(stages=("exact",))).score_corpus(candidates, references, workers=2)


def test_pool_from_a_threaded_caller(wordnet_reader, monkeypatch):
    """A threaded process (the Streamlit server) gets forkserver workers, not fork."""
    monkeypatch.setattr(parallel, "MIN_PARALLEL_SEGMENTS_FRESH_WORKERS", 200)  # a pool even for a test-sized corpus
    monkeypatch.setattr(parallel, "MIN_FRESH_WORKERS", 2)  # and on 2 workers
    scorer = Scorer(MeteorConfig(stages=("exact", "stem")))
    count = parallel.MIN_PARALLEL_SEGMENTS_FRESH_WORKERS
    candidates = [f"the cat number {k} sat" for k in range(count)]
    references = [[f"a cat number {k} sits"] for k in range(count)]
    out = {}
    stop = threading.Event()
    idle = threading.Thread(target=stop.wait)
    idle.start()
    try:
        assert parallel._start_method() == "forkserver"
        worker = threading.Thread(target=lambda: out.update(result=scorer.score_corpus(candidates, references,
                                                                                        workers=2)))
        worker.start()
        worker.join(timeout=300)
    finally:
        stop.set()
        idle.join()
    assert out["result"] == scorer.score_corpus(candidates, references, workers=1)


def _first_chunk_of_endless_input(**options):
    """(the first chunk of results, how many items were read by then) for an endless input of
    the same pair on 2 workers."""
    read = []

    def endless():
        while True:
            read.append(1)
            yield "a b", ["a b"]

    scorer = Scorer(MeteorConfig(stages=("exact",)))
    results = parallel.map_ordered(scorer, parallel.score_or_error, endless(), workers=2, **options)
    first = next(results)
    results.close()
    assert first[0].score == scorer.score("a b", ["a b"]).score
    return first, read


def test_input_is_read_only_as_fast_as_results_are_taken():
    """Bounded memory: a consumer that takes one chunk has made the pool read at most the
    in-flight window, not the whole (here endless) input."""
    first, read = _first_chunk_of_endless_input()
    assert len(first) == parallel.CHUNK_SIZE
    assert len(read) <= (2 * parallel.CHUNKS_PER_WORKER + 2) * parallel.CHUNK_SIZE


def test_large_items_are_bounded_in_bytes_too():
    """A helper's attack: 70 batch lines of 15 MB on 2 workers peaked at 2.9 GB, as 8 chunks of
    64 lines could be in flight. With a size function a chunk closes at CHUNK_BYTES and the
    pool holds at most BYTES_IN_FLIGHT_PER_WORKER per worker: here 5 MB items, one per chunk,
    and at most 16 MB (plus the item that crosses it) read before the first result."""
    first, read = _first_chunk_of_endless_input(size=lambda item: 5 << 20)
    assert len(first) == 1
    limit = 2 * parallel.BYTES_IN_FLIGHT_PER_WORKER // (5 << 20) + 1
    assert len(read) <= limit + 1, (len(read), limit)
    assert parallel._take(iter(range(100)), 64, lambda item: 400_000) == ([0], 400_000)
    assert parallel._take(iter(range(100)), 64, None) == (list(range(64)), 0)


def test_long_segments_are_spread_over_the_workers():
    """A tester: 6 lines of 1,700 tokens made one chunk of 64 lines, and one worker of two
    scored them all (29.3 s on 1 worker, 28.8 s on 2). A chunk closes at CHUNK_BYTES of text:
    16 KB, so 10 KB lines go two to a chunk, and 64 WMT-sized lines (150 bytes) still make one."""
    assert parallel._take(iter(range(6)), 64, lambda item: 10_000)[0] == [0, 1]
    assert len(parallel._take(iter(range(100)), 64, lambda item: 150)[0]) == 64
    # score_corpus's sizes: text characters, a token as 6, an unread iterator as nothing
    assert parallel._text_size(("a b", ["abcd", ["x", "y"]])) == 3 + 4 + 12
    assert parallel._text_size((["a", "b"], "abc")) == 12 + 3
    assert parallel._text_size(("ab", iter(["abc"]))) == 2


def test_no_input_waiting_sends_the_chunk_in_hand_and_hands_back_its_results():
    """A writer that waits for each answer before its next line: the pool must answer the
    items it has rather than wait for a full chunk (it did wait: 64 lines that never came)."""
    first, read = _first_chunk_of_endless_input(ready=lambda: False)
    assert len(first) == 1 and len(read) == 1
    assert parallel._take(iter(range(100)), 64, None, lambda: False) == ([0], 0)
    assert parallel._take(iter(range(100)), 64, None, lambda: True) == (list(range(64)), 0)


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="select on a pipe")
def test_batch_on_a_pool_answers_each_line_of_a_writer_that_waits():
    """`batch` with the default all-core pool used as a scoring service over a pipe: one line
    in, its answer out, then the next. Found by reading the pool: before, the first answer
    never came (the pool waited for 64 lines), so such a writer hung with the default options."""
    import json
    import select
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    process = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--workers", "2", "--no-bleu"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
    scorer = Scorer(MeteorConfig())
    try:
        for candidate, reference in [("the cat sat", "the cat sat down"), ("a b", "a b c"), ("x y", "y x")]:
            process.stdin.write((json.dumps({"candidate": candidate, "references": [reference]}) + "\n").encode())
            process.stdin.flush()
            # A liveness bound (the pool starts and WordNet loads first), not a speed claim.
            assert select.select([process.stdout], [], [], 120)[0], f"no answer to {candidate!r}"
            answer = json.loads(process.stdout.readline())
            assert answer["score"] == scorer.score(candidate, [reference]).score
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        assert process.stdout.read() == b"" and process.stderr.read() == b""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_workers_argument():
    assert parallel.resolve_workers(None) == parallel.resolve_workers(0) == parallel.available_cores()
    assert parallel.resolve_workers(3) == 3
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(Exception, match="workers must be a positive integer"):
            parallel.resolve_workers(bad)


def test_meteor15_pool_gives_the_single_process_results(wordnet_reader):
    """METEOR 1.5 mode has its own scorer class: the pool must build the same one in the
    workers, and the jar's corpus aggregate must not depend on the number of processes."""
    candidates, references = _corpus(wordnet_reader)
    scorer = Scorer(MeteorConfig(mode="meteor15"))
    pooled = scorer.score_corpus(candidates, references, skip_invalid=True, workers=2)
    single = scorer.score_corpus(candidates, references, skip_invalid=True, workers=1)
    assert pooled == single
    assert pooled.meteor15 is not None and pooled.score == single.score


def test_threaded_caller_scores_in_process_below_the_fresh_worker_minimum(monkeypatch):
    """Fresh workers do not repay their start on fewer than MIN_FRESH_WORKERS processes: the
    app (a threaded caller) then scores in its own process."""
    started = []
    monkeypatch.setattr(parallel, "MIN_PARALLEL_SEGMENTS_FRESH_WORKERS", 10)
    monkeypatch.setattr(parallel, "_start_method", lambda: "forkserver")
    monkeypatch.setattr(parallel, "map_ordered", lambda scorer, function, items, workers, size=None:
                        started.append(workers) or iter([[function(scorer, item) for item in items]]))
    scorer = Scorer(MeteorConfig(stages=("exact",)))
    pairs = (["a b"] * 20, [["a b"]] * 20)
    list(parallel.score_segments(scorer, *pairs, workers=parallel.MIN_FRESH_WORKERS - 1))
    list(parallel.score_segments(scorer, *pairs, workers=parallel.MIN_FRESH_WORKERS))
    list(parallel.score_segments(scorer, ["a b"] * 9, [["a b"]] * 9, workers=parallel.MIN_FRESH_WORKERS))
    assert started == [1, parallel.MIN_FRESH_WORKERS, 1]


#: What _batch_with_workers writes first (and a test may write again): 600 of the same line.
_SAME_LINE = b'{"candidate": "the cat sat on the mat", "references": ["a cat was on the mat"]}\n'


def _batch_with_workers(tmp_path, stdout=None, source=None):
    """`batch --workers 2` in its own session, fed 600 lines through a pipe left open (so it
    is still running, waiting for input), or the file `source`, once both workers exist:
    (process, worker pids, stderr path). Output discarded unless `stdout` is given. Linux:
    children are read from /proc."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    errors = tmp_path / "stderr.txt"
    import signal

    def as_from_a_shell():
        # The batch starts as from a shell: SIGINT at its default and no signal blocked. A
        # child inherits both from this test process, where earlier in-process tests may have
        # left them otherwise (the Ctrl-C test hung in 3 fresh-clone CI runs, never alone).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())

    with (source.open("rb") if source is not None else nullcontext(subprocess.PIPE)) as stdin:
        process = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--workers", "2", "--no-bleu"],
                                   stdin=stdin, stdout=stdout or subprocess.DEVNULL,
                                   stderr=errors.open("wb"), cwd=root, start_new_session=True,
                                   preexec_fn=as_from_a_shell)
    if source is None:
        process.stdin.write(_SAME_LINE * 600)
        process.stdin.flush()
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        workers = [int(pid) for task in Path(f"/proc/{process.pid}/task").iterdir()
                   for pid in (task / "children").read_text().split()]
    assert len(workers) == 2, "the pool did not start"
    return process, workers, errors


def _lines_said_written(message: str, stopped: str) -> int:
    """The count in batch's message when stopped ("interrupted", "terminated"), checked whole."""
    if message == f"{stopped}: no line written\n":
        return 0
    found = re.fullmatch(rf"{re.escape(stopped)}: ([\d,]+) line\(s\) written, each whole, for input lines 1-([\d,]+); input "
                         rf"from line ([\d,]+) on was not scored \(tail -n \+(\d+) gives it\)\n", message)
    assert found, message
    count = int(found[1].replace(",", ""))
    assert int(found[2].replace(",", "")) == count and int(found[3].replace(",", "")) == int(found[4]) == count + 1
    return count


def _running(pid: int) -> bool:
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGKILL"])
def test_workers_exit_when_the_batch_process_is_killed_alone(tmp_path, signal_name):
    """A supervisor signals the main process only: its workers must not live on, orphaned.
    (They did: blocked forever in the task queue read, seen at 1 min 45 s by a tester.)"""
    import os
    import signal
    import time

    process, workers, _ = _batch_with_workers(tmp_path)
    os.kill(process.pid, getattr(signal, signal_name))
    process.wait()
    process.stdin.close()
    deadline = time.monotonic() + 30  # a liveness bound, not a speed claim (workers check every 0.5 s)
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if _running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_a_pooled_batch_with_one_message(tmp_path):
    """Ctrl-C reaches the whole process group: the workers leave it to the main process, which
    says "interrupted" once (exit code 130), with no traceback from each worker."""
    import os
    import signal
    import subprocess
    import time

    # What this process's own state is, for a failure's message (see _batch_with_workers).
    state = f"test process: SIGINT handler {signal.getsignal(signal.SIGINT)}, blocked {signal.pthread_sigmask(signal.SIG_BLOCK, set())}"
    output = tmp_path / "out.jsonl"
    with output.open("wb") as stdout:
        process, workers, errors = _batch_with_workers(tmp_path, stdout=stdout)
    time.sleep(0.5)
    os.killpg(process.pid, signal.SIGINT)
    try:
        assert process.wait(timeout=180) == 130  # a liveness bound (60 s ran out once in CI with the machine loaded)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"batch did not stop on Ctrl-C within 180 s; {state}") from None
    process.stdin.close()
    deadline = time.monotonic() + 30
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _running(pid)]
    # one message, with where the output ends (it said "interrupted" alone)
    assert _lines_said_written(errors.read_text(), "interrupted") == len(output.read_text().splitlines())


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_repeated_ctrl_c_while_the_pool_shuts_down_still_ends_the_batch(tmp_path):
    """A tester: a second Ctrl-C 0.02-0.1 s after the first interrupted the pool's orderly
    shutdown; the workers, never told to stop, waited for tasks and the interpreter's exit
    joined them forever (3 of 3 with 2 workers). Stopped early, the workers are ended first."""
    import os
    import random
    import signal
    import subprocess
    import time

    # Workers busy when the signals come: a long input read from a file, not an idle pipe.
    rng = random.Random(7)
    words = "the a cat dog sat ran on under mat rug quickly slowly and big small red".split()
    lines = [json.dumps({"candidate": " ".join(rng.choices(words, k=30)),
                         "references": [" ".join(rng.choices(words, k=30))]}) for _ in range(3000)]
    source = tmp_path / "input.jsonl"
    source.write_text("\n".join(lines * 10) + "\n")
    process, workers, errors = _batch_with_workers(tmp_path, source=source)
    time.sleep(1.0)
    for _ in range(4):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.03)
    try:
        code = process.wait(timeout=120)  # a liveness bound, not a speed claim
    except subprocess.TimeoutExpired:
        for pid in (process.pid, *workers):
            os.kill(pid, signal.SIGKILL)
        raise AssertionError("batch hung after repeated Ctrl-C") from None
    # 130, or killed by SIGINT (-2: a Ctrl-C after the message ends Python as by default); a
    # shell reports both as 130
    assert code in (130, -signal.SIGINT)
    deadline = time.monotonic() + 30
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _running(pid)]
    first = errors.read_text().split("\n")[0] + "\n"  # a later Ctrl-C may add a plain "interrupted"
    assert _lines_said_written(first, "interrupted") >= 0 and "Traceback" not in errors.read_text()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_ends_batch_between_lines_with_a_message(tmp_path, workers):
    """SIGTERM (a supervisor, a job timeout) ends `batch` with "terminated" and exit code 143,
    every line written so far whole. Before, the default action ended it silently wherever it
    was, which could leave half a JSON line at the end of the output file."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    output, errors = tmp_path / "out.jsonl", tmp_path / "err.txt"
    process = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--workers", workers, "--no-bleu"],
                               stdin=subprocess.PIPE, stdout=output.open("wb"), stderr=errors.open("wb"),
                               cwd=root, start_new_session=True)
    line = json.dumps({"candidate": "the cat sat on the mat", "references": ["a cat was on the mat"]}) + "\n"
    # 1,000 lines, more than a pool holds in flight, so output starts; the pipe stays open, so
    # batch is then waiting for input or writing output, not finished.
    process.stdin.write(line.encode() * 1000)
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while output.stat().st_size == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert output.stat().st_size, "no output within 60 s"
    os.kill(process.pid, signal.SIGTERM)
    try:
        assert process.wait(timeout=30) == 143
    finally:
        process.kill()
        process.stdin.close()
    written = output.read_text().splitlines()
    assert _lines_said_written(errors.read_text(), "terminated") == len(written)
    assert 0 < len(written) <= 1000
    # m = 4 of 6 on both sides, 2 chunks (cat; on the mat): (4/6) * (1 - 0.5 * (2/4)^3)
    assert {round(json.loads(text)["score"], 12) for text in written} == {round(4 / 6 * (1 - 0.5 * (2 / 4) ** 3), 12)}


def test_sigterm_while_blocked_on_a_full_pipe_keeps_the_line_whole(tmp_path):
    """A tester's find: SIGTERM while `batch` was blocked writing to a pipe nobody read cut the
    output line (Python drops the rest of the buffer when a signal interrupts the write and its
    handler returns). The signals now wait for the lines being written."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    line = json.dumps({"candidate": "the cat sat on a mat", "references": ["the cat sat on the mat"]}) + "\n"
    source = tmp_path / "in.jsonl"
    source.write_text(line * 2000, encoding="utf-8")
    errors = tmp_path / "err.txt"
    with source.open("rb") as stdin:
        process = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--workers", "1"], stdin=stdin,
                                   stdout=subprocess.PIPE, stderr=errors.open("wb"), cwd=root)
        try:
            time.sleep(8)  # long enough to fill the pipe (64 KB, about 12 lines here) and block on it
            os.kill(process.pid, signal.SIGTERM)
            time.sleep(0.5)
            output = process.stdout.read()  # the reader wakes up: the blocked write completes
            assert process.wait(timeout=60) == 143
        finally:
            process.kill()
    assert output and output.endswith(b"\n")
    assert all(json.loads(text)["score"] > 0.8 for text in output.decode().splitlines())
    assert _lines_said_written(errors.read_text(), "terminated") == len(output.decode().splitlines())


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_alone_gives_one_clear_error(tmp_path):
    """A tester's find: SIGTERM to one worker printed "terminated" from the worker (it had the
    CLI's handler) and then a BrokenProcessPool traceback, exit code 1. More lines come after
    the kill, so there is work the dead worker's pool cannot do (before, the 600 lines could
    all be answered before the kill, and a run that lost nothing ended 0: CI, loaded)."""
    import os
    import signal
    import time

    process, workers, errors = _batch_with_workers(tmp_path)
    os.kill(workers[0], signal.SIGTERM)
    time.sleep(0.5)
    try:
        process.stdin.write(_SAME_LINE * 600)
        process.stdin.close()
    except BrokenPipeError:  # batch already stopped on the broken pool
        pass
    assert process.wait(timeout=180) == 1  # a liveness bound: 60 s ran out once with the machine at load 10+
    message = errors.read_text()
    assert message.startswith("error: a worker process ended before its work was done") and "Traceback" not in message
    # where the output ends, as on Ctrl-C (output discarded here: the count is checked in form)
    assert _lines_said_written(message, "error: a worker process ended before its work was done "
                                        "(killed, or out of memory)") >= 0
    assert "terminated" not in message


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_after_every_line_is_answered_does_not_hang_the_end(tmp_path):
    """A worker killed while it waits for work can hold the task pipe's read lock; the other
    worker then never reads the pool's "stop" and the pool's shutdown waited for it forever
    (9-12 of 25 stress runs hung). Nothing is lost, so batch ends as usual: every line, exit 0."""
    import json
    import os
    import signal
    import subprocess

    process, workers, errors = _batch_with_workers(tmp_path, stdout=subprocess.PIPE)
    answers = [process.stdout.readline() for _ in range(600)]
    assert all(json.loads(answer)["score"] > 0.5 for answer in answers)
    os.kill(workers[0], signal.SIGTERM)
    process.stdin.close()
    try:
        assert process.wait(timeout=180) == 0  # a liveness bound
    finally:
        process.kill()
    assert process.stdout.read() == b""
    assert errors.read_text() == ""


_DIES_WHILE_SENDING = r"""
import os, struct, sys, time
from meteor_core import parallel

def dies_while_sending(scorer, item):
    # In a worker: take the result pipe's send lock, write the start of a message, and end,
    # as a worker killed in the middle of sending its results does.
    if item != "die":
        return item
    time.sleep(0.2)  # the other worker's results are under way
    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:
        frame = frame.f_back
    queue = frame.f_locals["result_queue"]
    queue._wlock.acquire()
    os.write(queue._writer.fileno(), struct.pack("!i", 1 << 20) + b"half")
    os._exit(1)

assert parallel._start_method() == "fork"
items = ["a"] * 20 + ["die"] + ["b"] * 200
try:
    for chunk in parallel.map_ordered(None, dies_while_sending, items, workers=2, chunk_size=1):
        pass
except Exception as error:
    print(type(error).__name__, error)
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_worker_that_dies_while_sending_its_results_breaks_the_pool_instead_of_hanging(tmp_path):
    """The full suite hung once in test_a_worker_killed_alone_gives_one_clear_error (180 s),
    then 1 of 40 kills in a stress run: the worker died in the middle of sending its results,
    and CPython's pool waited for the rest of the message forever. Here the worker dies there
    on purpose: the caller gets BrokenProcessPool and the process exits."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "dies.py"
    script.write_text(_DIES_WHILE_SENDING)
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "BrokenProcessPool a worker process ended while sending its results"


def _sleep_forever():
    import time

    time.sleep(3600)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_shutdown_ends_a_worker_left_waiting_after_another_ended():
    """A stress run hung in shutdown 9 times in 25: a worker killed while it held the task
    pipe's read lock left the other waiting for that lock forever, and the pool's manager
    waited for that worker. The pool's internals are stood in for here: a manager that joins
    its workers, one worker that has ended, one that never will."""
    import multiprocessing
    import threading

    context = multiprocessing.get_context("fork")
    ended, stuck = context.Process(target=int, daemon=True), context.Process(target=_sleep_forever, daemon=True)
    ended.start(), stuck.start()
    ended.join()

    class Pool:
        _processes = {ended.pid: ended, stuck.pid: stuck}
        _executor_manager_thread = threading.Thread(target=lambda: [p.join() for p in (ended, stuck)], daemon=True)

        def shutdown(self, wait, cancel_futures):
            assert wait is False and cancel_futures

    pool = Pool()
    pool._executor_manager_thread.start()
    closing = threading.Thread(target=parallel._Watch(pool).shut_down, daemon=True)
    closing.start()
    closing.join(120)  # a liveness bound: without the watch it never returns
    assert not closing.is_alive()
    assert not stuck.is_alive() and stuck.exitcode == -9


@pytest.mark.parametrize("command, said", [("corpus", "no report was written"), ("compare", "no report was written")])
def test_a_dead_worker_message_says_what_was_written(command, said, capsys):
    """A tester's find: corpus, which writes its report at the end, said "the lines written so
    far are whole" when it had written nothing (batch says where its output ends: see
    test_a_worker_killed_alone_gives_one_clear_error)."""
    import argparse

    from meteor_core.cli import _run

    class BrokenProcessPool(Exception):  # matched by name, as concurrent.futures' is
        pass

    def dies(args):
        raise BrokenProcessPool("a child process terminated abruptly")

    assert _run(argparse.Namespace(command=command, func=dies)) == 1
    assert capsys.readouterr().err.rstrip().endswith(said)


def test_sigterm_while_corpus_writes_its_report_leaves_it_whole(tmp_path):
    """corpus prints its report when everything is scored; SIGTERM while that report was
    blocked on a full pipe cut it after the lines written so far. It is now written at once,
    with the signal waiting for the write (as batch's lines)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    count = 3000  # the TSV report, about 60 bytes a row, is larger than a pipe's 64 KB
    (tmp_path / "cand.txt").write_text("the cat sat on a mat\n" * count, encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n" * count, encoding="utf-8")
    errors = tmp_path / "err.txt"
    process = subprocess.Popen([sys.executable, "-m", "meteor_core", "corpus", "--tsv", "--workers", "1",
                                "--candidates", str(tmp_path / "cand.txt"), "--references", str(tmp_path / "ref.txt")],
                               stdout=subprocess.PIPE, stderr=errors.open("wb"), cwd=root)
    try:
        time.sleep(10)  # scored (about 3 s with start-up) and blocked on the full pipe
        os.kill(process.pid, signal.SIGTERM)
        time.sleep(0.5)
        output = process.stdout.read().decode()
        assert process.wait(timeout=60) == 143
    finally:
        process.kill()
    lines = output.splitlines()
    assert len(lines) == 1 + count and output.endswith("\n")  # the header and every row
    # m = 5 of 6 on both sides, 2 chunks (the cat sat on; mat): (5/6) * (1 - 0.5 * (2/5)^3)
    assert {round(float(line.split("\t")[1]), 6) for line in lines[1:]} == {round(5 / 6 * (1 - 0.5 * (2 / 5) ** 3), 6)}
    assert errors.read_text().endswith("terminated\n")


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_worker_signalled_before_its_set_up_ends_silently():
    """The full suite, twice under load: a worker killed right after fork (before its set-up
    replaced the CLI's SIGTERM handler) printed "terminated" before the run's own message. The
    handler now knows the CLI's process: elsewhere it ends the process as by default, silently."""
    import os
    import signal
    from functools import partial

    from meteor_core.cli import _terminated

    handler = partial(_terminated, os.getpid())
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # the forked worker, in the window: the CLI's handler is called
        os.dup2(write_end, 2)
        try:
            handler(signal.SIGTERM, None)
        finally:
            os._exit(99)  # reached only if the handler returned without ending the process
    os.close(write_end)
    _, status = os.waitpid(child, 0)
    written = os.read(read_end, 100)
    os.close(read_end)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM and written == b""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_worker_whose_caller_died_before_its_set_up_still_exits():
    """In CI a worker lived on after its batch was killed: the caller died between the fork and
    the worker's set-up, which then read its parent as init and watched init. The caller's pid
    comes from the caller: a worker set up for a caller already gone exits (code 1) at its
    first check, instead of sleeping its 20 s here."""
    import os
    import subprocess
    import sys
    import time

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    child = os.fork()
    if child == 0:  # the worker: exits by its watch thread (1), or after the sleep (0)
        try:
            parallel._become_worker(gone.pid)
            time.sleep(20)
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1


@pytest.mark.parametrize("mode", ["paper", "nltk", "meteor15"])
def test_a_scorer_pickles_as_what_makes_it(wordnet_reader, mode, request):
    """A tester: scorer.score handed to a process pool (or Dask) failed, pickling a local
    lambda (paper, nltk) or a thread-local (meteor15). A scorer pickles as its config and
    synonym tables; the copy scores the same, in a worker process too."""
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    if mode == "meteor15":
        request.getfixturevalue("meteor15_data")
    tables = (SynonymTable.from_text("sku,article\n", name="shop"),) if mode == "paper" else ()
    config = MeteorConfig(mode=mode, stages=("exact", "stem", "synonym", "table:shop")) if tables else \
        MeteorConfig(mode=mode)
    scorer = Scorer(config, tables)
    pairs = [("the sku sat on the mat", ["the article sat on a mat"]), ("cats ran", ["a cat runs"])]
    copy = pickle.loads(pickle.dumps(scorer))
    assert type(copy) is type(scorer) and copy.config == scorer.config and copy.synonym_tables == scorer.synonym_tables
    expected = [scorer.score(c, refs) for c, refs in pairs]
    assert [copy.score(c, refs) for c, refs in pairs] == expected
    if mode == "paper":
        assert expected[0].best.matches_by_stage()["table:shop"] == 1  # the table's sku ~ article
    with ProcessPoolExecutor(1) as pool:
        assert list(pool.map(scorer.score, *zip(*pairs))) == expected
