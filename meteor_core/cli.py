"""python -m meteor_core {score,batch,corpus,compare,setup-wordnet,languages,presets}"""
from __future__ import annotations

import argparse
import csv
import errno
import io
import json
import os
import re
import select
import signal
import stat
import sys
import threading
import time
import unicodedata
from functools import partial
from typing import Callable, Iterator, Optional, Sequence

from . import sacrebleu_view
from .errors import MeteorInputError, MeteorParameterError, is_length_refusal, is_token_limit_reason
from .params import (BUILTIN_STAGES, METEOR15_STAGES, MODES, OBJECTIVES, PRESETS, SMOOTHING_METHODS, MeteorConfig,
                     number, parse_weights, refuse_user_synonym_tables, resolve_params, stage_names)
from .report import explain, result_to_dict, result_to_json
from .references import (EMPTY_LIST, RepeatedKey, json_error_reason, json_kind as _json_kind, json_line,
                         all_blank, entry_names, references_to_score)
from .scorer import Scorer
from .stages import SynonymTable
from .tokenize import TOKENIZERS


def _add_shared(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, default="paper",
                        help="paper (2005 definition), nltk (nltk's meteor_score), meteor15 (the METEOR 1.5 jar, "
                             "-l en -norm)")
    parser.add_argument("--objective", choices=OBJECTIVES,
                        help="paper mode's tie-break after maximum matches: fewest crossings (default) or fewest "
                             "chunks")
    parser.add_argument("--stages", help=f"comma-separated; default {','.join(BUILTIN_STAGES)} "
                                         f"(meteor15: the jar's -m, default {','.join(METEOR15_STAGES)})")
    parser.add_argument("--preset", choices=sorted(PRESETS),
                        help="parameter set; default 2005 (nltk mode: nltk, meteor15 mode: meteor-1.5-en)")
    parser.add_argument("--alpha", type=_number)
    parser.add_argument("--beta", type=_number)
    parser.add_argument("--gamma", type=_number)
    parser.add_argument("--delta", type=_number,
                        help="meteor15: weight of content vs function words (the jar's 4th -p value, default 0.75)")
    parser.add_argument("--weights", help="meteor15: module weights like the jar's -w, one per module "
                                          "(default: the first of 1.0 0.6 0.8 0.6 by position)")
    parser.add_argument("--lang", default="en", help="language code (python -m meteor_core languages)")
    parser.add_argument("--tokenizer", choices=TOKENIZERS, default="default",
                        help="default: words and punctuation (characters for zh/ja); segmenter: jieba (zh) / janome (ja); "
                             "nltk: nltk's word_tokenize, as Hugging Face evaluate's meteor (English)")
    parser.add_argument("--keep-case", action="store_true")
    parser.add_argument("--drop-punctuation", action="store_true")
    parser.add_argument("--zero-penalty-single-chunk", action="store_true",
                        help="METEOR 1.5 convention: no penalty when every word matches in one chunk")
    parser.add_argument("--synonyms", metavar="FILE", action="append", default=[],
                        help="CSV/TSV synonym table (one group per row), added as a stage after the built-in ones")
    parser.add_argument("--bleu-smoothing", choices=SMOOTHING_METHODS, default="none")
    parser.add_argument("--node-budget", type=int,
                        help=f"paper mode's search: work units per stage before it stops, flagged not proven optimal "
                             f"(default {MeteorConfig().node_budget:,})")
    parser.add_argument("--max-tokens", type=int, default=MeteorConfig().max_tokens,
                        help="tokens per side at most (default %(default)s; a longer side is refused: documents "
                             "and paragraphs may need more, at more time and memory per pair); the limit of "
                             "200,000 characters per side grows with it, 100 a token")


def _scorer(args) -> Scorer:
    params = resolve_params(args.mode, args.preset, args.alpha, args.beta, args.gamma, args.delta)
    if args.synonyms:
        refuse_user_synonym_tables(args.mode)
    tables = [_synonym_table(path) for path in args.synonyms]
    stages = None
    if args.stages is not None:
        stages = stage_names(args.stages, "--stages")
    if args.mode == "paper" and tables:
        stages = (stages or BUILTIN_STAGES) + tuple(f"table:{t.name}" for t in tables)
    if args.weights is not None and args.mode != "meteor15":
        raise MeteorParameterError("--weights sets METEOR 1.5 module weights: use --mode meteor15")
    search = [name for name, value in (("--objective", args.objective), ("--node-budget", args.node_budget))
              if value is not None]
    if search and args.mode != "paper":
        # Said, not refused: a script may pass the same options to every mode (they were silently
        # ignored: a tester; the signature's obj: field was the only trace).
        how = "aligns greedily, as nltk does" if args.mode == "nltk" else "aligns as the jar does"
        print(f"note: {' and '.join(search)} steer{'s' if len(search) == 1 else ''} paper mode's search; "
              f"{args.mode} mode {how}, so {'it is' if len(search) == 1 else 'they are'} not used", file=sys.stderr)
    defaults = MeteorConfig()
    config = MeteorConfig(
        mode=args.mode, objective=args.objective or defaults.objective, stages=stages, params=params,
        tokenizer=args.tokenizer, keep_case=args.keep_case, drop_punctuation=args.drop_punctuation,
        zero_penalty_single_chunk=args.zero_penalty_single_chunk,
        node_budget=defaults.node_budget if args.node_budget is None else args.node_budget,
        max_tokens=args.max_tokens,
        bleu_smoothing=args.bleu_smoothing, language=args.lang,
        weights=parse_weights(args.weights) if args.weights is not None else None)
    return Scorer(config, tables)


def _synonym_table(path: str) -> SynonymTable:
    try:
        return SynonymTable.from_file(path)
    except csv.Error as error:  # e.g. a field over the csv module's 128 KB limit
        raise MeteorInputError(f"synonym table {path}: {error}") from None


def _warn_missing_resources(scorer: Scorer) -> None:
    """A missing resource is said on stderr once, not only inside each result's signature:
    stages missing for the same reason in one line (METEOR 1.5's synonym and paraphrase modules
    gave the same long warning twice, a tester), and nltk's sentence model for its tokenizer."""
    stages_by_reason: dict[str, list[str]] = {}
    for status in scorer.stage_status:
        if not status.available:
            stages_by_reason.setdefault(status.message, []).append(status.stage)
    for reason, stages in stages_by_reason.items():
        named = f"{stages[0]} stage" if len(stages) == 1 else f"{' and '.join(stages)} stages"
        print(f"warning: {named} unavailable: {reason}", file=sys.stderr)
    if scorer.config.tokenizer == "nltk":
        from .tokenize import punkt_available

        if not punkt_available():  # said only as "nltk-one-sentence" in the signature (the CLI attacker)
            print("warning: nltk's sentence model (punkt_tab) is not installed: the nltk tokenizer takes each text "
                  "as one sentence, so a full stop inside a text stays on its word (\"came.\" in \"Smith came. He "
                  "sat.\"), unlike word_tokenize with the model; nltk.download(\"punkt_tab\") installs it",
                  file=sys.stderr)


def _json_line(out: dict) -> str:
    """One line of JSON that is always valid UTF-8 (a lone surrogate quoted in a message is
    written as its \\u escape)."""
    return _valid_utf8(lambda dumps: dumps(out))


def _result_line(result, with_bleu: bool = True, given=None) -> str:
    """_json_line(result_to_dict(result, with_bleu=with_bleu, given=given)), encoded faster (result_to_json)."""
    return _valid_utf8(lambda dumps: result_to_json(result, dumps, with_bleu, given))


# json.dumps with these options, without making an encoder per call (it does for any option
# not its default; a line is encoded in a dozen parts). check_circular off: what is encoded is
# a tree built for this line (a quarter of the dump's time).
_dumps_utf8 = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
_dumps_ascii = json.JSONEncoder(ensure_ascii=True, check_circular=False).encode


