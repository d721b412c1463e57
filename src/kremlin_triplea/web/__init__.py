"""The draft room: two players draft in their browsers, the server checks every request with the draft engine."""
