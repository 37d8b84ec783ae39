import io
import json

import pytest

from meteor_core.cli import main

FIELDS = {"score", "precision", "recall", "fmean", "penalty", "fragmentation", "chunks", "matches",
          "crossings", "optimal", "candidate_tokens", "reference_tokens", "best_reference", "references",
          "alignment", "chunk_spans", "bleu", "signature"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_schema(capsys):
    code, out, _ = run(capsys, "score", "--candidate", "the cat sat on a mat", "--reference", "the cat sat on the mat",
                       "--reference", "a cat is on the mat", "--stages", "exact,stem", "--json")
    assert code == 0
    data = json.loads(out)
    assert FIELDS <= set(data)
    assert len(data["references"]) == 2 and FIELDS - {"best_reference", "references", "bleu", "signature"} <= set(data["references"][0])
    assert data["best_reference"] == 0
    assert data["alignment"][0] == {"candidate": 0, "reference": 0, "stage": "exact", "evidence": "the"}
    assert data["chunk_spans"][0] == {"candidate": [0, 4], "reference": [0, 4]}
    assert {"score", "precisions", "brevity_penalty"} <= set(data["bleu"])
    assert data["signature"].startswith("meteor-lens:")


def test_score_text_explains_formula(capsys):
    code, out, _ = run(capsys, "score", "--candidate", "o cupom vale só até domingo",
                       "--reference", "o cupom vale para toda a loja até domingo", "--stages", "exact")
    assert code == 0
    assert "METEOR 0.556322" in out and "P = m/|cand| = 5/6" in out and "0.5*(2/5)^3" in out
    assert "BLEU is 0" in out


def test_batch_keeps_order_and_reports_bad_lines_in_place(capsys, monkeypatch):
    lines = [
        json.dumps({"candidate": "the cat", "references": ["the cat"]}),
        "not json",
        json.dumps({"candidate": "   ", "references": ["x"]}),
        json.dumps({"candidate": "a dog", "references": "a dog"}),
        "",
        json.dumps({"candidate": "a dog", "references": ["the dog", "a dog"]}),
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(capsys, "batch", "--stages", "exact")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 6
    assert rows[0]["score"] == pytest.approx(1 - 0.5 / 8)
    assert "line 2" in rows[1]["error"] and "JSON" in rows[1]["error"]
    assert "line 3" in rows[2]["error"] and "empty" in rows[2]["error"]
    assert "list of strings" in rows[3]["error"]
    assert "line 5" in rows[4]["error"]
    assert rows[5]["best_reference"] == 1


def test_corpus_plain_and_mismatch(tmp_path, capsys):
    cands = tmp_path / "cand.txt"
    refs = tmp_path / "ref.txt"
    cands.write_text("the cat sat\na dog\n", encoding="utf-8")
    refs.write_text("the cat sat\nthe dog\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(cands), "--references", str(refs), "--stages", "exact", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["segments"]) == 2
    assert data["corpus"]["matches"] == 4 and data["corpus"]["chunks"] == 2
    refs.write_text("only one line\n", encoding="utf-8")
    code, _, err = run(capsys, "corpus", "--candidates", str(cands), "--references", str(refs))
    assert code == 2 and "cand.txt has 2 lines" in err and "ref.txt has 1" in err


def test_corpus_tsv_columns(tmp_path, capsys):
    data = tmp_path / "data.tsv"
    data.write_text("id\tcandidate\treference\treference_2\ns1\tthe cat\tthe cat\ta cat\n", encoding="utf-8")
    code, out, _ = run(capsys, "corpus", "--candidates", str(data), "--id-column", "id", "--tsv", "--stages", "exact")
    assert code == 0
    header, row = out.strip().split("\n")
    assert header.startswith("id\tmeteor") and row.startswith("s1\t0.937500")


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
