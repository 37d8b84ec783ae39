"""Plotly figures built from meteor_core result objects. Pure: result in, figure out.

Plotly renders a subset of HTML in text, hover labels and tick labels (<b>, <a href>, <br>):
every piece of user text (tokens, evidence, ids) goes through `esc` so it shows as typed."""
from __future__ import annotations

import html
import math
import unicodedata
from typing import Iterable, Optional, Sequence

import plotly.graph_objects as go

from meteor_core.result import SegmentResult, span_label

# Okabe-Ito: a colour-blind-safe palette, used for the same stage everywhere in the app.
STAGE_COLORS = {"exact": "#0072B2", "stem": "#009E73", "synonym": "#E69F00", "paraphrase": "#AA3377"}
TABLE_COLOR = "#CC79A7"
# 4.8:1 on white (#8C8C8C was 3.4:1, weak on a projector: a tester)
UNMATCHED_COLOR = "#717171"
# Grey: the stages and crossings own every hue of the palette (vermillion read as synonym orange).
# Mid grey, drawn as a halo under the link: black over it hid the link's stage colour (a synonym
# link looked brown), and a black legend swatch vanished on the dark theme (a tester).
DIFF_COLOR = "#7A7A7A"
# Four band fills: chunks that touch on either row get different ones (chunk_fills). No pink:
# METEOR 1.5's paraphrase links are pink filled bands, and a pink chunk band under one read as
# part of it, a third kind of chunk (an app tester).
CHUNK_FILLS = ("rgba(86,180,233,0.22)", "rgba(240,228,66,0.30)", "rgba(0,158,115,0.16)", "rgba(120,120,120,0.20)")
CHUNK_OUTLINE = "rgba(0,0,0,0.35)"
CROSSING_COLOR = "#D55E00"
NEW_LINK_HALO = "rgba(240,228,66,0.85)"
#: Matched words' labels, function words included: METEOR 1.5's function words were a lighter
#: grey, which read as the grey of unmatched words (a teacher); italic alone marks them.
MATCHED_TEXT_COLOR = "#111111"
HOVER_LABEL = dict(align="left", bgcolor="white", bordercolor="#717171", font=dict(color="#262730"))
#: Pairs longer than this (tokens a side) build their diagram without Plotly's property checks.
UNCHECKED_FIGURE_TOKENS = 200
#: Half the width of a phrase band's end around its first and last token.
SPAN_PAD = 0.3


def esc(text: object) -> str:
    """User text as Plotly shows it literally: <, > and & become entities Plotly decodes."""
    return html.escape(str(text), quote=False)


def stage_color(stage: str) -> str:
    return STAGE_COLORS.get(stage, TABLE_COLOR)


def _middle(start: int, stop: int) -> float:
    """x of the middle of tokens [start, stop)."""
    return (start + stop - 1) / 2


def chunk_fills(spans: Sequence) -> list[int]:
    """An index into CHUNK_FILLS per chunk (candidate order), different for chunks next to each
    other on the candidate row or on the reference row. Alternating two fills in candidate
    order gave neighbours on the reference row one colour, so "the cat sat" + "on the mat"
    read as two chunks where the score counts six (a tester). A chunk has at most three
    neighbours coloured before it (one candidate-side, two reference-side), so four fills do."""
    neighbours: list[set[int]] = [set() for _ in spans]
    for k in range(1, len(spans)):
        neighbours[k].add(k - 1)
    by_reference = sorted(range(len(spans)), key=lambda k: spans[k].reference_start)
    for a, b in zip(by_reference, by_reference[1:]):
        neighbours[a].add(b)
        neighbours[b].add(a)
    fills: list[int] = []
    for k in range(len(spans)):
        taken = {fills[x] for x in neighbours[k] if x < k}
        fills.append(min(f for f in range(len(CHUNK_FILLS)) if f not in taken))
    return fills


#: Links are drawn from just under the candidate row (y 1) to just over the reference row (y 0).
LINK_INSET = 0.06
#: Pixels from a slanted label's bounding box edge (its anchor) to the middle of the text's end
#: nearest the dot: half a line of 13 px text (~16 px) times sin 60 degrees. Shifted by it, a
#: label starts (candidate) or ends (reference) right at its dot; anchored at the box, each label
#: stood half a token to the side, over its neighbour's dot at 20 px a token ("dogs" over the
#: comma after it: a teacher).
LABEL_ANCHOR_SHIFT = 7
#: Pixels between the candidate and the reference row: one y unit.
ROW_GAP = 230
#: A chunk number's box, half its height in y units (13 px of text in the ROW_GAP px between the rows)
NUMBER_HALF_HEIGHT = 7 / ROW_GAP
#: From a band's edge to the middle of its number's tab (half its height and its 1 px border),
#: so the tab hangs from the band.
NUMBER_TAB_OFFSET = NUMBER_HALF_HEIGHT + 2 / ROW_GAP
#: Slanted labels: pixels from the row to where a label starts, and to the outer edge of the
#: row's chunk bands. The bands reached 28 px out and the labels started at 12, so every label's
#: first letters sat on the band's outline (a helper, with long words); now the band ends just
#: past the dot (11 px marker, 1.5 px outline) and 6 px of white keep the two apart.
SLANTED_LABEL_STANDOFF = 15
SLANTED_BAND_REACH = 9
#: Where a chunk number may move, in token widths either side of its band's middle.
NUMBER_REACH = 1.0
#: Tokens a chunk number keeps from a phrase link's band, and how far it may move from its band's
#: middle to find such a place (chunk_number_x).
PHRASE_BAND_MARGIN = 0.25
PHRASE_REACH = 6
#: How far a chunk band reaches beyond the middle of its first and last token, in token widths.
BAND_PAD = 0.42
#: A second row of chunk numbers, one tab further into the gap, for a number with no free place
#: on its band's edge (one-word chunks side by side whose numbers are wider than a token).
NUMBER_TIER_STEP = 2 * NUMBER_TAB_OFFSET + 1 / ROW_GAP  # a tab's whole height (18 px) and 1 px: 17 let corners touch
#: The narrowest column the diagram is drawn in (853 px, a 1,280-px projector at 150%): Plotly
#: squeezes the figure to it while its text keeps its size, so a number's room is reckoned there.
NARROWEST_COLUMN = 520


