"""pandas in, pandas out: the unit that existing engines distribute (Dask, Spark).

`score_series(candidates, references, config, synonym_tables)` scores aligned pandas Series
(a reference entry is one string or a list of strings) and returns one row per segment with
the segment's statistics. It is a plain function of pandas objects, so:

  * dask.dataframe:  ddf.map_partitions(score_partition, reference_columns=[...], config=...,
                                        meta=result_meta())
  * dask.bag:        bag.map_partitions(score_records, config=...)
  * Spark:           pandas_udf(lambda c, r: score_series(c, r, config), RESULT_SPARK_SCHEMA)

and the corpus score comes from the summed statistics, exactly as Scorer.score_corpus computes
it (`corpus_breakdown`). Each worker process builds its Scorer once per configuration (cached,
bounded). Nothing here imports Dask or Spark; see docs/distributed.md for complete examples.
"""
from __future__ import annotations

from functools import lru_cache
from operator import add
from typing import Iterable, Mapping, Optional, Sequence

try:
    import pandas as pd
except ImportError:  # the library installs without pandas; this module needs it
    raise ImportError("meteor_core.frames needs pandas: pip install 'meteor-lens[frames]' "
                      "(or pip install pandas)") from None

from .errors import MeteorInputError, MeteorParameterError
from .formula import MeteorBreakdown, MeteorStats, compute
from .meteor15.formula import statistics_row
from .params import MeteorConfig
from .references import read_references, references_to_score
from .stages import SynonymTable
from .tokenize import UNORDERED

FLOAT_COLUMNS = ("score", "precision", "recall", "fmean", "penalty", "fragmentation")
INT_COLUMNS = ("matches", "chunks", "candidate_length", "reference_length", "best_reference")
#: METEOR 1.5 mode only: the segment's weighted statistics as space-separated integers
#: (meteor15.formula.statistics_row: lengths, function words, the chunks it adds, then four
#: counts per module), which add up position by position to what the jar's corpus score needs.
STATISTICS_COLUMN = "meteor15_statistics"
#: Output columns, in order. Counts are nullable integers and `optimal` a nullable boolean:
#: a row that cannot be scored has them missing and its reason in `error`.
COLUMNS = FLOAT_COLUMNS + INT_COLUMNS + ("optimal", "error", STATISTICS_COLUMN)
#: The same columns as a Spark DDL schema string, for pandas_udf's returnType.
RESULT_SPARK_SCHEMA = ", ".join([f"{c} double" for c in FLOAT_COLUMNS] + [f"{c} long" for c in INT_COLUMNS]
                                + ["optimal boolean", "error string", f"{STATISTICS_COLUMN} string"])


def result_meta() -> pd.DataFrame:
    """An empty frame with the output columns and dtypes (Dask's `meta`)."""
    return _frame([])


@lru_cache(maxsize=8)
def _scorer(config: MeteorConfig, synonym_tables: tuple[SynonymTable, ...]):
    from .scorer import Scorer

    return Scorer(config, synonym_tables)


def _row(scorer, candidate, references) -> dict:
    try:
        if not isinstance(candidate, str):
            raise MeteorInputError(f"candidate must be a string, got {candidate!r}")
        refs, positions = _references_of_cell(references, scorer.config)
        result = scorer.score(candidate, refs)
    except MeteorInputError as error:
        return {"error": str(error)}
    best, b = result.best, result.best.breakdown
    return {"score": b.score, "precision": b.precision, "recall": b.recall, "fmean": b.fmean,
            "penalty": b.penalty, "fragmentation": b.fragmentation, "matches": best.stats.matches,
            "chunks": best.stats.chunks, "candidate_length": best.stats.candidate_length,
            "reference_length": best.stats.reference_length, "best_reference": positions[result.best_index],
            "optimal": best.optimal, "error": None,
            STATISTICS_COLUMN: None if best.meteor15 is None else " ".join(map(str, statistics_row(best.meteor15.stats)))}


def _checked_config(config) -> MeteorConfig:
    """The configuration, or the default; anything else is refused with what to pass (a mode's
    name gave a bare AttributeError: a tester)."""
    if config is None:
        return MeteorConfig()
    if not isinstance(config, MeteorConfig):
        raise MeteorParameterError(f"config must be a MeteorConfig (e.g. MeteorConfig(mode={config!r})), not "
                                   f"{type(config).__name__}" if isinstance(config, str) else
                                   f"config must be a MeteorConfig, not {type(config).__name__}")
    return config


