"""A map profile (maps/<map>.toml): the rule text's names for one TripleA map.

It translates powers, units and places from the rule text to the game file,
records where each neutral's ships can go and how the map's special cases are
handled (each with its reason), and pins the base game files by sha256 so a
changed installation is noticed.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from pathlib import Path

import attrs

from kremlin_triplea.errors import KremlinError, UnknownNameError, and_more
from kremlin_triplea.game import Game
from kremlin_triplea.model.board import Board, Catalog
from kremlin_triplea.rules.datafiles import check_file_kind
from kremlin_triplea.rules.ruleset import data_folders, find_data_file
from kremlin_triplea.rules.scenarios import ScenarioDecision, read_decisions
from kremlin_triplea.rules.tomlfile import DataFileError, KeyLines, ReadOnce, Section, read_toml, read_toml_text


@attrs.frozen
class BaseGame:
    file: str
    key: str
    name: str
    sha256: str
    differences: tuple[str, ...]
    edition: str | None = None  # the rule text's name for this setup ("1942"): scenarios' per-edition clauses


@attrs.frozen
class CapitalMarker:
    """A capital the game parks on a neutral; where it goes when that neutral is taken."""

    power: str
    at: str
    refuge: str
    reason: str


@attrs.frozen
class Strait:
    """A strait of the rule text on this map: the sea-zone pairs a ship crosses it by.

    Who controls the strait (the land territories) is the rule's business, in
    rule-text names; the map only knows which of its sea-zone boundaries the
    strait is, and these differ between maps (AA50's 16 Sea Zone is not
    Classic's Black Sea Zone).
    """

    name: str
    sea_zone_pairs: tuple[tuple[str, str], ...]
    reason: str
    # "Both sides of the strait" on this map, for rules that do not name them
    # (000 D(3) "unless one side owns both sides"): game names, with why.
    land: tuple[str, ...] = ()
    land_reason: str = ""


@attrs.frozen
class StepPosition:
    """Where in this map's turn sequence a rule's extra step goes: after the step named ``after``."""

    after: str
    reason: str


@attrs.frozen
class Profile:
    map: str
    path: str
    rulesets: tuple[str, ...]
    sea_zone_name: str
    games: tuple[BaseGame, ...]
    powers: dict[str, str] = attrs.field(eq=False)
    units: dict[str, str] = attrs.field(eq=False)
    places: dict[str, str] = attrs.field(eq=False)
    place_reasons: dict[str, str] = attrs.field(eq=False)
    neutral_coasts: dict[str, tuple[str, ...]] = attrs.field(eq=False)
    capital_marker: CapitalMarker | None
    powers_may_enter: dict[str, tuple[str, ...]] = attrs.field(eq=False)
    factory_output_enforced_by_game: bool
    factory_output_reason: str
    special_reasons: dict[str, str] = attrs.field(eq=False)
    bid_property: str | None = None  # the game's per-power bid property, e.g. "{power} bid"
    straits: dict[str, Strait] = attrs.field(eq=False, factory=dict)
    # Places the rule text names that this map does not have (AA50 has no Crete), each with why.
    absent_places: dict[str, str] = attrs.field(eq=False, factory=dict)
    # Where a scenario's text and a game's setup disagree: what apply does and reports, and why.
    scenario_decisions: tuple[ScenarioDecision, ...] = attrs.field(eq=False, default=())
    turn_step_positions: dict[str, StepPosition] = attrs.field(eq=False, factory=dict)
    # Rule-text names (powers, units, places) deliberately left without a counterpart on this map, each
    # with why: what needs them is not available here (`profile new` writes them; `profile check` accepts them).
    unmatched: dict[str, str] = attrs.field(eq=False, factory=dict)
    # A power's own unit types where the map gives each power its own (Total World War's germanTank,
    # britishTank...): power (the game's player or the rule text's) -> rule-text unit -> the game's unit type.
    units_by_power: dict[str, dict[str, str]] = attrs.field(eq=False, factory=dict)
    # The rule text's sides where the game's alliances are named otherwise: side -> the game's alliances
    # (Total World War's Axis is "Axis-Germany", "Axis-Italy" and "Axis-Japan").
    sides: dict[str, tuple[str, ...]] = attrs.field(eq=False, factory=dict)

    def side_alliances(self, side: str) -> tuple[str, ...]:
        """The game's alliances a rule-text side stands for: its ``[sides]`` entry, else the alliance of its name."""
        return self.sides.get(side, (side,))

    def side_members(self, side: str, catalog: Catalog) -> list[str]:
        """The players of a rule-text side, in turn order (a player in two of its alliances once)."""
        alliances = set(self.side_alliances(side))
        return [p for p in catalog.turn_order() if alliances & set(catalog.players[p].alliances)]

    def lacks(self, table: str, key: str) -> str | None:
        """Why the map has no ``[<table>.<key>]`` entry a game rule needs (``[unmatched]`` "straits.gibraltar",
        "turn_step_positions.before_first_turn"), or None if the profile does not say it lacks one."""
        return self.unmatched.get(f"{table}.{key}")

    def game_key(self, base: BaseGame) -> str:
        """Where ``base`` is read from: its key as a path from the profile's own folder if a file lies there
        (``profile new`` writes it so, for a game outside any maps folder), else the key as it stands
        (``<map>/<file>`` in the maps folder, or an absolute path)."""
        beside = Path(self.path).parent / base.key
        return str(beside) if not Path(base.key).is_absolute() and beside.is_file() else base.key

    def base_game(self, game: Game) -> BaseGame | None:
        file = Path(game.source).name
        return next((g for g in self.games if g.file == file or g.name == game.name), None)

    def names_missing_on(self, game: Game) -> list[str]:
        """The game-side names of this profile that ``game`` lacks, or has as the wrong kind, one line each.

        These are the names the mechanisms use as they stand (a capital marker's refuge, a neutral's coast), so a
        profile that does not fit its game is refused when it is read for that game, naming the entry to fix.
        """
        board = game.board
        players = set(game.catalog.players)
        unit_types = set(game.catalog.unit_types)
        land = {t for t, d in board.nodes.items() if not d["water"]}
        sea = set(board.nodes) - land
        problems = []

        def absent(table: str, rule: str, name: str, known: set[str], kind: str) -> None:
            if name not in known:
                close = difflib.get_close_matches(name, sorted(known), n=3)
                problems.append(f"{table}.{rule} = {name!r}: no {kind} of that name" + (f" (close: {', '.join(close)})" if close else ""))

        for rule, name in self.powers.items():
            absent("powers", rule, name, players, "player")
        for rule, name in self.units.items():
            absent("units", rule, name, unit_types, "unit type")
        for power, units in self.units_by_power.items():
            if power not in players and power not in self.powers:
                absent("units_by_power", power, power, players, "player")
            for rule, name in units.items():
                absent(f"units_by_power.{power}", rule, name, unit_types, "unit type")
        alliances = {a for p in game.catalog.players.values() for a in p.alliances}
        for side, names in self.sides.items():
            for alliance in names:
                absent("sides", side, alliance, alliances, "alliance")
        for rule, name in self.places.items():
            absent("places", rule, name, land | sea, "territory")
        for rule, zones in self.neutral_coasts.items():
            for zone in zones:
                absent("neutral_coasts", rule, zone, sea, "sea zone")
        for power, places in self.powers_may_enter.items():
            absent("powers_may_enter", power, power, players, "player")
            for place in places:
                absent("powers_may_enter", power, place, land, "territory")
        if self.capital_marker is not None:
            absent("capital_marker", "at", self.capital_marker.at, land, "territory")
            absent("capital_marker", "refuge", self.capital_marker.refuge, land, "territory")
            absent("capital_marker", "power", self.capital_marker.power, players, "player")
        return problems

    def check_fits(self, game: Game) -> None:
        """Refuse (exit 2, naming the entry) a profile whose names ``game`` lacks where nothing else would catch it.

        For a game the profile pins, every game-side name must exist. On another game of the map (a variant
        with other players, say) names may be missing and are caught when a rule resolves them; the capital
        marker and the neutrals' coasts are used as written, so those must exist on any game.
        """
        missing = self.names_missing_on(game)
        if self.base_game(game) is None:
            missing = [m for m in missing if m.startswith(("capital_marker.", "neutral_coasts."))]
        if missing:
            more = and_more(missing, f"`kremlin-triplea profile check {self.path}` lists them")
            raise DataFileError(f"the map profile does not fit {game.source}: {missing[0]}{more}", where=self.path)

    def check_base_file(self, game: Game) -> list[str]:
        """Warnings when the game file is not the one this profile was written against."""
        base = self.base_game(game)
        if base is None:
            return [
                f"{game.source}: not one of the games the map profile {self.path} was written for ({', '.join(g.file for g in self.games)}); names and special cases may not fit"
            ]
        digest = hashlib.sha256(game.document.original).hexdigest()
        if digest != base.sha256:
            return [
                f"{game.source}: differs from the {base.file} the map profile {self.path} was written against (sha256 {digest[:12]}..., expected {base.sha256[:12]}...); check the profile's names and special cases"
            ]
        return []


def load_profile(path: Path | str) -> Profile:
    """The map profile at ``path`` (read once per text of it and of the profile it extends)."""
    return _read_profile(path)


def _base_text(path: Path, text: str) -> tuple[str, ...]:
    """The name and text of the profile ``text`` extends (none: ``()``), so that an edited base is read again."""
    found = _EXTENDS.search(text)
    if found is None:
        return ()
    try:
        return (found.group(1), read_toml_text(find_data_file("maps", found.group(1))))
    except KremlinError:
        return ()  # reading the profile says what is wrong with its base


_EXTENDS = re.compile(r'^\s*extends\s*=\s*["\']([^"\'\n]+)["\']', re.MULTILINE)


def _load_profile(path: Path, text: str, also: tuple[str, ...] = ()) -> Profile:
    """The profile in ``text``; ``also``: the name and text of the profile it extends, as :func:`_base_text` read them."""
    data = read_toml(path, text)
    check_file_kind(data, path, "profile")
    # A profile that extends another mixes the base's entries in: their lines are not this file's to give.
    root = Section(_with_base(data, path, also), str(path), lines=None if "extends" in data else KeyLines.of_text(text))
    root.only(
        "map",
        "rulesets",
        "sea_zone_name",
        "game",
        "powers",
        "units",
        "places",
        "place_reasons",
        "neutral_coasts",
        "special",
        "capital_marker",
        "powers_may_enter",
        "factory_output",
        "straits",
        "bid_phase",
        "absent_places",
        "scenario_decision",
        "turn_step_positions",
        "unmatched",
        "units_by_power",
        "sides",
    )
    games = []
    for section in root.tables("game"):
        section.only("file", "key", "name", "sha256", "differences", "edition")
        digest = section.get("sha256", "64 hexadecimal digits", lambda v: isinstance(v, str) and len(v) == 64)
        games.append(
            BaseGame(
                section.text("file"),
                section.text("key"),
                section.text("name"),
                digest.lower(),
                tuple(section.texts("differences", [])),
                section.text("edition", None),
            )
        )
    sea_zone_name = root.get("sea_zone_name", 'a pattern with "{n}", e.g. "{n} Sea Zone"', lambda v: isinstance(v, str) and "{n}" in v)
    marker = root.table("capital_marker", None)
    factory = root.table("factory_output")
    specials = root.table("special", None)
    bid_phase = root.table("bid_phase", None)
    if bid_phase is not None:
        bid_phase.only("property", "reason")
        bid_phase.get("property", 'a pattern with "{power}", e.g. "{power} bid"', lambda v: isinstance(v, str) and "{power}" in v)
    return Profile(
        map=root.text("map"),
        path=str(path),
        rulesets=tuple(root.texts("rulesets", [])),
        sea_zone_name=sea_zone_name,
        games=tuple(games),
        powers=_names(root, "powers"),
        units=_names(root, "units"),
        places=_names(root, "places"),
        place_reasons=_names(root, "place_reasons"),
        neutral_coasts=_name_lists(root, "neutral_coasts"),
        capital_marker=None if marker is None else CapitalMarker(marker.text("power"), marker.text("at"), marker.text("refuge"), marker.text("reason")),
        powers_may_enter=_name_lists(root, "powers_may_enter"),
        factory_output_enforced_by_game=factory.boolean("enforced_by_game"),
        factory_output_reason=factory.text("reason"),
        special_reasons={name: specials.table(name).text("reason") for name in specials.data} if specials is not None else {},
        straits=_straits(root),
        bid_property=bid_phase.text("property") if bid_phase is not None else None,
        absent_places=_names(root, "absent_places"),
        scenario_decisions=read_decisions(root),
        turn_step_positions=_step_positions(root),
        unmatched=_names(root, "unmatched"),
        units_by_power=_units_by_power(root),
        sides=_name_lists(root, "sides"),
    )


def _with_base(data: dict, path: Path, base_read: tuple[str, ...] = ()) -> dict:
    """A profile that ``extends`` another (maps with the same board): the base's tables, then this file's.

    Name tables (``[powers]``, ``[places]``...) are merged, this file's entries
    winning; ``map``, ``rulesets`` and ``[[game]]`` are this file's own.
    """
    data = dict(data)
    base_name = data.pop("extends", None)
    if base_name is None:
        return data
    base_path = find_data_file("maps", str(base_name))
    # The base's text as the cache key read it, if that was this base (else it is read here).
    base_text = base_read[1] if base_read[:1] == (base_name,) else None
    base = dict(read_toml(base_path, base_text))
    if "extends" in base:
        raise DataFileError(f"extends: {base_name} extends another profile; extend that one directly", where=str(path))
    for key in ("game", "map", "rulesets"):
        base.pop(key, None)
    merged = dict(base)
    for key, value in data.items():
        merged[key] = {**base[key], **value} if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def _step_positions(root: Section) -> dict[str, StepPosition]:
    table = root.table("turn_step_positions", None)
    positions = {}
    for name in table.data if table is not None else ():
        section = table.table(name)
        section.only("after", "reason")
        positions[name] = StepPosition(section.text("after"), section.text("reason"))
    return positions


def _straits(root: Section) -> dict[str, Strait]:
    table = root.table("straits", None)
    if table is None:
        return {}
    straits = {}
    for name in table.data:
        section = table.table(name)
        section.only("sea_zones", "reason", "land", "land_reason")
        pairs = section.get(
            "sea_zones",
            "a list of [sea zone, sea zone] pairs",
            lambda v: isinstance(v, list) and v and all(isinstance(p, list) and len(p) == 2 and all(isinstance(z, str) for z in p) for p in v),
        )
        land = tuple(section.texts("land", []))
        if land and not section.has("land_reason"):
            raise section.fail("land_reason", "why these territories are the strait's sides")
        straits[name] = Strait(name, tuple((a, b) for a, b in pairs), section.text("reason"), land, section.text("land_reason", ""))
    return straits


def _units_by_power(root: Section) -> dict[str, dict[str, str]]:
    table = root.table("units_by_power", None)
    return {} if table is None else {power: _names(table, power) for power in table.data}


def _names(root: Section, key: str) -> dict[str, str]:
    return root.get(key, "a table of rule-text name = game name", lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()), {})


