import errno
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_core.cli import main

ROOT = Path(__file__).resolve().parents[1]

FIELDS = {"score", "precision", "recall", "fmean", "penalty", "fragmentation", "chunks", "matches",
          "crossings", "optimal", "candidate_tokens", "reference_tokens", "best_reference", "references",
          "alignment", "chunk_spans", "bleu", "signature"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch, data: bytes):
    """stdin as the CLI gets it: a text stream over bytes (batch reads the bytes)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_score_json_schema(capsys):
    code, out, _ = run(capsys, "score", "--candidate", "the cat sat on a mat", "--reference", "the cat sat on the mat",
                       "--reference", "a cat is on the mat", "--stages", "exact,stem", "--json")
    assert code == 0
    data = json.loads(out)
    assert FIELDS <= set(data)
    assert len(data["references"]) == 2 and FIELDS - {"best_reference", "references", "bleu", "signature"} <= set(data["references"][0])
    # Values, computed by hand (issue 13). Reference 1: 5 of 6 words match in 2 chunks
    # ("the cat sat on" + "mat"): P = R = Fmean = 5/6, penalty 0.5 * (2/5)^3 = 0.032.
    assert data["best_reference"] == 0
    assert data["matches"] == 5 and data["chunks"] == 2 and data["crossings"] == 0 and data["optimal"] is True
    assert data["precision"] == data["recall"] == pytest.approx(5 / 6) and data["fmean"] == pytest.approx(5 / 6)
    assert data["fragmentation"] == pytest.approx(2 / 5) and data["penalty"] == pytest.approx(0.032)
    assert data["score"] == pytest.approx(5 / 6 * (1 - 0.032))
    assert data["candidate_tokens"] == ["the", "cat", "sat", "on", "a", "mat"]
    assert data["reference_tokens"] == ["the", "cat", "sat", "on", "the", "mat"]
    assert data["alignment"] == [{"candidate": i, "reference": i, "stage": "exact", "evidence": w}
                                 for i, w in [(0, "the"), (1, "cat"), (2, "sat"), (3, "on"), (5, "mat")]]
    assert data["chunk_spans"] == [{"candidate": [0, 4], "reference": [0, 4]},
                                   {"candidate": [5, 6], "reference": [5, 6]}]
    # Reference 2 "a cat is on the mat": the, cat, on, a, mat match as (0,4) (1,1) (3,3) (4,0) (5,5):
    # 5 chunks, 5 crossing pairs, penalty 0.5 * (5/5)^3: score 5/6 * 0.5 = 5/12.
    second = data["references"][1]
    assert second["matches"] == 5 and second["chunks"] == 5 and second["crossings"] == 5
    assert second["score"] == pytest.approx(5 / 12)
    # BLEU against both references: 1-grams 6/6, 2-grams 3/5, 3-grams 2/4, 4-grams 1/3, no
    # brevity penalty (both references have 6 words): (1 * 3/5 * 1/2 * 1/3) ** (1/4).
    assert data["bleu"]["precisions"] == pytest.approx([1, 3 / 5, 1 / 2, 1 / 3])
    assert data["bleu"]["brevity_penalty"] == 1.0
    assert data["bleu"]["score"] == pytest.approx(0.1 ** 0.25)
    assert data["signature"].startswith("meteor-lens:") and "stages:exact+stem(porter)" in data["signature"]


def test_score_text_explains_formula(capsys):
    code, out, _ = run(capsys, "score", "--candidate", "o cupom vale só até domingo",
                       "--reference", "o cupom vale para toda a loja até domingo", "--stages", "exact")
    assert code == 0
    assert "METEOR 0.556322" in out and "P = m/|cand| = 5/6" in out and "0.5*(2/5)^3" in out
    assert "BLEU is 0" in out


def test_score_text_says_what_the_alignment_is_per_mode(capsys):
    """nltk mode printed "optimal: proven" for nltk's greedy alignment (a teacher): nothing was
    searched. Paper mode says whether its search proved the optimum."""
    pair = ("--candidate", "on the mat sat the cat", "--reference", "the cat sat on the mat")
    _, out, _ = run(capsys, "score", *pair, "--mode", "nltk")
    assert "crossings: 8; nltk's greedy alignment, as nltk makes it (no search for an optimum)" in out
    assert "proven" not in out
    _, out, _ = run(capsys, "score", *pair)
    assert "crossings: 8; optimal: proven" in out


def test_score_text_counts_tokens_in_words(capsys):
    """"candidate (1 tokens)" (a teacher): one token is one token."""
    code, out, _ = run(capsys, "score", "--candidate", "hello", "--reference", "hello there")
    assert code == 0 and "candidate (1 token): hello\nreference (2 tokens): hello there\n" in out


def test_batch_keeps_order_and_reports_bad_lines_in_place(capsys, monkeypatch):
    lines = [
        json.dumps({"candidate": "the cat", "references": ["the cat"]}),
        "not json",
        json.dumps({"candidate": "x", "references": ["   "]}),
        json.dumps({"candidate": "a dog", "references": {"text": "a dog"}}),
        "",
        json.dumps({"candidate": "a dog", "references": ["the dog", "a dog"]}),
    ]
    feed(monkeypatch, ("\n".join(lines) + "\n").encode())
    code, out, _ = run(capsys, "batch", "--stages", "exact")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 6
    assert rows[0]["score"] == pytest.approx(1 - 0.5 / 8)
    assert "line 2" in rows[1]["error"] and "JSON" in rows[1]["error"]
    assert "line 3" in rows[2]["error"] and "empty" in rows[2]["error"]
    assert "list of strings" in rows[3]["error"]
    assert "line 5" in rows[4]["error"]
    assert rows[5]["best_reference"] == 1


def test_batch_refuses_a_key_twice_and_says_what_is_wrong_with_the_candidate(capsys, monkeypatch):
    """A tester: a line with "candidate" twice was scored on its last value (0.0 for "x"), and a
    candidate that was a list, a number, null or missing, or a line that was not an object, got
    one generic message while a bad "references" got a precise one."""
    lines = ['{"candidate": "a b", "references": ["a b"], "candidate": "x"}',
             '{"candidate": ["a", "b"], "references": ["a b"]}',
             '{"candidate": 5, "references": ["a"]}',
             '{"candidate": null, "references": ["a"]}',
             '{"references": ["a"]}',
             '[1, 2]',
             '{"candidate": "a b", "references": ["a b"]}']
    feed(monkeypatch, ("\n".join(lines) + "\n").encode())
    code, out, _ = run(capsys, "batch", "--stages", "exact", "--workers", "1", "--no-bleu")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row.get("error") for row in rows] == [
        'line 1: the key "candidate" comes twice in one object: which one is meant is not clear; give it once',
        'line 2: "candidate" must be a string (tokens: joined by spaces), not a list holding strings',
        'line 3: "candidate" must be a string (tokens: joined by spaces), not a number',
        'line 4: "candidate" must be a string (tokens: joined by spaces), not null',
        'line 5: "candidate" is missing: give the output to score as a string',
        'line 6: expected an object {"candidate": str, "references": [str, ...] or str}, not a list holding a number',
        None]
    assert rows[6]["score"] == pytest.approx(1 - 0.5 / 8)  # 2 matches, 1 chunk: penalty 0.5 * (1/2)^3


def test_batch_names_a_bad_byte_from_1_and_cr_only_line_ends(capsys, monkeypatch):
    """A tester: batch counted a line's bytes from 0 where corpus counts from 1, and a file
    with CR-only line ends gave one bare "Extra data" error."""
    feed(monkeypatch, b'{"candidate": "a\xff", "references": ["a"]}\n'
                      b'{"candidate": "a", "references": ["a"]}\r{"candidate": "b", "references": ["b"]}\r')
    code, out, err = run(capsys, "batch", "--no-bleu")
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    # no line scored: exit 2, as corpus (before: 0, and a script took it for success: a tester)
    assert code == 2 and err == '2 of 2 line(s) not scored (lines 1, 2; "error" in their output lines)\n'
    assert errors == [
        "line 1: not UTF-8 (invalid start byte at byte 17 of the line)",  # '{"candidate": "a' is 16 bytes
        "line 2: not valid JSON (Extra data at column 41); the line holds CR characters: JSON Lines end each line "
        "with LF (\\n), convert the file's line ends"]


def test_batch_says_how_many_lines_are_not_proven_optimal(capsys, monkeypatch):
    """A tester: 52 of 300 paragraph lines came back "optimal": false with nothing on stderr,
    where corpus says it. Counted from each line's own flag (not its references', not an
    error's text); the line numbers listed."""
    hard = json.dumps({"candidate": "a b b b b a a c a a c b c b", "references": ["b a b c b c c a c b a a c b"]})
    lines = [json.dumps({"candidate": "the cat", "references": ["the cat"]}), hard,
             json.dumps({"candidate": '"optimal": false', "references": [""]}), hard]
    feed(monkeypatch, ("\n".join(lines) + "\n").encode())
    code, out, err = run(capsys, "batch", "--stages", "exact", "--node-budget", "1", "--no-bleu")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [row.get("optimal") for row in rows] == [True, False, None, False]
    assert err == ("note: 2 line(s) not proven optimal: the alignment search hit its node budget (1), the best "
                   "alignment found is used and a better one could change the score (lines 2, 4; optimal false in "
                   "their output); a larger --node-budget may prove them\n"
                   '1 of 4 line(s) not scored (line 3; "error" in their output lines)\n')
    feed(monkeypatch, b"")  # empty input: nothing scored, exit 2 as corpus on an empty file (a tester: 0)
    assert run(capsys, "batch", "--no-bleu") == (2, "", "no line was scored: the input is empty\n")
    feed(monkeypatch, (lines[0] + "\n").encode())
    assert run(capsys, "batch", "--no-bleu")[2] == ""  # nothing to say


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_no_bleu_is_the_full_output_without_the_two_bleu_keys(capsys, monkeypatch, workers):
    lines = [json.dumps({"candidate": "the cat sat on a mat", "references": ["the cat sat on the mat", "a cat"]}),
             "not json",
             json.dumps({"candidate": "running dogs", "references": ["the dog runs"]})]
    data = ("\n".join(lines) + "\n").encode()
    feed(monkeypatch, data)
    _, full, _ = run(capsys, "batch", "--workers", workers)
    feed(monkeypatch, data)
    code, lean, _ = run(capsys, "batch", "--workers", workers, "--no-bleu")
    full_rows = [json.loads(line) for line in full.splitlines()]
    lean_rows = [json.loads(line) for line in lean.splitlines()]
    assert code == 0 and len(lean_rows) == 3
    assert "bleu" in full_rows[0] and "sacrebleu" in full_rows[0]
    assert lean_rows == [{k: v for k, v in row.items() if k not in ("bleu", "sacrebleu")} for row in full_rows]
    assert lean_rows[0]["score"] == full_rows[0]["score"] and "error" in lean_rows[1]


