"""The board: territories and sea zones as a graph, the frozen changes applied to it, and named queries."""
