"""Every claim about play a written game's notes make, asked of TripleA 2.7's own objects (issue 46's "Done when").

The notes list under "TripleA enforces" the rules written into the game or already in it, and under "You enforce"
the rules the players keep. For each claimed rule, each thing it says TripleA does is a question for 2.7 about the
written game (:mod:`kremlin_triplea.engine.triplea27_positions`): a property as 2.7's GameProperties hold it, an
attachment's option as 2.7's attachment holds it, a move 2.7's MoveValidator refuses or allows, a unit's hit points
after 2.7's InitializationDelegate ran, a ship 2.7's canal check stops, a step of 2.7's sequence. A rule the players
keep because the game cannot hold it is asked the other way: 2.7 must not do it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import attrs
import tomli_w
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.declare import write_declaration
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.engine.positions import Position
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.actions import LEGACY_PROPERTY_NAMES
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.session import Declaration, Session


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def write_first_picks(game: Path, profile: Path, ruleset: str, out: Path, picks_per_side: int = 4) -> tuple[Path, tuple[tuple[str, str], ...]]:
    """Each side's first legal picks on ``game`` with ``profile``, applied (``apply``) into ``out``; the neutrals
    they took over (territory, taker)."""
    data = {"ruleset": ruleset, "game": str(game), "first": "Axis", "picks_per_side": picks_per_side, "pick": []}
    session = Session(draft_from_dict(dict(data)), load(game), profile=load_profile(profile))
    for _ in range(2 * picks_per_side):
        pick = next(iter(session.legal_picks))
        session.push(pick)
        data["pick"].append(pick.to_toml())
    while (waiting := session.open_declaration()) is not None:  # a taken neutral's navy: its first nearest zone
        displaced, found, _ = waiting
        write_declaration(data["pick"][displaced.pick - 1], displaced, found.matches[0], session.names)
        session.declare(Declaration(displaced, found.matches[0]))
    data["bid"] = {session.ruleset.bid.placing_side.lower(): 0}
    draft = out.with_suffix(".toml")
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    applied = _run("apply", str(draft), "--profile", str(profile), "-o", str(out), "--force")
    assert applied.exit_code == 0, applied.output
    takes = tuple((t["neutral"], t["by"]) for pick in data["pick"] for t in pick.get("take", ()) if "neutral" in t)
    return out, takes


def notes_lists(written: Path) -> tuple[list[str], list[str]]:
    """The written game's notes (ours, above the map's own): each "TripleA enforces" line, each "You enforce" title."""
    root = etree.parse(str(written), etree.XMLParser(huge_tree=True)).getroot()
    notes = next((p.get("value") or p.findtext("value") or "") for p in root.iter("property") if p.get("name") == "notes")
    ours = notes[: notes.index("<hr/>")]

    def section(heading: str) -> list[str]:
        if f"<h3>{heading}</h3>" not in ours:
            return []
        part = ours[ours.index(f"<h3>{heading}</h3>") + len(heading) + 9 :]
        part = part[: part.find("<h3>")] if "<h3>" in part else part
        return [unescape(item) for item in re.findall(r"<li>(.*?)</li>", part, re.DOTALL)]

    kept = [re.sub(r"<.*?>", "", re.match(r"<b>(.*?)</b>", line).group(1)) if line.startswith("<b>") else line for line in section("You enforce")]
    return section("TripleA enforces"), kept


# ---------------------------------------------------------------------------------------------------------------
# The written game as its XML says (lxml), to pose the questions; 2.7's answers judge them.


def _root(path: Path) -> etree._Element:
    return etree.parse(str(path), etree.XMLParser(huge_tree=True)).getroot()


@attrs.frozen
class Game:
    """What the questions need of a game file: players and alliances, the board, the sequence, the data."""

    players: tuple[str, ...]
    alliance: dict[str, str]
    water: frozenset[str]
    neighbours: dict[str, frozenset[str]]
    steps: tuple[tuple[str, str, str | None], ...]  # name, delegate's javaClass, player
    attachments: dict[tuple[str, str, str, str], str]  # (type, attachTo, attachment, option) -> value
    properties: dict[str, str]
    units: dict[tuple[str, str, str], int]  # (territory, owner, type) -> count
    owners: dict[str, str]
    pus: dict[str, int]
    unit_types: tuple[str, ...]

    @classmethod
    def read(cls, path: Path) -> Game:
        root = _root(path)
        players = tuple(p.get("name") for p in root.iterfind("playerList/player"))
        alliance = {a.get("player"): a.get("alliance") for a in root.iterfind("playerList/alliance")}
        water = frozenset(t.get("name") for t in root.iterfind("map/territory") if t.get("water") == "true")
        neighbours: dict[str, set[str]] = {}
        for c in root.iterfind("map/connection"):
            neighbours.setdefault(c.get("t1"), set()).add(c.get("t2"))
            neighbours.setdefault(c.get("t2"), set()).add(c.get("t1"))
        classes = {d.get("name"): d.get("javaClass") for d in root.iterfind("gamePlay/delegate")}
        steps = tuple((s.get("name"), classes.get(s.get("delegate"), ""), s.get("player")) for s in root.iterfind("gamePlay/sequence/step"))
        # GameParser: an attachment "foreach" a variable ($Players$) is one attachment per element, "@Players@" in
        # its attachTo and values standing for the element; an option with a count reads "count:value".
        variables = {v.get("name"): [e.get("name") for e in v.iterfind("element")] for v in root.iterfind("variableList/variable")}
        attachments = {}
        for a in root.iterfind("attachmentList/attachment"):
            each = (a.get("foreach") or "").strip("$")
            for element in variables.get(each, [None]) if each else [None]:
                owner = a.get("attachTo") if element is None else a.get("attachTo").replace(f"@{each}@", element)
                for o in a.iterfind("option"):
                    value = o.get("value", "") if o.get("count") is None else f"{o.get('count')}:{o.get('value', '')}"
                    value = value if element is None else value.replace(f"@{each}@", element)
                    attachments[(a.get("type"), owner, a.get("name"), o.get("name"))] = value
        properties = {}
        for p in root.iterfind("propertyList/property"):
            value = p.get("value") if p.get("value") is not None else p.findtext("value")
            properties[p.get("name")] = value
        units: dict[tuple[str, str, str], int] = {}
        for u in root.iterfind("initialize/unitInitialize/unitPlacement"):
            key = (u.get("territory"), u.get("owner") or "", u.get("unitType"))
            units[key] = units.get(key, 0) + int(u.get("quantity"))
        owners = {o.get("territory"): o.get("owner") for o in root.iterfind("initialize/ownerInitialize/territoryOwner")}
        pus = {r.get("player"): int(r.get("quantity")) for r in root.iterfind("initialize/resourceInitialize/resourceGiven") if r.get("resource") == "PUs"}
        return cls(
            players,
            alliance,
            water,
            {k: frozenset(v) for k, v in neighbours.items()},
            steps,
            attachments,
            properties,
            units,
            owners,
            pus,
            tuple(u.get("name") for u in root.iterfind("unitList/unit")),
        )

    def step(self, player: str, java_class: str, name_ends: str = "", not_ends: str = "") -> str | None:
        for name, delegate, who in self.steps:
            if who == player and delegate.endswith(java_class) and name.endswith(name_ends) and not (not_ends and name.endswith(not_ends)):
                return name
        return None

    def allied(self, a: str, b: str) -> bool:
        return a == b or (a in self.alliance and self.alliance.get(a) == self.alliance.get(b))

    def land_units(self, player: str) -> list[tuple[str, str]]:
        """(territory, unit type) of the player's units on land at the start, land units as 2.7 reads isSea/isAir."""
        kinds = {t for t in self.unit_types if self.attachments.get(("unitType", t, "unitAttachment", "isSea")) != "true"}
        kinds = {t for t in kinds if self.attachments.get(("unitType", t, "unitAttachment", "isAir")) != "true"}
        kinds = {t for t in kinds if int(self.attachments.get(("unitType", t, "unitAttachment", "movement"), "0") or 0) >= 1}
        return sorted((t, u) for (t, owner, u), n in self.units.items() if owner == player and n and u in kinds and t not in self.water)


