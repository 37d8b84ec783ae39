"""Find and load WordNet 3.0 for the synonym stage, offline.

Lookup order at run time (no network, no package manager, nothing written):
  1. wherever nltk.data finds `corpora/wordnet` (nltk_data folders, NLTK_DATA), or its zip;
If that fails, `load_wordnet()` returns a status saying so and the command that fixes it.
Scoring never writes: a read-only NLTK_DATA is harmless and nothing is copied behind the user's
back. `install_wordnet()` (CLI: `python -m meteor_core setup-wordnet`) is the one place that
writes, saying what and where: it copies Debian's copy (/usr/share/wordnet, packages
wordnet-base + wordnet-sense-index) into nltk_data with the `lexnames` file Debian lacks (spec
section 7), or tries nltk.download and, as root on Debian/Ubuntu, apt-get.

Loading skips nltk's map_wn step: it maps WordNet 3.0 sense keys onto the loaded WordNet, which
is the same 3.0 data, by reading index.sense twice (most of nltk's ~2 s load time).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import weakref
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .caches import word_cache

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")
FIX_COMMAND = "python -m meteor_core setup-wordnet"

# WordNet 3.0 lexicographer files in number order (lexnames(5WN)); nltk needs this file.
LEXNAMES = (
    "adj.all 3", "adj.pert 3", "adv.all 4", "noun.Tops 1", "noun.act 1", "noun.animal 1",
    "noun.artifact 1", "noun.attribute 1", "noun.body 1", "noun.cognition 1",
    "noun.communication 1", "noun.event 1", "noun.feeling 1", "noun.food 1", "noun.group 1",
    "noun.location 1", "noun.motive 1", "noun.object 1", "noun.person 1", "noun.phenomenon 1",
    "noun.plant 1", "noun.possession 1", "noun.process 1", "noun.quantity 1",
    "noun.relation 1", "noun.shape 1", "noun.state 1", "noun.substance 1", "noun.time 1",
    "verb.body 2", "verb.change 2", "verb.cognition 2", "verb.communication 2",
    "verb.competition 2", "verb.consumption 2", "verb.contact 2", "verb.creation 2",
    "verb.emotion 2", "verb.motion 2", "verb.perception 2", "verb.possession 2",
    "verb.social 2", "verb.stative 2", "verb.weather 2", "adj.ppl 3",
)
_DEBIAN_FILES = ("data.*", "index.*", "*.exc", "cntlist.rev")


@dataclass(frozen=True)
class WordNetStatus:
    available: bool
    version: str
    path: str
    message: str

    @property
    def fix(self) -> str:
        return "" if self.available else FIX_COMMAND


def default_target_dir() -> Path:
    base = os.environ.get("NLTK_DATA", "").split(os.pathsep)[0] or str(Path.home() / "nltk_data")
    return Path(base) / "corpora" / "wordnet"


def copy_from_debian(target: Optional[Path] = None) -> Optional[Path]:
    """The spec's recipe: real copies (nltk refuses symlinks) plus a generated lexnames."""
    if not (DEBIAN_WORDNET_DIR / "data.noun").exists():
        return None
    target = target or default_target_dir()
    target.mkdir(parents=True, exist_ok=True)
    for pattern in _DEBIAN_FILES:
        for source in DEBIAN_WORDNET_DIR.glob(pattern):
            if source.is_file():
                shutil.copyfile(source, target / source.name)
    sense_index = DEBIAN_WORDNET_DIR / "index.sense"
    if sense_index.exists():
        shutil.copyfile(sense_index, target / "index.sense")
    else:  # nltk lists the file; an empty one is enough for synsets() (no sense-key lookups).
        (target / "index.sense").touch()
    (target / "lexnames").write_text(lexnames_text(), encoding="ascii")
    return target


class _LazyLemmaIndex:
    """Stands in for nltk's lemma -> pos -> offsets map: the index files are sorted, so a
    lemma is found by binary search over their lines on first use instead of parsing all
    155,000 lines up front. Parsing follows nltk's _load_lemma_pos_offset_map."""

    def __init__(self, reader):
        self._reader = reader
        self._lines = {}
        for pos, suffix in reader._FILEMAP.items():
            with reader.open(f"index.{suffix}") as fp:
                self._lines[pos] = [line for line in fp.read().split("\n") if line and not line.startswith(" ")]
        # Bounded: any string can be looked up, and a long-running server sees unlimited words.
        self._lookup = word_cache(self._parse_entry)

    def _parse_entry(self, lemma: str) -> dict:
        entry = {}
        probe = lemma + " "
        for pos, lines in self._lines.items():
            k = bisect_left(lines, probe)
            if k < len(lines) and lines[k].startswith(probe):
                fields = lines[k].split()
                n_synsets = int(fields[2])
                n_pointers = int(fields[3])
                start = 4 + n_pointers + 2
                offsets = [int(x) for x in fields[start:start + n_synsets]]
                entry[pos] = offsets
                if pos == "a":
                    sats = self._reader.satellite_offsets
                    entry["s"] = [o for o in offsets if o in sats]
        return entry

    def __contains__(self, lemma) -> bool:
        return bool(self._lookup(lemma))

    def __getitem__(self, lemma) -> dict:
        return self._lookup(lemma)

    def get(self, lemma, default=None):
        entry = self._lookup(lemma)
        return entry if entry else default

    def __iter__(self):  # only for nltk's all_lemma_names(); rarely used
        names = set()
        for lines in self._lines.values():
            names.update(line.split(" ", 1)[0] for line in lines)
        return iter(sorted(names))


