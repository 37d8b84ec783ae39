"""Streamlit glue shared by the pages: inputs <-> query parameters, cached core calls, and
renderers. No scoring here: every number comes from meteor_core."""
from __future__ import annotations

import json
from typing import Optional

import streamlit as st

from meteor_core import (BUILTIN_STAGES, PRESETS, SMOOTHING_METHODS, MeteorConfig, MeteorInputError,
                         MeteorParameterError, MeteorParams)
from meteor_core.explore import Exploration, explore
from meteor_core.languages import LANGUAGES as ALL_LANGUAGES
from meteor_core.languages import capabilities
from meteor_core.report import result_to_dict
from meteor_core.result import SegmentResult
from meteor_core.wordnet import wordnet_status

from . import figures
from .examples import BY_KEY, EXAMPLES

DEFAULT_EXAMPLE = BY_KEY["coupon"]
LANGUAGES = {code: lang.name for code, lang in ALL_LANGUAGES.items()}
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "filename": "meteor-alignment", "scale": 2}}


# -- state ------------------------------------------------------------------------------
def _init_state() -> None:
    """First run of a session: take the inputs from the URL (shareable state)."""
    ss = st.session_state
    if ss.get("_initialized"):
        return
    qp = st.query_params
    ss.cand = qp.get("cand", DEFAULT_EXAMPLE.candidate)
    refs = qp.get_all("ref") or list(DEFAULT_EXAMPLE.references)
    ss.refs = "\n".join(refs)
    ss.mode = qp.get("mode", "paper") if qp.get("mode") in ("paper", "nltk") else "paper"
    ss.objective = qp.get("objective", "crossings") if qp.get("objective") in ("crossings", "chunks") else "crossings"
    stages = [s for s in qp.get("stages", ",".join(BUILTIN_STAGES)).split(",") if s in BUILTIN_STAGES]
    ss.stages = stages or list(BUILTIN_STAGES)
    ss.lang = qp.get("lang", "en") if qp.get("lang", "en") in LANGUAGES else "en"
    if qp.get("lang") and qp.get("lang") not in LANGUAGES:
        ss.setdefault("_url_problems", []).append(f"lang={qp.get('lang')!r} is not a supported language; using en")
    ss.tok = qp.get("tok", "default") if qp.get("tok") in TOKENIZERS else "default"
    ss.preset = "2005"
    for name, default in (("alpha", 0.9), ("beta", 3.0), ("gamma", 0.5)):
        try:
            ss[name] = float(qp.get(name, default))
        except ValueError:
            ss[name] = default
            ss.setdefault("_url_problems", []).append(f"{name}={qp.get(name)!r} is not a number; using {default}")
    ss.keep_case = False
    ss.zero_pen = False
    ss.smoothing = "none"
    ss._initialized = True


def _load_example() -> None:
    example = BY_KEY.get(st.session_state.example)
    if example is not None:
        st.session_state.cand = example.candidate
        st.session_state.refs = "\n".join(example.references)
        st.session_state.lang = example.language


def _apply_preset() -> None:
    p = PRESETS[st.session_state.preset].params
    st.session_state.alpha, st.session_state.beta, st.session_state.gamma = p.alpha, p.beta, p.gamma


def _write_query_params(references: list[str]) -> None:
    ss = st.session_state
    st.query_params.from_dict({
        "cand": ss.cand, "ref": references, "mode": ss.mode, "objective": ss.objective,
        "stages": ",".join(ss.stages), "alpha": f"{ss.alpha:g}", "beta": f"{ss.beta:g}",
        "gamma": f"{ss.gamma:g}", "lang": ss.lang, "tok": ss.tok})