# ---------------------------------------------------------------------------------------------------------------
# Questions and judges.

#: 2.7's MoveValidator.validateMovementRestrictedByTerritory refuses a move with one of these.
RESTRICTED = ("Cannot move outside restricted territories", "Cannot move to restricted territories")


@attrs.frozen
class Ask:
    """One question to 2.7 about the written game and how to judge its answer (None: the claim holds)."""

    claim: str
    command: tuple[str, ...]
    judge: Callable[[dict[str, Any]], str | None]
    phase: int = 0  # 0 reads, 1 asks a step's delegate, 2 after the game's initialization ran


def _error(answer: dict[str, Any]) -> str | None:
    return f"2.7 answered {answer['error']}" if "error" in answer else None


def _same(held: Any, written: Any) -> bool:
    """A value as 2.7 holds it against the value written (a game file's text, or a rule's TOML value)."""
    text = str(written).strip()
    if isinstance(held, bool) or isinstance(written, bool):
        return str(held).lower() == text.lower()
    if isinstance(held, int):
        return text.lstrip("-").isdigit() and held == int(text)
    if isinstance(held, list):  # names written "a:b:c", or one value of pairs (a trigger's "after:germanEndTurn")
        return sorted(map(str, held)) == sorted(text.split(":")) or list(map(str, held)) == [text]
    if isinstance(held, dict):  # an IntegerMap: "count:name:name", or names each counted once ("1:3" rounds)
        count, *named = text.split(":")
        return (bool(named) and count.isdigit() and held == {name: int(count) for name in named}) or held == dict.fromkeys(text.split(":"), 1)
    return str(held) == text


def _judging(claim: str, key: str, wanted: Any, compare: Callable[[Any, Any], bool] = _same) -> Callable[[dict[str, Any]], str | None]:
    def judge(answer: dict[str, Any]) -> str | None:
        if (why := _error(answer)) is not None:
            return why
        if not compare(answer.get(key), wanted):
            return f"2.7 holds {answer.get(key)!r}, the claim needs {wanted!r}"
        return None

    return judge