def test_corpus_plain_and_mismatch(tmp_path, capsys):
    cands = tmp_path / "cand.txt"
    refs = tmp_path / "ref.txt"
    cands.write_text("the cat sat\na dog\n", encoding="utf-8")
    refs.write_text("the cat sat\nthe dog\n", encoding="utf-8")
    code, out, err = run(capsys, "corpus", "--candidates", str(cands), "--references", str(refs), "--stages", "exact", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["segments"]) == 2
    assert data["corpus"]["matches"] == 4 and data["corpus"]["chunks"] == 2
    counts = "2 data lines, 2 scored, 0 not scored; segment id: line number"
    assert err.splitlines()[-1].startswith(counts)  # JSON on stdout: the counts go to stderr
    code, out, err = run(capsys, "corpus", "--candidates", str(cands), "--references", str(refs), "--stages", "exact")
    assert code == 0 and counts in out and counts not in err  # text output: once, on stdout, same words
    refs.write_text("only one line\n", encoding="utf-8")
    code, _, err = run(capsys, "corpus", "--candidates", str(cands), "--references", str(refs))
    assert code == 2 and "cand.txt has 2 lines" in err and "ref.txt has 1" in err


def test_corpus_tsv_columns(tmp_path, capsys):
    data = tmp_path / "data.tsv"
    data.write_text("id\tcandidate\treference\treference_2\ns1\tthe cat\tthe cat\ta cat\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--id-column", "id", "--tsv", "--stages", "exact")
    assert code == 0
    header, row = out.strip().split("\n")
    assert header.startswith("id\tmeteor") and row.startswith("s1\t0.9375\t")


def test_corpus_tsv_writes_the_corpus_numbers_to_stderr(tmp_path, capsys):
    """--tsv wrote the rows and no corpus METEOR anywhere (a tester). Two segments, exact stage:
    matches 3 + 1, candidate 3 + 2, reference 4 + 2 tokens, chunks 1 + 1: P = 4/5, R = 4/6,
    Fmean = 10PR / (R + 9P) = (16/3) / (4/6 + 36/5) = 80/118, penalty 0.5 (2/4)^3 = 1/16."""
    data = tmp_path / "e.tsv"
    data.write_text("id\tcandidate\treference\n1\tthe cat sat\tthe cat sat on\n2\ta dog\tthe dog\n", encoding="utf-8")
    code, out, err = run(capsys, "corpus", "--candidates", str(data), "--tsv", "--stages", "exact")
    assert code == 0 and len(out.strip().split("\n")) == 3
    assert f"corpus METEOR (summed statistics): {80 / 118 * (1 - 1 / 16):.6f}" in err.splitlines()
    _, text, _ = run(capsys, "corpus", "--candidates", str(data), "--stages", "exact")
    summary = text.splitlines()[text.splitlines().index("") + 2:]  # after the table and the counts line
    assert summary and err.splitlines()[-len(summary):] == summary  # the text report's lines, in order


def test_corpus_tsv_numbers_in_full(tmp_path, capsys):
    """--tsv writes the floats --json writes (it rounded them to 6 places)."""
    data = tmp_path / "data.tsv"
    data.write_text("id\tcandidate\treference\ns2\tthe cat sat\tthe cat sat on a mat\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--tsv", "--stages", "exact")
    header, row = out.strip().split("\n")
    fields = dict(zip(header.split("\t"), row.split("\t")))
    # P = 3/3, R = 3/6, Fmean = 10PR / (R + 9P) = 10/19, one chunk of 3: penalty 0.5 (1/3)^3 = 1/54
    assert float(fields["meteor"]) == (10 / 19) * (1 - 1 / 54)
    assert float(fields["penalty"]) == 0.5 * (1 / 3) ** 3
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--json", "--stages", "exact")
    segment = json.loads(out)["segments"][0]
    for name in ("meteor", "bleu", "precision", "recall", "penalty"):
        assert fields[name] == repr(segment[name])


def test_bad_parameters_are_clear(capsys):
    code, _, err = run(capsys, "score", "--candidate", "a", "--reference", "a", "--alpha", "1.5")
    assert code == 2 and "alpha must be in [0, 1]" in err


def test_corpus_human_column_and_problems(tmp_path, capsys):
    data = tmp_path / "h.tsv"
    data.write_text("id\tcandidate\treference\thuman\n"
                    "a\tthe cat sat\tthe cat sat\t90\n"
                    "b\ta dog\tthe dog\t30\n"
                    "c\tthe mat\tthe mat on the floor\toops\n"
                    "d\tone two three\tone two four\t50\n", encoding="utf-8")
    code, out, err = run(capsys, "corpus", "--candidates", str(data), "--id-column", "id", "--human-column", "human",
                         "--stages", "exact", "--json")
    result = json.loads(out)
    assert code == 0 and [s["id"] for s in result["segments"]] == ["a", "b", "c", "d"]  # c: scored, not correlated
    assert "line 4: human score 'oops' is not a number" in err
    names = [c["metric"] for c in result["corpus"]["correlations"]]
    assert names == ["METEOR", "BLEU"] and result["corpus"]["correlations"][0]["n"] == 3


def test_corpus_text_output_says_when_a_correlation_is_undefined(tmp_path, capsys):
    """Constant human scores: no correlation is defined. The JSON says null; the text output
    said "Pearson None" (a tester's find) and now says why instead."""
    data = tmp_path / "flat.tsv"
    data.write_text("candidate\treference\thuman\nthe cat sat\tthe cat sat\t50\na dog\tthe dog\t50\n"
                    "one two\tone three\t50\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--human-column", "human", "--stages", "exact")
    lines = [line for line in out.splitlines() if "vs human" in line]
    assert code == 0 and len(lines) == 2 and "None" not in out
    assert lines[0] == ("METEOR vs human (3 segments): Pearson, Spearman and Kendall tau-b undefined: every "
                        "human score is the same (50)")
    # constant METEOR (all 1.0, human scores differ): said so; Pearson was 0.0 from rounding (a tester)
    data.write_text("candidate\treference\thuman\na b\ta b\t90\nc d\tc d\t30\ne f\te f\t50\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--human-column", "human", "--stages", "exact")
    assert [line for line in out.splitlines() if "vs human" in line][0] == (
        "METEOR vs human (3 segments): Pearson, Spearman and Kendall tau-b undefined: every METEOR score is the "
        "same (0.9375)")
    data.write_text("candidate\treference\thuman\nthe cat sat\tthe cat sat\t90\na dog\tthe dog\t30\n"
                    "one two\tone three\t50\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--human-column", "human", "--stages", "exact",
                       "--json")
    pearson = json.loads(out)["corpus"]["correlations"][0]["pearson"]
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--human-column", "human", "--stages", "exact")
    assert f"Pearson {pearson:.6f}," in out


# -- batch: whatever the bytes, one output line per input line (issue 12 items 6 and 10) --------
def _hostile_lines() -> list[bytes]:
    ok = json.dumps({"candidate": "the cat", "references": ["the cat"]}).encode()
    return [
        ok,
        b'{"candidate": "caf\xe9", "references": ["cafe"]}',  # Latin-1, not UTF-8
        b'{"candidate": "a", "references": ["a"], "n": ' + b"1" * 5000 + b"}",  # over 4,300 digits
        b"[" * 100_000 + b"]" * 100_000,  # nested 100,000 deep
        b'{"candidate": "\\ud800 cat", "references": ["cat"]}',  # a lone surrogate escape
        b"\xef\xbb\xbf" + ok,  # BOM
        ok.replace(b"the cat", b"the\xe2\x80\xa8cat"),  # raw U+2028 inside a string: still one line
        ok + b"\r",  # CRLF
        b"\xff\xfe\x00",
        ok,  # last line without a newline
    ]


def _check_hostile_output(out: bytes, count: int) -> list[dict]:
    text = out.decode("utf-8")  # strict: output is always valid UTF-8
    rows = [json.loads(line) for line in text.split("\n")[:-1]]
    assert text.endswith("\n") and len(rows) == count
    assert rows[0]["score"] == pytest.approx(1 - 0.5 / 8)
    assert rows[1]["error"].startswith("line 2: not UTF-8")
    assert rows[2]["error"].startswith("line 3: not usable JSON (Exceeds the limit (4300 digits)")
    assert rows[3]["error"] == "line 4: not usable JSON (nested too deeply)"
    assert rows[4]["error"].startswith("line 5: candidate is not valid Unicode text: lone surrogate U+D800")
    assert rows[5]["score"] == rows[0]["score"] and rows[6]["score"] == rows[0]["score"]
    assert rows[7]["score"] == rows[0]["score"]
    assert rows[8]["error"].startswith("line 9: not UTF-8")
    assert rows[9]["score"] == rows[0]["score"]
    return rows


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_hostile_bytes_in_process(capsys, monkeypatch, workers):
    lines = _hostile_lines()
    feed(monkeypatch, b"\n".join(lines))
    code, out, err = run(capsys, "batch", "--stages", "exact", "--workers", workers)
    assert code == 0 and err == HOSTILE_NOT_SCORED  # some lines scored: exit 0, the others said
    _check_hostile_output(out.encode("utf-8"), len(lines))


HOSTILE_NOT_SCORED = '5 of 10 line(s) not scored (lines 2, 3, 4, 5, 9; "error" in their output lines)\n'


@pytest.mark.parametrize("env", [{"LC_ALL": "C.UTF-8"}, {"LC_ALL": "C", "PYTHONIOENCODING": "ascii:strict"}])
def test_batch_hostile_bytes_under_any_locale(env):
    """Before: under a strict locale a non-UTF-8 line lost the valid lines read with it; under
    C.UTF-8 it was scored silently and output was invalid UTF-8."""
    lines = _hostile_lines()
    proc = subprocess.run([sys.executable, "-m", "meteor_core", "batch", "--stages", "exact", "--workers", "1"],
                          input=b"\n".join(lines), capture_output=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stderr == HOSTILE_NOT_SCORED.encode()
    _check_hostile_output(proc.stdout, len(lines))


def test_score_json_is_utf8_and_rejects_undecodable_argv():
    """Bytes that are not UTF-8 in argv arrive as lone surrogates: a clear error, exit 2."""
    proc = subprocess.run([sys.executable, "-m", "meteor_core", "score", "--candidate", b"caf\xe9",
                           "--reference", "café", "--stages", "exact", "--json"],
                          capture_output=True, cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"}, timeout=120)
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"candidate is not valid Unicode text: lone surrogate U+DCE9 at character 3" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "meteor_core", "score", "--candidate", "café — ok",
                           "--reference", "cafe\u0301 — ok", "--stages", "exact", "--json"],
                          capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "ascii"}, timeout=120)
    assert proc.returncode == 0
    data = json.loads(proc.stdout.decode("utf-8"))
    assert data["candidate_tokens"] == ["café", "—", "ok"] and data["matches"] == 3


