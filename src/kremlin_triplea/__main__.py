from kremlin_triplea.cli.main import main

main(prog_name="kremlin-triplea")