def _property(claim: str, name: str, value: Any) -> Ask:
    return Ask(claim, ("property", name), _judging(claim, "value", value))


def _attachment(claim: str, kind: str, owner: str, attachment: str, option: str, wanted: Any, compare=_same) -> Ask:
    return Ask(claim, ("attachment", kind, owner, attachment, option), _judging(claim, "value", wanted, compare))


def written_data_asks(base: Game, written: Game) -> list[Ask]:
    """What the written game's file says otherwise than its base game's (every property, attachment option, unit,
    owner and PU changed): each as 2.7 holds it. The claims' data, whichever rule or pick wrote it."""
    asks = []
    what = "the written game's data"
    read_as = {old: new for new, olds in LEGACY_PROPERTY_NAMES.items() for old in olds}  # 2.7's LegacyPropertyMapper
    for name, value in sorted(written.properties.items()):
        if name != "notes" and base.properties.get(name) != value:
            asks.append(_property(f"{what}: property {name!r}", read_as.get(name.lower(), name), value))
    for (kind, owner, attachment, option), value in sorted(written.attachments.items()):
        if base.attachments.get((kind, owner, attachment, option)) != value and kind in ("player", "unitType", "territory"):
            asks.append(_attachment(f"{what}: {attachment} of {owner}: {option}", kind, owner, attachment, option, value))
    changed = {k[0] for k in set(written.units) | set(base.units) if written.units.get(k, 0) != base.units.get(k, 0)}
    changed |= {t for t, o in written.owners.items() if base.owners.get(t) != o}
    for territory in sorted(changed):
        units = {f"{o}|{u}": n for (t, o, u), n in written.units.items() if t == territory and n}
        owner = written.owners.get(territory, "")

        def judge(answer, units=units, owner=owner):
            if (why := _error(answer)) is not None:
                return why
            if answer["units"] != units or answer["owner"] != owner:
                return f"2.7 reads owner {answer['owner']!r}, units {answer['units']}; the file says {owner!r}, {units}"
            return None

        asks.append(Ask(f"{what}: units and owner of {territory}", ("units", territory), judge))
    for player, pus in sorted(written.pus.items()):
        if base.pus.get(player) != pus:
            asks.append(Ask(f"{what}: {player}'s PUs", ("pus", player), _judging(what, "pus", pus)))
    return asks


def _prices(path: Path) -> dict[str, dict[str, int]]:
    """Each player's production prices as the file writes them: player -> unit -> PUs."""
    root = _root(path)
    rules = {}
    for rule in root.iterfind("production/productionRule"):
        cost = next((int(c.get("quantity")) for c in rule.iterfind("cost") if c.get("resource") == "PUs"), None)
        rules[rule.get("name")] = {r.get("resourceOrUnit"): cost for r in rule.iterfind("result")}
    frontiers = {f.get("name"): [r.get("name") for r in f.iterfind("frontierRules")] for f in root.iterfind("production/productionFrontier")}
    prices = {}
    for given in root.iterfind("production/playerProduction"):
        prices[given.get("player")] = {unit: cost for name in frontiers.get(given.get("frontier"), []) for unit, cost in rules.get(name, {}).items()}
    return prices


def price_asks(base: Path, written: Path) -> list[Ask]:
    before, after = _prices(base), _prices(written)
    asks = []
    for player, prices in sorted(after.items()):
        changed = {unit: cost for unit, cost in prices.items() if before.get(player, {}).get(unit) != cost and cost is not None}
        if changed:

            def judge(answer, changed=changed):
                if (why := _error(answer)) is not None:
                    return why
                wrong = {u: (answer["prices"].get(u), c) for u, c in changed.items() if answer["prices"].get(u) != c}
                return f"2.7's prices (held, written): {wrong}" if wrong else None

            asks.append(Ask(f"the written game's data: {player}'s prices", ("frontier", player), judge))
    return asks


@attrs.frozen
class Written:
    """A written game and what its notes are judged with: the rules of its set, the names of its map profile, the
    neutrals its draft took over (territory, taker)."""

    label: str
    base: Path
    path: Path
    rules: tuple[Any, ...]
    names: Any  # kremlin_triplea.rules.names.Names of the base game with the profile
    takes: tuple[tuple[str, str], ...] = ()


