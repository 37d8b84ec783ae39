"""System Comparison: two or more systems against the same references: a ranking with 95%
intervals, paired significance tests for every pair, and any two systems segment by segment."""
import json

import pandas as pd
import streamlit as st

from lens import corpus_ui, ui
from lens.corpus_ui import plain
from meteor_core.corpus import analyze_systems, compare_analyses, rows_to_csv
from meteor_core.line_numbers import named_lines
from meteor_core.significance import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, MAX_SEED, format_p_value

PAGE = "compare"
st.title("System Comparison")
_, _, config = ui.segment_inputs(with_text=False, segment_page=False, link_written_by_page=True)
chosen = corpus_ui.corpus_inputs(PAGE, multi=True)
# In the link with the settings, so that a shared link gives the same intervals and p-values (it
# kept only the mode and parameters: a seed of 7 came back as 12345 on a reload, a tester).
LIMITS = {"resamples": (DEFAULT_RESAMPLES, 100, 10_000), "trials": (DEFAULT_TRIALS, 100, 100_000),
          "seed": (DEFAULT_SEED, 0, MAX_SEED)}
linked = {name: ui.link_number(name, *limits) for name, limits in LIMITS.items()}
if ui.history_navigation():  # Back / Forward: the entry's test settings, not the last ones typed (a tester)
    for name in LIMITS:
        corpus_ui.forget(name)
with st.expander("Significance test settings"):
    s1, s2, s3 = st.columns(3)
    resamples = int(s1.number_input("Bootstrap resamples", 100, 10_000, step=100,
                                    key=corpus_ui.kept("resamples", linked["resamples"])))
    trials = int(s2.number_input("Randomization trials", 100, 100_000, step=1000,
                                 key=corpus_ui.kept("trials", linked["trials"])))
    seed = int(s3.number_input("Seed", 0, MAX_SEED, step=1, key=corpus_ui.kept("seed", linked["seed"])))
ui.write_settings_link(**corpus_ui.source_link(PAGE),
                       **{name: str(value) for name, value in zip(LIMITS, (resamples, trials, seed))
                          if value != LIMITS[name][0]})

comparison = None
chosen, analyses = corpus_ui.analyse(PAGE, chosen, config, "Scoring the systems…",
                                     lambda data, progress: analyze_systems(data.corpora, config, data.names, progress))
if analyses is not None:
    comparison = corpus_ui.run_cached(
        f"{PAGE}-significance", corpus_ui._digest(chosen.digest, config, resamples, trials, seed),
        "Significance tests…", lambda progress: compare_analyses(analyses, chosen.names, config, resamples, trials,
                                                                seed, progress),
        lambda done, total: f"Significance tests: {done:,} of {total:,} resamples and randomization trials…")

