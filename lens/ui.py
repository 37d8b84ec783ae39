"""Streamlit glue shared by the pages: settings <-> links (query parameters), cached core calls,
and renderers. No scoring here: every number comes from meteor_core.

Settings live in session state under `v_<name>` (the values in effect); widgets use their own
keys `w_<name>` and copy their value over on change. So a setting keeps its value while its
widget is not drawn (on another page, or behind the "Options and parameters" toggle), and the
pages draw only what is visible.

User text (candidate, references, tokens, evidence, link values) is always shown as text:
`md_escape` for anything Streamlit renders as markdown, `figures.esc` inside Plotly figures."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import streamlit as st

from meteor_core import (BUILTIN_STAGES, PRESETS, SMOOTHING_METHODS, MeteorConfig, MeteorInputError,
                         MeteorParameterError, MeteorParams)
from meteor_core.explore import Exploration, explore
from meteor_core.languages import LANGUAGES as ALL_LANGUAGES
from meteor_core.languages import capabilities
from meteor_core.methods import METHODS, describe
from meteor_core.params import MODES, OBJECTIVES
from meteor_core.report import result_to_dict
from meteor_core.result import SegmentResult
from meteor_core.tokenize import TOKENIZERS
from meteor_core.wordnet import wordnet_status

from . import figures
from .examples import BY_KEY, DEFAULT_EXAMPLE, EXAMPLES

LANGUAGES = {code: lang.name for code, lang in ALL_LANGUAGES.items()}
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "filename": "meteor-alignment", "scale": 2}}
NO_EXAMPLE = "—"


# -- text -----------------------------------------------------------------------------------
_MARKDOWN_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
#: GFM turns bare URLs and e-mail addresses into links after parsing, escapes or not: a word
#: joiner (U+2060, invisible) inside "://", after "www" and after "@" keeps them plain text.
_AUTOLINK_START = re.compile(r"(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def md_escape(text: object) -> str:
    """Text for a Streamlit element that renders markdown, shown exactly as typed: every ASCII
    punctuation character is backslash-escaped (CommonMark allows it for all of them), so no
    link, image, emphasis, HTML, entity, LaTeX ($), emoji or colour directive (:red[...]) can
    form, and autolinks are broken by an invisible word joiner. Line breaks stay line breaks."""
    text = _AUTOLINK_START.sub(WORD_JOINER, str(text))
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


# -- links: query parameters checked with the core's own rules -------------------------------
DEFAULT_CONFIG = MeteorConfig()
DEFAULTS: dict[str, str] = {
    "mode": DEFAULT_CONFIG.mode, "objective": DEFAULT_CONFIG.objective, "stages": ",".join(DEFAULT_CONFIG.stages),
    "alpha": repr(DEFAULT_CONFIG.params.alpha), "beta": repr(DEFAULT_CONFIG.params.beta),
    "gamma": repr(DEFAULT_CONFIG.params.gamma), "lang": DEFAULT_CONFIG.language, "tok": DEFAULT_CONFIG.tokenizer,
}
TEXT_PARAMETERS = ("cand", "ref")


@dataclass(frozen=True)
class LinkProblem:
    """A link parameter that was not used, why, and what is used instead."""

    parameter: str
    value: str
    reason: str
    used: str  # the default used instead ("" for an unknown parameter)

    @property
    def message(self) -> str:
        if not self.used:
            return f"Link parameter {self.parameter}={self.value!r} ignored: {self.reason}."
        return (f"Link parameter {self.parameter}={self.value!r} not used: {self.reason}. "
                f"Using the default {self.parameter}={self.used} instead.")


def _check_one(name: str, raw: str, language: str) -> object:
    """The value a link parameter stands for, validated by the core (MeteorParams,
    MeteorConfig); raises MeteorParameterError with the core's message."""
    if name in ("alpha", "beta", "gamma"):
        try:
            value = float(raw)
        except ValueError:
            raise MeteorParameterError(f"{name} must be a number, got {raw!r}") from None
        MeteorParams(**{name: value})
        return value
    if name == "mode":
        if raw not in METHODS:  # a mode the core knows but the app cannot explain yet is not offered
            offered = ", ".join(m for m in MODES if m in METHODS)
            raise MeteorParameterError(f"mode must be one of {offered}, got {raw!r}")
        return MeteorConfig(mode=raw).mode
    if name == "objective":
        return MeteorConfig(objective=raw).objective
    if name == "stages":
        stages = tuple(s.strip() for s in raw.split(",") if s.strip())
        MeteorConfig(stages=stages)
        extra = [s for s in stages if s not in BUILTIN_STAGES]
        if extra:
            raise MeteorParameterError(f"{extra[0]!r}: user synonym tables are a command-line option "
                                       f"(--synonyms); the app offers {', '.join(BUILTIN_STAGES)}")
        return list(stages)
    if name == "lang":
        return MeteorConfig(language=raw).language  # aliases resolve as in the CLI: pt -> pt-BR
    if name == "tok":
        return MeteorConfig(tokenizer=raw, language=language).tokenizer
    raise KeyError(name)


