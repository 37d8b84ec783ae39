import streamlit as st

st.set_page_config(page_title="METEOR Lens", layout="wide")
st.title("METEOR Lens")
st.write("The Segment Explorer is coming; the scorer is in meteor_core.")