def _movement_asks(claim: str, game: Game, player: str, restricted: bool, into: frozenset[str] = frozenset()) -> list[Ask]:
    """A unit of ``player`` moving from where it starts: with ``restricted``, 2.7 refuses a move out of its movement
    list and lets one within it (into one of ``into`` where a unit stands beside one) by the restriction; otherwise
    no move is refused for a restriction."""
    listed = set((game.attachments.get(("player", player, "rulesAttachment", "movementRestrictionTerritories")) or "").split(":")) - {""}
    step = game.step(player, "MoveDelegate", "CombatMove", "NonCombatMove") or game.step(player, "MoveDelegate")
    if step is None:  # the player never moves (Pacific 1940's Russians): nothing 2.7 could restrict
        return [_fails(claim, f"{player} has no move step")] if restricted else []
    asks = []
    starts = game.land_units(player)
    if restricted:
        inside = [(t, u) for t, u in starts if t in listed]
        out = next(((t, u, n) for t, u in inside for n in sorted(game.neighbours.get(t, ())) if n not in listed and n not in game.water), None)
        inward = [(t, u, n) for t, u in inside for n in sorted(game.neighbours.get(t, ())) if n in listed and n not in game.water]
        within = next((m for m in inward if m[2] in into), inward[0] if inward else None)
        if out is None and within is None:
            return [Ask(claim, ("property", "Movement By Territory Restricted"), lambda a: f"no unit of {player} starts inside its movement list")]
        if out is not None:
            asks.append(Ask(claim, ("move", step, player, out[1], out[0], out[2]), _refused_as_restricted, 1))
        if within is not None:
            asks.append(Ask(claim, ("move", step, player, within[1], within[0], within[2]), _not_refused_as_restricted, 1))
        return asks
    # A "disallowed" list is the game's own rule of where the player may not go (G40CanadianMod's Russians: the Pacific),
    # not the rule kept: moves into it are left out.
    own = listed if (game.attachments.get(("player", player, "rulesAttachment", "movementRestrictionType")) or "").lower() == "disallowed" else set()
    for territory, unit in starts[:3]:
        for neighbour in sorted(game.neighbours.get(territory, ())):
            if neighbour not in game.water and neighbour not in own:
                asks.append(Ask(claim, ("move", step, player, unit, territory, neighbour), _not_refused_as_restricted, 1))
    return asks or [Ask(claim, ("pus", player), lambda a: f"{player} has no land unit that could move")]


def _refused_as_restricted(answer: dict[str, Any]) -> str | None:
    if (why := _error(answer)) is not None:
        return why
    return None if answer["why"] in RESTRICTED else f"2.7's MoveValidator answered {answer['why'] or 'valid'}, not a movement restriction"


def _not_refused_as_restricted(answer: dict[str, Any]) -> str | None:
    if (why := _error(answer)) is not None:
        return why
    return f"2.7's MoveValidator refused it: {answer['why']}" if answer["why"] in RESTRICTED else None


def _battleships(game: Game) -> list[str]:
    """The game's battleship unit types by name (the rule's word), as a player reads the unit list."""
    return [t for t in game.unit_types if "battleship" in t.lower()]


def _two_hit_asks(claim: str, game: Game, init: str | None, claimed: bool) -> list[Ask]:
    """After 2.7's InitializationDelegate ran (initTwoHitBattleship), each battleship's hit points."""
    ships = _battleships(game)
    if not ships or init is None:
        return [_fails(claim, "the game has no battleship or no initialization step")] if claimed else []
    asks: list[Ask] = [Ask(claim, ("step", init), _error, 2)]
    wanted = 2 if claimed else None
    for ship in ships:

        def judge(answer, ship=ship):
            if (why := _error(answer)) is not None:
                return why
            if wanted is not None and answer["hit_points"] != wanted:
                return f"2.7 gives {ship} {answer['hit_points']} hit point(s)"
            return None

        asks.append(Ask(claim, ("unit", game.players[0], ship), judge, 3))
    if not claimed:  # the players keep it: a battleship not named exactly "battleship" keeps its one hit in 2.7
        asks = asks[:1]
        for ship in ships:
            if ship != "battleship" and int(game.attachments.get(("unitType", ship, "unitAttachment", "hitPoints"), "1") or 1) < 2:
                judge = _judging(claim, "hit_points", 1)
                asks.append(Ask(claim, ("unit", game.players[0], ship), judge, 3))
    return asks


def _canal_asks(claim: str, base: Game, game: Game, strait: str | None) -> list[Ask]:
    """Each canal the written game adds (of ``strait``: its canalName "Kremlin <strait> <n>"): 2.7's canal check
    stops a ship of a power at war with the owners of its land, and lets one of theirs through."""
    canals: dict[str, list[str]] = {}
    land: dict[str, str] = {}
    for (kind, zone, name, option), value in game.attachments.items():
        if option == "canalName" and (kind, zone, name, option) not in base.attachments and (strait is None or value.startswith(f"Kremlin {strait} ")):
            canals.setdefault(value, []).append(zone)
            land[value] = game.attachments.get((kind, zone, name, "landTerritories"), "")
    if not canals:
        return [_fails(claim, f"2.7's game has no canal of the strait {strait}")]
    asks = []
    ships = [t for t in game.unit_types if game.attachments.get(("unitType", t, "unitAttachment", "isSea")) == "true"]
    for name, zones in sorted(canals.items()):
        a, b = sorted(zones)[:2]
        owners = {game.owners.get(t) for t in land[name].split(":")}
        players = sorted(o for o in owners if o in game.players)
        # "unless one side owns both sides": the owners' side passes when one side holds all the land, else nobody
        one_side = len(players) == len(owners) and all(game.allied(a, b) for a in players for b in players)
        holder = players[0] if one_side else None
        enemy = next((p for p in game.players if holder and not game.allied(p, holder)), None)
        if enemy is not None:
            asks.append(Ask(claim, ("canal", a, b, enemy, ships[0]), lambda r: _error(r) or (None if not r["passes"] else "2.7 lets the enemy's ship through")))
        if holder is not None:
            asks.append(
                Ask(claim, ("canal", a, b, holder, ships[0]), lambda r: _error(r) or (None if r["passes"] else f"2.7 stops the owner's ship: {r['why']}"))
            )
        else:  # neutral land (Turkey) or land of both sides (Gibraltar and Spanish Morocco): no power's ship passes
            asks += [
                Ask(
                    claim,
                    ("canal", a, b, player, ships[0]),
                    lambda r: _error(r) or (None if not r["passes"] else "2.7 lets a ship through land no side holds whole"),
                )
                for player in (players or game.players[:1])
            ]
    return asks