# -- inputs -----------------------------------------------------------------------------
def segment_inputs(with_text: bool = True, segment_page: bool = True) -> tuple[str, list[str], Optional[MeteorConfig]]:
    """Sidebar settings and (optionally) the text inputs. Returns (candidate, references, config);
    config is None when a setting is invalid (the message is already on the page)."""
    _init_state()
    ss = st.session_state
    for problem in ss.pop("_url_problems", []):
        st.warning(f"Link parameter ignored: {problem}")
    with st.sidebar:
        if segment_page:
            st.selectbox("Worked example", ["—"] + [e.key for e in EXAMPLES], key="example", on_change=_load_example,
                         format_func=lambda k: "choose one…" if k == "—" else BY_KEY[k].label)
        st.radio("Mode", ("paper", "nltk"), key="mode", horizontal=True,
                 help="paper: Banerjee & Lavie 2005 with exact search. nltk: reproduces nltk's meteor_score.")
        st.radio("Alignment objective", ("crossings", "chunks"), key="objective", horizontal=True,
                 format_func=lambda o: "fewest crossings" if o == "crossings" else "fewest chunks (METEOR 1.5)",
                 disabled=ss.mode == "nltk")
        st.multiselect("Stages", list(BUILTIN_STAGES), key="stages", disabled=ss.mode == "nltk",
                       help="Each stage matches only words no earlier stage matched.")
        status = _wordnet_status()
        if not status.available:
            st.warning(f"Synonym stage unavailable: {status.message}")
        st.selectbox("Language", list(LANGUAGES), key="lang", format_func=lambda c: f"{LANGUAGES[c]} ({c})",
                     help="English: Porter stems and WordNet, as the paper. Others: Snowball stems; synonyms "
                          "where a thesaurus is installed. See 'What each language gets'.")
        st.selectbox("Tokenizer", TOKENIZERS, key="tok",
                     help="default: words and punctuation (characters for Chinese and Japanese); "
                          "segmenter: jieba (zh) or janome (ja) word segmentation")
        with st.expander("What each language gets"):
            show_capabilities()
        st.checkbox("Keep case", key="keep_case")
        st.selectbox("Parameter preset", list(PRESETS), key="preset", on_change=_apply_preset,
                     format_func=lambda k: PRESETS[k].label)
        c1, c2, c3 = st.columns(3)
        c1.number_input("alpha", 0.0, 1.0, key="alpha", step=0.05, format="%.2f")
        c2.number_input("beta", 0.0, 20.0, key="beta", step=0.5, format="%.2f")
        c3.number_input("gamma", 0.0, 1.0, key="gamma", step=0.05, format="%.2f")
        st.checkbox("No penalty when everything matches in one chunk (METEOR 1.5)", key="zero_pen")
        st.selectbox("BLEU smoothing", SMOOTHING_METHODS, key="smoothing")
    if with_text:
        st.text_area("Candidate (system output)", key="cand", height=80)
        st.text_area("References (one per line; add or remove lines)", key="refs", height=100)
    references = [line for line in ss.refs.split("\n") if line.strip()]
    if segment_page:
        _write_query_params(references)
    try:
        config = MeteorConfig(
            mode=ss.mode, objective=ss.objective,
            stages=tuple(s for s in BUILTIN_STAGES if s in ss.stages) if ss.mode == "paper" else BUILTIN_STAGES,
            params=MeteorParams(float(ss.alpha), float(ss.beta), float(ss.gamma)), tokenizer=ss.tok,
            keep_case=ss.keep_case, zero_penalty_single_chunk=ss.zero_pen, bleu_smoothing=ss.smoothing,
            language=ss.lang)
    except MeteorParameterError as error:
        st.error(f"Settings: {error}")
        return ss.cand, references, None
    return ss.cand, references, config


TOKENIZERS = ("default", "whitespace", "char", "segmenter")


@st.cache_data(show_spinner=False, ttl=300)
def _capability_rows() -> list[dict]:
    return [{"code": c.code, "language": c.name, "stemmer": c.stemmer, "synonyms": c.synonyms,
             "tokenizers": c.tokenizers} for c in capabilities()]


def show_capabilities() -> None:
    """Per language, what this machine really has (stemmer, synonym source, tokenizers)."""
    st.dataframe(_capability_rows(), hide_index=True, width="stretch")


# -- core calls, cached -----------------------------------------------------------------
@st.cache_resource(show_spinner="Loading WordNet…")
def _wordnet_status():
    return wordnet_status()


@st.cache_data(show_spinner=False, max_entries=256)
def cached_explore(candidate: str, references: tuple[str, ...], config: MeteorConfig) -> Exploration:
    return explore(candidate, list(references), config)


def run_explore(candidate: str, references: list[str], config: MeteorConfig) -> Optional[Exploration]:
    if not references:
        st.info("Add at least one reference.")
        return None
    try:
        return cached_explore(candidate, tuple(references), config)
    except (MeteorInputError, MeteorParameterError) as error:
        st.error(str(error))
        return None


# -- renderers --------------------------------------------------------------------------
def show_diagram(result: SegmentResult, key: str, title: str = "", highlight=(), links=None) -> None:
    fig = figures.alignment_diagram(result, title=title, highlight=highlight, links=links)
    image_format = st.session_state.get("image_format", "png")
    config = {**PLOTLY_CONFIG, "toImageButtonOptions": {**PLOTLY_CONFIG["toImageButtonOptions"], "format": image_format}}
    st.plotly_chart(fig, width="content", config=config, key=key)


