"""Reading corpora from files: plain text (one segment per line), TSV, CSV, JSONL. Every
problem is reported with the file, the line and what is wrong."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from .errors import MeteorInputError

TABULAR_SUFFIXES = {".tsv": "\t", ".csv": ","}


@dataclass(frozen=True)
class CorpusRows:
    candidates: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    ids: tuple[str, ...]


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise MeteorInputError(f"{path}: line {line} is not UTF-8 ({error.reason}); re-save the file as UTF-8") from None
    except OSError as error:
        raise MeteorInputError(f"{path}: {error.strerror}") from None


def _lines(path: Path) -> list[str]:
    text = _read_text(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def _records(path: Path) -> list[dict]:
    text = _read_text(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise MeteorInputError(f"{path}: line {number} is not valid JSON ({error.msg})") from None
            if not isinstance(row, dict):
                raise MeteorInputError(f"{path}: line {number} is not a JSON object")
            rows.append({**row, "__line__": number})
        return rows
    reader = csv.DictReader(io.StringIO(text), delimiter=TABULAR_SUFFIXES[suffix])
    rows = []
    width = len(reader.fieldnames or [])
    for row in reader:
        if None in row or any(v is None for v in row.values()):
            raise MeteorInputError(f"{path}: line {reader.line_num} has a different number of columns "
                                   f"than the header ({width})")
        rows.append({**row, "__line__": reader.line_num})
    return rows


def read_corpus(candidates: str, references: Sequence[str] = (), candidate_column: str = "candidate",
                reference_columns: Optional[Sequence[str]] = None, id_column: Optional[str] = None) -> CorpusRows:
    """Plain text: `candidates` and each of `references` one segment per line, same counts.
    TSV/CSV/JSONL: columns of `candidates` (reference columns default to every column whose
    name starts with "reference"); extra `references` files add plain-text references."""
    cand_path = Path(candidates)
    suffix = cand_path.suffix.lower()
    if suffix in TABULAR_SUFFIXES or suffix == ".jsonl":
        rows = _records(cand_path)
        if not rows:
            raise MeteorInputError(f"{cand_path}: no rows")
        columns = [k for k in rows[0] if k != "__line__"]
        if candidate_column not in columns:
            raise MeteorInputError(f"{cand_path}: no column {candidate_column!r}; columns are {', '.join(columns)}")
        ref_cols = list(reference_columns) if reference_columns else [c for c in columns if c.startswith("reference")]
        missing = [c for c in ref_cols if c not in columns]
        if missing or (not ref_cols and not references):
            raise MeteorInputError(f"{cand_path}: reference column(s) {', '.join(missing) or 'reference'} "
                                   f"not found; columns are {', '.join(columns)}")
        cands, refs, ids = [], [], []
        for row in rows:
            values = [row.get(candidate_column)] + [row.get(c) for c in ref_cols]
            if any(not isinstance(v, str) for v in values):
                raise MeteorInputError(f"{cand_path}: line {row['__line__']}: candidate and reference values "
                                       "must be strings")
            cands.append(values[0])
            refs.append(tuple(values[1:]))
            ids.append(str(row.get(id_column, row["__line__"])) if id_column else str(len(ids) + 1))
        extra = [_lines(Path(r)) for r in references]
    else:
        cands = _lines(cand_path)
        refs = [() for _ in cands]
        ids = [str(k + 1) for k in range(len(cands))]
        if not references:
            raise MeteorInputError("plain-text candidates need at least one --references file")
        extra = [_lines(Path(r)) for r in references]
    for path, lines in zip(references, extra):
        if len(lines) != len(cands):
            raise MeteorInputError(f"line counts differ: {cand_path} has {len(cands)} segments, "
                                   f"{path} has {len(lines)}")
    merged = tuple(tuple(refs[k]) + tuple(lines[k] for lines in extra) for k in range(len(cands)))
    return CorpusRows(tuple(cands), merged, tuple(ids))