def number_half_width(number: int, unit_px: float) -> float:
    """Half a chunk number's width (bold 11 px digits and its padding) in token widths, with a
    px or two to spare: what placing keeps clear of links and of the other numbers."""
    return (7 * len(str(number)) + 6) / 2 / unit_px


#: Width of a bold digit of the chunk numbers' font (Source Sans), in ems: "10" at 11 px is
#: 11.8 px wide in Chromium (a tab 15 px inside its 1 px border).
DIGIT_EM = 0.54
#: A chunk number's font size and padding (px), and the smaller ones of a number wider than its band.
NUMBER_FONT, NUMBER_PAD = 11, 1
COMPACT_NUMBER_FONT, COMPACT_NUMBER_PAD = 10, 0
#: From a band's edge to the middle of a compact tab: 14 px high where the 11 px one with its
#: padding is 18 (measured), its middle is 2 px nearer the band, so that it hangs from it too.
COMPACT_TAB_OFFSET = NUMBER_TAB_OFFSET - 2 / ROW_GAP


def number_style(number: int, band_px: float) -> tuple[int, int, float]:
    """(font size, padding, offset from the band's edge) of a chunk number on a band band_px wide
    (outline included) at the narrowest column. Two digits over a one-word chunk were 16 px on a
    13 px band, overhanging it by 2.5 px (a helper): such a number is drawn smaller, without
    padding, when that fits (a wider one keeps its size: smaller would not fit either)."""
    def tab_px(font: int, pad: int) -> float:  # the digits, the padding and a 1 px border each side
        return DIGIT_EM * font * len(str(number)) + 2 * pad + 2

    if tab_px(NUMBER_FONT, NUMBER_PAD) > band_px >= tab_px(COMPACT_NUMBER_FONT, COMPACT_NUMBER_PAD):
        return COMPACT_NUMBER_FONT, COMPACT_NUMBER_PAD, COMPACT_TAB_OFFSET
    return NUMBER_FONT, NUMBER_PAD, NUMBER_TAB_OFFSET


def chunk_number_x(span, y: float, half_width: float, taken: Sequence[tuple[float, float]] = (),
                   own_links: bool = True, phrase_bands: Sequence[tuple[float, float, float, float]] = ()
                   ) -> tuple[float, float]:
    """Where a chunk's number goes at height y (candidate row 1, reference row 0), and the room
    it has there (>= 0: it touches no link of its chunk and no number in `taken`): below or
    above the middle of its band unless one of the chunk's own links crosses the number's box
    there; else the nearest place, at most NUMBER_REACH away and within its band, where none
    does, or the one with the most room. `taken`: (x, half width) of the numbers already placed
    at this height, which a free place keeps clear of too ("9" and "10" read "910"). At the
    band's middle a number sat on the middle link of an odd-length chunk (a teacher); with a
    point instead of a box, slanted links still crossed 73 of 155 numbers at 853 px. Within
    its band: a number a token away sat under the next chunk's band, and 30 one-word chunks in
    reverse order had numbers 13-29 each under their right neighbour and 30 out of view (a
    helper). own_links False: room from the other numbers only (a number wider than its band
    cannot keep clear of its links). `phrase_bands`: (left, right) of each phrase link's band on
    the candidate row, then on the reference row; a number keeps clear of them as of its links:
    a one-chunk sentence's only "1" sat in METEOR 1.5's pink paraphrase band and read as the
    paraphrase's number (a teacher)."""
    diagonal = span.reference_start - span.candidate_start  # every link of a chunk has it
    top, bottom = 1 - LINK_INSET, LINK_INSET

    def x_at(k: int, t: float) -> float:  # link k of the chunk at height t
        return span.candidate_start + k + (top - t) / (top - bottom) * diagonal

    spans = [sorted((x_at(k, y - NUMBER_HALF_HEIGHT), x_at(k, y + NUMBER_HALF_HEIGHT)))
             for k in range(span.candidate_end - span.candidate_start)]

    def band_at(t: float, band) -> tuple[float, float]:  # a phrase band's (left, right) at height t
        share = (top - t) / (top - bottom)
        return band[0] + share * (band[2] - band[0]), band[1] + share * (band[3] - band[1])

    for band in phrase_bands:  # the band over the number's height, and a margin: at its very edge
        # a number still read as the band's (and met its halo, when the band has one)
        ends = [band_at(y - NUMBER_HALF_HEIGHT, band), band_at(y + NUMBER_HALF_HEIGHT, band)]
        spans.append((min(e[0] for e in ends) - PHRASE_BAND_MARGIN, max(e[1] for e in ends) + PHRASE_BAND_MARGIN))

    def clearance(x: float) -> float:  # from the box's middle to the nearest link inside its height
        return min(max(lo - x, x - hi, 0.0) for lo, hi in spans)

    start = span.candidate_start if y > 0.5 else span.reference_start
    # this row's length: a phrase link's two sides differ ("a decision" -> "decide"), and the
    # reference row's number sat a token past its band, on another chunk's link (a tester)
    length = span.candidate_end - span.candidate_start if y > 0.5 else span.reference_end - span.reference_start
    middle = start + (length - 1) / 2
    # Further when a phrase band crosses its band (a paraphrase over the middle of a long chunk
    # left no clear place within NUMBER_REACH), up to PHRASE_REACH: a place is a pass over the
    # chunk's links: every place of a 400-token chunk would be some 8,000 passes over 400 links.
    crossed = any(lo < start + length - 1 + BAND_PAD and hi > start - BAND_PAD for lo, hi in spans[length:])
    steps = round((min(length, PHRASE_REACH) if crossed else NUMBER_REACH) / 0.05)
    lowest = start - BAND_PAD + half_width  # the box within its band (drawn BAND_PAD beyond its tokens)
    highest = length - 1 + start + BAND_PAD - half_width
    places = sorted((x for x in (middle + j * 0.05 for j in range(-steps, steps + 1)) if lowest <= x <= highest),
                    key=lambda x: abs(x - middle)) or [middle]  # wider than its band: centred on it

    def slack(x: float) -> float:  # room to spare: >= 0 when the box touches neither links nor numbers
        return min([clearance(x) - half_width if own_links else float("inf")]
                   + [abs(x - other) - half_width - other_half for other, other_half in taken])

    clear = next((x for x in places if slack(x) >= 0), None)
    x = clear if clear is not None else max(places, key=slack)
    return x, slack(x)