def test_batch_line_over_the_limit_is_one_error(capsys, monkeypatch):
    from meteor_core import cli

    monkeypatch.setattr(cli, "MAX_LINE_BYTES", 1000)
    ok = json.dumps({"candidate": "a", "references": ["a"]}).encode()
    feed(monkeypatch, ok + b"\n" + b'{"candidate": "' + b"x" * 5000 + b'"}\n' + ok + b"\n")
    code, out, _ = run(capsys, "batch", "--stages", "exact", "--workers", "1")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3 and rows[1] == {"error": "line 2: 5,017 bytes is over the 1,000-byte line limit"}
    assert rows[2]["score"] == rows[0]["score"]


def test_huge_synonym_field_is_a_clear_error(tmp_path, capsys):
    table = tmp_path / "big.csv"
    table.write_text("car," + "x" * 200_000 + "\n", encoding="utf-8")
    code, _, err = run(capsys, "score", "--candidate", "a car", "--reference", "a car", "--synonyms", str(table))
    assert code == 2 and f"synonym table {table}: field larger than field limit" in err


def test_output_into_a_closed_pipe_is_quiet(tmp_path):
    """`... | head -1` used to print a BrokenPipeError traceback."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join(json.dumps({"candidate": f"w{k} cat", "references": ["a cat"]}).encode()
                                  for k in range(3000)))  # about 3 MB of output: more than a pipe holds
    with open(source, "rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "meteor_core", "batch", "--stages", "exact", "--workers", "1"],
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert json.loads(first)["matches"] == 1 and b"Traceback" not in err and err == b""


def test_a_corpus_report_cut_by_a_closed_pipe_is_not_a_success(tmp_path):
    """A tester's find: `corpus --tsv ... | head -1` on 3,000 segments wrote 64 KB of the
    200 KB report and exited 0 (the buffered writer returned a partial count when the reader
    went away, and the text layer dropped the rest). The rest is now written until the pipe
    refuses it: exit 141, as batch."""
    count = 3000
    (tmp_path / "c.txt").write_text("the cat sat on a mat\n" * count, encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on the mat\n" * count, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "meteor_core", "corpus", "--tsv", "--workers", "1",
                             "--candidates", str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert first.startswith(b"id\tmeteor\t") and b"Traceback" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["corpus", "--workers", "1"], ["score"], ["batch", "--workers", "1"]])
def test_a_full_disk_gives_one_error_line(tmp_path, argv):
    """A tester's find: output to a full disk (/dev/full) ended in an OSError traceback."""
    (tmp_path / "c.txt").write_text("the cat sat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat down\n", encoding="utf-8")
    inputs = {"corpus": ["--candidates", str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt")],
              "score": ["--candidate", "the cat sat", "--reference", "the cat sat down"], "batch": []}[argv[0]]
    line = json.dumps({"candidate": "the cat sat", "references": ["the cat sat down"]}) + "\n"
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "meteor_core", *argv, *inputs], input=line.encode(),
                              stdout=full, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines()[-1] == "error: the output could not be written: No space left on device"
    assert b"Traceback" not in proc.stderr


def _proc_version_fails_with_eio() -> bool:
    try:
        with open("/proc/version", "wb", buffering=0) as f:
            f.write(b"x")
    except OSError as error:
        return error.errno == errno.EIO
    return False


@pytest.mark.skipif(not _proc_version_fails_with_eio(), reason="needs /proc/version to fail writes with EIO")
@pytest.mark.parametrize("argv", [["batch", "--workers", "1"], ["score", "--candidate", "a b", "--reference", "a b"],
                                  ["languages"], ["presets"]])
def test_any_failed_write_gives_one_error_line(argv):
    """A tester: `batch > /proc/version` (EIO) ended in an OSError traceback in every command;
    only a full disk, a quota and a file size limit were caught."""
    line = json.dumps({"candidate": "a b", "references": ["a b"]}) + "\n"
    with open("/proc/version", "wb") as out:
        proc = subprocess.run([sys.executable, "-m", "meteor_core", *argv], input=line.encode(), stdout=out,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert proc.stderr.decode().splitlines()[-1] == "error: the output could not be written: Input/output error"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_stopped_by_a_full_file_says_which_lines_are_whole(tmp_path, workers):
    """A tester: a full disk cut batch's last line and said nothing of where the whole output
    ends (Ctrl-C and SIGTERM say it). With a file size limit of 40 KB the first lines are whole,
    the message names them and how to go on, and following it gives the uninterrupted output.
    On 2 workers a write holds many lines: those that reached the file whole are counted (it
    said "no output line was written whole" of a file holding 10: a tester)."""
    import resource

    lines = "".join(json.dumps({"candidate": f"the cat number {k} sat on the mat", "references": [
        f"the cat {k} sat on a mat today"]}) + "\n" for k in range(120))
    (tmp_path / "in.jsonl").write_text(lines, encoding="utf-8")
    command = [sys.executable, "-m", "meteor_core", "batch", "--workers", workers]
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (40_960, 40_960))  # noqa: E731
    with open(tmp_path / "in.jsonl", "rb") as stdin, open(tmp_path / "out.jsonl", "wb") as out:
        proc = subprocess.run(command, stdin=stdin, stdout=out, stderr=subprocess.PIPE, cwd=ROOT, timeout=120,
                              preexec_fn=limit)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert err.splitlines()[-1] == "error: the output could not be written: File too large"
    n = int(re.search(r"batch stopped: the first (\d+) output line\(s\) are whole \(input lines 1-\1\); what "
                      r"follows them may be cut\. To go on: keep the first \1 \(head -n \1\) and score input "
                      r"from line (\d+) on \(tail -n \+\2\)", err).group(1))
    written = (tmp_path / "out.jsonl").read_bytes()
    assert len(written) == 40_960 and 0 < n < 120
    whole = written.split(b"\n")[:n]
    rest = subprocess.run(command, input="".join(lines.splitlines(keepends=True)[n:]).encode(), capture_output=True,
                          cwd=ROOT, timeout=120, check=True).stdout
    full = subprocess.run(command, input=lines.encode(), capture_output=True, cwd=ROOT, timeout=120, check=True).stdout
    assert b"\n".join(whole) + b"\n" + rest == full


def test_corpus_warns_about_a_missing_wordnet_on_stderr(tmp_path, capsys, monkeypatch):
    from meteor_core import wordnet as wn

    missing = wn.WordNetStatus(False, "", "", "WordNet 3.0 was not found ... Fix: " + wn.FIX_COMMAND)
    monkeypatch.setattr(wn, "load_wordnet", lambda: (None, missing))
    (tmp_path / "c.txt").write_text("the auto\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the car\n", encoding="utf-8")
    code, _, err = run(capsys, "corpus", "--candidates", str(tmp_path / "c.txt"), "--references",
                       str(tmp_path / "r.txt"), "--workers", "1", "--json")
    assert code == 0 and f"warning: synonym stage unavailable: WordNet 3.0 was not found ... Fix: {wn.FIX_COMMAND}" in err


def test_corpus_uses_synonym_tables(tmp_path, capsys):
    """--synonyms reached batch and score but not corpus ("stage 'table:syn' needs a synonym table")."""
    (tmp_path / "syn.csv").write_text("auto,car\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("the auto\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the car\n", encoding="utf-8")
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "c.txt"), "--references",
                         str(tmp_path / "r.txt"), "--synonyms", str(tmp_path / "syn.csv"), "--stages", "exact",
                         "--json")
    assert code == 0, err
    assert json.loads(out)["corpus"]["matches_by_stage"] == {"exact": 1, "table:syn": 1}


def test_batch_json_error_message_reads_once(capsys, monkeypatch):
    """json's own message for a raw control character ends in "at": it was "...character at at column"."""
    feed(monkeypatch, b'{"candidate": "a\x01b", "references": ["a"]}\n{"candidate": "a" "b"}\n')
    code, out, _ = run(capsys, "batch", "--stages", "exact", "--workers", "1")
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["error"] == "line 1: not valid JSON (Invalid control character at column 17)"
    assert rows[1]["error"] == "line 2: not valid JSON (Expecting ',' delimiter at column 19)"


def test_batch_json_error_at_the_end_of_a_line_names_its_column(capsys, monkeypatch):
    # A line cut short: the error is at its end. With the line end handed to json it read
    # "column 1" (of a line 2 json thought it saw); the same line last in the input, with no
    # line end, read column 45. A newcomer found it.
    cut = b'{"candidate": "a b", "references": ["a b c"]'
    feed(monkeypatch, cut + b"\n" + cut + b"\r\n" + cut)
    code, out, _ = run(capsys, "batch", "--stages", "exact", "--workers", "1")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["error"] for r in rows] == [
        f"line {k}: not valid JSON (Expecting ',' delimiter at column 45)" for k in (1, 2, 3)]


@pytest.mark.parametrize("with_bleu", [True, False])
def test_batch_line_text_is_json_dumps_of_the_result_dict(with_bleu):
    # batch encodes the best reference's entry once and splices it in at the top level; the
    # text must be exactly json.dumps of result_to_dict (key order, spacing, escapes), for one
    # reference, several (best not the first), non-ASCII text, quotes and backslashes.
    from meteor_core import Scorer, MeteorConfig
    from meteor_core.cli import _result_line
    from meteor_core.report import result_to_dict

    scorer = Scorer(MeteorConfig())
    pairs = [("the cat sat on a mat", ["the cat sat on the mat"]),
             ("running dogs bark", ["a cat", "the dog runs", "dogs are running and barking"]),
             ("Straße „café“ naïve", ["strasse café naive", "Straße café"]),
             ('say "hi" \\ 😀', ['said "hi" \\'])]
    for candidate, references in pairs:
        result = scorer.score(candidate, references)
        out = result_to_dict(result, with_bleu=with_bleu)
        expected = json.dumps(out, ensure_ascii=False)
        assert _result_line(result, with_bleu) == expected
        assert json.loads(expected)["best_reference"] == result.best_index
        given = (len(references) + 2, [k + 1 for k in range(len(references))])  # blanks at 0 and the end
        assert _result_line(result, with_bleu, given) == json.dumps(result_to_dict(result, with_bleu=with_bleu,
                                                                                   given=given), ensure_ascii=False)
    assert scorer.score(*pairs[1]).best_index == 1
    # METEOR 1.5 links are spans (candidate_end, reference_end) and its results carry "meteor15"
    meteor15 = Scorer(MeteorConfig(mode="meteor15")).score("the cat sat down on the mat", ["a cat was sitting on the mat"])
    assert any(link.stage == "paraphrase" for link in meteor15.best.links)
    assert _result_line(meteor15, with_bleu) == json.dumps(result_to_dict(meteor15, with_bleu=with_bleu), ensure_ascii=False)