def _name_lists(root: Section, key: str) -> dict[str, tuple[str, ...]]:
    """A table of name = [names] (``[neutral_coasts]``, ``[powers_may_enter]``), each list checked as read."""
    table = root.table(key, None)
    return {} if table is None else {name: tuple(table.texts(name)) for name in table.data}


def load_named_profile(name: str) -> Profile:
    return load_profile(find_data_file("maps", name))


# -- which profile a game is read with: the one place that decides ------------------

PROFILE_IN_MAP = "kremlin-profile.toml"  # a profile a map maker ships inside the map's own folder
PROFILES_FOLDER = "profiles"  # the user's own profiles: a folder beside the maps folder


class NoProfileError(UnknownNameError):
    """No map profile for a game anywhere it is looked for; says where it looked and how to start one."""

    def __init__(self, map_name: str, looked_in: list[Path], game: Game) -> None:
        known = sorted({p.stem for base in data_folders("maps") for p in base.glob("*.toml")})
        super().__init__("map profile", map_name, known, show_all=True, where=str(game.source))
        places = ", ".join(str(p) for p in looked_in)
        self.message += f"; looked for {places or 'no installed map folder'} and the built-in profiles; start one with: {new_profile_command(game)}"
        self.map_name = map_name
        self.looked_in = tuple(looked_in)
        self.game = game