def read_link(params: Mapping[str, Sequence[str]]) -> tuple[dict, tuple[LinkProblem, ...]]:
    """Settings from a link's query parameters (`name -> values`, last value wins). Every value
    goes through the core's validation; a rejected one is replaced by the default and reported,
    never clamped or dropped silently."""
    settings: dict = {}
    problems: list[LinkProblem] = []
    for name, values in params.items():
        if name not in DEFAULTS and name not in TEXT_PARAMETERS:
            problems.append(LinkProblem(name, values[-1] if values else "", "not a parameter of this app", ""))
    if params.get("cand"):
        settings["cand"] = params["cand"][-1]
    if params.get("ref"):
        settings["refs"] = list(params["ref"])
    language = DEFAULT_CONFIG.language
    for name in ("lang", "mode", "objective", "stages", "alpha", "beta", "gamma", "tok"):  # lang first: tok needs it
        if not params.get(name):
            continue
        raw = params[name][-1]
        try:
            settings[name] = _check_one(name, raw, language)
        except MeteorParameterError as error:
            problems.append(LinkProblem(name, raw, str(error), DEFAULTS[name]))
            continue
        if name == "lang":
            language = settings["lang"]
    # Rules across parameters (nltk mode is English only): the mode yields, the language stays.
    try:
        MeteorConfig(mode=settings.get("mode", DEFAULT_CONFIG.mode), language=language)
    except MeteorParameterError as error:
        problems.append(LinkProblem("mode", settings.pop("mode"), str(error), DEFAULTS["mode"]))
    return settings, tuple(problems)


def _query_params() -> dict[str, list[str]]:
    return {name: st.query_params.get_all(name) for name in st.query_params.keys()}


# -- state ----------------------------------------------------------------------------------
SETTING_DEFAULTS = {
    "cand": DEFAULT_EXAMPLE.candidate, "refs": "\n".join(DEFAULT_EXAMPLE.references), "example": DEFAULT_EXAMPLE.key,
    "mode": DEFAULT_CONFIG.mode, "objective": DEFAULT_CONFIG.objective, "stages": list(DEFAULT_CONFIG.stages),
    "lang": DEFAULT_EXAMPLE.language, "tok": DEFAULT_CONFIG.tokenizer, "keep_case": DEFAULT_CONFIG.keep_case,
    "preset": "2005", "alpha": DEFAULT_CONFIG.params.alpha, "beta": DEFAULT_CONFIG.params.beta,
    "gamma": DEFAULT_CONFIG.params.gamma, "zero_pen": DEFAULT_CONFIG.zero_penalty_single_chunk,
    "smoothing": DEFAULT_CONFIG.bleu_smoothing,
}


def _v(name: str):
    return st.session_state[f"v_{name}"]


def _set(name: str, value) -> None:
    st.session_state[f"v_{name}"] = value


def _init_state() -> None:
    """First run of a session: the settings come from the link (shareable state)."""
    ss = st.session_state
    if ss.get("_initialized"):
        return
    for name, value in SETTING_DEFAULTS.items():
        _set(name, list(value) if isinstance(value, list) else value)
    settings, problems = read_link(_query_params())
    if "cand" in settings or "refs" in settings:
        _set("example", NO_EXAMPLE)
        _set("lang", DEFAULT_CONFIG.language)
    for name, value in settings.items():
        _set(name, "\n".join(value) if name == "refs" else value)
    ss["_link_problems"] = problems
    ss["_initialized"] = True


