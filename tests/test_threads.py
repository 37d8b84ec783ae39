"""The scorer is safe to call from many threads at once (issue 12 item 2).

nltk's WordNet reader reads a synset with seek() then readline() on one shared file handle;
threads that interleave those read each other's lines. Before the fix, 8 threads scoring these
pairs on a fresh (uncached) reader failed on most pairs in nltk mode (AttributeError,
WordNetError, IndexError) and could silently name the wrong synset in paper mode."""
import threading

import pytest

from meteor_core import MeteorConfig, Scorer
from meteor_core import wordnet as wn
from meteor_core.report import result_to_dict

THREADS = 8


def _pairs(reader, count=320):
    """Pairs of real WordNet words, the reference made of synonyms of the candidate's words,
    so the synonym stage reads many different synsets (each one uncached on a fresh reader)."""
    with reader.open("index.noun") as f:
        lemmas = [line.split(" ", 1)[0] for line in f if not line.startswith(" ")]
    lemmas = [w for w in lemmas[1000::97] if "_" not in w and w.isalpha()]
    pairs = []
    for k in range(count):
        words = [lemmas[(k * 5 + j) % len(lemmas)] for j in range(5)]
        synonyms = []
        for word in words:
            names = [l.name() for s in reader.synsets(word) for l in s.lemmas()
                     if l.name() != word and "_" not in l.name()]
            synonyms.append(names[0] if names else word)
        pairs.append((" ".join(words), " ".join(reversed(synonyms))))
    return pairs


def _fresh_scorer(monkeypatch, mode):
    reader, status = wn.open_wordnet()
    assert status.available, status.message
    monkeypatch.setattr(wn, "load_wordnet", lambda: (reader, status))
    return Scorer(MeteorConfig(mode=mode))


@pytest.mark.parametrize("mode", ["nltk", "paper"])
def test_eight_threads_equal_single_threaded(wordnet_reader, monkeypatch, mode):
    pairs = _pairs(wordnet_reader)
    single = _fresh_scorer(monkeypatch, mode)
    expected = [result_to_dict(single.score(c, [r])) for c, r in pairs]
    assert sum(d["matches_by_stage"].get("synonym", 0) for d in expected) > 100  # the stage really runs

    shared = _fresh_scorer(monkeypatch, mode)  # a new reader: nothing cached
    results: list = [None] * len(pairs)
    errors: list = []
    start = threading.Barrier(THREADS)

    def work(offset):
        start.wait()
        for k in range(offset, len(pairs), THREADS):
            candidate, reference = pairs[k]
            try:
                results[k] = result_to_dict(shared.score(candidate, [reference]))
            except Exception as error:  # collected: the assertion below shows them
                errors.append(f"pair {k}: {type(error).__name__}: {error}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert results == expected


def test_the_first_scores_of_a_fresh_process_on_two_threads_at_once_work():
    """A helper: in a fresh process, one thread scoring while another computed BLEU imported
    nltk from both at once; nltk's circular imports then gave both "cannot import name 'load'
    from partially initialized module 'nltk.data'", and every later call in the process failed
    (5 of 5 runs). The app scores in its sessions' threads. nltk is imported with meteor_core."""
    import subprocess
    import sys
    from pathlib import Path

    script = """
import threading
import meteor_core
from meteor_core import MeteorConfig, bleu
from meteor_core.scorer import scorer_for
start, errors = threading.Barrier(2), []
def run(job):
    start.wait()
    try:
        job()
    except Exception as error:
        errors.append(repr(error))
jobs = (lambda: scorer_for(MeteorConfig()).score("the cats sat", ["a cat sat"]),
        lambda: bleu.sentence_bleu(["a", "b"], [["a", "b"]]))
threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
for t in threads: t.start()
for t in threads: t.join()
print(errors or round(scorer_for(MeteorConfig()).score("the cats sat", ["a cat sat"]).score, 4))
"""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                              cwd=Path(__file__).resolve().parents[1])
        assert done.returncode == 0, done.stderr[-2000:]
        # m = 2 (cats ~ cat by stem, sat), P = R = 2/3, one chunk: 2/3 (1 - 0.5 (1/2)^3) = 0.625
        assert done.stdout.strip() == "0.625", done.stdout
