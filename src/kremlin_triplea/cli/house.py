"""``kremlin-triplea house``: write house-rule sets into a game without a Kremlin draft (issue 6)."""

from __future__ import annotations

from pathlib import Path

import click

from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.common import profile_option, warn
from kremlin_triplea.cli.output import OUTPUT_PATH


def _pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    from kremlin_triplea.errors import InputError

    pairs = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip() or not rest.strip():
            raise InputError(f"{what} {value!r}: expected NAME=VALUE")
        if key.strip() in pairs:  # the last one silently won
            raise InputError(f"{what} {key.strip()} given twice ({key.strip()}={pairs[key.strip()]}, {value.strip()}); give it once")
        pairs[key.strip()] = rest.strip()
    return pairs


def _set_power(given: str, houses: list, names, option: str) -> str:
    """The sets' name of the power ``given`` as the rule text or TripleA names it; refused, with the close
    matches, when no set gives that power an advantage."""
    from kremlin_triplea.errors import UnknownNameError

    powers = [p for house in houses for p in house.powers]
    triplea = {}
    for power in powers:
        try:
            triplea[names.power(power)] = power
        except UnknownNameError:
            pass
    for power in powers:
        if given.strip().lower() == power.lower():
            return power
    try:
        resolved = names.power(given)
    except UnknownNameError:
        resolved = None
    if resolved in triplea:
        return triplea[resolved]
    sets = ", ".join(house.id for house in houses)
    raise UnknownNameError("power", given, [*dict.fromkeys(powers), *triplea], where=f"{option} {given}", within=f"the advantages of {sets}")


def _choice_name(given: str, houses: list, names) -> str:
    """An advantage's choice (``at``, ``colonial_garrison_at``), optionally for one power (``UK.at``,
    ``British.at``); refused with the close matches when no set's advantage has it."""
    from kremlin_triplea.errors import UnknownNameError

    plain = {c for house in houses for a in house.advantages for c in a.choices}
    known = sorted(plain) + sorted({f"{a.power}.{c}" for house in houses for a in house.advantages for c in a.choices})
    power, dot, choice = given.partition(".")
    if dot and choice in plain:
        owner = _set_power(power, houses, names, "--choose")
        if any(a.power == owner and choice in a.choices for house in houses for a in house.advantages):
            return f"{owner}.{choice}"
    elif given in plain:
        return given
    raise UnknownNameError("choice", given, known, where=f"--choose {given}", within="the advantages of " + ", ".join(h.id for h in houses))


@click.command("house")
@click.argument("game")
@click.option("-r", "--rules", "sets", multiple=True, required=True, help="A house-rule set (rulesets/<id>.toml), e.g. house-revised; repeat for several.")
@click.option("--seed", type=int, help="Draw every power's advantage (and its places) at random with this seed; the notes record it.")
@click.option(
    "--advantage",
    "advantages",
    multiple=True,
    metavar="POWER=ADVANTAGE",
    help="Choose a power's advantage by id or number; the power as the rule text or TripleA names it, e.g. UK=colonial-garrison (house-revised) or British=1 (house-classic).",
)
@click.option(
    "--choose",
    "values",
    multiple=True,
    metavar="NAME=VALUE",
    help="What an advantage leaves to choose, e.g. colonial_garrison_at=India (house-revised), or for one power UK.at=India (house-classic; also British.at=India).",
)
@click.option("--switch", "switches", multiple=True, metavar="NAME=on|off", help="A set's switch, e.g. neutral_territories=off (house-classic).")
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
    profile,
) -> None:
    """Write house-rule SETS into GAME: the rules TripleA can enforce, and the rest in the game's notes.

    Choices apply to every set that has them. Two sets that change the same
    thing differently are refused, naming both.
    """
    from kremlin_triplea.check.gate import check_base_game
    from kremlin_triplea.errors import InputError, KremlinError, UnknownNameError
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.gamerules.house import apply_house_rules
    from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import profile_for_game

    repeated = next((set_id for position, set_id in enumerate(sets) if set_id in sets[:position]), None)
    if repeated is not None:  # its rules were applied, and listed in the notes, twice
        raise InputError(f"--rules {repeated} given twice; give each set once")
    for set_id in sets:  # an unknown set is the option's mistake: say so before anything else is read
        try:
            load_named_house_set(set_id)
        except KremlinError as error:
            if isinstance(error, UnknownNameError) or error.where is None:  # a mistake inside the file keeps its line
                error.where = f"--rules {set_id}"
            raise
    chosen_switches = {}
    for name, value in _pairs(switches, "--switch").items():
        if value not in ("on", "off"):
            raise InputError(f"--switch {name}={value}: expected on or off")
        chosen_switches[name] = value == "on"
    unknown = set(chosen_switches) - {k for set_id in sets for k in load_named_house_set(set_id).choices}
    if unknown:
        raise InputError(f"--switch {', '.join(sorted(unknown))}: no such switch in {', '.join(sets)}")
    houses = [load_named_house_set(set_id) for set_id in sets]
    # As apply does (issue 33): a base game TripleA refuses is refused first, the game made is checked before it is kept.
    base = XmlDocument.read(resolve_game(game, _maps_dir(ctx)))
    check_base_game(base)
    loaded = Game(base)
    if profile is None:
        profile = profile_for_game(loaded)
    profile.check_fits(loaded)
    names = Names(loaded.board, profile, tuple(loaded.board.catalog.alliances()))
    # A power as the rule text names it (UK, USSR) or as TripleA does (British, Russians): the sets' own name.
    picked = {_set_power(key, houses, names, "--advantage"): (int(v) if v.isdecimal() else v) for key, v in _pairs(advantages, "--advantage").items()}
    given = {_choice_name(key, houses, names): v for key, v in _pairs(values, "--choose").items()}
    choices = []
    for house in houses:
        mine = {k: v for k, v in chosen_switches.items() if k in house.choices}
        wanted = {k: v for k, v in picked.items() if k in house.powers}
        choices.append(HouseChoices(house.id, mine, wanted, given, seed, "command line", file=house.rules.path))

    result = apply_house_rules(loaded, choices, profile=profile)
    for warning in result.warnings:
        warn(warning)
    from kremlin_triplea.tools.outputs import write_apply_outputs

    # The one writer of games: it adds the notes and checks the game before writing it.
    written = write_apply_outputs(
        result, maps_dir=_maps_dir(ctx), output=output, savegame=None, install=False, install_name=None, force=force, triplea=None, inputs=(Path(base.source),)
    )
    for line in result.summary():
        click.echo(line)
    for line in written:
        click.echo(line)
