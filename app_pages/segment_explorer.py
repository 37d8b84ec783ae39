"""Segment Explorer: paste a candidate and references, see why METEOR gives that score."""
import streamlit as st

from lens import figures, ui
from lens.ui import md_escape

st.title("Segment Explorer")
candidate, references, config = ui.segment_inputs()
exploration = ui.run_explore(candidate, references, config) if config is not None else None

if exploration is not None:
    result = exploration.result
    ui.show_warnings(result.best)
    if len(result.per_reference) > 1:
        st.subheader("References")
        st.markdown(ui.markdown_table(("", "reference", "METEOR", "matches", "chunks"), [
            ("★ best" if k == result.best_index else "", md_escape(reference), f"{r.score:.6f}", r.stats.matches,
             r.stats.chunks)
            for k, (reference, r) in enumerate(zip(result.references, result.per_reference))], align="llrrr"))
        shown = st.radio("Diagram for reference", list(range(len(result.per_reference))), horizontal=True,
                         index=result.best_index,
                         format_func=lambda k: f"{k + 1}" + (" (best)" if k == result.best_index else ""))
    else:
        shown = 0
    segment = result.per_reference[shown]

    comparison = exploration.comparison
    highlight = ()
    if comparison is not None and comparison.differs and shown == result.best_index:
        other = comparison.other.per_reference[result.best_index]
        highlight = comparison.only_in_chosen
        like = ("" if comparison.same_stages is None else
                f" Compared with the same stages ({', '.join(comparison.same_stages.best.config.stages)}) as well.")
        lines = [f"**{comparison.other_mode} mode scores this pair differently**: {config.mode} {segment.score:.4f} vs "
                 f"{comparison.other_mode} {other.score:.4f}.{like}"]
        lines += [f"- {md_escape(cause.text)}" for cause in comparison.causes]
        lines.append(f"\nLinks only in this view: orange dotted overlay ({len(comparison.only_in_chosen)}); "
                     f"{comparison.other_mode} mode uses {len(comparison.only_in_other)} link(s) this view does not.")
        st.info("\n".join(lines))
    elif comparison is None and config.language != "en":
        st.caption("nltk mode exists for English only: no mode comparison for this language.")

    st.subheader(f"Alignment — METEOR {segment.score:.4f}")
    view = st.radio("View", ("diagram", "matrix"), horizontal=True, label_visibility="collapsed", key="w_view")
    if view == "diagram":
        ui.show_diagram(segment, key="diagram", highlight=highlight)
        st.caption("Candidate above, reference below. Lines: links, coloured by stage. Hollow grey: unmatched. "
                   "Shaded numbered bands: chunks. Hover a token or the middle of a link for stage and evidence.")
    else:
        st.plotly_chart(figures.alignment_matrix(segment), width="content", key="matrix")
    if comparison is not None and comparison.differs and shown == result.best_index:
        # A toggle, not an expander: a collapsed expander still draws its chart.
        if st.toggle(f"Show the {comparison.other_mode}-mode alignment", key="w_show_other"):
            other = comparison.other.per_reference[result.best_index]
            ui.show_diagram(other, key="other-diagram", highlight=comparison.only_in_other,
                            title=f"{comparison.other_mode} mode: {other.score:.4f}")

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