def new_profile_command(game: Game) -> str:
    """The exact ``profile new`` command that starts a profile for ``game`` where it will be found."""
    source = Path(game.source)
    folder = map_folder_of(source)
    if folder is None:
        return f"kremlin-triplea profile new {source} -o {source.with_suffix('.profile.toml')} (then pass --profile)"
    name = game.board.properties.get("mapName") or folder.name
    return f"kremlin-triplea --maps-dir {folder.parent} profile new {folder.name}/{source.name} -o {folder.parent.parent / PROFILES_FOLDER / (name + '.toml')}"


def map_folder_of(game_path: Path) -> Path | None:
    """The map folder a game file lies in (``<map>/map/games/x.xml`` or ``<map>/games/x.xml``)."""
    parent = game_path.resolve().parent
    if parent.name != "games":
        return None
    return parent.parent.parent if parent.parent.name == "map" else parent.parent


def _map_names(game: Game) -> list[str]:
    """The name a profile of the game's map goes by: its ``mapName`` (another game in the same folder may be
    another map: classic_variations holds WorldWar3-1955.xml), else its map folder's name."""
    folder = map_folder_of(Path(game.source))
    name = game.board.properties.get("mapName") or (folder.name if folder else None)
    return [name] if name else []


def profile_places(game: Game) -> list[Path]:
    """Where a profile for ``game`` is looked for, first found wins (built-in profiles come last).

    1. ``profiles/<mapName>.toml`` beside the maps folder the game is installed in
       (the user's or map maker's working copy);
    2. ``kremlin-profile.toml`` in the map's own folder (or its ``map/`` folder):
       a profile the map maker ships with the map.
    """
    source = Path(game.source)
    folder = map_folder_of(source)
    names = _map_names(game)
    places: list[Path] = []
    if folder is not None:
        places += [folder.parent.parent / PROFILES_FOLDER / f"{n}.toml" for n in names]
        places += [folder / PROFILE_IN_MAP, folder / "map" / PROFILE_IN_MAP]
    return places


