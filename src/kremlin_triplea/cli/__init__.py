"""The command line: one module per group of commands; main.py holds the group and its shared options."""
