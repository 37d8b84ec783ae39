"""METEOR Lens: Streamlit entry point. Pages live in pages/."""
import streamlit as st

st.set_page_config(page_title="METEOR Lens", layout="wide")
page = st.navigation([
    st.Page("pages/segment_explorer.py", title="Segment Explorer", default=True),
    st.Page("pages/how_meteor_works.py", title="How METEOR works"),
    st.Page("pages/corpus_explorer.py", title="Corpus Explorer"),
    st.Page("pages/system_comparison.py", title="System Comparison"),
])
page.run()