def _first_move_asks(claim: str, game: Game, player: str) -> list[Ask]:
    """2.7's sequence has a non-combat move of ``player`` run once, before any other power's move."""

    def judge(answer: dict[str, Any]) -> str | None:
        if (why := _error(answer)) is not None:
            return why
        steps = answer["steps"]
        moves = [i for i, s in enumerate(steps) if s["player"] and "move" in s["delegate"].lower()]
        own = [i for i in moves if steps[i]["player"] == player and steps[i]["non_combat"] and steps[i]["max_run_count"] == 1]
        others = [i for i in moves if steps[i]["player"] != player]
        if not own or (others and own[0] > others[0]):
            return f"2.7's sequence has no once-run non-combat move of {player} before the other powers move"
        return None

    return [Ask(claim, ("sequence",), judge)]


def _factory_asks(claim: str, game: Game, names: Any, limited: bool) -> list[Ask]:
    """A bonus factory (option 8: the power's own "factory") put on a territory of the power with none: 2.7 lets it
    place no more new units than the territory's production (``limited``), or more (the players keep the rule)."""
    able = False
    for player in game.players:
        step = game.step(player, "PlaceDelegate", "Place", "BidPlace")
        try:
            factory, infantry = names.own_unit("factory", player), names.own_unit("infantry", player)
        except KremlinError:
            continue
        if step is None or factory is None or infantry is None:
            continue
        able = True
        for territory, owner in sorted(game.owners.items()):
            production = int(game.attachments.get(("territory", territory, "territoryAttachment", "production"), "0") or 0)
            factories = {
                t for t in game.unit_types if "true" in (game.attachments.get(("unitType", t, "unitAttachment", o)) for o in ("canProduceUnits", "isFactory"))
            }
            if (
                owner != player
                or territory in game.water
                or production < 1
                or any(t == territory and n and u in factories for (t, _, u), n in game.units.items())
            ):
                continue

            def judge(answer, production=production):
                if (why := _error(answer)) is not None:
                    return why
                most = answer["placeable"]
                held = most == production if limited else most != production  # -1: no limit
                return None if held else f"2.7 lets {most} be placed by a bonus factory on a territory of production {production}"

            return [
                Ask(claim, ("add", territory, player, factory, "1"), _error, 1),
                Ask(claim, ("placeable", step, player, infantry, territory, str(production + 5)), judge, 1),
            ]
    if limited and not able:
        return [_fails(claim, "no power has a factory, infantry and a place step to ask about")]
    return []  # every territory of production 1 or more has a factory already: no bonus factory can stand anywhere


#: Changes whose whole effect is data of the written game (a property, an attachment option, units, PUs, a
#: trigger's or technology's attachment): asked of 2.7 by :func:`written_data_asks` and :func:`price_asks`.
DATA_KINDS = frozenset(
    {
        "set_property",
        "attachment_option",
        "place_units",
        "set_pus",
        "trigger_pus",
        "trigger_units",
        "tech_ability",
        "neutral_armies",
        "move_units",
        "objective",
        "unit_support",
        "technology",
        "tech_cost",
        "technology_prices",
        "power_tech",
        "price_change",
        "give_neutral",
        "frontier_cost",
    }
)


def _fails(claim: str, why: str) -> Ask:
    """A claim the game at hand cannot hold whatever 2.7 answers (asked something harmless)."""
    return Ask(claim, ("technologies",), lambda answer: why)


def _power(names: Any, word: str) -> str | None:
    try:
        return names.power(word)
    except KremlinError:
        return None


def _territory(names: Any, word: str) -> str | None:
    try:
        return names.territory(word)
    except KremlinError:
        return None


def _rule_property_checks(rule: Any) -> list[dict[str, Any]]:
    return [c.data for c in rule.holds_if if c.data.get("kind") == "property"]


