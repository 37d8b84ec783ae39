"""METEOR Lens: Streamlit entry point. Pages live in app_pages/.

Not in pages/: Streamlit treats a pages/ folder next to the entry script as a legacy multipage
app until st.navigation has run once in the process, so the first session after a server start
ran through the folder's own page list, did not find /how, /corpus or /compare there, and
showed "Page not found" (streamlit PagesManager.uses_pages_directory, script_runner._mpa_v1)."""
import streamlit as st

from lens.corpus_ui import first_visit_links, keep_changed_values, note_run_completed, note_run_start
from lens.ui import TABLE_CSS, note_page, page_links, rerun_if_browser_state_adopted


def main() -> None:
    st.set_page_config(page_title="METEOR Lens", layout="wide")
    # A table wider than its column scrolls sideways instead of being cut off ("Which METEOR?" lost
    # its last columns at 150% zoom: a teacher). Only style: st.html puts it in the event container.
    st.html(f"<style>{TABLE_CSS}</style>")
    pages = [
        st.Page("app_pages/segment_explorer.py", title="Segment Explorer", url_path="segment", default=True),
        st.Page("app_pages/how_meteor_works.py", title="How METEOR works", url_path="how"),
        st.Page("app_pages/corpus_explorer.py", title="Corpus Explorer", url_path="corpus"),
        st.Page("app_pages/system_comparison.py", title="System Comparison", url_path="compare"),
    ]
    # The sidebar's page links are ours (ui.page_links): each carries the query its page writes, so
    # that a page change is one browser history entry, not two. Drawn before the page runs (a long
    # corpus run must leave them usable) and again after it, so that the page's own link carries
    # what the page wrote in this run (How's step was one step behind: a tester). Not again after
    # st.stop or a rerun request: the next run draws them.
    links = st.sidebar.empty()
    page = st.navigation(pages, position="hidden")
    note_page(page.url_path)
    keep_changed_values()
    note_run_start()
    with links.container():
        page_links(pages, first_visit_links())
    page.run()
    note_run_completed()
    rerun_if_browser_state_adopted()
    with links.container():
        page_links(pages, first_visit_links())


# Streamlit runs this file as __main__. A process pool's worker started by forkserver or spawn
# runs its parent's main file again as __mp_main__ (in the test process, where AppTest had run
# this file, a batch worker did): there it must draw nothing (st.Page without a server has no
# title, and batch failed with exit 1 in one CI run in four).
if __name__ == "__main__":
    main()
