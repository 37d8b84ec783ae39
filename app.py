"""METEOR Lens: Streamlit entry point. Pages live in pages/."""
import streamlit as st

st.set_page_config(page_title="METEOR Lens", layout="wide")
page = st.navigation([
    st.Page("pages/segment_explorer.py", title="Segment Explorer", url_path="segment", default=True),
    st.Page("pages/how_meteor_works.py", title="How METEOR works", url_path="how"),
    st.Page("pages/corpus_explorer.py", title="Corpus Explorer", url_path="corpus"),
    st.Page("pages/system_comparison.py", title="System Comparison", url_path="compare"),
])
page.run()
