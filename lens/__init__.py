"""App-side helpers. `figures` builds Plotly figures from meteor_core results (data in,
figure out, no Streamlit); `examples` holds the worked examples; `ui` is the Streamlit glue."""
