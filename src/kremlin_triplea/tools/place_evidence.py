"""What the shipped profiles say about places: each rule-text place as the maps with a profile name it (with its
neighbours and worth), the straits' shapes, and which boards they were read from; kept in
``evidence/known-places.json`` (written by scripts/known_places.py) so a user without the pinned maps has it.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import attrs

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.ruleset import data_folders
from kremlin_triplea.tools.place_words import carries_word, place_key
from kremlin_triplea.tools.rule_names import numbered_in_game, rule_names


@attrs.frozen
class KnownPlace:
    """A rule-text place on a map a hand-written profile covers: the evidence ``profile new`` reasons from."""

    rule: str
    map: str
    game_file: str
    name: str  # the game's name there
    water: bool
    neighbours: frozenset[str]
    land_neighbours: frozenset[str] = frozenset()  # plain names: comparable across maps whose sea zones are numbered differently
    owner_alliances: frozenset[str] | None = None  # its owner's alliances there; None: unowned (a neutral)
    board: frozenset[str] = frozenset()  # the plain names of every territory of that map
    production: int = 0  # what it is worth there

    def conflicts(self, board, name: str) -> str | None:
        """Why ``name`` on the new map cannot be this place: it is another territory there, or held by the other side."""
        if place_key(name) in self.board and place_key(name) != place_key(self.name):
            return f"{self.map} has both {self.name!r} and {name!r}"
        owner = board.node(name)["owner"]
        if (owner is None) != (self.owner_alliances is None):
            return (
                f"{name} is {'unowned' if owner is None else 'owned'} here, {self.name} {'unowned' if self.owner_alliances is None else 'owned'} on {self.map}"
            )
        # On the very board of that map (the v3 three-teams variant: v3 1941's territories, owners and connections, its
        # alliances renamed Nazi, Asia and Anglo) an alliance's name says nothing: the place is the place. On another
        # board it does: classic's American China is not the three-teams' Japanese French Indo-China Thailand.
        # An alliance is known by the side it names: Total World War's "Allies-Usa" is classic's "Allies".
        here = board.catalog.players[owner].alliances if owner is not None else ()
        if owner is not None and self.owner_alliances and not any(carries_word(a, k) or carries_word(k, a) for a in here for k in self.owner_alliances):
            if self.board != _plain_board(board):
                return f"{name} is held by another alliance here than {self.name} on {self.map}"
        return None


_LAST_BOARD: list[tuple[object, frozenset[str]]] = []  # the board asked last: one profile asks of one board


def _plain_board(board) -> frozenset[str]:
    """The plain names of every territory of ``board``, as :attr:`KnownPlace.board` holds them."""
    if not _LAST_BOARD or _LAST_BOARD[0][0] is not board:
        _LAST_BOARD[:] = [(board, frozenset(place_key(n) for n in board.nodes))]
    return _LAST_BOARD[0][1]


def known_places(maps_dir: Path | str | None, *, skip_board: frozenset[str] | None = None) -> dict[str, list[KnownPlace]]:
    """Every rule-text place the installed hand-written profiles translate, on each game they pin and the user has.

    ``skip_board``: leave out games whose territories are exactly these (to
    measure matching on a pinned map without its own profile's answers).
    """

    found: dict[str, list[KnownPlace]] = {}
    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    seen_files: set[str] = set()
    for key in sorted(paths):
        try:
            profile = load_profile(paths[key])
        except KremlinError:
            continue
        rule_places: set[str] = set(profile.places)
        own: set[str] = set()  # the names of the profile's own rulesets: only for these is its sea_zone_name right
        for ruleset_id in profile.rulesets:
            try:
                own |= set(rule_names(load_named_ruleset(ruleset_id)).places)
            except KremlinError:
                continue
        rule_places |= own
        for base in profile.games:
            if base.sha256 in seen_files:
                continue
            try:
                game = load(profile.game_key(base), maps_dir=maps_dir)
            except KremlinError:
                continue
            seen_files.add(base.sha256)
            board = game.board
            if skip_board is not None and frozenset(board.nodes) == skip_board:
                continue
            lowered = {n.lower(): n for n in board.nodes}
            plain_board = frozenset(place_key(n) for n in board.nodes)
            mapped = {k.lower(): v for k, v in profile.places.items()}
            for rule in sorted(rule_places):
                if rule in profile.absent_places:
                    continue
                name = mapped.get(rule.lower()) or lowered.get(rule.lower()) or (numbered_in_game(profile, rule) if rule in own else None)
                if name is None or name not in board.nodes:
                    continue
                around = frozenset(board.neighbours(name))
                owner = board.node(name)["owner"]
                found.setdefault(rule.lower(), []).append(
                    KnownPlace(
                        rule,
                        profile.map,
                        base.file,
                        name,
                        board.is_water(name),
                        around,
                        frozenset(place_key(n) for n in around if not board.is_water(n)),
                        None if owner is None else frozenset(board.catalog.players[owner].alliances),
                        plain_board,
                        int(board.node(name)["production"] or 0),
                    )
                )
    return found


#: Where the evidence ``profile new`` reasons from ships: the pinned games' facts for every place their
#: hand-written profiles translate, written by scripts/known_places.py (tests check it against the games).
KNOWN_PLACES_FILE = "evidence/known-places.json"


def known_places_json(known: dict[str, list[KnownPlace]], boards: dict[str, frozenset[str]], straits: list[StraitShape] = ()) -> str:
    """``known`` as the shipped evidence file: each pinned game's territories once, then one line per place,
    then one line per strait shape (``strait_shapes``).

    ``boards``: the pinned games' territory names, by map and game file (``pinned_boards``).
    """
    used = {f"{place.map}/{place.game_file}" for places in known.values() for place in places}
    games = [f"{json.dumps(game)}: {json.dumps(sorted(names))}" for game, names in sorted(boards.items()) if game in used]
    lines = ["{", '"games": {', ",\n".join(games), "},", '"places": [']
    rows = []
    for rule in sorted(known):
        for place in known[rule]:
            row = attrs.asdict(place, recurse=False)
            del row["board"]  # the game's, in "games"
            for field in ("neighbours", "land_neighbours", "owner_alliances"):
                row[field] = None if row[field] is None else sorted(row[field])
            rows.append(json.dumps(row, sort_keys=True))
    lines.append(",\n".join(rows))
    lines += ["],", '"straits": [', ",\n".join(json.dumps(attrs.asdict(shape), sort_keys=True) for shape in straits), "]", "}", ""]
    return "\n".join(lines)


@attrs.frozen
class StraitShape:
    """A strait as a hand-written profile gives it on its pinned game: its sides, its boundaries, and the inner
    sea they close (the zone in every boundary whose only ways out they are; None for Gibraltar's one boundary
    between two open seas) with that sea's land neighbours (plain names, comparable across maps)."""

    key: str
    map: str
    land: list[str]
    pairs: int
    inner_land: list[str] | None


def strait_shapes(maps_dir: Path | str | None) -> list[StraitShape]:
    """The shape of every strait with sides in the shipped profiles, on the first pinned game of each."""
    shapes = []
    for profile in installed_profiles():
        for key, strait in sorted(profile.straits.items()):
            if not strait.land or not profile.games:
                continue
            try:
                board = load(profile.game_key(profile.games[0]), maps_dir=maps_dir).board
            except KremlinError:
                continue
            zones = [set(p) for p in strait.sea_zone_pairs]
            common, every = set.intersection(*zones), set.union(*zones)
            inner = next((z for z in sorted(common) if {n for n in board.neighbours(z) if board.is_water(n)} == every - {z}), None)
            land = None if inner is None else sorted({place_key(n) for n in board.neighbours(inner) if not board.is_water(n)})
            shapes.append(StraitShape(key, profile.map, list(strait.land), len(strait.sea_zone_pairs), land))
    return shapes


@functools.cache
def shipped_strait_shapes() -> tuple[StraitShape, ...]:
    for folder in data_folders("maps"):
        path = folder / KNOWN_PLACES_FILE
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            return tuple(StraitShape(**row) for row in data.get("straits", ()))
    return ()


@functools.cache
def _shipped_known_places() -> tuple[tuple[str, KnownPlace, frozenset[str]], ...]:
    for folder in data_folders("maps"):
        path = folder / KNOWN_PLACES_FILE
        if path.is_file():
            break
    else:
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    boards = {file: frozenset(names) for file, names in data["games"].items()}
    found = []
    for row in data["places"]:
        names = boards[f"{row['map']}/{row['game_file']}"]
        place = KnownPlace(
            row["rule"],
            row["map"],
            row["game_file"],
            row["name"],
            row["water"],
            frozenset(row["neighbours"]),
            frozenset(row["land_neighbours"]),
            None if row["owner_alliances"] is None else frozenset(row["owner_alliances"]),
            frozenset(place_key(n) for n in names),
            row["production"],
        )
        found.append((row["rule"].lower(), place, names))
    return tuple(found)


def shipped_known_places(*, skip_board: frozenset[str] | None = None) -> dict[str, list[KnownPlace]]:
    """The evidence ``profile new`` reasons from, as it ships with the tool: the same whichever maps are installed.

    ``known_places`` read it from the user's maps folder, so a user with the pinned
    maps got other matches than one without them (issue 28: "Australia" became
    Austria without them). ``skip_board`` as for ``known_places``.
    """
    found: dict[str, list[KnownPlace]] = {}
    for rule, place, names in _shipped_known_places():
        if skip_board is None or names != skip_board:
            found.setdefault(rule, []).append(place)
    return found


def pinned_boards(maps_dir: Path | str | None) -> dict[str, frozenset[str]]:
    """The territory names of every game a shipped profile pins and ``maps_dir`` has, by map and game file."""
    boards = {}
    for profile in installed_profiles():
        for base in profile.games:
            key = f"{profile.map}/{base.file}"
            if key in boards:
                continue  # the first profile's reading stands: the game is not read again
            try:
                boards[key] = frozenset(load(profile.game_key(base), maps_dir=maps_dir).board.nodes)
            except KremlinError:
                continue
    return boards


def installed_profiles() -> list[Profile]:
    """Every map profile the data folders hold, by key (a user's folder before the shipped one); unreadable ones skipped."""
    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    found = []
    for key in sorted(paths):
        try:
            found.append(load_profile(paths[key]))
        except KremlinError:
            continue
    return found
