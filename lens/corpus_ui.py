"""Streamlit glue for the corpus pages: choosing data and columns, scoring with a progress bar
(cached per session, so sorting or filtering never rescores, nor does a mode change and back,
within a memory bound: see run_cached), selection by segment line that survives filters, sorts
and mode changes, and the shared table views. User text (file and column names, segment text, ids) is always shown
as text: `plain()` escapes markdown."""
from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import StopException

from meteor_core import MeteorInputError
from meteor_core.errors import is_length_refusal, is_token_limit_reason
from meteor_core.corpus import CorpusAnalysis, rows_to_csv
from meteor_core.line_numbers import named_lines
from meteor_core.corpus_io import (ID_WORDS, MAX_COLUMNS, MAX_FILE_BYTES, MAX_SEGMENTS, TABLE_LINES_PER_SEGMENT,
                                   CorpusInput, LongTable, Table, cell_text, corpus_from_parallel, corpus_from_table,
                                   candidate_column_of, default_reference_columns, guess_column,
                                   guess_human_column, language_pair_column, output_columns, pivot_long, read_table,
                                   reference_columns_of, rows_where, system_name_column, text_columns, uploaded,
                                   with_pooled_ids)
from meteor_core.tokenize import MAX_CHARS

from .ui import DATA_SOURCES, LONGER_TEXT, browser_shows, history_navigation, sent_by_browser

SAMPLE = Path(__file__).resolve().parent / "data" / "sample_corpus.tsv"
SOURCES = ("Sample corpus", "Upload a table (TSV, CSV, JSONL)", "Upload plain-text files", "Paste a table")
#: How a link names each source (ui.DATA_SOURCES; the sample is the default, left out of links).
SOURCE_IN_LINK = dict(zip(SOURCES, DATA_SOURCES))
#: What is gone when a session that had it ends, and what brings it back.
_SOURCE_LOST = {SOURCES[1]: ("an uploaded table", "Upload it again"),
                SOURCES[2]: ("uploaded text files", "Upload them again"),
                SOURCES[3]: ("a pasted table", "Paste it again")}
#: Under every upload box. Its last sentence: the box refuses a larger file itself (name in red,
#: the reason on hover), the server never gets it, and the page said nothing (a helper).
CAP_NOTE = (f"Limits: {MAX_FILE_BYTES // 1_000_000} MB per file, {MAX_SEGMENTS:,} segments (and as many empty "
            f"or malformed lines besides; a table up to {TABLE_LINES_PER_SEGMENT * MAX_SEGMENTS:,} lines, a long table "
            f"having a row per system output), {MAX_COLUMNS:,} columns, {MAX_CHARS:,} characters per side of a segment "
            "(a longer line is not scored, the rest is); in a CSV file 131,072 characters per field. A larger file "
            "is refused by the upload box itself, before it reaches the app: its name turns red, the reason shows "
            "when you point at it, and what the page shows stays as it was.")
NONE = "—"
#: ASCII punctuation markdown can read as syntax (not , ; ? ' " which it never does).
_MARKDOWN_PUNCTUATION = re.compile(r"[!#$%&()*+\-./:<=>@\[\\\]^_`{|}~]")


_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|www)([:.])")


def plain(value) -> str:
    """Any text, made safe for st.markdown/caption/alert/expander labels: the ASCII
    punctuation markdown could read as syntax becomes numeric character references (&#58; for
    ':'), which markdown shows as the character and never reads as syntax; and since GFM turns
    URL- and e-mail-looking text into links after decoding those, an invisible word joiner
    (U+2060) goes into 'http:', 'www.' and before '@'. No link, image, emphasis or HTML can
    come from user input. Line breaks become spaces. Text shown on its own uses st.text."""
    text = re.sub(r"[\r\n\u2028\u2029]+", " ", str(value))
    text = _AUTOLINK.sub("\\1\u2060\\2", text).replace("@", "\u2060@")
    return _MARKDOWN_PUNCTUATION.sub(lambda m: f"&#{ord(m.group())};", text)


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def two_short_names(a: str, b: str, limit: int = 24) -> tuple[str, str]:
    """Two different names, each at most `limit` characters, for column headers: cut at the end,
    or in the middle when that makes them equal (two versions of one system: "...-final-release"
    and "...-beta-release" both read "Online-System-With-A-Ve…": a tester); else their boxes'."""
    short = shorten(a, limit), shorten(b, limit)
    if short[0] != short[1]:
        return short
    head = limit // 3

    def middle(name: str) -> str:
        return name if len(name) <= limit else name[:head] + "…" + name[-(limit - head - 1):]

    short = middle(a), middle(b)
    return short if short[0] != short[1] else ("System A", "System B")


# -- values that outlive a page change ----------------------------------------------------
# Streamlit forgets a page's widgets when the user opens another page, so coming back showed
# the sample corpus again: the uploaded file, its column roles, the filters and the selected
# row were gone (a tester). The corpus pages keep them in session state of their own.
def kept(key: str, default, options: Optional[Sequence] = None, context=None, typed: bool = False) -> str:
    """`key` for a corpus-page widget whose value outlives page changes: seeds the widget's
    state with the value kept from the last visit, as long as `context` (the table's name and
    columns, for a column role) is the same and the value is still a valid choice among `options`;
    else with `default`, so another table gets its roles guessed afresh. Create the widget
    with this key and without a value, index or default of its own (Streamlit warns when
    both are given). The value is sent to the browser on every run in which the browser did
    not send it, so the widget cannot show another one (after an interrupted page change the
    page's boxes showed their first options while the results used the kept ones: a tester);
    not for `typed` widgets (text), where sending it would overwrite what is typed during a run."""
    ss = st.session_state
    store = f"_kept-{key}"
    known = ss.get(store)  # (context, value)
    same = known is not None and known[0] == context
    by_context = ss.setdefault(f"{store}-by-context", {})
    value = kept_value(key, default, options, context)
    redrawn = _drawn_after_a_run_without_it(key)
    if sent_by_browser(key) and not isinstance(default, tuple):
        # A browser reconnected after a server restart shows its widgets, and this run may be
        # a change to this one: the new session's default overwrote it (a search typed after
        # the restart was dropped: 24 of 24 segments shown for "cat"). Not for a range slider
        # (a tuple): without a value in the state Streamlit makes it a one-value slider.
        return key
    # Another table (context) means other options, so Streamlit makes the widget anew: unless
    # the value is written in this run the browser shows the new widget empty while the run uses
    # the value, and the next click sends the empty one (a table replaced in the uploader: the
    # reference box empty above the old results, 1 of 3 tries, wiped at the next click).
    if key not in ss or ss[key] != value or not same or not (typed or browser_shows(key)) or redrawn:
        # Not when the browser sent this very value: written, it goes back to the browser as the
        # widget's value, and a run that started a few key presses ago set the METEOR range back
        # to what it had then (0.40 moved by 40 presses came back from a page change as 0.17-0.31
        # in 6 of 8 tries, and some presses were lost on the page itself: a tester).
        ss[key] = value
    ss[store] = (context, value)
    if context is not None:
        by_context.pop(context, None)
        by_context[context] = value  # newest last
        while len(by_context) > KEPT_CONTEXTS:
            del by_context[next(iter(by_context))]
    ss.setdefault("_kept_keys", set()).add(key)
    return key


def note_run_start() -> None:
    """Called by app.py before the page runs: numbers the session's runs (see kept)."""
    st.session_state["_kept_run"] = st.session_state.get("_kept_run", 0) + 1


def note_run_completed() -> None:
    """Called by app.py after the page ran to its end (not after a rerun request or st.stop)."""
    st.session_state["_kept_completed_run"] = st.session_state.get("_kept_run", 0)


def _drawn_after_a_run_without_it(key: str) -> bool:
    """Whether widget `key` is drawn in this run after the last run, which ran to its end, left it
    out (the Corpus Explorer's filters while a new table was scored). The browser then makes the
    widget anew, showing its default, and sends the old value with the next runs, so the page
    filtered by a search its empty box did not show, and the box could not clear it (a tester,
    3 of 3 tries). Not after an interrupted run: the browser still shows the widget then, and a
    value written back would undo presses made since (see kept). Notes that it is drawn in this run."""
    ss = st.session_state
    run = ss.get("_kept_run", 0)
    drawn = ss.setdefault("_kept_drawn_in_run", {})
    last = drawn.get(key)
    drawn[key] = run
    return last is not None and last < run - 1 and ss.get("_kept_completed_run") == run - 1


def kept_value(key: str, default, options: Optional[Sequence] = None, context=None):
    """The value `kept` gives widget `key` in this run (no side effects): the one kept for this
    context if it is still among `options`, else `default`."""
    ss = st.session_state
    known = ss.get(f"_kept-{key}")  # (context, value)
    # Each table's roles are kept apart, the last KEPT_CONTEXTS tables: going to the sample
    # corpus and back chose the guessed columns again, silently (a tester).
    if known is not None and known[0] == context:
        value = ss[key] if key in ss else known[1]
    else:
        value = ss.get(f"_kept-{key}-by-context", {}).get(context, default)
    if options is not None:
        choices = set(options)
        valid = all(v in choices for v in value) if isinstance(value, (list, tuple)) else value in choices
        if not valid:
            value = default
    return value


def swap_if_same(key: str, other: str) -> None:
    """on_change of one of two boxes that must differ (System A and B): choosing the other's
    value swaps them, so the two never hold the same one."""
    ss = st.session_state
    if ss.get(key) == ss.get(other):
        previous = (ss.get(f"_kept-{key}") or (None, None))[1]
        if previous is not None and previous != ss[key]:
            ss[other] = previous


#: Tables whose column roles a page remembers (per widget; a few small values each).
KEPT_CONTEXTS = 8


def keep_changed_values() -> None:
    """Called by app.py before the page runs. A change to a kept widget that reaches the server
    in the same run as a page change is in the session state for that run only: the widget is
    not drawn on the other page, so Streamlit drops it at the run's end (a tester typed Seed 7
    on System Comparison while it scored, changed page within a second, and came back to
    12345). The value is copied to what `kept` keeps first."""
    ss = st.session_state
    for key in ss.get("_kept_keys", ()):
        store = f"_kept-{key}"
        if key in ss and store in ss:
            ss[store] = (ss[store][0], ss[key])


