"""Scoring on every core: a process pool that keeps input order and bounded memory.

`map_ordered(scorer, function, items, workers)` applies `function(scorer, item)` to each item
and yields the results in input order. With workers > 1, each worker process uses the caller's
Scorer, inherited by fork with its warm word caches, or (forkserver) builds its own from the
caller's configuration and synonym tables; either way the results are the ones the caller's
Scorer gives. Items travel in chunks, and at most `workers * 4` chunks (and, given a size
function, 8 MB of input per worker) are in flight: the input is read only as fast as results
are taken, so a stream of any length, with lines of any size, runs in constant memory.
`function` must be a module-level function (it is sent by name).

Start method: fork when the calling process has a single thread (the CLI: workers start in
milliseconds with WordNet already loaded; wordnet.py reopens its files in the child), otherwise
forkserver (forking a threaded process such as the Streamlit server can deadlock a child).
"""
from __future__ import annotations

import multiprocessing
import operator
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout  # the builtin from 3.11, its own class before
from itertools import islice
from typing import Callable, Iterable, Iterator, Optional, Sequence, TypeVar

from .errors import MeteorInputError, MeteorParameterError
from .references import corpus_pairs, read_references
from .result import SkippedSegment, nothing_scored

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Items per task sent to a worker: large enough that inter-process traffic is a small part of
#: the work (a segment takes about 1 ms), small enough to keep every worker busy.
CHUNK_SIZE = 64
#: Chunks in flight per worker: bounds memory whatever the input length.
CHUNKS_PER_WORKER = 4
#: With a `size` function (batch: the bytes of a line; score_corpus: a segment's text), a chunk
#: also closes once it holds this much: a long segment takes far longer than a short one (6
#: lines of 1,700 tokens made one chunk, and one worker of two scored them all in 29 s: a
#: tester), while 64 WMT lines hold about 10 KB. And no more chunks are sent while
#: BYTES_IN_FLIGHT_PER_WORKER per worker is in flight: 8 chunks of 64 lines of up to 16 MB
#: each could otherwise hold 8 GB (a helper measured 2.9 GB for 70 lines of 15 MB on 2 workers).
CHUNK_BYTES = 16 << 10
BYTES_IN_FLIGHT_PER_WORKER = 8 << 20

_worker_scorer = None


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most worker processes a run may start: 4 per core (at least 8). More never score
    faster, and each is a process of its own (1,000 were started on 2 cores, and 100,000 hung
    the command for a minute: a tester)."""
    return max(8, 4 * available_cores())


def resolve_workers(workers: Optional[int]) -> int:
    """None or 0: every core this process may use; otherwise a positive count up to max_workers()."""
    if workers is None or workers == 0:
        return available_cores()
    if not isinstance(workers, bool):
        try:  # any integer type (numpy's too, as MeteorConfig takes them: a tester)
            workers = operator.index(workers)
        except TypeError:
            pass
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise MeteorParameterError(f"workers must be a positive integer, or 0 or None for all cores, got {workers!r}")
    if workers > max_workers():
        raise MeteorParameterError(f"workers must be at most {max_workers()} on this machine (4 per core: more "
                                   f"processes than cores do not score faster), got {workers}")
    return workers


def _start_method() -> str:
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


#: How often a worker checks that the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def _exit_with_parent(parent: int) -> None:
    """A worker waits for tasks in a blocking queue read; if the caller is killed (SIGTERM or
    SIGKILL to its process alone, as a supervisor does), nothing would wake it and it would
    live on, orphaned. So a daemon thread exits the worker once its parent has changed."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _become_worker(caller: Optional[int]) -> None:
    # Ctrl-C reaches every process of the terminal's group. The caller handles it (stops, shuts
    # the pool down, says "interrupted"); a worker that took it too printed a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the CLI's SIGTERM handler (which says "terminated"): a worker
    # stopped on its own ends quietly, and the caller reports the broken pool once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # The parent to watch is the caller's pid taken in the caller (fork, spawn): read here, a
    # caller killed between the fork and this set-up was already replaced by init, and the
    # worker watched init and lived on (1 run in CI, the machine loaded). Under forkserver the
    # parent is the server, which ends with the caller: caller None, read here.
    parent = os.getppid() if caller is None else caller
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()