def _references_of_cell(references, config) -> tuple[object, list[int]]:
    """A cell's references and the position of each in the cell (0-based). A list (or the
    numpy array Arrow gives for a list column; a generator is read once) loses its blank
    entries, as corpus files do, and best_reference still names the entry in the list (after
    a left-out blank it named the next one: a tester). A dict or set has no order: refused."""
    if isinstance(references, str):
        return references, [0]
    if isinstance(references, UNORDERED) or not hasattr(references, "__iter__"):
        raise MeteorInputError(f"references must be a string or a list of strings, got {references!r}")
    # A missing item (None, NaN, pd.NA: what Arrow and pandas give for a null in a list) is an
    # empty reference, as a null cell and a JSON null are (it was this row's error: a tester).
    refs = ["" if not isinstance(r, str) and _is_missing(r) else r for r in read_references(references, config.max_references)]
    if not all(isinstance(r, str) for r in refs):
        raise MeteorInputError(f"references must be a string or a list of strings, got {references!r}")
    return references_to_score(refs, config.mode)


def _is_missing(value) -> bool:
    try:
        return value is None or bool(pd.isna(value))
    except (TypeError, ValueError):  # pd.isna of a list is an array: not a missing value
        return False


def _frame(rows: list[dict], index=None) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(COLUMNS), index=index)
    for column in FLOAT_COLUMNS:
        frame[column] = frame[column].astype("float64")
    for column in INT_COLUMNS:
        frame[column] = frame[column].astype("Int64")
    frame["optimal"] = frame["optimal"].astype("boolean")
    # pandas' string dtype, not object: Dask's placeholder for an object column cannot be given
    # an Arrow type, so to_parquet on the results failed (a tester, with docs/distributed.md's
    # own example).
    frame["error"] = frame["error"].astype("string")
    frame[STATISTICS_COLUMN] = frame[STATISTICS_COLUMN].astype("string")
    return frame


def score_series(candidates: pd.Series, references: pd.Series, config: Optional[MeteorConfig] = None,
                 synonym_tables: Sequence[SynonymTable] = ()) -> pd.DataFrame:
    """One output row per (candidate, references) pair, same index as `candidates`. Two Series
    are paired by label, as pandas pairs them (same labels in another order: references are
    put in the candidates' order; other labels: refused); a list or array is paired by
    position. A blank entry of a reference list is left out, as in corpus files."""
    config = _checked_config(config)
    if isinstance(candidates, (str, bytes)):  # a string is iterable: it was scored letter by letter (a tester)
        raise MeteorInputError("candidates must be a Series or a list of strings, not one string: wrap it in a list")
    if not isinstance(candidates, pd.Series):
        candidates = pd.Series(list(candidates), dtype=object)
    if isinstance(references, pd.Series):
        references = _aligned(candidates, references)
    else:
        references = list(references)
    if len(candidates) != len(references):
        raise MeteorInputError(f"{len(candidates)} candidates but {len(references)} reference entries")
    scorer = _scorer(config, tuple(synonym_tables))
    rows = [_row(scorer, c, r) for c, r in zip(candidates, references)]
    return _frame(rows, index=candidates.index)


def _aligned(candidates: pd.Series, references: pd.Series) -> pd.Series:
    """References in the candidates' row order. Paired by position whatever the labels, a
    groupby's references (sorted by key) were scored against candidates in another order,
    silently (a tester: 4 of 5 rows wrong)."""
    if references.index.equals(candidates.index):
        return references
    same_labels = (candidates.index.is_unique and references.index.is_unique
                   and len(candidates) == len(references) and candidates.index.isin(references.index).all())
    if same_labels:
        return references.reindex(candidates.index)
    raise MeteorInputError(
        "candidates and references are pandas Series with different index labels, so their rows cannot be paired: "
        "give them the same index (e.g. references.reindex(candidates.index)), or pass lists to pair by position")


def score_partition(partition: pd.DataFrame, candidate_column: str = "candidate",
                    reference_columns: Sequence[str] = ("reference",), config: Optional[MeteorConfig] = None,
                    synonym_tables: Sequence[SynonymTable] = ()) -> pd.DataFrame:
    """score_series on the columns of a frame (a Dask partition). Each reference column holds
    one reference per row (missing: fewer references for that row), or a list of them. Prefer
    string columns: Dask turns object columns into strings, and a list into its repr."""
    missing = [c for c in [candidate_column, *reference_columns] if c not in partition.columns]
    if missing:
        raise MeteorInputError(f"column(s) {', '.join(map(repr, missing))} not found; the columns are "
                               f"{', '.join(map(repr, partition.columns))}")
    columns = [partition[c] for c in reference_columns]
    references = pd.Series([_references_of_row(values) for values in zip(*columns)], index=partition.index,
                           dtype=object)
    return score_series(partition[candidate_column], references, config, synonym_tables)