def test_batch_leaves_a_blank_or_null_reference_out_as_corpus_files_do(capsys, monkeypatch):
    """A tester: {"references": ["", "a"]} and [null, "a"] each lost the whole line ("reference 1 is
    empty", "must be a list of strings") where corpus JSONL and frames score it against "a". Left
    out, the positions kept as given: null in "references", best_reference counting it."""
    lines = [json.dumps({"candidate": "a b", "references": ["", "a b"]}),
             json.dumps({"candidate": "a b", "references": [None, "x", "a b", " "]}),
             json.dumps({"candidate": "a b", "references": [" ", None]}),  # nothing left: said
             json.dumps({"candidate": "a b", "references": [1, "a b"]}),
             json.dumps({"candidate": "a b", "references": "a b"})]  # one string: one reference, as corpus
    feed(monkeypatch, ("\n".join(lines) + "\n").encode())
    code, out, _ = run(capsys, "batch", "--stages", "exact", "--no-bleu")
    rows = [json.loads(line) for line in out.splitlines()]
    alone = 1 - 0.5 / 8  # "a b" against "a b": 2 of 2, one chunk
    assert rows[0]["score"] == pytest.approx(alone) and rows[0]["best_reference"] == 1
    assert [r if r is None else r["score"] for r in rows[0]["references"]] == [None, pytest.approx(alone)]
    assert rows[1]["best_reference"] == 2 and [r is None for r in rows[1]["references"]] == [True, False, False, True]
    # every one blank: said of each, named as the warnings name them (a tester: "reference 1 is empty")
    assert rows[2]["error"] == "line 3: references[0], references[1] are all blank or null: no reference to score against"
    assert rows[3]["error"] == ('line 4: "references" must be a string or a list of strings (in a list, null or "" is a '
                                'missing one), not a list holding a number')
    assert rows[4]["score"] == pytest.approx(alone) and len(rows[4]["references"]) == 1  # it was refused
    # the null is said in the line itself (corpus files say it on stderr): a tester
    # --no-bleu: the warning speaks of METEOR alone (it spoke of BLEU and sacreBLEU: a tester)
    assert rows[0]["warnings"] == ["references[0] is blank or null: left out, as corpus files leave such references out, "
                                   "so METEOR here uses the other reference"]
    assert rows[1]["warnings"][0].startswith("references[0], references[3] are blank or null: left out") and \
        "uses the other 2 references" in rows[1]["warnings"][0]
    assert rows[4]["warnings"] == []
    # METEOR 1.5 mode scores a blank reference (as the jar) and BLEU leaves it out: said too, where
    # the line showed two references scored beside sacreBLEU's nrefs:1 (a tester)
    feed(monkeypatch, (lines[0] + "\n" + lines[1] + "\n").encode())
    code, out, _ = run(capsys, "batch", "--mode", "meteor15")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["warnings"] == ["references[0] is blank: METEOR 1.5 scores it as the jar does (no words, 0), BLEU here "
                                 "leaves it out (sacreBLEU's own call would count a blank reference, of length 0)"]
    assert first["sacrebleu"]["sentence"]["signature"].startswith("nrefs:1|")
    assert second["warnings"][0].startswith("references[0], references[3] are blank: METEOR 1.5 scores them")
    # every reference blank: scored 0 (as the jar) and BLEU counts them; the line said nothing (a tester)
    feed(monkeypatch, b'{"candidate": "a b", "references": ["", " "]}\n{"candidate": "a b", "references": [""]}\n')
    code, out, _ = run(capsys, "batch", "--mode", "meteor15")
    assert [(json.loads(line)["score"], json.loads(line)["warnings"]) for line in out.splitlines()] == [
        (0.0, ["references[0], references[1] are all blank: METEOR 1.5 scores them as the jar does (no words, 0); "
               "BLEU counts them too (no reference words: 0)"]),
        (0.0, ["references[0] is blank: METEOR 1.5 scores it as the jar does (no words, 0); BLEU counts it too (no "
               "reference words: 0)"])]
    # a zero-width space is a word for the jar's tokenizer: not "all blank" (found in review)
    feed(monkeypatch, b'{"candidate": "a b", "references": ["\\u200b", ""]}\n')
    code, out, _ = run(capsys, "batch", "--mode", "meteor15")
    line = json.loads(out)
    assert line["references"][0]["reference_length"] == 1 and line["warnings"] == [
        "references[1] is blank: METEOR 1.5 scores it as the jar does (no words, 0), BLEU here leaves it out "
        "(sacreBLEU's own call would count a blank reference, of length 0)"]
    feed(monkeypatch, b'{"candidate": "a b", "references": ["", " "]}\n')
    code, out, _ = run(capsys, "batch", "--mode", "meteor15", "--no-bleu")
    assert json.loads(out)["warnings"] == [
        "references[0], references[1] are all blank: METEOR 1.5 scores them as the jar does (no words, 0)"]
    feed(monkeypatch, (lines[0] + "\n").encode())
    code, out, _ = run(capsys, "batch", "--stages", "exact")
    assert json.loads(out)["warnings"] == [
        "references[0] is blank or null: left out, as corpus files leave such references out, so METEOR and BLEU here "
        "use the other reference (sacreBLEU's own call would count a blank reference, of length 0)"]


def test_batch_and_corpus_say_the_same_of_an_empty_or_null_references_field(capsys, monkeypatch, tmp_path):
    """A tester: "references": [] was "at least one reference is needed" in batch and "is missing
    or not text" in corpus; null was "must be a string or a list of strings" in batch and an
    empty reference in corpus. Now both: an empty list is said so, null is an empty reference."""
    lines = b'{"candidate": "a b", "references": []}\n{"candidate": "a b", "references": null}\n'
    feed(monkeypatch, lines)
    code, out, _ = run(capsys, "batch", "--no-bleu")
    assert [json.loads(line)["error"] for line in out.splitlines()] == [
        'line 1: "references" is an empty list: give at least one reference',
        "line 2: reference is empty (no tokens after tokenization)"]
    # another kind of value, and "reference" alone (read by corpus, "missing" in batch), said alike
    feed(monkeypatch, b'{"candidate": "a b", "references": 5}\n{"candidate": "a b", "reference": "a b"}\n')
    code, out, _ = run(capsys, "batch", "--no-bleu")
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first["error"] == ('line 1: "references" must be a string or a list of strings (in a list, null or "" is a '
                              'missing one), not a number')
    assert second["score"] == pytest.approx(1 - 0.5 / 8)
    path = tmp_path / "five.jsonl"
    path.write_bytes(b'{"candidate": "a b", "references": 5}\n{"candidate": "a b", "references": "a b"}\n')
    code, _, err = run(capsys, "corpus", "--candidates", str(path))
    assert f"line 1: 'references' must be a string or a list of strings (in a list, null or \"\" is a missing one), not a number" in err
    path = tmp_path / "c.jsonl"
    path.write_bytes(lines)
    code, _, err = run(capsys, "corpus", "--candidates", str(path))
    assert code == 2
    assert f"{path}, line 1: 'references' is an empty list: give at least one reference" in err
    assert f"{path}, line 2: reference is empty (no tokens after tokenization)" in err