def _link_ends(link) -> tuple[float, float]:
    """Where a link's line starts and ends on the two rows (the middle of each span)."""
    return _middle(link.candidate, link.candidate_stop), _middle(link.reference, link.reference_stop)


def _cut_label(text: str, limit: int = 0) -> str:
    """A label cut to `limit` characters (default SLANTED_LABEL_CHARS) with "…" (the whole word
    stays in the hover)."""
    limit = limit or SLANTED_LABEL_CHARS
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _shown_label(text: str) -> str:
    """A token with nothing visible in it (METEOR 1.5 keeps a right-to-left mark or a lone
    Hebrew vowel point as a token) is labelled by its code points: its circle had no label."""
    if any(unicodedata.category(ch)[0] not in "MZC" for ch in text):
        return text
    return " ".join(f"U+{ord(ch):04X}" for ch in text)


def _slanted_label_margin(result: SegmentResult, window: int, width: int) -> int:
    """The right margin (px) that the candidate row's slanted labels need in a figure `width` px
    wide with the usual 20: each runs right of its token by half its length plus a line's
    height, and the last ones ran out of the figure ("internationalizati",
    "pneumonoultramicroscopi": a helper). Measured with the tokens as close as the narrowest
    column puts them; at least the usual 20 px."""
    tokens = result.candidate_tokens[:window]
    unit_px = (width - 110) / (window + 0.6) * min(1.0, NARROWEST_COLUMN / width)
    rtl = right_to_left(result)
    need = 0.0
    for k, t in enumerate(tokens):
        reach = len(_cut_label(_shown_label(t.text))) * 7.5 * 0.5 + 16 * 0.87 - LABEL_ANCHOR_SHIFT
        room = (k + 0.8 if rtl else window - 0.2 - k) * unit_px  # to the plot's right edge
        need = max(need, reach - room + 4)
    return max(20, math.ceil(need))


def _span_text(tokens, start: int, stop: int) -> str:
    return esc(span_label(tokens, start, stop))


#: Characters of a straight token label: the spacing of tokens makes room for this many.
STRAIGHT_LABEL_CHARS = 18


def _unit_width(result: SegmentResult) -> int:
    longest = max(map(len, result.candidate_tokens.texts + result.reference_tokens.texts), default=1)  # both sides may be empty (METEOR 1.5)
    return max(44, 8 * min(longest, STRAIGHT_LABEL_CHARS) + 14)


#: Width the diagram may take on a page.
MAX_DIAGRAM_WIDTH = 1100
#: The page's column can be this narrow (564 px measured on a 1,024-px screen, a classroom
#: projector's, with the sidebar open), and Plotly then squeezes the figure into it while its
#: text keeps its size: straight labels are used only when they fit this width, otherwise
#: slanted ones ("automobile" and "halted" ran together as "automobilehalted": a tester).
STRAIGHT_LABELS_WIDTH = 560


#: Characters of a slanted token label (the room above and below the rows is made for them).
SLANTED_LABEL_CHARS = 24

#: Narrowest spacing of tokens, in pixels, at MAX_DIAGRAM_WIDTH: squeezed into the narrowest
#: column it is still 16 px, the room slanted labels of 13 px text need.
MIN_UNIT = 32


