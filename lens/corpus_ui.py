"""Streamlit glue for the corpus pages: choosing data and columns, scoring with a progress bar
(cached per session, so sorting or filtering never rescores), and the shared table views."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Optional

import pandas as pd
import streamlit as st

from meteor_core import MeteorConfig, MeteorInputError
from meteor_core.corpus import CorpusAnalysis, SystemComparison, analyze_corpus, compare_systems
from meteor_core.corpus_io import (MAX_FILE_BYTES, MAX_SEGMENTS, CorpusInput, Table, corpus_from_parallel,
                                   corpus_from_table, read_table)

SAMPLE = Path(__file__).resolve().parent / "data" / "sample_corpus.tsv"
SOURCES = ("Sample corpus", "Upload a table (TSV, CSV, JSONL)", "Upload plain-text files", "Paste a table")
CAP_NOTE = f"Limits: {MAX_FILE_BYTES // (1024 * 1024)} MB per file, {MAX_SEGMENTS:,} segments."


def _guess(columns, prefixes, default=None):
    for prefix in prefixes:
        for c in columns:
            if c.lower().startswith(prefix):
                return c
    return default


def _table_source(key: str, source: str) -> Optional[Table]:
    try:
        if source == SOURCES[0]:
            st.caption("A small corpus written for this project: 24 English segments, two systems, "
                       "one reference, invented human scores (0-100).")
            return read_table(SAMPLE.read_bytes(), SAMPLE.name)
        if source == SOURCES[1]:
            upload = st.file_uploader("Table with a header row", type=["tsv", "csv", "jsonl"], key=f"{key}-upload")
            st.caption(CAP_NOTE)
            return read_table(upload.getvalue(), upload.name) if upload is not None else None
        if source == SOURCES[3]:
            fmt = st.radio("Format", ("tsv", "csv", "jsonl"), horizontal=True, key=f"{key}-paste-format")
            text = st.text_area("Paste the table (header row first)", key=f"{key}-paste", height=150)
            return read_table(text.encode("utf-8"), f"pasted {fmt.upper()}", fmt) if text.strip() else None
    except MeteorInputError as error:
        st.error(str(error))
        return None
    return None


def _parallel_source(key: str, systems: int) -> Optional[list[CorpusInput]]:
    labels = ["Candidates"] if systems == 1 else ["System A candidates", "System B candidates"]
    cand_files = [st.file_uploader(f"{label} (.txt, one segment per line)", type=["txt"], key=f"{key}-cand-{k}")
                  for k, label in enumerate(labels)]
    ref_files = st.file_uploader("References (.txt, one or more files, same line count)", type=["txt"],
                                 accept_multiple_files=True, key=f"{key}-refs")
    st.caption(CAP_NOTE)
    if any(f is None for f in cand_files) or not ref_files:
        return None
    try:
        return [corpus_from_parallel((f.name, f.getvalue()), [(r.name, r.getvalue()) for r in ref_files])
                for f in cand_files]
    except MeteorInputError as error:
        st.error(str(error))
        return None


def corpus_inputs(key: str, systems: int = 1) -> Optional[tuple[list[CorpusInput], list[str]]]:
    """Returns ([CorpusInput per system], [system names]) or None while input is incomplete."""
    source = st.radio("Data", SOURCES, horizontal=True, key=f"{key}-source")
    if source == SOURCES[2]:
        corpora = _parallel_source(key, systems)
        names = ["A", "B"][:systems] if systems > 1 else ["candidates"]
        return (corpora, names) if corpora else None
    table = _table_source(key, source)
    if table is None:
        return None
    columns = list(table.columns)
    st.caption(f"{table.name}: {len(table.rows)} rows, columns: {', '.join(columns)}")
    cols = st.columns(4)
    none = "—"
    cand_defaults = [_guess(columns, ("candidate", "system", "hyp", "mt"), columns[0])]
    if systems == 2:
        rest = [c for c in columns if c != cand_defaults[0]]
        cand_defaults.append(_guess(rest, ("system", "candidate", "hyp", "mt"), rest[0] if rest else columns[0]))
    candidate_columns = [cols[0].selectbox(f"Candidate column{' ' + 'AB'[k] if systems == 2 else ''}", columns,
                                           index=columns.index(cand_defaults[k]), key=f"{key}-cand-col-{k}")
                         for k in range(systems)]
    ref_default = [c for c in columns if c.lower().startswith("ref")] or [c for c in columns if c not in candidate_columns][:1]
    reference_columns = cols[1].multiselect("Reference column(s)", columns, default=ref_default, key=f"{key}-ref-cols")
    id_default = _guess(columns, ("id", "seg"), none)
    id_column = cols[2].selectbox("Segment id (optional)", [none] + columns, index=([none] + columns).index(id_default),
                                  key=f"{key}-id-col")
    human_columns = []
    for k in range(systems):
        guess = _guess(columns, (f"human_{'ab'[k]}", "human", "score", "da"), none) if systems == 2 else \
            _guess(columns, ("human", "score", "da"), none)
        human_columns.append(cols[3].selectbox(f"Human score{' ' + 'AB'[k] if systems == 2 else ''} (optional)",
                                               [none] + columns, index=([none] + columns).index(guess),
                                               key=f"{key}-human-col-{k}"))
    try:
        corpora = [corpus_from_table(table, candidate_columns[k], reference_columns,
                                     None if id_column == none else id_column,
                                     None if human_columns[k] == none else human_columns[k])
                   for k in range(systems)]
    except MeteorInputError as error:
        st.error(str(error))
        return None
    return corpora, candidate_columns if systems == 2 else ["candidates"]


def _cache_key(*parts) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def _run_cached(key: str, label: str, work):
    """Run `work(progress)` once per session and input; sorting and filtering reuse the result."""
    cache = st.session_state.setdefault("_corpus_cache", {})
    if key not in cache:
        bar = st.progress(0.0, text=label)

        def progress(done: int, total: int) -> None:
            if done == total or done % max(1, total // 50) == 0:
                bar.progress(done / total, text=f"Scoring segment {done} of {total}…")

        try:
            cache[key] = work(progress)
        except MeteorInputError as error:
            st.error(str(error))
            return None
        finally:
            bar.empty()
    return cache[key]


def analyze_with_progress(corpus: CorpusInput, config: MeteorConfig) -> Optional[CorpusAnalysis]:
    return _run_cached(_cache_key("one", corpus, config), f"Scoring {len(corpus.candidates)} segments…",
                       lambda progress: analyze_corpus(corpus, config, progress))


def compare_with_progress(a: CorpusInput, b: CorpusInput, config: MeteorConfig, names) -> Optional[SystemComparison]:
    return _run_cached(_cache_key("two", a, b, config, tuple(names)), "Scoring both systems…",
                       lambda progress: compare_systems(a, b, config, tuple(names), progress))


def show_not_scored(analysis: CorpusAnalysis, label: str = "") -> None:
    problems = [str(p) for p in analysis.problems] + [f"segment {i}: {r}" for i, r in analysis.unscored]
    if problems:
        st.warning(f"{label}{len(problems)} row(s) not scored (listed below); {len(analysis.corpus.segments)} scored.")
        with st.expander("Rows not scored, with the reason"):
            st.dataframe(pd.DataFrame({"problem": problems}), hide_index=True, width="stretch")


def downloads(analysis: CorpusAnalysis, prefix: str) -> None:
    frame = pd.DataFrame(analysis.rows)
    c1, c2, c3 = st.columns(3)
    c1.download_button("Segments (CSV)", frame.to_csv(index=False), file_name=f"{prefix}-segments.csv", mime="text/csv")
    c2.download_button("Segments (JSON)", frame.to_json(orient="records", force_ascii=False),
                       file_name=f"{prefix}-segments.json", mime="application/json")
    c3.download_button("Corpus summary (JSON)", json.dumps(analysis.summary(), ensure_ascii=False, indent=1),
                       file_name=f"{prefix}-summary.json", mime="application/json")