def test_corpus_table_ids_and_human_scores_are_found_as_in_the_app(tmp_path, capsys):
    """A tester's find: for the same JSONL the app took the 'id' and 'human' fields while the
    CLI used line numbers and no human scores, so ids and correlations differed. Both now use
    corpus_io.guess_column; an explicit --id-column still wins."""
    import json

    from meteor_core.cli import main
    from meteor_core.corpus_io import HUMAN_WORDS, ID_WORDS, guess_column

    rows = [{"id": "a1", "candidate": "the cat sat", "references": ["the cat sat down"], "human": 80},
            {"id": "a2", "candidate": "a dog", "references": ["the dog barked"], "human": 20},
            {"id": "a3", "candidate": "hello there", "references": ["hello there"], "human": 90}]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    columns = list(rows[0])
    assert (guess_column(columns, ID_WORDS), guess_column(columns, HUMAN_WORDS)) == ("id", "human")
    assert main(["corpus", "--candidates", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [segment["id"] for segment in report["segments"]] == ["a1", "a2", "a3"]
    assert report["corpus"]["segment_id"] == "the 'id' column"
    assert report["corpus"]["human_scores"] == "the 'human' column"
    # METEOR ranks the three like the human scores: a2 < a1 < a3
    meteor = next(c for c in report["corpus"]["correlations"] if c["metric"] == "METEOR")
    assert (meteor["spearman"], meteor["n"]) == (1.0, 3)
    assert main(["corpus", "--candidates", str(path), "--json", "--id-column", "candidate"]) == 0
    assert [s["id"] for s in json.loads(capsys.readouterr().out)["segments"]] == ["the cat sat", "a dog", "hello there"]


def test_compare_with_two_tables_and_column_options_says_what_to_give(tmp_path, capsys):
    """Two TSV tables with --candidate-column: the message spoke of plain-text files (a tester)."""
    table = tmp_path / "sys.tsv"
    table.write_text("sysA\tsysB\treference\na\tb\ta\n", encoding="utf-8")
    code, _, err = run(capsys, "compare", "--candidates", str(table), str(table), "--candidate-column", "sysA",
                       "--candidate-column", "sysB")
    assert code == 2 and err == ("error: 2 files given with column options: give one table after --candidates with "
                                 "a --candidate-column per system, or one plain-text file per system without column "
                                 "options\n")


def test_a_human_column_without_numbers_says_so(tmp_path, capsys):
    """The correlations said "constant scores or too few segments" where no human score was a
    number (a tester)."""
    table = tmp_path / "h.tsv"
    table.write_text("candidate\treference\thuman\na b\ta b\tx\nc d\tc e\t7\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(table), "--human-column", "human", "--stages", "exact")
    assert code == 0 and [line for line in out.splitlines() if line.startswith("METEOR vs human")] == [
        "METEOR vs human (1 segment): Pearson, Spearman and Kendall tau-b undefined: 1 scored segment has a human "
        "score that is a number; 2 are needed"]


def test_compare_table_columns_line_up(tmp_path, capsys):
    """A tester's find: the headers "mean seg." and "BLEU [95% CI]" stood about 15 characters
    right of their numbers. Every line of the table now has the same length, and each value
    ends where its header ends."""
    from meteor_core.cli import main

    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barked\nhello there\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("the cat sat on a mat\nthe dog barked\nhello\n", encoding="utf-8")
    (tmp_path / "system_b.txt").write_text("a cat sat on mat\ndog barked\nhello there\n", encoding="utf-8")
    assert main(["compare", "--candidates", str(tmp_path / "a.txt"), str(tmp_path / "system_b.txt"),
                 "--references", str(tmp_path / "ref.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.lstrip().startswith("rank"))
    table = lines[start:start + 3]
    assert len({len(line) for line in table}) == 1, table
    header = table[0]
    for label in ("corpus METEOR [95% CI]", "mean seg.", "BLEU [95% CI]"):
        end = header.index(label) + len(label)
        assert all(row[end - 1] in "0123456789]" and (end == len(row) or row[end] == " ") for row in table[1:]), label
    # Each pair is written as the subtraction it reports: "a vs b: -0.3171" read backwards (a tester).
    from meteor_core import MeteorConfig, Scorer

    pairs = [line.split() for line in lines if line.startswith("  METEOR") or line.startswith("  BLEU")]
    assert [p[1:4] for p in pairs] == [["system_b.txt", "-", "a.txt:"]] * 2
    corpus_a, corpus_b = (Scorer(MeteorConfig()).score_corpus(
        (tmp_path / name).read_text().splitlines(),
        [[r] for r in (tmp_path / "ref.txt").read_text().splitlines()]) for name in ("a.txt", "system_b.txt"))
    assert pairs[0][4] == f"{corpus_b.score - corpus_a.score:+.4f}"


@pytest.mark.parametrize("columns, id_column, human_column", [
    (["identity", "date", "candidate", "reference"], None, None),  # a tester: taken as id and DA score
    (["seg_id", "candidate", "reference", "DA", "score"], "seg_id", "DA"),  # a bare "score" may be a metric's
    (["segment", "candidate", "reference", "human_score"], "segment", "human_score"),
    (["ID", "candidate", "reference", "z", "raw"], "ID", "z"),
    (["id2", "candidate", "reference", "zh"], "id2", None),
])
def test_id_and_human_columns_are_guessed_by_whole_words(columns, id_column, human_column):
    from meteor_core.corpus_io import HUMAN_WORDS, ID_WORDS, guess_column

    assert guess_column(columns, ID_WORDS) == id_column
    assert guess_column(columns, HUMAN_WORDS, [id_column]) == human_column


def test_empty_column_options_turn_the_guess_off_and_explicit_roles_are_not_reused(tmp_path, capsys):
    import json

    from meteor_core.cli import main

    path = tmp_path / "t.tsv"
    path.write_text("id\tcandidate\tReference\tsegment_score\n"
                    "a\tthe cat sat\tthe cat sat down\t1\nb\ta dog\tthe dog barked\t2\n", encoding="utf-8")
    assert main(["corpus", "--candidates", str(path), "--json", "--id-column", "", "--human-column", ""]) == 0
    corpus = json.loads(capsys.readouterr().out)["corpus"]
    assert corpus["segment_id"].startswith("line number") and corpus["human_scores"] is None
    assert main(["corpus", "--candidates", str(path), "--json", "--human-column", "segment_score"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["id"] for s in report["segments"]] == ["a", "b"]  # not segment_score, although it starts "seg"
    assert report["corpus"]["human_scores"] == "the 'segment_score' column"


def test_a_table_without_a_reference_column_names_the_option(tmp_path, capsys):
    from meteor_core.cli import main

    path = tmp_path / "t.tsv"
    path.write_text("candidate\ttarget\nthe cat\tthe cat\n", encoding="utf-8")
    assert main(["corpus", "--candidates", str(path)]) == 2
    assert "--reference-column" in capsys.readouterr().err


def test_compare_table_lines_up_names_in_any_script(tmp_path, capsys):
    """A tester's find: widths counted with len() put a CJK name 3 columns off and a decomposed
    'école' 1 off, and a newline in a name split its row. Display widths now, names escaped."""
    from meteor_core.cli import _display_width, main

    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog barked\n", encoding="utf-8")
    names = ["系统甲.txt", "e\u0301cole.txt", "plain.txt"]
    for name, text in zip(names, ["the cat sat on a mat\nthe dog barked\n", "a cat sat\ndog barked\n",
                                  "the cat\na dog\n"]):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["compare", "--candidates", *[str(tmp_path / n) for n in names],
                 "--references", str(tmp_path / "ref.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.lstrip().startswith("rank"))
    table = lines[start:start + 4]
    assert len({_display_width(line) for line in table}) == 1, table
    assert (_display_width("系统甲"), _display_width("e\u0301cole"), _display_width("a\u200bb")) == (6, 5, 2)


def test_an_empty_reference_line_is_noted_once_by_corpus_and_compare(tmp_path, capsys):
    """Reference files where the second has an empty line: the segment is scored against the
    first (a tester lost such rows), corpus says so, and compare says it once for all systems."""
    from meteor_core import score

    for name, text in {"A.txt": "a b c\nd e f\n", "B.txt": "a b x\nd e\n", "R1.txt": "a b c\nd e f g\n",
                       "R2.txt": "a c\n\n"}.items():
        (tmp_path / name).write_text(text)
    refs = ["--references", str(tmp_path / "R1.txt"), "--references", str(tmp_path / "R2.txt")]
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "A.txt"), *refs, "--json")
    rows = json.loads(out)
    assert code == 0 and [s["meteor"] for s in rows["segments"]] == [
        score("a b c", ["a b c", "a c"]).score, score("d e f", ["d e f g"]).score]
    # said of the reference file whose line is empty (it named the candidate file: a tester)
    note = f"{tmp_path / 'R2.txt'}, line 2: empty line: left out, segment scored against the other references"
    assert f"note: {note}" in err.splitlines()
    assert rows["corpus"]["empty_references_left_out"] == [note]
    code, out, err = run(capsys, "compare", *refs, "--candidates", str(tmp_path / "A.txt"), str(tmp_path / "B.txt"))
    assert code == 0 and [line for line in err.splitlines() if line.startswith("note:")] == [f"note: {note}"]


def test_a_json_document_is_not_read_as_lines(tmp_path, capsys):
    """A captioning tester gave COCO's results.json: read as plain text, it was one segment of
    12,874 tokens, refused for its length without a word about the format."""
    (tmp_path / "results.json").write_text('[{"image_id": 1, "caption": "a cat"},\n {"image_id": 2, "caption": "a dog"}]')
    (tmp_path / "r.txt").write_text("a cat\na dog\n")
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "results.json"),
                         "--references", str(tmp_path / "r.txt"))
    assert code == 2 and out == ""
    assert f"{tmp_path / 'results.json'}: a .json file is one JSON document, not one segment per line" in err
    assert "meteor_core.compat.pycocoevalcap.Meteor().compute_score(gts, res)" in err
    (tmp_path / "c.jsonl").write_text('{"candidate": "a cat", "reference": "a cat"}\n')
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "c.jsonl"))
    assert code == 0  # JSON Lines is read


def test_many_empty_reference_cells_are_summed_up_in_one_note(tmp_path, capsys):
    """A captioning tester: 5-7 references per image, the 6th and 7th often empty, gave one note
    per image (77 lines for 80 images). Up to 5 are listed; more are one note per file."""
    header = "id\tcandidate\treference1\treference2\n"
    rows = [f"s{k}\ta cat sat\tthe cat sat\t{'' if k % 4 else 'a cat'}\n" for k in range(1, 31)]
    (tmp_path / "t.tsv").write_text(header + "".join(rows))
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "t.tsv"), "--json")
    empty = [k + 1 for k in range(1, 31) if k % 4]  # file lines (the header is line 1) of the empty cells
    assert code == 0 and len(empty) == 23 and len(json.loads(out)["corpus"]["empty_references_left_out"]) == 23
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert notes == [f"note: {tmp_path / 't.tsv'}: 23 lines with an empty reference (lines "
                     + ", ".join(map(str, empty[:20])) + "…): left out, each segment scored against the references "
                     "it has"]
    # METEOR 1.5 mode scores them, as the jar; the note says so (it said "left out": a tester)
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "t.tsv"), "--json", "--mode", "meteor15",
                         "--stages", "exact,stem")
    corpus = json.loads(out)["corpus"]
    assert code == 0 and corpus["empty_references_left_out"] == [] and len(corpus["empty_references_scored"]) == 23
    assert [line for line in err.splitlines() if line.startswith("note:")] == [
        f"note: {tmp_path / 't.tsv'}: 23 lines with an empty reference (lines " + ", ".join(map(str, empty[:20]))
        + "…): scored, as the jar scores every reference (no words: 0)"]
    from meteor_core.cli import _reference_notes
    from meteor_core.corpus_io import RowProblem

    six = [RowProblem("r.txt", 7, "empty line")] + [RowProblem("s.txt", k, "x") for k in range(5)]  # summed up
    assert _reference_notes(six)[0].startswith("r.txt: 1 line with an empty reference (line 7): left out")  # not "1 lines"
    (tmp_path / "few.tsv").write_text(header + "".join(rows[:3]))
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "few.tsv"))
    assert [line for line in err.splitlines() if line.startswith("note:")] == [
        f"note: {tmp_path / 'few.tsv'}, line {k + 1}: empty reference in 'reference2': left out, segment scored "
        "against the others" for k in (1, 2, 3)]


@pytest.fixture
def ctrl_c_as_from_a_terminal():
    """SIGINT at Python's handler, as in a process started from a terminal. Started in the
    background (nohup, `cmd &` in a script) the test process ignores SIGINT, and the CLI rightly
    keeps ignoring it (test_an_ignored_ctrl_c_stays_ignored): the Ctrl-C tests below then failed
    (the mutation script's baseline, run in the background)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_ignored_ctrl_c_stays_ignored(monkeypatch, capsys):
    """A command started with SIGINT ignored (nohup, a background job of a script) goes on
    through a Ctrl-C, as Unix programs do, and leaves it ignored."""
    import signal

    from meteor_core import cli

    def command(args):
        os.kill(os.getpid(), signal.SIGINT)
        print("went on")
        return 0

    monkeypatch.setattr(cli, "_cmd_presets", command)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert main(["presets"]) == 0
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert capsys.readouterr() == ("went on\n", "")


@pytest.mark.usefixtures("ctrl_c_as_from_a_terminal")
@pytest.mark.parametrize("writes_after", [True, False])
def test_ctrl_c_lost_inside_a_del_still_interrupts(monkeypatch, capsys, writes_after):
    """A tester: Ctrl-C in batch's first second was lost 3 times in 40 (the KeyboardInterrupt
    was raised inside the regex package's __del__, where Python discards it): all 5,000 lines
    written, exit 0. The lost interrupt now stops the next write, or ends the run with it. And
    it is no longer raised there at all: Python printed it as an ignored exception's traceback
    (2 of 40 runs of 2-6 Ctrl-C's with a pool)."""
    import signal

    from meteor_core import cli

    class Collected:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)  # handled here: a KeyboardInterrupt would be lost

    def command(args):
        Collected()  # made and dropped: __del__ runs now
        if writes_after:
            cli._write_lines(sys.stdout, "a line\n")
        return 0

    lost = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: lost.append(unraisable.exc_type))
    monkeypatch.setattr(cli, "_cmd_presets", command)
    assert main(["presets"]) == 130
    assert lost == []  # nothing for Python to discard and print
    assert capsys.readouterr() == ("", "interrupted\n")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back