def claimed_asks(rule: Any, w: Written, base: Game, game: Game, partial: bool = False) -> list[Ask] | None:
    """The questions a claimed rule ("TripleA enforces") poses; None where nothing of it could be asked. A rule the
    notes also leave to the players in ``partial`` ("not in this game: unknown power 'Germany'"): what names a player,
    unit or place this game lacks is theirs, the rest is asked."""
    claim = f"{w.label}: {rule.id} ({rule.title}) claimed"
    init = next((name for name, delegate, _ in game.steps if delegate.endswith(INIT_DELEGATES)), None)
    asks: list[Ask] = []
    for change in rule.changes:
        data, kind = change.data, change.data["kind"]
        if kind == "set_property" and "unless" not in data:
            asks.append(_property(claim, data["name"], data["value"]))
            if data["name"] == "Movement By Territory Restricted" and data["value"] is True:
                for check in rule.holds_if:
                    if (who := _power(w.names, check.data.get("power", ""))) is not None:
                        asks += _movement_asks(claim, game, who, restricted=True)
            if data["name"] == "Two hit battleship" and data["value"] is True:
                asks += _two_hit_asks(claim, game, init, claimed=True)
        elif kind == "attachment_option" and data["attachment"] == "unitAttachment":
            try:
                types = sorted(w.names.units_of_any_power(data["attach_to"]))
            except KremlinError:
                types = []
            asks += [_attachment(claim, "unitType", t, "unitAttachment", data["option"], data["value"]) for t in types if "value" in data]
            asks += [] if types or partial else [_fails(claim, f"the game has no unit {data['attach_to']}")]
        elif kind in ("attachment_option", "turn_step", "grant_tech") and _power(w.names, data.get("attach_to", data.get("power", ""))) is None:
            asks += [] if partial else [_fails(claim, f"the game has no player {data.get('attach_to', data.get('power'))}")]
        elif kind == "victory_city" and _territory(w.names, data["to"]) is None:
            asks += [] if partial else [_fails(claim, f"the game has no place {data['to']}")]
        elif kind == "attachment_option" and data["option"] == "movementRestrictionTerritories" and "add" in data:
            who = _power(w.names, data["attach_to"])
            places = {p for word in data["add"] if (p := _territory(w.names, word))}
            asks.append(_attachment(claim, "player", who, "rulesAttachment", data["option"], places, lambda held, want: held is not None and want <= set(held)))
            # MoveValidator.validateMovementRestrictedByTerritory, the game's restriction on: with movementRestrictionType
            # "allowed", a move out of the list refused and one into it (an added place) not; with no type (Rise of the
            # Axis' Chinese, whose list is the added places alone), no move refused.
            if (game.properties.get("Movement By Territory Restricted") or "").lower() == "true":
                restriction = game.attachments.get(("player", who, "rulesAttachment", "movementRestrictionType"))
                asks += _movement_asks(claim, game, who, restricted=restriction == "allowed", into=frozenset(places))
        elif kind == "attachment_option" and data.get("remove") and data["option"] == "placementPerTerritory":
            who = _power(w.names, data["attach_to"])
            asks.append(_attachment(claim, "player", who, "rulesAttachment", data["option"], -1, lambda held, want: held == want))  # 2.7's default: none
        elif kind == "attachment_option" and "value" in data:
            who = _power(w.names, data["attach_to"])
            asks.append(_attachment(claim, "player", who, data["attachment"], data["option"], data["value"]))
        elif kind == "canal":
            canals = _canal_asks(claim, base, game, data["strait"])
            asks += [] if partial and canals[0].command == ("technologies",) else canals
        elif kind == "turn_step":
            asks += _first_move_asks(claim, game, _power(w.names, data["power"]))
        elif kind == "victory_city":
            to, away = _territory(w.names, data["to"]), _territory(w.names, data["from"])
            asks.append(_attachment(claim, "territory", to, "territoryAttachment", "victoryCity", 0, lambda held, want: held is not None and int(held) > want))
            if away is not None:
                asks.append(_attachment(claim, "territory", away, "territoryAttachment", "victoryCity", 0, lambda held, want: held in (None, want)))
        elif kind == "grant_tech":
            who = _power(w.names, data["power"])
            asks.append(Ask(claim, ("techs", who), _judging(claim, "techs", data["tech"], lambda held, want: want in held)))
        elif kind not in DATA_KINDS:
            return None
    if rule.built_in and not rule.changes:
        if rule.id not in BUILT_IN:
            return None
        return asks + BUILT_IN[rule.id](claim, rule, w, base, game, True)  # none: nothing of it in this game to ask
    return asks  # a rule whose changes another writes (``written_by``) has none of its own: that one is asked


def kept_asks(rule: Any, w: Written, base: Game, game: Game) -> list[Ask]:
    """A rule the notes leave to the players because this game cannot hold it: 2.7 must not do it."""
    claim = f"{w.label}: {rule.id} ({rule.title}) kept by the players"
    init = next((name for name, delegate, _ in game.steps if delegate.endswith(INIT_DELEGATES)), None)
    asks: list[Ask] = []
    for change in rule.changes:
        data = change.data
        if data["kind"] == "set_property" and data["value"] is True and data["name"] == "Movement By Territory Restricted":
            for check in rule.holds_if:
                if (who := _power(w.names, check.data.get("power", ""))) is not None:
                    asks += _movement_asks(claim, game, who, restricted=False)
        if data["kind"] == "set_property" and data["value"] is True and data["name"] == "Two hit battleship":
            asks += _two_hit_asks(claim, game, init, claimed=False)
    if rule.id in BUILT_IN and rule.built_in and not rule.changes:
        asks += BUILT_IN[rule.id](claim, rule, w, base, game, False)
    return asks


