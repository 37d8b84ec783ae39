"""METEOR 1.5's English data, without Java and without reading 62 MB at start-up.

The jar's resources (function words, nonbreaking prefixes, WordNet-derived synonym files) and
its paraphrase table `paraphrase-en.gz` ship inside the PyPI wheel `pycocoevalcap==1.2`.
`install()` (CLI: `python -m meteor_core setup-meteor15`, run by scripts/setup.sh) fetches that
wheel once with pip, checks its SHA-256, and converts everything into one indexed SQLite file.
Scoring opens the file read-only and looks up only the words and phrases of the pair at hand,
so start-up costs milliseconds (the jar spends ~15 s parsing the table).

Where the data lives (never inside the git checkout): $METEOR15_DATA if set, else
$XDG_DATA_HOME/meteor-lens/meteor15, else ~/.local/share/meteor-lens/meteor15. If the file is
missing, `load_data()` says so with the command that fixes it; the scorer reports that in every
result and never falls back silently.
"""
from __future__ import annotations

import gzip
from array import array
from bisect import bisect_left
import hashlib
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import zipfile
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from ..caches import word_cache
from .normalize import parse_prefix_file, split_words

ENV_VAR = "METEOR15_DATA"
FIX_COMMAND = "python -m meteor_core setup-meteor15"
WHEEL_REQUIREMENT = "pycocoevalcap==1.2"
WHEEL_FILE = "pycocoevalcap-1.2-py3-none-any.whl"
WHEEL_SHA256 = "083ed7910f1aec000b0a237ef6665f74edf19954204d0b1cbdb8399ed132228d"
JAR_MEMBER = "pycocoevalcap/meteor/meteor-1.5.jar"
PARAPHRASE_MEMBER = "pycocoevalcap/meteor/data/paraphrase-en.gz"
DB_FILE = "meteor15-en.sqlite"
#: Bump when the SQLite layout changes; a file of another format is reported as outdated.
DATA_FORMAT = 4
#: Named in every meteor15 signature.
DATA_VERSION = f"pycocoevalcap-1.2/f{DATA_FORMAT}"
#: Longest phrase on either side of the paraphrase table (checked while converting).
MAX_PHRASE_WORDS = 7
_SQL_CHUNK = 500  # host parameters per query, well under SQLite's limit


def data_dir() -> Path:
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meteor-lens" / "meteor15"


def jar_path(directory: Optional[Path] = None) -> Path:
    """Where `install(with_jar=True)` puts the original jar (the tests' oracle); the jar finds
    its paraphrase table in data/ beside itself."""
    return (directory or data_dir()) / "jar" / "meteor-1.5.jar"


@dataclass(frozen=True)
class DataStatus:
    available: bool
    path: str
    version: str
    message: str

    @property
    def fix(self) -> str:
        return "" if self.available else FIX_COMMAND