@dataclass(frozen=True)
class KeptFile:
    """An uploaded file kept in session state: what the pages read of an UploadedFile."""

    name: str
    data: bytes

    def getvalue(self) -> bytes:
        return self.data


def forget(key: str, context=None) -> None:
    """Drop what `kept` holds for `key`, so the next `kept` call uses its default; with
    `context`, what it holds for that context too."""
    st.session_state.pop(key, None)
    st.session_state.pop(f"_kept-{key}", None)
    if context is not None:
        st.session_state.get(f"_kept-{key}-by-context", {}).pop(context, None)


def first_other(names: Sequence[str], taken) -> str:
    """The first of `names` that is not `taken` (the first name when all are)."""
    return next((name for name in names if name != taken), names[0])


#: The corpus pages by key, as their titles say them: a table uploaded on one is offered on the other.
CORPUS_PAGES = {"corpus": "Corpus Explorer", "compare": "System Comparison"}


def _table_upload_elsewhere(key: str) -> Optional[tuple[str, tuple]]:
    """(the other corpus page's title, its kept table upload) when this page has no table of its
    own and the other page keeps one: a table uploaded on Corpus Explorer, said there to be
    compared on System Comparison, was not there (that page opened on the sample: a tester)."""
    ss = st.session_state
    if ss.get(f"_kept-{key}-upload") or _files(ss.get(f"{key}-upload")):
        return None
    for other, title in CORPUS_PAGES.items():
        files = ss.get(f"_kept-{other}-upload")
        if other != key and files and _identity(files) != ss.get(f"_kept-{key}-upload-declined"):
            return title, files
    return None


#: Each corpus page's plain-text uploaders: (system outputs, references). Corpus Explorer takes
#: one system's file, System Comparison several.
_TEXT_UPLOADERS = {"corpus": ("cand-0", "refs"), "compare": ("cands", "refs")}


def _text_upload_elsewhere(key: str) -> Optional[tuple[str, tuple, tuple]]:
    """(the other corpus page's title, its kept system output files, its kept reference files)
    when this page keeps no plain-text files and the other keeps both sides: tables went from
    one corpus page to the other, plain-text files did not (the last notes' left-out list)."""
    ss = st.session_state
    if any(ss.get(f"_kept-{key}-{name}") or _files(ss.get(f"{key}-{name}")) for name in _TEXT_UPLOADERS[key]):
        return None
    outputs_here, references_here = _TEXT_UPLOADERS[key]
    for other, title in CORPUS_PAGES.items():
        if other == key:
            continue
        outputs, references = (ss.get(f"_kept-{other}-{name}") for name in _TEXT_UPLOADERS[other])
        if outputs and references and not (
                _identity(outputs) == ss.get(f"_kept-{key}-{outputs_here}-declined")
                or _identity(references) == ss.get(f"_kept-{key}-{references_here}-declined")):
            return title, outputs, references
    return None


def _adopt_text_upload(key: str) -> None:
    """This page keeps the other page's plain-text files as its own (the same objects): Corpus
    Explorer the first system's output, System Comparison the one system Corpus Explorer had,
    to which a second is added."""
    found = _text_upload_elsewhere(key)
    if found is None:
        return
    title, outputs, references = found
    ss = st.session_state
    outputs_here, references_here = _TEXT_UPLOADERS[key]
    ss[f"_kept-{key}-{outputs_here}"] = outputs if key == "compare" else outputs[:1]
    ss[f"_kept-{key}-{references_here}"] = references
    for name in (outputs_here, references_here):
        ss[f"_kept-{key}-{name}-origin"] = title
    if len(outputs) > 1 and key != "compare":
        ss[f"_kept-{key}-{outputs_here}-others"] = len(outputs) - 1


def _identity(files) -> tuple:
    """Which upload this is, without holding its data (a declined one may be replaced there)."""
    return tuple((f.name, len(f.data), hash(f.data)) for f in files)


def _adopt_table_upload(key: str) -> None:
    """This page keeps the other page's table upload as its own (the same objects, no copy):
    forgetting or replacing it on either page then leaves the other page's as it is."""
    found = _table_upload_elsewhere(key)
    if found is not None:
        title, files = found
        st.session_state[f"_kept-{key}-upload"] = files
        st.session_state[f"_kept-{key}-upload-origin"] = title