def profile_for_game(game: Game, explicit: Path | str | None = None) -> Profile:
    """The profile a game is read with; the one place that decides.

    In order: ``explicit`` (a draft's ``profile``, resolved against the
    draft's folder); the places of
    :func:`profile_places` (the user's ``profiles`` folder, then the map's own
    folder); the built-in profile of the game's map (its ``mapName``
    property, else its map folder's name). The one found must fit the game
    (:meth:`Profile.check_fits`).
    """
    profile = _find_profile(game, explicit)
    profile.check_fits(game)
    return profile


def _find_profile(game: Game, explicit: Path | str | None) -> Profile:
    if explicit is not None:
        return load_profile(explicit)
    for path in profile_places(game):
        if os.path.lexists(path):  # a FIFO or a broken link there is refused by name, not passed over for another profile
            return load_profile(path)
    names = _map_names(game)
    for name in names:
        try:
            return load_profile(find_data_file("maps", name))
        except UnknownNameError:
            continue
    raise NoProfileError(names[0] if names else Path(game.source).stem, profile_places(game), game)


@attrs.frozen
class Unmatched:
    """The map profile's ``[unmatched]`` names (lower case) by the kind each is missing as here: the table carries no
    kind, and Global 1940's "China" is unmatched as a place (kremlin-classic's scenario 'china-joins-japan') while its
    player China is the Chinese. Without ``board`` only the profile's powers say which names are there (a unit or
    place it leaves unmatched is missing as every kind)."""

    powers: frozenset[str]
    units: frozenset[str]
    places: frozenset[str]

    @classmethod
    def of(cls, profile: Profile, board: Board | None = None) -> Unmatched:
        missing = {k.lower() for k in profile.unmatched}
        players = {k.lower() for k in profile.powers} | ({p.lower() for p in board.catalog.players} if board is not None else set())
        if board is None:
            return cls(frozenset(missing - players), frozenset(missing), frozenset(missing))
        units = {u.lower() for u in board.catalog.unit_types}
        units |= {k.lower() for k, v in profile.units.items() if v in board.catalog.unit_types}
        units |= {w.lower() for table in profile.units_by_power.values() for w, v in table.items() if v in board.catalog.unit_types}
        places = {t.lower() for t in board.nodes} | {k.lower() for k, v in profile.places.items() if v in board.nodes}
        return cls(frozenset(missing - players), frozenset(missing - units), frozenset(missing - places))

    def __bool__(self) -> bool:
        return bool(self.powers or self.units or self.places)