def _neutral_income(claim, rule, w, base, game, claimed):
    asks = []
    for territory, taker in w.takes if claimed else ():
        asks.append(Ask(claim, ("units", territory), _judging(claim, "owner", taker)))
        asks.append(
            _attachment(claim, "territory", territory, "territoryAttachment", "production", 0, lambda held, want: held is not None and int(held) > want)
        )
    return asks  # none where the draft took no neutral over


def _starting_income(claim, rule, w, base, game, claimed):
    if not claimed:
        return []
    asks = [Ask(claim, ("pus", player), _judging(claim, "pus", pus)) for player, pus in sorted(base.pus.items())]
    for territory, _ in w.takes:
        production = base.attachments.get(("territory", territory, "territoryAttachment", "production"), "0")
        asks.append(_attachment(claim, "territory", territory, "territoryAttachment", "production", production))
    return asks


def _factory_output(claim, rule, w, base, game, claimed):
    return _factory_asks(claim, game, w.names, limited=claimed)


def _china_income(claim, rule, w, base, game, claimed):
    who = _power(w.names, "China")
    if who is None:
        return [] if not claimed else [_fails(claim, "no Chinese player")]

    try:
        infantry = w.names.own_unit("infantry", who)
    except KremlinError:
        infantry = None

    def two(held, want):  # one infantry per two territories: the Chinese infantry's count
        return bool(held) and held.get(infantry) == want

    compare = two if claimed else (lambda held, want: not two(held, want))
    return [_attachment(claim, "player", who, "rulesAttachment", "productionPerXTerritories", 2, compare)]


def _edition(claim, rule, w, base, game, claimed):
    checks = _rule_property_checks(rule)
    if claimed:
        return [_property(claim, c["name"], c["value"]) for c in checks]
    held: list[bool] = []

    def noting(check):
        def judge(answer):
            held.append("error" not in answer and _same(answer["value"], check["value"]))
            return _error(answer) or (None if len(held) < len(checks) or not all(held) else "2.7 holds every property of the rule")

        return judge

    return [Ask(claim, ("property", c["name"]), noting(c)) for c in checks]


def _technology(name: str):
    def asks(claim, rule, w, base, game, claimed):
        return [Ask(claim, ("technologies",), _judging(claim, "technologies", name, lambda held, want: want in held))] if claimed else []

    return asks


def _no_canal_at(place: str):
    """No canal at the strait: 2.7 lets a ship of each side between two sea zones of ``place``'s coast."""

    def asks(claim, rule, w, base, game, claimed):
        if not claimed:
            return []
        land = _territory(w.names, place)
        zones = sorted(z for z in game.neighbours.get(land, ()) if z in game.water) if land else []
        # A ship sailing along its coast: from a sea zone it touches to the next sea zone.
        pair = next(((a, b) for a in zones for b in sorted(game.neighbours.get(a, ())) if b in game.water), None)
        if pair is None:
            return []  # no sea along its coast: no ship to let through
        ships = [t for t in game.unit_types if game.attachments.get(("unitType", t, "unitAttachment", "isSea")) == "true"]
        return [Ask(claim, ("canal", *pair, p, ships[0]), lambda r: _error(r) or (None if r["passes"] else f"2.7 stops it: {r['why']}")) for p in game.players]

    return asks


def _capital_captured(claim, rule, w, base, game, claimed):
    """BattleTracker.takeOver: the captor of a capital takes its owner's PUs."""
    if not claimed:
        return []
    for (kind, territory, _name, option), value in sorted(game.attachments.items()):
        if option == "capital" and kind == "territory" and game.owners.get(territory) == value and game.pus.get(value):
            taker = next((p for p in game.players if not game.allied(p, value)), None)
            if taker is None:
                continue
            lost, had = game.pus[value], game.pus.get(taker, 0)
            return [
                Ask(claim, ("takeover", territory, taker), _judging(claim, "owner", taker), 4),
                Ask(claim, ("pus", taker), _judging(claim, "pus", had + lost), 4),
                Ask(claim, ("pus", value), _judging(claim, "pus", 0), 4),
            ]
    return []  # no capital whose owner has PUs to lose (Warlords' powers start with none): nothing to show


def _liberation(claim, rule, w, base, game, claimed):
    """BattleTracker.takeOver: a territory taken from an enemy returns to its original owner, the taker's ally."""
    if not claimed:
        return []
    init = next((name for name, delegate, _ in game.steps if delegate.endswith(INIT_DELEGATES)), None)
    for territory, owner in sorted(game.owners.items()):
        ally = next((p for p in game.players if p != owner and game.allied(p, owner)), None)
        enemy = next((p for p in game.players if not game.allied(p, owner)), None)
        is_capital = any(o == "capital" and t == territory for (_, t, _, o) in game.attachments)
        if ally and enemy and init and territory not in game.water and not is_capital:
            return [
                Ask(claim, ("step", init), _error, 2),
                Ask(claim, ("owner", territory, enemy), _error, 5),
                Ask(claim, ("takeover", territory, ally), _judging(claim, "owner", owner), 5),
            ]
    return []  # no power has an ally (Warlords' cliques): nothing is ever liberated


