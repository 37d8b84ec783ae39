"""Drop-in replacements for other packages' METEOR entry points, computed by meteor_core."""
