"""Reading corpora: plain text (one segment per line), TSV, CSV, JSONL. Parsing works on bytes
plus a file name (the app's uploads and the CLI's files go through the same code). Problems
that make a whole file unusable raise MeteorInputError naming the file and line; problems of
single rows are collected (file, line, reason) and those rows are reported, never dropped
silently."""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from .errors import MeteorInputError

#: Upload caps, stated in the app: beyond them the file is rejected with a message.
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_SEGMENTS = 20_000
TABLE_FORMATS = ("tsv", "csv", "jsonl")


@dataclass(frozen=True)
class RowProblem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.message}"


@dataclass(frozen=True)
class Table:
    """A parsed table: column names and rows (dicts) with the file line each came from."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[dict, ...]
    lines: tuple[int, ...]
    problems: tuple[RowProblem, ...] = ()


@dataclass(frozen=True)
class CorpusInput:
    """Segments ready to score. `problems` lists rows that are kept out, with the reason."""

    ids: tuple[str, ...]
    candidates: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    human: Optional[tuple[Optional[float], ...]] = None
    problems: tuple[RowProblem, ...] = ()


def decode(data: bytes, name: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise MeteorInputError(f"{name}: {len(data) / 1e6:.1f} MB is over the {MAX_FILE_BYTES // (1024 * 1024)} MB limit")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise MeteorInputError(f"{name}: line {line} is not UTF-8 ({error.reason} at byte {error.start}); "
                               "save the file as UTF-8") from None


def format_of(name: str, declared: Optional[str] = None) -> str:
    if declared:
        return declared
    suffix = Path(name).suffix.lower().lstrip(".")
    return suffix if suffix in TABLE_FORMATS else "txt"


def read_lines(data: bytes, name: str) -> list[str]:
    text = decode(data, name)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_SEGMENTS:
        raise MeteorInputError(f"{name}: {len(lines)} lines; the limit is {MAX_SEGMENTS} segments")
    return [line.rstrip("\r") for line in lines]


def read_table(data: bytes, name: str, fmt: Optional[str] = None) -> Table:
    fmt = format_of(name, fmt)
    text = decode(data, name)
    if fmt == "jsonl":
        return _read_jsonl(text, name)
    if fmt not in ("tsv", "csv"):
        raise MeteorInputError(f"{name}: not a table format (tsv, csv, jsonl); got {fmt!r}")
    delimiter = "\t" if fmt == "tsv" else ","
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise MeteorInputError(f"{name}: line 1 should be a header row with column names, found nothing")
    if delimiter not in lines[0]:
        other = "," if delimiter == "\t" else "\t"
        hint = f" (it has {'commas' if other == ',' else 'tabs'}: is it really {'CSV' if other == ',' else 'TSV'}?)" \
            if other in lines[0] else ""
        raise MeteorInputError(f"{name}: line 1 has no {'tab' if delimiter == chr(9) else 'comma'}; a {fmt.upper()} "
                               f"header needs at least two columns{hint}")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter,
                        quoting=csv.QUOTE_NONE if fmt == "tsv" else csv.QUOTE_MINIMAL)
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as error:
        raise MeteorInputError(f"{name}: line 1: {error}") from None
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise MeteorInputError(f"{name}: line 1: column name(s) repeated: {', '.join(duplicates)}")
    rows, line_numbers, problems = [], [], []
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                problems.append(RowProblem(name, line, "empty line"))
                continue
            if len(row) != len(header):
                problems.append(RowProblem(name, line, f"{len(row)} fields, the header has {len(header)}"))
                continue
            rows.append(dict(zip(header, row)))
            line_numbers.append(line)
            if len(rows) > MAX_SEGMENTS:
                raise MeteorInputError(f"{name}: more than {MAX_SEGMENTS} rows; the limit is {MAX_SEGMENTS} segments")
    except csv.Error as error:
        raise MeteorInputError(f"{name}: line {reader.line_num}: {error}") from None
    return Table(name, tuple(header), tuple(rows), tuple(line_numbers), tuple(problems))


def _read_jsonl(text: str, name: str) -> Table:
    rows, line_numbers, problems, columns = [], [], [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            problems.append(RowProblem(name, number, "empty line"))
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            if not rows:  # the first line already fails: the file is not JSONL at all
                raise MeteorInputError(f"{name}: line {number} is not JSON ({error.msg}); is the file really JSONL?") from None
            problems.append(RowProblem(name, number, f"not valid JSON ({error.msg})"))
            continue
        if not isinstance(row, dict):
            problems.append(RowProblem(name, number, "not a JSON object"))
            continue
        for key in row:
            if key not in columns:
                columns.append(key)
        rows.append(row)
        line_numbers.append(number)
        if len(rows) > MAX_SEGMENTS:
            raise MeteorInputError(f"{name}: more than {MAX_SEGMENTS} rows; the limit is {MAX_SEGMENTS} segments")
    if not rows:
        raise MeteorInputError(f"{name}: no JSON object on any line")
    return Table(name, tuple(columns), tuple(rows), tuple(line_numbers), tuple(problems))


def corpus_from_table(table: Table, candidate_column: str, reference_columns: Sequence[str],
                      id_column: Optional[str] = None, human_column: Optional[str] = None) -> CorpusInput:
    """Map columns to roles. A JSONL reference field may hold a list of references."""
    missing = [c for c in [candidate_column, *reference_columns, id_column, human_column] if c and c not in table.columns]
    if missing:
        raise MeteorInputError(f"{table.name}: column(s) {', '.join(repr(c) for c in missing)} not found; "
                               f"the columns are {', '.join(repr(c) for c in table.columns)}")
    if not reference_columns:
        raise MeteorInputError(f"{table.name}: choose at least one reference column")
    ids, cands, refs, human, problems = [], [], [], [], list(table.problems)
    for row, line in zip(table.rows, table.lines):
        candidate = row.get(candidate_column)
        if not isinstance(candidate, str):
            problems.append(RowProblem(table.name, line, f"{candidate_column!r} is missing or not text"))
            continue
        segment_refs: list[str] = []
        bad = None
        for column in reference_columns:
            value = row.get(column)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                segment_refs.extend(value)
            elif isinstance(value, str):
                segment_refs.append(value)
            else:
                bad = f"{column!r} is missing or not text"
        if bad:
            problems.append(RowProblem(table.name, line, bad))
            continue
        score = None
        if human_column:
            raw = row.get(human_column)
            try:
                score = float(raw) if raw not in (None, "") else None
            except (TypeError, ValueError):
                score = None
            if score is None or not math.isfinite(score):
                problems.append(RowProblem(table.name, line, f"human score {raw!r} is not a number"))
                continue
        ids.append(str(row.get(id_column)) if id_column else str(line))
        cands.append(candidate)
        refs.append(tuple(segment_refs))
        human.append(score)
    return CorpusInput(tuple(ids), tuple(cands), tuple(refs), tuple(human) if human_column else None,
                       tuple(problems))


def corpus_from_parallel(candidates: tuple[str, bytes], references: Sequence[tuple[str, bytes]]) -> CorpusInput:
    """Plain-text files, one segment per line, same number of lines in every file."""
    cand_name, cand_data = candidates
    cand_lines = read_lines(cand_data, cand_name)
    if not references:
        raise MeteorInputError("give at least one reference file")
    ref_lines = []
    for name, data in references:
        lines = read_lines(data, name)
        if len(lines) != len(cand_lines):
            raise MeteorInputError(f"line counts differ: {cand_name} has {len(cand_lines)} lines, {name} has {len(lines)}")
        ref_lines.append(lines)
    return CorpusInput(tuple(str(n) for n in range(1, len(cand_lines) + 1)), tuple(cand_lines),
                       tuple(tuple(lines[k] for lines in ref_lines) for k in range(len(cand_lines))))


def read_corpus_files(candidates: str, references: Sequence[str] = (), candidate_column: str = "candidate",
                      reference_columns: Optional[Sequence[str]] = None, id_column: Optional[str] = None,
                      human_column: Optional[str] = None) -> CorpusInput:
    """The CLI's entry: paths in, CorpusInput out (I/O at the edge)."""
    def load(path: str) -> bytes:
        try:
            return Path(path).read_bytes()
        except OSError as error:
            raise MeteorInputError(f"{path}: {error.strerror}") from None

    if format_of(candidates) == "txt":
        return corpus_from_parallel((candidates, load(candidates)), [(r, load(r)) for r in references])
    table = read_table(load(candidates), candidates)
    ref_cols = list(reference_columns or [c for c in table.columns if c.startswith("reference")])
    if references:
        raise MeteorInputError(f"{candidates} is a table: give its references as columns (--reference-column), "
                               "not as separate files")
    return corpus_from_table(table, candidate_column, ref_cols, id_column, human_column)
