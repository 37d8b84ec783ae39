"""How METEOR works: a step-through of the computation on the current pair."""
import streamlit as st

from lens import ui
from lens.examples import BY_KEY
from meteor_core import MeteorConfig

st.title("How METEOR works")
st.write("Step through the computation on the pair from the Segment Explorer (or pick a worked example "
         "in the sidebar). Each step changes one thing.")
candidate, references, config = ui.segment_inputs(with_text=False)
st.caption(f"Candidate: {candidate}")
st.caption(f"Reference(s): {' | '.join(references)}")
exploration = ui.run_explore(candidate, references, config) if config is not None else None

if exploration is not None:
    segment = exploration.result.best
    b, s, p = segment.breakdown, segment.stats, config.params
    steps = ["tokens"] + [f"after {snap.stage}" for snap in segment.snapshots] + [
        "chunks", "P and R", "Fmean", "penalty", "score"]
    step = st.select_slider("Step", steps, value=steps[0])
    k = steps.index(step)
    n_stages = len(segment.snapshots)
    if k == 0:
        st.markdown(f"**Tokens.** The candidate has {s.candidate_length} tokens, the reference "
                    f"{s.reference_length}. Matching compares lowercased forms.")
        ui.show_diagram(segment, key="step-diagram", links=())
    elif k <= n_stages:
        snap = segment.snapshots[k - 1]
        status = next(st_ for st_ in segment.stage_status if st_.stage == snap.stage)
        if not status.available:
            st.warning(f"The {snap.stage} stage is unavailable: {status.message}")
        st.markdown(f"**Stage {k}: {snap.stage}** ({status.description}). It looks only at the words still "
                    f"unmatched and adds **{len(snap.new_links)}** link(s), choosing the most matches, then "
                    f"the fewest crossings. Unmatched now: {len(snap.unmatched_candidate)} candidate, "
                    f"{len(snap.unmatched_reference)} reference words.")
        for link in snap.new_links:
            st.caption(f"{segment.candidate_tokens[link.candidate].text} → "
                       f"{segment.reference_tokens[link.reference].text}: {link.evidence}")
        ui.show_diagram(segment, key="step-diagram", links=snap.links)
    else:
        explanation = {
            "chunks": f"**Chunks.** The {s.matches} matched words group into **{s.chunks}** chunk(s): runs of "
                      "adjacent candidate words mapped in the same order onto adjacent reference words.",
            "P and R": f"**Precision** = m / |cand| = {s.matches}/{s.candidate_length} = {b.precision:.4f}; "
                       f"**recall** = m / |ref| = {s.matches}/{s.reference_length} = {b.recall:.4f}.",
            "Fmean": f"**Fmean** = PR / (αP + (1-α)R) = {b.fmean:.4f} with α = {p.alpha:g}: with α = 0.9 this is "
                     "10PR/(R+9P), pulled toward recall (recall weighs 9x).",
            "penalty": f"**Penalty** = γ (chunks/matches)^β = {p.gamma:g} × ({s.chunks}/{s.matches})^{p.beta:g} = "
                       f"{b.penalty:.4f}. The denominator is the matched words, not the candidate length.",
            "score": f"**METEOR** = Fmean × (1 − Penalty) = {b.fmean:.4f} × {1 - b.penalty:.4f} = **{b.score:.4f}**.",
        }[step]
        if s.matches == 0 and step != "chunks":
            explanation = b.note
        st.markdown(explanation)
        ui.show_diagram(segment, key="step-diagram")
        if step in ("Fmean", "penalty", "score"):
            ui.show_breakdown(segment)

st.divider()
st.header("The glossary example: “The feline sat on a mat”")
cat = BY_KEY["cat-feline"]
st.write(cat.note)
glossary = ui.cached_explore(cat.candidate, cat.references, MeteorConfig())
g = glossary.result.best
st.write(f"What METEOR (2005, exact + stem + WordNet) really gives: **{g.score:.4f}** with "
         f"{g.stats.matches} matches in {g.stats.chunks} chunks, not 0.830.")
ui.show_diagram(g, key="glossary-diagram")

st.header("When the objectives disagree")
example = BY_KEY["objectives"]
st.write(example.note)
left, right = st.columns(2)
for column, objective in ((left, "crossings"), (right, "chunks")):
    with column:
        r = ui.cached_explore(example.candidate, example.references,
                              MeteorConfig(objective=objective)).result.best
        ui.show_diagram(r, key=f"objective-{objective}",
                        title=f"fewest {objective}: {r.stats.chunks} chunks, {r.crossings} crossings, {r.score:.4f}")
