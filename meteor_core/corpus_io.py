"""Reading corpora: plain text (one segment per line), TSV, CSV, JSONL. Parsing works on bytes
plus a file name (the app's uploads and the CLI's files go through the same code). Problems
that make a whole file unusable raise MeteorInputError naming the file and line; problems of
single rows are collected (file, line, reason) and those rows are reported, never dropped
silently.

Counting is honest: every data line (each line after a table's header, each line of a plain
text file) is either a segment to score or a RowProblem, so `data_lines = len(candidates) +
len(problems)`. A human score that is not a number keeps its segment (it is scored) and only
leaves it out of the correlations (`human_notes`).

Line endings: LF, CRLF and CR alone all end a line. Nothing else does: U+2028, U+0085, form
feeds and the like are characters inside a line (str.splitlines would split on them, so it is
never used here)."""
from __future__ import annotations

import csv
import io
import json
import math
import re
import zlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from sys import intern
from typing import Callable, Optional, Sequence

from .errors import MeteorInputError
from .line_numbers import listed_lines, named_lines
from .references import (EMPTY_LIST, RepeatedKey, blank_positions, json_error_reason, json_kind as _json_kind, json_line,
                         without_blank)

#: Upload caps, stated in the app: beyond them the file is rejected with a message.
#: 20 MB in decimal, as the app's uploader counts them on Linux and macOS (1 MB = 1,000,000
#: bytes): with 20 MiB here, the uploader refused files of 20.0 to 20.97 MB that the command
#: line read (a tester).
MAX_FILE_BYTES = 20_000_000
MAX_SEGMENTS = 20_000
MAX_COLUMNS = 1_000
#: Lines after a table's header, empty or malformed ones included: each of those is kept as a
#: problem to list, so without a cap 19 MB of blank lines took 148 s and 5.2 GB (a tester).
MAX_DATA_LINES = 2 * MAX_SEGMENTS
#: Lines of a table: a long table holds a row per system output, WMT22 cs-en, de-en and ru-en
#: with every system 57,376 rows of 5,448 segments (refused at 40,000: a tester); each corpus
#: taken from it still holds at most MAX_SEGMENTS segments.
TABLE_LINES_PER_SEGMENT = 5


@dataclass(frozen=True)
class Limits:
    """What a read accepts: bytes per file (uncompressed) and segments per file, with as many
    empty or malformed lines besides. The app keeps the defaults (its memory is shared by every
    session); the command line can raise them (--max-mb, --max-segments: a WMT test set with
    every system is over both), and then says so in its messages (`raise_bytes`, `raise_segments`)."""

    file_bytes: int = MAX_FILE_BYTES
    segments: int = MAX_SEGMENTS
    raise_bytes: str = ""  # appended to a size refusal: how to raise the limit
    raise_segments: str = ""

    @property
    def data_lines(self) -> int:
        return 2 * self.segments  # as MAX_DATA_LINES

    @property
    def table_lines(self) -> int:
        return TABLE_LINES_PER_SEGMENT * self.segments

    @property
    def table_lines_text(self) -> str:
        return (f"the limit is {self.table_lines:,} lines (a long table's rows, one per system output, empty or "
                f"malformed ones included), each corpus taken from it {self.segments:,} segments{self.raise_segments}")

    @property
    def size_text(self) -> str:
        mb = f"{self.file_bytes / 1_000_000:g}"
        return f"the {mb} MB limit ({self.file_bytes:,} bytes){self.raise_bytes}"

    @property
    def segments_text(self) -> str:
        return f"the limit is {self.segments:,} segments{self.raise_segments}"


DEFAULT_LIMITS = Limits()
TABLE_FORMATS = ("tsv", "csv", "jsonl")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class RowProblem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:  # no file: a line of every system's file (compare)
        return f"{self.file + ', ' if self.file else ''}line {self.line}: {self.message}"


@dataclass(frozen=True)
class Table:
    """A parsed table: column names and rows (dicts) with the file line each came from.
    `data_lines` counts every record after the header, good or not."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[dict, ...]
    lines: tuple[int, ...]
    problems: tuple[RowProblem, ...] = ()
    data_lines: int = 0
    has_header: bool = True  # JSONL has none: its first record is line 1


@dataclass(frozen=True)
class CorpusInput:
    """Segments ready to score. `lines[k]` is the file line segment k came from (unique: the
    key that pairs systems and identifies a selection); `ids[k]` is what the user sees (the id
    column, or the line number). `problems` lists rows kept out, with the reason."""

    ids: tuple[str, ...]
    candidates: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    human: Optional[tuple[Optional[float], ...]] = None
    problems: tuple[RowProblem, ...] = ()
    lines: tuple[int, ...] = ()
    source: str = ""
    data_lines: int = 0
    id_source: str = "line number"  # what an id is, said on the page
    human_notes: tuple[RowProblem, ...] = ()  # bad human scores: segment kept, left out of correlations
    human_source: str = ""  # where human scores come from ("the 'human' column"); "" when none
    # Empty reference cells beside a non-empty one: left out, segment scored against the others.
    reference_notes: tuple[RowProblem, ...] = ()
    # Plain-text input: the file each of a segment's references came from, so that a reference
    # the scorer refuses is listed under its own file (a table's row is all in one file).
    reference_files: tuple[tuple[str, ...], ...] = ()
    # Where each kept reference stood among the segment's references as given (from 1), when an
    # empty one was left out before it: best_reference reports that, not its place among those kept.
    reference_positions: tuple[tuple[int, ...], ...] = ()
    # The references as given ("" for a null or missing one) of the segments where one was left
    # out, () for the others: what METEOR 1.5 mode scores (the jar scores every reference) and
    # what sacreBLEU reads from the files.
    given_references: tuple[tuple[str, ...], ...] = ()
    # What the reader saw that changes how to read the scores (a long table's systems mixed)
    notes: tuple[str, ...] = ()
    # A long table scored as one corpus: the system each segment's row names ("" where its cell
    # is blank), and the column naming them; () and "" otherwise. The rows of "all 3 mixed"
    # showed ids 1, 2, 3, 1, 2, 3 and no word of whose output each was (a tester).
    systems: tuple[str, ...] = ()
    system_column: str = ""

    def references_as_given(self, index: int) -> tuple[str, ...]:
        return (self.given_references[index] if self.given_references else ()) or self.references[index]

    def __post_init__(self):
        if not self.lines:  # built by hand (tests, library use): lines are positions 1..n
            object.__setattr__(self, "lines", tuple(range(1, len(self.candidates) + 1)))
        if not self.data_lines:
            object.__setattr__(self, "data_lines", len(self.candidates) + len(self.problems))

    def line_of(self, index: int) -> int:
        return self.lines[index]


def decode(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> str:
    if len(data) > limits.file_bytes:
        raise MeteorInputError(f"{name}: {len(data):,} bytes is over {limits.size_text}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise MeteorInputError(f"{name} is UTF-32 (it starts with a UTF-32 byte-order mark); save the file as UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Said as what it is (it was "line 1 is not UTF-8 ... at byte 1": a tester)
        raise MeteorInputError(f"{name} is UTF-16 (it starts with a UTF-16 byte-order mark); save the file as "
                               "UTF-8")
    sample = data[:4096]
    even_zeros, odd_zeros = sample[0::2].count(0), sample[1::2].count(0)
    if len(sample) >= 4 and 3 * (even_zeros + odd_zeros) >= len(sample) \
            and 10 * min(even_zeros, odd_zeros) <= max(even_zeros, odd_zeros):
        # UTF-16 without the mark: a zero byte beside each ASCII character, so on one side of
        # each pair. Read as UTF-8 it gave columns "i\x00d\x00" (NUL bytes printed to the
        # terminal) or line counts that differed (a tester); no text file holds that many NULs.
        raise MeteorInputError(f"{name} looks like UTF-16 (every second byte is zero, no byte-order mark); save the "
                               "file as UTF-8")
    utf16 = _utf16_without_mark(sample) if 0 in sample else ""
    if utf16:  # fewer zero bytes (Cyrillic is 0x04xx), still valid UTF-8 byte by byte (a tester)
        raise MeteorInputError(f"{name} looks like {utf16} (no byte-order mark); save the file as UTF-8")
    if even_zeros + odd_zeros >= 16 and 20 * (even_zeros + odd_zeros) >= len(sample):  # a stray NUL is text
        # Zero bytes on both sides of the pairs: a program, an image, a zip (/bin/ls was said to
        # look like UTF-16: the CLI attacker).
        raise MeteorInputError(f"{name} is not a text file ({even_zeros + odd_zeros:,} zero bytes in its first "
                               f"{len(sample):,}, as in a program or an image); give a UTF-8 text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        utf16 = _utf16_without_mark(sample)
        if utf16:  # Cyrillic or Chinese in UTF-16 has few zero bytes ("line counts differ": a tester)
            raise MeteorInputError(f"{name} looks like {utf16} (no byte-order mark); save the file as UTF-8") from None
        line = len(_LINE_BREAK.findall(data[: error.start].decode("utf-8", "replace"))) + 1
        # The byte counted in its line, from 1, as the line is named (the file's offset, 82 on a
        # 30-byte line 3, read as a position in the line: a tester).
        line_start = max(data.rfind(b"\n", 0, error.start), data.rfind(b"\r", 0, error.start)) + 1
        raise MeteorInputError(f"{name}: line {line} is not UTF-8 ({error.reason} at byte "
                               f"{error.start - line_start + 1} of the line); save the file as UTF-8") from None


def _utf16_without_mark(sample: bytes) -> str:
    """"UTF-16 (little-endian)" or "(big-endian)" when the bytes read so as text with line breaks
    or tabs and almost no control characters; "" otherwise."""
    for codec, named in (("utf-16-le", "UTF-16 (little-endian)"), ("utf-16-be", "UTF-16 (big-endian)")):
        text = sample[: len(sample) // 2 * 2].decode(codec, "replace")
        odd = sum(1 for ch in text if (ch < " " and ch not in "\t\n\r") or ch == "\ufffd"
                  or 0xD800 <= ord(ch) <= 0xDFFF)
        if ("\n" in text or "\t" in text) and odd * 50 <= len(text):
            return named
    return ""


def split_lines(text: str) -> list[str]:
    """Lines ended by LF, CRLF or CR; a final line break does not start another line."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _suffix(name: str) -> str:
    """The file's format suffix, under a .gz one ("x.tsv.gz": ".tsv")."""
    path = Path(name)
    if path.suffix.lower() == ".gz":
        path = path.with_suffix("")
    return path.suffix.lower()