def _sync(name: str) -> None:
    value = st.session_state[f"w_{name}"]
    if name == "stages":  # in pipeline order, whatever order they were clicked in
        value = [s for s in BUILTIN_STAGES if s in value]
    _set(name, value)


def _widget(factory, label: str, name: str, on_change=None, **kwargs):
    """A widget showing setting `name`; its changes are copied back to the setting (by
    `on_change` when given: it must call _sync(name) itself)."""
    ss = st.session_state
    key = f"w_{name}"
    if ss.get(key) != _v(name):  # the setting changed elsewhere (example, preset, link): show it
        ss[key] = _v(name)
    if on_change is None:
        return factory(label, key=key, on_change=_sync, args=(name,), **kwargs)
    return factory(label, key=key, on_change=on_change, **kwargs)


def reset_how_step() -> None:
    st.session_state.pop("w_how_step", None)


def _load_example() -> None:
    _sync("example")
    example = BY_KEY.get(_v("example"))
    if example is not None:
        _set("cand", example.candidate)
        _set("refs", "\n".join(example.references))
        _set("lang", example.language)
        if example.language != "en" and _v("mode") == "nltk":
            _set("mode", "paper")
    reset_how_step()


def _apply_preset() -> None:
    _sync("preset")
    p = PRESETS[_v("preset")].params
    _set("alpha", p.alpha)
    _set("beta", p.beta)
    _set("gamma", p.gamma)


def _write_query_params(references: list[str]) -> None:
    """The link always says what the page shows."""
    st.query_params.from_dict({
        "cand": _v("cand"), "ref": references, "mode": _v("mode"), "objective": _v("objective"),
        "stages": ",".join(_v("stages")), "alpha": repr(float(_v("alpha"))), "beta": repr(float(_v("beta"))),
        "gamma": repr(float(_v("gamma"))), "lang": _v("lang"), "tok": _v("tok")})


def show_link_problems() -> None:
    """Each rejected link parameter, as long as its setting still holds the default used instead."""
    for problem in st.session_state.get("_link_problems", ()):
        name = problem.parameter
        if problem.used and f"v_{name}" in st.session_state:
            current = _v(name)
            current = ",".join(current) if isinstance(current, list) else (
                repr(float(current)) if isinstance(current, float) else str(current))
            if current != problem.used:
                continue  # the user has changed it since
        st.warning(md_escape(problem.message))


# -- inputs ---------------------------------------------------------------------------------
def current_config() -> MeteorConfig:
    """The configuration the settings describe; raises MeteorParameterError (the core's rule)."""
    mode = _v("mode")
    stages = tuple(_v("stages")) if not describe(MeteorConfig(mode=mode)).fixed_stages else BUILTIN_STAGES
    return MeteorConfig(
        mode=mode, objective=_v("objective"), stages=stages,
        params=MeteorParams(float(_v("alpha")), float(_v("beta")), float(_v("gamma"))), tokenizer=_v("tok"),
        keep_case=_v("keep_case"), zero_penalty_single_chunk=_v("zero_pen"), bleu_smoothing=_v("smoothing"),
        language=_v("lang"))


