"""How METEOR works: a step-through of the computation on the current pair. The steps and their
texts come from meteor_core.methods (true for the chosen mode and objective); this page draws."""
import streamlit as st

from lens import ui
from lens.examples import BY_KEY
from lens.ui import md_escape
from meteor_core import MeteorConfig
from meteor_core.methods import (changes_2005_to_15, corresponding_step, crossing_pairs, describe, plural,
                                 step_positions, terms, walkthrough)
from meteor_core.result import unspaced_script_hint


def _move(labels: list[str], by: int) -> None:
    """The ◀ Step / Step ▶ buttons: the step `by` places from the one shown, within the steps."""
    shown = st.session_state.get("w_how_step")
    if shown in labels:  # the labels of the run that drew the button
        st.session_state["w_how_step"] = labels[min(max(labels.index(shown) + by, 0), len(labels) - 1)]


st.title("How METEOR works")
st.write("Step through the computation on the pair from the Segment Explorer (or pick a worked example "
         "in the sidebar). Each step changes one thing.")
candidate, references, config = ui.segment_inputs(with_text=False, link_written_by_page=True)
ui.show_pair(candidate, references)
exploration = ui.run_explore(candidate, references, config) if config is not None else None

if exploration is not None:
    result = exploration.result
    on_reference = ui.reference_choice(len(result.per_reference), result.best_index, "Steps on reference") \
        if len(result.per_reference) > 1 else 0
    segment = result.per_reference[on_reference]
    method = describe(config)
    # Folded, above the steps: open, the method and the terms pushed the step slider and its
    # diagram off a 1,024 x 768 projector screen (a tester); the terms still come before any step.
    with st.expander("Method and terms (link, crossing, chunk, fragmentation)"):
        st.markdown(f"**Method.** {md_escape(method.summary)}")
        st.caption(md_escape(terms(segment)) + ("  \n" + "  \n".join(md_escape(note) for note in method.notes)
                                                    if method.notes else ""))
    steps = walkthrough(segment)
    labels = [step.label for step in steps]
    kept = st.session_state.get("_how_step_key")
    shown = st.session_state.get("w_how_step")
    # A stand-in still shown (the user has not moved since) stands for the step chosen: nltk's
    # crossings -> paper (chunks stands in) -> nltk came back on chunks, not crossings (a tester).
    substituted = shown not in labels or (kept is not None and shown == st.session_state.get("_how_stand_in"))
    if substituted:
        # Another mode's steps: keep the place (its step key); a new example starts at step 1
        # (ui.reset_how_step forgets both). The key stays the step the user chose: overwritten
        # by the stand-in, nltk's crossings became METEOR 1.5's search, then paper's chunks (a teacher).
        index = corresponding_step(kept, steps) if kept else 0
        st.session_state["w_how_step"] = labels[index]
        st.session_state["_how_stand_in"] = labels[index] if kept and steps[index].key != kept else None
    else:
        st.session_state["_how_stand_in"] = None
    if len(result.per_reference) > 1:
        # Which reference the steps are on: "the reference 11" fitted both of a teacher's two.
        st.caption(f"The steps use reference {on_reference + 1} of {len(result.per_reference)}"
                   + (", the best one" if on_reference == result.best_index else
                      f" (chosen above; the best is reference {result.best_index + 1})")
                   + ": METEOR scores the candidate against each reference and keeps the highest score ("
                   + ", ".join(f"reference {k + 1}: {r.score:.4f}" for k, r in enumerate(result.per_reference)) + ").")
    hint = unspaced_script_hint(segment)
    if hint:  # the Segment Explorer said it, this page did not: "No word matches" and nothing on why (a helper)
        st.warning(md_escape(hint[0].upper() + hint[1:]) + ".")
    number = labels.index(st.session_state["w_how_step"])
    if len(steps) > 1:
        # Buttons beside the slider: at a projector the slider's small knob had to be dragged, or
        # clicked before the arrow keys moved it (a teacher). Each click is one step, as a key is.
        # Short labels: "◀ Previous" was cut to "◀ …" at 1,024 px with the sidebar open.
        slider_slot, previous_slot, next_slot = st.columns([7, 1.4, 1.4], vertical_alignment="bottom")
        slider_slot.select_slider("Step", labels, key="w_how_step")
        previous_slot.button("◀ Step", key="how-previous", help="Previous step", on_click=_move, args=(labels, -1),
                             disabled=number == 0, width="stretch")
        next_slot.button("Step ▶", key="how-next", help="Next step", on_click=_move, args=(labels, 1),
                         disabled=number == len(labels) - 1, width="stretch")
    step = steps[number]
    if not substituted or "_how_step_key" not in st.session_state:
        st.session_state["_how_step_key"] = step.key
    # In the link: a shared /how link opened on step 1, and Back after a step in another mode came
    # back on the nearest step of the first mode rather than the one shown (a teacher).
    linked_step = step.key
    if substituted and kept and st.session_state.get("_page_changed") and st.query_params.get("step") == kept:
        # Arrived by the sidebar's link, which names the step chosen, after a mode changed on
        # another page: writing the stand-in shown would be a second history entry for one
        # click (Back went to How again). The address keeps the step chosen; opened, it shows
        # the same stand-in.
        linked_step = kept
    ui.write_link(references, step=linked_step)
    st.markdown(f"**Step {number + 1} of {len(steps)}: {md_escape(step.label)}.** {md_escape(step.text)}")
    for warning in step.warnings:
        st.warning(md_escape(warning))
    contrast = ui.objective_contrast(segment) if step.key in ("crossings", "chunks") else ""
    if contrast:
        st.info(md_escape(contrast))
    position_note = step_positions(segment, step)
    if step.details and step.key == "crossings":
        # Folded: eight lines pushed the diagram below a projector's screen; open, they let a
        # class count crossings whose marks sit on one point (a teacher could not count them).
        with st.expander(f"The crossing pairs, one by one ({segment.crossings})"):
            st.caption("  \n".join(md_escape(line) for line in (*step.details, position_note)))
    elif step.details:
        st.caption("  \n".join(md_escape(line) for line in (*step.details, position_note)))
    ui.show_diagram(segment, key="step-diagram", links=step.links, new_links=step.new_links,
                    new_links_label=step.new_links_label,
                    crossings=step.crossings, show_chunks=step.show_chunks)
    if step.formula:
        st.latex(ui.formula_latex(segment, [step.formula]))