def format_of(name: str, declared: Optional[str] = None) -> str:
    if declared:
        return declared
    suffix = _suffix(name).lstrip(".")
    return suffix if suffix in TABLE_FORMATS else "txt"


def line_count(text: str) -> int:
    """len(split_lines(text)), counted in C without making the lines."""
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (bool(text) and not text.endswith(("\n", "\r")))


def _refuse_too_many_lines(count: int, name: str, limits: Limits) -> None:
    if count > limits.data_lines:
        raise MeteorInputError(f"{name}: {count:,} lines; the limit is {limits.data_lines:,} lines ({limits.segments:,} "
                               f"segments, and as many empty or malformed lines besides){limits.raise_segments}")


def read_lines(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """A plain-text file's lines (one segment each). As for tables, the limit is limits.segments
    segments with text, and as many empty lines besides: 20,000 segments and one empty line
    were refused while a table with 5 empty rows was read (a tester)."""
    if _suffix(name) == ".json":
        # Read as text, a COCO captions file was one 12,874-token "segment" (a tester).
        raise MeteorInputError(
            f"{name}: a .json file is one JSON document, not one segment per line: give the segments as JSON Lines "
            "(.jsonl or --format jsonl: one object per line, with candidate and reference fields), TSV or plain "
            "text; for COCO caption files (annotations and results), load them in Python and call "
            "meteor_core.compat.pycocoevalcap.Meteor().compute_score(gts, res) (README, METEOR 1.5 mode)")
    text = decode(data, name, limits)
    _refuse_too_many_lines(line_count(text), name, limits)  # before the lines are made
    lines = split_lines(text)
    with_text = len(lines) - sum(1 for line in lines if not line.strip())
    if with_text > limits.segments:
        raise MeteorInputError(f"{name}: {with_text:,} lines with text; {limits.segments_text}")
    return lines


def bad_text(value: str) -> Optional[str]:
    """Why a string cannot be shown or scored as text (JSON can carry lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds an unpaired surrogate escape (such as \\ud800), which is not text"
    return None


def _check_header(header: list[str], name: str) -> None:
    if len(header) > MAX_COLUMNS:
        raise MeteorInputError(f"{name}: line 1 has {len(header)} columns; the limit is {MAX_COLUMNS}")
    duplicates = sorted(h for h, count in Counter(header).items() if count > 1)
    if duplicates:
        shown = ", ".join(repr(d) for d in duplicates[:10]) + (f" and {len(duplicates) - 10} more" if len(duplicates) > 10 else "")
        raise MeteorInputError(f"{name}: line 1: column name(s) repeated: {shown}")


def read_table(data: bytes, name: str, fmt: Optional[str] = None, limits: Limits = DEFAULT_LIMITS) -> Table:
    fmt = format_of(name, fmt)
    # One line-break convention for the readers below: CR alone and CRLF become LF.
    text = decode(data, name, limits).replace("\r\n", "\n").replace("\r", "\n")
    if fmt == "jsonl":
        return _read_jsonl(text, name, limits)
    if fmt not in ("tsv", "csv"):
        gz = " (a .gz file is read by the name under it: call it x.tsv.gz, x.csv.gz or x.jsonl.gz)" \
            if name.lower().endswith(".gz") else ""
        raise MeteorInputError(f"{name}: not a table format (tsv, csv, jsonl); got {fmt!r}{gz}")
    delimiter = "\t" if fmt == "tsv" else ","
    first = text.split("\n", 1)[0]
    if not first.strip():
        raise MeteorInputError(f"{name}: line 1 should be a header row with column names, found nothing")
    if delimiter not in first:
        other = "," if delimiter == "\t" else "\t"
        if first.lstrip().startswith("{"):  # a JSON object per line (a tester pasted JSONL as TSV: "is it CSV?")
            hint = " (it begins with {: is it JSONL?)"
        else:
            hint = f" (it has {'commas' if other == ',' else 'tabs'}: is it really {'CSV' if other == ',' else 'TSV'}?)" \
                if other in first else ""
        raise MeteorInputError(f"{name}: line 1 has no {'tab' if delimiter == chr(9) else 'comma'}; a {fmt.upper()} "
                               f"header needs at least two columns{hint}")
    if first.count(delimiter) >= MAX_COLUMNS:  # before a header of 100k fields is built
        raise MeteorInputError(f"{name}: line 1 has {first.count(delimiter) + 1} columns; the limit is {MAX_COLUMNS}")
    records = _tsv_records(text) if fmt == "tsv" else _csv_records(text, name)
    header = [h.strip() for h in next(records)[2]]
    _check_header(header, name)
    rows, line_numbers, problems = [], [], []
    data_lines = 0
    for line, last_line, row in records:
        data_lines += 1
        if data_lines > limits.table_lines:
            raise MeteorInputError(f"{name}: more than {limits.table_lines:,} lines after the header; "
                                   f"{limits.table_lines_text}")
        if not any(cell.strip() for cell in row):
            problems.append(RowProblem(name, line, "empty line"))
            continue
        if len(row) != len(header):
            # A row read over several lines in a CSV is a quoted field that ran on: say so
            # (an unclosed " swallowed the rest of the file as "2 fields": a tester).
            spans = f"; a quoted field runs from line {line} to line {last_line} (an unclosed \"?)" \
                if last_line > line else ""
            if fmt == "tsv" and _quoted_cells(row, len(header)):
                # A TSV written with quoting (Python's csv, pandas): a tab or a line break inside
                # quotes split the row, and "8 fields" did not say why (a tester)
                spans = ("; a TSV is read without quoting (a \" is text, as in WMT's files), so a tab or line "
                         "break inside quotes splits the row: save the table as CSV")
            problems.append(RowProblem(name, line, f"{len(row)} fields, the header has {len(header)}{spans}"))
            continue
        # Interned cells: a long table repeats each segment's source and references on every
        # system's row (12 times for WMT22 cs-en) and its language pair, ids and names on all.
        rows.append(dict(zip(header, map(intern, row))))
        line_numbers.append(line)
    if not rows:
        _refuse_rowless(name, problems)
    return Table(name, tuple(header), tuple(rows), tuple(line_numbers), tuple(problems), data_lines)


def _quoted_cells(row: Sequence[str], columns: int) -> bool:
    """Whether a TSV row of the wrong length looks cut by quoting: a cell that opens a quote
    it does not close, or, being too short, one that closes a quote it did not open (the
    second half of a field cut at a line break)."""
    opened = any(cell.startswith('"') and not (len(cell) > 1 and cell.endswith('"')) for cell in row)
    closed = len(row) < columns and any(cell.endswith('"') and not cell.startswith('"') for cell in row)
    return opened or closed


def _refuse_rowless(name: str, problems: list[RowProblem]) -> None:
    """A table with a header and nothing else is refused, saying so: it was taken, and the
    app then said none of the columns was clearly a system's output, beside one named candidate
    (a tester); JSONL says it as "no JSON object on any line"."""
    if all(p.message == "empty line" for p in problems):  # else the rows' problems are listed, as for any row
        raise MeteorInputError(f"{name}: a header row and no data rows"
                               + (f" ({_lines(len(problems))} after it, all blank)" if problems else ""))


def _tsv_records(text: str):
    """(line, line, fields) of each line (the header first): TSV has no quoting, so a line is
    its fields split at tabs. Not the csv module: its field limit (131,072 characters) refused
    a whole file for one long line (a tester); the scorer's limit per side then refuses that
    line alone, as in a plain-text file."""
    for number, line in enumerate(io.StringIO(text, newline="\n"), start=1):  # one line at a time
        yield number, number, line.removesuffix("\n").split("\t")


def _csv_records(text: str, name: str):
    """(first line, last line, fields) of each row (the header first); a quoted field may span
    lines. The csv module's errors name the line."""
    reader = csv.reader(io.StringIO(text, newline="\n"), delimiter=",", quoting=csv.QUOTE_MINIMAL)
    start = 1
    try:
        for row in reader:
            yield start, reader.line_num, row
            start = reader.line_num + 1
    except csv.Error as error:
        limit = str(error).startswith("field larger than field limit")
        raise MeteorInputError(
            f"{name}: line {reader.line_num}: " + (f"a field is longer than {csv.field_size_limit():,} characters, "
                                                   "the CSV reader's limit (a TSV or JSONL file has none)"
                                                   if limit else str(error))) from None


def _read_jsonl(text: str, name: str, limits: Limits) -> Table:
    rows, line_numbers, problems = [], [], []
    columns: dict[str, None] = {}  # ordered set: first appearance order
    count = line_count(text)
    if count > limits.table_lines:  # before the lines are made
        raise MeteorInputError(f"{name}: {count:,} lines; {limits.table_lines_text}")
    lines = split_lines(text)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            problems.append(RowProblem(name, number, "empty line"))
            continue
        if line.startswith("\ufeff"):
            # A byte-order mark starting a later line (files joined with cat): as batch reads it
            line = line[1:]
        try:
            row = json_line(line)
        except RepeatedKey as error:
            problems.append(RowProblem(name, number, str(error)))
            continue
        except (ValueError, RecursionError) as error:
            # ValueError covers JSONDecodeError and integers over Python's digit limit;
            # RecursionError: arrays nested thousands deep.
            # The column, as batch says it: "Unterminated string starting at" alone left the
            # user to search a long line (a tester).
            reason = json_error_reason(error) if isinstance(error, json.JSONDecodeError) else \
                ("nested too deeply" if isinstance(error, RecursionError) else "a number too long to read")
            if not rows and isinstance(error, json.JSONDecodeError):  # the first line fails: not JSONL at all
                raise MeteorInputError(f"{name}: line {number} is not JSON ({reason}); is the file really JSONL?") from None
            problems.append(RowProblem(name, number, f"not valid JSON ({reason})"))
            continue
        if not isinstance(row, dict):
            problems.append(RowProblem(name, number, "not a JSON object"))
            continue
        for key in row:
            columns.setdefault(key, None)
            if len(columns) > MAX_COLUMNS:
                raise MeteorInputError(f"{name}: line {number}: more than {MAX_COLUMNS} different keys; "
                                       f"the limit is {MAX_COLUMNS} columns")
        rows.append({key: intern(value) if type(value) is str else value for key, value in row.items()})  # see read_table
        line_numbers.append(number)
    if not rows:
        raise MeteorInputError(f"{name}: no JSON object on any line")
    return Table(name, tuple(columns), tuple(rows), tuple(line_numbers), tuple(problems), len(lines), has_header=False)


#: A number as score files write it: ASCII digits, a sign, a point, an exponent. float() also
#: reads "1_000" and Arabic-Indic digits, and a file's "1_000" entered the correlations as 1000
#: (a tester); "NaN" and "inf" are refused below (not finite).
_WRITTEN_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*|\s*[+-]?(?:nan|inf|infinity)\s*",
                             re.ASCII | re.IGNORECASE)