def show_warnings(result: SegmentResult) -> None:
    for warning in result.warnings:
        st.warning(warning)


def show_breakdown(result: SegmentResult, key: str = "breakdown-chart", compact: bool = False) -> None:
    b, s, p = result.breakdown, result.stats, result.config.params
    if compact:
        cols = st.columns(4)
        for col, (label, value) in zip(cols, (("METEOR", f"{b.score:.4f}"), ("P / R", f"{b.precision:.3f} / {b.recall:.3f}"),
                                              ("chunks / m", f"{s.chunks} / {s.matches}"), ("penalty", f"{b.penalty:.4f}"))):
            col.metric(label, value)
        return
    row1 = st.columns(5)
    for col, (label, value) in zip(row1, (("METEOR", f"{b.score:.4f}"), ("matches m", s.matches),
                                          ("chunks c", s.chunks), ("candidate length", s.candidate_length),
                                          ("reference length", s.reference_length))):
        col.metric(label, value)
    row2 = st.columns(5)
    for col, (label, value) in zip(row2, (("precision P", f"{b.precision:.4f}"), ("recall R", f"{b.recall:.4f}"),
                                          ("Fmean", f"{b.fmean:.4f}"), ("fragmentation c/m", f"{b.fragmentation:.4f}"),
                                          ("penalty", f"{b.penalty:.4f}"))):
        col.metric(label, value)
    if s.matches == 0:
        st.info(b.note)
        return
    left, right = st.columns([3, 2])
    with left:
        st.latex(rf"P = \frac{{m}}{{|cand|}} = \frac{{{s.matches}}}{{{s.candidate_length}}} = {b.precision:.4f}"
                 rf"\qquad R = \frac{{m}}{{|ref|}} = \frac{{{s.matches}}}{{{s.reference_length}}} = {b.recall:.4f}")
        st.latex(rf"F_{{mean}} = \frac{{P\,R}}{{\alpha P + (1-\alpha) R}} = \frac{{{b.precision:.4f}\cdot{b.recall:.4f}}}"
                 rf"{{{p.alpha:g}\cdot{b.precision:.4f} + {1 - p.alpha:g}\cdot{b.recall:.4f}}} = {b.fmean:.4f}")
        st.latex(rf"\text{{frag}} = \frac{{c}}{{m}} = \frac{{{s.chunks}}}{{{s.matches}}} = {b.fragmentation:.4f}")
        st.latex(rf"\text{{Penalty}} = \gamma\,\text{{frag}}^{{\beta}} = {p.gamma:g}\cdot{b.fragmentation:.4f}^{{{p.beta:g}}} = {b.penalty:.4f}")
        st.latex(rf"\text{{METEOR}} = F_{{mean}}\,(1-\text{{Penalty}}) = {b.fmean:.4f}\cdot{1 - b.penalty:.4f} = {b.score:.4f}")
        if b.note:
            st.caption(b.note)
        st.caption("Where people go wrong: recall carries 9x the weight of precision with alpha = 0.9 "
                   "(Fmean = 10PR/(R+9P)); the penalty divides chunks by the *matched* unigrams, not the "
                   "candidate length; with the 2005 parameters the penalty cuts at most 50%.")
    with right:
        st.plotly_chart(figures.score_breakdown_chart(result), width="stretch", key=key)


def show_bleu(exploration: Exploration) -> None:
    bleu = exploration.bleu
    st.metric("BLEU", f"{bleu.score:.4f}")
    st.caption(f"Smoothing: {bleu.smoothing} (sacrebleu: {bleu.sacrebleu_equivalent}). Same lowercased tokens as METEOR.")
    rows = [{"order": f"{o.n}-gram", "matched": o.matched, "total": o.total, "precision": round(o.precision, 4)}
            for o in bleu.orders]
    st.dataframe(rows, hide_index=True, width="stretch")
    st.write(f"Brevity penalty **{bleu.brevity_penalty:.4f}** (candidate {bleu.candidate_length} tokens, "
             f"closest reference {bleu.reference_length}).")
    if bleu.zero_reason:
        st.warning(f"BLEU is 0: {bleu.zero_reason}")
    st.plotly_chart(figures.bleu_coverage(exploration.result.best.candidate_tokens, bleu),
                    width="content", key="bleu-coverage")


def export_json(exploration: Exploration) -> None:
    data = result_to_dict(exploration.result, exploration.bleu)
    st.download_button("Download result (JSON)", json.dumps(data, ensure_ascii=False, indent=1),
                       file_name="meteor-result.json", mime="application/json")
