"""Rules written into the game: each change kind of a rule set carried out once (actions), and house-rule sets applied."""