def _human_score(raw) -> Optional[float]:
    """A finite number, or None. Booleans are not scores; 400-digit integers overflow a float."""
    if raw is None or isinstance(raw, bool) or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, str) and not _WRITTEN_NUMBER.fullmatch(raw):
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def _shorten(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: The source of a reference for a key a JSONL line does not have (counted as empty, not noted).
_NO_KEY = " (no such key on this line)"


def _without_empty_references(references: list[str], sources: list[str]
                              ) -> tuple[list[str], tuple[str, ...], str, tuple[int, ...]]:
    """references.without_blank, the sources of those kept, a note naming the sources of those
    left out ("" if none), and the position of each kept one among those given, from 1."""
    kept, positions = without_blank(references)
    numbered = tuple(k + 1 for k in positions)
    if len(kept) == len(references):
        return kept, tuple(sources), "", numbered
    kept_set = set(positions)
    # A key a JSONL line does not have is not an empty reference someone wrote: one line with both
    # "reference" and "references" gave every other line a note about the key it lacked (a tester).
    left_out = sorted({s for k, s in enumerate(sources) if k not in kept_set and not s.endswith(_NO_KEY)},
                      key=sources.index)
    note = f"empty reference in {', '.join(left_out)}: left out, segment scored against the others" if left_out else ""
    return kept, tuple(sources[k] for k in positions), note, numbered


def corpus_from_table(table: Table, candidate_column: str, reference_columns: Sequence[str],
                      id_column: Optional[str] = None, human_column: Optional[str] = None,
                      limits: Limits = DEFAULT_LIMITS, system_column: Optional[str] = None) -> CorpusInput:
    """Map columns to roles. A JSONL reference field may hold a list of references. The
    segment limit is counted here, not when the table is read: a long table (a row per system
    output) has more rows than segments (WMT22 zh-en, 24,375 rows of 1,875 segments, was
    refused: a tester), and the readers keep their limit on lines. system_column: a long
    table's column naming the system of each row, kept per segment (CorpusInput.systems)."""
    if len(table.rows) > limits.segments:
        raise MeteorInputError(f"{table.name}: more than {limits.segments:,} rows; {limits.segments_text}")
    missing = [c for c in [candidate_column, *reference_columns, id_column, human_column, system_column]
               if c and c not in table.columns]
    if missing:
        raise MeteorInputError(f"{table.name}: column(s) {', '.join(repr(c) for c in missing)} not found; "
                               f"the columns are {', '.join(repr(c) for c in table.columns[:50])}"
                               + (f" and {len(table.columns) - 50} more" if len(table.columns) > 50 else ""))
    if not reference_columns:
        raise MeteorInputError(f"{table.name}: choose at least one reference column")
    if candidate_column in reference_columns:
        raise MeteorInputError(f"{table.name}: {candidate_column!r} is chosen as the candidate and as a reference; "
                               "a system compared with its own reference column scores almost 1")
    if human_column and human_column in (candidate_column, *reference_columns):
        # Every "score" was text: 300 notes "is not a number" and no correlation (a tester)
        role = "the candidate" if human_column == candidate_column else "a reference"
        raise MeteorInputError(f"{table.name}: {human_column!r} is chosen as the human scores and as {role}; "
                               "choose the column that holds the human scores")
    ids, cands, refs, human, lines, positions, given, systems = [], [], [], [], [], [], [], []
    problems, human_notes, reference_notes = list(table.problems), [], []
    rows_without_id = 0
    for row, line in zip(table.rows, table.lines):
        candidate = row.get(candidate_column)
        if not isinstance(candidate, str):
            problems.append(RowProblem(table.name, line, f"{candidate_column!r} is missing or not text"))
            continue
        segment_refs: list[str] = []
        sources: list[str] = []  # the column of each reference, for notes
        absent_keys = 0
        bad = bad_text(candidate) and f"{candidate_column!r} {bad_text(candidate)}"
        for column in reference_columns:
            value = row.get(column)
            if isinstance(value, list) and value and all(isinstance(v, str) or v is None for v in value):
                # A null item is an empty reference, as in batch and the frames API (it made the
                # line "not scored": a tester).
                segment_refs.extend("" if v is None else v for v in value)
                sources.extend([repr(column)] * len(value))
            elif isinstance(value, str):
                segment_refs.append(value)
                sources.append(repr(column))
            elif value is None and column in row and not table.has_header:
                # JSON null (pandas' to_json writes a missing value so): an empty cell, as in the
                # frames API; it made 4,624 of 6,000 rows "not scored" (a tester).
                segment_refs.append("")
                sources.append(f"{column!r} (null)")
            elif value is None and column not in row and not table.has_header:
                # A JSONL line without this key (records are ragged; a table's row has every
                # column): like an empty cell. Lines mixing "reference" and "references" each
                # lacked one and all were refused (a tester).
                segment_refs.append("")
                sources.append(f"{column!r}{_NO_KEY}")
                absent_keys += 1
            elif value == []:
                bad = bad or f"{column!r} {EMPTY_LIST}"
            elif not table.has_header and column in row:  # a JSONL value of another kind: said as batch says it
                bad = bad or (f"{column!r} must be a string or a list of strings (in a list, null or \"\" is a missing "
                              f"one), not {_json_kind(value)}")
            else:
                bad = bad or f"{column!r} is missing or not text"
        if absent_keys == len(reference_columns):
            bad = bad or f"no reference: none of {', '.join(map(repr, reference_columns))} is a key on this line"
        elif absent_keys and len(blank_positions(segment_refs)) == len(segment_refs):
            # Every reference blank: the keys the line lacks are none of its references ("all 3
            # references are blank" of a line with two, a "references" list of [null, ""])
            present = [k for k, source in enumerate(sources) if not source.endswith(_NO_KEY)]
            segment_refs, sources = [segment_refs[k] for k in present], [sources[k] for k in present]
        as_given = tuple(segment_refs)
        segment_refs, _, reference_note, kept_positions = _without_empty_references(segment_refs, sources)
        bad = bad or next((f"a reference {bad_text(r)}" for r in segment_refs if bad_text(r)), None)
        seg_id, without_id = str(line), False
        if id_column:
            raw_id = row.get(id_column)
            without_id = raw_id is None or (isinstance(raw_id, str) and not raw_id.strip())
            if without_id:
                # A row without an id (an empty cell, a JSONL null or no key) showed an empty id
                # in every table and export (a tester): its line, marked as such.
                seg_id = f"line {line}"
            else:
                seg_id = raw_id if isinstance(raw_id, str) else json.dumps(raw_id)
            bad = bad or (bad_text(seg_id) and f"{id_column!r} {bad_text(seg_id)}")
        if bad:
            problems.append(RowProblem(table.name, line, bad))
            continue
        rows_without_id += without_id
        score = None
        if human_column:
            raw = row.get(human_column)
            score = _human_score(raw)
            if score is None:
                what = "no human score" if raw is None or (isinstance(raw, str) and not raw.strip()) else \
                    f"human score {_shorten(raw)} is not a number" + (
                        " (a decimal comma: write a point, 0.9)" if isinstance(raw, str) and
                        re.fullmatch(r"\s*[+-]?\d+,\d+\s*", raw, re.ASCII) else "")
                human_notes.append(RowProblem(table.name, line, f"{what}: segment scored, left out of the correlations"))
        if reference_note:
            reference_notes.append(RowProblem(table.name, line, reference_note))
        ids.append(seg_id)
        cands.append(candidate)
        refs.append(tuple(segment_refs))
        positions.append(kept_positions)
        given.append(as_given if len(as_given) != len(segment_refs) else ())
        human.append(score)
        lines.append(line)
        if system_column:
            systems.append(cell_text(row.get(system_column)) or "")
    problems.sort(key=lambda p: p.line)
    return CorpusInput(tuple(ids), tuple(cands), tuple(refs), tuple(human) if human_column else None,
                       tuple(problems), tuple(lines), table.name, table.data_lines,
                       f"the {id_column!r} column" + (f" ('line N' for the {rows_without_id:,} "
                                                      f"row{'s' if rows_without_id != 1 else ''} without one)"
                                                      if rows_without_id else "") if id_column else
                       f"line number in {table.name}" + (" (header = line 1)" if table.has_header else ""),
                       human_notes=tuple(human_notes),
                       human_source=f"the {human_column!r} column" if human_column else "",
                       reference_notes=tuple(reference_notes), reference_positions=tuple(positions),
                       given_references=tuple(given) if any(given) else (), systems=tuple(systems),
                       system_column=system_column or "")


def _blank_tail_hint(*files: tuple[str, list[str]]) -> str:
    """For files whose line counts differ: when the longer one's extra lines are all empty at
    its end (an editor's blank lines), say so; a tester saw only the counts and could not tell."""
    (_, short), (long_name, long) = sorted(files, key=lambda f: len(f[1]))
    extra = long[len(short):]
    if any(line.strip() for line in extra):
        return ""
    if len(extra) == 1:
        return f"; the last line of {long_name} is empty: delete it if it is not a segment"
    return f"; the last {len(extra):,} lines of {long_name} are empty: delete them if they are not segments"


def _lines(count: int) -> str:
    return f"{count:,} line" + ("" if count == 1 else "s")


def corpus_from_parallel(candidates: tuple[str, bytes], references: Sequence[tuple[str, bytes]],
                         limits: Limits = DEFAULT_LIMITS) -> CorpusInput:
    """Plain-text files, one segment per line, same number of lines in every file."""
    cand_name, cand_data = candidates
    cand_lines = read_lines(cand_data, cand_name, limits)
    if not references:
        raise MeteorInputError("give at least one reference file")
    ref_lines = []
    for name, data in references:
        lines = read_lines(data, name, limits)
        if len(lines) != len(cand_lines):
            raise MeteorInputError(f"line counts differ: {cand_name} has {_lines(len(cand_lines))}, {name} has "
                                   f"{len(lines):,}" + _blank_tail_hint((cand_name, cand_lines), (name, lines)))
        ref_lines.append(lines)
    n = len(cand_lines)
    names = [name for name, _ in references]
    refs, files, notes, positions, given = [], [], [], [], []
    for k in range(n):
        as_given = tuple(lines[k] for lines in ref_lines)
        kept, kept_files, note, kept_positions = _without_empty_references(list(as_given), names)
        given.append(as_given if len(kept) != len(as_given) else ())
        refs.append(tuple(kept))
        files.append(kept_files)
        positions.append(kept_positions)
        if note:
            # Said of the reference file whose line is empty (it was said of the candidate file,
            # as "an empty reference cell": a tester looked for it in hyp.txt).
            empty = [name for j, name in enumerate(names) if j + 1 not in kept_positions]
            notes.append(RowProblem(", ".join(empty), k + 1, "empty line: left out, segment scored against the "
                                    "other references"))
    return CorpusInput(tuple(str(k) for k in range(1, n + 1)), tuple(cand_lines), tuple(refs),
                       lines=tuple(range(1, n + 1)), source=cand_name, data_lines=n,
                       id_source=f"line number in {cand_name}", reference_notes=tuple(notes),
                       reference_files=tuple(files), reference_positions=tuple(positions),
                       given_references=tuple(given) if any(given) else ())


def load_file(path: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    try:
        size = Path(path).stat().st_size
        if size > limits.file_bytes:
            raise MeteorInputError(f"{path}: {size:,} bytes is over {limits.size_text}")
        with open(path, "rb") as stream:  # a pipe (/dev/stdin) has no size: read at most one byte past the limit
            data = stream.read(limits.file_bytes + 1)
        if len(data) > limits.file_bytes:
            raise MeteorInputError(f"{path}: more than {limits.size_text}")
    except OSError as error:
        raise MeteorInputError(f"{path}: {error.strerror}") from None
    # WMT's files ship gzipped ("not read" was a tester's finding): read as they are, within the
    # same limit once uncompressed; by their first bytes too (gzip data piped into /dev/stdin was
    # "not UTF-8"; no UTF-8 text starts with them: 0x8b cannot start a character).
    return uploaded(data, path, limits)


def _refuse_unreadable(path: str) -> None:
    """A path that cannot be opened (missing, a directory, no permission) refused in the words
    load_file uses, without reading it."""
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        raise MeteorInputError(f"{path}: {error.strerror}") from None


def uploaded(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A file's bytes, read (load_file) or uploaded, gunzipped when it is gzip data (by name or by
    its first bytes): the app took only .txt files for plain text and no .gz (a tester)."""
    return _gunzip(data, name, limits) if name.lower().endswith(".gz") or data[:2] == b"\x1f\x8b" else data


def _gunzip(data: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A .gz file's content (every member), refused past the size limit uncompressed without
    uncompressing more than one byte past it (a small file can hold gigabytes of zeros)."""
    out = bytearray()
    if not data.startswith(b"\x1f\x8b"):
        raise MeteorInputError(f"{path}: named .gz but not gzip data (a gzip file starts with the bytes 1f 8b)")
    try:
        # Zero bytes after the last member are padding (gzip -t accepts them; tape and some tools
        # write them): "incorrect header check" there was a tester's find.
        while data:
            if not data.startswith(b"\x1f\x8b") and not data.strip(b"\0"):
                break
            stream = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            out += stream.decompress(data, limits.file_bytes + 1 - len(out))
            if len(out) > limits.file_bytes:
                raise MeteorInputError(f"{path}: uncompressed, more than {limits.size_text}")
            if not stream.eof:
                raise MeteorInputError(f"{path}: the gzip data ends before its end (a truncated file?)")
            data = stream.unused_data
    except zlib.error as error:
        raise MeteorInputError(f"{path}: not readable as gzip ({error})") from None
    return bytes(out)


def files_read_once(limits: Limits = DEFAULT_LIMITS) -> Callable[[str], bytes]:
    """load_file, reading each path once: several systems read the same references (or one
    table), and a pipe (/dev/stdin, <(...)) gives its data once; the second system's read
    found it empty ("line counts differ: ... /dev/stdin has 0": a tester)."""
    read: dict[str, bytes] = {}

    def load(path: str) -> bytes:
        if path not in read:
            read[path] = load_file(path, limits)
        return read[path]

    return load


#: Column names taken for a role nobody chose, in this order: the app's defaults and the CLI's,
#: so one table gets the same ids and human scores in both. A name matches a word when it is
#: that word, alone or followed by a separator or a digit ("id", "seg_id", "da-z", "human2"),
#: or, for the long words, followed by anything ("segment", "human_score"): "identity" and
#: "date" are not ids or DA scores (a tester), and a bare "score" may be any metric's.
ID_WORDS = ("id", "seg", "segment")
HUMAN_WORDS = ("human", "da", "z", "raw")
_WHOLE_WORD_ONLY = {"id", "seg", "da", "z", "raw"}


def _names_word(column: str, word: str) -> bool:
    name = column.strip().lower()
    if not name.startswith(word):
        return False
    rest = name[len(word):]
    return not rest or word not in _WHOLE_WORD_ONLY or not rest[0].isalpha()


#: Name prefixes of columns that hold system output, the likeliest first ("candidate" is what
#: the command line reads).
OUTPUT_PREFIXES = ("candidate", "hyp", "mt", "output", "system")


def _values(table: Table, column: str) -> list:
    """The column's values on the first rows that have one (a sample: the guesses below read at
    most 2,000 rows, so a large table costs no more)."""
    return [v for v in (row.get(column) for row in table.rows[:2000])
            if v is not None and not (isinstance(v, str) and not v.strip())]


def _mostly_numbers(table: Table, column: str) -> bool:
    values = _values(table, column)
    return bool(values) and 2 * sum(_human_score(v) is not None for v in values) >= len(values)


def _texts(table: Table, column: str) -> list[str]:
    """The column's sampled values when it holds text (every value a string, at least one not
    blank, not mostly numbers); [] for an empty column or one of JSON objects, lists or numbers: an empty "doc_id"
    was taken for the candidate and every segment scored 0, a JSONL "meta" object too (a tester)."""
    values = _values(table, column)
    return values if values and all(isinstance(v, str) for v in values) and not _mostly_numbers(table, column) else []


#: Words in a column's name that say it names something on each row (the system, language
#: pair, document, file, date, speaker, ...): such a column of one word per row, or of a few
#: repeated values, is names, not a system's output.
LABEL_WORDS = ("sys", "lang", "lp", "doc", "date", "time", "url", "domain", "genre", "file", "image", "img", "path",
               "model", "engine", "speaker", "topic", "id", "seg", "sent", "split", "category")


def _name_like(value: str) -> bool:
    """One ASCII word written as a name, not a word of text: with a digit, a separator or a
    capital inside ("Online-A", "d12", "2024-01-01", "de_en", "https://...", "a.jpg")."""
    return value.isascii() and any(ch.isalnum() for ch in value) and (
        any(ch.isdigit() or ch in "-_./:@" for ch in value) or any(ch.isupper() for ch in value[1:]))


def _name_words(column: str) -> list[str]:
    """The words of a column name: "mt_system" -> mt, system; "sentId" -> sent, id."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", column)]


def _one_name(value: str) -> bool:
    """One name: one ASCII word, or a very short one (a Chinese or Japanese sentence has no
    spaces and is no name: "SYSTRAN" and "Sys-0" of Chinese output were taken for names)."""
    return len(value.split()) == 1 and (value.isascii() or len(value.strip()) <= 4)


def is_label(table: Table, column: str) -> bool:
    """Names rather than output: a column named as a label (LABEL_WORDS) of one name per row or
    of few repeated values (the systems of a long table, even "Google Translate"); else, in a
    column not named as output, one name written as a name on every row (ids, files, dates,
    URLs, "Online-A") or one word repeated (at most half the rows hold distinct values, "de").
    A long table's "system", "doc_id", "lp" and "file_name" were taken for output and scored
    0.0000 with no warning, also beside Chinese references or short ones (testers); a column
    named as output of "<unk>" or "." on every row stays output (a broken system, scored)."""
    values = _texts(table, column)
    if not values:
        return False
    one_name = all(map(_one_name, values))
    # few distinct short values (a sentence repeated down a column is still output)
    few = len(values) >= 4 and 2 * len(set(values)) <= len(values) and \
        sum(len(v.split()) for v in values) <= 3 * len(values)
    if any(w.startswith(LABEL_WORDS) for w in _name_words(column)) and (one_name or few):
        return True
    if column.strip().lower().startswith(OUTPUT_PREFIXES[:4]):
        return False  # named candidate*, hyp*, mt*, output*: output, however short ("NATO", "COVID-19")
    return one_name and (few or all(_name_like(v.strip()) for v in values))


#: Name words of the column naming a long table's systems: an LLM evaluation names its
#: "model", a shared task its "team" or "submission" (only sys* was read: such tables were
#: scored as one mixed corpus).
SYSTEM_NAME_WORDS = ("sys", "model", "engine", "team", "submission")


def system_name_column(table: Table, reference_columns: Sequence[str] = ()) -> Optional[str]:
    """The column that names the system on each row of a long table (one row per system output):
    a name word of SYSTEM_NAME_WORDS (system, mt_system, model) holding two or more names, or else
    a column of names whose rows are shaped as systems' outputs (_names_systems: "provider",
    "mt", "Übersetzer"). None for a wide table (one column per system)."""
    named = next((c for c in table.columns if c not in reference_columns
                  and any(w.startswith(SYSTEM_NAME_WORDS) for w in _name_words(c))
                  and (is_label(table, c) or _numbered_names(table, c)) and _several_names(table, c)), None)
    if named is not None or not reference_columns:
        return named
    # A language pair column is none, though its rows can be shaped so: test sets whose pairs
    # share their English references (FLORES, NTREX) had "lp" taken for the systems (a tester)
    labels = [c for c in table.columns if c not in reference_columns and not _names_pairs(c) and is_label(table, c)]
    return next((c for c in labels if _names_systems(table, c, reference_columns)), None)


def _numbered_names(table: Table, column: str) -> bool:
    """A column of names some of which are numbers ({"system": 1}, a 7 among text names) or
    missing (a JSONL null): read as text (cell_text), as the System box and pivot_long read
    them; every text a name."""
    cells = [row.get(column) for row in table.rows[:2000]]
    values = [v for v in cells if v is not None]
    if not values or len(values) == len(cells) and all(isinstance(v, str) for v in values):
        return False  # names all text: is_label's to judge
    return all((isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and _one_name(v))
               for v in values)


def _names_pairs(column: str) -> bool:
    """Named as a language pair column (lp*, lang*), as language_pair_column reads them."""
    return column.strip().lower().startswith(("lp", "lang"))


def _named_rows(table: Table, column: str):
    """(row, its cell as text) for every row whose cell in `column` is text that is not blank."""
    for row in table.rows:
        text = cell_text(row.get(column))
        if text is not None and text.strip():
            yield row, text


def _several_names(table: Table, column: str) -> bool:
    """Two or more names on all the rows, not a sample: WMT's outputs.tsv lists one system after
    another, and the first 2,000 rows of ja-en (2,008 segments a system) named one, so its 14
    systems were not seen (the long table scored as one corpus, nothing compared); and one
    language pair after another: cs-en's 17,376 rows came first, and cs-en and de-en were pooled."""
    names = (name for _, name in _named_rows(table, column))
    first = next(names, None)
    return any(name != first for name in names)


def _names_systems(table: Table, column: str, reference_columns: Sequence[str]) -> bool:
    """The rows grouped by the column's names look like two or more systems' outputs for the same
    segments: in each group nearly every row has references of its own (one row per segment),
    most of each group's references are also another group's, and rows of one segment differ
    between groups (different output: rows repeated per annotator or per rating are no systems).
    A long table whose system column has a name of its own ("provider") was scored as one corpus
    mixing its systems, and System Comparison found nothing to compare."""
    groups: dict[str, dict[tuple, object]] = {}  # name -> segment -> its row
    rows = 0
    for row, name in _named_rows(table, column):
        rows += 1
        segment = tuple(cell_text(row.get(c)) or "" for c in reference_columns)
        groups.setdefault(name, {})[segment] = row  # a segment twice in one group counts once
    if len(groups) < 2 or 2 * len(groups) > rows:  # at least two rows a system on average
        return False
    if sum(len(g) for g in groups.values()) < 0.9 * rows:  # segments repeated within the groups
        return False
    in_groups = Counter(segment for g in groups.values() for segment in g)
    shared = [segment for segment, count in in_groups.items() if count > 1]
    if 2 * sum(in_groups[s] for s in shared) < sum(in_groups.values()):
        return False
    # Rows of a shared segment in different groups, the same everywhere else: no systems. A
    # sample of the segments is enough (every row's other cells cost 0.15 s on 28,000 rows).
    others = [c for c in table.columns if c != column and c not in reference_columns]
    sample = shared[:: max(1, len(shared) // 200)]
    differing = sum(1 for s in sample if len({tuple(cell_text(g[s].get(c)) for c in others)
                                              for g in groups.values() if s in g}) > 1)
    return 2 * differing > len(sample)


def language_pair_column(table: Table, exclude: Sequence[Optional[str]] = ()) -> Optional[str]:
    """The column naming each row's language pair (lp*, lang*) when it holds two or more: a
    long table of several pairs pooled them in one comparison without a word (a tester)."""
    return next((c for c in table.columns if c not in exclude and _names_pairs(c)
                 and is_label(table, c) and _several_names(table, c)), None)


def cell_text(value) -> Optional[str]:
    """A cell as the text a user types for it: a JSONL number as written (1, 2.5), text as it is."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return json.dumps(value)
    return None


def rows_where(table: Table, column: str, value: str) -> Table:
    """The table's rows whose `column` is `value`, with their file lines and the table's problems."""
    kept = [(row, line) for row, line in zip(table.rows, table.lines) if cell_text(row.get(column)) == value]
    return replace(table, rows=tuple(r for r, _ in kept), lines=tuple(line for _, line in kept),
                   data_lines=len(kept) + len(table.problems))


@dataclass(frozen=True)
class LongTable:
    """A long table (one row per system output) pivoted to a column per system (`wide`), with
    what the pivot found per system, in `systems` order: the long table's rows of each, the
    segments it has no row for (their ids, or line numbers without an id column), and the lines
    of its rows that repeat a segment it already has (paired k-th with k-th: said, since a
    doubled file changes every verdict). `unnamed` lists rows without a system name."""

    wide: Table
    system_column: str
    output_column: str
    systems: tuple[str, ...]
    rows: tuple[int, ...]
    absent: tuple[tuple[str, ...], ...]
    repeated: tuple[tuple[int, ...], ...]
    unnamed: tuple[int, ...] = ()
    id_column: Optional[str] = None  # part of a segment's key, with the references
    reference_columns: tuple[str, ...] = ()
    group_column: Optional[str] = None  # part of the key too (several language pairs pooled)
    #: Segments without the rows repeats made (the absent are counted among these): "B has no row
    #: for 1 of the 6 segments" of a file with 5, A's repeat of one being the sixth (a tester).
    distinct_segments: Optional[int] = None

    def notes(self) -> list[str]:
        """What the pivot found that changes a comparison, in words (the app and the CLI)."""
        segments = len(self.wide.rows) if self.distinct_segments is None else self.distinct_segments
        out = []
        # Without an id, a test set's repeated sentence is a repeated segment in every system:
        # said once, not as "output in the file twice?" per system (WMT22 cs-en, 3 of them: a tester).
        test_set_repeats = not self.id_column and len({len(r) for r in self.repeated}) == 1 and self.repeated[0]
        if test_set_repeats:
            out.append(f"{len(self.repeated[0]):,} segment(s) have the references of an earlier one in every system "
                       f"(lines of {self.systems[0]}: {listed_lines(self.repeated[0])}): without an id column a "
                       "segment is its references, so a sentence the test set repeats is paired k-th with k-th, as "
                       "in the file")
        for name, absent, repeated in zip(self.systems, self.absent, self.repeated):
            if absent:
                out.append(f"{name} has no row for {len(absent):,} of the {segments:,} segments "
                           f"({', '.join(absent[:8])}{', ...' if len(absent) > 8 else ''}): they are left out of the "
                           "comparison for every system")
            if repeated and not test_set_repeats:
                out.append(f"{name} has {len(repeated):,} row(s) repeating a segment it already has (the same "
                           + (f"{self.id_column!r} and " if self.id_column else "")
                           + f"references; {named_lines(repeated)})"
                           ": the k-th of them is paired with the k-th repeat of every other system, and left out "
                           "where the others have none (as when a system's output is in the file twice)")
        if self.unnamed:
            out.append(f"{len(self.unnamed):,} row(s) name no system in {self.system_column!r} "
                       f"({named_lines(self.unnamed)}): not compared")
        if self.group_column:
            groups = sorted({v for v in (cell_text(row.get(self.group_column)) for row in self.wide.rows) if v})
            out.append(f"{len(groups)} language pairs in {self.group_column!r} are pooled ({', '.join(groups[:10])}"
                       f"{', ...' if len(groups) > 10 else ''}): one at a time is the usual comparison")
        unread = [p for p in self.wide.problems if p.line not in set(self.unnamed)]
        if unread:
            reasons = ", ".join(dict.fromkeys(p.message for p in unread[:20]))
            out.append(f"{len(unread):,} line(s) of the table not read ({named_lines([p.line for p in unread])}: "
                       f"{reasons}): no system's")
        return out

    def corpora(self, systems: Sequence[str], reference_columns: Sequence[str], id_column: Optional[str] = None,
                limits: Limits = DEFAULT_LIMITS) -> tuple[CorpusInput, ...]:
        """One CorpusInput per chosen column of `wide`, counted on that system's own rows: a
        segment it has no row for is not a data line of its own (it showed as "not scored" at
        another system's line: a tester), and is said by `absent`; the table's lines that are
        no system's (empty, malformed, naming none) are said once by `notes`, not charged to
        every system (each showed "2 not scored" for 2 rows naming no system: a tester)."""
        out = []
        for column in systems:
            corpus = corpus_from_table(self.wide, column, reference_columns, id_column, None, limits)
            if column not in self.systems:
                out.append(corpus)  # an id or reference column chosen as a system: as any table
                continue
            at = self.systems.index(column)
            without = {line for row, line in zip(self.wide.rows, self.wide.lines) if column not in row}
            without.update(p.line for p in self.wide.problems)
            problems = tuple(p for p in corpus.problems if p.line not in without)
            out.append(replace(corpus, problems=problems, data_lines=self.rows[at]))
        return tuple(out)


def pivot_long(table: Table, system_column: str, output_column: str, reference_columns: Sequence[str],
               id_column: Optional[str] = None, group_column: Optional[str] = None) -> LongTable:
    """A long table (one row per system output, the system named in `system_column`) as a wide
    one: a row per segment, its id and reference columns, and a column per system holding that
    system's `output_column`. A segment is its id (when there is one) and its references, and the
    k-th time a system has it pairs with the k-th time another has it; a system without a row for
    a segment has no cell there (that segment is then not scored for it, and comparisons leave
    it out, saying so). Each row keeps the file line of the segment's first row. The Compare page
    ranked the long table's names as a system (testers); WMT ships its outputs this way.
    `group_column` (a language pair, when several are pooled) is part of a segment's key and
    name: seg_id 7 of cs-en is not seg_id 7 of de-en."""
    keys: dict = {}  # segment key -> index into rows
    rows: list[dict] = []
    lines: list[int] = []
    seen: dict = {}  # (system, key) -> occurrences so far
    counts: dict = {}  # system -> rows
    repeated: dict = {}  # system -> lines of rows repeating a segment it has
    unnamed: list[int] = []
    repeats: list[bool] = []  # per row: a segment's second or later occurrence
    taken = {c for c in (group_column, id_column, *reference_columns) if c}
    for row, line in zip(table.rows, table.lines):
        system = cell_text(row.get(system_column))  # a JSONL number names a system too ({"system": 3})
        if system is None or not system.strip():
            unnamed.append(line)  # nothing to place it under: said as not read
            continue
        name = system if system not in taken else f"{system} (system)"
        base = (row.get(group_column) if group_column else None, row.get(id_column) if id_column else None,
                tuple(str(row.get(c)) for c in reference_columns))
        occurrence = seen.get((name, base), 0)
        seen[(name, base)] = occurrence + 1
        if occurrence:
            repeated.setdefault(name, []).append(line)
        key = (base, occurrence)
        at = keys.get(key)
        if at is None:
            at = keys[key] = len(rows)
            rows.append({c: row.get(c) for c in taken})
            lines.append(line)
            repeats.append(occurrence > 0)
        counts[name] = counts.get(name, 0) + 1
        rows[at][name] = row.get(output_column)
    systems = tuple(counts)
    problems = tuple(sorted([*table.problems, *(RowProblem(table.name, line, f"no system named in {system_column!r}")
                                                for line in unnamed)], key=lambda p: p.line))
    columns = tuple([c for c in (group_column, id_column, *reference_columns) if c] + list(systems))

    def label(row: dict, line: int) -> str:
        value = cell_text(row.get(id_column)) if id_column else None
        name = f"{id_column} {value}" if value is not None and value.strip() else f"line {line}"
        group = cell_text(row.get(group_column)) if group_column else None
        return f"{group} {name}" if group else name
    # Not the rows a repeat made: those are said by `repeated` (a system's output in the file
    # twice made every other system "miss" its repeats).
    absent = tuple(tuple(label(row, line) for row, line, again in zip(rows, lines, repeats) if name not in row and not again)
                   for name in systems)
    # The long table's own name: the problems and notes name the file the user gave.
    wide = Table(table.name, columns, tuple(rows), tuple(lines), problems, len(rows), table.has_header)
    if group_column:
        wide = with_pooled_ids(wide, group_column, id_column)  # as its key: seg_id 7 of cs-en is "cs-en 7"
    return LongTable(wide, system_column, output_column, systems, tuple(counts.values()), absent,
                     tuple(tuple(repeated.get(name, ())) for name in systems), tuple(unnamed), id_column,
                     tuple(reference_columns), group_column, repeats.count(False))


def with_pooled_ids(table: Table, group_column: str, id_column: Optional[str]) -> Table:
    """The table with each id naming its group ("cs-en 7"), for rows of several groups (language
    pairs) scored or compared together: the pages showed "7" for cs-en's and de-en's alike (last
    note's left-out list). A blank id or group leaves the id as it was."""
    if not id_column or id_column not in table.columns:
        return table
    return replace(table, rows=tuple({**row, id_column: _pooled_id(row.get(group_column), row.get(id_column))}
                                     for row in table.rows))


def _pooled_id(group, value):
    """A pooled segment's id: its group (language pair) and its own id, or as it was when
    either is blank (a blank id stays blank: the line names the segment then)."""
    group_text, value_text = cell_text(group), cell_text(value)
    if not (value_text and value_text.strip() and group_text and group_text.strip()):
        return value
    return f"{group_text} {value_text}"


def guess_human_column(table: Table, exclude: Sequence[Optional[str]] = ()) -> Optional[str]:
    """The human-score column: named by HUMAN_WORDS and holding numbers (on at least half the
    rows that have a value). A text column named "HUMAN-refB" (WMT's name for a human
    translation, scored as a system) was taken for scores, 800 notes "is not a number" (a tester)."""
    for word in HUMAN_WORDS:
        for column in table.columns:
            if column not in exclude and _names_word(column, word) and _mostly_numbers(table, column):
                return column
    return None


#: Name words of text columns that are not a system's output: the source, notes, the
#: Hugging Face "target" (a reference there) and the like.
NOT_OUTPUT_WORDS = ("src", "source", "comment", "note", "remark", "description", "context", "prompt", "instruction",
                    "target", "gold", "label")


def text_columns(table: Table, exclude: Sequence[Optional[str]] = ()) -> list[str]:
    """Columns that may hold a system's output when none is named so (output_columns): text, not
    numbers, not names (is_label), not the source or a note. A table "source, translation,
    reference" had its French source scored (0.0000, no warning), "id, score, reference" its ids
    (testers). A text column named human* ("HUMAN-refB", a human translation) is one."""
    return [c for c in table.columns if c not in exclude and _texts(table, c)
            and not any(w.startswith(NOT_OUTPUT_WORDS) for w in _name_words(c)) and not is_label(table, c)]


def output_columns(table: Table, exclude: Sequence[str] = ()) -> list[str]:
    """Columns that look like system output, the likeliest first: named by OUTPUT_PREFIXES (in
    that order, then column order), holding text, not numbers ("hyp_len", "candidate_score")
    and not names (is_label). A WMT table's "system" column ("Online-A" on every row) came
    before its "candidate" column, and the app scored "Online-A" against every reference
    (0.0000 on 1,377 rows, no warning: a tester)."""
    def ranked(column):
        return next(k for k, prefix in enumerate(OUTPUT_PREFIXES) if column.lower().startswith(prefix))

    named = [c for c in table.columns if c not in exclude and c.lower().startswith(OUTPUT_PREFIXES)
             and _texts(table, c) and not is_label(table, c)]
    return sorted(named, key=lambda c: (ranked(c), table.columns.index(c)))


def guess_column(columns: Sequence[str], words: Sequence[str], exclude: Sequence[Optional[str]] = ()) -> Optional[str]:
    """The first column (by word order, then column order) named by one of `words`."""
    for word in words:
        for column in columns:
            if column not in exclude and _names_word(column, word):
                return column
    return None


def reference_columns_of(columns: Sequence[str]) -> list[str]:
    """The reference columns a table's names suggest: every column named ref* in any case
    ("Reference", "ref_b"). The CLI's default and the app's (the app took only the first, so
    a table with two reference columns scored against one: a tester)."""
    return [c for c in columns if c.strip().lower().startswith("ref")]


def default_reference_columns(table: Table) -> list[str]:
    """The app's default reference columns: reference_columns_of, less a column blank on every
    row while another has text. WMT22 ja-en's reference_alt is empty throughout, and every one
    of its 2,008 segments was said to have an empty reference (the scores were right: a blank
    reference is left out). The boxes show what is chosen; the CLI keeps every named column."""
    named = reference_columns_of(table.columns)
    with_text = [c for c in named if any(_holds_reference_text(row.get(c)) for row in table.rows)]
    return with_text or named


def _holds_reference_text(value) -> bool:
    """A cell with a reference that is not blank: text, or a JSONL list holding such text. A
    list was not text, so a file mixing "references" lists and "reference" strings defaulted to
    "reference" alone and scored 1 line of 2 (a tester; the CLI took both)."""
    if isinstance(value, list):
        return any(isinstance(item, str) and item.strip() for item in value)
    text = cell_text(value)
    return text is not None and bool(text.strip())


def _reference_columns(table: Table, given: Optional[Sequence[str]]) -> list[str]:
    # All named ones, blank or not (unlike the app's default, default_reference_columns): a
    # report's best_reference counts the columns as the file has them.
    ref_cols = list(given or reference_columns_of(table.columns))
    if not ref_cols:
        raise MeteorInputError(f"{table.name}: no column named reference* or ref*: name the reference column(s) "
                               f"with --reference-column (columns: {', '.join(table.columns)})")
    return ref_cols


def candidate_column_of(columns: Sequence[str]) -> Optional[str]:
    """The column named candidate, in any case ("Candidate" was not found: a tester): the CLI's
    candidate column and the app's default, whatever its cells hold (the app asked to choose one,
    "none is clearly a system's output", beside a column named candidate holding a number on
    one row: a tester; the rows' problems say what is wrong)."""
    return next((c for c in columns if c.strip().lower() == "candidate"), None)


def _candidate_column(table: Table, option: str) -> str:
    """candidate_column_of, its absence naming the option (a tester)."""
    column = candidate_column_of(table.columns)
    if column is None:
        raise MeteorInputError(f"{table.name}: no column named 'candidate': name the candidate column with "
                               f"{option} (columns: {', '.join(table.columns)})")
    return column


def read_long_systems(path: str, system_column: str, systems: Sequence[str] = (), output_column: Optional[str] = None,
                      reference_columns: Optional[Sequence[str]] = None, id_column: Optional[str] = None,
                      load: Optional[Callable[[str], bytes]] = None, fmt: Optional[str] = None,
                      limits: Limits = DEFAULT_LIMITS, where: Sequence[str] = ()
                      ) -> tuple[LongTable, tuple[str, ...], tuple[CorpusInput, ...]]:
    """The CLI's compare on a long table (a row per system output, `system_column` naming the
    system, as WMT ships them), as the app's System Comparison pivots it: every system, or
    `systems`; the output in `output_column` (default: the column named candidate)."""
    load = load or (lambda name: load_file(name, limits))
    if format_of(path, fmt) == "txt":
        raise MeteorInputError(f"--system-column: {path} is plain text; it applies to a TSV, CSV or JSONL table"
                               + ("" if fmt else " (if it is one, give its format with --format)"))
    table = read_table(load(path), path, fmt, limits)
    for condition in where:
        table = _rows_meeting(table, condition)
    if system_column not in table.columns:
        raise MeteorInputError(f"--system-column {system_column!r}: {path} has no such column (columns: "
                               f"{', '.join(table.columns)})")
    ref_cols = _reference_columns(table, reference_columns)
    output_column = output_column or _candidate_column(table, "--output-column")
    if id_column is None:
        id_column = guess_column(table.columns, ID_WORDS, [output_column, *ref_cols, system_column])
    # Several language pairs: pooled as asked, a segment being its pair's (the app asks first)
    pairs = language_pair_column(table, [system_column, output_column, *ref_cols, id_column])
    long = pivot_long(table, system_column, output_column, ref_cols, id_column or None, pairs)
    chosen = tuple(systems) or long.systems
    unknown = [s for s in chosen if s not in long.systems]
    if unknown:
        raise MeteorInputError(f"{', '.join(map(repr, unknown))}: not a system named in {system_column!r} of {path} "
                               f"(its systems: {', '.join(long.systems)})")
    if len(chosen) < 2:
        raise MeteorInputError(f"{path}: {'only ' + repr(chosen[0]) if chosen else 'no system'} named in "
                               f"{system_column!r}; a comparison needs two or more")
    return long, chosen, long.corpora(chosen, ref_cols, id_column or None, limits)


def _rows_meeting(table: Table, condition: str) -> Table:
    """The rows of `table` whose column is the value, for "COLUMN=VALUE" (the first = splits)."""
    column, sep, value = condition.partition("=")
    if not sep or not column:
        raise MeteorInputError(f"--where {condition!r}: write it as COLUMN=VALUE, such as --where system=Online-A")
    if column not in table.columns:
        raise MeteorInputError(f"--where {condition!r}: {table.name} has no column {column!r} (columns: "
                               f"{', '.join(table.columns)})")
    kept = rows_where(table, column, value)
    if not kept.rows:
        values = sorted({v for v in (cell_text(row.get(column)) for row in table.rows) if v is not None})
        shown = ", ".join(repr(v) for v in values[:20]) + (f" and {len(values) - 20} more" if len(values) > 20 else "")
        raise MeteorInputError(f"--where {condition!r}: no row of {table.name} has {column!r} = {value!r}"
                               + (f" (its values: {shown})" if values else ""))
    return kept


def read_corpus_files(candidates: str, references: Sequence[str] = (), candidate_column: Optional[str] = None,
                      reference_columns: Optional[Sequence[str]] = None, id_column: Optional[str] = None,
                      human_column: Optional[str] = None, guess_human: bool = True,
                      load: Optional[Callable[[str], bytes]] = None, fmt: Optional[str] = None,
                      limits: Limits = DEFAULT_LIMITS, where: Sequence[str] = ()) -> CorpusInput:
    """The CLI's entry: paths in, CorpusInput out (I/O at the edge). A table's id column, and
    with `guess_human` its human-score column, are guessed as the app guesses them when not
    given (before, the CLI used line numbers and no human scores where the app used the
    table's 'id' and 'human' columns: a tester). `load`: path -> bytes (default load_file;
    several systems share files_read_once). `fmt`: the candidates file's format (txt, tsv,
    csv, jsonl) when its name does not say it (/dev/stdin, a pipe). `limits`: what a file may
    hold (the CLI's --max-mb and --max-segments). `where`: "COLUMN=VALUE" conditions a table's
    rows must all meet (--where: one system of a long table, one language pair)."""
    load = load or (lambda path: load_file(path, limits))
    if format_of(candidates, fmt) == "txt":
        given = [flag for flag, value in (("--candidate-column", candidate_column), ("--reference-column", reference_columns),
                                          ("--id-column", id_column), ("--human-column", human_column),
                                          ("--where", where)) if value]
        if given:
            raise MeteorInputError(f"{', '.join(given)}: {candidates} is plain text (one segment per line, the id is the "
                                   "line number); column options apply to TSV, CSV and JSONL tables"
                                   + ("" if fmt else "; if it is one, give its format with --format"))
        if not references:
            _refuse_unreadable(candidates)  # said as what it is, not "give its references" (the CLI attacker)
            # A table piped in (/dev/stdin) is read as text by its name: say how to read it as a table.
            raise MeteorInputError(f"{candidates} is read as plain text (one segment per line): give its reference "
                                   "file(s) with --references" + ("" if fmt else ", or, if it is a TSV, CSV or JSONL "
                                                                                  "table, its format with --format"))
        return corpus_from_parallel((candidates, load(candidates)), [(r, load(r)) for r in references], limits)
    table = read_table(load(candidates), candidates, fmt, limits)
    for condition in where:
        table = _rows_meeting(table, condition)
    if references:
        raise MeteorInputError(f"{candidates} is a table: give its references as columns (--reference-column), "
                               "not as separate files")
    ref_cols = _reference_columns(table, reference_columns)
    candidate_column = candidate_column or _candidate_column(table, "--candidate-column")
    taken = [candidate_column, *ref_cols, id_column, human_column]
    # None: guess; "" (--id-column "" / --human-column ""): no such column.
    if id_column is None:
        id_column = guess_column(table.columns, ID_WORDS, taken)
    if human_column is None and guess_human:
        human_column = guess_human_column(table, [*taken, id_column])
    named_in = system_name_column(table, ref_cols)
    if named_in == candidate_column:
        named_in = None
    # A long table's system column kept on each row (the output's "system" field), as the Corpus page shows it
    corpus = corpus_from_table(table, candidate_column, ref_cols, id_column or None, human_column or None, limits,
                               system_column=named_in)
    if named_in is not None:  # as the Corpus page says it
        systems = len({v for v in (cell_text(row.get(named_in)) for row in table.rows) if v and v.strip()})
        corpus = replace(corpus, notes=(f"{candidates} looks like a long table: the rows of {systems} systems named in "
                                        f"{named_in!r} are scored as one corpus; one system: --where {named_in}=NAME; "
                                        f"all compared: compare --system-column {named_in}",))
    several = several_references_note(candidates, ref_cols) if not reference_columns else None
    if several:
        corpus = replace(corpus, notes=corpus.notes + (several,))
    pair_column = language_pair_column(table, [named_in, candidate_column, *ref_cols, id_column])
    if pair_column is not None:
        # As the corpus pages take one pair at a time: several pooled mean little, and nothing said so.
        pairs = sorted({v for v in (cell_text(row.get(pair_column)) for row in table.rows) if v and v.strip()})
        corpus = replace(corpus, notes=corpus.notes + (
            f"{candidates} holds {len(pairs)} language pairs in {pair_column!r} ({_names_in_brief(pairs)}), pooled in "
            f"one corpus; one pair: --where {pair_column}={pairs[0]}",))
    return corpus


def several_references_note(name: str, columns: Sequence[str]) -> Optional[str]:
    """Said when a table's reference columns were found, not given, and are several: WMT's
    outputs.tsv has 'reference' and 'reference_alt', its published METEOR 1.5 scores used the
    first alone, and with both 3,565 of cs-en's 17,376 segments differed from them, nothing
    saying which columns were used but sacreBLEU's nrefs:2 (a tester). Only when one of them is
    an alternative ('*alt*'): a captioning table's reference1..reference5 are all meant."""
    if len(columns) < 2 or not any("alt" in column.lower() for column in columns):
        return None
    return (f"{name}: each segment is scored against the {len(columns)} reference columns "
            f"{', '.join(map(repr, columns))} and keeps its best; one column: --reference-column NAME "
            "(WMT's published METEOR 1.5 scores of outputs.tsv used 'reference' alone)")


def _names_in_brief(names: Sequence[str], shown: int = 5) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
