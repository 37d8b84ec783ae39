"""System Comparison: two systems against the same references, segment by segment."""
import pandas as pd
import streamlit as st

from lens import corpus_ui, ui

st.title("System Comparison")
_, _, config = ui.segment_inputs(with_text=False, segment_page=False)
chosen = corpus_ui.corpus_inputs("compare", systems=2)
comparison = None
if chosen is not None and config is not None:
    (corpus_a, corpus_b), names = chosen
    if names[0] == names[1]:
        st.error("Choose two different candidate columns.")
    else:
        comparison = corpus_ui.compare_with_progress(corpus_a, corpus_b, config, names)

if comparison is not None:
    name_a, name_b = comparison.names
    cols = st.columns(2)
    for col, name, analysis in ((cols[0], name_a, comparison.a), (cols[1], name_b, comparison.b)):
        with col:
            s = analysis.summary()
            st.markdown(f"**{name}**")
            m = st.columns(3)
            m[0].metric("Corpus METEOR", f"{s['corpus_meteor']:.4f}")
            m[1].metric("Mean segment METEOR", f"{s['mean_segment_meteor']:.4f}")
            m[2].metric("Corpus BLEU", f"{s['corpus_bleu']:.4f}")
            corpus_ui.show_not_scored(analysis, f"{name}: ")

    rows = pd.DataFrame(comparison.rows)
    st.subheader(f"Per segment: {name_b} minus {name_a}, largest METEOR change first")
    only_disagree = st.checkbox("Only segments where METEOR and BLEU move in opposite directions", key="disagree")
    shown = rows[rows["disagree"]] if only_disagree else rows
    st.caption(f"{len(shown)} of {len(rows)} segments; {int(rows['disagree'].sum())} with the metrics disagreeing.")
    event = st.dataframe(shown, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="delta-table")
    if event.selection.rows:
        seg_id = shown.iloc[event.selection.rows[0]]["id"]
        st.subheader(f"Segment {seg_id}")
        for name, analysis in ((name_a, comparison.a), (name_b, comparison.b)):
            k = analysis.ids.index(seg_id)
            segment = analysis.corpus.segments[k]
            st.markdown(f"**{name}** — METEOR {segment.score:.4f}, BLEU {analysis.bleu[k].score:.4f}")
            ui.show_diagram(segment.best, key=f"diagram-{name}")
        left, right = st.columns(2)
        for col, name, analysis in ((left, name_a, comparison.a), (right, name_b, comparison.b)):
            with col:
                st.markdown(f"**{name}**")
                ui.show_breakdown(analysis.corpus.segments[analysis.ids.index(seg_id)].best,
                                  key=f"breakdown-{name}", compact=True)
    else:
        st.info("Select a row to see both alignments one above the other.")
