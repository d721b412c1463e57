"""The draft assistant (issue 8): an interactive draft over the legal-choice enumeration."""