def tokens_in_view(result: SegmentResult, max_width: int = MAX_DIAGRAM_WIDTH) -> int:
    """How many token positions the diagram shows at first: all of them, unless they do not fit
    at MIN_UNIT pixels each."""
    n = max(len(result.candidate_tokens), len(result.reference_tokens))
    return min(n, max(1, (max_width - 120) // MIN_UNIT))


def _reads_right_to_left(tokens) -> bool:
    """Most of the tokens that hold a letter begin with a right-to-left letter (Arabic, Hebrew)."""
    directions = []
    for token in tokens:
        first = next((unicodedata.bidirectional(ch) for ch in token.text
                      if unicodedata.bidirectional(ch) in ("L", "R", "AL")), None)
        if first is not None:
            directions.append(first != "L")
    return bool(directions) and 2 * sum(directions) > len(directions)


def right_to_left(result: SegmentResult) -> bool:
    """Whether the diagram runs right to left, position 0 at the right: when both sides read
    that way. Drawn left to right, an Arabic pair read backwards (a tester); a pair that mixes
    directions keeps token order from the left."""
    return _reads_right_to_left(result.candidate_tokens) and _reads_right_to_left(result.reference_tokens)


def alignment_diagram(result: SegmentResult, title: str = "", highlight: Iterable[tuple[int, int]] = (),
                      links=None, max_width: int = MAX_DIAGRAM_WIDTH, show_chunks: Optional[bool] = None,
                      new_links: Sequence = (), crossings: Sequence = (),
                      highlight_label: str = "differs from the other mode",
                      new_links_label: str = "new in this step") -> go.Figure:
    """Candidate tokens above, reference tokens below, one line per link coloured by stage, a
    numbered band per chunk on both rows. For a step-through: `links` overrides the result's
    links, `new_links` get a halo, `crossings` (pairs of links) are highlighted with an x where
    they cross; chunk bands are drawn when `show_chunks` (default: when all links are drawn);
    `highlight` links get a dotted overlay, named `highlight_label` in the legend."""
    show_chunks = links is None if show_chunks is None else show_chunks
    links = tuple(result.links if links is None else links)
    highlight = set(highlight)
    cand, ref = result.candidate_tokens, result.reference_tokens
    # Plotly checks every property of every shape and annotation as it is set: for a long pair
    # (thousands of bands, numbers and slanted labels) that was most of the page's time, 2 s of
    # 2.3 at 1,000 tokens a side. The same code builds short pairs with the checks on, so the
    # tests' figures are checked.
    fig = go.Figure(_validate=max(len(cand), len(ref)) <= UNCHECKED_FIGURE_TOKENS)
    y_cand, y_ref = 1.0, 0.0
    if new_links:  # under the links: drawn first
        xs, ys = _halo_paths(new_links, y_cand - 0.06, y_ref + 0.06)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=f"{new_links_label} ({len(new_links)})",
                                 line=dict(color=NEW_LINK_HALO, width=11), hoverinfo="skip", meta={"kind": "new"}))
    # The overlays are halos under the links, drawn first, so each link keeps its stage colour.
    if highlight:
        xs, ys = _halo_paths(sorted(highlight, key=lambda l: (l.candidate, l.reference)), y_cand - 0.06, y_ref + 0.06)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=highlight_label,
                                 line=dict(color=DIFF_COLOR, width=9, dash="dot"), opacity=0.4, showlegend=False,
                                 legendgroup="diff", hoverinfo="skip", meta={"kind": "diff"}))
        # Its legend entry: the halo's own swatch, 11 px dots in a short line, was two grey squares
        # that did not read as the dotted halo (a helper); a thinner dotted line does.
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=highlight_label, legendgroup="diff",
                                 line=dict(color=DIFF_COLOR, width=4, dash="dot"), opacity=0.9,
                                 hoverinfo="skip", meta={"kind": "diff-legend"}))
    if crossings:
        _add_crossing_halos(fig, crossings, y_cand - 0.06, y_ref + 0.06)
    stages_in_order = [s.stage for s in result.stage_status]
    for stage in stages_in_order + sorted({l.stage for l in links} - set(stages_in_order)):
        stage_links = [l for l in links if l.stage == stage]
        xs, ys, mx, my, hover = [], [], [], [], []
        bx, by = [], []  # phrase links: a filled band from the candidate span to the reference span
        for l in stage_links:
            top, bottom = _link_ends(l)
            if l.is_phrase:
                x, y = _phrase_outline(l, y_cand - 0.06, y_ref + 0.06)
                bx += [*x, None]
                by += [*y, None]
            else:
                xs += [top, bottom, None]
                ys += [y_cand - 0.06, y_ref + 0.06, None]
            mx.append((top + bottom) / 2)
            my.append(0.5)
            hover.append(f"{stage}: {_span_text(cand, l.candidate, l.candidate_stop)} → "
                         f"{_span_text(ref, l.reference, l.reference_stop)}<br>evidence: {esc(l.evidence)}")
        color = stage_color(stage)
        name = f"{stage} ({len(stage_links)})"
        fig.add_trace(go.Scatter(x=xs or [None], y=ys or [None], mode="lines", name=name,
                                 line=dict(color=color, width=3), legendgroup=stage, hoverinfo="skip",
                                 showlegend=not bx, meta={"kind": "stage", "stage": stage}))
        if bx:  # drawn as a closed, filled shape per link (fill "toself" closes each segment)
            fig.add_trace(go.Scatter(x=bx, y=by, mode="lines", fill="toself", fillcolor=_translucent(color, 0.35),
                                     line=dict(color=color, width=1.5), name=f"{name}: phrase to phrase",
                                     legendgroup=stage, hoverinfo="skip", meta={"kind": "span", "stage": stage}))
        fig.add_trace(go.Scatter(x=mx, y=my, mode="markers", marker=dict(color=color, size=9, opacity=0.0),
                                 hovertext=hover, hoverinfo="text", legendgroup=stage, showlegend=False,
                                 name=f"{stage} links", meta={"kind": "link-hover", "stage": stage}))

    n = max(len(cand), len(ref))
    unit = _unit_width(result)
    slanted = unit * n + 120 > min(max_width, STRAIGHT_LABELS_WIDTH)
    if slanted:  # labels at 60 degrees need only a font height of horizontal room each
        unit = max(MIN_UNIT, (max_width - 120) // n)
    longest = max((len(t.text) for t in cand + ref), default=1)
    # pixels above and below the rows
    label_room = (min(longest, SLANTED_LABEL_CHARS) * 7.5 * 0.87 + SLANTED_LABEL_STANDOFF + 2) if slanted else 24
    stage_of_cand = {k: l for l in links for k in range(l.candidate, l.candidate_stop)}
    stage_of_ref = {k: l for l in links for k in range(l.reference, l.reference_stop)}
    function_words = _function_words(result)
    label_annotations: list[dict] = []
    for row, tokens, y, partner, label in ((0, cand, y_cand, stage_of_cand, "candidate"),
                                            (1, ref, y_ref, stage_of_ref, "reference")):
        colors, symbols, hover, text_colors, texts = [], [], [], [], []
        function = function_words[row]
        for k, t in enumerate(tokens):
            l = partner.get(k)
            is_function = k < len(function) and function[k]
            # function words (METEOR 1.5): italic, they weigh 1 - delta
            # A slanted label longer than its room is cut, with the whole token in its hover (a
            # German compound ran across the legend and out of the figure: a tester).
            # Straight ones too: the tokens' spacing has room for STRAIGHT_LABEL_CHARS, and a
            # 272-character word ran over its neighbour when a row had two tokens (a teacher).
            shown = _cut_label(_shown_label(t.text), 0 if slanted else STRAIGHT_LABEL_CHARS)
            texts.append(f"<i>{esc(shown)}</i>" if is_function else esc(shown))
            kind = "<br>function word (weight 1 − δ)" if is_function else ""
            if l is None:
                colors.append(UNMATCHED_COLOR)  # circle-open draws its outline in the marker colour
                symbols.append("circle-open")
                text_colors.append(UNMATCHED_COLOR)
                hover.append(f"{label} [{k}] {esc(t.text)}{kind}<br>unmatched")
            else:
                colors.append(stage_color(l.stage))
                symbols.append("circle")
                text_colors.append(MATCHED_TEXT_COLOR)
                other = (_span_text(ref, l.reference, l.reference_stop) if row == 0 else
                         _span_text(cand, l.candidate, l.candidate_stop))
                hover.append(f"{label} [{k}] {esc(t.text)}{kind}<br>{l.stage} match with {other}<br>"
                             f"evidence: {esc(l.evidence)}")
        if slanted:
            for k, t in enumerate(tokens):
                label_annotations.append(dict(
                    x=k, y=y, yshift=SLANTED_LABEL_STANDOFF if row == 0 else -SLANTED_LABEL_STANDOFF, text=texts[k],
                    showarrow=False, textangle=-60,
                    xanchor="left" if row == 0 else "right", yanchor="bottom" if row == 0 else "top",
                    xshift=-LABEL_ANCHOR_SHIFT if row == 0 else LABEL_ANCHOR_SHIFT,
                    font=dict(size=13, color=text_colors[k])))
        fig.add_trace(go.Scatter(
            x=list(range(len(tokens))), y=[y] * len(tokens), mode="markers" if slanted else "markers+text",
            **({} if slanted else {"text": texts}),
            textposition="top center" if row == 0 else "bottom center",
            textfont=dict(color=text_colors, size=14),
            marker=dict(color=colors, symbol=symbols, size=11, line=dict(color=UNMATCHED_COLOR, width=1.5)),
            hovertext=hover, hoverinfo="text", showlegend=False, name=label, meta={"kind": "tokens", "row": label}))

    _function_word_legend(fig, result)
    # A pair too long for the page at the narrowest readable spacing opens on a window of it
    # (the page is only so wide: squeezed, labels and chunk numbers piled up); pan along, or
    # double-click for the whole pair.
    window = tokens_in_view(result, max_width)
    width = max_width if window < n else (unit * n + 120 if slanted else STRAIGHT_LABELS_WIDTH)
    right = _slanted_label_margin(result, window, width) if slanted else 20
    if slanted and window == n:  # the labels' extra margin widens the figure, up to its limit
        width = min(max_width, width + right - 20)
    # A token's width in pixels as drawn (plot area over the x range) where the column is narrowest.
    token_px = (width - 90 - right) / (window + 0.6) * min(1.0, NARROWEST_COLUMN / width)
    # Chunk bands, numbered, on both rows.
    chunk_source = result.chunk_spans if show_chunks else None
    shapes, annotations = [], []  # collected and set once: add_shape per item is slow (validation)
    if chunk_source is not None:
        fills = chunk_fills(chunk_source)
        phrases = [((l.candidate, l.candidate_stop, l.reference, l.reference_stop),
                    (l.candidate - SPAN_PAD, l.candidate_stop - 1 + SPAN_PAD, l.reference - SPAN_PAD,
                     l.reference_stop - 1 + SPAN_PAD)) for l in links if l.is_phrase]
        # per row and tier of numbers: token -> (x, half width)
        placed: dict[tuple[float, int], dict[int, list]] = {(ly, tier): {} for ly in (0.80, 0.20) for tier in (0, 1)}
        for number, c in enumerate(chunk_source, start=1):
            fill = CHUNK_FILLS[fills[number - 1]]
            # A chunk that is one phrase link is numbered on its band: kept out of it, the number
            # moved onto another chunk's link (a tester)
            own = (c.candidate_start, c.candidate_end, c.reference_start, c.reference_end)
            other_phrases = [band for spans, band in phrases if spans != own]
            reach = SLANTED_BAND_REACH / ROW_GAP  # outward; inward 0.12, where the numbers hang
            top, bottom = ((0.88, 1 + reach), (-reach, 0.12)) if slanted else ((0.88, 1.42), (-0.42, 0.12))
            for x0, x1, (y0, y1), ly in ((c.candidate_start, c.candidate_end, top, 0.80),
                                         (c.reference_start, c.reference_end, bottom, 0.20)):
                shapes.append(dict(type="rect", x0=x0 - BAND_PAD, x1=x1 - 1 + BAND_PAD, y0=y0, y1=y1, fillcolor=fill,
                                   line=dict(color=CHUNK_OUTLINE, width=1), layer="below",
                                   name=f"chunk {number}"))
                if slanted:  # numbers inside the gap between the rows, next to their band
                    # A tab on the band's edge, in the band's colour and outline: loose in the
                    # gap, white, "1" and "2" read as labels of the links beside them (a teacher).
                    half_width = number_half_width(number, token_px)
                    font, pad, offset = number_style(number, (x1 - x0 - 1 + 2 * BAND_PAD) * token_px + 1)
                    inward = -1 if ly > 0.5 else 1
                    # The first place clear of its links and the other numbers, on the band's edge
                    # or one tab further in; else the first clear of the other numbers (a number
                    # wider than its band); else the one with the most room.
                    tiers, found = [], []
                    for tier in (0, 1):
                        # a second row's tabs share their middle line, a number's size aside
                        y = (y0 if ly > 0.5 else y1) + inward * (offset if tier == 0 else
                                                                 NUMBER_TAB_OFFSET + NUMBER_TIER_STEP)
                        nearby = [t for k in range(x0 - 3, x1 + 3) for t in placed[(ly, tier)].get(k, ())]  # by token
                        tiers.append((tier, y, nearby))
                        x, room = chunk_number_x(c, y, half_width, nearby, phrase_bands=other_phrases)
                        found.append((room, x, y, tier))
                        if room >= 0:
                            break
                    else:
                        for tier, y, nearby in tiers:
                            x, room = chunk_number_x(c, y, half_width, nearby, own_links=False)
                            if room >= 0:
                                found.append((room, x, y, tier))
                                break
                    _, x, y, tier = found[-1] if found[-1][0] >= 0 else max(found)
                    placed[(ly, tier)].setdefault(round(x), []).append((x, half_width))
                    annotations.append(dict(x=x, y=y, text=f"<b>{number}</b>", showarrow=False,
                                            font=dict(size=font, color="#333333"), bgcolor=_on_white(fill),
                                            bordercolor=CHUNK_OUTLINE, borderwidth=1, borderpad=pad))
                else:
                    annotations.append(dict(x=(x0 + x1 - 1) / 2, y=1.55 if ly > 0.5 else -0.55, text=f"<b>{number}</b>",
                                            showarrow=False, font=dict(size=12, color="#333333")))
        if not slanted and chunk_source:
            # The rows of numbers say what they count: under the reference row, "4 1 6 3 5 2" read
            # as word positions (a teacher); it is the candidate chunk each band belongs to.
            for y in (1.55, -0.55):
                annotations.append(dict(x=0, xref="paper", xanchor="right", xshift=-6, y=y, text="chunk",
                                        showarrow=False, font=dict(size=11, color="#666666"), name="chunk-label"))
    bottom_room = 0
    if window < n:
        # In the figure, not only in the caption under it, which a projected page leaves below the
        # screen: a class saw the pair end at "coffee" and links run off the edge (a teacher). At
        # the foot: at the top the toolbar and a three-row legend ran over it (a teacher).
        # Two short lines: one long one ran off a phone's screen (390 px) after "drag sideways".
        bottom_room = 38
        annotations.append(dict(
            text=f"{n} tokens on the longer side, {window} in view:<br>drag sideways for the rest, double-click for all",
            align="left",
            x=0, xref="paper", xanchor="left", y=0, yref="paper", yanchor="top", yshift=-4, showarrow=False,
            font=dict(size=12, color="#555555"), name="pan-note"))
    title_room = 45 if title else 0  # the title sits above the legend, which may take two rows
    top_margin = (40 if slanted else 20) + title_room
    height = int(ROW_GAP + 2 * (label_room + 25) + top_margin + 20 + bottom_room) if slanted \
        else 360 + title_room + bottom_room
    y_pad = (label_room + 25) / ROW_GAP if slanted else 0.75
    if crossings:  # over the links; scaled to pixels, so that marks closer than a mark's size merge
        plot_px = height - top_margin - 20 - bottom_room
        annotations += _add_crossing_marks(fig, result, crossings, y_cand - 0.06, y_ref + 0.06,
                                           px_per_unit=(token_px, plot_px / (1 + 2 * y_pad)))
    # No None values: unchecked (a long pair), Plotly would send them as nulls, not leave them out.
    optional = {}
    if title:
        optional["title"] = dict(text=title, x=0.01, y=0.99, xanchor="left", yanchor="top", yref="container")
    if window < n:
        optional["dragmode"] = "pan"
    fig.update_layout(
        shapes=shapes, annotations=annotations + label_annotations, **optional,
        height=height, width=width,
        margin=dict(l=90, r=right, t=top_margin, b=20 + bottom_room),
        # Reversed for a right-to-left pair: the same data coordinates, position 0 at the right.
        xaxis=dict(visible=False, range=[window - 0.2, -0.8] if right_to_left(result) else [-0.8, window - 0.2]),
        yaxis=dict(range=[-y_pad, 1 + y_pad], tickvals=[y_ref, y_cand], ticktext=["reference", "candidate"],
                   showgrid=False, zeroline=False, fixedrange=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), plot_bgcolor="white",
        # Dark text on white in either theme (the theme's grey text was 3.8:1: a tester)
        hoverlabel=HOVER_LABEL,
    )
    return fig


def _phrase_outline(link, y_top: float, y_bottom: float) -> tuple[list, list]:
    """The closed outline of a phrase link's band (candidate words [i, j) to reference [k, l))."""
    return ([link.candidate - SPAN_PAD, link.candidate_stop - 1 + SPAN_PAD, link.reference_stop - 1 + SPAN_PAD,
             link.reference - SPAN_PAD, link.candidate - SPAN_PAD],
            [y_top, y_top, y_bottom, y_bottom, y_top])


def _halo_paths(links: Sequence, y_top: float, y_bottom: float) -> tuple[list, list]:
    """The lines a halo follows under `links`: a word link's line, a phrase link's band outline
    (a line through the band's middle read as a synonym link between two words: a teacher),
    each path ended by None."""
    xs, ys = [], []
    for link in links:
        if link.is_phrase:
            x, y = _phrase_outline(link, y_top, y_bottom)
            xs += [*x, None]
            ys += [*y, None]
        else:
            xs += [*_link_ends(link), None]
            ys += [y_top, y_bottom, None]
    return xs, ys


def _on_white(rgba: str) -> str:
    """An rgba(r,g,b,a) colour as it looks over white, opaque (a tab over a link hides it)."""
    *rgb, alpha = (float(v) for v in rgba[rgba.index("(") + 1:-1].split(","))
    return "#" + "".join(f"{round(255 - alpha * (255 - v)):02x}" for v in rgb)


def _translucent(color: str, alpha: float) -> str:
    """A #RRGGBB colour as rgba with the given opacity."""
    r, g, b = (int(color[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _add_crossing_halos(fig: go.Figure, crossings: Sequence, y_top: float, y_bottom: float) -> None:
    """A halo under each link of a crossing pair (over it, orange on blue read as brown, a
    colour of neither legend entry: a tester)."""
    involved = {l for pair in crossings for l in pair}
    xs, ys = [], []
    for l in sorted(involved, key=lambda l: l.candidate):
        xs += [l.candidate, l.reference, None]
        ys += [y_top, y_bottom, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=f"links in a crossing ({len(involved)})",
                             line=dict(color=CROSSING_COLOR, width=11), opacity=0.45, hoverinfo="skip",
                             meta={"kind": "crossing-links"}))


#: Crossing marks closer than this (pixels, centre to centre) are drawn as one, with a count.
CROSSING_MERGE_PX = 14


def _add_crossing_marks(fig: go.Figure, result: SegmentResult, crossings: Sequence, y_top: float,
                        y_bottom: float, px_per_unit: tuple[float, float]) -> list[dict]:
    """An x where each pair of links crosses. Marks that would overlap (closer than
    CROSSING_MERGE_PX) are one x with "×n" beside it and every pair in its hover: the cat/mat
    pair's 8 crossings showed 6 marks, three piled up near "sat", and a teacher could not
    count them. Returns the count labels (annotations: on a white tab, a scatter's text sat
    on the links and was hard to read)."""
    cand, ref = result.candidate_tokens, result.reference_tokens
    x_px, y_px = px_per_unit
    groups: list[tuple[float, float, list[str], list]] = []  # first point, its pairs, their points
    for a, b in crossings:
        # x(t) = i + (j - i) t along each link, t = 0 on the candidate row: equal where they cross
        t = (b.candidate - a.candidate) / ((a.reference - a.candidate) - (b.reference - b.candidate))
        x = a.candidate + (a.reference - a.candidate) * t
        y = y_top - (y_top - y_bottom) * t
        words = (f"{_span_text(cand, a.candidate, a.candidate + 1)} → {_span_text(ref, a.reference, a.reference + 1)}"
                 f" and {_span_text(cand, b.candidate, b.candidate + 1)} → "
                 f"{_span_text(ref, b.reference, b.reference + 1)}")
        near = next((g for g in groups if ((g[0] - x) * x_px) ** 2 + ((g[1] - y) * y_px) ** 2
                     < CROSSING_MERGE_PX ** 2), None)
        if near is None:
            groups.append((x, y, [words], [(x, y)]))
        else:
            near[2].append(words)
            near[3].append((x, y))
    counts = [len(pairs) for _, _, pairs, _ in groups]
    xs = [sum(x for x, _ in points) / len(points) for *_, points in groups]  # the middle of its points
    ys = [sum(y for _, y in points) / len(points) for *_, points in groups]
    fig.add_trace(go.Scatter(
        x=xs, y=ys, mode="markers", name=f"crossings ({len(crossings)})",
        marker=dict(symbol="x", size=13, color=CROSSING_COLOR, line=dict(width=1, color="white")),
        hovertext=[("crossing: " if len(pairs) == 1 else f"{len(pairs)} crossings here:<br>") + "<br>".join(pairs)
                   for _, _, pairs, _ in groups],
        hoverinfo="text", meta={"kind": "crossings", "counts": counts}))
    return [dict(x=x, y=y, xshift=10, xanchor="left", text=f"<b>×{n}</b>", showarrow=False,
                 font=dict(size=13, color=CROSSING_COLOR), bgcolor="white", bordercolor=CROSSING_COLOR,
                 borderwidth=1, borderpad=1, name="crossing-count")
            for x, y, n in zip(xs, ys, counts) if n > 1]


#: Longest side the matrix is drawn for: past it a square per token is wider than the page
#: (300 tokens: 6,800 px squeezed into the column, a square over ten tokens; 2,000 never
#: finished drawing: a tester).
MATRIX_MAX_TOKENS = 110
#: Smallest cell of the matrix, in pixels: MATRIX_MAX_TOKENS cells fit MAX_DIAGRAM_WIDTH.
MATRIX_MIN_CELL = 8


def _function_words(result: SegmentResult) -> tuple[Sequence[bool], Sequence[bool]]:
    """METEOR 1.5's function-word flags of the candidate and the reference (none in other modes)."""
    detail = result.meteor15
    return (detail.candidate_function_words, detail.reference_function_words) if detail is not None else ((), ())


def _function_word_legend(fig: go.Figure, result: SegmentResult) -> None:
    """The legend entry saying what italic labels are, when a label is italic."""
    candidate, reference = _function_words(result)
    if any(candidate) or any(reference):
        delta = result.config.params.delta
        # A text trace: its legend symbol is "Aa" in italic, where a black dot read as a token's dot
        # (a teacher).
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="text", text=[""],
                                 textfont=dict(color=MATCHED_TEXT_COLOR, style="italic", size=13),
                                 name=f"<i>italic</i>: function word, weight 1 − δ = {1 - delta:g} (content {delta:g})",
                                 hoverinfo="skip", meta={"kind": "function-words"}))


def _tick_labels(tokens, function: Sequence[bool]) -> list[str]:
    """Axis labels cut as the diagram's, function words (METEOR 1.5) in italic as there."""
    return [f"<i>{esc(_cut_label(t.text))}</i>" if k < len(function) and function[k] else esc(_cut_label(t.text))
            for k, t in enumerate(tokens)]


def alignment_matrix(result: SegmentResult) -> go.Figure:
    """Candidate x reference grid, a coloured square per link."""
    cand, ref = result.candidate_tokens, result.reference_tokens
    # Cells, squares and labels sized so the figure fits MAX_DIAGRAM_WIDTH: at 22 px a cell, 81
    # tokens asked for 1,980 px, the column squeezed it to 940 and 16-px squares sat on 8-px
    # columns, so no square could be told to its word without hovering (a tester).
    # Plotly hides a tick label that would run past the figure ("surveillance", the last of 48
    # candidate words, was not shown and its column looked absent: a tester). A label at -60
    # degrees runs right by half its length: the right margin makes room for the farthest-reaching
    # one, and the cells fit what the margins leave (twice: the reach depends on the cell).
    # Left: room for the longest reference label (at the largest font) and the axis title beside it.
    left = max(120, int(max((len(_cut_label(t.text)) for t in ref), default=0) * 12 * 0.6) + 45)
    right = 20
    for _ in range(2):
        cell = max(MATRIX_MIN_CELL, min(22, (MAX_DIAGRAM_WIDTH - left - 60 - right) // max(1, len(cand))))
        font = dict(size=max(8, min(12, cell - 4)))
        char_px = font["size"] * 0.6
        reach = max((0.5 * len(_cut_label(t.text)) * char_px - (len(cand) - 0.5 - k) * cell for k, t in enumerate(cand)),
                    default=0)
        right = 20 + max(0, int(reach) + 4)
    # Top: room for the highest-reaching slanted candidate label (sin 60 = 0.87) and the axis
    # title above it; Plotly took what a long label lacked from the grid (a row went missing).
    top = max(120, int(max((len(_cut_label(t.text)) for t in cand), default=0) * char_px * 0.87) + 45)
    fig = go.Figure()
    # METEOR 1.5's function words in italic, as on the diagram (the matrix had plain labels: a tester)
    function_words = _function_words(result)
    shapes, annotations = _matrix_chunks(result)
    for stage in sorted({l.stage for l in result.links}, key=lambda s: list(STAGE_COLORS).index(s) if s in STAGE_COLORS else 9):
        ls = [l for l in result.links if l.stage == stage]
        cells = [(i, j, l) for l in ls for i in range(l.candidate, l.candidate_stop)
                 for j in range(l.reference, l.reference_stop)]  # a phrase link fills its block
        fig.add_trace(go.Scatter(
            x=[i for i, _, _ in cells], y=[j for _, j, _ in cells], mode="markers", name=stage,
            marker=dict(symbol="square", size=max(6, cell - 6), color=stage_color(stage)),
            hovertext=[f"{_span_text(cand, l.candidate, l.candidate_stop)} → "
                       f"{_span_text(ref, l.reference, l.reference_stop)}<br>{stage}: {esc(l.evidence)}"
                       for _, _, l in cells],
            hoverinfo="text", meta={"kind": "stage", "stage": stage}))
    fig.update_layout(
        height=max(300, cell * len(ref) + top + 20), width=max(400, cell * len(cand) + left + 60 + right),
        # Labels cut as the diagram's: one 500-letter word as a whole label squeezed the grid into
        # a strip a few pixels wide (a tester); a linked cell's hover names its words in full.
        xaxis=dict(tickvals=list(range(len(cand))), ticktext=_tick_labels(cand, function_words[0]), tickangle=-60,
                   title="candidate", side="top", range=[-0.5, len(cand) - 0.5], showgrid=True, tickfont=font),
        yaxis=dict(tickvals=list(range(len(ref))), ticktext=_tick_labels(ref, function_words[1]),
                   # every row, top down: autorange fitted the linked cells and left out the last
                   # reference words when none of them was linked
                   range=[len(ref) - 0.5, -0.5],
                   title="reference", showgrid=True, tickfont=font),
        margin=dict(l=left, r=right, t=top, b=20), plot_bgcolor="white", hoverlabel=HOVER_LABEL,
        shapes=shapes, annotations=annotations)
    if shapes:  # the boxes in the legend, so the grid says what they are
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=f"chunks ({len(result.chunk_spans)})",
                                 marker=dict(symbol="square", size=12, color=CHUNK_FILLS[0],
                                             line=dict(color=CHUNK_OUTLINE, width=1)),
                                 hoverinfo="skip", meta={"kind": "chunks"}))
    # No legend entry for italic here: its width, in a figure sized to its grid, squeezed the grid
    # (the page's caption says it)
    return fig


def _matrix_chunks(result: SegmentResult) -> tuple[list[dict], list[dict]]:
    """A chunk is a run down the matrix's diagonal direction: a box around its cells, filled
    as its band in the diagram, numbered at its top-left corner (the diagram's number). Boxes
    never overlap: chunks split the candidate positions, so their columns are disjoint. A
    teacher found no chunks in the matrix, only in the diagram."""
    spans = result.chunk_spans
    fills = chunk_fills(spans)
    shapes, annotations = [], []
    for number, c in enumerate(spans, start=1):
        shapes.append(dict(type="rect", x0=c.candidate_start - 0.5, x1=c.candidate_end - 0.5,
                           y0=c.reference_start - 0.5, y1=c.reference_end - 0.5, layer="below",
                           fillcolor=CHUNK_FILLS[fills[number - 1]], line=dict(color=CHUNK_OUTLINE, width=1),
                           name=f"chunk {number}"))
        annotations.append(dict(x=c.candidate_start - 0.5, y=c.reference_start - 0.5, xanchor="right",
                                yanchor="bottom", text=f"<b>{number}</b>", showarrow=False,
                                font=dict(size=10, color="#333333"), name=f"chunk-number {number}"))
    return shapes, annotations


def _histogram_bars(values: Sequence[float], name: str, color: str) -> go.Bar:
    """Counts per 0.05 of score, counted here: numpy's last bin is closed, so a score of 1
    counts in 0.95-1.00. (Plotly's bins are all half-open: 1.0 fell in a bin past the axis and
    the page dropped every perfect score, 64 BLEU = 1 segments in a tester's file.)"""
    import numpy as np

    counts, edges = np.histogram(np.asarray(values, dtype=float), bins=20, range=(0.0, 1.0))
    return go.Bar(x=((edges[:-1] + edges[1:]) / 2).tolist(), y=counts.tolist(), width=0.05, name=name,
                  marker_color=color, opacity=0.75,
                  customdata=[f"{a:.2f}-{b:.2f}" for a, b in zip(edges[:-1], edges[1:])],
                  hovertemplate=f"{name} %{{customdata}}: %{{y}} segments<extra></extra>")


def score_histograms(meteor: list[float], bleu: list[float]) -> go.Figure:
    fig = go.Figure()
    bars = [_histogram_bars(meteor, "METEOR", STAGE_COLORS["exact"]), _histogram_bars(bleu, "BLEU", STAGE_COLORS["synonym"])]
    for trace in bars:
        fig.add_trace(trace)
    # Counts: whole ticks. Plotly's own put 0.5, 1.5 and 2.5 segments on a small corpus's axis (a
    # tester); past 10 its ticks are whole numbers anyway.
    most = max((count for trace in bars for count in trace.y), default=0)
    # The scatter's height and margins: side by side, their axes line up.
    fig.update_layout(barmode="overlay", height=380, margin=dict(l=20, r=20, t=30, b=30),
                      xaxis=dict(title="segment score", range=[0, 1]),
                      yaxis=dict(title="segments", **({"dtick": 1} if most <= 10 else {})),
                      legend=dict(orientation="h", y=1.1))
    return fig


def _score_axis(values: Sequence[float]) -> dict:
    """Axis settings for values that cannot be negative (scores) and reach down to 0: a range
    from just below 0, so a point at 0 is inside the plot (clickable, box-selectable) but the
    axis never runs to -1 (Plotly's range when every BLEU is 0: a tester). Otherwise Plotly's
    own range (METEOR between 0.6 and 1 keeps its zoom; human z-scores keep their negatives)."""
    low, high = min(values, default=0.0), max(values, default=0.0)
    if low < 0 or low > 0.05 * (high - low) > 0:
        return {}
    top = high * 1.05 if high > 0 else 1.0
    return {"range": [-0.04 * top, top]}


def _point_names(x: Sequence[float], y: Sequence[float], ids: Sequence[str], listed: int = 5) -> list[str]:
    """Each point's hover name (escaped): its segment id, and the others drawn on the very same
    spot, which a click cannot reach (a tester: two segments at (0, 0), one opened per click and
    nothing said the other was there). The box tool selects them all."""
    at: dict[tuple[float, float], list[int]] = {}
    for k, spot in enumerate(zip(x, y)):
        at.setdefault(spot, []).append(k)
    names = []
    for k, spot in enumerate(zip(x, y)):
        here = at[spot]  # the first few only: 15,000 segments at (0, 0) must not cost 15,000 each
        name = esc(ids[k])
        if len(here) > 1:
            # One per line: on one line, WMT names ("5 (JDExploreAcademy)") made a label wider
            # than the chart, cut at its edge (a tester)
            others = [esc(ids[o]) for o in here[:listed + 1] if o != k][:listed]
            name += (f"<br>and {len(here) - 1} more at this point:<br>" + "<br>".join(others)
                     + ("<br>…" if len(here) - 1 > listed else ""))
        names.append(name)
    return names


def metric_scatter(x: list[float], y: list[float], ids: list[str], x_title: str, y_title: str,
                   color: str = STAGE_COLORS["exact"], keys=None) -> go.Figure:
    """One point per segment; customdata carries `keys` (default: the row position) for
    click-to-drill-down. `ids` are user text: escaped here, pass them raw."""
    fig = go.Figure(go.Scatter(
        x=x, y=y, mode="markers", customdata=list(range(len(x))) if keys is None else list(keys),
        text=_point_names(x, y, ids),
        marker=dict(color=color, size=8, opacity=0.7),
        hovertemplate=f"segment %{{text}}<br>{x_title} %{{x:.4f}}<br>{y_title} %{{y:.4f}}<extra></extra>"))
    fig.update_layout(height=380, margin=dict(l=20, r=20, t=30, b=30),
                      xaxis=dict(title=x_title, **_score_axis(x)), yaxis=dict(title=y_title, **_score_axis(y)),
                      clickmode="event+select", dragmode="select")
    return fig