def fit_ruleset(ruleset, profile: Profile, board: Board | None = None) -> tuple[object, tuple[str, ...]]:
    """The ruleset as far as it applies on a map whose profile leaves names ``[unmatched]``, and what that changes.

    A neutral the map does not have is not in its table (it cannot be taken). A restriction is never dropped
    (issue 46: dropping 000 D(5) offered Chinese battleships and takeovers of Denmark): it holds for what the map
    has (:func:`restrictions_kept_in_part` says how), and the draft's state reads its unmatched names so that
    they allow nothing the whole rule forbids. Options and scenarios that need a missing name otherwise fail with
    it by name.
    """
    import attrs as _attrs

    if board is not None:
        # A side no alliance of the game stands for: a draft between sides the game does not have offers no pick.
        alliances = board.catalog.alliances()
        for side in ruleset.sides:
            if not profile.side_members(side, board.catalog):
                said = profile.unmatched.get(side, f"its alliances are {', '.join(alliances) or 'none'}")
                raise KremlinError(
                    f"{ruleset.id} does not fit this game: no player of it is on the side {side!r} ({said.removeprefix('side: ')})",
                    where=str(profile.path) if profile.path else None,
                )
    missing = {k.lower() for k in profile.unmatched}
    if not missing:
        return ruleset, ()
    kinds = Unmatched.of(profile, board)
    notes = []
    neutrals = {k: n for k, n in ruleset.neutrals.items() if n.name.lower() not in missing}
    if len(neutrals) != len(ruleset.neutrals):
        gone = sorted(n.name for n in ruleset.neutrals.values() if n.name.lower() in missing)
        notes.append(f"the neutrals {', '.join(gone)} are not on this map (map profile [unmatched]): they cannot be taken")
    notes += [f"{title}: {how}" for title, how, _, _ in restrictions_kept_in_part(ruleset, profile, board)]
    options = []
    for option in ruleset.options:
        params, why = option.params.without_names(kinds)
        if why:
            option = _attrs.evolve(option, params=params)
        options.append(option)
    return _attrs.evolve(ruleset, neutrals=neutrals, options=tuple(options)), tuple(notes)


