"""A slide: elements the teacher presents, points at (spotlight, laser) and talks over."""