def _valid_utf8(encode: Callable[[Callable[[dict], str]], str]) -> str:
    """encode(dumps) with non-ASCII characters kept, or with every one escaped when the text
    holds a lone surrogate (not encodable as UTF-8)."""
    line = encode(_dumps_utf8)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = encode(_dumps_ascii)
    return line


def _cmd_score(args) -> int:
    scorer = _scorer(args)
    result = scorer.score(args.candidate, args.reference)
    # through _write_lines, as every command's output: a failed write is one line, not a traceback
    _write_lines(sys.stdout, (_result_line(result) if args.json else explain(result)) + "\n")
    return 0


#: A batch line longer than this is reported and skipped without being held in memory whole
#: (each text is limited to tokenize.max_chars characters anyway: 200,000 by default).
MAX_LINE_BYTES = 16 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class _LineTooLong(bytes):
    """Stands in for a line over MAX_LINE_BYTES (only its length is kept)."""


def _numbered_lines(stream) -> Iterator[tuple[int, bytes]]:
    """(line number, raw bytes) for every line of a binary stream, split on b"\\n" only (a
    U+2028 or a lone CR inside a line is data, not a line end); memory bounded per line."""
    number, limit = 0, MAX_LINE_BYTES
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            size = len(raw)
            while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                raw = stream.readline(limit)
                size += len(raw)
            yield number, _LineTooLong(str(size - raw.endswith(b"\n")).encode())
            continue
        yield number, raw


class _LineProblem(Exception):
    pass


def _parse_batch_line(raw: bytes) -> tuple[str, list]:
    if isinstance(raw, _LineTooLong):
        raise _LineProblem(f"{int(raw):,} bytes is over the {MAX_LINE_BYTES:,}-byte line limit")
    if raw.startswith(_BOM):
        raw = raw[len(_BOM):]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        # counted from 1, as corpus counts it (a tester saw both)
        raise _LineProblem(f"not UTF-8 ({error.reason} at byte {error.start + 1} of the line)") from None
    if not text.strip():
        raise _LineProblem("empty line")
    try:
        # Without its line end: an error at the end of the line is then at its last column,
        # not at "column 1" of a line json thinks comes after it.
        item = json_line(text.removesuffix("\n").removesuffix("\r"))
    except RepeatedKey as error:
        raise _LineProblem(str(error)) from None
    except json.JSONDecodeError as error:
        # Lines that end in CR alone (classic Mac) are one line here, which json read as
        # "Extra data" (a tester): said, with what to do.
        cr_only = "\r" in text.removesuffix("\n").removesuffix("\r")
        raise _LineProblem(f"not valid JSON ({json_error_reason(error)})"
                           + ("; the line holds CR characters: JSON Lines end each line with LF (\\n), "
                              "convert the file's line ends" if cr_only else "")) from None
    except RecursionError:
        raise _LineProblem("not usable JSON (nested too deeply)") from None
    except ValueError as error:  # e.g. an integer over Python's 4,300-digit conversion limit
        raise _LineProblem(f"not usable JSON ({str(error).split(';')[0]})") from None
    if not isinstance(item, dict):
        raise _LineProblem(f'expected an object {{"candidate": str, "references": [str, ...] or str}}, '
                           f'not {_json_kind(item)}')
    if "candidate" not in item:
        raise _LineProblem('"candidate" is missing: give the output to score as a string')
    if not isinstance(item["candidate"], str):
        # said as precisely as a bad "references" (every kind got one generic message: a tester)
        raise _LineProblem('"candidate" must be a string (tokens: joined by spaces), '
                           f'not {_json_kind(item["candidate"])}')
    # "reference" alone is read as corpus reads such a line (batch said "references" is missing: a tester)
    key = "references" if "references" in item or "reference" not in item else "reference"
    if key not in item:
        raise _LineProblem('"references" is missing: give a string or a list of strings')
    refs = item.get(key)
    if isinstance(refs, str) or refs is None:  # one reference (null: an empty one), as corpus reads the line
        refs = [refs]
    if refs == []:  # worded as corpus words it (it said "at least one reference is needed": a tester)
        raise _LineProblem(f'"{key}" {EMPTY_LIST}')
    if not isinstance(refs, list) or not all(r is None or isinstance(r, str) for r in refs):
        raise _LineProblem(f'"{key}" must be a string or a list of strings (in a list, null or "" is a missing one), '
                           f'not {_json_kind(refs)}')
    return item["candidate"], ["" if r is None else r for r in refs]


#: Said after a token-limit refusal: the library's message cannot name the option (a tester
#: with 2,606-token documents found no way past "the limit is 2000 per side").
MAX_TOKENS_HINT = " (--max-tokens raises it)"


def with_hint(error: Exception) -> str:
    # Also a corpus of which nothing could be scored (a 40,000-token document said only "the
    # limit is 2,000").
    return f"{error}{MAX_TOKENS_HINT}" if is_length_refusal(error) else str(error)


def _reason_with_hint(reason: str) -> str:
    """A corpus's not-scored reason (text by then): the same hint after a token-limit refusal."""
    return reason + MAX_TOKENS_HINT if is_token_limit_reason(reason) else reason


def batch_line(scorer: Scorer, numbered: tuple[int, bytes], with_bleu: bool = True) -> str:
    """One input line (raw bytes) -> exactly one output line: the result, or {"error": ...}.
    Runs in the worker processes of --workers, so it is a module-level function. A blank or
    null reference beside others is left out, as corpus files and frames leave it out (a whole
    line was lost to "reference 1 is empty": a tester); the output keeps the positions as given
    (null in "references", best_reference counting it)."""
    number, raw = numbered
    try:
        candidate, references = _parse_batch_line(raw)
        if scorer.config.mode != "meteor15" and all_blank(references):
            # said of every entry, named as the blank-reference warning names one (it said "reference
            # 1 is empty (no tokens after tokenization)" of ["", null]: a tester)
            raise _LineProblem(f"{entry_names(range(len(references)))} are all blank or null: no reference to score "
                               "against")
        kept, positions = references_to_score(references, scorer.config.mode)
        given = None if len(kept) == len(references) else (len(references), positions)
        return _result_line(scorer.score(candidate, kept), with_bleu, given)
    except (_LineProblem, MeteorInputError, MeteorParameterError) as error:
        out = {"error": f"line {number}: {with_hint(error)}"}
    except Exception as error:  # a bug costs this line, never the lines after it
        out = {"error": f"line {number}: internal error ({type(error).__name__}: {error}); please report it"}
    return _json_line(out)