def _init_worker(config, synonym_tables, caller: Optional[int]) -> None:
    global _worker_scorer
    from .scorer import Scorer

    _become_worker(caller)
    _worker_scorer = Scorer(config, synonym_tables)


def _adopt_scorer(scorer, caller: Optional[int]) -> None:
    """Under fork: the caller's own Scorer, inherited with the process, so its word caches
    (stems, synonym sets) are as warm as the caller's instead of empty."""
    global _worker_scorer
    _become_worker(caller)
    _worker_scorer = scorer


def _run_chunk(function: Callable, chunk: list) -> list:
    return [function(_worker_scorer, item) for item in chunk]


def _take(iterator, chunk_size: int, size: Optional[Callable[[Item], int]],
          ready: Optional[Callable[[], bool]] = None) -> tuple[list, int]:
    """The next chunk and its size: chunk_size items, or fewer once they reach CHUNK_BYTES or
    the next item is not ready (see map_ordered)."""
    if size is None and ready is None:
        return list(islice(iterator, chunk_size)), 0
    chunk, total = [], 0
    for item in iterator:
        chunk.append(item)
        if size is not None:
            total += size(item)
        if len(chunk) >= chunk_size or total >= CHUNK_BYTES or (ready is not None and not ready()):
            break
    return chunk, total


def map_ordered(scorer, function: Callable[[object, Item], Result], items: Iterable[Item],
                workers: int = 1, chunk_size: int = CHUNK_SIZE,
                size: Optional[Callable[[Item], int]] = None,
                ready: Optional[Callable[[], bool]] = None) -> Iterator[list[Result]]:
    """Yield lists of results (one list per chunk of items), in input order. Lists rather than
    single results so a caller can write and flush once per chunk. `size`: an item's weight
    in bytes, when items can be large (see CHUNK_BYTES). `ready`: False when taking the next
    item would wait for input; the chunk in hand is then sent and every result handed back
    before reading on, so a writer that waits for each answer before its next line gets it
    (batch on a pipe; without it the pool waited for 64 lines that never came)."""
    if workers <= 1:  # in this process, one item at a time (interactive use sees each result at once)
        for item in items:
            yield [function(scorer, item)]
        return
    method = _start_method()
    caller = None if method == "forkserver" else os.getpid()  # see _become_worker
    if method == "fork":  # the child starts as a copy of this process: nothing is pickled
        initializer, initargs = _adopt_scorer, (scorer, caller)
    else:
        initializer, initargs = _init_worker, (scorer.config, scorer.synonym_tables, caller)
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=initializer,
                               initargs=initargs)
    watch = _Watch(pool)
    abandoned = True  # until the input has ended and every result was handed back
    try:
        pending: deque = deque()  # (future, bytes)
        iterator = iter(items)
        window = workers * CHUNKS_PER_WORKER
        byte_window = workers * BYTES_IN_FLIGHT_PER_WORKER
        in_flight = 0
        while True:
            chunk, weight = _take(iterator, chunk_size, size, ready)
            if chunk:
                pending.append((pool.submit(_run_chunk, function, chunk), weight))
                in_flight += weight
            # Hand back whatever is finished at the head; block only when the window is full
            # (chunks or bytes), the input has ended, or no input is waiting.
            while pending and (pending[0][0].done() or len(pending) >= window or in_flight > byte_window
                               or not chunk or (ready is not None and not ready())):
                future, weight = pending.popleft()
                in_flight -= weight
                yield watch.result(future)
            if not chunk:
                abandoned = False
                return
    finally:
        # Stopped early (Ctrl-C, an error, the caller closing the generator): no result is
        # wanted any more, so the workers are ended first, not asked to stop. A second Ctrl-C
        # during an orderly shutdown left them waiting for tasks, and the interpreter's exit
        # joined them forever (a tester: 3 of 3 double Ctrl-C's on 2 workers hung).
        if watch.stuck or abandoned:
            watch.unblock()
        watch.shut_down()