def restrictions_kept_in_part(ruleset, profile: Profile, board: Board | None = None) -> list[tuple[str, str, str, str]]:
    """(title, how it holds here, the rule, its source) of each restriction a name the map profile leaves
    ``[unmatched]`` keeps from holding as written: the players read it whole in the game's notes, and how it holds.

    Who may pick (a power's restriction) and what may not be placed (a placement option's exception) hold for
    every player, unit or place an unmatched name may be; where a power may go holds for the places that matched.
    A name is unmatched only as the kind it is used as: ``[unmatched]`` names carry no kind, and Global 1940's
    "China" is unmatched as kremlin-classic's place (scenario 'china-joins-japan') while its player China is the
    Chinese, whom the draft binds (draft/state.py looks the power up first). Without ``board`` only the profile's
    own tables say which names are placed.
    """
    missing = {k.lower() for k in profile.unmatched}
    kinds = Unmatched.of(profile, board)
    land = {k.lower() for k in profile.places}
    if board is not None:
        land = {t.lower() for t, d in board.nodes.items() if not d["water"]} | {k.lower() for k, v in profile.places.items() if v in board.nodes}
    found = []
    for power, restriction in ruleset.restrictions.items():
        hows = []
        if power.lower() in kinds.powers:
            hows.append(f"no player of this map is named {power}: the restriction binds every player the rules do not name")
        lacking = [n for n in restriction.may_also_enter if n.lower() in missing and n.lower() not in land]
        if lacking:
            hows.append(f"this map has no place named {' or '.join(lacking)}: {power} may not enter or take {'it' if len(lacking) == 1 else 'them'}")
        if hows:
            found.append((f"The {power} restriction, kept in part on this map", "; ".join(hows), restriction.rule, restriction.source))
    for option in ruleset.options:
        _, why = option.params.without_names(kinds)
        if why:
            found.append((f"{option.label}, its exception kept in part on this map", why, option.rule, option.source))
    return found


_read_profile = ReadOnce(_load_profile, also=_base_text)