else:
    ui.write_link(references)

st.divider()
st.header("From 2005 to METEOR 1.5")
st.write("Most METEOR numbers in papers come from the METEOR 1.5 jar (Denkowski & Lavie 2014), not from the 2005 "
         "definition. What changed, as the paper and METEOR 1.5 modes compute it:")
st.markdown(ui.markdown_table(("", "2005 paper (paper mode)", "METEOR 1.5 (METEOR 1.5 mode)"),
                              [(c.topic, md_escape(c.paper), md_escape(c.meteor15))
                               # in the unit of the pair the steps are on, as its steps are
                               for c in changes_2005_to_15(exploration.result.best if exploration is not None else config)]))
if exploration is not None and exploration.comparisons:
    # Each tool's own score, over all the references (its best): what it reports. The panel's
    # numbers on this view's best reference showed nltk 0.8519 where nltk gives 0.8819 (a teacher).
    runs = {exploration.result.best.config.mode: exploration.result}
    runs.update({c.other_mode: c.other for c in exploration.comparisons})
    st.write("On this pair" + (f" (each with its best of the {len(exploration.result.references)} references)"
                               if len(exploration.result.references) > 1 else "") + ": "
             + ", ".join(f"{ui.MODE_LABELS[m]} **{r.score:.4f}**" for m, r in runs.items())
             + ". The Segment Explorer's “Which METEOR?” panel says which links differ and why.")

st.header("What a crossing is")
example = BY_KEY["objectives"]
st.write("Two links cross when one goes to the right of the other on one row and to the left on the other; each "
         "x marks a crossing pair. " + md_escape(example.note) + " Scored in paper mode with the 2005 parameters, "
         "whatever the sidebar says: the two objectives are paper mode's (METEOR 1.5 prefers fewest chunks in its "
         "own search).")
runs = {objective: ui.cached_explore(example.candidate, example.references,
                                     MeteorConfig(objective=objective)).result.best
        for objective in ("crossings", "chunks")}
objective = st.radio("Alignment objective for this example", list(runs), horizontal=True, key="w_how_objective",
                     format_func=lambda o: f"fewest {o}: {plural(runs[o].stats.chunks, 'chunk')}, "
                                           f"{plural(runs[o].crossings, 'crossing')}, METEOR {runs[o].score:.4f}")
r = runs[objective]
ui.show_diagram(r, key="objective-diagram", crossings=crossing_pairs(r.links),
                title=f"fewest {objective}: {plural(r.stats.chunks, 'chunk')}, {plural(r.crossings, 'crossing')}, "
                      f"{r.score:.4f}")

st.header("The glossary example: “The feline sat on a mat”")
cat = BY_KEY["cat-feline"]
st.write(md_escape(cat.note))
glossary = ui.cached_explore(cat.candidate, cat.references, MeteorConfig())
g = glossary.result.best
st.write(f"What METEOR (2005, exact + stem + WordNet) really gives: **{g.score:.4f}** with "
         f"{plural(g.stats.matches, 'match')} in {plural(g.stats.chunks, 'chunk')}, not 0.830.")
if st.toggle("Show its alignment", key="w_how_glossary"):
    ui.show_diagram(g, key="glossary-diagram")