if comparison is not None:
    sig = comparison.significance
    corpus_ui.show_unavailable_stages(comparison.analyses[0])  # one scorer for every system
    for name, analysis in zip(comparison.names, comparison.analyses):
        corpus_ui.show_counts(analysis, name, reference_notes=False)
    # the references are every system's: their empty ones are said once
    corpus_ui.show_reference_notes(list(dict.fromkeys(p for a in comparison.analyses for p in a.reference_notes)),
                                   "References: ", any(a.empty_references_scored for a in comparison.analyses))
    corpus_ui.say_if_not_kept(comparison)

    st.subheader("Ranking")
    ranking = pd.DataFrame([{
        "rank": r["rank"], "system": r["system"], "corpus METEOR": r["corpus_meteor"],
        "METEOR 95% CI": f"{r['meteor_ci_low']:.4f} – {r['meteor_ci_high']:.4f}",
        "mean segment METEOR": r["mean_segment_meteor"], "corpus BLEU": r["corpus_bleu"],
        "BLEU 95% CI": f"{r['bleu_ci_low']:.4f} – {r['bleu_ci_high']:.4f}"} for r in comparison.ranking()])
    number, text = st.column_config.NumberColumn, st.column_config.TextColumn
    # Short headers (full names in their help) and the mean of segment scores last: at 1,024 px
    # with the sidebar open all seven columns fit (a longer last header was cut by 14 px).
    st.dataframe(ranking, hide_index=True, width="stretch", key="ranking",
                 column_order=["rank", "system", "corpus METEOR", "METEOR 95% CI", "corpus BLEU", "BLEU 95% CI",
                               "mean segment METEOR"],
                 column_config={
        "rank": number("rank", format="%d", width=45),
        "corpus METEOR": number("METEOR", format="%.4f", help="Corpus METEOR (0-1), from statistics summed "
                                                              "over segments"),
        "METEOR 95% CI": text("METEOR CI", help="95% interval of corpus METEOR (paired bootstrap)"),
        "corpus BLEU": number("BLEU", format="%.4f", help="Corpus BLEU (0-1)"),
        "BLEU 95% CI": text("BLEU CI", help="95% interval of corpus BLEU (paired bootstrap)"),
        "mean segment METEOR": number("seg. mean", format="%.4f",
                                      help="Mean of the segment scores (0-1); not corpus METEOR")})
    left_out = comparison.left_out
    common = len(comparison.common_lines)
    st.caption(f"On the {common:,} segment{'' if common == 1 else 's'} scored in every system"
               + (f" ({comparison.left_out_sentence()}"
                  + ("; " + named_lines(left_out) + (", each a segment's first row in the long table"
                                                      if chosen.lines_are_first_rows else "") if left_out else "")
                  + ")" if comparison.left_out_sentence() else "")
               + f". 95% intervals from {sig.resamples:,} paired bootstrap resamples (seed {sig.seed}). "
                 "Corpus scores come from statistics summed over segments; the rank is by corpus METEOR, the "
                 "number the significance tests below compare.")
    mean_order = comparison.mean_order_note(config.mode, "seg. mean")
    if mean_order:
        st.info(plain(mean_order))
    for note in sig.notes:
        st.warning(plain(note))

    st.subheader("Is the difference significant?")
    pairs = pd.DataFrame([{
        "metric": p.metric, "system A": p.system_a, "system B": p.system_b, "B − A": p.difference,
        "95% CI of B − A": f"{p.difference_ci_low:+.4f} – {p.difference_ci_high:+.4f}",
        "verdict at 0.05": p.verdict(),
        # As text: "%.4f" showed 500/10,001 as 0.0500 beside "significant (p < 0.05)" (a tester)
        "p (paired bootstrap)": format_p_value(p.p_value_bootstrap),
        "p (approx. randomization)": format_p_value(p.p_value_randomization)}
        for p in sig.pairs])
    # Short headers (the full names in their help), and the verdict before the numbers behind it:
    # at 1,400 px all eight columns fit; on a narrower screen the last ones scroll sideways.
    st.dataframe(pairs, hide_index=True, width="stretch", key="pairs", height=min(700, 35 * (len(pairs) + 1) + 3),
                 column_order=["metric", "system A", "system B", "B − A", "verdict at 0.05", "p (paired bootstrap)",
                               "p (approx. randomization)", "95% CI of B − A"],
                 column_config={
        "metric": text("metric", width="small"),
        # "first" and "second", not "A" and "B": systems named B and A read "B − A" here for what the
        # segment table below calls "A − B" (a tester)
        "system A": text("first system"), "system B": text("second system"),
        "B − A": number("second − first", format="%+.4f",
                        help="Difference of corpus scores on the 0-1 scale (unrounded)"),
        "95% CI of B − A": text("95% CI", help="95% interval of second − first from the paired bootstrap"),
        # Sized to its content, the verdicts being at most 47 characters: a borderline one showed as
        # "significant (both tests p < 0.05), b" (a tester), and a fixed 280 px cut off the 95% CI
        # column with WMT's longer system names; the p-values need little room.
        "verdict at 0.05": text("verdict", help="Significant when both tests give p < 0.05; borderline "
                                                           "when the 95% interval of the difference includes 0 all "
                                                           "the same"),
        "p (paired bootstrap)": text("p boot.", width="small", help="p-value of the paired bootstrap (more digits "
                                                                    "where 4 would round across 0.05)",
                                     alignment="right"),
        "p (approx. randomization)": text("p rand.", width="small", help="p-value of approximate randomization "
                                                                         "(more digits where 4 would round across "
                                                                         "0.05)", alignment="right")})
    st.caption(f"Paired bootstrap resampling (Koehn 2004; p-value as sacreBLEU computes it) with {sig.resamples:,} "
               f"resamples, approximate randomization (as MultEval) with {sig.trials:,} trials, seed {sig.seed}: the "
               "same settings give the same numbers. Second − first comes from the unrounded scores, so its last digit can "
               "differ from the difference of the rounded scores above. A difference counts as significant when "
               "both tests give "
               "p < 0.05. The interval is the 2.5-97.5 percentile range of the resampled differences; the "
               "bootstrap p-value compares the observed difference with those differences shifted to mean 0 "
               "(sacreBLEU's method), so an interval that includes 0 can go with p < 0.05, or the reverse. "
               "The two p-values come from different resampling (segments drawn with replacement; each "
               "segment's two outputs swapped at random), so near the threshold they can differ widely: that "
               "is why a difference must pass both. "
               "Settings are in 'Significance test settings' above.")

    st.subheader("Segment by segment")
    names = list(comparison.names)
    c1, c2 = st.columns(2)
    # A default never takes the other box's system: with system A's column removed, A fell
    # back to the first system, which B held, and the page showed only an error (a tester).
    held_by_b = st.session_state.get("pair-b")
    default_a = corpus_ui.first_other(names, held_by_b)
    # Two boxes kept apart could come back holding one system (after a comparison that failed,
    # then another language pair: A and B both Online-A, an error until changed by hand: a
    # tester). Choosing the other's system swaps them; a kept B equal to A is forgotten.
    # Kept per set of systems: another language pair's systems and back chose B afresh (a tester)
    systems = tuple(names)
    if corpus_ui.kept_value("pair-a", default_a, names, systems) == corpus_ui.kept_value("pair-b", None, names, systems):
        corpus_ui.forget("pair-b", systems)
    name_a = c1.selectbox("System A", names, on_change=corpus_ui.swap_if_same, args=("pair-a", "pair-b"),
                          key=corpus_ui.kept("pair-a", default_a, names, systems))
    name_b = c2.selectbox("System B", names, on_change=corpus_ui.swap_if_same, args=("pair-b", "pair-a"),
                          key=corpus_ui.kept("pair-b", corpus_ui.first_other(names, name_a), names, systems))
    if name_a == name_b:
        st.error("Choose two different systems for A and B.")
    else:
        a, b = names.index(name_a), names.index(name_b)
        selection = corpus_ui.Selection(PAGE)
        selection.follow_data(chosen.source, chosen.label)  # a line is the same segment in every system: keep it across pairs
        rows = pd.DataFrame(comparison.pair_rows(a, b))
        # Another language pair's row is not "unscored": say which (a tester saw the wrong reason)
        selection.keep_if_present(list(rows["line"]), "is not among the rows shown (another language pair's, or not "
                                  "scored in both systems with these settings)" if chosen.rows_narrowed else
                                  "is not scored in both systems with these settings")
        only_disagree = st.checkbox("Only segments where METEOR and BLEU move in opposite directions",
                                    key=corpus_ui.kept("disagree", False))
        shown = rows[rows["disagree"]] if only_disagree else rows
        selection.keep_if_present(list(shown["line"]), "is hidden by the filter")
        st.caption(plain(f"{name_b} minus {name_a}, largest METEOR change first. {len(shown):,} of {len(rows):,} "
                         f"segments shown; {int(rows['disagree'].sum()):,} with the metrics disagreeing. Segment id: "
                         f"{comparison.analyses[a].id_source}. Tick the box at a row's left to see both alignments."))
        view = shown.drop(columns=["line"]) if comparison.analyses[a].id_source.startswith("line number") else shown
        # Named by system, not by box: with systems named A, B and C, C in box B read "B METEOR"
        # and "B: C" (a tester). Column labels are plain text in the grid.
        short_a, short_b = corpus_ui.two_short_names(name_a, name_b)
        corpus_ui.selectable_table(selection, view, list(shown["line"]), {
            "id": text("id", width="small"), "line": number("line", format="%d", width="small"),
            "candidate_a": text(f"{short_a}: candidate", width="medium"),
            "candidate_b": text(f"{short_b}: candidate", width="medium"),
            "best_reference_a": text(f"best reference ({short_a})", width="medium"),
            "best_reference_b": text(f"best reference ({short_b})", width="medium"),
            "meteor_a": number(f"{short_a} METEOR", format="%.4f"), "meteor_b": number(f"{short_b} METEOR", format="%.4f"),
            "meteor_delta": number(f"Δ METEOR ({short_b} − {short_a})", format="%+.4f"),
            "bleu_a": number(f"{short_a} BLEU", format="%.4f"), "bleu_b": number(f"{short_b} BLEU", format="%.4f"),
            "bleu_delta": number(f"Δ BLEU ({short_b} − {short_a})", format="%+.4f"),
            "disagree": st.column_config.CheckboxColumn("metrics disagree")}, name="delta-table",
            # The numbers the table is sorted by first, the texts after them: four text columns first
            # pushed every score past the right edge at 1,400 px (a tester).
            column_order=[c for c in ("id", "line", "meteor_delta", "meteor_a", "meteor_b", "bleu_delta", "bleu_a",
                                      "bleu_b", "disagree", "candidate_a", "candidate_b", "best_reference_a",
                                      "best_reference_b")
                          if c in view.columns])
        if selection.line is not None:
            line = selection.line
            first, second = comparison.analyses[a], comparison.analyses[b]
            seg_a, seg_b = first.segment(line), second.segment(line)
            seg_id = first.ids[first.index_of_line[line]]
            st.subheader(plain(f"Segment {seg_id}") + (f" (line {line})" if seg_id != str(line) else ""))
            def reference_line(segment) -> str:  # the reference a system's alignment is drawn against
                count = len(segment.references)
                which = f" {segment.best_index + 1} of {count} (its best)" if count > 1 else ""
                return f"Reference{which}: {segment.references[segment.best_index]}"

            same_reference = seg_a.best_index == seg_b.best_index
            if same_reference:
                st.text(reference_line(seg_a))
            for label, name, analysis, segment in (("A", name_a, first, seg_a), ("B", name_b, second, seg_b)):
                k = analysis.index_of_line[line]
                st.markdown(f"**{plain(name)}** (System {label}) — METEOR {segment.score:.4f}, "
                            f"BLEU {analysis.bleu[k].score:.4f}")
                st.text(segment.candidate)
                if not same_reference:  # each diagram says which reference it is drawn against
                    st.text(reference_line(segment))
                ui.show_diagram(segment.best, key=f"diagram-{label}")
                ui.show_segment_link(segment.candidate, segment.references, f"{plain(name)}'s segment")
            corpus_ui.breakdown_table({name_a: seg_a.best, name_b: seg_b.best})
        else:
            st.info("Select a row to see both alignments one above the other.")

    st.subheader("Export")  # each file made when its button is clicked (corpus_ui.downloads)
    e1, e2 = st.columns(2)
    e1.download_button("Ranking and significance (JSON)",  # the CLI's compare --json, the same numbers
                       lambda c=comparison: json.dumps(c.to_dict(), ensure_ascii=False, indent=1, default=str),
                       file_name=f"meteor-comparison-{comparison.config.mode}.json", mime="application/json",
                       on_click="ignore")
    if name_a != name_b:
        # All segments whatever the filter shows (a tester expected the 181 shown, got 1,984):
        # said in the label; the disagree column lets a spreadsheet filter the same way.
        e2.download_button("Per-segment deltas, all segments (CSV)",
                           lambda c=comparison, a=a, b=b: rows_to_csv(c.pair_rows(a, b)),
                           file_name=f"meteor-comparison-{comparison.config.mode}-segments.csv", mime="text/csv",
                           on_click="ignore",
                           help="Every segment, not only those the filter above shows; the disagree column marks "
                                "those where METEOR and BLEU move in opposite directions.")
    # How the numbers were made, as the other pages and the command line give it (a tester: none here).
    st.caption("Signature: " + plain(comparison.signature))