class Meteor15Data:
    """Read-only view of the converted data. Thread-safe: one SQLite connection per thread,
    word-level lookups cached in bounded LRU caches."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        conn = self._connect()
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if int(meta.get("format", -1)) != DATA_FORMAT:
            raise ValueError(f"data format {meta.get('format')} (this version reads format {DATA_FORMAT})")
        self.meta = meta
        self.function_words = frozenset(w for (w,) in conn.execute("SELECT word FROM function_word"))
        self.prefixes = parse_prefix_file(meta["nonbreaking_prefixes"])
        self.synsets = word_cache(self._synsets)
        self.has_synset_entry = word_cache(self._has_synset_entry)
        self.exception_bases = lru_cache(maxsize=1 << 14)(self._exception_bases)
        self._index_lock = threading.Lock()
        self._crcs: Optional[array] = None
        self._crc_ids: Optional[array] = None
        self._bitmap = b""

    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                                   check_same_thread=False)
            # Memory-map the file and keep hot pages: lookups then cost microseconds.
            conn.execute("PRAGMA mmap_size = 268435456")
            conn.execute("PRAGMA cache_size = -65536")
            self._local.conn = conn
        return conn

    # -- synonym files ----------------------------------------------------------------------
    def _row(self, sql: str, word: str):
        if not _encodable(word):  # a lone surrogate is in no file (and SQLite cannot take it)
            return None
        return self._connect().execute(sql, (word,)).fetchone()

    def _synsets(self, word: str) -> frozenset[int]:
        row = self._row("SELECT sets FROM synset WHERE word = ?", word)
        return frozenset(int(x) for x in row[0].split()) if row and row[0] else frozenset()

    def _has_synset_entry(self, word: str) -> bool:
        return self._row("SELECT 1 FROM synset WHERE word = ?", word) is not None

    def _exception_bases(self, form: str) -> Optional[tuple[str, ...]]:
        row = self._row("SELECT bases FROM exception WHERE form = ?", form)
        return tuple(row[0].split("\n")) if row else None

    # -- paraphrase table -------------------------------------------------------------------
    def _crc_index(self) -> tuple[array, array]:
        """CRC-32 of every phrase, sorted, with the phrase ids in the same order (21 MB, read
        once): an n-gram whose CRC is absent is in no table entry, so most n-grams of a
        sentence are ruled out without a query."""
        with self._index_lock:
            if self._crcs is None:
                conn = self._connect()
                blobs = dict(conn.execute("SELECT name, data FROM blob"))
                crcs, ids = array("I"), array("I")
                crcs.frombytes(blobs["phrase_crc"])
                ids.frombytes(blobs["phrase_id"])
                if sys.byteorder != "little":
                    crcs.byteswap()
                    ids.byteswap()
                self._bitmap = blobs["phrase_crc_bitmap"]
                self._crcs, self._crc_ids = crcs, ids
            return self._crcs, self._crc_ids

    def known_crcs(self, crcs: Iterable[int]) -> set[int]:
        """Those CRCs that some phrase of the table has. A bitmap over the top 27 bits rules
        out most CRCs at once (about 2% pass falsely); the sorted array decides the rest."""
        table, _ = self._crc_index()
        bitmap = self._bitmap
        size = len(table)
        known = set()
        for crc in crcs:
            if bitmap[crc >> 8] >> (crc >> 5 & 7) & 1:
                k = bisect_left(table, crc)
                if k < size and table[k] == crc:
                    known.add(crc)
        return known

    def phrase_ids(self, grams: Iterable[tuple[int, str]]) -> dict[str, int]:
        """Ids of the phrases among `grams` ((CRC-32, text) pairs) that occur in the table, on
        either side: candidates by CRC, then confirmed by text."""
        crcs, ids = self._crc_index()
        candidates: dict[int, str] = {}
        for crc, text in grams:
            k = bisect_left(crcs, crc)
            while k < len(crcs) and crcs[k] == crc:
                candidates[ids[k]] = text
                k += 1
        if not candidates:
            return {}
        conn = self._connect()
        found: dict[str, int] = {}
        keys = sorted(candidates)
        for k in range(0, len(keys), _SQL_CHUNK):
            chunk = ",".join(map(str, keys[k:k + _SQL_CHUNK]))
            for phrase_id, text in conn.execute(f"SELECT id, text FROM phrase WHERE id IN ({chunk})"):
                if candidates[phrase_id] == text:
                    found[text] = phrase_id
        return found

    def paraphrase_entries(self, ref_ids: Iterable[int], para_ids: Iterable[int]) -> list[tuple[int, int, int]]:
        """Table entries (ref phrase id, paraphrase id, entry number) with the reference-side
        phrase in `ref_ids` and the paraphrase in `para_ids`. Entry numbers give file order."""
        refs = sorted(set(ref_ids))
        paras = ",".join(str(int(p)) for p in sorted(set(para_ids)))
        if not refs or not paras:
            return []
        conn = self._connect()
        rows: list[tuple[int, int, int]] = []
        for k in range(0, len(refs), _SQL_CHUNK):
            chunk = ",".join(str(int(r)) for r in refs[k:k + _SQL_CHUNK])
            rows.extend(conn.execute(
                f"SELECT ref, para, entry FROM paraphrase WHERE ref IN ({chunk}) AND para IN ({paras})"))
        return rows


_load_lock = threading.Lock()
_loaded: Optional[tuple[Optional[Meteor15Data], DataStatus]] = None


def load_data() -> tuple[Optional[Meteor15Data], DataStatus]:
    """(data or None, status), found at run time and opened once per process."""
    global _loaded
    with _load_lock:
        if _loaded is None or str(data_dir() / DB_FILE) != _loaded[1].path:
            _loaded = _open(data_dir() / DB_FILE)
        return _loaded


def reset() -> None:
    """Forget the opened data (after an install, or when the data directory changed)."""
    global _loaded
    with _load_lock:
        _loaded = None


def _open(path: Path) -> tuple[Optional[Meteor15Data], DataStatus]:
    if not path.exists():
        return None, DataStatus(
            False, str(path), "",
            f"METEOR 1.5 data not found at {path} (set {ENV_VAR} to another folder if it lives "
            f"elsewhere): the synonym and paraphrase modules, the function-word list and the "
            f"nonbreaking-prefix list are unavailable. Fix: {FIX_COMMAND}")
    try:
        data = Meteor15Data(path)
    except (sqlite3.Error, ValueError, KeyError) as error:
        return None, DataStatus(
            False, str(path), "",
            f"METEOR 1.5 data at {path} could not be read ({error}). Fix: {FIX_COMMAND}")
    return data, DataStatus(True, str(path), data.meta.get("version", ""),
                            f"METEOR 1.5 data {data.meta.get('version', '')} at {path}")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def phrase_crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


# -- conversion ------------------------------------------------------------------------------

def _lines(raw: bytes) -> list[str]:
    """BufferedReader.readLine over UTF-8 text: splits on \\n, \\r and \\r\\n."""
    return raw.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _pairs(lines: list[str]) -> Iterator[tuple[str, str]]:
    """Two-line records (key line, value line) as the jar reads them; a trailing empty line
    from the final newline is not a record."""
    if lines and lines[-1] == "":
        lines = lines[:-1]
    for k in range(0, len(lines) - 1, 2):
        yield lines[k], lines[k + 1]


def _paraphrase_records(stream: io.TextIOBase) -> Iterator[tuple[str, str]]:
    """(reference-side phrase, paraphrase) in file order; each record is three lines:
    a probability the jar ignores, the phrase, the paraphrase."""
    while True:
        probability = stream.readline()
        if not probability:
            return
        ref = stream.readline()
        para = stream.readline()
        yield " ".join(split_words(ref)), " ".join(split_words(para))


def build_database(wheel: Path, target: Path, log: Callable[[str], None] = print) -> Path:
    """Convert the wheel's METEOR 1.5 English data into the SQLite file `target`."""
    with zipfile.ZipFile(wheel) as outer:
        jar = zipfile.ZipFile(io.BytesIO(outer.read(JAR_MEMBER)))
        function_words = _lines(jar.read("function/english.words"))
        prefixes = jar.read("nonbreaking/english.prefixes").decode("utf-8", errors="replace")
        synset_lines = _lines(jar.read("synonym/english.synsets"))
        exception_lines = _lines(jar.read("synonym/english.exceptions"))
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        conn = sqlite3.connect(partial)
        try:
            conn.executescript("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE function_word (word TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE synset (word TEXT PRIMARY KEY, sets TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE exception (form TEXT PRIMARY KEY, bases TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE phrase (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
                CREATE TABLE blob (name TEXT PRIMARY KEY, data BLOB NOT NULL);
                CREATE TABLE paraphrase (ref INTEGER NOT NULL, para INTEGER NOT NULL,
                                         entry INTEGER NOT NULL, PRIMARY KEY (ref, para)) WITHOUT ROWID;
            """)
            # The file's last line may lack a newline; an empty line is no function word.
            words = [w for w in function_words if w != ""] if function_words[-1:] == [""] else function_words
            conn.executemany("INSERT OR IGNORE INTO function_word VALUES (?)", ((w,) for w in words))
            # Later lines for the same word replace earlier ones, as the jar's Hashtable.put does.
            conn.executemany("INSERT OR REPLACE INTO synset VALUES (?, ?)",
                             ((word, " ".join(str(int(x)) for x in split_words(sets)))
                              for word, sets in _pairs(synset_lines)))
            bases: dict[str, list[str]] = {}
            for base, forms in _pairs(exception_lines):
                for form in split_words(forms):
                    bases.setdefault(form, []).append(base)
            conn.executemany("INSERT INTO exception VALUES (?, ?)",
                             ((form, "\n".join(b)) for form, b in bases.items()))
            log("converting the paraphrase table (5.3 million entries; about a minute) ...")
            ids: dict[str, int] = {}
            entries = 0
            longest = 0

            def rows() -> Iterator[tuple[int, int, int]]:
                nonlocal entries, longest
                with outer.open(PARAPHRASE_MEMBER) as member, gzip.GzipFile(fileobj=member) as gz:
                    text = io.TextIOWrapper(gz, encoding="utf-8", errors="replace")
                    for ref, para in _paraphrase_records(text):
                        ref_id = ids.setdefault(ref, len(ids))
                        para_id = ids.setdefault(para, len(ids))
                        longest = max(longest, ref.count(" ") + 1, para.count(" ") + 1)
                        yield ref_id, para_id, entries
                        entries += 1

            # A repeated (phrase, paraphrase) pair would only repeat a match; keep the first.
            conn.executemany("INSERT OR IGNORE INTO paraphrase VALUES (?, ?, ?)", rows())
            if longest > MAX_PHRASE_WORDS:
                raise ValueError(f"paraphrase table has a {longest}-word phrase; this version handles "
                                 f"up to {MAX_PHRASE_WORDS}")
            conn.executemany("INSERT INTO phrase VALUES (?, ?)", ((i, text) for text, i in ids.items()))
            crc_of = array("I", (phrase_crc(text) for text in ids))  # ids are 0, 1, ... in insertion order
            order = sorted(range(len(crc_of)), key=crc_of.__getitem__)
            sorted_crcs = array("I", (crc_of[i] for i in order))
            sorted_ids = array("I", order)
            if sys.byteorder != "little":
                sorted_crcs.byteswap()
                sorted_ids.byteswap()
            bitmap = bytearray(1 << 24)  # bit crc >> 5 set for every phrase CRC
            for crc in crc_of:
                bitmap[crc >> 8] |= 1 << (crc >> 5 & 7)
            conn.executemany("INSERT INTO blob VALUES (?, ?)",
                             (("phrase_crc", sorted_crcs.tobytes()), ("phrase_id", sorted_ids.tobytes()),
                              ("phrase_crc_bitmap", bytes(bitmap))))
            wheel_sha = _sha256(wheel)
            meta = {"format": str(DATA_FORMAT), "version": DATA_VERSION, "source": WHEEL_FILE,
                    "source_sha256": wheel_sha, "paraphrase_entries": str(entries),
                    "phrases": str(len(ids)), "nonbreaking_prefixes": prefixes}
            conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            conn.commit()
            conn.execute("ANALYZE")
            conn.commit()
        finally:
            conn.close()
        os.replace(partial, target)
    return target


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download_wheel(directory: Path, log: Callable[[str], None] = print) -> Path:
    """`pip download pycocoevalcap==1.2` from the package index, checked against its SHA-256."""
    log(f"downloading {WHEEL_REQUIREMENT} (104 MB) with pip ...")
    command = [sys.executable, "-m", "pip", "download", WHEEL_REQUIREMENT, "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "-q", "-d", str(directory)]
    result = subprocess.run(command, capture_output=True, text=True)
    wheel = directory / WHEEL_FILE
    if result.returncode != 0 or not wheel.exists():
        raise RuntimeError(f"pip download {WHEEL_REQUIREMENT} failed: {(result.stderr or result.stdout).strip()}")
    return wheel


def install(directory: Optional[Path] = None, wheel: Optional[Path] = None, with_jar: bool = False,
            log: Callable[[str], None] = print) -> DataStatus:
    """Make the data available (idempotent). `with_jar` also keeps the original jar and its
    paraphrase table, which the parity tests run as the oracle."""
    directory = Path(directory) if directory else data_dir()
    target = directory / DB_FILE
    need_db = not _open(target)[1].available
    need_jar = with_jar and not (jar_path(directory).exists()
                                 and (jar_path(directory).parent / "data" / "paraphrase-en.gz").exists())
    if need_db or need_jar:
        with tempfile.TemporaryDirectory(prefix="meteor15-") as tmp:
            if wheel is None:
                wheel = download_wheel(Path(tmp), log)
            actual = _sha256(Path(wheel))
            if actual != WHEEL_SHA256:
                raise RuntimeError(f"{wheel}: SHA-256 {actual} is not the one of {WHEEL_FILE} ({WHEEL_SHA256})")
            if need_db:
                log(f"converting METEOR 1.5 data into {target} ...")
                build_database(Path(wheel), target, log)
            if need_jar:
                _extract_jar(Path(wheel), jar_path(directory).parent, log)
    else:
        log(f"METEOR 1.5 data already at {target}")
    reset()
    status = _open(target)[1]
    log(status.message)
    return status


def _extract_jar(wheel: Path, folder: Path, log: Callable[[str], None]) -> None:
    (folder / "data").mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as outer:
        for member, name in ((JAR_MEMBER, "meteor-1.5.jar"), (PARAPHRASE_MEMBER, "data/paraphrase-en.gz")):
            partial = folder / (name + ".partial")
            with outer.open(member) as source, open(partial, "wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
            os.replace(partial, folder / name)
    log(f"kept the original jar (test oracle) at {folder / 'meteor-1.5.jar'}")
