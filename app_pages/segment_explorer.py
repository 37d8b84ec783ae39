"""Segment Explorer: paste a candidate and references, see why METEOR gives that score."""
import streamlit as st

from lens import figures, ui
from lens.ui import md_escape
from meteor_core.methods import token_noun

st.title("Segment Explorer")
candidate, references, config = ui.segment_inputs()
exploration = ui.run_explore(candidate, references, config) if config is not None else None

if exploration is not None:
    result = exploration.result
    ui.show_warnings(result.best)
    if not result.best.candidate_tokens and result.best.breakdown.note:
        # Text of characters the tokenizer leaves out (a zero-width space) is scored 0 with an empty
        # candidate row; the reason was only in the breakdown further down (a tester).
        st.info(md_escape("The candidate box holds only characters the tokenizer leaves out (such as zero-width "
                          f"spaces): {result.best.breakdown.note}."))
    if len(result.per_reference) > 1:
        st.subheader("References")
        # Numbered: the texts below name references by number ("reference 3": a teacher).
        st.markdown(ui.markdown_table(("#", "", "reference", "METEOR", "matches", "chunks"), [
            (k + 1, "★ best" if k == result.best_index else "", md_escape(reference), f"{r.score:.4f}",
             r.stats.matches, r.stats.chunks)
            for k, (reference, r) in enumerate(zip(result.references, result.per_reference))], align="rllrrr"))
        shown = ui.reference_choice(len(result.per_reference), result.best_index)
    else:
        shown = 0
    segment = result.per_reference[shown]

    comparison = exploration.comparison
    on_best = shown == result.best_index  # the comparisons are on the best reference
    highlight = comparison.only_in_chosen if comparison is not None and comparison.differs and on_best else ()
    mode_name = ui.MODE_LABELS[result.best.config.mode]
    other_name = ui.MODE_LABELS[comparison.other_mode] if comparison is not None else ""

    if on_best:
        st.subheader(f"Alignment — METEOR {segment.score:.4f}")
    else:  # two METEORs on one screen, the breakdown's and Which METEOR?'s, each said for what it is (a teacher)
        st.subheader(f"Alignment with reference {shown + 1} — METEOR {segment.score:.4f} on it")
        st.caption(f"The segment's METEOR is {result.score:.4f}, on reference {result.best_index + 1} (its best); "
                   "the score breakdown below is on the reference drawn here, Which METEOR? on the best one and "
                   "BLEU on all of them.")
    view = ui.view_choice()
    longest = max(len(segment.candidate_tokens), len(segment.reference_tokens))
    if view == "matrix" and longest > figures.MATRIX_MAX_TOKENS:
        st.info(f"The matrix is drawn for pairs of up to {figures.MATRIX_MAX_TOKENS} tokens a side; this one has "
                f"{len(segment.candidate_tokens)} × {len(segment.reference_tokens)}, too many squares to read. "
                "The diagram shows it instead.")
        view = "diagram"
    if view == "diagram":
        drawn = ui.show_diagram(segment, key="diagram", highlight=highlight, highlight_label=f"not in {other_name} mode",
                                matrix_view=longest <= figures.MATRIX_MAX_TOKENS)
        if drawn:  # a long pair's diagram is drawn only when asked (ui.LONG_DIAGRAM_TOKENS)
            st.caption("Candidate above, reference below. Lines: links, coloured by stage"
                       + ("; filled bands: phrase-to-phrase links (paraphrases); italic: function words, which weigh "
                          "less" if segment.meteor15 is not None else "")
                       + ". Hollow grey: unmatched. Shaded numbered bands: chunks. Hover a token or the middle of a "
                         "link for stage and evidence.")
    else:
        st.plotly_chart(figures.alignment_matrix(segment), width="content", key="matrix")
        units = token_noun(segment, 2)  # characters for Chinese and Japanese
        st.caption(f"Columns: candidate {units}; rows: reference {units}; a square per link, coloured by stage. A "
                   f"chunk is a run of links down the diagonal (next {token_noun(segment)} on both sides): a "
                   "numbered box around each. "
                   + (f"Italic: function words, weight 1 − δ = {1 - segment.config.params.delta:g} (content words "
                      f"{segment.config.params.delta:g}). " if segment.meteor15 is not None else "")
                   + "Hover a square for its evidence."
                   + (" Right-to-left words run in token order from the left here (position 0 at the left), unlike "
                      "the diagram." if figures.right_to_left(segment) else ""))
    ui.show_punctuation_note(segment)
    if comparison is not None and comparison.differs and on_best:
        # A toggle, not an expander: a collapsed expander still draws its chart.
        if st.toggle(f"Show the {other_name}-mode alignment", key="w_show_other"):
            other = comparison.other_best
            ui.show_diagram(other, key="other-diagram", highlight=comparison.only_in_other,
                            highlight_label=f"not in {mode_name} mode", title=f"{other_name} mode: {other.score:.4f}")

    st.subheader("Which METEOR?")
    if exploration.comparisons:
        # Which parameters each row uses, as explore.compare_modes chooses them: the intro said "their own
        # defaults" for every row while the nltk row used this view's alpha 0.5 (a teacher).
        parameters = ("The paper and nltk rows use their own default parameters (each row names them)"
                      if config.mode == "meteor15" else
                      "The paper and nltk rows use this view's parameters; the METEOR 1.5 row uses the jar's own (it "
                      "names them)")
        st.caption("The same pair in each METEOR this app reproduces (on the best reference of this view): the 2005 "
                   "paper, nltk's meteor_score and the METEOR 1.5 jar most papers report, and what makes them differ. "
                   + parameters + ". Switching mode keeps the parameters you changed here, so a mode's score can "
                   "differ from its row.")
        ui.show_which_meteor(exploration, overlay=on_best, halo_drawn=view == "diagram")
    elif config.language != "en":
        st.caption("nltk and METEOR 1.5 modes exist for English only: no comparison for this language.")

    st.subheader("Score breakdown")
    ui.show_breakdown(segment)

    st.subheader("BLEU side by side")
    ui.show_bleu(exploration)

    st.divider()
    left, right = st.columns(2)
    with left:
        ui.export_json(exploration)
    with right:
        st.radio("Diagram image format (camera icon on the diagram)", ("png", "svg"), key="w_image_format",
                 horizontal=True)
    st.caption(f"Signature: `{result.signature}`")