#: How often a caller waiting for a result looks for a worker that died unnoticed (_Watch).
WATCH_SECONDS = 1.0


class _Watch:
    """A pool's results, watched for a worker that died without the pool noticing.

    A worker killed while it sends its result (SIGTERM or SIGKILL to it alone, the OOM killer)
    leaves half a message in the result pipe: the pool's manager thread then waits for the rest
    forever, the other workers wait for the send lock the dead one held, and batch hung (1 in
    40 kills in a stress run; CPython 3.11's ProcessPoolExecutor). Otherwise a pool notices a
    death within milliseconds, so one that has not after WATCH_SECONDS more is stuck: the
    caller gets the BrokenProcessPool the pool would have given, and unblock() lets the pool
    shut down. Reads the pool's private `_processes` and `_result_queue` (stable since 3.2);
    without them there is no watch, as before."""

    def __init__(self, pool: ProcessPoolExecutor):
        self.pool = pool
        self.stuck = False

    def result(self, future):
        dead_since = None
        while True:
            try:
                return future.result(timeout=WATCH_SECONDS)
            except FutureTimeout:
                pass
            if not self._a_worker_ended():
                dead_since = None
            elif dead_since is None:
                dead_since = time.monotonic()
            elif time.monotonic() - dead_since >= WATCH_SECONDS:
                from concurrent.futures.process import BrokenProcessPool

                self.stuck = True
                raise BrokenProcessPool("a worker process ended while sending its results")

    def _processes(self) -> list:
        return list((getattr(self.pool, "_processes", None) or {}).values())

    def _a_worker_ended(self) -> bool:
        """A worker's sentinel is ready (nothing is reaped or waited for)."""
        from multiprocessing.connection import wait

        try:
            sentinels = [process.sentinel for process in self._processes()]
        except ValueError:  # a process object already closed: the pool is shutting down
            return False
        return bool(sentinels) and bool(wait(sentinels, timeout=0))

    def shut_down(self) -> None:
        """pool.shutdown(wait=True), except that workers left waiting forever are ended. A worker
        killed while it waited for a task held the task pipe's read lock: the other worker then
        waits for that lock forever, never reads the pool's "stop", and shutdown waited for it
        forever (9 of 25 kills in a stress run with the input closed right after). Once some
        worker has ended and another is still there WATCH_SECONDS later, the rest are ended too:
        by now every result the caller wanted has been taken, or the run is being abandoned."""
        manager = getattr(self.pool, "_executor_manager_thread", None)
        processes = self._processes()
        self.pool.shutdown(wait=manager is None, cancel_futures=True)
        if manager is None:
            return
        from multiprocessing.connection import wait

        ended_since = None
        while True:
            manager.join(WATCH_SECONDS)
            if not manager.is_alive():
                return
            try:
                ended = wait([process.sentinel for process in processes], timeout=0)
            except (ValueError, OSError):  # closed by the pool meanwhile: it is finishing
                continue
            if not ended:
                continue
            if ended_since is None:
                ended_since = time.monotonic()
            elif time.monotonic() - ended_since >= WATCH_SECONDS:
                _kill(processes)

    def unblock(self) -> None:
        """End the workers still there (one may wait forever for the lock the dead one held),
        then close this process's copy of the result pipe's write end: the manager's read of
        the half message ends (end of file) and the pool breaks as for any dead worker. Without
        it, shutdown, and the interpreter's exit after it, waited forever."""
        _kill(self._processes())
        writer = getattr(getattr(self.pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            try:
                writer.close()
            except OSError:
                pass


def _kill(processes) -> None:
    for process in processes:
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):  # already gone, or closed
            pass


def score_or_error(scorer, pair):
    """(candidate, references) -> MultiReferenceResult, or the MeteorInputError it raised."""
    try:
        return scorer.score(*pair)
    except MeteorInputError as error:
        return error


#: Below this many segments a pool costs more to start than it saves: forked workers start in
#: milliseconds; forkserver workers (threaded callers: the app) import everything and load
#: WordNet again, about 2 s.
MIN_PARALLEL_SEGMENTS = 200
MIN_PARALLEL_SEGMENTS_FRESH_WORKERS = 3000
#: Fresh (forkserver) workers only from this many: every result travels back pickled, and the
#: caller unpickling and keeping it costs about half of scoring it, so two workers never repay
#: the 2 s start. Measured in a threaded process on 2 cores (analyze_corpus, WMT22 de-en):
#: 3,968 segments 4.0-5.2 s in-process vs 6.7-6.9 s on 2 fresh workers; 11,904 segments 14.5 s
#: vs 16.1 s.
MIN_FRESH_WORKERS = 4


def score_segments(scorer, candidates: Sequence, references: Sequence, workers: Optional[int] = 1) -> Iterator:
    """scorer.score for each (candidate, references), in order, on `workers` processes (None:
    all cores): a MultiReferenceResult or the MeteorInputError of each segment."""
    workers = resolve_workers(workers)
    if _start_method() == "fork":
        if len(candidates) < MIN_PARALLEL_SEGMENTS:
            workers = 1
    elif len(candidates) < MIN_PARALLEL_SEGMENTS_FRESH_WORKERS or workers < MIN_FRESH_WORKERS:
        workers = 1
    pairs = zip(candidates, references)
    if workers > 1:
        pairs = (_picklable(pair, scorer.config.max_references) for pair in pairs)
    for chunk in map_ordered(scorer, score_or_error, pairs, workers, size=_text_size):
        yield from chunk


def _text_size(pair: tuple) -> int:
    """About how many bytes of text a segment holds (a token counted as 6), for chunking; an
    iterator is not read (it is counted as nothing)."""
    candidate, references = pair
    if isinstance(references, (str, list, tuple)):
        sides = [candidate, *references] if isinstance(references, (list, tuple)) else [candidate, references]
    else:
        sides = [candidate]
    return sum(len(side) if isinstance(side, str) else 6 * len(side) if isinstance(side, (list, tuple)) else 0
               for side in sides)


def _picklable(pair: tuple, max_references: int) -> tuple:
    """A segment whose candidate, references or one reference is a generator, as the pool can
    send it (a generator cannot be pickled: 1 worker scored what 2 refused with a TypeError, a
    tester), read as score() reads it: the references at most one past the limit, and still an
    iterator, so that the messages are the same on any number of workers."""
    candidate, references = pair
    if isinstance(candidate, Iterator):
        candidate = list(candidate)
    if isinstance(references, Iterator):
        references = iter(read_references(references, max_references))
    elif isinstance(references, (list, tuple)) and any(isinstance(r, Iterator) for r in references):
        references = [list(r) if isinstance(r, Iterator) else r for r in references]
    return candidate, references


def score_corpus_segments(scorer, candidates, references, progress: Optional[Callable[[int, int], None]],
                          skip_invalid: bool, workers: Optional[int]) -> tuple[list, list[int], list]:
    """What every mode's score_corpus shares: the inputs checked (references.corpus_pairs), the
    segments scored in order, and (results, their indices, SkippedSegment per segment left
    out); a segment that cannot be scored stops the run unless skip_invalid."""
    candidates, references = corpus_pairs(candidates, references)
    segments, indices, skipped = [], [], []
    for index, result in enumerate(score_segments(scorer, candidates, references, workers)):
        if isinstance(result, MeteorInputError):
            if not skip_invalid:
                raise MeteorInputError(f"segment {index + 1}: {result}") from None
            skipped.append(SkippedSegment(index, str(result)))
        else:
            segments.append(result)
            indices.append(index)
        if progress is not None:
            progress(index + 1, len(candidates))
    if not segments:
        raise nothing_scored(skipped)
    return segments, indices, skipped