@lru_cache(maxsize=1)
def _reader_class():
    """nltk's reader made fast to open and safe to share between threads (class built on first
    use so that importing this module does not import nltk)."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class FastWordNetReader(WordNetCorpusReader):
        """nltk's reader with three start-up costs removed (same answers, tested against nltk):
        map_wn (3.0 -> 3.0 is the identity), the eager parse of the index files, and a slow
        satellite scan.

        Thread safety: nltk keeps one open handle per data file and reads a synset with
        seek() then readline(); two threads interleaving those read each other's lines
        (AttributeError/WordNetError, or silently the wrong synset). Every use of a shared
        handle runs under one lock per reader; synsets already read come from nltk's cache
        without the lock.

        """

        def __init__(self, root):
            self._file_lock = threading.RLock()
            super().__init__(root, None)
            self._synset_names = word_cache(self._read_synset_name)
            _open_readers.add(self)

        def _forget_files_after_fork(self):
            """In a forked child the open handles share their file offsets with the parent's:
            drop them (each process reopens its own on first use) and the lock (another
            thread may have held it at the fork)."""
            self._file_lock = threading.RLock()
            self._data_file_map = {}
            self._key_count_file = None
            self._key_synset_file = None

        def map_wn(self, version="wordnet"):
            return None

        def _load_lemma_pos_offset_map(self):
            self._lemma_pos_offset_map = _LazyLemmaIndex(self)

        def _scan_satellites(self):
            # One read and a split: nltk's stream reader, line by line, took 0.20 s of every
            # start (0.05 s this way).
            satellites = set()
            with self.open("data.adj") as fp:
                text = fp.read()
            for line in text.split("\n"):
                if not line or line.startswith(" "):
                    continue
                fields = line.split(" ", 3)
                if len(fields) > 2 and fields[2] == "s":
                    satellites.add(int(fields[0]))
            self.satellite_offsets = satellites

        def synset_from_pos_and_offset(self, pos, offset):
            cached = self._synset_offset_cache[pos].get(offset)
            if cached is not None:
                return cached
            with self._file_lock:
                return super().synset_from_pos_and_offset(pos, offset)

        def synset_from_sense_key(self, sense_key):
            with self._file_lock:
                return super().synset_from_sense_key(sense_key)

        def lemma_count(self, lemma):
            with self._file_lock:
                return super().lemma_count(lemma)

        def synset_keys(self, word: str) -> tuple[str, ...]:
            """What synsets(word) returns, as "pos+offset" keys, without building Synsets."""
            word = word.lower()
            index = self._lemma_pos_offset_map
            return tuple(f"{p}{offset:08d}" for p in ("n", "v", "a", "r")
                         for form in self._morphy(word, p) for offset in index[form].get(p, []))

        def synset_name(self, key: str) -> str:
            """nltk's Synset.name() for a "pos+offset" key (bounded cache, per reader)."""
            return self._synset_names(key)

        def _read_synset_name(self, key: str) -> str:
            # nltk builds the whole Synset for its name (gloss, lemmas, pointers, sense keys;
            # for a satellite adjective also its head synset): 0.36 ms a name, and its cache of
            # Synsets never shrinks. The name needs only the first lemma of the data line and
            # that lemma's offsets in the index, as nltk's _synset_from_pos_and_line derives
            # it: "<first lemma, marker removed, lowercased>.<pos>.<sense number>" (tests
            # compare it with nltk on a sample of every data file).
            pos, offset = key[0], int(key[1:])
            cached = self._synset_offset_cache[pos].get(offset)
            if cached is not None:
                return cached.name()
            with self._file_lock:
                data_file = self._data_file(pos)
                data_file.seek(offset)
                line = data_file.readline()
                data_file.seek(0)
            fields = line.split(" ", 5)
            if len(fields) < 6 or fields[0] != f"{offset:08d}":  # nltk's path (its warning, its None)
                return self.synset_from_pos_and_offset(pos, offset).name()
            synset_pos = fields[2]
            lemma = _SYNTACTIC_MARKER.match(fields[4]).group(1).lower()
            sense = self._lemma_pos_offset_map[lemma][synset_pos].index(offset) + 1
            return f"{lemma}.{synset_pos}.{sense:02d}"

    return FastWordNetReader