@pytest.mark.usefixtures("ctrl_c_as_from_a_terminal")
def test_ctrl_c_while_the_process_exits_ends_it_without_a_traceback(monkeypatch, capsys):
    """A CI run: a Ctrl-C after "interrupted", while the interpreter joined the pool's queue
    thread at exit, printed a traceback (4 Ctrl-C's 30 ms apart). As a process (program), an
    interrupted command keeps its handler through the exit, and a further Ctrl-C ends the
    process with 130 at once; called in-process, main gives Python's handler back."""
    import signal

    from meteor_core import cli

    def interrupted(args):
        os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, through the CLI's handler
        return 0

    monkeypatch.setattr(cli, "_cmd_presets", interrupted)
    class Exited(Exception):
        pass

    def exit_now(code):
        raise Exited(code)

    monkeypatch.setattr(cli.os, "_exit", exit_now)
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_type))
    python_reports = sys.unraisablehook
    try:
        assert main(["presets"], exiting=True) == 130
        handler = signal.getsignal(signal.SIGINT)
        assert isinstance(handler, cli._CtrlC) and handler.stopping
        # a Ctrl-C raised in a finalizer or weakref callback (multiprocessing's close_fds in a
        # stress run) is not printed as a traceback; other unraisable errors still are
        for error in (KeyboardInterrupt, ValueError):
            sys.unraisablehook(type("Unraisable", (), {"exc_type": error})())
        assert reported == [ValueError]
        with pytest.raises(Exited, match="130"):
            handler(signal.SIGINT, sys._getframe())  # the late Ctrl-C
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = python_reports
    assert main(["presets"]) == 130 and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert sys.unraisablehook is python_reports  # in-process: given back
    assert capsys.readouterr().err == "interrupted\ninterrupted\n"
    with pytest.raises(KeyboardInterrupt):  # outside a finalizer and before the exit: raised as usual
        cli._CtrlC()(signal.SIGINT, sys._getframe())


def test_an_interrupted_process_flushes_its_output_and_ends_without_the_interpreter_exit(monkeypatch):
    """A stress run: 1 of 100 interrupted batches printed "Exception ignored ... Bad file
    descriptor" after "interrupted", from a race between the interpreter's exit and the pool's
    manager thread. As a process (program), an interrupted command flushes what it wrote and
    ends with 130 without that exit; any other code goes through sys.exit as before."""
    from meteor_core import cli

    class Exited(Exception):
        pass

    flushed = []

    class Stream:
        def __init__(self, name):
            self.name = name

        def flush(self):
            flushed.append(self.name)

    def exit_now(code):
        raise Exited(code)

    monkeypatch.setattr(cli.os, "_exit", exit_now)
    monkeypatch.setattr(sys, "stdout", Stream("stdout"))
    monkeypatch.setattr(sys, "stderr", Stream("stderr"))
    monkeypatch.setattr(cli, "main", lambda exiting: 130)
    with pytest.raises(Exited, match="130"):
        cli.program()
    assert flushed == ["stdout", "stderr"]
    monkeypatch.setattr(cli, "main", lambda exiting: 1)
    with pytest.raises(SystemExit) as ended:
        cli.program()
    assert ended.value.code == 1


def test_compare_reads_references_from_a_pipe(tmp_path):
    """A tester: `compare --references /dev/stdin` (or <(...)) read the pipe once per system,
    so the second system found it empty: "line counts differ: ... /dev/stdin has 0". Each
    file is now read once; the result equals the one from a regular file."""
    root = Path(__file__).resolve().parents[1]
    refs = "the cat sat on the mat\na dog barked\nhello there\n"
    (tmp_path / "ref.txt").write_text(refs, encoding="utf-8")
    (tmp_path / "a.txt").write_text("the cat sat on a mat\nthe dog barked\nhello\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a cat sat on mat\ndog barked\nhello there\n", encoding="utf-8")

    def compare(*args, stdin=""):
        return subprocess.run([sys.executable, "-m", "meteor_core", "compare", "--json", "--workers", "1", *args],
                              input=stdin, capture_output=True, text=True, cwd=root, timeout=300)

    from_file = compare("--candidates", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                        "--references", str(tmp_path / "ref.txt"))
    from_pipe = compare("--candidates", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                        "--references", "/dev/stdin", stdin=refs)
    assert from_file.returncode == 0 and from_pipe.returncode == 0, from_pipe.stderr
    ranking = [(s["system"], s["corpus_meteor"]) for s in json.loads(from_file.stdout)["systems"]]
    assert [(s["system"], s["corpus_meteor"]) for s in json.loads(from_pipe.stdout)["systems"]] == ranking


