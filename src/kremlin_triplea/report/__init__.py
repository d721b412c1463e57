"""Reports on a board or a draft, read-only leaves: values, game notes, rule texts, pictures, summaries."""
