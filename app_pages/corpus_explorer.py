"""Corpus Explorer: score a whole corpus, find the segments that matter, drill down."""

import pandas as pd
import streamlit as st

from lens import corpus_ui, figures, ui
from lens.corpus_ui import plain
from meteor_core.corpus import REPORTED_BY, analyze_corpus

PAGE = "corpus"
ORDERS = {"file order": ("line", True), "METEOR, lowest first": ("meteor", True),
          "METEOR, highest first": ("meteor", False), "BLEU, lowest first": ("bleu", True),
          "METEOR minus BLEU, largest first": ("gap", False)}

st.title("Corpus Explorer")
# Everything above the filters sits in containers: what they hold varies from run to run (notes,
# progress, messages), and an element that moves in the page is drawn anew in the browser, which
# dropped text being typed into the search box during a run (a teacher: 4 of 10 times after a mode
# change and a row click). One container keeps the box's place constant.
with st.container():
    _, _, config = ui.segment_inputs(with_text=False, segment_page=False, link_written_by_page=True)
    inputs = corpus_ui.corpus_inputs(PAGE)
    ui.write_settings_link(**corpus_ui.source_link(PAGE))
    chosen, analysis = corpus_ui.analyse(PAGE, inputs, config, "Scoring segments…",
                                         lambda data, progress: analyze_corpus(data.corpora[0], config, progress))

