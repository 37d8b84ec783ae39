"""The corpus pages' scoring runs in a thread of its own (lens.corpus_ui._Job): a rerun of the
page (a click, a page change) interrupts the page's script while it waits, not the scoring, and
the next run takes up the same work. Streamlit's progress bar and session state are replaced by
stand-ins here: a bar whose update raises is what a rerun request does to a waiting script."""
import time
import threading

import pytest

from lens import corpus_ui


class Rerun(Exception):
    """What Streamlit raises in a script at its next call once a rerun is requested."""


class Bar:
    def __init__(self, interrupts: bool):
        self.interrupts = interrupts

    def progress(self, *args, **kwargs):
        if self.interrupts:
            raise Rerun

    def empty(self):
        pass


@pytest.fixture
def page(monkeypatch):
    """A session (a dict) and the bars its runs draw, in order: True for a run interrupted."""
    runs: list[bool] = []
    monkeypatch.setattr(corpus_ui.st, "session_state", {})
    monkeypatch.setattr(corpus_ui.st, "progress", lambda *args, **kwargs: Bar(runs.pop(0)))
    return runs


def _slow_work(calls: list, release: threading.Event, result: str, total: int = 3):
    def work(progress):
        calls.append(result)
        for done in range(1, total + 1):
            progress(done, total)
            release.wait(10)
        return result
    return work


def test_a_rerun_while_scoring_takes_up_the_same_work(page):
    calls, release = [], threading.Event()
    work = _slow_work(calls, release, "analysis")
    page.extend([True, False])
    with pytest.raises(Rerun):  # a click while the first run waits
        corpus_ui.run_cached("corpus", "key-1", "Scoring", work)
    release.set()
    assert corpus_ui.run_cached("corpus", "key-1", "Scoring", work) == "analysis"
    assert calls == ["analysis"]  # once: scored in the script's thread, the click started it again
    assert corpus_ui.run_cached("corpus", "key-1", "Scoring", work) == "analysis"  # cached, no bar drawn
    assert calls == ["analysis"] and page == []


def test_other_input_while_scoring_stops_the_old_work():
    calls, release = [], threading.Event()
    old = corpus_ui._Job("key-1", _slow_work(calls, release, "old", total=1000), lambda: True)
    old.cancel()
    release.set()
    assert old.finished.wait(10) and old.result is None and old.cancelled
    assert old.progress[0] < 1000  # stopped at its next progress call, not run to the end


def test_a_job_whose_session_is_gone_stops_and_an_error_reaches_the_page(page, monkeypatch):
    release = threading.Event()
    release.set()
    gone = corpus_ui._Job("key-1", _slow_work([], release, "x"), lambda: False)
    assert gone.finished.wait(10) and gone.result is None and gone.cancelled and gone.progress == (0, 0)

    def broken(progress):
        raise ValueError("a bug in the core")
    page.append(False)
    with pytest.raises(ValueError, match="a bug in the core"):
        corpus_ui.run_cached("corpus", "key-2", "Scoring", broken)

    def refused(progress):
        raise corpus_ui.MeteorInputError("no segment could be scored: line 2: empty candidate")
    shown = []
    page.append(False)
    monkeypatch.setattr(corpus_ui.st, "error", shown.append)
    assert corpus_ui.run_cached("corpus", "key-3", "Scoring", refused) is None
    assert len(shown) == 1 and "no segment could be scored" in shown[0]


def test_the_bar_says_the_step_the_work_reports(monkeypatch):
    """Significance tests count resamples, not segments: the page passes its own step text."""
    texts, release = [], threading.Event()

    class Recording(Bar):
        def progress(self, value, text=""):
            texts.append(text)
            if "of 20" in text:
                release.set()

    monkeypatch.setattr(corpus_ui.st, "session_state", {})
    monkeypatch.setattr(corpus_ui.st, "progress", lambda *args, **kwargs: Recording(False))

    def work(progress):
        progress(5, 20)
        release.wait(10)
        return "report"
    step = lambda done, total: f"Tests: {done} of {total} trials"
    assert corpus_ui.run_cached("tests", "key-1", "Significance tests…", work, step) == "report"
    assert "Tests: 5 of 20 trials" in texts
    assert corpus_ui.scoring_step(1500, 2000) == "Scoring segment 1,500 of 2,000…"


