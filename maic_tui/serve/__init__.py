"""``maic-tui serve``: the classroom app in a web browser, one class per tab (see ``command``)."""
