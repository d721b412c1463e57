"""``kremlin-triplea house``: write house-rule sets into a game without a Kremlin draft (issue 6)."""

from __future__ import annotations

from pathlib import Path

import click

from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.common import profile_option
from kremlin_triplea.cli.output import OUTPUT_PATH


def _pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    from kremlin_triplea.errors import InputError

    pairs = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip() or not rest.strip():
            raise InputError(f"{what} {value!r}: expected NAME=VALUE")
        pairs[key.strip()] = rest.strip()
    return pairs


@click.command("house")
@click.argument("game")
@click.option("-r", "--rules", "sets", multiple=True, required=True, help="A house-rule set (rulesets/<id>.toml), e.g. house-revised; repeat for several.")
@click.option("--seed", type=int, help="Draw every power's advantage (and its places) at random with this seed; the notes record it.")
@click.option(
    "--advantage", "advantages", multiple=True, metavar="POWER=ADVANTAGE", help="Choose a power's advantage by id or number, e.g. UK=colonial-garrison."
)
@click.option(
    "--choose", "values", multiple=True, metavar="NAME=VALUE", help="What an advantage leaves to choose, e.g. colonial_garrison_at=India or UK.at=India."
)
@click.option("--switch", "switches", multiple=True, metavar="NAME=on|off", help="A set's switch, e.g. neutral_territories=off.")
@click.option("-o", "--output", type=OUTPUT_PATH, required=True, help="Where to write the game.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
@profile_option
def house_command(
    ctx: click.Context,
    game: str,
    sets: tuple[str, ...],
    seed: int | None,
    advantages: tuple[str, ...],
    values: tuple[str, ...],
    switches: tuple[str, ...],
    output: Path,
    force: bool,
) -> None:
    """Write house-rule SETS into GAME: the rules TripleA can enforce, and the rest in the game's notes.

    Choices apply to every set that has them. Two sets that change the same
    thing differently are refused, naming both.
    """
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.game import load
    from kremlin_triplea.gamerules.house import apply_house_rules
    from kremlin_triplea.report.notes import add_notes
    from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set

    chosen_switches = {}
    for name, value in _pairs(switches, "--switch").items():
        if value not in ("on", "off"):
            raise InputError(f"--switch {name}={value}: expected on or off")
        chosen_switches[name] = value == "on"
    picked = {k: (int(v) if v.isdigit() else v) for k, v in _pairs(advantages, "--advantage").items()}
    given = _pairs(values, "--choose")
    choices = []
    for set_id in sets:
        house = load_named_house_set(set_id)
        mine = {k: v for k, v in chosen_switches.items() if k in house.choices}
        wanted = {k: v for k, v in picked.items() if k in house.powers}
        choices.append(HouseChoices(set_id, mine, wanted, given, seed, "command line"))
    unknown = set(chosen_switches) - {k for set_id in sets for k in load_named_house_set(set_id).choices}
    if unknown:
        raise InputError(f"--switch {', '.join(sorted(unknown))}: no such switch in {', '.join(sets)}")

    result = add_notes(apply_house_rules(load(game, maps_dir=_maps_dir(ctx)), choices))
    for warning in result.warnings:
        click.echo(f"kremlin-triplea: warning: {warning}", err=True)
    written = result.game.save(output, overwrite=force)
    for line in result.summary():
        click.echo(line)
    click.echo(f"wrote {written}")