class Analysis:
    """Stands for a CorpusAnalysis: run_cached weighs one by the tokens it holds."""

    def __init__(self, name: str, tokens: int):
        self.name, self.tokens_held = name, tokens


def _scored(calls: list, name: str, tokens: int):
    def work(progress):
        calls.append(name)
        return Analysis(name, tokens)
    return work


def test_a_mode_change_and_back_does_not_score_again_while_memory_stays_bounded(page):
    """A test set of 50,000 tokens in three modes fits (100,000 kept besides the one shown);
    a page's newest analysis always stays; least recently used go first; one too large for
    the budget is released before its replacement is scored."""
    assert corpus_ui.KEPT_TOKENS == 100_000
    calls = []
    page.extend([False] * 8)
    run = lambda key, tokens=50_000, slot="corpus": corpus_ui.run_cached(
        slot, key, "Scoring", _scored(calls, key, tokens)).name
    assert [run("paper"), run("nltk"), run("paper"), run("meteor15"), run("nltk"), run("paper")] == [
        "paper", "nltk", "paper", "meteor15", "nltk", "paper"]
    assert calls == ["paper", "nltk", "meteor15"]  # each mode scored once
    # Another page's newest analysis does not count; a fourth setting on this page does: the
    # least recently used (meteor15) goes before it is scored, nltk and paper stay.
    assert run("other", 20_000, slot="compare") == "other"
    assert run("gamma=0.6") == "gamma=0.6"
    assert run("nltk") == "nltk" and run("paper") == "paper" and run("other", 20_000, slot="compare") == "other"
    assert calls == ["paper", "nltk", "meteor15", "other", "gamma=0.6"]
    assert run("meteor15") == "meteor15" and calls[-1] == "meteor15"  # released: scored again
    # Too large to keep: released before the next input is scored, so the peak is one analysis.
    assert run("big", 120_000) == "big"

    def after_big(progress):
        held = [entry[0] for entries in corpus_ui.st.session_state["_corpus_cache"].values() for entry in entries]
        calls.append(held)
        return Analysis("after", 10)
    assert corpus_ui.run_cached("corpus", "after", "Scoring", after_big).name == "after"
    assert "big" not in calls[-1] and "other" in calls[-1]
    # Back to a kept analysis: the too-large one it replaces as newest goes (a tester: small,
    # big, small again left 5,000 segments kept).
    page.append(False)
    assert run("big", 120_000) == "big" and run("after") == "after"
    assert [entry[0] for entry in corpus_ui.st.session_state["_corpus_cache"]["corpus"]] == ["after"]
    assert page == []


class Comparison:
    """Stands for a SystemComparison: it holds the analyses its page's scoring result holds."""

    def __init__(self, name: str, analyses: tuple):
        self.name, self.analyses = name, analyses


def test_a_comparison_and_its_scoring_share_their_analyses_in_the_bound(page):
    """A tester: 4 systems x 400 lines (60k tokens) were counted twice, once in the scoring
    result and once in the significance result over the same analyses, so each mode change and
    back scored again. Counted once, the other mode's pair of results is kept."""
    calls = []
    page.extend([False] * 4)

    def systems(name):
        def work(progress):
            calls.append(name)
            return tuple(Analysis(f"{name}-{k}", 15_000) for k in range(4))
        return work

    def tests(name, analyses):
        def work(progress):
            calls.append(name)
            return Comparison(name, analyses)
        return work

    def visit(mode):
        analyses = corpus_ui.run_cached("compare", mode, "Scoring", systems(mode))
        return corpus_ui.run_cached("compare-significance", f"{mode}-tests", "Tests", tests(f"{mode}-tests", analyses))
    first = visit("paper")
    visit("nltk")
    assert visit("paper") is first and visit("nltk").name == "nltk-tests"
    assert calls == ["paper", "paper-tests", "nltk", "nltk-tests"]
    assert page == []