def kept_file_uploader(label: str, key: str, multiple: bool = False, **options):
    """st.file_uploader whose files outlive page changes: the uploader comes back empty, so the
    files kept from the last upload are used, with a caption saying so. Removing the files in
    the uploader forgets them; each uploader keeps only the files in use (memory stays
    bounded by what the user gives). A multi-file uploader adds what is uploaded after a page change to the files kept
    ("earlier"): it replaced them, and a third reference file added on coming back left one
    reference instead of three, without a word (a tester). A file added under the name of a
    kept one replaces it (the kept files have no x of their own; a corrected file keeps its
    name). The single-file uploaders replace, as their caption says."""
    store, earlier_key = f"_kept-{key}", f"_kept-{key}-earlier"
    ss = st.session_state

    def remember() -> None:
        files = _files(ss.get(key))
        earlier = ()
        if earlier_key in ss:  # set for multi-file uploaders only, when they came back empty
            # A kept file replaced by one of its name is gone for good: it came back when the
            # replacement was removed with its x, the old data under the same name (a tester).
            names = {f.name for f in files}
            earlier = ss[earlier_key] = tuple(f for f in ss[earlier_key] if f.name not in names)
        ss.pop(f"{store}-origin", None)  # what is kept from now on was uploaded here
        ss.pop(f"{store}-others", None)
        # A file over the size limit is refused when read: keeping it would only hold memory.
        if files and all(f.size <= MAX_FILE_BYTES for f in files):
            ss[store] = earlier + tuple(KeptFile(f.name, f.getvalue()) for f in files)
        elif earlier:
            ss[store] = earlier  # the added files removed again: the kept ones stay
        else:
            ss.pop(store, None)

    def forget_button(files) -> None:
        # The uploader has no x for kept files: this button is the way to drop them.
        if st.button("Forget " + ("these files" if len(files) > 1 else "this file"), key=f"{key}-forget"):
            ss.pop(earlier_key, None)
            ss.pop(f"{store}-others", None)
            if ss.pop(f"{store}-origin", None):  # the other page's files, declined here: not adopted again
                ss[f"{store}-declined"] = _identity(ss[store])
            ss[store] = tuple(KeptFile(f.name, f.getvalue()) for f in _files(ss.get(key)))  # what the box holds
            if not ss[store]:
                ss.pop(store)
            st.rerun()

    # The widget says our limit ("20MB per file"), not Streamlit's default 200 MB, which
    # contradicted the page's Limits line (a tester).
    value = st.file_uploader(label, key=key, accept_multiple_files=multiple, on_change=remember,
                             max_upload_size=MAX_FILE_BYTES // 1_000_000, **options)
    if value:
        if not multiple:
            return value
        earlier = list(ss.get(earlier_key, ()))  # without the box's names (remember)
        if not earlier:
            return value
        came_from = ss.get(f"{earlier_key}-origin")  # another page's files, joined here (said: a helper)
        st.caption(plain(f"Also using {', '.join(f.name for f in earlier)}, uploaded "
                         + (f"on {came_from}" if came_from else "earlier in this session")
                         + " (not in the box above): a file added under the same name replaces a kept one."))
        forget_button(earlier)
        return earlier + list(value)
    files = ss.get(store)
    if not files:
        ss.pop(earlier_key, None)
        return [] if multiple else None
    where = ss.get(f"{store}-origin")
    if multiple:
        ss[earlier_key] = tuple(files)  # what is added now joins these
        ss[f"{earlier_key}-origin"] = where
        st.caption(plain(f"Using {', '.join(f.name for f in files)}, uploaded "
                         + (f"on {where}" if where else "earlier in this session")
                         + ". Files added join them; one under the same name replaces it."))
    else:
        others = ss.get(f"{store}-others")
        st.caption(plain(f"Using {', '.join(f.name for f in files)}, uploaded on {where}"
                         + (f" (the first of its {others + 1} system outputs)" if others else "")
                         + f". Upload another to use it here instead ({where} keeps its own)." if where else
                         f"Using {', '.join(f.name for f in files)}, uploaded earlier in this session. Upload again "
                         "to replace it."))
    forget_button(files)
    return list(files) if multiple else files[0]


# -- choosing the data -------------------------------------------------------------------
@dataclass(frozen=True)
class Chosen:
    """What the user picked: one CorpusInput per system, their names, and a digest of all of
    it (the cache key)."""

    corpora: tuple[CorpusInput, ...]
    names: tuple[str, ...]
    digest: str
    #: The references' identity alone: a line is the same segment while it holds, whichever
    #: systems are chosen (removing one system cleared the opened segment: a tester).
    source: str = ""
    #: What the user would call the data ("good.tsv", "the sample corpus"), said when it is kept.
    label: str = ""
    #: A long table (a row per system output): a segment's line is that of its first row, so
    #: "lines 5, 19" named one row of segments that had a row in each system (a tester).
    lines_are_first_rows: bool = False
    #: Corpus Explorer on a long table: the rows of one system (or language pair) of the file, so
    #: a line of the file may be a row not shown here.
    rows_narrowed: bool = False
    #: What of the data is scored, for the exports' names and summary: the candidate column, or a
    #: long table's system, and the language pair when one is chosen ("Online-G de-en"). Every
    #: Corpus Explorer export was meteor-corpus-<mode>-segments.csv, whichever system (a tester).
    scored: str = ""


def _digest(*parts) -> str:
    """A cache key over everything given. A CorpusInput counts whole (a frozen dataclass: its
    repr holds every field): over its segments alone, data that differed only in rows not
    scored (a malformed line fixed) found the earlier analysis and showed its counts, "4 data
    lines, 1 not scored" beside "3 rows after the header" (a tester)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


def _error(message: str) -> None:
    st.error(plain(message))
    # counted, so that corpus_inputs knows the input it read was refused (not merely absent)
    st.session_state["_input-errors"] = st.session_state.get("_input-errors", 0) + 1


def _incomplete(key: str, message: str) -> None:
    """A table read whose columns are still to choose: said, and, when the data last analysed
    came from the same source (the same uploader, say), counted as _error counts, so that data
    stays on the page under it. A table with no usable column uploaded over a good one left an
    empty page where a malformed file kept the analysis (a tester). From another source it is
    not brought back: the user left it for other data, which is still being chosen."""
    st.info(plain(message))
    ss = st.session_state
    if ss.get(f"_{key}-last-good-source") == ss.get(f"_{key}-source-read"):
        ss["_input-errors"] = ss.get("_input-errors", 0) + 1


def _table_source(key: str, source: str) -> Optional[Table]:
    try:
        if source == SOURCES[0]:
            st.caption("A small corpus written for this project (lens/data/README.md): 24 English segments, one "
                       "reference, three systems, no human scores.")
            return _read_table_once(key, SAMPLE.read_bytes(), SAMPLE.name)
        if source == SOURCES[1]:
            _adopt_table_upload(key)
            upload = kept_file_uploader("Table with a header row (.tsv, .csv, .jsonl, or any of them .gz)",
                                        f"{key}-upload", type=["tsv", "csv", "jsonl", "gz"])
            st.caption(CAP_NOTE)
            if upload is None:
                _drop_table(key)
                if st.session_state.get(f"_{key}-source-from-link") == source:
                    return None  # _read_inputs says the link's table is gone and what to do: one box, not two
                # Said, not only the empty uploader (a tester, after removing the file)
                st.info("No table yet: upload one above. Its header row names the columns: the system output "
                        "(candidate, or one column per system, or a system column beside one output column), the "
                        "reference(s) (reference, ref_b, ...), optionally a segment id and human scores. JSONL: one "
                        "object per line with those keys. The Limits line above says what a file over "
                        f"{MAX_FILE_BYTES // 1_000_000} MB does.")
                return None
            return _read_table_once(key, upload.getvalue(), upload.name)
        if source == SOURCES[3]:
            formats = ("tsv", "csv", "jsonl")
            fmt = st.radio("Format", formats, horizontal=True, key=kept(f"{key}-paste-format", formats[0], formats))
            text = st.text_area("Paste the table (header row first)", key=kept(f"{key}-paste", "", typed=True),
                                height=150)
            st.caption(CAP_NOTE.replace(" per file", " per paste", 1))  # the limits hold for a paste too
            if not text.strip():
                _drop_table(key)
                return None
            return _read_table_once(key, text.encode("utf-8", "surrogatepass"), f"pasted {fmt.upper()}", fmt)
    except MeteorInputError as error:
        _error(str(error))
        return None
    return None


def _read_table_once(key: str, data: bytes, name: str, fmt: Optional[str] = None) -> Table:
    """read_table of `data`, kept for the page's next runs while the same data is given. Every
    click on a page showing WMT22 cs-en (16 MB, 37,216 rows) read it again: 0.26 s of the run,
    174 MB at the peak. One table kept per page (46 MB for that file); a page given the same data
    as the other corpus page (a carried upload) uses that one. A file that cannot be read raises,
    and this page then keeps none."""
    identity = (name, fmt, len(data), hash(data))
    ss = st.session_state
    found = next((kept for kept in (ss.get(f"_table-{page}") for page in (key, *CORPUS_PAGES))
                  if kept is not None and kept[0] == identity), None)
    if found is None:
        _drop_table(key)  # the data changed: the old table is not held while reading
        found = (identity, read_table(uploaded(data, name), name, fmt))
    ss[f"_table-{key}"] = found
    return found[1]


def _drop_table(key: str) -> None:
    """The page's kept table and everything made from it (_as_last_run) let go."""
    ss = st.session_state
    for name in [name for name in ss if name == f"_table-{key}" or name.startswith(f"_last-{key}-")]:
        del ss[name]


def _as_last_run(slot: str, source, args: tuple, make: Callable):
    """make(), or what it gave in this session's last run when `source` is the same object and
    `args` are equal. The steps from a kept table (_read_table_once) to its corpora (one pair's or
    one system's rows, the pivot of a long table, ids naming their pair, the corpora and their
    digest) are pure, and with WMT22 cs-en they took 0.2 s of every click on System Comparison.
    One result per slot; `slot` starts with the page's key (_drop_table)."""
    ss = st.session_state
    kept = ss.get(f"_last-{slot}")
    if kept is not None and kept[0] is source and kept[1] == args:
        return kept[2]
    value = make()
    ss[f"_last-{slot}"] = (source, args, value)
    return value


def _file_names(files) -> list[str]:
    names = [f.name for f in files]
    return [n if names.count(n) == 1 else f"{n} ({k + 1})" for k, n in enumerate(names)]


def _parallel_source(key: str, multi: bool) -> Optional[Chosen]:
    _adopt_text_upload(key)
    if multi:
        # Any name (newstest2022.de-en.en, *.hyp): plain text, as the command line reads it; .gz
        # too. Only .txt was taken, the others "files are not allowed" (a tester).
        cand_files = kept_file_uploader("System outputs (plain text, any name or .gz: one file per system, one "
                                        "segment per line)", f"{key}-cands", multiple=True)
    else:
        one = kept_file_uploader("Candidates (plain text, any name or .gz: one segment per line)", f"{key}-cand-0")
        cand_files = [one] if one is not None else []
    ref_files = kept_file_uploader("References (plain text: one or more files, same line count)", f"{key}-refs",
                                   multiple=True)
    st.caption(CAP_NOTE + " Segment id: the line number.")
    if not cand_files or not ref_files:
        if cand_files or ref_files:  # one side given: say what is missing (nothing showed: a tester)
            st.info(f"Add the {'reference' if cand_files else 'candidate' if not multi else 'system output'} "
                    "file(s) to score.")
        return None
    if multi and len(cand_files) < 2:
        st.info("Add a second system's file to compare.")
        return None
    try:
        refs = [(r.name, uploaded(r.getvalue(), r.name)) for r in ref_files]
        given = [(f.name, uploaded(f.getvalue(), f.name)) for f in cand_files]
    except MeteorInputError as error:
        _error(str(error))
        return None
    # Each file added to the uploader is one more reference: a corrected file uploaded after a
    # wrong one was added beside it, and the same file twice counted twice, silently (a tester).
    st.caption(plain(f"References: {', '.join(name for name, _ in refs)} ({len(refs)} per segment; a file added is "
                     "one more reference, not a replacement: remove a file in the box with its ×, kept files with "
                     "Forget)."))
    twice = sorted({name for k, (name, data) in enumerate(refs) if (name, data) in refs[:k]})
    if twice:
        st.warning(plain(f"{', '.join(twice)}: the same file is given twice, so it counts as two references; "
                         "remove one with its ×."))
    corpora, problems = [], []
    for candidate in given:  # every file's problem at once (only the first was said: a tester)
        try:
            corpora.append(corpus_from_parallel(candidate, refs))
        except MeteorInputError as error:
            problems.append(str(error))
    if problems:
        for problem in dict.fromkeys(problems):  # a reference file's problem once, not per system
            _error(problem)
        return None
    corpora = tuple(corpora)
    names = tuple(_file_names(cand_files)) if multi else ("candidates",)
    return Chosen(corpora, names, _digest(names, *corpora), _digest(refs),
                  ", ".join(f.name for f in cand_files) + " with " + ", ".join(name for name, _ in refs))


def corpus_inputs(key: str, multi: bool = False) -> Optional[Chosen]:
    """The data source and the column roles. `multi`: two or more systems (System Comparison).
    When what is chosen now cannot be read (a malformed file uploaded over a good one, columns
    that clash), the message says why and the data last analysed on this page (see analyse)
    stays in use, said under the message: a bad upload used to leave an empty page, the good
    analysis, its filters and its selected segment gone (a tester). Kept until other data is
    analysed: the uploader's own rerun with no file, before the new file arrives, dropped it
    when choosing no data did (a tester, in the browser)."""
    ss = st.session_state
    errors_before = ss.get("_input-errors", 0)
    chosen = _read_inputs(key, multi)
    if chosen is not None or ss.get("_input-errors", 0) == errors_before:
        return chosen
    return _still_showing(key)


def _still_showing(key: str) -> Optional[Chosen]:
    previous = st.session_state.get(f"_{key}-last-good")
    if previous is not None:
        st.warning(plain(f"Still showing {previous.label}, the last data analysed on this page, until the input "
                         "above can be."))
    return previous


def analyse(page: str, chosen: Optional[Chosen], config, label: str, work: Callable) -> tuple[Optional[Chosen], object]:
    """(the data analysed, run_cached's result of work(data, progress)). When `chosen` cannot be
    analysed ("no segment could be scored": the message is on the page), the data last analysed
    on this page is analysed instead and said: a paste of rows that all fail left an empty page
    (a tester). (None, None) when there is nothing to show."""
    if chosen is None or config is None:
        return None, None
    result = run_cached(page, _digest(chosen.digest, config), label, lambda progress: work(chosen, progress))
    if result is not None:
        st.session_state[f"_{page}-last-good"] = chosen
        st.session_state[f"_{page}-last-good-source"] = st.session_state.get(f"_{page}-source-read")
        return chosen, result
    previous = st.session_state.get(f"_{page}-last-good")
    if previous is None or previous.digest == chosen.digest:
        return None, None
    _still_showing(page)
    return previous, run_cached(page, _digest(previous.digest, config), label,
                                lambda progress: work(previous, progress))


def source_link(key: str) -> dict[str, str]:
    """The data source's part of a corpus page's link (nothing for the sample corpus)."""
    source = SOURCE_IN_LINK.get(st.session_state.get(f"{key}-source"), DATA_SOURCES[0])
    return {} if source == DATA_SOURCES[0] else {"data": source}


def _upload_source_elsewhere(key: str) -> Optional[str]:
    """The source a first visit to this page takes from the other corpus page: its table or its
    plain-text files, and when it keeps both, the one it shows (a table kept there while its
    files were shown sent this page to the table, a dead end: a helper)."""
    table, text = _table_upload_elsewhere(key) is not None, _text_upload_elsewhere(key) is not None
    if table and text:
        other = next(name for name in CORPUS_PAGES if name != key)
        shown = (st.session_state.get(f"_kept-{other}-source") or (None, None))[1]
        return SOURCES[2] if shown == SOURCES[2] else SOURCES[1]
    return SOURCES[1] if table else SOURCES[2] if text else None


def first_visit_links() -> dict[str, dict[str, str]]:
    """The data part of the link of each corpus page not yet opened in this session, where its
    first visit will take the other page's upload (_read_inputs) and write it (source_link). The
    sidebar's link carries it (ui.page_links), so that the visit writes no second history
    entry: one did, and Back went to that page without data=table, which showed the sample
    corpus in place of the table (a helper)."""
    ss = st.session_state
    links = {}
    for key in CORPUS_PAGES:
        source = None if f"_kept-{key}-source" in ss else _upload_source_elsewhere(key)
        if source is not None:
            links[key] = {"data": SOURCE_IN_LINK[source]}
    return links


def _linked_source() -> str:
    """The source the link names (the sample corpus when it names none or an unknown one: the
    link's problems say so)."""
    named = {name: source for source, name in SOURCE_IN_LINK.items()}
    return named.get(st.query_params.get("data", ""), SOURCES[0])


def _read_inputs(key: str, multi: bool) -> Optional[Chosen]:
    ss = st.session_state
    store, linked_flag = f"_kept-{key}-source", f"_{key}-source-from-link"
    if store not in ss or history_navigation():
        # First visit in this session, or Back / Forward: the source the link names. Only the
        # choice travels, never the data: a reload, a restart of the app or a shared link gave a
        # new session that silently showed the sample corpus in place of the user's upload.
        forget(f"{key}-source")
        ss[linked_flag] = _linked_source()
        if ss[linked_flag] == SOURCES[0] and not st.query_params.get("data"):
            # The link names no data, and the user's files are on the other page: they, not the sample.
            ss[linked_flag] = _upload_source_elsewhere(key) or SOURCES[0]
    data_source = st.radio("Data", SOURCES, horizontal=True,
                           key=kept(f"{key}-source", ss[linked_flag] or SOURCES[0], SOURCES))
    ss[f"_{key}-source-read"] = data_source  # for _incomplete
    _offer_upload_elsewhere(key, data_source)
    if data_source == SOURCES[2]:
        _drop_table(key)  # no table shown: none held (_read_table_once)
        chosen = _parallel_source(key, multi)
    else:
        chosen = _read_table_inputs(key, multi, data_source)
    if _has_input(key, data_source) or ss.get(linked_flag) != data_source:
        ss[linked_flag] = None  # the user has given data now, or chose another source
    elif data_source in _SOURCE_LOST:
        what, action = _SOURCE_LOST[data_source]
        # After a restart the uploader still lists the files it sent (with no data behind them).
        listed = any(ss.get(f"{key}-{name}") for name in _UPLOADERS.get(data_source, ()))
        # Forget is said too: Back to an entry whose files were forgotten blamed a reload (a helper).
        st.info(f"This page's link names {what} as its data, and this browser session has none: data stays only "
                "in the session it was given in, until its Forget button drops it, and a reload, a restart of the "
                "app or the link opened elsewhere starts a new session without it"
                + (" (the uploader above may still list a file: the app no longer has it; remove it with its ×)"
                   if listed else "") + f". {action}, or choose the sample corpus.")
    return chosen


def _offer_upload_elsewhere(key: str, data_source: str) -> None:
    """Buttons that switch this page to the table, or the plain-text files, uploaded on the other
    corpus page, when this page shows other data (chosen before that upload)."""
    offers = []
    if data_source != SOURCES[1]:
        found = _table_upload_elsewhere(key)
        if found is not None:
            offers.append((SOURCES[1], f"Use {found[1][0].name}, uploaded on {found[0]}", "use-other-upload"))
    if data_source != SOURCES[2]:
        found = _text_upload_elsewhere(key)
        if found is not None:
            title, outputs, references = found
            used = (", ".join(f.name for f in outputs) if key == "compare" or len(outputs) == 1 else
                    f"{outputs[0].name} (the first of {len(outputs)} system outputs)")
            offers.append((SOURCES[2], f"Use {used} with "
                           f"{', '.join(f.name for f in references)}, uploaded on {title}", "use-other-text"))
    for source, label, name in offers:
        def use_it(source=source) -> None:
            st.session_state[f"{key}-source"] = source  # the radio's own key: read by kept() in the next run

        st.button(plain(label), key=f"{key}-{name}", on_click=use_it)


#: The uploaders of each source (their keys after the page's key).
_UPLOADERS = {SOURCES[1]: ("upload",), SOURCES[2]: ("cands", "cand-0", "refs")}


def _has_input(key: str, data_source: str) -> bool:
    """Whether anything is given for this source (read or not)."""
    ss = st.session_state
    if data_source == SOURCES[3]:
        return bool(str(ss.get(f"{key}-paste", "")).strip())
    return any(_files(ss.get(f"{key}-{name}")) or ss.get(f"_kept-{key}-{name}")
               for name in _UPLOADERS.get(data_source, ()))


def _files(value) -> list:
    """The files an uploader's state holds. After a restart of the app the browser still shows
    the files it had sent; the state then holds Streamlit's DeletedFile for each (no data), which
    the widget itself leaves out of what it returns."""
    files = value if isinstance(value, list) else [value] if value is not None else []
    return [f for f in files if hasattr(f, "getvalue")]


def _name_boxes():
    """Slots for a long table's Language pair and System boxes, side by side in a third of the
    width each: a name is short, and across the page the boxes stretched a few characters over
    1,000 pixels. A generator: the columns are made when the first box is (none, no gap)."""
    yield from st.columns(3)


def _one_language_pair(table: Table, key: str, named_in: Optional[str], exclude: Sequence[Optional[str]],
                       slots) -> tuple[Table, Optional[str], Optional[str]]:
    """A table's rows of one language pair, chosen, when an lp*/lang* column names several:
    pooled in one ranking or one corpus they mean little (a tester); all only when asked. Also
    the column when all are pooled (it is then part of a segment's key), else None, and the pair
    chosen, None when none is (no such column, or all pooled). The box takes the next of `slots`
    (_name_boxes)."""
    pair_column = language_pair_column(table, [named_in, *exclude])
    if pair_column is None:
        return table, None, None
    texts = _row_texts(table, pair_column)
    pairs = sorted({t for t in texts if t.strip()})  # a blank cell names no pair (it was one, and the default)
    everything = f"all {len(pairs)} pooled"
    pair = next(slots).selectbox(f"Language pair ({pair_column!r})", [*pairs, everything],
                                 key=kept(f"{key}-pair", pairs[0], [*pairs, everything],
                                          (table.name, tuple(table.columns))),
                                 help="A table of several language pairs: each is scored on its own segments.")
    if pair == everything:
        return table, pair_column, None
    unnamed = len(table.rows) - sum(1 for t in texts if t.strip())
    if unnamed:
        st.warning(plain(f"{unnamed:,} row(s) name no language pair in {pair_column!r}: scored only with "
                         f"\"{everything}\"."))
    rows = _as_last_run(f"{key}-pair-rows", table, (pair_column, pair), lambda: rows_where(table, pair_column, pair))
    return rows, None, pair


def _one_system(table: Table, key: str) -> tuple[Table, Optional[str], Optional[str], Optional[str],
                                                 Optional[str], Optional[str]]:
    """Corpus Explorer: a long table's rows of one system, chosen (one corpus of all its rows
    mixed the systems; a WMT outputs.tsv is one). Also, when its language pairs are pooled, the
    pair column and the id column whose ids name their pair (see with_pooled_ids), when every
    system is chosen, the column naming each row's system (shown in the table), and the system
    and the language pair chosen (None for none)."""
    refs = reference_columns_of(table.columns)
    named_in = _system_column(f"{key}-system-column", table, refs)
    slots = _name_boxes()
    table, pooled, pooled_ids, pair = _the_language_pair(table, key, named_in, refs, slots)
    if named_in is None:
        return table, pooled, pooled_ids, None, None, pair
    # the pair named in its note: "the 300 rows of Online-G" of a file with 600 (two pairs) said not which (a tester)
    table, mixed, system = _the_system(table, key, named_in, slots, pair)
    return table, pooled, pooled_ids, named_in if mixed else None, system, pair


def _the_language_pair(table: Table, key: str, named_in: Optional[str], refs: Sequence[str],
                       slots) -> tuple[Table, Optional[str], Optional[str], Optional[str]]:
    """_one_language_pair for a long or a wide table (a wide one's lp column pooled its pairs
    without a word, on both pages: a tester), and, when pairs are pooled, the id column whose
    ids then name their pair (with_pooled_ids); last, the pair chosen (or None)."""
    id_column = guess_column(table.columns, ID_WORDS)
    table, pooled, pair = _one_language_pair(table, key, named_in, [*refs, id_column], slots)
    if not pooled:
        return table, None, None, pair
    # seg_id 7 of cs-en is "cs-en 7", as on System Comparison
    table = _as_last_run(f"{key}-pooled-ids", table, (pooled, id_column),
                         lambda: with_pooled_ids(table, pooled, id_column))
    return table, pooled, id_column, None


def _system_column(slot: str, table: Table, reference_columns: Sequence[str]) -> Optional[str]:
    """system_name_column, found again only for another table or references: a column named
    otherwise ("provider") is found by the rows' shape, 0.07 s on WMT22 ja-en's 28,112 rows, and
    it ran on every click, twice on System Comparison (on the file, then on the table shown)."""
    return _as_last_run(slot, table, tuple(reference_columns), lambda: system_name_column(table, reference_columns))


def _the_system(table: Table, key: str, named_in: str, slots,
                pair: Optional[str] = None) -> tuple[Table, bool, Optional[str]]:
    """The rows of the system chosen in the System box (the next of `slots`), whether they are
    every system's (mixed), and the system chosen (None: all, or one system only). `pair`: the
    language pair the rows were narrowed to, if any."""
    systems = list(dict.fromkeys(t for t in _row_texts(table, named_in) if t.strip()))  # in file order
    if len(systems) < 2:
        return table, False, None
    everything = f"all {len(systems)} mixed"
    system = next(slots).selectbox(f"System ({named_in!r})", [*systems, everything],
                                   key=kept(f"{key}-system", systems[0], [*systems, everything],
                                            (table.name, tuple(table.columns))),
                                   help="A long table: one row per system output. System Comparison compares its "
                                        "systems.")
    if system == everything:
        return table, True, None  # said below: its rows mix the systems
    rows = _as_last_run(f"{key}-system-rows", table, (named_in, system), lambda: rows_where(table, named_in, system))
    st.info(plain(f"{table.name} is a long table: one row per system output, {len(systems)} systems named in "
                  f"{named_in!r}. Scored here: the {len(rows.rows):,} rows of {system}"
                  + (f" in {pair}" if pair else "") + "; System Comparison compares "
                  "the systems."))
    return rows, False, system


def _long_table(table: Table, key: str) -> tuple[Optional[LongTable], bool]:
    """A long table (one row per system output, the systems named in a column: system_name_column) as one
    column per system, said so, for System Comparison: it ranked the names as a system, and
    WMT ships its outputs this way (testers). None when it is not one or no single output
    column is found (then said below as a long table, the systems left to choose). Also whether
    its rows were narrowed to one language pair."""
    refs = reference_columns_of(table.columns)
    named_in = _system_column(f"{key}-system-column", table, refs)
    if named_in is None:
        return None, False
    id_column = guess_column(table.columns, ID_WORDS)
    outputs = [c for c in output_columns(table, refs) if c != named_in] or \
              [c for c in text_columns(table, [*refs, id_column]) if c != named_in]
    if len(outputs) != 1:
        return None, False
    table, pooled, pair = _one_language_pair(table, key, named_in, [outputs[0], *refs, id_column], _name_boxes())
    # The references of this pair's rows (ja-en's reference_alt is blank throughout)
    refs = default_reference_columns(table)
    long = _as_last_run(f"{key}-pivot", table, (named_in, outputs[0], refs, id_column, pooled),
                        lambda: pivot_long(table, named_in, outputs[0], refs, id_column, pooled))
    st.info(plain(f"{table.name} is a long table: one row per system output. Compared as {len(long.systems)} systems, "
                  f"one per name in {named_in!r}, each its {outputs[0]!r}; a segment is its "
                  + (f"{id_column!r} and " if id_column else "") + "reference(s); a segment that a system has no row for "
                  "is left out of the comparison (said below)."))
    for note in long.notes():
        st.warning(plain(note + "."))
    return long, pair is not None


def _row_texts(table: Table, column: str) -> list[str]:
    """The column's cells as text, numbers as written ({"system": 1} names system "1", as
    rows_where and pivot_long read it)."""
    return [v for v in (cell_text(row.get(column)) for row in table.rows) if v is not None]


def _read_table_inputs(key: str, multi: bool, data_source: str) -> Optional[Chosen]:
    table = _table_source(key, data_source)
    if table is None:
        return None
    columns = list(table.columns)
    if len(columns) < 2:
        _error(f"{table.name}: {len(columns)} column(s) found; a corpus needs a candidate and a reference column")
        return None
    count, plural = table.data_lines, "" if table.data_lines == 1 else "s"  # "1 lines" (a tester)
    records = f"{count:,} row{plural} after the header" if table.has_header else f"{count:,} line{plural}"
    st.caption(plain(f"{table.name}: {records}; {'columns' if table.has_header else 'fields'}: "
                     f"{', '.join(shorten(c, 40) for c in columns[:30])}"
                     + (f" and {len(columns) - 30} more" if len(columns) > 30 else "")))
    long, pair_narrowed = _long_table(table, key) if multi else (None, False)
    # The file's rows, for the selection's identity (chosen's source): a long table's wide form
    # holds one language pair, and another pair closed the open segment as "other data" of the
    # same file, "select it again", where it is not in the pair (a tester).
    whole = table
    if long is not None:
        table = long.wide
        columns = list(table.columns)
    pooled = pooled_ids = mixed_systems = None
    system = pair = None
    if long is None and not multi:
        table, pooled, pooled_ids, mixed_systems, system, pair = _one_system(table, key)
    elif long is None:  # a wide table (a column per system) of several language pairs: one at a time too
        refs = reference_columns_of(table.columns)
        table, pooled, pooled_ids, _ = _the_language_pair(
            table, key, _system_column(f"{key}-system-column", table, refs), refs, _name_boxes())
    roles = (table.name, tuple(columns))  # column roles are kept for this table only
    # all of them, as the CLI; a long table's are those of its segments (a system named
    # "reference" or "RefineMT" became a reference column too, and nothing was compared: a tester)
    ref_default = list(long.reference_columns) if long is not None else default_reference_columns(table)
    id_default = guess_column(columns, ID_WORDS) or NONE
    system_like = output_columns(table, ref_default)
    # Without a column named as output, columns of text that is not the source, an id, names
    # or a score: the first other column was taken, and a source, an id or a document column
    # was scored (0.0000, no warning: testers). The Corpus page takes one only when it is the
    # only one, else the user chooses, as the CLI refuses; Compare offers them all as chips.
    other = [c for c in text_columns(table, [*ref_default, id_default]) if not c.lower().startswith(("score", "line"))]
    # A long table (one row per system output, the system named in a column): Compare has no
    # systems to default to, and one corpus of it mixes the systems (the Compare page ranked
    # the names, or a document id, against the output: testers).
    named_in = _system_column(f"{key}-system-column-shown", table, ref_default)
    if named_in is not None:
        systems = len({t for t in _row_texts(table, named_in) if t.strip()})  # as the System box counts them
        st.info(plain(f"{table.name} looks like a long table: one row per system output, {systems} systems named in "
                      f"{named_in!r}. " + ("This page compares one column per system (or one file per system under "
                                           "\"Upload plain-text files\")." if multi else
                                           "Scored as one corpus, its rows mix those systems.")))
    if multi:  # a row of its own: one chip per system, which a quarter of the page cuts off
        # Every system: the first 8 of a 12-system WMT table were chosen while the page said
        # "compared as 12 systems", and the best one was left out (a tester).
        defaults = list(long.systems) if long is not None else [] if named_in is not None else \
            system_like if len(system_like) > 1 else other
        candidate_columns = st.multiselect("System columns (two or more)", columns,
                                           key=kept(f"{key}-cand-cols", defaults, columns, roles))
        ref_slot, id_slot = st.columns(2)
    else:
        cand_slot, ref_slot, id_slot, human_slot = st.columns([1, 1.5, 1, 1])  # chips need the room
        named = candidate_column_of(columns)
        default = named if named is not None and named not in ref_default else \
            system_like[0] if system_like else other[0] if len(other) == 1 else None
        chosen = cand_slot.selectbox("Candidate column", columns, placeholder="choose the column",
                                     key=kept(f"{key}-cand-col-0", default, columns, roles))
        candidate_columns = [chosen] if chosen is not None else []
        if len(system_like) > 1 and chosen in system_like:
            # Said: a wide table's candidate_A was scored and candidate_B passed over in silence (a tester).
            st.caption(plain(f"{len(system_like)} columns look like system output ({', '.join(system_like)}): this "
                             f"page scores one, {chosen}; choose another above, or compare them all on System "
                             "Comparison."))
    # No reference* column: none is chosen, as the CLI refuses such a file. Taking the first
    # other column scored 200 segments against their ids (0.0000 each, "200 scored": a tester).
    reference_columns = ref_slot.multiselect("Reference column(s)", columns,
                                             key=kept(f"{key}-ref-cols", ref_default, columns, roles))
    id_column = id_slot.selectbox("Segment id (optional)", [NONE] + columns,
                                  key=kept(f"{key}-id-col", id_default, [NONE] + columns, roles),
                                  help="Without one, a segment's id is its line number in the file (the header is "
                                       "line 1).")
    human_column = NONE
    if not multi:
        human_default = guess_human_column(table, [*candidate_columns, *ref_default, id_default]) or NONE
        human_column = human_slot.selectbox("Human score (optional)", [NONE] + columns,
                                            key=kept(f"{key}-human-col", human_default, [NONE] + columns, roles),
                                            help="Used only for the correlation panel.")
    # Both said at once when both are missing: a table of numbers only was told to choose its
    # candidate column, and then, once chosen, that it had no reference column either (a tester).
    no_reference = "" if reference_columns else \
        f" {table.name} has no column named reference* or ref* either: choose the reference column(s) too." \
        if not ref_default else " Choose at least one reference column too."
    if multi and len(candidate_columns) < 2:
        usable = [c for c in columns if c != id_column]
        # Asked for what the table cannot give ("id,hyp": two systems and a reference): said so (a tester)
        _incomplete(key, f"{table.name} has {len(usable)} column(s) besides the segment id ({', '.join(usable[:8])}"
                         f"{', ...' if len(usable) > 8 else ''}): a comparison needs two system columns and a "
                         "reference column. Add them to the table, or give one file per system and the references "
                         "under \"Upload plain-text files\"."
                    if len(usable) < 3 else "Choose two or more system columns to compare." + no_reference)
        return None
    if not candidate_columns:
        _incomplete(key, f"Choose the candidate column above: {len(other)} columns may be a system's output "
                    f"({', '.join(other[:8])}{', ...' if len(other) > 8 else ''}), none named so." + no_reference
                    if len(other) > 1
                    else f"Choose the candidate column above: none of {table.name}'s columns is clearly a system's "
                         "output (named candidate*, hyp*, mt*, output* or system*, or a column of text that is "
                         "not the source, an id, names or numbers)." + no_reference)
        return None
    both = [c for c in candidate_columns if c in reference_columns]
    if both:
        _error(f"{', '.join(both)}: chosen as a system and as a reference. A system compared with its own reference "
               "scores almost 1; choose different columns.")
        return None
    if not reference_columns:
        # The columns left to choose from are named: "choose the reference column(s)" of a table
        # "id, hyp" left only the id to choose (a tester).
        left = [c for c in columns if c not in candidate_columns and c != id_column]
        _incomplete(key, f"{table.name} has no column named reference* or ref*: choose the reference column(s) above"
                    + (f" (left to choose: {', '.join(left[:8])}{', ...' if len(left) > 8 else ''})." if left else
                       f"; its columns are {', '.join(columns)}, and none is left to be one. Add a reference column "
                       "to the table, or give the references as a file under \"Upload plain-text files\".")
                    if not ref_default else "Choose at least one reference column.")
        return None
    if id_column in reference_columns:
        _error(f"{id_column}: chosen as the segment id and as a reference; choose different columns.")
        return None
    if pooled and id_column not in (NONE, pooled_ids):
        # Another id column chosen by hand names its pair too: "7" stood for cs-en's and de-en's alike.
        table = _as_last_run(f"{key}-hand-pooled-ids", table, (pooled, id_column),
                             lambda: with_pooled_ids(table, pooled, id_column))
    id_or_none = None if id_column == NONE else id_column
    human_or_none = None if human_column == NONE else human_column
    try:
        corpora = _as_last_run(
            f"{key}-corpora", table,
            (tuple(candidate_columns), tuple(reference_columns), id_or_none, human_or_none, mixed_systems),
            lambda: long.corpora(candidate_columns, reference_columns, id_or_none) if long is not None else
            tuple(corpus_from_table(table, c, reference_columns, id_or_none, human_or_none,
                                    system_column=mixed_systems if mixed_systems != c else None)
                  for c in candidate_columns))
    except MeteorInputError as error:
        _error(str(error))
        return None
    names = tuple(candidate_columns) if multi else ("candidates",)
    label = {SOURCES[0]: "the sample corpus", SOURCES[3]: f"the {table.name} table"}.get(data_source, table.name)

    def chosen() -> Chosen:
        # The file's rows, not one system's: a line is the same row whichever system is shown
        # (choosing another closed the open segment as "other data" of the same file: a tester).
        # Once per file and reference columns, not per system chosen.
        source = _as_last_run(f"{key}-source", whole, tuple(reference_columns), lambda: _digest(
            whole.name, tuple(reference_columns), tuple(tuple(row.get(c) for c in reference_columns) for row in whole.rows)))
        # What is scored: a long table's system, or its systems mixed, or the candidate column; and the pair
        what = "" if multi else " ".join(filter(None, (
            system or ("all systems" if mixed_systems else candidate_columns[0]), pair)))
        return Chosen(corpora, names, _digest(table.name, names, *corpora), source, label, long is not None,
                      pair_narrowed if long is not None else table is not whole, what)

    return _as_last_run(f"{key}-chosen", corpora, (names, label), chosen)


# -- scoring, cached and bounded ------------------------------------------------------------
#: Analyses kept besides the newest of each page, per session, while the tokens they hold add
#: up to at most this. An analysis holds about 150-280 bytes a token (bench/bench_memory.py:
#: 149 for WMT22 cs-en's 12 systems, 278 for de-en's 3,968 shorter segments, with interned
#: words; 400-580 before its objects had slots), so a session keeps at most ~28 MB more than what it shows, and a test set of 2,000
#: segments can go to another mode and back without being scored again. Weighed by segments
#: (4,000) this kept seven analyses of long rows: +140 MB after six (the ten-uploads memory test failed).
#: A larger analysis is not kept once replaced.
KEPT_TOKENS = 100_000


def _analyses_in(result) -> list:
    """The analyses a result holds: a CorpusAnalysis, a tuple of them, a SystemComparison
    (whose analyses are the ones its page's scoring result holds too)."""
    if isinstance(result, tuple):
        return [analysis for part in result for analysis in _analyses_in(part)]
    analyses = getattr(result, "analyses", None)
    return _analyses_in(tuple(analyses)) if analyses is not None else [result]


def _make_room(cache: dict, leaving: Optional[str] = None) -> None:
    """Drop the least recently used results until those not shown (all but the newest of each
    page; every one of `leaving`, whose newest is being replaced) hold at most KEPT_TOKENS. An
    analysis counts once, and not at all while a shown result holds it: a comparison and its
    page's scoring share theirs (counted twice, System Comparison kept nothing: a tester)."""
    shown = {id(analysis) for slot, entries in cache.items() if slot != leaving and entries
             for analysis in _analyses_in(entries[-1][1])}
    others = [(slot, entry) for slot, entries in cache.items()
              for entry in (entries if slot == leaving else entries[:-1])]
    others.sort(key=lambda item: item[1][2])  # least recently used first

    def tokens_kept(kept) -> int:
        unique = {id(a): a for _, entry in kept for a in _analyses_in(entry[1]) if id(a) not in shown}
        return sum(analysis.tokens_held for analysis in unique.values())
    while others and tokens_kept(others) > KEPT_TOKENS:
        slot, entry = others.pop(0)
        cache[slot][:] = [kept for kept in cache[slot] if kept is not entry]  # the list run_cached holds


def say_if_not_kept(result) -> None:
    """A caption when `result` holds more tokens than a session keeps besides what it shows:
    going to another mode and back then scores it again, and nothing said so (a tester: 1,500
    rows took 39 s in paper mode, then 42 s again after nltk and back, where 400 rows took 1 s)."""
    tokens = sum(analysis.tokens_held for analysis in {id(a): a for a in _analyses_in(result)}.values())
    if tokens > KEPT_TOKENS:
        st.caption(f"This data holds {tokens:,} tokens, more than a session keeps of results it does not show "
                   f"({KEPT_TOKENS:,}, a bound on the server's memory): after another mode or other settings, "
                   "coming back to these settings scores it all again (it takes as long as the first time).")


def scoring_step(done: int, total: int) -> str:
    return f"Scoring segment {done:,} of {total:,}…"


def _restarted(step: Callable[[int, int], str]) -> Callable[[int, int], str]:
    return lambda done, total: f"{step(done, total)} (again: the last scoring was stopped)"


def run_cached(slot: str, key: str, label: str, work: Callable, step: Callable[[int, int], str] = scoring_step):
    """Run `work(progress)` once per input; sorting and filtering reuse the result. The bar
    shows `label` until the work first reports progress(done, total), then step(done, total).
    Per slot (page) and session the newest result is kept, and earlier ones while they fit in
    KEPT_TOKENS (a mode change and back reuses them); a result that does not fit is released
    before the new one is computed. Streamlit drops them all with the session.
    The work runs in a thread of its own (_Job) and this run waits for it: a click or a page
    change during a long scoring interrupts the page's script, not the scoring, and the next run
    takes up the same job (a tester's 4,000 paragraphs took 100-183 s, and any click in that
    time started them again from the first)."""
    ss = st.session_state
    cache = ss.setdefault("_corpus_cache", {})  # slot -> [(key, result, last use)], newest last
    entries = cache.setdefault(slot, [])
    for at, (held_key, result, _) in enumerate(entries):
        if held_key == key:
            del entries[at]
            entries.append((key, result, time.monotonic()))
            _make_room(cache)  # the one it replaces as newest may not fit (a tester: 5,000 segments kept)
            return result
    jobs = ss.setdefault("_corpus_jobs", {})
    job = jobs.get(slot)
    if job is None or job.key != key or job.cancelled:
        if job is not None:
            if job.stopped and job.key == key:  # the next click starts it again: said (a tester)
                label = "Scoring again from the first segment (the last scoring was stopped)…"
                step = _restarted(step)
            job.cancel()
        _make_room(cache, leaving=slot)  # before the new work: what it replaces may not fit
        job = jobs[slot] = _Job(key, work, _session_alive())
    bar = st.progress(0.0, text=label)
    try:
        # Each turn draws the bar: a Streamlit call is where a rerun request interrupts this wait.
        while not job.finished.wait(0.2):
            done, total = job.progress
            if total:
                bar.progress(done / total, text=step(done, total))
            else:
                bar.progress(0.0, text=label)
    except StopException:
        # Stop (top right) stops the scoring: it went on unseen behind a bar that no longer moved,
        # and looked like a hang (a tester). A click or a page change raises StopException too
        # (Streamlit's fast reruns), and then the scoring runs on for the next run to take up:
        # stopping it on every StopException restarted it from the first segment after any click
        # ("the last scoring was stopped", 5 of 5 page visits), and the run that had already
        # started waited on the job this one then cancelled and showed nothing (5 of 13: a tester).
        # (After Stop every Streamlit call raises again, so the bar cannot say it stopped.)
        if _stopped_by_user():
            job.stop()
        raise
    finally:
        bar.empty()
    if job.cancelled:  # its session was gone (disconnected), or stopped: the next run starts again
        st.info("The scoring was stopped before it ended: any change scores again from the first segment.")
        return None
    del jobs[slot]
    if isinstance(job.error, MeteorInputError):
        _error(str(job.error) + (". " + TOKEN_LIMIT_WAY if is_length_refusal(job.error) else ""))
        return None
    if job.error is not None:
        raise job.error
    entries.append((key, job.result, time.monotonic()))
    _make_room(cache)
    return job.result


class _Cancelled(Exception):
    """Raised from a job's progress callback to stop its work."""


class _Job:
    """One analysis in a daemon thread: work(progress) with progress(done, total). The work is
    core code only (no Streamlit call: the thread has no script context). It stops at its next
    progress call once cancelled (other input chosen) or once its session is gone (a closed tab
    must not keep scoring)."""

    def __init__(self, key: str, work: Callable, alive: Callable[[], bool]):
        self.key = key
        self.progress = (0, 0)
        self.result = None
        self.error: Optional[BaseException] = None
        self.finished = threading.Event()
        self._cancelled = False
        self.stopped = False
        self._alive = alive
        self._checked = 0.0
        threading.Thread(target=self._run, args=(work,), name=f"meteor-lens-{key[:8]}", daemon=True).start()

    def cancel(self) -> None:
        self._cancelled = True

    def stop(self) -> None:
        """Cancelled by the user's Stop (the next run says it starts again)."""
        self.stopped = True
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def _on_progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self._cancelled and now - self._checked >= 1.0:
            self._checked = now
            self._cancelled = not self._alive()
        if self._cancelled:
            raise _Cancelled
        self.progress = (done, total)

    def _run(self, work: Callable) -> None:
        try:
            self.result = work(self._on_progress)
        except _Cancelled:
            pass
        except BaseException as error:  # handed to the page's script, which raises or says it
            self.error = error
        finally:
            self.finished.set()


def _stopped_by_user() -> bool:
    """Whether the StopException this run caught is the Stop button's. With fast reruns (the
    default) a click stops the running script too, and its session gets a new script runner at
    once; Stop leaves the session's runner as it is. This reads Streamlit internals; if they
    change, a Stop is taken for a click (the scoring runs on, unseen), not the reverse."""
    try:
        from streamlit import runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        session = runtime.get_instance()._session_mgr.get_session_info(get_script_run_ctx().session_id).session
        me = threading.current_thread()
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            runner = session._scriptrunner
            if runner is None or runner._script_thread is not me:
                return False  # another run takes over: a click or a page change
            time.sleep(0.02)
        return True
    except Exception:  # noqa: BLE001 - internals only
        return False


def _session_alive() -> Callable[[], bool]:
    """Whether this run's session still exists (always true outside a Streamlit server: tests)."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not runtime.exists():
        return lambda: True
    server, session = runtime.get_instance(), ctx.session_id
    return lambda: server.is_active_session(session)


# -- counts and problems -------------------------------------------------------------------
def show_unavailable_stages(analysis: CorpusAnalysis) -> None:
    """A stage this language or machine lacks, once per page as the Segment Explorer says it
    (System Comparison said it only in the sidebar's chips, under zh: a tester)."""
    segments = analysis.corpus.segments
    statuses = segments[0].best.stage_status if segments else ()
    for message in dict.fromkeys(status.message for status in statuses if not status.available):
        st.warning(plain(message))


#: After a length-limit refusal on a corpus page (the Segment Explorer says the same).
TOKEN_LIMIT_WAY = "The app keeps the length limits; " + LONGER_TEXT


def show_counts(analysis: CorpusAnalysis, label: str = "", reference_notes: bool = True) -> None:
    """'N data lines, S scored, K not scored' (they add up), the problems in line order, and
    notes on segments scored with something left out (empty references, human scores)."""
    prefix = f"{label}: " if label else ""
    not_scored = analysis.not_scored
    sentence = prefix + analysis.counts_sentence() + "."
    if not_scored:
        too_long = sum(is_token_limit_reason(p.message) for p in not_scored)
        # The way past the limit, as the Segment Explorer says it (a tester: "the limit is 2,000 per
        # side" and nothing else, where the command line adds its option).
        way_past = (f" {too_long} of them {'is' if too_long == 1 else 'are'} over the length limit. " + TOKEN_LIMIT_WAY
                    if too_long else "")
        st.warning(plain(sentence + " The lines not scored are listed below with the reason." + way_past))
        _problem_table(f"{prefix}{len(not_scored)} line(s) not scored", not_scored)
    else:
        st.caption(plain(sentence))
    unproven = analysis.lines_not_proven_optimal
    if unproven:
        st.warning(plain(
            f"{prefix}{len(unproven):,} segment(s) have an alignment not proven optimal: the search hit its node "
            f"budget ({analysis.corpus.segments[0].best.config.node_budget:,}), so the best alignment found is used "
            "and a better one could change their scores. The table's optimal column is unticked for them "
            f"({named_lines(unproven)}). Node budget, under Options and parameters in the sidebar, "
            "can raise the budget (the command line's --node-budget too)."))
    if reference_notes:
        show_reference_notes(analysis.reference_notes, prefix, analysis.empty_references_scored)
    if analysis.human_notes:
        st.info(plain(f"{prefix}{len(analysis.human_notes)} human score(s) are missing or not numbers: those segments "
                      "are scored but left out of the correlations."))
        _problem_table(f"{prefix}human scores left out", analysis.human_notes)


def show_reference_notes(notes: Sequence, prefix: str = "", scored: bool = False) -> None:
    """The empty references left out (or, in METEOR 1.5 mode, `scored` as the jar scores them),
    with file and line. System Comparison says them once for all systems (they share the
    references; once per system, under each system's name, read as a problem of each system: a
    tester)."""
    if notes:
        what = ("METEOR 1.5 mode scores it, as the jar scores every reference (no words: 0, the best only when no "
                "reference matches)" if scored else "it is left out and they are scored against their other references")
        st.info(plain(f"{prefix}{len(notes):,} segment(s) have an empty reference (a blank cell, or a blank line of a "
                      f"reference file): {what}. The list below names the file and line."))
        _problem_table(f"{prefix}empty references {'scored' if scored else 'left out'}", notes)


def _problem_table(title: str, problems) -> None:
    """File, line and reason of each problem or note, in an expander."""
    with st.expander(plain(title)):
        st.dataframe(pd.DataFrame([{"file": p.file, "line": p.line, "reason": p.message} for p in problems]),
                     hide_index=True, width="stretch")


# -- selection that survives filters, sorts and mode changes --------------------------------
class Selection:
    """The selected segment is a file line (unique), kept in session state. Tables and
    scatters are only event sources: each widget gets a key that changes whenever what it shows
    changes (so a stale row position can never point at another segment), and a click counts
    when the widget's selection differs from what was last seen."""

    def __init__(self, page: str):
        self.page = page
        self.state_key = f"{page}-selected-line"
        self._seen_key = f"_{page}-seen"

    @property
    def line(self) -> Optional[int]:
        return st.session_state.get(self.state_key)

    def set(self, line: Optional[int]) -> None:
        if line is None:
            st.session_state.pop(self.state_key, None)
        else:
            st.session_state[self.state_key] = int(line)

    def widget_key(self, name: str, content: Sequence) -> str:
        """A key per (widget, what it shows); also published as st.session_state[f'{page}-{name}-key']
        so tests can address the widget."""
        digest = hashlib.sha256(repr(tuple(content)).encode()).hexdigest()[:12]
        generation = st.session_state.get(f"_{self.page}-{name}-generation", 0)
        key = f"{self.page}-{name}-{digest}-{generation}"
        st.session_state[f"{self.page}-{name}-key"] = key
        return key

    def reset_widget(self, name: str) -> None:
        """Give a widget a fresh key (clears its tick) when the selection came from elsewhere."""
        gen = f"_{self.page}-{name}-generation"
        st.session_state[gen] = st.session_state.get(gen, 0) + 1

    def changed(self, widget_key: str, value, fresh: bool = False) -> bool:
        """True when the widget's selection differs from the previous run's (a user action).
        A widget seen for the first time with nothing selected is not an action; nor is a
        `fresh` one (its state was not there before this run: Streamlit drops a widget's state
        after a run that did not draw it, and the uploader's rerun with no file, before a new
        file arrives, draws no table: its empty selection cleared the opened segment)."""
        seen = st.session_state.setdefault(self._seen_key, {})
        before = seen.get(widget_key, ())
        seen[widget_key] = value
        if fresh or st.session_state.get("_page_changed"):
            # Back from another page the widget is new and shows nothing ticked: not an
            # action (it cleared the selection the user had made).
            return False
        if len(seen) > 50:  # keys of widgets long gone
            for old in list(seen)[:-50]:
                del seen[old]
        return before != value

    def follow_data(self, digest: str, label: str = "") -> None:
        """Other data (another file, other columns): a line number would mean another segment.
        The selection is cleared with a message, as a filter or mode change clears it (adding a
        reference file closed the open segment without a word: a tester)."""
        marker = f"_{self.page}-selection-data"
        if st.session_state.get(marker) != digest:
            if marker in st.session_state and self.line is not None:
                st.info(plain("Other data" + (f" ({label})" if label else "") + f": the selected segment (line "
                              f"{self.line}) is closed; select it again in the table."))
            st.session_state[marker] = digest
            self.set(None)

    def remember(self, segment_key: tuple) -> None:
        """What the open segment is, beyond its line: (id, references), for follow_segment."""
        st.session_state[f"_{self.page}-selected-key"] = (self.line, segment_key)

    def follow_segment(self, lines: Sequence[int], keys: Callable[[], Sequence[tuple]], what: str) -> None:
        """A long table's rows of another system (or all mixed): the open segment's row is not among
        `lines`, but a row of the same segment (the same id and references, remembered) is: open that
        one, said. It closed with "not among the rows shown", where a wide table's segment stayed
        open across systems (a tester)."""
        remembered = st.session_state.get(f"_{self.page}-selected-key")
        if self.line is None or remembered is None or remembered[0] != self.line or self.line in set(lines):
            return
        line = next((line for line, key in zip(lines, keys()) if key == remembered[1]), None)
        if line is not None:
            st.info(plain(f"Segment {remembered[1][0]}: its row in {what} (line {line}) is open, where line "
                          f"{self.line} was another system's row of it."))
            self.set(line)
            self.remember(remembered[1])

    def keep_if_present(self, lines: Sequence[int], why_missing: str) -> None:
        """Clear the selection, with a message, when its segment is not among `lines`."""
        if self.line is not None and self.line not in set(lines):
            st.info(plain(f"The selected segment (line {self.line}) {why_missing}; selection cleared."))
            self.set(None)


def selectable_table(selection: Selection, frame: pd.DataFrame, lines: Sequence[int], column_config: dict,
                     name: str = "table", others: Sequence[str] = (),
                     column_order: Optional[Sequence[str]] = None) -> None:
    """A single-row-select dataframe over `frame` (row k is segment lines[k])."""
    key = selection.widget_key(name, lines)
    fresh = key not in st.session_state
    # A missing value (no human score) shows as a dash: Streamlit's default is a grey "None",
    # which read as a score named None (placeholder: Streamlit 1.52).
    # A new table (another order, filter, mode or data: its key changes) ticks the open segment's
    # row: it came up unticked while the segment stayed open below it (an MT engineer).
    ticked = {"selection": {"rows": [list(lines).index(selection.line)]}} if selection.line in lines else None
    event = st.dataframe(frame, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key=key, column_config=column_config, column_order=column_order, placeholder="—",
                         selection_default=ticked)
    rows = tuple(event["selection"]["rows"])
    if selection.changed(key, rows, fresh):
        if rows and rows[0] < len(lines):  # positions are those of `frame`, whatever the browser's sort
            selection.set(lines[rows[0]])
            for other in others:
                selection.reset_widget(other)
        elif not rows and selection.line in set(lines):
            selection.set(None)  # the user unticked the row


def selectable_scatter(selection: Selection, figure, content: Sequence, name: str = "scatter",
                       others: Sequence[str] = ()) -> None:
    """A Plotly scatter whose points carry their segment line as customdata: a click or a box/
    lasso selection opens the (first) selected segment."""
    key = selection.widget_key(name, content)
    fresh = key not in st.session_state
    event = st.plotly_chart(figure, width="stretch", key=key, on_select="rerun",
                            selection_mode=("points", "box", "lasso"))
    points = event["selection"]["points"] if event is not None else []
    picked = tuple(int(p["customdata"][0] if isinstance(p.get("customdata"), list) else p["customdata"])
                   for p in points if p.get("customdata") is not None)
    if selection.changed(key, picked, fresh) and picked:
        selection.set(picked[0])
        for other in others:
            selection.reset_widget(other)
        if len(picked) > 1:
            st.session_state[f"_{selection.page}-scatter-note"] = (
                f"{len(picked)} points selected in the scatter; showing the first (line {picked[0]}). "
                "Click a single point to open another.")
    note = st.session_state.pop(f"_{selection.page}-scatter-note", None)
    if note:
        st.caption(plain(note))


# -- table views ----------------------------------------------------------------------------
def search_mask(frame: pd.DataFrame, analysis: CorpusAnalysis, needle: str) -> pd.Series:
    """Rows of the segments table whose id, candidate or any reference contains `needle`
    (case-insensitive, plain text). The table shows the best reference only; a search that
    looked there alone missed words of a segment's other references."""
    needle = needle.lower()
    segments, index_of_line = analysis.corpus.segments, analysis.index_of_line
    references = frame["line"].map(lambda line: "\n".join(segments[index_of_line[line]].references))
    return (frame["id"].astype(str).str.lower().str.contains(needle, regex=False)
            | frame["candidate"].str.lower().str.contains(needle, regex=False)
            | references.str.lower().str.contains(needle, regex=False))


def hover_ids(frame: pd.DataFrame) -> list[str]:
    """What a scatter's point names: the segment id, and its system when the rows mix systems
    (ids repeat across them)."""
    if "system" not in frame.columns:
        return [str(i) for i in frame["id"]]
    return [f"{i} ({system})" if system.strip() else str(i) for i, system in zip(frame["id"], frame["system"])]


def segment_columns(frame: pd.DataFrame, mode: str = "paper") -> dict:
    """Readable headers with units; numbers rounded for display only (exports keep full
    precision). `mode` decides what the optimal column can say: only paper mode searches for a
    proven optimum; nltk's greedy and the jar's beam search prove nothing, and a column ticked
    on every row read as "optimal" (an MT engineer), so there it starts hidden and says so."""
    number = st.column_config.NumberColumn
    config = {
        "id": st.column_config.TextColumn("id", width="small"),
        "system": st.column_config.TextColumn("system", width="small", help="the system whose output this row is"),
        "line": number("line", format="%d", width="small", help="line in the file (the header is line 1)"),
        "candidate": st.column_config.TextColumn("candidate", width="medium", help="full text: select the row"),
        "reference": st.column_config.TextColumn("best reference", width="medium", help="full text: select the row"),
        "meteor": number("METEOR (0-1)", format="%.4f"), "bleu": number("BLEU (0-1)", format="%.4f"),
        "human": number("human score", format="%.2f"),
        "precision": number("precision P", format="%.4f"), "recall": number("recall R", format="%.4f"),
        "fmean": number("Fmean", format="%.4f"), "penalty": number("penalty", format="%.4f"),
        "chunks": number("chunks", format="%d"),
        "matches": number("matches", format="%d", help="matched tokens (unigrams)"),
        "candidate_length": number("candidate (tokens)", format="%d"),
        "reference_length": number("reference (tokens)", format="%d"),
        "best_reference": number("best ref. #", format="%d"),
        "optimal": st.column_config.CheckboxColumn("optimal", help=OPTIMAL_HELP.get(mode, OPTIMAL_HELP["paper"])),
    }
    # 19-20 columns scrolled sideways even at 1,400 px: the detail columns (and the matches
    # per stage) start hidden, and the table toolbar's "Show/hide columns" menu shows them (the
    # caption says so).
    for column in frame.columns:
        if column.startswith("matches_"):
            config[column] = {**number(f"matches: {column[len('matches_'):]}", format="%d"), "hidden": True}
        elif column in HIDDEN_SEGMENT_COLUMNS or (column == "optimal" and mode != "paper"):
            config[column] = {**config[column], "hidden": True}
    return config


#: What the optimal column means, per mode.
OPTIMAL_HELP = {
    "paper": "ticked: the exact alignment search finished, the alignment is proven optimal; unticked: it hit "
             "its node budget and the best alignment found is used",
    "nltk": "not a proof: nltk's meteor_score aligns greedily, as this mode does, and there is no budget to hit, "
            "so every row is ticked",
    "meteor15": "not a proof: METEOR 1.5 keeps the best of a beam search, as this mode does, and there is no "
                "budget to hit, so every row is ticked",
}


#: Segment table columns hidden until the user shows them (per-stage matches also).
HIDDEN_SEGMENT_COLUMNS = ("fmean", "candidate_length", "reference_length", "best_reference")


def segment_column_order(frame: pd.DataFrame) -> list[str]:
    """The id, METEOR and BLEU, then the candidate (cut to a medium column; selecting a row shows
    it whole), the other scores, and the reference: at 1,400 px the scores are in view without
    scrolling sideways, and on a phone (390 px) METEOR and BLEU are too (the candidate before them
    left only id and text in view: a tester)."""
    first = [c for c in ("id", "system", "line", "meteor", "bleu", "candidate") if c in frame.columns]
    last = [c for c in ("reference",) if c in frame.columns]
    return first + [c for c in frame.columns if c not in first and c not in last] + last


def downloads(rows: list[dict], summary: dict, prefix: str, shown_lines: Optional[Sequence[int]] = None) -> None:
    """The exports. Each button says what it holds: all segments, and, while a filter hides
    some, the ones shown, in the table's order (the buttons said "Segments" and gave all 119
    while the table showed 12: a tester). Each file is made when its button is clicked
    (Streamlit's deferred data), not on every run of the page: made each time, they held every
    click back and their bytes stayed in the server's memory until the next run. A click reruns
    nothing (on_click="ignore"): a rerun renews every deferred file's id, and a second button
    clicked before the page had the new ones lost its download (a helper)."""
    filtered = shown_lines is not None and len(shown_lines) < len(rows)
    c1, c2, c3, c4 = st.columns(4) if filtered else (*st.columns(3), None)
    c1.download_button(f"All {len(rows):,} segments (CSV)", lambda: rows_to_csv(rows),
                       file_name=f"{prefix}-segments.csv", mime="text/csv", on_click="ignore",
                       help="Every segment scored, whatever the filter shows; full precision; cells that a "
                            "spreadsheet would run as a formula start with '")
    c2.download_button(f"All {len(rows):,} segments (JSON)", lambda: json.dumps(rows, ensure_ascii=False, default=str),
                       file_name=f"{prefix}-segments.json", mime="application/json", on_click="ignore",
                       help="Every segment scored, whatever the filter shows")
    c3.download_button("Summary (JSON)", lambda: json.dumps(summary, ensure_ascii=False, indent=1, default=str),
                       file_name=f"{prefix}-summary.json", mime="application/json", on_click="ignore")
    if filtered:
        by_line = {row["line"]: row for row in rows}
        shown = [by_line[line] for line in shown_lines]
        c4.download_button(f"The {len(shown):,} shown (CSV)", lambda: rows_to_csv(shown),
                           file_name=f"{prefix}-shown.csv", mime="text/csv", on_click="ignore",
                           help="The segments the filter shows, in the Order box's order (a click on a column "
                                "header sorts only the browser's view, which the export cannot see); the same "
                                "columns as the full export")


def export_name(kind: str, mode: str, chosen: Chosen) -> str:
    """The start of an export's file name: the kind, the mode (a file made while a mode change
    was on its way held the old mode's numbers under the same name: a helper), the data and
    what of it was scored ("meteor-corpus-paper-deen_wide500-Online-B"), in characters any
    file system takes."""
    data = re.sub(r"\.(tsv|csv|jsonl|json|txt)(\.gz)?(?=$|[ ,])", "", chosen.label.removeprefix("the "))
    words = re.sub(r"[^\w.\-]+", "-", f"{data} {chosen.scored}").strip("-.")
    return f"{kind}-{mode}" + (f"-{words[:80].rstrip('-.')}" if words else "")


def breakdown_table(results: dict) -> None:
    """Several segment results side by side, one row each, every number in full width."""
    rows = [{"system": name, "METEOR": r.score, "precision P": r.breakdown.precision, "recall R": r.breakdown.recall,
             "Fmean": r.breakdown.fmean, "chunks": r.stats.chunks, "matches": r.stats.matches,
             "fragmentation": r.breakdown.fragmentation, "penalty": r.breakdown.penalty,
             "candidate (tokens)": r.stats.candidate_length, "reference (tokens)": r.stats.reference_length}
            for name, r in results.items()]
    number = st.column_config.NumberColumn
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
        **{k: number(k, format="%.4f") for k in ("METEOR", "precision P", "recall R", "Fmean", "fragmentation",
                                                 "penalty")}})