def _sidebar(segment_page: bool) -> None:
    with st.sidebar:
        if segment_page:
            _widget(st.selectbox, "Worked example", "example", on_change=_load_example,
                    options=[NO_EXAMPLE] + [e.key for e in EXAMPLES], format_func=lambda k: "choose one…" if k == NO_EXAMPLE else BY_KEY[k].label)
        modes = [m for m in MODES if m in METHODS]
        _widget(st.radio, "Mode", "mode", options=modes, horizontal=True,
                help="paper: Banerjee & Lavie 2005 with exact search. nltk: reproduces nltk's meteor_score.")
        method = describe(MeteorConfig(mode=_v("mode")))
        _widget(st.radio, "Alignment objective", "objective", options=list(OBJECTIVES), horizontal=True,
                format_func=lambda o: "fewest crossings" if o == "crossings" else "fewest chunks (METEOR 1.5)",
                disabled=not method.searches)
        if method.fixed_stages:
            st.session_state["w_stages"] = list(BUILTIN_STAGES)
            st.pills("Stages", BUILTIN_STAGES, selection_mode="multi", key="w_stages", disabled=True,
                     help=f"Fixed in {method.mode} mode.")
        else:
            _widget(st.pills, "Stages", "stages", options=BUILTIN_STAGES, selection_mode="multi",
                    help="Each stage matches only words no earlier stage matched.")
        status = _wordnet_status()
        if not status.available:
            st.warning(f"Synonym stage unavailable: {md_escape(status.message)}")
        _widget(st.selectbox, "Language", "lang", options=list(LANGUAGES),
                format_func=lambda c: f"{LANGUAGES[c]} ({c})", help="English: Porter stems and WordNet, as the paper. Others: Snowball stems; synonyms "
                     "where a thesaurus is installed.")
        if st.toggle("What each language gets", key="w_show_capabilities"):
            show_capabilities()
        if st.toggle("Options and parameters", key="w_show_options"):
            _widget(st.selectbox, "Tokenizer", "tok", options=list(TOKENIZERS),
                    help="default: words and punctuation (characters for Chinese and Japanese); "
                         "segmenter: jieba (zh) or janome (ja) word segmentation")
            _widget(st.checkbox, "Keep case", "keep_case")
            _widget(st.selectbox, "Parameter preset", "preset", on_change=_apply_preset, options=list(PRESETS),
                    format_func=lambda k: PRESETS[k].label)
            c1, c2, c3 = st.columns(3)
            # No bounds on the inputs: the core's rule (MeteorParams) decides, and says why.
            for column, name in ((c1, "alpha"), (c2, "beta"), (c3, "gamma")):
                with column:
                    _widget(st.number_input, name, name, step=0.05 if name != "beta" else 0.5, format="%g")
            _widget(st.checkbox, "No penalty when everything matches in one chunk (METEOR 1.5)", "zero_pen")
            _widget(st.selectbox, "BLEU smoothing", "smoothing", options=list(SMOOTHING_METHODS))
        else:
            st.caption(f"tokenizer {_v('tok')} · case {'kept' if _v('keep_case') else 'lowercased'} · "
                       f"alpha {float(_v('alpha')):g} · beta {float(_v('beta')):g} · gamma {float(_v('gamma')):g}"
                       + (" · no penalty for one chunk" if _v("zero_pen") else "")
                       + f" · BLEU smoothing {_v('smoothing')}")


def segment_inputs(with_text: bool = True, segment_page: bool = True) -> tuple[str, list[str], Optional[MeteorConfig]]:
    """Sidebar settings and (optionally) the text inputs. Returns (candidate, references, config);
    config is None when a setting is invalid (the message is already on the page)."""
    _init_state()
    show_link_problems()
    _sidebar(segment_page)
    if with_text:
        _widget(st.text_area, "Candidate (system output)", "cand", height=80)
        _widget(st.text_area, "References (one per line; add or remove lines)", "refs", height=100)
    references = [line for line in _v("refs").split("\n") if line.strip()]
    if segment_page:
        _write_query_params(references)
    try:
        config = current_config()
    except MeteorParameterError as error:
        st.error(f"Settings: {md_escape(error)}")
        return _v("cand"), references, None
    return _v("cand"), references, config


def show_pair(candidate: str, references: Sequence[str]) -> None:
    lines = [f"Candidate: {md_escape(candidate)}"] + [
        f"Reference{f' {k}' if len(references) > 1 else ''}: {md_escape(r)}" for k, r in enumerate(references, 1)]
    st.caption("  \n".join(lines))


@st.cache_data(show_spinner=False, ttl=300)
def _capability_rows() -> list[dict]:
    return [{"code": c.code, "language": c.name, "stemmer": c.stemmer, "synonyms": c.synonyms,
             "tokenizers": c.tokenizers} for c in capabilities()]


def show_capabilities() -> None:
    """Per language, what this machine really has (stemmer, synonym source, tokenizers)."""
    st.dataframe(_capability_rows(), hide_index=True, width="stretch")


# -- core calls, cached ---------------------------------------------------------------------
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
        st.error(md_escape(error))
        return None


