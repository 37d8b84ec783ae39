"""Find and load WordNet 3.0 for the synonym stage, offline.

Lookup order at run time (no network, no package manager):
  1. wherever nltk.data finds `corpora/wordnet` (nltk_data folders, NLTK_DATA);
  2. Debian's copy in /usr/share/wordnet (packages wordnet-base + wordnet-sense-index), copied
     into ~/nltk_data/corpora/wordnet with the `lexnames` file Debian lacks (spec section 7).
If both fail, `load_wordnet()` returns a status saying so and the command that fixes it.
`install_wordnet()` (CLI: `python -m meteor_core setup-wordnet`) additionally tries
nltk.download and, as root on Debian/Ubuntu, apt-get.

Loading skips nltk's map_wn step: it maps WordNet 3.0 sense keys onto the loaded WordNet, which
is the same 3.0 data, by reading index.sense twice (most of nltk's ~2 s load time).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

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


def _find_corpus_dir() -> Optional[Path]:
    import nltk.data

    try:
        found = nltk.data.find("corpora/wordnet")
    except LookupError:
        try:
            found = nltk.data.find("corpora/wordnet.zip")
        except LookupError:
            return None
    return Path(str(found))


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
    lines = []
    for number, entry in enumerate(LEXNAMES):
        name, category = entry.split()
        lines.append(f"{number:02d}\t{name}\t{category}\n")
    (target / "lexnames").write_text("".join(lines), encoding="ascii")
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
        self._cache: dict = {}

    def _lookup(self, lemma: str) -> dict:
        entry = self._cache.get(lemma)
        if entry is None:
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
            self._cache[lemma] = entry
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
def _load() -> tuple[object, WordNetStatus]:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class FastWordNetReader(WordNetCorpusReader):
        """nltk's reader with three start-up costs removed (same answers, tested against nltk):
        map_wn (3.0 -> 3.0 is the identity), the eager parse of the index files, and a slow
        satellite scan."""

        def map_wn(self, version="wordnet"):
            return None

        def _load_lemma_pos_offset_map(self):
            self._lemma_pos_offset_map = _LazyLemmaIndex(self)

        def _scan_satellites(self):
            satellites = set()
            with self.open("data.adj") as fp:
                for line in fp:
                    if line.startswith(" "):
                        continue
                    fields = line.split(" ", 3)
                    if len(fields) > 2 and fields[2] == "s":
                        satellites.add(int(fields[0]))
            self.satellite_offsets = satellites

        def synset_keys(self, word: str) -> tuple[str, ...]:
            """What synsets(word) returns, as "pos+offset" keys, without building Synsets."""
            word = word.lower()
            index = self._lemma_pos_offset_map
            return tuple(f"{p}{offset:08d}" for p in ("n", "v", "a", "r")
                         for form in self._morphy(word, p) for offset in index[form].get(p, []))

        def synset_name(self, key: str) -> str:
            return self.synset_from_pos_and_offset(key[0], int(key[1:])).name()

    corpus_dir = _find_corpus_dir()
    copied = False
    if corpus_dir is None:
        corpus_dir = copy_from_debian()
        copied = corpus_dir is not None
    if corpus_dir is None:
        return None, WordNetStatus(
            False, "", "",
            "WordNet 3.0 was not found (nltk_data has no corpora/wordnet and the Debian "
            f"packages {' '.join(DEBIAN_PACKAGES)} are not installed): the synonym stage is "
            f"unavailable. Fix: {FIX_COMMAND}",
        )
    try:
        if str(corpus_dir).endswith(".zip"):
            from nltk.corpus import wordnet as lazy_wordnet

            reader = lazy_wordnet
            reader.ensure_loaded()
        else:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "multilingual functions are not available"
                reader = FastWordNetReader(str(corpus_dir), None)
        version = reader.get_version()
    except Exception as error:  # a broken copy must not break scoring: report it instead
        return None, WordNetStatus(
            False, "", str(corpus_dir),
            f"WordNet at {corpus_dir} could not be loaded ({error}); the synonym stage is "
            f"unavailable. Fix: {FIX_COMMAND}",
        )
    note = " (copied from Debian's packages)" if copied else ""
    return reader, WordNetStatus(True, version, str(corpus_dir), f"WordNet {version} at {corpus_dir}{note}")


def load_wordnet():
    """Return (reader or None, WordNetStatus). Loaded once per process."""
    return _load()


def wordnet_status() -> WordNetStatus:
    return _load()[1]


def install_wordnet(log=print) -> WordNetStatus:
    """Make WordNet 3.0 available: already there, Debian copy, nltk.download, or apt-get."""
    existing = _find_corpus_dir()
    if existing is not None:
        log(f"WordNet already available at {existing}")
    elif copy_from_debian() is not None:
        log(f"Copied WordNet from {DEBIAN_WORDNET_DIR} to {default_target_dir()}")
    else:
        import nltk

        log("Trying nltk.download('wordnet') ...")
        ok = False
        try:
            ok = bool(nltk.download("wordnet", quiet=True, raise_on_error=False))
        except Exception as error:  # offline machines: go on to the Debian route
            log(f"nltk.download failed: {error}")
        if not ok or _find_corpus_dir() is None:
            if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
                log(f"Installing Debian packages {' '.join(DEBIAN_PACKAGES)} ...")
                env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
                subprocess.run(["apt-get", "update"], check=False, env=env, stdout=subprocess.DEVNULL)
                subprocess.run(["apt-get", "install", "-y", *DEBIAN_PACKAGES], check=False, env=env,
                               stdout=subprocess.DEVNULL)
                if copy_from_debian() is not None:
                    log(f"Copied WordNet from {DEBIAN_WORDNET_DIR} to {default_target_dir()}")
            else:
                log("No apt-get as root here: install WordNet with nltk.download('wordnet') online, "
                    f"or the Debian packages {' '.join(DEBIAN_PACKAGES)}.")
    _load.cache_clear()
    status = wordnet_status()
    log(status.message)
    return status