def _references_of_row(values) -> object:
    """A row's references from its reference columns, in column order, one entry per cell (a
    list cell: one per item), a missing cell as a blank one: score_series leaves blanks out
    (a tester's Parquet lost 50 of 300 rows to "reference 2 is empty") and its best_reference
    still counts them, so it names the column (list items counted)."""
    refs: list = []
    for value in values:
        if isinstance(value, str) or isinstance(value, UNORDERED):
            refs.append(value)  # a dict or set: _row refuses it
        elif hasattr(value, "__iter__"):
            refs.extend(value)
        elif _is_missing(value):
            refs.append("")
        else:
            return value  # not text: _row reports it
    return refs


def score_records(records: Iterable[dict], candidate_key: str = "candidate", references_key: str = "references",
                  config: Optional[MeteorConfig] = None, synonym_tables: Sequence[SynonymTable] = ()) -> list[dict]:
    """For dask.bag partitions of dicts: one output dict per record (the COLUMNS keys)."""
    scorer = _scorer(_checked_config(config), tuple(synonym_tables))
    out = []
    for record in records:
        row = dict.fromkeys(COLUMNS)
        if isinstance(record, Mapping):
            row.update(_row(scorer, record.get(candidate_key), record.get(references_key)))
        else:  # one bad record is its row's error, not the partition's (it raised AttributeError)
            row["error"] = f"a record must be a dict with {candidate_key!r} and {references_key!r}, got {record!r}"
        out.append(row)
    return out


def corpus_breakdown(results: pd.DataFrame, config: Optional[MeteorConfig] = None) -> MeteorBreakdown:
    """Corpus METEOR from the summed statistics of the scored rows (rows with an error left out),
    as Scorer.score_corpus computes it: the 2005 counts in paper and nltk mode, the weighted
    statistics of `meteor15_statistics` in METEOR 1.5 mode (the jar weighs matches by module and
    by content or function word; the 2005 formula on the plain counts was off by 0.04)."""
    config = _checked_config(config)
    needed = (STATISTICS_COLUMN,) if config.mode == "meteor15" else ("matches", "candidate_length",
                                                                     "reference_length", "chunks")
    missing = [c for c in ("error", *needed) if c not in results.columns]
    if missing:  # a bare KeyError before (a tester)
        raise MeteorInputError(f"corpus_breakdown needs the column(s) {', '.join(missing)} of the results "
                               f"({config.mode} mode sums {', '.join(needed)}; error says which rows to leave out)")
    scored = results[results["error"].isna()]
    if not len(scored):
        raise MeteorInputError("no segment could be scored")
    weighted = scored[STATISTICS_COLUMN].notna() if STATISTICS_COLUMN in scored else pd.Series(False, scored.index)
    if config.mode == "meteor15":
        if not weighted.all():
            raise MeteorParameterError(
                f"{int((~weighted).sum()):,} scored rows have no {STATISTICS_COLUMN}: they were not scored in "
                "meteor15 mode (or that column was not kept); METEOR 1.5's corpus score needs it")
        width = 5 + 4 * len(config.stages)  # statistics_row: five numbers, then four per module
        summed = [0] * width
        for label, text in scored[STATISTICS_COLUMN].items():
            row = text.split()
            if len(row) != width:
                raise MeteorParameterError(
                    f"row {label!r}: {len(row)} numbers in {STATISTICS_COLUMN}, but this configuration's "
                    f"{len(config.stages)} modules give {width}: were these rows scored with another configuration?")
            summed = list(map(add, summed, map(int, row)))
        return _scorer(config, ()).breakdown_of_summed_rows(summed)
    if weighted.any():
        raise MeteorParameterError(f"these results were scored in meteor15 mode ({STATISTICS_COLUMN} is filled): "
                                   "pass that configuration, whose corpus score weighs the matches")
    totals = {c: int(scored[c].sum()) for c in ("matches", "candidate_length", "reference_length", "chunks")}
    stats = MeteorStats(totals["matches"], totals["candidate_length"], totals["reference_length"], totals["chunks"])
    return compute(stats, config.params, config.zero_penalty_single_chunk, config.token_unit)