# -- renderers ------------------------------------------------------------------------------
def show_diagram(result: SegmentResult, key: str, title: str = "", highlight=(), links=None, **options) -> None:
    """The alignment diagram; `options` go to figures.alignment_diagram (show_chunks, new_links,
    crossings)."""
    fig = figures.alignment_diagram(result, title=title, highlight=highlight, links=links, **options)
    image_format = st.session_state.get("w_image_format", "png")
    config = {**PLOTLY_CONFIG, "toImageButtonOptions": {**PLOTLY_CONFIG["toImageButtonOptions"], "format": image_format}}
    st.plotly_chart(fig, width="content", config=config, key=key)


def show_warnings(result: SegmentResult) -> None:
    for warning in result.warnings:
        st.warning(md_escape(warning))


FORMULA_LINES = {
    "P and R": r"P = \frac{{m}}{{|cand|}} = \frac{{{m}}}{{{c}}} = {P:.4f} \qquad R = \frac{{m}}{{|ref|}} = "
               r"\frac{{{m}}}{{{r}}} = {R:.4f}",
    "Fmean": r"F_{{mean}} = \frac{{P\,R}}{{\alpha P + (1-\alpha) R}} = \frac{{{P:.4f}\cdot{R:.4f}}}"
             r"{{{a:g}\cdot{P:.4f} + {a1:g}\cdot{R:.4f}}} = {F:.4f}",
    "penalty": r"\text{{Penalty}} = \gamma \left(\frac{{c}}{{m}}\right)^{{\beta}} = {g:g}\cdot"
               r"\left(\frac{{{ch}}}{{{m}}}\right)^{{{b:g}}} = {pen:.4f}",
    "score": r"\text{{METEOR}} = F_{{mean}}\,(1-\text{{Penalty}}) = {F:.4f}\cdot{one_minus:.4f} = {S:.4f}",
}


def formula_latex(result: SegmentResult, parts: Sequence[str] = tuple(FORMULA_LINES)) -> str:
    """The formula with this pair's numbers, one aligned block (one KaTeX render, not five)."""
    b, s, p = result.breakdown, result.stats, result.config.params
    values = dict(m=s.matches, c=s.candidate_length, r=s.reference_length, ch=s.chunks, P=b.precision, R=b.recall,
                  F=b.fmean, a=p.alpha, a1=1 - p.alpha, g=p.gamma, b=p.beta, pen=b.penalty, one_minus=1 - b.penalty,
                  S=b.score)
    lines = [FORMULA_LINES[part].format(**values) for part in parts]
    return r"\begin{aligned}" + r"\\[4pt]".join("& " + line for line in lines) + r"\end{aligned}" \
        if len(lines) > 1 else lines[0]


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A GFM table for st.markdown: far lighter in the browser than st.table or st.dataframe (no
    Arrow, no grid). Cells are markdown: callers pass user text through md_escape (which also
    escapes the | that would end a cell)."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def text_bar(value: float, cut: float = 0.0, width: int = 20) -> str:
    """A bar for a value in [0, 1] as a code span of block characters (no chart to load): █ for
    the value, ▒ for what the penalty cut off, ░ for the rest."""
    filled = round(max(0.0, min(1.0, value)) * width)
    removed = min(width - filled, round(max(0.0, cut) * width))
    return "`" + "█" * filled + "▒" * removed + "░" * (width - filled - removed) + "`"