def test_stop_stops_the_scoring_a_click_does_not(monkeypatch):
    """A tester: Streamlit's Stop during a 20,000-segment scoring left the bar frozen while the
    scoring went on unseen (the results came with the next click): it looked like a hang. Stop
    now cancels the job; a rerun request (any click) still leaves it running for the next run.
    (Called directly: an AppTest script made from a function became the __main__ that later
    process pools re-ran, with NameErrors.)"""
    from streamlit.runtime.scriptrunner import RerunData, RerunException, StopException

    # With fast reruns a click raises StopException too: only the Stop button's cancels (after
    # a click the scoring started again from the first segment, or the page showed nothing: a
    # tester); _stopped_by_user tells them apart (below)
    for raised, by_user, cancelled in ((StopException(), True, True), (StopException(), False, False),
                                       (RerunException(RerunData()), False, False)):
        monkeypatch.setattr(corpus_ui, "_stopped_by_user", lambda by_user=by_user: by_user)
        class Bar:  # the third draw of the bar is where the request arrives
            calls = 0

            def progress(self, *args, **kwargs):
                Bar.calls += 1
                if Bar.calls == 3:
                    raise raised

            def empty(self):
                pass

        def work(progress):
            for k in range(100):
                progress(k, 100)
                time.sleep(0.01)
            return "done"

        monkeypatch.setattr(corpus_ui.st, "progress", lambda *args, **kwargs: Bar())
        jobs = corpus_ui.st.session_state.setdefault("_corpus_jobs", {})
        jobs.pop("stop-test", None)
        with pytest.raises(type(raised)):
            corpus_ui.run_cached("stop-test", f"key-{cancelled}-{by_user}", "label", work)
        job = jobs["stop-test"]
        assert job.cancelled is cancelled
        job.finished.wait(5)
        assert (job.result is None) is cancelled  # stopped, or scored to the end for the next run
    # the next run after Stop starts again, and says so on its bar (it restarted silently: a tester)
    shown = []

    class Shown:
        def progress(self, value, text=""):
            shown.append(text)

        def empty(self):
            pass

    monkeypatch.setattr(corpus_ui.st, "progress", lambda value=0.0, text="": Shown().progress(value, text) or Shown())
    jobs["stop-test"] = stopped = corpus_ui._Job("key-True-True", lambda progress: None, lambda: True)
    stopped.stop()
    assert corpus_ui.run_cached("stop-test", "key-True-True", "label", work) == "done"
    assert shown[0] == "Scoring again from the first segment (the last scoring was stopped)…"
    assert all(t.endswith("(again: the last scoring was stopped)") for t in shown[1:] if t != shown[0])


def test_the_stop_button_is_told_from_a_click_by_the_sessions_script_runner(monkeypatch):
    """A click (fast rerun) gives the session a new script runner at once; Stop leaves the
    running one in place; without a server (internals missing) it is taken for a click."""
    import threading
    from types import SimpleNamespace

    import streamlit.runtime as runtime
    import streamlit.runtime.scriptrunner as scriptrunner

    assert corpus_ui._stopped_by_user() is False  # no server here
    session = SimpleNamespace(_scriptrunner=SimpleNamespace(_script_thread=threading.current_thread()))
    manager = SimpleNamespace(get_session_info=lambda session_id: SimpleNamespace(session=session))
    monkeypatch.setattr(runtime, "get_instance", lambda: SimpleNamespace(_session_mgr=manager))
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", lambda: SimpleNamespace(session_id="s"))
    assert corpus_ui._stopped_by_user() is True  # the runner is this thread's: Stop
    session._scriptrunner = None  # replaced (a click): not Stop
    assert corpus_ui._stopped_by_user() is False
    session._scriptrunner = SimpleNamespace(_script_thread=threading.Thread(target=lambda: None))
    assert corpus_ui._stopped_by_user() is False