class _StreamProgress:
    """Lines done and rate on stderr, twice a second, only when stderr is a terminal."""

    def __init__(self, label: str, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = _isatty(self.stream)
        self.label = label
        self.start = self.last = time.monotonic()
        self.done = 0

    def add(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and now - self.last >= 0.5:
            self.last = now
            self.stream.write(f"\r{self.label}: {self.done:,} lines ({self.done / (now - self.start):,.0f}/s)")
            self.stream.flush()

    def close(self) -> None:
        """The last count on its own line, once (a second close writes nothing)."""
        if self.enabled and self.last != self.start:
            self.stream.write(f"\r{self.label}: {self.done:,} lines in {time.monotonic() - self.start:.1f} s\n")
            self.stream.flush()
        self.enabled = False


class _Written:
    """How many output lines batch has written whole, so that a message on Ctrl-C or SIGTERM
    says exactly where the output ends. The signals are blocked in the main thread while lines
    are written, but Python runs its handlers in the main thread whichever thread received the
    signal, between any two steps: one ran after a write and before its count (a test: 10
    lines said, 11 written). So while `writing`, the CLI's handlers note the signal
    (`stop`, _CtrlC.seen) and _write_lines acts on it once the lines are out and counted."""

    __slots__ = ("lines", "writing", "stop")

    def __init__(self):
        self.lines = 0
        self.writing = False
        self.stop: Optional[Callable[[], None]] = None  # a termination that waits for the write

    def where(self, stopped: str) -> str:
        """The message of a batch that stopped: output line k answers input line k."""
        if not self.lines:
            return f"{stopped}: no line written"
        return (f"{stopped}: {self.lines:,} line(s) written, each whole, for input lines 1-{self.lines:,}; "
                f"input from line {self.lines + 1:,} on was not scored (tail -n +{self.lines + 1} gives it)")


def _broken_pool(error: Exception) -> bool:
    """concurrent.futures' BrokenProcessPool, matched by name: importing it would load
    multiprocessing (about 20 ms) into every command's start-up."""
    return type(error).__name__ == "BrokenProcessPool"


#: Said when a pool's worker died (concurrent.futures' BrokenProcessPool).
WORKER_DIED = "error: a worker process ended before its work was done (killed, or out of memory)"


def _terminated(owner: int, signum, frame, written: Optional[_Written] = None) -> None:
    """SIGTERM (a supervisor, `kill`, a job timeout): "terminated", exit code 143. The default
    action ended the process silently wherever it was. os._exit, not an exception: an `except
    Exception` or a __del__ on the way swallowed one and the run went on. Whole lines only:
    batch's writes block the signal (_write_lines), and everything written before was
    flushed. `owner`: the CLI's process. A pool worker forked from it has this handler until
    its set-up replaces it; signalled in that window it ends as by default, silently (it
    printed "terminated" too, and the run's own message came after)."""
    if os.getpid() != owner:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    if written is not None and written.writing:  # see _Written: ends once the lines are counted
        written.stop = partial(_terminated, owner, signum, None, written)
        return
    try:
        message = "terminated" if written is None else written.where("terminated")
        os.write(2, message.encode() + b"\n")  # not through sys.stderr: its buffer may be mid-write
    finally:
        os._exit(143)  # 128 + SIGTERM, what a shell reports for a terminated command


class _CtrlC:
    """The CLI's SIGINT handler: KeyboardInterrupt, as Python's own, and a note that it came.
    A KeyboardInterrupt raised inside a __del__ (the regex package's, while patterns compile)
    is discarded by Python: a tester's batch then wrote all 5,000 lines and ended 0 (3 of 40
    Ctrl-C's in the first second, 2 workers). With the note, the next write (or the end of
    the run) raises it again."""

    def __init__(self):
        self.seen = False
        self.stopping = False  # the command has ended and the process is exiting (see main)
        self.written: Optional[_Written] = None  # batch's count of lines written (see _Written)

    def __call__(self, signum, frame):
        self.seen = True
        if self.written is not None and self.written.writing:
            return  # the note stands: _write_lines raises it once the lines are out and counted
        if self.stopping:
            # Ctrl-C again while the interpreter shuts down (it joins the pool's queue threads at
            # exit): a KeyboardInterrupt there printed a traceback after "interrupted" (1 of 884
            # test runs, 4 Ctrl-C's 30 ms apart). The user wants out: out, with the same code.
            os._exit(130)
        if _in_finalizer(frame):
            # Raised in a __del__, Python would print it as an ignored exception's traceback and
            # drop it (2 of 40 runs of 2-6 Ctrl-C's with a pool); the note stands, and the next
            # write (or the end of the run) raises it.
            return
        raise KeyboardInterrupt


def _in_finalizer(frame, depth: int = 8) -> bool:
    """Whether `frame` or one of the `depth` frames that called it is a __del__ method."""
    for _ in range(depth):
        if frame is None:
            return False
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _unraisable(report_as_python_does, unraisable) -> None:
    """sys.unraisablehook while the CLI handles Ctrl-C: a KeyboardInterrupt raised where
    Python cannot pass it on (a finalizer, a weakref callback such as multiprocessing's
    Finalize, an atexit function) is already noted (_CtrlC.seen) and acted on at the next
    write or the end; Python's report of it, a traceback, is left out (1 of 60 runs of 2-6
    Ctrl-C's with a pool printed one from multiprocessing's close_fds). Anything else is
    reported as before."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt) and _interrupted():
        return
    report_as_python_does(unraisable)


def _interrupted() -> bool:
    handler = signal.getsignal(signal.SIGINT)
    return isinstance(handler, _CtrlC) and handler.seen


def _write_lines(stream, text: str, written: Optional[_Written] = None) -> None:
    """Write and flush whole lines with SIGTERM and SIGINT blocked; a signal that came meanwhile
    is handled right after. A signal interrupting a write to a full pipe made Python drop the
    rest of the buffer (a tester saw the line cut), so a reader that stops reading keeps the
    writer waiting; SIGKILL still ends it. A Ctrl-C that was lost (_CtrlC) stops it first.
    `written` counts the lines once they are out, before a signal that came is acted on."""
    if _interrupted():
        raise KeyboardInterrupt
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT}) \
        if hasattr(signal, "pthread_sigmask") else None
    if written is not None:
        written.writing = True
    size = _file_size(stream) if written is not None else None
    try:
        _write_all(stream, text)
        if written is not None:
            written.lines += text.count("\n")
    except BrokenPipeError:
        raise  # the reader went away: _run stops quietly
    except OSError as error:
        # Any failed write (a full disk, EIO, a quota...), said in one line with where the output
        # ends; only full disks were caught, and EIO (batch > /proc/version) printed a traceback.
        if written is not None and size is not None:
            # Lines of this write that reached a file whole: with 2 workers a write holds many,
            # and "no output line was written whole" was said of a file holding 10 (a tester)
            after = _file_size(stream)
            if after is not None and after > size:
                encoded = text.encode(getattr(stream, "encoding", None) or "utf-8", "replace")
                written.lines += encoded[:after - size].count(b"\n")
        raise OutputNotWritten(error, written) from error
    finally:
        if written is not None:
            written.writing = False
        if blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if written is not None and written.stop is not None:
        written.stop()  # SIGTERM came while writing: ends the process
    if _interrupted():
        raise KeyboardInterrupt  # Ctrl-C came while writing


def _file_size(stream) -> Optional[int]:
    """The size of the regular file `stream` writes to, None for anything else (a pipe, a terminal)."""
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def _write_all(stream, text: str) -> None:
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stream (a test's StringIO)
        stream.write(text)
        stream.flush()
        return
    # Bytes, with the count checked: when the reader closes a pipe mid-write, the buffered
    # writer returns a partial count and the text layer drops the rest without an error
    # (a 200 KB corpus report cut at 64 KB, exit 0). Writing the rest raises
    # BrokenPipeError, which the CLI reports as a closed pipe (exit 141).
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    while data:
        data = data[binary.write(data):]
    binary.flush()


class OutputNotWritten(Exception):
    """A write of the output failed (not a closed pipe): the OS error, and batch's count of the
    lines written whole before it (None for the other commands, which write their report at once)."""

    def __init__(self, error: OSError, written: Optional["_Written"]):
        super().__init__(error.strerror or str(error))
        self.error, self.lines = error, None if written is None else written.lines


def _report_buffer() -> tuple[io.StringIO, Callable[..., None]]:
    """(buffer, print into it): corpus and compare gather their report and write it with one
    _write_lines, so SIGTERM while it is written leaves the report whole (it could cut it)."""
    report = io.StringIO()
    return report, partial(print, file=report)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _line_bytes(numbered: tuple[int, bytes]) -> int:
    return len(numbered[1])


def _input_waiting(stream) -> Optional[Callable[[], bool]]:
    """For the pool: whether the stream's descriptor has input now (or its end), so that a
    writer waiting for each answer gets it. A line already in the reader's buffer counts as
    not waiting: that only sends a chunk early. None where the stream has no descriptor."""
    try:
        fd = stream.fileno()
        select.select([fd], [], [], 0)
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    return lambda: bool(select.select([fd], [], [], 0)[0])


def _cmd_batch(args) -> int:
    from .line_numbers import named_lines
    from .parallel import map_ordered

    if sys.stdin is None:  # started with stdin closed (<&-): a traceback before
        raise MeteorInputError("standard input is closed; batch reads its JSON lines from it")
    _output_is_input()
    workers = _workers(args)
    scorer = _scorer(args)
    _warn_missing_resources(scorer)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    progress = _StreamProgress("batch")
    # Output on the terminal shows the progress itself, and the progress line was left in
    # front of result lines there (a tester: 8 of 2,000)
    progress.enabled = progress.enabled and not _isatty(sys.stdout)
    not_proven, not_scored = _LineNumbers(), _LineNumbers()  # {"error": ...} lines are not scored
    number = 0
    # Ctrl-C and SIGTERM say how many lines were written ("interrupted" alone left the user to
    # count them before going on): the CLI's SIGTERM handler is given the count while batch runs
    # (main puts its own back after the command).
    written = _Written()
    on_sigterm, on_sigint = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    if isinstance(on_sigterm, partial) and on_sigterm.func is _terminated:
        signal.signal(signal.SIGTERM, partial(_terminated, *on_sigterm.args, written=written))
    if isinstance(on_sigint, _CtrlC):
        on_sigint.written = written
    try:
        line_function = batch_line if args.bleu else partial(batch_line, with_bleu=False)  # partial: picklable
        if args.bleu and workers > 1:
            # Imported once here, so workers forked from this process share it instead of each
            # importing it on its first line (about 0.2 s apiece).
            sacrebleu_view.preload()
        for outputs in map_ordered(scorer, line_function, _numbered_lines(stdin), workers, size=_line_bytes,
                                   ready=_input_waiting(stdin)):
            _write_lines(sys.stdout, "".join(line + "\n" for line in outputs), written)
            progress.add(len(outputs))
            for line in outputs:
                number += 1
                if line.startswith(_ERROR_LINE):
                    not_scored.add(number)
                elif not _proven(line):
                    not_proven.add(number)
    except KeyboardInterrupt:
        progress.close()
        print(written.where("interrupted"), file=sys.stderr)
        return 130
    except Exception as error:
        if not _broken_pool(error):
            raise
        progress.close()
        print(written.where(WORKER_DIED), file=sys.stderr)  # where to go on, as on Ctrl-C (a tester)
        return 1
    finally:
        progress.close()
    if not_proven.count:
        # Said as corpus says it: batch was silent about 52 of 300 paragraph lines (a tester).
        print(f"note: {_not_proven_sentence(not_proven.first, scorer.config.node_budget, not_proven.count, 'line(s)')}",
              file=sys.stderr)
    if not number:  # as corpus on an empty file (a tester: exit 0 here, where the help says 2)
        print("no line was scored: the input is empty", file=sys.stderr)
        return 2
    if not_scored.count:
        # Said on stderr as corpus says what it did not score; a run that scored nothing exits
        # 2, as corpus does (exit 0 with every line an error: a tester, whose script saw success).
        print(f"{not_scored.count:,} of {number:,} line(s) not scored ({named_lines(not_scored.first)}; "
              '"error" in their output lines)', file=sys.stderr)
        if not_scored.count == number:
            return 2
    return 0


class _LineNumbers:
    """Lines of one kind for a note: how many, and the first LISTED_LINES + 1 (one more than a
    note lists, so that it can say there are more)."""

    def __init__(self):
        from .line_numbers import LISTED_LINES

        self.count = 0
        self.first: list[int] = []
        self.kept = LISTED_LINES + 1

    def add(self, number: int) -> None:
        self.count += 1
        if len(self.first) < self.kept:
            self.first.append(number)


#: How every error line of batch begins (batch_line writes {"error": ...} and nothing else).
_ERROR_LINE = '{"error": '


def _proven(line: str) -> bool:
    """False for a result line whose alignment was not proven optimal. A result's own fields
    come before its tokens and its references' results, so its "optimal" is the first; in an
    error line the words are inside a JSON string, their quotes escaped."""
    return '"optimal": false' not in line[:line.find('"candidate_tokens"')]


class _Progress:
    """A bar on stderr when it is a terminal, drawn when its percentage moves: the scoring
    reports every segment, the significance tests every chunk of resamples."""

    def __init__(self, total: int, stream=sys.stderr, min_total: int = 50, label: str = "scoring"):
        self.stream = stream
        self.enabled = total >= min_total and _isatty(stream)
        self.label = label
        self.percent = -1  # last drawn

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:  # first: most runs have no terminal, and then nothing is computed
            return
        percent = 100 * done // total
        if percent == self.percent:
            return
        self.percent = percent
        width = 30
        filled = width * done // total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _tsv_field(value) -> str:
    """One TSV field whatever the text: backslash, tab, newline and CR escaped (as in
    PostgreSQL's text format), so a field never splits a row or a line. A number is written
    in full (repr: it reads back as the same float, as in --json); rounded to 6 places, two
    segments 1e-7 apart tied in a sort and a sum of the column was off."""
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _display_width(text: str) -> int:
    """Terminal columns: wide East Asian characters take two, combining marks and format
    characters (zero-width space, joiner) none, so names in any script line up."""
    return sum(0 if unicodedata.combining(ch) or unicodedata.category(ch) == "Cf"
               else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _shown_id(value: str) -> str:
    """An id for the fixed-width table: control characters escaped, long ids cut."""
    text = _tsv_field(value)
    return text if len(text) <= 24 else text[:23] + "…"


def _workers(args) -> int:
    """--workers resolved; more than the cores this process may use is allowed, with a note:
    a tester's --workers 64 on 2 cores started 64 processes without a word."""
    from .parallel import available_cores, max_workers, resolve_workers

    if args.workers is not None and args.workers < 0:  # the library's message speaks of None too
        raise MeteorParameterError(f"--workers must be 0 (all cores) or a positive integer, got {args.workers}")
    if args.workers is not None and args.workers > max_workers():
        raise MeteorParameterError(f"--workers must be at most {max_workers()} on this machine (4 per core: more "
                                   f"processes than cores do not score faster), got {args.workers}")
    workers = resolve_workers(args.workers)
    cores = available_cores()
    if workers > cores:
        print(f"note: {workers} workers on {cores} core{'s' if cores > 1 else ''}: more processes than cores do not "
              "score faster, and each holds its own copy of the word data", file=sys.stderr)
    return workers


def _limits(args):
    """The read limits the command line was given, its messages saying how to raise them."""
    from .corpus_io import Limits

    return Limits(args.max_mb * 1_000_000, args.max_segments, raise_bytes=" (--max-mb raises it)",
                  # "refused, not cut": --max-segments 10 on 300 lines was taken for a cut (the CLI attacker)
                  raise_segments=" (--max-segments raises it; a file over it is refused, not cut)")


def _path(path: str) -> str:
    """A file argument: "-" is standard input, as for most command-line tools ("-: No such file
    or directory": a tester), read as /dev/stdin (the name messages give)."""
    return "/dev/stdin" if path == "-" else path


def _stdin_once(paths: Sequence[str]) -> None:
    """Standard input can be read once: given as candidates and references, a system was
    scored against itself (METEOR 0.96, exit 0: a tester). Also refuses an output file that is
    one of the inputs (_output_is_input)."""
    given = sum(_path(p) == "/dev/stdin" for p in paths)
    if given > 1:
        raise MeteorInputError(f"standard input ('-' or /dev/stdin) is given {given} times; it can be read once: give "
                               "the other inputs as files")
    for path in paths:
        _output_is_input(path)


def _appending(stream) -> bool:
    try:
        import fcntl  # POSIX only
    except ImportError:
        return False
    return bool(os.O_APPEND & fcntl.fcntl(stream.fileno(), fcntl.F_GETFL))


def _output_is_input(path: Optional[str] = None) -> None:
    """Refuse output redirected to an input file (batch < x.jsonl > x.jsonl): the shell empties
    the file before the command starts, and it read as an empty input ("the input is empty", a
    tester) or its data as the report. The data is gone by then; the message says why."""
    try:
        out = os.fstat(sys.stdout.fileno())
        given = os.fstat(sys.stdin.fileno()) if path is None or _path(path) == "/dev/stdin" else os.stat(_path(path))
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's StringIO), no such file (said later)
        return
    if stat.S_ISREG(out.st_mode) and (out.st_dev, out.st_ino) == (given.st_dev, given.st_ino):
        name = "standard input" if path is None else path
        if _appending(sys.stdout):  # >>: kept, but read as it grows
            raise MeteorInputError(f"the output is appended to the input file ({name}): the command would read its "
                                   "own output as input; write the output to another file")
        if given.st_size:  # opened without emptying it (1<>x): intact, but would be written over
            raise MeteorInputError(f"the output goes to the input file ({name}): the command would write over its "
                                   "input as it reads it; write the output to another file")
        raise MeteorInputError(f"the output goes to the input file ({name}): the shell emptied that file before this "
                               "command started, so its lines are lost; write the output to another file")


def _corpus_input(args, candidate_column: Optional[str] = None, candidates: Optional[str] = None, load=None):
    from .corpus_io import read_corpus_files

    return read_corpus_files(_path(candidates or args.candidates), [_path(r) for r in args.references],
                             candidate_column or args.candidate_column,
                             args.reference_column or None, args.id_column, args.human_column, args.guess_human,
                             load, args.file_format, _limits(args), args.where)


def _not_proven_sentence(lines: Sequence[int], budget: int, count: Optional[int] = None,
                         what: str = "segment(s)") -> str:
    from .line_numbers import named_lines

    count = len(lines) if count is None else count
    shown = named_lines(lines)  # batch keeps one more than it lists: "…" when there are more
    where = "optimal false in their output" if what == "line(s)" else "optimal false in --json and --tsv output"
    return (f"{count:,} {what} not proven optimal: the alignment search hit its node budget ({budget:,}), "
            f"the best alignment found is used and a better one could change the score ({shown}; "
            f"{where}); a larger --node-budget may prove them")


def _cmd_corpus(args) -> int:
    from .corpus import analyze_corpus
    from .report import segment_to_dict

    _stdin_once([args.candidates, *args.references])
    data = _corpus_input(args)
    for note in data.notes:
        print(f"note: {note}", file=sys.stderr)
    scorer = _scorer(args)
    _warn_missing_resources(scorer)
    analysis = analyze_corpus(data, scorer.config, progress=_Progress(len(data.candidates)), scorer=scorer,
                              workers=_workers(args))
    summary = analysis.summary()
    report, say = _report_buffer()
    if args.json or args.tsv:  # the table output says it on stdout, after the rows
        print(analysis.counts_sentence() + f"; segment id: {analysis.id_source}", file=sys.stderr)
    for problem in summary["not_scored"]:
        print(f"not scored: {_reason_with_hint(problem)}", file=sys.stderr)
    for note in _reference_notes(analysis.reference_notes, analysis.empty_references_scored) + summary["human_scores_ignored"]:
        print(f"note: {note}", file=sys.stderr)
    if analysis.lines_not_proven_optimal:
        print(f"note: {_not_proven_sentence(analysis.lines_not_proven_optimal, scorer.config.node_budget)}",
              file=sys.stderr)
    # A long table scored as one corpus: each row's system after its id (ids repeat across systems)
    columns = ["id", *(["system"] if analysis.systems else []), "meteor", "bleu", "precision", "recall", "penalty",
               "chunks", "matches", "candidate_length", "reference_length", "best_reference", "optimal", "line"]
    rows = analysis.rows
    if args.json:
        segments = [{**{k: row[k] for k in columns},
                     **{k: v for k, v in segment_to_dict(seg.best).items()
                        if k in ("alignment", "chunk_spans", "matches_by_stage")}}
                    for row, seg in zip(rows, analysis.corpus.segments)]
        say(json.dumps({"segments": segments, "corpus": summary}, ensure_ascii=False))
    elif args.tsv:
        say("\t".join(columns))
        for row in rows:
            say("\t".join(_tsv_field(row[k]) for k in columns))
        # The corpus numbers on stderr: the rows are the table, and the summary was nowhere (a tester)
        for line in _corpus_summary_lines(analysis, summary, scorer.config.mode):
            print(line, file=sys.stderr)
    else:
        width = max([6] + [len(_shown_id(r["id"])) for r in rows])
        system_width = max([6] + [_display_width(_shown_id(r["system"])) for r in rows]) if analysis.systems else 0
        system = (lambda text: " " + text + " " * (system_width - _display_width(text))) if system_width else \
            (lambda text: "")
        say(f"{'id':>{width}}{system('system')} {'METEOR':>8} {'BLEU':>8} {'P':>6} {'R':>6} {'pen':>6} {'ch':>4} "
            f"{'m':>4}")
        for r in rows:
            say(f"{_shown_id(r['id']):>{width}}{system(_shown_id(r.get('system', '')))} {r['meteor']:8.4f} "
                f"{r['bleu']:8.4f} {r['precision']:6.3f} {r['recall']:6.3f} {r['penalty']:6.3f} {r['chunks']:4d} "
                f"{r['matches']:4d}")
        say()
        say(analysis.counts_sentence() + f"; segment id: {analysis.id_source}")
        for line in _corpus_summary_lines(analysis, summary, scorer.config.mode):
            say(line)
    _write_lines(sys.stdout, report.getvalue())
    return 0


def _corpus_summary_lines(analysis, summary: dict, mode: str) -> list[str]:
    """The corpus numbers of `corpus`'s text report (after the rows; on stderr with --tsv)."""
    from .corpus import REPORTED_BY

    out: list[str] = []
    reported_key, reported_by = REPORTED_BY.get(mode, ("", ""))
    for key, label in (("corpus_meteor", "corpus METEOR (summed statistics):"),
                       ("mean_segment_meteor", "mean of segment METEOR:           ")):
        out.append(f"{label} {summary[key]:.6f}" + (f"  ({reported_by})" if key == reported_key else ""))
    out.append(f"corpus BLEU:                       {summary['corpus_bleu']:.6f}  (nltk, on METEOR's tokens)"
               + (f": {analysis.corpus_bleu_zero_reason}" if analysis.corpus_bleu_zero_reason else ""))
    if analysis.sacrebleu:
        out.append(f"sacreBLEU:                         {analysis.sacrebleu.score:.2f}  ({analysis.sacrebleu.signature})"
                   + (f"; over all {analysis.sacrebleu_segments:,} segments read, as sacreBLEU scores the files "
                      "(the numbers above: the scored ones)"
                      if analysis.sacrebleu_counts_unscored else ""))
    out.append(f"matches by stage: {summary['matches_by_stage']}")
    if analysis.human_source:
        out.append(f"human scores: {analysis.human_source}")
    for c in analysis.correlations:
        segments = f"{c.n:,} segment{'' if c.n == 1 else 's'}"
        if c.why_undefined is not None:
            out.append(f"{c.metric} vs human ({segments}): Pearson, Spearman and Kendall tau-b undefined: "
                       f"{c.why_undefined}")
        else:
            out.append(f"{c.metric} vs human ({segments}): Pearson {c.pearson:.6f}, Spearman {c.spearman:.6f}, "
                       f"Kendall tau-b {c.kendall_tau_b:.6f}")
    out.append(f"signature: {summary['signature']}")
    return out


#: Empty-reference notes written one per line up to this many; more are summed up per file
#: (captions with 5-7 references per image gave one line per image: a tester).
REFERENCE_NOTES_LISTED = 5


def _reference_notes(notes: Sequence, scored: bool = False) -> list[str]:
    """The empty reference cells (corpus_io.RowProblem), left out, or `scored` (METEOR 1.5 mode
    scores every reference, as the jar): one note per line, or one per file when there are many."""
    if len(notes) <= REFERENCE_NOTES_LISTED:
        return [str(p) for p in notes]
    from .line_numbers import named_lines

    by_file: dict[str, list[int]] = {}
    for p in notes:
        by_file.setdefault(p.file, []).append(p.line)
    what = ("scored, as the jar scores every reference (no words: 0)" if scored else
            "left out, each segment scored against the references it has")
    return [f"{file + ': ' if file else ''}{len(lines):,} line{'s' if len(lines) != 1 else ''} with an empty reference "
            f"({named_lines(lines)}): {what}" for file, lines in by_file.items()]


def _system_names(paths: Sequence[str]) -> list[str]:
    """File names without the folder; a repeated name gets its position."""
    from pathlib import Path

    names = [Path(p).name for p in paths]
    return [n if names.count(n) == 1 else f"{n} ({k + 1})" for k, n in enumerate(names)]


def _cmd_compare(args) -> int:
    from .corpus import compare_systems
    from .corpus_io import files_read_once, format_of

    _stdin_once([*args.candidates, *args.references])
    load = files_read_once(_limits(args))
    args.candidates = [_path(c) for c in args.candidates]
    if args.system_column:
        # A long table (a row per system output), pivoted as the app's System Comparison does
        from .corpus_io import read_long_systems

        if len(args.candidates) != 1:
            raise MeteorInputError("--system-column: give one table after --candidates (its rows name the systems)")
        long, names, corpora = read_long_systems(args.candidates[0], args.system_column, args.candidate_column,
                                                 args.output_column, args.reference_column or None, args.id_column,
                                                 load, args.file_format, _limits(args), args.where)
        names = list(names)
        from .corpus_io import several_references_note

        several = None if args.reference_column else several_references_note(args.candidates[0],
                                                                               long.reference_columns)
        for note in long.notes() + ([several] if several else []):
            print(f"note: {note}", file=sys.stderr)
    elif len(args.candidates) == 1 and format_of(args.candidates[0], args.file_format) != "txt":
        columns = args.candidate_column
        if len(columns) < 2:
            raise MeteorInputError(f"{args.candidates[0]} is a table: name two or more system columns with "
                                   "--candidate-column A --candidate-column B")
        corpora = [_corpus_input(args, column, args.candidates[0], load) for column in columns]
        names = list(columns)
        for note in dict.fromkeys(note for corpus in corpora for note in corpus.notes):  # language pairs pooled
            print(f"note: {note}", file=sys.stderr)
    else:
        if args.candidate_column or args.reference_column or args.id_column:
            # A table piped in is read as text by its name (a newcomer: this message did not say --format).
            hint = (f" (if {args.candidates[0]} is a table, give its format with --format)"
                    if len(args.candidates) == 1 and not args.file_format else "")
            tables = [p for p in args.candidates if format_of(p, args.file_format) != "txt"]
            if len(args.candidates) > 1 and tables:
                # Two tables: the message spoke of plain-text files (a tester)
                raise MeteorInputError(f"{len(args.candidates)} files given with column options: give one table "
                                       "after --candidates with a --candidate-column per system, or one plain-text "
                                       "file per system without column options")
            raise MeteorInputError(f"column options apply to one TSV/CSV/JSONL table{hint}; with plain-text files "
                                   "give one file per system after --candidates")
        if len(args.candidates) < 2:
            raise MeteorInputError("give two or more candidate files (one per system) after --candidates")
        corpora = [_corpus_input(args, None, path, load) for path in args.candidates]
        names = _system_names(args.candidates)
    if len(set(names)) != len(names):
        raise MeteorInputError("a system is given twice: " + ", ".join(sorted({n for n in names if names.count(n) > 1})))
    scorer = _scorer(args)
    _warn_missing_resources(scorer)
    comparison = compare_systems(corpora, scorer.config, names, progress=_Progress(sum(len(c.candidates) for c in corpora)),
                                 resamples=args.resamples, trials=args.trials, seed=args.seed, scorer=scorer,
                                 workers=_workers(args),
                                 tests_progress=_Progress(args.resamples + args.trials, label="testing"))
    for name, analysis in zip(comparison.names, comparison.analyses):
        print(f"{name}: {analysis.counts_sentence()}", file=sys.stderr)
        for problem in analysis.not_scored:
            print(f"not scored ({name}): {_reason_with_hint(str(problem))}", file=sys.stderr)
        if analysis.lines_not_proven_optimal:
            print(f"note ({name}): {_not_proven_sentence(analysis.lines_not_proven_optimal, scorer.config.node_budget)}",
                  file=sys.stderr)
    # The references are every system's: each empty one left out is said once (a note names the
    # table, or the reference file, which all systems share).
    seen = dict.fromkeys(p for a in comparison.analyses for p in a.reference_notes)
    for note in _reference_notes(list(seen), any(a.empty_references_scored for a in comparison.analyses)):
        print(f"note: {note}", file=sys.stderr)
    sig = comparison.significance
    report, say = _report_buffer()
    if args.json:
        say(json.dumps(comparison.to_dict(), ensure_ascii=False, default=str))
        _write_lines(sys.stdout, report.getvalue())
        return 0
    from .methods import plural
    from .significance import format_p_value

    say(f"{plural(len(comparison.common_lines), 'segment')} scored in every system"
        + (f" ({comparison.left_out_sentence()})" if comparison.left_out_sentence() else ""))
    say(f"paired bootstrap: {sig.resamples} resamples; approximate randomization: {sig.trials} trials; "
        f"seed {sig.seed}; intervals 95%")
    say()

    def interval(value, low, high) -> str:
        return f"{value:.4f} [{low:.4f}, {high:.4f}]"

    rows = [(str(r["rank"]), _tsv_field(r["system"]),
             interval(r["corpus_meteor"], r["meteor_ci_low"], r["meteor_ci_high"]),
             f"{r['mean_segment_meteor']:.4f}", interval(r["corpus_bleu"], r["bleu_ci_low"], r["bleu_ci_high"]))
            for r in comparison.ranking()]
    header = ("rank", "system", "corpus METEOR [95% CI]", "mean seg.", "BLEU [95% CI]")
    widths = [max(_display_width(row[k]) for row in [header, *rows]) for k in range(len(header))]
    for row in [header, *rows]:  # rank and numbers right-aligned, the system's name left
        cells = []
        for k, (cell, width) in enumerate(zip(row, widths)):
            pad = " " * (width - _display_width(cell))
            cells.append(cell + pad if k == 1 else pad + cell)
        say("  ".join(cells))
    say()
    say("pairs (difference of the corpus scores, 95% CI):")
    for p in sig.pairs:
        # Written as the subtraction it is: "a vs b: -0.3171" read as a worse than b (a tester).
        say(f"  {p.metric:6s} {p.system_b} - {p.system_a}: {p.difference:+.4f} [{p.difference_ci_low:+.4f}, "
            f"{p.difference_ci_high:+.4f}]  p(bootstrap) {format_p_value(p.p_value_bootstrap)}  "
            f"p(approx. randomization) {format_p_value(p.p_value_randomization)}  -> {p.verdict()}")
    mean_order = comparison.mean_order_note(scorer.config.mode)
    if mean_order:
        say(f"note: {mean_order}")
    for note in sig.notes:
        say(f"note: {note}")
    say(f"signature: {comparison.signature}")
    _write_lines(sys.stdout, report.getvalue())
    return 0


def _cmd_setup_wordnet(args) -> int:
    from .wordnet import install_wordnet

    status = install_wordnet(log=lambda m: print(m, file=sys.stderr))
    return 0 if status.available else 1


def _cmd_setup_meteor15(args) -> int:
    from pathlib import Path

    from .meteor15.data import install

    try:
        status = install(Path(args.data_dir) if args.data_dir else None, Path(args.wheel) if args.wheel else None,
                         with_jar=args.with_jar, log=lambda m: print(m, file=sys.stderr))
    except (OSError, RuntimeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0 if status.available else 1


def _cmd_languages(args) -> int:
    from .languages import capabilities

    report, say = _report_buffer()
    say(f"{'code':6s} {'language':22s} {'stemmer':28s} {'synonyms':48s} tokenizers")
    for r in capabilities():
        say(f"{r.code:6s} {r.name:22s} {r.stemmer:28s} {r.synonyms:48s} {r.tokenizers}")
    _write_lines(sys.stdout, report.getvalue())
    return 0


def _cmd_presets(args) -> int:
    report, say = _report_buffer()
    for key, preset in PRESETS.items():
        p = preset.params
        delta = f" delta={p.delta:g}" if p.delta is not None else ""
        say(f"{key:20s} alpha={p.alpha:g} beta={p.beta:g} gamma={p.gamma:g}{delta}  {preset.label}: {preset.source}")
    _write_lines(sys.stdout, report.getvalue())
    return 0


def _add_workers(parser: argparse.ArgumentParser, streaming: bool = False) -> None:
    answered = " A line is answered once no more input is waiting, on any number of workers." if streaming else ""
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="processes to score on (default 0: all cores; 1: this process). Output order and "
                             f"results do not depend on it.{answered}")


def _number(text: str) -> float:
    """An argparse type: params.number, its reason said (argparse's own message for a
    ValueError, 'invalid number value', does not say why '1e-400' is refused)."""
    try:
        return number(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in low..high, checked when the command line is read
    (numpy refused --seed -1 only after every system was scored)."""
    def parse(text: str) -> int:
        # ASCII digits only: int() also reads "1_2345" and other scripts' digits ("١٢" is 12).
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is outside {low}..{high}")
        return value
    return parse


_positive_int = _whole_number(1, 1_000_000)
#: significance.MAX_SEED, written out: importing that module here would load numpy at every start.
MAX_SEED = 2 ** 32 - 1
#: Plain text and corpus_io.TABLE_FORMATS, written out: importing corpus_io at every start costs
#: about 17 ms that `score` does not need.
FILE_FORMATS = ("txt", "tsv", "csv", "jsonl")


def _add_corpus_columns(p: argparse.ArgumentParser, human: bool = True) -> None:
    p.add_argument("--format", choices=FILE_FORMATS, dest="file_format",
                   help="format of --candidates (default: from its name, .tsv .csv .jsonl, else plain text lines); "
                        "for /dev/stdin, a pipe or a name without its extension")
    p.add_argument("--references", action="append", default=[], help="plain-text reference file (repeat for more)")
    p.add_argument("--reference-column", action="append", default=[], help="table column with a reference (repeat)")
    p.add_argument("--id-column", help="table column with segment ids (default: a column named id, seg_id, segment "
                                        "and the like, else the line number; \"\": the line number)")
    p.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                   help="score only a table's rows whose COLUMN is VALUE (repeat: each must hold), such as one system "
                        "of a long table (a row per system output, as WMT ships them): --where system=Online-A "
                        "--where lp=cs-en")
    p.set_defaults(guess_human=human)
    # The app's limits by default; a user with the memory can raise them (a WMT test set with every
    # system is over both: a tester). Every scored segment's result stays in memory until the report.
    p.add_argument("--max-mb", type=_positive_int, default=20,
                   help="largest file in MB of 1,000,000 bytes, uncompressed (default 20, as the app)")
    p.add_argument("--max-segments", type=_positive_int, default=20_000,
                   help="most segments per file, and as many empty or malformed lines besides (default 20,000, as "
                        "the app); each segment's result is kept until the report, in proportion to its length: about "
                        "23 KB for a sentence of 20-30 tokens, 140 KB for a paragraph of 200 (132,143 WMT22 segments: "
                        "2.3 GB, 76 s on 2 cores)")
    if human:
        p.add_argument("--human-column", help="human scores to correlate with (Pearson, Spearman, Kendall tau-b; "
                                               "default: a column named human*, da, z or raw and the like; "
                                               "\"\": none)")
    else:
        p.set_defaults(human_column=None)


#: The exit codes of corpus and compare, in their --help (a tester: only the errors said them).
_EXIT_STATUS = ("exit status: 0 when {scored}; 2 when an input or option is refused or no segment could be "
                "scored (the reason on stderr); 1 when the output could not be written or a worker process "
                "died; 130 on Ctrl-C, 143 when terminated, 141 when the reader of the output went away")


def build_parser() -> argparse.ArgumentParser:
    # The installed command names itself (pip install gives `meteor-lens`; a newcomer).
    prog = "meteor-lens" if os.path.basename(sys.argv[0]) == "meteor-lens" else "python -m meteor_core"
    parser = argparse.ArgumentParser(prog=prog, description="METEOR with its alignment explained")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score one candidate against references and explain")
    p.add_argument("--candidate", required=True)
    p.add_argument("--reference", action="append", required=True)
    p.add_argument("--json", action="store_true")
    _add_shared(p)
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("batch", help='JSON lines {"candidate": str, "references": [str]} on stdin -> one result per line',
                       description='One output line per input line: the result, or {"error": "line N: ..."}. The '
                                   'lines not scored are counted on stderr at the end; exit 2 when no line was scored '
                                   '(empty input included).')
    _add_workers(p, streaming=True)
    p.add_argument("--no-bleu", dest="bleu", action="store_false",
                   help='leave out "bleu" and "sacrebleu" (per line they cost about as much as METEOR itself)')
    _add_shared(p)
    p.set_defaults(func=_cmd_batch)
    p = sub.add_parser("corpus", help="score a corpus (plain text lines, or TSV/CSV/JSONL columns)",
                       epilog=_EXIT_STATUS.format(scored="the corpus was scored"))
    p.add_argument("--candidates", required=True, help="file of system outputs (\"-\": standard input)")
    _add_corpus_columns(p)
    p.add_argument("--candidate-column", help="table column with the system output (default: candidate)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true")
    out.add_argument("--tsv", action="store_true", help="tab-separated; tab, newline, CR and backslash escaped")
    _add_workers(p)
    _add_shared(p)
    p.set_defaults(func=_cmd_corpus)
    p = sub.add_parser("compare", help="two or more systems on the same references: ranking, paired bootstrap "
                                       "and approximate randomization p-values, 95%% intervals",
                       epilog=_EXIT_STATUS.format(scored="the systems were compared"))
    p.add_argument("--candidates", required=True, nargs="+",
                   help="one plain-text file per system, or one TSV/CSV/JSONL table with --candidate-column per system")
    _add_corpus_columns(p, human=False)
    p.add_argument("--candidate-column", action="append", default=[],
                   help="a system's column in a table (repeat); with --system-column, a system's name (default: all)")
    p.add_argument("--system-column", help="a long table (a row per system output, as WMT ships them): the column "
                                           "naming each row's system; segments pair by id and references")
    p.add_argument("--output-column", help="with --system-column: the column with the output (default: candidate)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--resamples", type=_positive_int, default=1000,
                   help="paired bootstrap resamples, 1..1,000,000 (default 1000; the app offers 100..10,000)")
    p.add_argument("--trials", type=_positive_int, default=10000,
                   help="approximate randomization trials, 1..1,000,000 (default 10000; the app offers 100..100,000)")
    p.add_argument("--seed", type=_whole_number(0, MAX_SEED), default=12345,
                   help=f"random seed, 0..{MAX_SEED} (default 12345, as sacreBLEU)")
    _add_workers(p)
    _add_shared(p)
    p.set_defaults(func=_cmd_compare)
    p = sub.add_parser("setup-wordnet", help="make WordNet 3.0 available offline (Debian packages) or via nltk.download")
    p.set_defaults(func=_cmd_setup_wordnet)
    p = sub.add_parser("setup-meteor15", help="fetch METEOR 1.5's data (pip download pycocoevalcap==1.2) and convert "
                                              "it for meteor15 mode")
    p.add_argument("--data-dir", help="where to put it (default: $METEOR15_DATA or ~/.local/share/meteor-lens/meteor15)")
    p.add_argument("--wheel", help="use this pycocoevalcap-1.2 wheel instead of downloading it")
    p.add_argument("--with-jar", action="store_true", help="also keep the original jar (the tests' oracle; needs Java)")
    p.set_defaults(func=_cmd_setup_meteor15)
    p = sub.add_parser("languages", help="per language: tokenizer, stemmer, synonym source available here")
    p.set_defaults(func=_cmd_languages)
    p = sub.add_parser("presets", help="list parameter presets")
    p.set_defaults(func=_cmd_presets)
    return parser


def _utf8_output() -> None:
    """Output is always UTF-8, whatever the locale; a character that cannot be encoded (a
    lone surrogate quoted in a message) is written as its escape instead of crashing."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # not a text stream we may reconfigure
            pass


#: Options whose value is a number: a negative one may follow as its own word.
_NUMBER_OPTIONS = ("--alpha", "--beta", "--gamma", "--delta", "--node-budget", "--workers", "--resamples", "--trials",
                   "--seed")
#: Options whose value is text, which may start with "-" ("-LRB-", "-5 degrees").
_TEXT_OPTIONS = ("--candidate", "--reference")


def _option_strings(parser: argparse.ArgumentParser) -> frozenset[str]:
    """Every option string of the parser and its subcommands."""
    found = set(parser._option_string_actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _option_strings(sub)
    return frozenset(found)


def _join_dash_values(argv: Sequence[str], options: frozenset[str] = frozenset()) -> list[str]:
    """`--beta -inf` as `--beta=-inf`, and `--candidate -LRB-` as `--candidate=-LRB-`: argparse
    reads a word starting with "-" as an option unless it looks like a plain negative number,
    so both ended in "expected one argument" (testers). A text value is joined only when it is
    not one of `options` (or an abbreviation of one): `--candidate --reference x` still says
    the candidate is missing."""
    def is_option(word: str) -> bool:
        name = word.split("=", 1)[0]
        return name in options or (name.startswith("--") and any(o.startswith(name) for o in options))

    argv = list(argv)
    joined: list[str] = []
    at = 0
    while at < len(argv):
        word = argv[at]
        if word == "--":  # the rest is not options
            return joined + argv[at:]
        value = argv[at + 1] if at + 1 < len(argv) else ""
        if value.startswith("-") and value != "--" and (
                (word in _NUMBER_OPTIONS and _is_number(value)) or (word in _TEXT_OPTIONS and not is_option(value))):
            joined.append(f"{word}={value}")
            at += 2
            continue
        joined.append(word)
        at += 1
    return joined


def _as_utf8(argv: Sequence[str]) -> list[str]:
    """Arguments as the UTF-8 they were typed in. Under a locale Python does not read as UTF-8
    (LC_ALL=POSIX with PYTHONUTF8=0), "café" arrived as "caf" and two lone surrogates, and
    was refused as "not valid Unicode text" (a tester); bytes that are not UTF-8 stay as they
    are, for the tokenizer to refuse."""
    out = []
    for word in argv:
        if not any("\udc80" <= character <= "\udcff" for character in word):  # read as typed
            out.append(word)
            continue
        try:
            out.append(word.encode(sys.getfilesystemencoding(), "surrogateescape").decode("utf-8"))
        except (UnicodeEncodeError, UnicodeDecodeError):
            out.append(word)
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def program() -> None:
    """The command as a process (`python -m meteor_core`, the meteor-lens script): main(),
    then exit with its code; an interrupted run ends at once, written output flushed (and a
    further Ctrl-C while it does ends it too, see _CtrlC)."""
    try:
        code = main(exiting=True)
    except KeyboardInterrupt:  # a Ctrl-C in the few steps between the command's end and main's
        print("interrupted", file=sys.stderr)
        code = 130
    if code == 130:
        # Interrupted: nothing is left to do but exit. The interpreter's own exit still woke and
        # joined the pool's manager thread, and a race inside CPython there (the manager closing
        # its wakeup pipe while the exit wrote to it) printed "Exception ignored ... Bad file
        # descriptor" after "interrupted" (1 of 100 runs of 2-6 Ctrl-C's). What was written is
        # flushed; any worker still there ends with its parent (parallel.PARENT_CHECK_SECONDS).
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe or stream: nothing more can reach it
                pass
        os._exit(130)
    sys.exit(code)


def main(argv: Optional[Sequence[str]] = None, *, exiting: bool = False) -> int:
    """Run one command; the exit code. `exiting`: the process ends when this returns (program),
    so an interrupted run keeps its Ctrl-C handler through the exit instead of restoring
    Python's (which a caller in the same process, such as a test, gets back)."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(_join_dash_values(_as_utf8(argv), _option_strings(parser)))
    if sys.stdout is None:  # started with stdout closed (>&-): print() would drop every line silently
        if sys.stderr is not None:
            print("error: standard output is closed; give the command somewhere to write", file=sys.stderr)
        return 2
    _utf8_output()
    # Signal handlers belong to the main thread; main() called from another thread (a test, an
    # embedding program) keeps the process's handler, whatever it is.
    own_sigterm = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, partial(_terminated, os.getpid())) if own_sigterm else None
    # Ctrl-C: only where it is Python's default (a shell's background job ignores it: so do we).
    own_sigint = own_sigterm and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    report_unraisable = sys.unraisablehook
    if own_sigint:
        signal.signal(signal.SIGINT, _CtrlC())
        sys.unraisablehook = partial(_unraisable, report_unraisable)
    try:
        code = _run(args)
        if _interrupted() and code == 0:  # lost after the last write: still what the user asked
            print("interrupted", file=sys.stderr)
            return 130
        return code
    finally:
        if own_sigint and exiting and _interrupted():
            signal.getsignal(signal.SIGINT).stopping = True  # handler and hook stay through the exit
        elif own_sigint:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.unraisablehook = report_unraisable
        if own_sigterm:
            signal.signal(signal.SIGTERM, previous)


_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what could not be
    written does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _run(args) -> int:
    try:
        return args.func(args)
    except (MeteorInputError, MeteorParameterError) as error:
        print(f"error: {with_hint(error)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly.
        _discard_stdout()
        return 141  # 128 + SIGPIPE, what a shell reports for a command stopped by a closed pipe
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OutputNotWritten as failure:
        _discard_stdout()
        if failure.lines is not None:  # batch: where the whole output ends, as after Ctrl-C
            n = failure.lines
            # Lines after them may be in the file, the last one cut: a resume keeps the first n.
            print(f"batch stopped: the first {n:,} output line(s) are whole (input lines 1-{n:,}); what follows "
                  f"them may be cut. To go on: keep the first {n:,} (head -n {n}) and score input from line "
                  f"{n + 1:,} on (tail -n +{n + 1})" if n else
                  "batch stopped: no output line was written whole", file=sys.stderr)
        print(f"error: the output could not be written: {failure}", file=sys.stderr)
        return 1
    except OSError as error:
        # The output could not be written (a full disk, a quota, a file size limit) outside
        # _write_lines (a progress line, a print): said in one line, not a traceback. Other OS
        # errors are not this module's to explain.
        if error.errno not in _WRITE_ERRNOS:
            raise
        _discard_stdout()
        print(f"error: the output could not be written: {error.strerror}", file=sys.stderr)
        return 1
    except Exception as error:
        if not _broken_pool(error):
            raise
        # batch says where its output ends itself (_cmd_batch); corpus and compare write their
        # report at the end, so nothing was written ("the lines written so far" misled: a tester).
        print(f"{WORKER_DIED}; no report was written", file=sys.stderr)
        return 1