def show_breakdown(result: SegmentResult, key: str = "breakdown-chart", compact: bool = False) -> None:
    """The numbers of the formula with this pair's values. `key` is kept for callers; nothing
    here needs a widget key any more."""
    b, s, p = result.breakdown, result.stats, result.config.params
    if compact:
        values = (("METEOR", f"{b.score:.4f}"), ("P / R", f"{b.precision:.3f} / {b.recall:.3f}"),
                  ("chunks / matches", f"{s.chunks} / {s.matches}"), ("penalty", f"{b.penalty:.4f}"))
        for col, (label, value) in zip(st.columns(len(values)), values):
            col.metric(label, value)
        return
    if s.matches == 0:
        st.info(f"**METEOR {b.score:.4f}**: {md_escape(b.note)}")
        return
    st.markdown(markdown_table(("", "value", "", "from"), (
        ("matches m", s.matches, "", "words linked by the alignment"),
        ("chunks c", s.chunks, "", "runs of adjacent words linked in the same order"),
        ("precision P", f"{b.precision:.4f}", text_bar(b.precision),
         f"m / \\|cand\\| = {s.matches} / {s.candidate_length}"),
        ("recall R", f"{b.recall:.4f}", text_bar(b.recall), f"m / \\|ref\\| = {s.matches} / {s.reference_length}"),
        ("Fmean", f"{b.fmean:.4f}", text_bar(b.fmean), f"P·R / (α·P + (1 − α)·R), α = {p.alpha:g}: pulled toward "
                                                       f"{'R' if p.alpha > 0.5 else 'P'}"),
        ("penalty", f"{b.penalty:.4f}", "", f"γ·(c / m)^β = {p.gamma:g} · ({s.chunks} / {s.matches})^{p.beta:g}"),
        ("**METEOR**", f"**{b.score:.4f}**", text_bar(b.score, cut=b.fmean - b.score),
         "Fmean · (1 − penalty); ▒ is what the penalty cut"),
    ), align="lrll"))
    if b.note:
        st.caption(md_escape(b.note))
    st.caption("Where people go wrong: recall carries 9x the weight of precision with alpha = 0.9 "
               "(Fmean = 10PR/(R+9P)); the penalty divides chunks by the *matched* unigrams, not the "
               "candidate length; with the 2005 parameters the penalty cuts at most 50%.")


def coverage_rows(tokens: Sequence, bleu) -> list[tuple[str, str]]:
    """Per n-gram order, the candidate with the tokens inside a matched (clipped) n-gram marked."""
    rows = []
    for n in range(1, len(bleu.orders) + 1):
        covered = {k for order, start, end in bleu.matched_ngrams if order == n for k in range(start, end)}
        words = [f":blue-background[{md_escape(t.text)}]" if k in covered else md_escape(t.text)
                 for k, t in enumerate(tokens)]
        rows.append((f"{n}-gram", " ".join(words)))
    return rows


def show_bleu(exploration: Exploration) -> None:
    bleu, sacre = exploration.bleu, exploration.sacrebleu
    case = "kept" if exploration.result.best.config.keep_case else "lowercased"
    st.markdown(markdown_table(("", "score", "tokens", "case", "smoothing"), (
        ("BLEU beside METEOR (nltk)", f"{bleu.score:.4f}", "METEOR's", case,
         f"{bleu.smoothing} (sacreBLEU: {md_escape(bleu.sacrebleu_equivalent)})"),
        ("sacreBLEU, sentence", f"{sacre.sentence.score:.2f}", "13a", "kept", "exp, effective order"),
        ("sacreBLEU, corpus of this pair", f"{sacre.corpus.score:.2f}", "13a", "kept", "exp"),
    ), align="lrlll"))
    st.caption(md_escape(sacre.why_different) + " sacreBLEU prints 0-100; its signatures: "
               f"`{sacre.sentence.signature}` (sentence), `{sacre.corpus.signature}` (corpus).")
    coverage = dict(coverage_rows(exploration.result.best.candidate_tokens, bleu))
    st.markdown(markdown_table(
        ("n-gram", "matched", "total", "precision", "candidate tokens in a matched n-gram (clipped, as BLEU counts)"),
        [(f"{o.n}-gram", o.matched, o.total, f"{o.precision:.4f}", coverage[f"{o.n}-gram"]) for o in bleu.orders],
        align="lrrrl"))
    st.caption(f"Brevity penalty {bleu.brevity_penalty:.4f} (candidate {bleu.candidate_length} tokens, "
               f"closest reference {bleu.reference_length}).")
    if bleu.zero_reason:
        st.warning(f"BLEU is 0: {md_escape(bleu.zero_reason)}")


def export_json(exploration: Exploration) -> None:
    data = result_to_dict(exploration.result, exploration.bleu)
    st.download_button("Download result (JSON)", json.dumps(data, ensure_ascii=False, indent=1),
                       file_name="meteor-result.json", mime="application/json")
