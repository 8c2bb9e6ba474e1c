"""The room as the learner sees it, headless: the view model every screen (and export) draws from."""
