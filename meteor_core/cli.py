"""python -m meteor_core {score,batch,corpus,setup-wordnet,presets}"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from .errors import MeteorInputError, MeteorParameterError
from .params import (BUILTIN_STAGES, METEOR15_STAGES, MODES, OBJECTIVES, PRESETS, SMOOTHING_METHODS, MeteorConfig,
                     parse_weights, resolve_params)
from .report import explain, result_to_dict
from .scorer import Scorer
from .stages import SynonymTable


def _add_shared(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, default="paper",
                        help="paper (2005 definition), nltk (nltk's meteor_score), meteor15 (the METEOR 1.5 jar, "
                             "-l en -norm)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="crossings",
                        help="paper mode's tie-break after maximum matches: fewest crossings or fewest chunks")
    parser.add_argument("--stages", help=f"comma-separated; default {','.join(BUILTIN_STAGES)} "
                                         f"(meteor15: the jar's -m, default {','.join(METEOR15_STAGES)})")
    parser.add_argument("--preset", choices=sorted(PRESETS),
                        help="parameter set; default 2005 (nltk mode: nltk, meteor15 mode: meteor-1.5-en)")
    parser.add_argument("--alpha", type=float)
    parser.add_argument("--beta", type=float)
    parser.add_argument("--gamma", type=float)
    parser.add_argument("--delta", type=float,
                        help="meteor15: weight of content vs function words (the jar's 4th -p value, default 0.75)")
    parser.add_argument("--weights", help="meteor15: module weights like the jar's -w, one per module "
                                          "(default: the first of 1.0 0.6 0.8 0.6 by position)")
    parser.add_argument("--lang", default="en", help="language code (python -m meteor_core languages)")
    parser.add_argument("--tokenizer", choices=("default", "whitespace", "char", "segmenter"), default="default",
                        help="default: words and punctuation (characters for zh/ja); segmenter: jieba (zh) / janome (ja)")
    parser.add_argument("--keep-case", action="store_true")
    parser.add_argument("--drop-punctuation", action="store_true")
    parser.add_argument("--zero-penalty-single-chunk", action="store_true",
                        help="METEOR 1.5 convention: no penalty when every word matches in one chunk")
    parser.add_argument("--synonyms", metavar="FILE", action="append", default=[],
                        help="CSV/TSV synonym table (one group per row), added as a stage after the built-in ones")
    parser.add_argument("--bleu-smoothing", choices=SMOOTHING_METHODS, default="none")
    parser.add_argument("--node-budget", type=int, default=MeteorConfig().node_budget)


def _scorer(args) -> Scorer:
    params = resolve_params(args.mode, args.preset, args.alpha, args.beta, args.gamma, args.delta)
    tables = [SynonymTable.from_file(path) for path in args.synonyms]
    stages = None
    if args.stages is not None:
        stages = tuple(s for s in args.stages.replace(",", " ").split())
    if args.mode == "paper" and tables:
        stages = (stages or BUILTIN_STAGES) + tuple(f"table:{t.name}" for t in tables)
    if args.weights is not None and args.mode != "meteor15":
        raise MeteorParameterError("--weights sets METEOR 1.5 module weights: use --mode meteor15")
    config = MeteorConfig(
        mode=args.mode, objective=args.objective, stages=stages, params=params,
        tokenizer=args.tokenizer, keep_case=args.keep_case, drop_punctuation=args.drop_punctuation,
        zero_penalty_single_chunk=args.zero_penalty_single_chunk, node_budget=args.node_budget,
        bleu_smoothing=args.bleu_smoothing, language=args.lang,
        weights=parse_weights(args.weights) if args.weights is not None else None)
    return Scorer(config, tables)


def _cmd_score(args) -> int:
    scorer = _scorer(args)
    result = scorer.score(args.candidate, args.reference)
    if args.json:
        print(json.dumps(result_to_dict(result), ensure_ascii=False))
    else:
        print(explain(result))
    return 0


def _cmd_batch(args) -> int:
    scorer = _scorer(args)
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            print(json.dumps({"error": f"line {number}: empty line"}))
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict) or not isinstance(item.get("candidate"), str):
                raise MeteorInputError('expected {"candidate": str, "references": [str, ...]}')
            refs = item.get("references")
            if isinstance(refs, str) or not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
                raise MeteorInputError('"references" must be a list of strings')
            out = result_to_dict(scorer.score(item["candidate"], refs))
        except json.JSONDecodeError as error:
            out = {"error": f"line {number}: not valid JSON ({error.msg})"}
        except (MeteorInputError, MeteorParameterError) as error:
            out = {"error": f"line {number}: {error}"}
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0


class _Progress:
    def __init__(self, total: int, stream=sys.stderr, min_total: int = 50):
        self.stream = stream
        self.enabled = total >= min_total
        self.step = max(1, total // 100)

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or (done % self.step and done != total):
            return
        width = 30
        filled = width * done // total
        self.stream.write(f"\rscoring [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _cmd_corpus(args) -> int:
    from .corpus import analyze_corpus
    from .corpus_io import read_corpus_files
    from .report import segment_to_dict

    data = read_corpus_files(args.candidates, args.references, args.candidate_column,
                             args.reference_column or None, args.id_column, args.human_column)
    scorer = _scorer(args)
    analysis = analyze_corpus(data, scorer.config, progress=_Progress(len(data.candidates)))
    summary = analysis.summary()
    for problem in summary["not_scored"]:
        print(f"not scored: {problem}", file=sys.stderr)
    columns = ["id", "meteor", "bleu", "precision", "recall", "penalty", "chunks", "matches",
               "candidate_length", "reference_length", "best_reference", "optimal"]
    rows = analysis.rows
    if args.json:
        segments = [{**{k: row[k] for k in columns},
                     **{k: v for k, v in segment_to_dict(seg.best).items()
                        if k in ("alignment", "chunk_spans", "matches_by_stage")}}
                    for row, seg in zip(rows, analysis.corpus.segments)]
        print(json.dumps({"segments": segments, "corpus": summary}, ensure_ascii=False))
    elif args.tsv:
        print("\t".join(columns))
        for row in rows:
            print("\t".join(f"{row[k]:.6f}" if isinstance(row[k], float) else str(row[k]) for k in columns))
    else:
        print(f"{'id':>6} {'METEOR':>8} {'BLEU':>8} {'P':>6} {'R':>6} {'pen':>6} {'ch':>4} {'m':>4}")
        for r in rows:
            print(f"{r['id']:>6} {r['meteor']:8.4f} {r['bleu']:8.4f} {r['precision']:6.3f} {r['recall']:6.3f} "
                  f"{r['penalty']:6.3f} {r['chunks']:4d} {r['matches']:4d}")
        print()
        print(f"corpus METEOR (summed statistics): {summary['corpus_meteor']:.6f}")
        print(f"mean of segment METEOR:            {summary['mean_segment_meteor']:.6f}")
        print(f"corpus BLEU:                       {summary['corpus_bleu']:.6f}")
        print(f"matches by stage: {summary['matches_by_stage']}")
        for c in analysis.correlations:
            print(f"{c.metric} vs human: Pearson {c.pearson}, Spearman {c.spearman}, Kendall tau-b {c.kendall_tau_b}")
        print(f"signature: {summary['signature']}")
    return 0


def _cmd_setup_wordnet(args) -> int:
    from .wordnet import install_wordnet

    status = install_wordnet(log=lambda m: print(m, file=sys.stderr))
    return 0 if status.available else 1


def _cmd_setup_meteor15(args) -> int:
    from pathlib import Path

    from .meteor15.data import install

    try:
        status = install(Path(args.data_dir) if args.data_dir else None, Path(args.wheel) if args.wheel else None,
                         with_jar=args.with_jar, log=lambda m: print(m, file=sys.stderr))
    except (OSError, RuntimeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0 if status.available else 1


def _cmd_languages(args) -> int:
    from .languages import capabilities

    rows = capabilities()
    print(f"{'code':6s} {'language':22s} {'stemmer':28s} {'synonyms':48s} tokenizers")
    for r in rows:
        print(f"{r.code:6s} {r.name:22s} {r.stemmer:28s} {r.synonyms:48s} {r.tokenizers}")
    return 0


def _cmd_presets(args) -> int:
    for key, preset in PRESETS.items():
        p = preset.params
        delta = f" delta={p.delta:g}" if p.delta is not None else ""
        print(f"{key:20s} alpha={p.alpha:g} beta={p.beta:g} gamma={p.gamma:g}{delta}  {preset.label}: {preset.source}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m meteor_core", description="METEOR with its alignment explained")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score one candidate against references and explain")
    p.add_argument("--candidate", required=True)
    p.add_argument("--reference", action="append", required=True)
    p.add_argument("--json", action="store_true")
    _add_shared(p)
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("batch", help='JSON lines {"candidate": str, "references": [str]} on stdin -> one result per line')
    _add_shared(p)
    p.set_defaults(func=_cmd_batch)
    p = sub.add_parser("corpus", help="score a corpus (plain text lines, or TSV/CSV/JSONL columns)")
    p.add_argument("--candidates", required=True)
    p.add_argument("--references", action="append", default=[])
    p.add_argument("--candidate-column", default="candidate")
    p.add_argument("--reference-column", action="append", default=[])
    p.add_argument("--id-column")
    p.add_argument("--human-column", help="human scores to correlate with (Pearson, Spearman, Kendall tau-b)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true")
    out.add_argument("--tsv", action="store_true")
    _add_shared(p)
    p.set_defaults(func=_cmd_corpus)
    p = sub.add_parser("setup-wordnet", help="make WordNet 3.0 available offline (Debian packages) or via nltk.download")
    p.set_defaults(func=_cmd_setup_wordnet)
    p = sub.add_parser("setup-meteor15", help="fetch METEOR 1.5's data (pip download pycocoevalcap==1.2) and convert "
                                              "it for meteor15 mode")
    p.add_argument("--data-dir", help="where to put it (default: $METEOR15_DATA or ~/.local/share/meteor-lens/meteor15)")
    p.add_argument("--wheel", help="use this pycocoevalcap-1.2 wheel instead of downloading it")
    p.add_argument("--with-jar", action="store_true", help="also keep the original jar (the tests' oracle; needs Java)")
    p.set_defaults(func=_cmd_setup_meteor15)
    p = sub.add_parser("languages", help="per language: tokenizer, stemmer, synonym source available here")
    p.set_defaults(func=_cmd_languages)
    p = sub.add_parser("presets", help="list parameter presets")
    p.set_defaults(func=_cmd_presets)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (MeteorInputError, MeteorParameterError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