def test_workers_messages(tmp_path, capsys, monkeypatch):
    """A tester: `--workers -1` said "positive integer (0 or None: all cores)" (None means
    nothing on a command line), and `--workers 64` on 2 cores started 64 processes silently."""
    from meteor_core import parallel

    source = tmp_path / "in.jsonl"
    source.write_text('{"candidate": "a b", "references": ["a b"]}\n', encoding="utf-8")
    for command in (["batch", "--workers", "-1"], ["corpus", "--candidates", str(source), "--workers", "-1"]):
        assert main(command) == 2
        assert capsys.readouterr().err == "error: --workers must be 0 (all cores) or a positive integer, got -1\n"
    monkeypatch.setattr(parallel, "available_cores", lambda: 2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(source.read_bytes())))
    assert main(["batch", "--workers", "3", "--no-bleu"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["score"] == pytest.approx(1 - 0.5 / 8)  # 2 of 2 in one chunk
    assert err == ("note: 3 workers on 2 cores: more processes than cores do not score faster, and each holds its "
                   "own copy of the word data\n")
    # At most 4 per core (at least 8): --workers 1000 started 1,000 processes on 2 cores (a tester)
    for command in (["batch", "--workers", "9"], ["compare", "--candidates", str(source), str(source), "--workers",
                                                  "100000"]):
        assert main(command) == 2
        assert capsys.readouterr().err.startswith("error: --workers must be at most 8 on this machine (4 per core")
    assert parallel.max_workers() == 8
    monkeypatch.setattr(parallel, "available_cores", lambda: 16)
    assert parallel.max_workers() == 64 and parallel.resolve_workers(64) == 64
    with pytest.raises(Exception, match="workers must be at most 64 on this machine"):
        parallel.resolve_workers(65)


def test_format_reads_a_table_whose_name_does_not_say_it(tmp_path, capsys):
    """Known since a CLI tester: a table piped in (/dev/stdin) was read as plain text, and
    nothing said how to read it as a table. --format names the candidates file's format; the
    results equal those of the same table under its own name."""
    root = Path(__file__).resolve().parents[1]
    table = ("id\tcandidate\tsystem_b\treference\n1\tthe cat sat on a mat\ta cat sat\tthe cat sat on the mat\n"
             "2\tthe dog barked\tdog barked\ta dog barked\n")
    (tmp_path / "t.tsv").write_text(table, encoding="utf-8")
    (tmp_path / "t").write_text(table, encoding="utf-8")
    code, named, _ = run(capsys, "corpus", "--candidates", str(tmp_path / "t.tsv"), "--json", "--workers", "1")
    assert code == 0
    code, formatted, _ = run(capsys, "corpus", "--candidates", str(tmp_path / "t"), "--format", "tsv", "--json",
                             "--workers", "1")
    assert code == 0 and json.loads(formatted)["corpus"] == json.loads(named)["corpus"]
    assert [s["id"] for s in json.loads(formatted)["segments"]] == ["1", "2"]
    code, _, err = run(capsys, "corpus", "--candidates", str(tmp_path / "t"), "--workers", "1")
    assert code == 2 and err == (f"error: {tmp_path / 't'} is read as plain text (one segment per line): give its "
                                 "reference file(s) with --references, or, if it is a TSV, CSV or JSONL table, its "
                                 "format with --format\n")
    code, _, err = run(capsys, "compare", "--candidates", str(tmp_path / "t"), "--candidate-column", "candidate",
                       "--candidate-column", "system_b", "--workers", "1")
    assert code == 2 and f"(if {tmp_path / 't'} is a table, give its format with --format)" in err  # a newcomer
    # --format txt reads a .tsv as lines of text (its header is a segment)
    (tmp_path / "r.txt").write_text("x\ny\nz\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(tmp_path / "t.tsv"), "--format", "txt",
                       "--references", str(tmp_path / "r.txt"), "--json", "--workers", "1")
    assert code == 0 and len(json.loads(out)["segments"]) == 3
    # compare, a table from a pipe
    piped = subprocess.run([sys.executable, "-m", "meteor_core", "compare", "--candidates", "/dev/stdin", "--format",
                            "tsv", "--candidate-column", "candidate", "--candidate-column", "system_b", "--json",
                            "--workers", "1"], input=table, capture_output=True, text=True, cwd=root, timeout=300)
    assert piped.returncode == 0, piped.stderr
    code, out, _ = run(capsys, "compare", "--candidates", str(tmp_path / "t.tsv"), "--candidate-column", "candidate",
                       "--candidate-column", "system_b", "--json", "--workers", "1")
    assert [(s["system"], s["corpus_meteor"]) for s in json.loads(piped.stdout)["systems"]] == \
        [(s["system"], s["corpus_meteor"]) for s in json.loads(out)["systems"]]


@pytest.mark.parametrize("mode, reported", [
    ("nltk", "mean of segment METEOR:            0.224172  (what HF evaluate's meteor reports on the same "
             "tokens; nltk has no corpus METEOR)"),
    ("meteor15", "corpus METEOR (summed statistics): 0.247678  (what the jar's EVAL line and pycocoevalcap report)"),
    ("paper", None)])
def test_corpus_says_which_number_the_reproduced_tool_reports(tmp_path, capsys, mode, reported, wordnet_reader,
                                                               meteor15_data):
    """A captioning tester compared nltk mode's headline (summed) number with HF evaluate's mean.
    The empty second candidate scores 0 in nltk and METEOR 1.5 mode, as nltk and the jar score it."""
    from nltk.translate.meteor_score import meteor_score

    (tmp_path / "c.txt").write_text("the cat sat\n\n")
    (tmp_path / "r.txt").write_text("the cat sat on the mat\na dog\n")
    code, out, _ = run(capsys, "corpus", "--mode", mode, "--candidates", str(tmp_path / "c.txt"),
                       "--references", str(tmp_path / "r.txt"))
    assert code == 0
    lines = [line for line in out.splitlines() if "METEOR" in line and ":" in line]
    assert [line for line in lines if "report" in line] == ([reported] if reported else [])
    if mode == "nltk":  # HF evaluate: the mean of nltk's segment scores, the empty caption's 0 included
        hf = (meteor_score(["the cat sat on the mat".split()], "the cat sat".split())
              + meteor_score([["a", "dog"]], [])) / 2
        assert f"{hf:.6f}" == "0.224172"


def test_json_null_is_an_empty_reference_and_best_reference_names_the_field_given(tmp_path, capsys):
    """A notebook tester: pandas' to_json writes a missing reference as null, which made 4,624
    of 6,000 rows "not scored"; and best_reference counted the references kept, so after a left
    out reference_2 it said 2 where the best was reference_3."""
    from meteor_core import score

    lines = ['{"candidate": "the cat sat", "reference_1": "a dog", "reference_2": null, "reference_3": "the cat sat"}',
             '{"candidate": "the cat sat", "reference_1": "a dog", "reference_2": "", "reference_3": "the cat sat"}',
             '{"candidate": "the cat sat", "reference_1": null, "reference_2": null, "reference_3": null}']
    (tmp_path / "c.jsonl").write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "corpus", "--candidates", str(tmp_path / "c.jsonl"), "--json")
    report = json.loads(out)
    assert code == 0 and [s["best_reference"] for s in report["segments"]] == [3, 3]
    assert [s["meteor"] for s in report["segments"]] == [score("the cat sat", ["the cat sat"]).score] * 2
    assert f"{tmp_path / 'c.jsonl'}, line 1: empty reference in 'reference_2' (null): left out" in err
    assert f"{tmp_path / 'c.jsonl'}, line 3: all 3 references are blank" in err  # none left: not scored, said
    # plain-text files: the file's position among --references
    (tmp_path / "h.txt").write_text("the cat sat\n")
    for name, text in (("r1.txt", "a dog\n"), ("r2.txt", "\n"), ("r3.txt", "the cat sat\n")):
        (tmp_path / name).write_text(text)
    code, out, _ = run(capsys, "corpus", "--candidates", str(tmp_path / "h.txt"), "--json",
                       *[a for n in ("r1.txt", "r2.txt", "r3.txt") for a in ("--references", str(tmp_path / n))])
    assert code == 0 and [s["best_reference"] for s in json.loads(out)["segments"]] == [3]


def test_gzipped_files_are_read_within_the_limit(tmp_path, capsys):
    """A tester: WMT's files ship gzipped and .tsv.gz was not read. They are, as the same data
    uncompressed (the format from the suffix under .gz), within the 20 MB limit once uncompressed;
    a truncated or non-gzip file is said."""
    import gzip

    from meteor_core.corpus_io import MAX_FILE_BYTES

    (tmp_path / "h.txt").write_text("the cat sat on the mat\na dog\n")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\nthe dog\n")
    (tmp_path / "t.tsv").write_text("id\tcandidate\treference\ns1\tthe cat\tthe cat\n")
    for name in ("h.txt", "r.txt", "t.tsv"):
        (tmp_path / f"{name}.gz").write_bytes(gzip.compress((tmp_path / name).read_bytes()))

    def corpus(*paths):
        code, out, err = run(capsys, "corpus", "--json", "--stages", "exact", *paths)
        return code, (json.loads(out) if code == 0 else err)

    plain = corpus("--candidates", str(tmp_path / "h.txt"), "--references", str(tmp_path / "r.txt"))[1]
    zipped = corpus("--candidates", str(tmp_path / "h.txt.gz"), "--references", str(tmp_path / "r.txt.gz"))[1]
    assert [s["meteor"] for s in zipped["segments"]] == [s["meteor"] for s in plain["segments"]]
    table = corpus("--candidates", str(tmp_path / "t.tsv.gz"))[1]  # a table, by the suffix under .gz
    assert [s["id"] for s in table["segments"]] == ["s1"]
    big = gzip.compress(b"a\n" * (MAX_FILE_BYTES // 2 + 1))
    (tmp_path / "big.txt.gz").write_bytes(big)
    code, err = corpus("--candidates", str(tmp_path / "big.txt.gz"), "--references", str(tmp_path / "r.txt"))
    assert code == 2 and "big.txt.gz: uncompressed, more than the 20 MB limit (20,000,000 bytes) (--max-mb raises it)" in err
    (tmp_path / "cut.txt.gz").write_bytes(big[: len(big) // 2])
    code, err = corpus("--candidates", str(tmp_path / "cut.txt.gz"), "--references", str(tmp_path / "r.txt"))
    assert code == 2 and "cut.txt.gz: the gzip data ends before its end (a truncated file?)" in err
    (tmp_path / "no.txt.gz").write_bytes(b"plain text\n")
    code, err = corpus("--candidates", str(tmp_path / "no.txt.gz"), "--references", str(tmp_path / "r.txt"))
    assert code == 2 and "no.txt.gz: named .gz but not gzip data (a gzip file starts with the bytes 1f 8b)" in err
    # zero bytes after the last member are padding, as gzip -t takes them (a tester)
    (tmp_path / "padded.txt.gz").write_bytes((tmp_path / "h.txt.gz").read_bytes() + b"\0" * 512)
    padded = corpus("--candidates", str(tmp_path / "padded.txt.gz"), "--references", str(tmp_path / "r.txt"))[1]
    assert [s["meteor"] for s in padded["segments"]] == [s["meteor"] for s in plain["segments"]]
    # standard input read once (as candidates and references it scored a system against itself)
    code, err = corpus("--candidates", "-", "--references", "-")
    assert code == 2 and "standard input ('-' or /dev/stdin) is given 2 times; it can be read once" in err
    code, _, err = run(capsys, "compare", "--candidates", "-", str(tmp_path / "h.txt"), "--references", "/dev/stdin")
    assert code == 2 and "is given 2 times" in err


def test_batch_in_meteor15_mode_scores_every_reference_as_the_jar(capsys, monkeypatch, meteor15_data):
    """As corpus files (the jar judges in test_meteor15_oracle): METEOR 1.5 mode scores every
    reference as given. Where the candidate matches none, an empty first one is the best (no
    reference words), as in the jar and in `score`; batch left it out and took the next one (3
    reference words). And a reference of invisible characters is a word to the jar: "\u00ad"
    against ["x", "\u00ad"] is 1.0 in the jar and in `score`, 0.0 in batch before (a tester)."""
    from meteor_core import MeteorConfig, Scorer

    lines = [json.dumps({"candidate": "hello", "references": ["", "goodbye my friend"]}),
             json.dumps({"candidate": "hello", "references": ["goodbye my friend", ""]}),
             json.dumps({"candidate": "hello there", "references": [None, "hello friend"]}),
             json.dumps({"candidate": "\u00ad", "references": ["x", "\u00ad"]})]
    feed(monkeypatch, ("\n".join(lines) + "\n").encode())
    code, out, _ = run(capsys, "batch", "--mode", "meteor15", "--workers", "1")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["best_reference"], r["reference_length"]) for r in rows] == [(0, 0), (0, 3), (1, 2), (1, 1)]
    assert rows[1]["references"][1]["reference_length"] == 0  # scored, not left out
    scorer = Scorer(MeteorConfig(mode="meteor15"))
    assert rows[2]["score"] == scorer.score("hello there", ["", "hello friend"]).score
    assert rows[3]["score"] == scorer.score("\u00ad", ["x", "\u00ad"]).score == 1.0
    # BLEU is over the references with words: the same with or without the empty one
    assert rows[0]["bleu"] == rows[1]["bleu"] and rows[0]["sacrebleu"] == rows[1]["sacrebleu"]


def test_dash_is_standard_input_and_gzip_is_known_by_its_bytes(tmp_path):
    """A tester: `--candidates -` was '-: No such file or directory', and gzip data piped into
    /dev/stdin was 'not UTF-8'. "-" reads standard input; gzip data is read as its content
    whatever the name (no UTF-8 text starts with its two bytes)."""
    import gzip

    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\nthe dog barked\n")
    hyp = b"the cat sat on a mat\na dog barked\n"
    runs = {}
    for name, data, path in (("file", None, str(tmp_path / "hyp.txt")), ("dash", hyp, "-"),
                             ("gzip", gzip.compress(hyp), "-"), ("stdin-gzip", gzip.compress(hyp), "/dev/stdin")):
        if data is None:
            (tmp_path / "hyp.txt").write_bytes(hyp)
        run = subprocess.run([sys.executable, "-m", "meteor_core", "corpus", "--candidates", path, "--references",
                              str(ref), "--json", "--workers", "1"], input=data, capture_output=True, timeout=300)
        assert run.returncode == 0, (name, run.stderr)
        runs[name] = [s["meteor"] for s in json.loads(run.stdout)["segments"]]
    assert runs["dash"] == runs["file"] == runs["gzip"] == runs["stdin-gzip"] and len(runs["file"]) == 2


def test_compare_in_nltk_mode_says_where_the_mean_of_segments_orders_otherwise(tmp_path, capsys):
    """A tester: the app said that nltk's usual number (the mean of segment scores) orders the
    systems the other way; `compare --mode nltk` ranked X first with no word (mean: Y first)."""
    from meteor_core.cli import main

    words = " ".join(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
    (tmp_path / "ref.txt").write_text(f"{words}\nyes\n", encoding="utf-8")
    (tmp_path / "X.txt").write_text(f"{words}\nno\n", encoding="utf-8")
    (tmp_path / "Y.txt").write_text("one two three four five\nyes\n", encoding="utf-8")
    note = "By that number (mean segment METEOR) the order is Y.txt, X.txt, not the rank shown."
    for mode, said in (("nltk", True), ("paper", False)):
        assert main(["compare", "--mode", mode, "--stages" if mode == "paper" else "--alpha",
                     "exact" if mode == "paper" else "0.9", "--references", str(tmp_path / "ref.txt"),
                     "--candidates", str(tmp_path / "X.txt"), str(tmp_path / "Y.txt")]) == 0
        out = capsys.readouterr().out
        assert [line.split()[1] for line in out.splitlines() if line[:5].strip() in ("1", "2")][:2] == ["X.txt", "Y.txt"]
        assert (note in out) == said, out


@pytest.mark.parametrize("command", ["corpus", "compare"])
def test_help_gives_the_exit_codes_and_the_limits(command, capsys):
    """A tester: the exit codes and the 1,000,000 bound on --resamples and --trials appeared only
    in an error. The exit codes are the ones the other tests here see (2 for a refused input)."""
    from meteor_core.cli import main

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "2 when an input or option is refused or no segment could be scored" in text
    if command == "compare":
        assert "paired bootstrap resamples, 1..1,000,000" in text and "randomization trials, 1..1,000,000" in text


def test_an_empty_stage_name_is_refused_and_a_missing_references_key_is_named(capsys, monkeypatch):
    """A tester: --stages "exact,,stem" ran exact and stem without a word, and a batch line
    without "references" was told they "must be a string or a list of strings"."""
    code, _, err = run(capsys, "score", "--candidate", "a", "--reference", "a", "--stages", "exact,,stem")
    assert code == 2 and "--stages 'exact,,stem' has an empty name between two commas" in err
    code, _, err = run(capsys, "score", "--candidate", "a", "--reference", "a", "--stages", "exact,stem,")
    assert code == 2 and "has an empty name at the end" in err  # it said "between commas": a tester
    code, _, err = run(capsys, "score", "--candidate", "a", "--reference", "a", "--stages", ",exact,,stem,")
    assert code == 2 and "has an empty name at the start, between two commas and at the end;" in err
    code, out, _ = run(capsys, "score", "--candidate", "a", "--reference", "a", "--stages", "exact, stem")
    assert code == 0 and "stages:exact+stem(porter)|" in out
    feed(monkeypatch, b'{"candidate": "a b"}\n')
    code, out, _ = run(capsys, "batch", "--no-bleu")
    assert json.loads(out)["error"] == 'line 1: "references" is missing: give a string or a list of strings'


def test_a_long_table_one_system_with_where_and_all_systems_with_system_column(tmp_path, capsys):
    """A long table (a row per system output, as WMT ships them): `corpus --where` scores one
    system's rows, `compare --system-column` pivots it as the app's System Comparison does, a
    system without a row for a segment said by its id."""
    from meteor_core import MeteorConfig, Scorer
    from meteor_core.cli import main

    outputs = {"A": ["the cat sat on the mat", "a dog barked", "it rains"],
               "B": ["the cat sat", "the dog barked loudly", "it is raining"]}
    refs = ["the cat sat on the mat", "the dog barked loudly", "it is raining"]
    rows = [f"cs-en\t{k}\t{name}\t{outputs[name][k]}\t{refs[k]}\n" for k in range(3) for name in outputs
            if (name, k) != ("B", 2)]
    path = tmp_path / "long.tsv"
    path.write_text("lp\tseg_id\tsystem\tcandidate\treference\n" + "".join(rows), encoding="utf-8")
    scorer = Scorer(MeteorConfig())
    expected_a = scorer.score_corpus(outputs["A"], [[r] for r in refs]).score
    assert main(["corpus", "--candidates", str(path), "--where", "system=A", "--where", "lp=cs-en"]) == 0
    assert f"corpus METEOR (summed statistics): {expected_a:.6f}" in capsys.readouterr().out
    assert main(["corpus", "--candidates", str(path)]) == 0  # all rows: said to mix the systems
    assert ("looks like a long table: the rows of 2 systems named in 'system' are scored as one corpus; one system: "
            "--where system=NAME; all compared: compare --system-column system") in capsys.readouterr().err
    # every output of the mixed corpus names its system beside its id (ids repeat across systems)
    assert main(["corpus", "--candidates", str(path), "--tsv"]) == 0
    table = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert table[0][:3] == ["id", "system", "meteor"] and [r[:2] for r in table[1:3]] == [["0", "A"], ["0", "B"]]
    assert main(["corpus", "--candidates", str(path), "--json"]) == 0
    assert [(s["id"], s["system"]) for s in json.loads(capsys.readouterr().out)["segments"]] == \
        [("0", "A"), ("0", "B"), ("1", "A"), ("1", "B"), ("2", "A")]
    assert main(["corpus", "--candidates", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].split()[:3] == ["id", "system", "METEOR"] and text[2].split()[:2] == ["0", "B"]
    assert main(["corpus", "--candidates", str(path), "--where", "system=A", "--tsv"]) == 0  # one system: no column
    assert "system" not in capsys.readouterr().out.splitlines()[0].split("\t")
    assert main(["corpus", "--candidates", str(path), "--where", "system=C"]) == 2
    assert "has 'system' = 'C' (its values: 'A', 'B')" in capsys.readouterr().err
    assert main(["corpus", "--candidates", str(path), "--where", "system"]) == 2
    assert "write it as COLUMN=VALUE" in capsys.readouterr().err
    assert main(["compare", "--candidates", str(path), "--system-column", "system", "--json", "--resamples", "100",
                 "--trials", "100"]) == 0
    captured = capsys.readouterr()
    assert "note: B has no row for 1 of the 3 segments (seg_id 2): they are left out" in captured.err
    systems = {s["system"]: s for s in json.loads(captured.out)["systems"]}
    assert systems["B"]["corpus_meteor"] == pytest.approx(scorer.score_corpus(outputs["B"][:2], [[r] for r in refs[:2]]).score)
    assert systems["A"]["segments"] == 2  # the segments both have
    assert main(["compare", "--candidates", str(path), "--system-column", "system", "--candidate-column", "A"]) == 2
    assert "only 'A' named in 'system'; a comparison needs two or more" in capsys.readouterr().err


def test_a_table_of_several_language_pairs_is_said_to_pool_them(tmp_path, capsys):
    """As the corpus pages take one pair at a time (an app tester found a wide table's pairs
    pooled without a word): corpus and compare on a table whose lp column names several pairs
    say so and how to take one; one pair chosen with --where, nothing is said."""
    from meteor_core.cli import main

    path = tmp_path / "wide.csv"
    path.write_text("id,lp,reference,sysA,sysB\n1,de-en,the cat sat,the cat sat,a cat\n2,de-en,a dog,the dog,a dog\n"
                    "1,fr-en,it rains,it is raining,it rains\n", encoding="utf-8")
    said = "holds 2 language pairs in 'lp' (de-en, fr-en), pooled in one corpus; one pair: --where lp=de-en"
    assert main(["corpus", "--candidates", str(path), "--candidate-column", "sysA"]) == 0
    assert f"note: {path} {said}" in capsys.readouterr().err
    assert main(["corpus", "--candidates", str(path), "--candidate-column", "sysA", "--where", "lp=de-en"]) == 0
    assert "language pairs" not in capsys.readouterr().err
    assert main(["compare", "--candidates", str(path), "--candidate-column", "sysA", "--candidate-column", "sysB",
                 "--resamples", "100", "--trials", "100"]) == 0
    assert capsys.readouterr().err.count(said) == 1  # once, not once per system


@pytest.mark.parametrize("append", [False, True])
def test_output_redirected_to_an_input_file_is_refused_saying_why(tmp_path, append):
    """A tester: `batch < x.jsonl > x.jsonl` (the shell empties x first) said only "the input is
    empty", and corpus the same of its table; with >> batch would read its own output. Refused,
    exit 2, saying why; another output file is fine."""
    line = json.dumps({"candidate": "a b", "references": ["a b"]}) + "\n"
    (tmp_path / "x.jsonl").write_text(line, encoding="utf-8")
    (tmp_path / "c.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a b\n", encoding="utf-8")
    mode = "ab" if append else "wb"
    said = ("the output is appended to the input file ({}): the command would read its own output as input; write "
            "the output to another file") if append else (
        "the output goes to the input file ({}): the shell emptied that file before this command started, so its "
        "lines are lost; write the output to another file")
    runs = [(["batch"], "x.jsonl", "x.jsonl", "standard input"),
            (["corpus", "--candidates", str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt")], None,
             "r.txt", str(tmp_path / "r.txt"))]
    for argv, stdin_name, output_name, named in runs:
        with open(tmp_path / output_name, mode) as out:
            stdin = open(tmp_path / stdin_name, "rb") if stdin_name else subprocess.DEVNULL
            try:
                proc = subprocess.run([sys.executable, "-m", "meteor_core", *argv], stdin=stdin, stdout=out,
                                      stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
            finally:
                if stdin_name:
                    stdin.close()
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.decode().splitlines()[-1] == "error: " + said.format(named)
        (tmp_path / "x.jsonl").write_text(line, encoding="utf-8")
        (tmp_path / "r.txt").write_text("a b\n", encoding="utf-8")
    if not append:  # opened for writing without emptying it (1<>x.jsonl): intact, said so (a tester)
        with open(tmp_path / "x.jsonl", "rb") as stdin, open(tmp_path / "x.jsonl", "r+b") as out:
            proc = subprocess.run([sys.executable, "-m", "meteor_core", "batch"], stdin=stdin, stdout=out,
                                  stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
        assert proc.returncode == 2 and proc.stderr.decode().splitlines()[-1] == (
            "error: the output goes to the input file (standard input): the command would write over its input as it "
            "reads it; write the output to another file")
        assert (tmp_path / "x.jsonl").read_text(encoding="utf-8") == line
    with open(tmp_path / "x.jsonl", "rb") as stdin, open(tmp_path / "out.jsonl", mode) as out:
        assert subprocess.run([sys.executable, "-m", "meteor_core", "batch"], stdin=stdin, stdout=out, cwd=ROOT,
                              timeout=120).returncode == 0
    assert json.loads((tmp_path / "out.jsonl").read_text())["score"] == 0.9375


def test_pairs_sharing_references_and_numbered_systems_in_corpus(tmp_path, capsys):
    """A tester: a wide table whose language pairs share their references had 'lp' taken for a
    long table's systems (its note, --where lp=NAME, a system column of pairs); a long JSONL of
    numbered systems ({"system": 1}) was read as one corpus without a word."""
    from meteor_core.cli import main

    rows = [(k, lp, ref, f"{ref} {lp}") for lp in ("de-en", "fr-en")
            for k, ref in enumerate(("the cat sat", "a dog ran", "it rains"), start=1)]
    (tmp_path / "shared.csv").write_text("id,lp,reference,sysA\n" + "".join(f"{k},{lp},{r},{a}\n" for k, lp, r, a in rows))
    assert main(["corpus", "--candidates", str(tmp_path / "shared.csv"), "--candidate-column", "sysA", "--tsv"]) == 0
    captured = capsys.readouterr()
    assert "holds 2 language pairs in 'lp'" in captured.err and "long table" not in captured.err
    assert captured.out.splitlines()[0].split("\t")[:2] == ["id", "meteor"]
    records = [{"id": k, "system": system, "candidate": ref if system == 1 else "a " + ref, "reference": ref}
               for k, ref in enumerate(("the cat sat", "a dog ran"), start=1) for system in (1, 2)]
    (tmp_path / "numbered.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["corpus", "--candidates", str(tmp_path / "numbered.jsonl"), "--tsv"]) == 0
    captured = capsys.readouterr()
    assert "the rows of 2 systems named in 'system' are scored as one corpus" in captured.err
    assert [line.split("\t")[1] for line in captured.out.splitlines()] == ["system", "1", "2", "1", "2"]
    assert main(["corpus", "--candidates", str(tmp_path / "numbered.jsonl"), "--where", "system=2", "--tsv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3  # header and system 2's two rows


def test_corpus_and_compare_name_the_reference_columns_they_found_when_several(tmp_path, capsys):
    """A tester: WMT's outputs.tsv has 'reference' and 'reference_alt'; corpus took both, 3,565 of
    cs-en's 17,376 segments differed from the jar's published scores (which used 'reference'), and
    nothing said which columns were used."""
    table = tmp_path / "outputs.tsv"
    table.write_text("seg_id\tsystem\tcandidate\treference\treference_alt\n"
                     "1\tA\tthe cat sat\tthe cat sat down\ta cat sat\n"
                     "1\tB\ta cat sat\tthe cat sat down\ta cat sat\n"
                     "2\tA\tthe dog ran\tthe dog ran off\ta dog ran\n"
                     "2\tB\tdog ran\tthe dog ran off\ta dog ran\n", encoding="utf-8")
    note = (f"note: {table}: each segment is scored against the 2 reference columns 'reference', 'reference_alt' "
            "and keeps its best; one column: --reference-column NAME (WMT's published METEOR 1.5 scores of "
            "outputs.tsv used 'reference' alone)")
    code, _, err = run(capsys, "corpus", "--candidates", str(table), "--where", "system=A")
    assert code == 0 and note in err.splitlines(), err
    code, _, err = run(capsys, "corpus", "--candidates", str(table), "--where", "system=A",
                       "--reference-column", "reference")
    assert code == 0 and "reference columns" not in err, err
    code, _, err = run(capsys, "compare", "--candidates", str(table), "--system-column", "system",
                       "--resamples", "10", "--trials", "10")
    assert code == 0 and note in err.splitlines(), err