_open_readers: "weakref.WeakSet" = weakref.WeakSet()

#: A lemma's optional syntactic marker in a data line ("galore(ip)"): nltk's pattern.
_SYNTACTIC_MARKER = re.compile(r"(.*?)(\([^()]*\))?$")


def _after_fork_in_child() -> None:
    for reader in list(_open_readers):
        reader._forget_files_after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def lexnames_text() -> str:
    return "".join(f"{number:02d}\t{entry.split()[0]}\t{entry.split()[1]}\n" for number, entry in enumerate(LEXNAMES))


def _find_reader_root():
    """(root for the reader, where) from nltk's data path, or None."""
    import nltk.data

    for resource in ("corpora/wordnet", "corpora/wordnet.zip/wordnet/"):
        try:
            pointer = nltk.data.find(resource)
        except (LookupError, OSError):
            continue
        where = getattr(pointer, "path", None) or f"{pointer.zipfile.filename}/{pointer.entry}"
        return pointer, str(where)
    return None


def open_wordnet() -> tuple[object, WordNetStatus]:
    """A new reader (not shared with anyone) and its status. Only reads: never copies or
    downloads, so a read-only or empty NLTK_DATA cannot break scoring or fill up silently.
    (Debian's /usr/share/wordnet is not read in place: nltk 3.10 refuses corpus roots outside
    its data path, so setup-wordnet copies it into nltk_data, once, announced.)"""
    import warnings

    found = _find_reader_root()
    if found is None:
        if (DEBIAN_WORDNET_DIR / "data.noun").is_file():
            where = (f"nltk_data has no corpora/wordnet (Debian's copy is in {DEBIAN_WORDNET_DIR}; "
                     f"`{FIX_COMMAND}` copies it, about 35 MB, into {default_target_dir()})")
        else:
            where = (f"nltk_data has no corpora/wordnet and the Debian packages {' '.join(DEBIAN_PACKAGES)} "
                     "are not installed")
        return None, WordNetStatus(False, "", "", f"WordNet 3.0 was not found ({where}): the synonym stage "
                                                  f"is unavailable. Fix: {FIX_COMMAND}")
    root, where = found
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "multilingual functions are not available"
            reader = _reader_class()(root)
        version = reader.get_version()
    except Exception as error:  # a broken copy must not break scoring: report it instead
        return None, WordNetStatus(False, "", where, f"WordNet at {where} could not be loaded ({error}); the "
                                                    f"synonym stage is unavailable. Fix: {FIX_COMMAND}")
    return reader, WordNetStatus(True, version, where, f"WordNet {version} at {where}")


@lru_cache(maxsize=1)
def _load() -> tuple[object, WordNetStatus]:
    return open_wordnet()


def load_wordnet():
    """Return (reader or None, WordNetStatus). Loaded once per process; the reader is safe to
    use from several threads."""
    return _load()


def wordnet_status() -> WordNetStatus:
    return _load()[1]


def _copy_announced(log) -> bool:
    """setup-wordnet's copy of the Debian files into nltk_data, said out loud; a target that
    cannot be written is reported (scoring still reads Debian's copy in place)."""
    target = default_target_dir()
    if not (DEBIAN_WORDNET_DIR / "data.noun").exists():
        return False
    log(f"Copying WordNet (about 35 MB) from {DEBIAN_WORDNET_DIR} to {target} so that nltk finds it too ...")
    try:
        copy_from_debian(target)
    except OSError as error:
        log(f"Could not write {target} ({error.strerror or error}): set NLTK_DATA to a writable folder "
            "(its first entry is the target) and run this again")
        return False
    return True


def install_wordnet(log=print) -> WordNetStatus:
    """Make WordNet 3.0 available: already there, Debian copy, nltk.download, or apt-get."""
    existing = _find_reader_root()
    if existing is not None:
        log(f"WordNet already available at {existing[1]}")
    elif not _copy_announced(log):
        import nltk

        log("Trying nltk.download('wordnet') ...")
        ok = False
        try:
            ok = bool(nltk.download("wordnet", quiet=True, raise_on_error=False))
        except Exception as error:  # offline machines: go on to the Debian route
            log(f"nltk.download failed: {error}")
        if not ok or _find_reader_root() is None:
            if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
                log(f"Installing Debian packages {' '.join(DEBIAN_PACKAGES)} ...")
                env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
                subprocess.run(["apt-get", "update"], check=False, env=env, stdout=subprocess.DEVNULL)
                subprocess.run(["apt-get", "install", "-y", *DEBIAN_PACKAGES], check=False, env=env,
                               stdout=subprocess.DEVNULL)
                _copy_announced(log)
            else:
                log("No apt-get as root here: install WordNet with nltk.download('wordnet') online, "
                    f"or the Debian packages {' '.join(DEBIAN_PACKAGES)}.")
    _load.cache_clear()
    status = wordnet_status()
    log(status.message)
    return status