#: A rule already in the game (``built_in``, no change): its questions, claimed or kept.
def _bid_phase(claim, rule, w, base, game, claimed):
    """002 III's undeclared bid in TripleA's own bid phase: 2.7's sequence runs a BidPurchaseDelegate and a
    BidPlaceDelegate step of each power of the side, and 2.7 holds the power's bid property."""
    side = next(check.data["side"] for check in rule.holds_if if check.data["kind"] == "bid_phase")
    powers = w.names.board.catalog.alliance_members(w.names.side(side))
    pattern = w.names.profile.bid_property

    def judge(answer: dict[str, Any]) -> str | None:
        if (why := _error(answer)) is not None:
            return why
        run = {(s["player"], s["delegate_class"]) for s in answer["steps"]}
        lacking = [p for p in powers if not {(p, "BidPurchaseDelegate"), (p, "BidPlaceDelegate")} <= run]
        return f"2.7's sequence has no bid or bid placement step of {', '.join(lacking)}" if lacking else None

    if not claimed:
        return []
    return [Ask(claim, ("sequence",), judge)] + [
        Ask(claim, ("property", pattern.format(power=p)), lambda r: _error(r) or (None if r.get("value") is not None else "2.7 holds no such property"))
        for p in powers
    ]


#: The javaClass endings of a game's initialization step: 2.7's XmlGameElementMapper makes an InitializationDelegate of
#: twoIfBySea's old InitDelegate too (Neuschwabenland.xml); 2.7 itself then answers what the step did.
INIT_DELEGATES = ("InitializationDelegate", "twoIfBySea.delegate.InitDelegate")


BUILT_IN: dict[str, Callable[..., list[Ask]]] = {
    "iii-undeclared-bid": _bid_phase,
    "b-neutral-income": _neutral_income,
    "v-starting-income": _starting_income,
    "b-factory-output": _factory_output,
    "d5-china-income": _china_income,
    "h1-third-edition": _edition,
    "i-second-edition": _edition,
    "dev-super-subs": _technology("superSub"),
    "dev-long-range-aircraft": _technology("longRangeAir"),
    "straits-sweden": _no_canal_at("Sweden"),
    "capturing-a-capital": _capital_captured,
    "hr7-liberation": _liberation,
}


def _claimed(rule: Any, lines: list[str]) -> bool:
    return any(line == rule.title or line.startswith((f"{rule.title}:", f"{rule.title} In TripleA")) for line in lines)


def _kept(rule: Any, entries: list[str]) -> bool:
    return any(entry == rule.title or entry.startswith(f"{rule.title} (not in this game") for entry in entries)


def every_ask(w: Written) -> tuple[list[Ask], list[str], dict[str, int]]:
    """Every question the written game's notes pose 2.7, the claims no question could check (each a failure: the
    test fails closed), and counts: claims asked, kept rules asked."""
    base, game = Game.read(w.base), Game.read(w.path)
    enforced, kept = notes_lists(w.path)
    asks = written_data_asks(base, game) + price_asks(w.base, w.path)
    unasked, counts = [], {"claimed": 0, "kept": 0}
    for line in enforced:
        if not any(_claimed(rule, [line]) for rule in w.rules):
            unasked.append(f"{w.label}: the notes claim {line[:60]!r}, no rule of the set says it")
    for rule in w.rules:
        if _claimed(rule, enforced):
            found = claimed_asks(rule, w, base, game, partial=_kept(rule, kept))
            if found is None:
                unasked.append(f"{w.label}: {rule.id} is claimed; no question of 2.7 checks it")
                continue
            asks += found
            counts["claimed"] += 1
        elif _kept(rule, kept):
            found = kept_asks(rule, w, base, game)
            asks += found
            counts["kept"] += bool(found)
    return asks, unasked, counts


def position_of(w: Written, asks: list[Ask]) -> tuple[Position, list[tuple[int, tuple[str, ...]]]]:
    """One 2.7 position for the written game: its questions in phase order, each different command of a phase asked
    once (a question after a step ran or a territory changed hands is asked again)."""
    asked: list[tuple[int, tuple[str, ...]]] = []
    for ask in sorted(asks, key=lambda a: a.phase):
        if (ask.phase, ask.command) not in asked:
            asked.append((ask.phase, ask.command))
    return Position(w.path, tuple(command for _, command in asked), w.label), asked


def judged(asks: list[Ask], asked: list[tuple[int, tuple[str, ...]]], answers: list[dict[str, Any]]) -> list[str]:
    """Each ask's claim and why 2.7's answer does not bear it out."""
    answer_of = dict(zip(asked, answers))
    wrong = []
    for ask in asks:
        if (why := ask.judge(answer_of[(ask.phase, ask.command)])) is not None:
            wrong.append(f"{ask.claim}: {' '.join(ask.command)}: {why}")
    return wrong
