from kremlin_triplea.cli import main

main(prog_name="kremlin-triplea")
