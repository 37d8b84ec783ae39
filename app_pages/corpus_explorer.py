"""Corpus Explorer: score a whole corpus, find the segments that matter, drill down."""
import pandas as pd
import streamlit as st

from lens import corpus_ui, figures, ui

st.title("Corpus Explorer")
_, _, config = ui.segment_inputs(with_text=False, segment_page=False)
chosen = corpus_ui.corpus_inputs("corpus", systems=1)
analysis = None
if chosen is not None and config is not None:
    analysis = corpus_ui.analyze_with_progress(chosen[0][0], config)

if analysis is not None:
    summary = analysis.summary()
    corpus_ui.show_not_scored(analysis)
    st.subheader("Summary")
    c = st.columns(5)
    c[0].metric("Corpus METEOR", f"{summary['corpus_meteor']:.4f}", help="from statistics summed over segments")
    c[1].metric("Mean segment METEOR", f"{summary['mean_segment_meteor']:.4f}")
    c[2].metric("Corpus BLEU", f"{summary['corpus_bleu']:.4f}")
    c[3].metric("Segments scored", summary["segments_scored"])
    c[4].metric("Not scored", summary["segments_not_scored"])
    st.caption("Corpus METEOR sums matches, lengths and chunks over segments (each at its best reference), "
               "then applies the formula once, as the paper and METEOR 1.5 do; the mean of segment scores is "
               "a different number. Matches by stage: " + ", ".join(f"{k} {v}" for k, v in summary["matches_by_stage"].items()))

    frame = pd.DataFrame(analysis.rows)
    left, right = st.columns(2)
    with left:
        st.plotly_chart(figures.score_histograms(list(frame["meteor"]), list(frame["bleu"])), width="stretch",
                        key="histograms")
    with right:
        scatter = st.plotly_chart(
            figures.metric_scatter(list(frame["bleu"]), list(frame["meteor"]), list(frame["id"]), "BLEU", "METEOR"),
            width="stretch", key="scatter", on_select="rerun", selection_mode="points")

    if analysis.correlations:
        st.subheader("Agreement with human scores")
        st.dataframe(pd.DataFrame([{"metric": c.metric, "Pearson r": c.pearson, "Spearman rho": c.spearman,
                                    "Kendall tau-b": c.kendall_tau_b, "segments": c.n} for c in analysis.correlations]),
                     hide_index=True, width="stretch")
        st.caption("METEOR was designed to agree with human judgments better than BLEU; check it on your data.")
        st.plotly_chart(figures.metric_scatter(list(frame["human"]), list(frame["meteor"]), list(frame["id"]),
                                               "human score", "METEOR"), width="stretch", key="human-scatter")

    st.subheader("Segments")
    f1, f2 = st.columns([2, 3])
    low, high = f1.slider("METEOR between", 0.0, 1.0, (0.0, 1.0), step=0.01, key="meteor-range")
    search = f2.text_input("Search id, candidate or reference", key="search")
    shown = frame[(frame["meteor"] >= low) & (frame["meteor"] <= high)]
    if search:
        needle = search.lower()
        shown = shown[shown["id"].astype(str).str.lower().str.contains(needle, regex=False)
                      | shown["candidate"].str.lower().str.contains(needle, regex=False)
                      | shown["reference"].str.lower().str.contains(needle, regex=False)]
    st.caption(f"{len(shown)} of {len(frame)} segments shown. Click a column header to sort, a row to open it.")
    event = st.dataframe(shown, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="segments-table", column_config={
                             "meteor": st.column_config.NumberColumn("METEOR", format="%.4f"),
                             "bleu": st.column_config.NumberColumn("BLEU", format="%.4f")})
    selected = None
    if event.selection.rows:
        selected = int(shown.index[event.selection.rows[0]])
    elif scatter is not None and scatter.selection.points:
        selected = int(scatter.selection.points[0]["customdata"]) if "customdata" in scatter.selection.points[0] \
            else int(scatter.selection.points[0]["point_index"])
    if selected is not None:
        segment = analysis.corpus.segments[selected]
        st.subheader(f"Segment {analysis.ids[selected]}")
        st.caption(f"Candidate: {segment.candidate}")
        st.caption(f"Best reference ({segment.best_index + 1} of {len(segment.references)}): "
                   f"{segment.references[segment.best_index]}")
        ui.show_warnings(segment.best)
        ui.show_diagram(segment.best, key="drill-diagram")
        ui.show_breakdown(segment.best, key="drill-breakdown")
        st.write(f"BLEU {analysis.bleu[selected].score:.4f}" +
                 (f" — {analysis.bleu[selected].zero_reason}" if analysis.bleu[selected].zero_reason else ""))
    else:
        st.info("Select a row (or a point in the scatter) to see that segment's alignment and breakdown.")

    st.subheader("Export")
    corpus_ui.downloads(analysis, "meteor-corpus")
    st.caption(f"Signature: `{summary['signature']}`")