if analysis is not None:
    with st.container():
        selection = corpus_ui.Selection(PAGE)
        # The file's identity, not the system chosen: a line is the same row of the same file
        # (choosing another system closed the segment, saying "Other data (corpus.tsv)": a tester).
        selection.follow_data(chosen.source, chosen.label)
        if chosen.rows_narrowed:  # another system's rows: the same segment's row, if it has one
            selection.follow_segment(analysis.lines, lambda: list(zip(analysis.ids, (
                s.references for s in analysis.corpus.segments))), chosen.scored or "the rows shown")
        selection.keep_if_present(analysis.lines, "is not among the rows shown (another system's or language "
                                  "pair's, or not scored with these settings)" if chosen.rows_narrowed else "is not scored with these settings")
        # What was scored, in the summary and the exports' names (they were all named alike: a tester)
        summary = {"data": chosen.label, "scored": chosen.scored, **analysis.summary()}
        corpus_ui.show_unavailable_stages(analysis)
        corpus_ui.show_counts(analysis)
        corpus_ui.say_if_not_kept(analysis)
        st.subheader("Summary")
        # Two rows of three (METEOR, then BLEU): five in one row cut their labels and values
        # ("Corpus ME...", "24 o...") at 1,024 px with the sidebar open.
        c = st.columns(3) + st.columns(3)
        reported_key, reported_by = REPORTED_BY.get(config.mode, ("", ""))
        c[0].metric("Corpus METEOR", f"{summary['corpus_meteor']:.4f}", help="from statistics summed over segments"
                    + (f": {reported_by}" if reported_key == "corpus_meteor" else ""))
        c[1].metric("Mean segment METEOR", f"{summary['mean_segment_meteor']:.4f}",
                    help="the mean of the segment scores" + (f": {reported_by}" if reported_key == "mean_segment_meteor"
                                                             else ""))
        c[2].metric("Segments scored", f"{summary['segments_scored']:,} of {summary['data_lines']:,}")
        # Each BLEU says its scale: 0.4109 beside 41.09 read as two different results (a tester).
        # "on the same tokens": the tokens METEOR scores, so it moves with the mode (0.5036 in paper
        # mode, 0.5291 in METEOR 1.5 mode on one WMT22 system; a tester took it for a bug).
        c[3].metric("Corpus BLEU (0-1)", f"{summary['corpus_bleu']:.4f}",
                    help="nltk corpus_bleu on the tokens METEOR scores in this mode (in METEOR 1.5 mode the jar's "
                         "normalised tokens), so it changes with the mode; sacreBLEU does not"
                    + (f". It is 0: {analysis.corpus_bleu_zero_reason}." if analysis.corpus_bleu_zero_reason else ""))
        if analysis.sacrebleu:
            c[4].metric("sacreBLEU (0-100)", f"{analysis.sacrebleu.score:.2f}",
                        help="as MT papers print it: sacrebleu's corpus BLEU on the raw text, 0-100, "
                             f"signature {analysis.sacrebleu.signature}"
                             + (f". Over all {analysis.sacrebleu_segments:,} segments read, as sacreBLEU scores "
                                "the files, including those METEOR could not score"
                                if analysis.sacrebleu_counts_unscored else ""))
        if analysis.sacrebleu and analysis.sacrebleu_counts_unscored:
            # On the page, not only in the metric's tooltip: a sacreBLEU of 1.93 beside a BLEU of
            # 0.36 (one 300,000-character line not scored) looked like a bug to a tester.
            st.caption(f"sacreBLEU is over all {analysis.sacrebleu_segments:,} segments read, as sacreBLEU scores the "
                       f"files, including the {len(analysis.unscored):,} not scored here; the other numbers are over "
                       f"the {len(analysis.corpus.segments):,} scored.")
        # Which of the two the tool being reproduced prints, on the page: only the tooltip said it (a helper).
        reported = {"mean_segment_meteor": "Mean segment METEOR", "corpus_meteor": "Corpus METEOR"}.get(reported_key)
        st.caption("Corpus METEOR sums matches, lengths and chunks over segments (each at its best reference), "
                   "then applies the formula once, as the paper and METEOR 1.5 do; the mean of segment scores is "
                   "a different number. "
                   + (f"In this mode, {reported} is {reported_by}. " if reported else "") + "Matches by stage: "
                   + plain(", ".join(f"{k} {v}" for k, v in summary["matches_by_stage"].items())) + ". "
                   + "Segment id: " + plain(analysis.id_source) + ".")

        frame = pd.DataFrame(analysis.rows)
        lines = list(frame["line"])
        hover_ids = corpus_ui.hover_ids(frame)  # metric_scatter escapes them (Plotly renders tags)
        left, right = st.columns(2)
        with left:
            st.plotly_chart(figures.score_histograms(list(frame["meteor"]), list(frame["bleu"])), width="stretch",
                            key="histograms")
        with right:
            scatter = figures.metric_scatter(list(frame["bleu"]), list(frame["meteor"]), hover_ids, "BLEU", "METEOR",
                                             keys=lines)
            # Streamlit turns point clicks off while the box tool is the drag mode: start in pan mode.
            scatter.update_layout(dragmode="pan")
            corpus_ui.selectable_scatter(selection, scatter, (analysis.corpus.signature, tuple(lines)), name="scatter",
                                         others=("table",))
            st.caption("Click a point to open that segment below, or choose the box tool (top right of the chart) "
                       "and drag a box around points. Segments on one spot: a point's hover lists the others there.")

        if analysis.correlations:
            st.subheader("Agreement with human scores")
            st.dataframe(pd.DataFrame([{"metric": c.metric, "Pearson r": c.pearson, "Spearman rho": c.spearman,
                                        "Kendall tau-b": c.kendall_tau_b, "segments": c.n} for c in analysis.correlations]),
                         hide_index=True, width="stretch", placeholder="—",
                         column_config={k: st.column_config.NumberColumn(k, format="%.4f")
                                        for k in ("Pearson r", "Spearman rho", "Kendall tau-b")})
            st.caption("Segment-level correlations over the segments that have a human score. METEOR was designed to "
                       "agree with human judgments better than BLEU; whether it does on your data is what this shows.")
            for c in analysis.correlations:
                if c.why_undefined is not None:  # "—" in the table; the reason here, as the command line says it
                    # not in brackets: the reason's own value is ("(every BLEU score is the same (0.0000))": a tester)
                    st.caption(plain(f"{c.metric}: no correlation is defined, since {c.why_undefined}."))
            with_human = frame[frame["human"].notna()]
            st.plotly_chart(figures.metric_scatter(list(with_human["human"]), list(with_human["meteor"]),
                                                   corpus_ui.hover_ids(with_human), "human score", "METEOR",
                                                   keys=list(with_human["line"])),
                            width="stretch", key="human-scatter")

    st.subheader("Segments")
    f1, f2, f3 = st.columns([2, 3, 2])
    low, high = f1.slider("METEOR between", 0.0, 1.0, step=0.01, key=corpus_ui.kept("meteor-range", (0.0, 1.0)))
    search = f2.text_input("Search id, candidate or reference", key=corpus_ui.kept("search", "", typed=True),
                           help="Case-insensitive, plain text; every reference of a segment is searched, "
                                "not only the best one the table shows.")
    order = f3.selectbox("Order", list(ORDERS), key=corpus_ui.kept("order", next(iter(ORDERS)), ORDERS))
    shown = frame[(frame["meteor"] >= low) & (frame["meteor"] <= high)]
    if search.strip():  # spaces alone are no search ("  " showed "0 of 15 segments": a tester)
        shown = shown[corpus_ui.search_mask(shown, analysis, search)]
    column, ascending = ORDERS[order]
    sort_values = (shown["meteor"] - shown["bleu"]) if column == "gap" else shown[column]
    shown = shown.iloc[sort_values.reset_index(drop=True).sort_values(ascending=ascending, kind="stable").index]
    selection.keep_if_present(list(shown["line"]), "is hidden by the filter")
    st.caption(f"{len(shown):,} of {len(frame):,} segments shown. Tick the box at a row's left to open it; click a column "
               "header to sort. Fmean, token counts, matches per stage and the best reference's number "
               + ("" if config.mode == "paper" else "(and the optimal column: this mode's search proves nothing) ")
               + "are hidden: "
               "show them with the eye icon (Show/hide columns) of the toolbar above the table. Numbers are rounded "
               "here; the CSV and JSON exports keep full precision.")
    view = shown.drop(columns=["line"]) if analysis.id_source.startswith("line number") else shown
    corpus_ui.selectable_table(selection, view, list(shown["line"]), corpus_ui.segment_columns(view, config.mode),
                               name="table", others=("scatter",), column_order=corpus_ui.segment_column_order(view))

    if selection.line is not None:
        k = analysis.index_of_line[selection.line]
        segment = analysis.corpus.segments[k]
        selection.remember((analysis.ids[k], segment.references))
        where = ([f"line {selection.line}"] if analysis.ids[k] != str(selection.line) else []) + \
            ([f"{analysis.system_column} {analysis.systems[k]}" if analysis.systems[k].strip() else
              f"no {analysis.system_column}"] if analysis.systems else [])  # a blank cell: "system )" read oddly
        st.subheader(plain(f"Segment {analysis.ids[k]}" + (f" ({', '.join(where)})" if where else "")))
        st.text(f"Candidate: {segment.candidate}")
        st.text(f"Best reference ({segment.best_index + 1} of {len(segment.references)}): "
                f"{segment.references[segment.best_index]}")
        ui.show_warnings(segment.best)
        ui.show_diagram(segment.best, key="drill-diagram")
        ui.show_breakdown(segment.best, key="drill-breakdown")
        bleu = analysis.bleu[k]
        st.write(f"BLEU {bleu.score:.4f} on 0-1 ({100 * bleu.score:.2f} on 0-100)"
                 + (f" — {plain(bleu.zero_reason)}" if bleu.zero_reason else ""))
        ui.show_segment_link(segment.candidate, segment.references)
        if st.button("Close segment", key="clear-selection",
                     help="Closes this panel and unticks its row; the table toolbar's Clear selection does the same."):
            selection.set(None)
            selection.reset_widget("table")
            selection.reset_widget("scatter")
            st.rerun()
    else:
        st.info("Select a row (or click a point in the scatter) to see that segment's alignment and breakdown.")

    st.subheader("Export")
    # The mode in the file names: a file made while a mode change was on its way held the old
    # mode's numbers under the same name (its signature said so; a helper).
    corpus_ui.downloads(analysis.rows, summary, corpus_ui.export_name("meteor-corpus", config.mode, chosen),
                        list(shown["line"]))
    st.caption("Signature: " + plain(summary["signature"]))
