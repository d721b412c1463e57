"""Every (game, rule) pair of the house-rule sets, asked of TripleA 1.9 and of TripleA 2.7 (issue 29).

Each set is written into every game it targets (the seeds' README: 003 on classic.xml, classic_3rd_edition.xml,
kremlin.xml; 004 on ww2v2.xml, lhtr.xml and AA50 1941 and 1942), six times, each power with its n-th
advantage, so every rule and advantage is written into every game it applies to. What each change of each
applied rule must make the engine answer is derived from the change itself (the rule's data, which quotes
its seed): a game option holds the rule's value, a unit type the rule's value, a power owns the technology
or pays the research price the rule names, the starting units, PUs and neutral armies are the unmodified
game's plus the rule's, a price is the rule's change of the unmodified game's, a technology the rule gives
air values to adds exactly them when granted.

A strait is asked of every power with a surface ship, a submarine and a plane at each of its sea zone pairs; an
objective, whether it is the power's own and pays the rule's value; a trigger, by running its step; a support
rule, by what its units roll at in a battle set up for it. The positions built from each rule's words
(tests/test_house_rules_positions.py) prove the rules in play besides; a kind read in neither way fails.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kremlin_triplea.engine.positions import Position, run_positions
from kremlin_triplea.engine.triplea27_positions import run_positions27
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.game_rules import GameRule, is_chosen
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set, neutral_table
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import profile_for_game
from support.engine import asked_once
from support.house import TARGETS
from support.paths import SHARED

pytestmark = [pytest.mark.engine, pytest.mark.slow]

#: The kinds proven in positions of their own (tests/test_house_rules_positions.py), not read off the game here.
IN_PLAY: set[str] = set()
#: A unit option the rules set -> the engine's answer for it (the "unit" command of both engines).
UNIT_OPTIONS = {
    "airAttack": "air_attack",
    "airDefense": "air_defense",
    "canIntercept": "can_intercept",
    "canEscort": "can_escort",
    "canAirBattle": "can_air_battle",
    "hitPoints": "hit_points",
    "movement": "movement",
}


def _installation27():
    found = find_installation(SHARED / "triplea-engine-2.7").found
    assert found is not None and found.major == 2, "the pinned TripleA 2.7 engine is missing from ../shared"
    return found


ENGINES: dict[str, Callable[[list[Position]], list[list[dict[str, Any]]]]] = {
    "1.9": run_positions,
    "2.7": lambda positions: run_positions27(_installation27(), positions),
}


class Game:
    """One target game written with the set (each power's n-th advantage): the expectations of its rules."""

    def __init__(self, set_id: str, path: Path, number: int, folder: Path) -> None:
        self.label = f"{set_id}:{path.name}:{number}"
        house = load_named_house_set(set_id)
        game = load(path)
        result = apply_house_rules(game, [HouseChoices(set_id, advantages=dict.fromkeys(house.powers, number), seed=number)])
        self.written = game.save(folder / f"{set_id}-{path.stem}-{number}.xml")
        self.written_board = game.board
        self.base = path
        self.board = load(path).board
        self.profile = profile_for_game(load(path))
        self.names = Names(self.board, self.profile, tuple(self.board.catalog.alliances()))
        self.switches = result.selections[0].switches
        self.rules: list[GameRule] = list(result.rules.game)
        self.first = self.board.catalog.turn_order()[0]

    def production(self, power: str) -> int:
        """How much more production the power holds in the written game than in the base game (003's allied neutral)."""

        def held(board) -> int:
            return sum(d["production"] or 0 for d in board.nodes.values() if d["owner"] == power and not d["water"])

        return held(self.written_board) - held(self.board)

    def changes(self) -> list[tuple[GameRule, dict[str, Any]]]:
        return [(r, c.data) for r in self.rules for c in r.changes if is_chosen(c.data.get("when"), c.data.get("unless"), self.switches)]


def _value(raw: object) -> object:
    if isinstance(raw, bool):
        return raw
    text = str(raw)
    return {"true": True, "false": False}.get(text.lower(), int(text) if text.lstrip("-").isdigit() else text)


class Expectations:
    """The positions one written game needs, and what each answer must be, from the rules' changes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.read: list[tuple[str, ...]] = []  # read-only questions, asked of the written and the base game
        self.checks: list[Callable[[dict, dict], None]] = []  # (written answers, base answers) by question
        # Positions that change the game (a technology granted, a step run): the written game's questions, the
        # base game's (None: the written game's first one, if it is a frontier, else its first player's PUs), the check.
        self.grants: list[tuple[list[tuple[str, ...]], list[tuple[str, ...]] | None, Callable[[list, list], None]]] = []
        self.pus: Counter[str] = Counter()
        self.placed: Counter[tuple[str, str, str]] = Counter()  # (territory, owner, unit) -> more than the base game
        for rule, change in game.changes():
            kind = change["kind"]
            where = f"{game.label} {rule.id} {kind}"
            if kind in IN_PLAY:
                continue
            getattr(self, f"_{kind}")(where, change)
        for power, delta in self.pus.items():
            self._ask(("pus", power), lambda got, base, p=power, d=delta: _same(got["pus"], base["pus"] + d, f"{game.label} PUs of {p}"))
        territories = sorted({t for t, _, _ in self.placed})
        for territory in territories:
            more = {f"{o}|{u}": n for (t, o, u), n in self.placed.items() if t == territory}
            self._ask(("units", territory), lambda got, base, m=more, t=territory: _units(got, base, m, f"{game.label} {t}"))

    def _ask(self, question: tuple[str, ...], check: Callable[[dict, dict], None]) -> None:
        self.read.append(question)
        self.checks.append(check)

    # -- one method per change kind, named after it -----------------------------------------------------------

    def _set_property(self, where: str, change: dict) -> None:
        self._ask(("property", change["name"]), lambda got, base: _same(_value(got["value"]), _value(change["value"]), where))

    def _attachment_option(self, where: str, change: dict) -> None:
        assert change["attachment"] == "unitAttachment" and change["option"] in UNIT_OPTIONS, f"{where}: no engine reading for {change}"
        unit, field = self.game.names.unit(change["attach_to"]), UNIT_OPTIONS[change["option"]]
        self._ask(("unit", self.game.first, unit), lambda got, base: _same(got[field], _value(change["value"]), where))

    def _grant_tech(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])
        self._ask(("techs", power), lambda got, base: _true(change["tech"] in got["techs"], where))

    def _tech_cost(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])
        self._ask(("techcost", power), lambda got, base: _same(got["cost"], change["cost"], where))

    def _set_pus(self, where: str, change: dict) -> None:
        self.pus[self.game.names.power(change["power"])] += change["change"]

    def _place_units(self, where: str, change: dict) -> None:
        power, at = self.game.names.power(change["power"]), self.game.names.place(change["at"])
        for unit, n in change["units"].items():
            self.placed[(at, power, self.game.names.unit(unit))] += n

    def _move_units(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])
        for unit, n in change["units"].items():
            self.placed[(self.game.names.place(change["from"]), power, self.game.names.unit(unit))] -= n
            self.placed[(self.game.names.place(change["to"]), power, self.game.names.unit(unit))] += n

    def _neutral_armies(self, where: str, change: dict) -> None:
        for neutral in neutral_table(self.game.rules[0].set_id):
            for unit, n in neutral["army"].items():
                unit_name = self.game.names.unit(unit)
                if self.game.board.catalog.unit_type(unit_name).domain == "land":
                    self.placed[(self.game.names.territory(neutral["name"]), "", unit_name)] += n

    def _give_neutral(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])
        neutral = next(n for n in neutral_table(self.game.rules[0].set_id) if n["name"].lower() == change["neutral"].lower())
        territory = self.game.names.territory(neutral["name"])
        for unit, n in neutral["army"].items():
            unit_name = self.game.names.unit(unit)
            if self.game.board.catalog.unit_type(unit_name).domain == "land":
                if change["army"] == "neutral's":
                    self.placed[(territory, "", unit_name)] -= n
                self.placed[(territory, power, unit_name)] += n
        if change.get("pay"):
            self.pus[power] -= neutral["ipc"]

    def _price_change(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])
        classes = {"sea": ("is_sea",), "air": ("is_air",), "sea and air": ("is_sea", "is_air")}[change["units"]]

        def price(old: int) -> int:
            return old + change["change"] if "change" in change else math.ceil(old * (100 + change["percent"]) / 100)

        units = sorted(self.game.board.catalog.unit_types)
        asked = [("frontier", power), *(("unit", power, u) for u in units)]

        def check(got: list, base: list) -> None:
            kinds = {u: a for u, a in zip(units, got[1:])}
            before = base[0]["prices"]
            wanted = {u: price(p) if any(kinds[u][c] for c in classes) else p for u, p in before.items()}
            _same(got[0]["prices"], wanted, where)

        self.grants.append((asked, None, check))

    def _technology_prices(self, where: str, change: dict) -> None:
        power = self.game.first

        def check(got: list, base: list) -> None:
            before, after = base[0]["prices"], got[2]["prices"]
            wanted = {u: math.ceil(before[u] * (100 + change["percent"]) / 100) for u in after}
            _same(after, wanted, where)

        self.grants.append(([("frontier", power), ("grant", power, change["tech"]), ("frontier", power)], None, check))

    def _tech_ability(self, where: str, change: dict) -> None:
        power = self.game.first
        for key, field in (("air_attack_bonus", "air_attack"), ("air_defense_bonus", "air_defense")):
            for unit, bonus in change.get(key, {}).items():
                name = self.game.names.unit(unit)
                asked = [("unit", power, name), ("grant", power, change["tech"]), ("unit", power, name)]
                self.grants.append((asked, None, lambda got, base, f=field, b=bonus, w=where: _same(got[2][f] - got[0][f], b, f"{w} {f}")))

    def _canal(self, where: str, change: dict) -> None:
        # 004 HR1-HR3 and 003's straits: surface ships pass only for a side holding the rule's land (all of it,
        # or any one with "any_of"), submarines too unless only surface ships are stopped, planes always.
        # Who holds the land is the written game's (a neutral Turkey: nobody).
        strait = self.game.profile.straits[change["strait"]]
        land = [self.game.names.territory(t) for t in change.get("land") or strait.land]
        owners = [self.game.written_board.node(t)["owner"] for t in land]
        catalog = self.game.board.catalog
        holds = all if change.get("control", "all_of") == "all_of" else any
        ship, sub, plane = (self.game.names.unit(u) for u in ("transport", "submarine", "fighter"))
        for a, b in strait.sea_zone_pairs:
            for power in catalog.turn_order():
                side = holds(owner is not None and catalog.allied(power, owner) for owner in owners)
                for unit, passes in ((ship, side), (sub, side or change.get("ships") == "surface"), (plane, True)):
                    self._ask(("canal", a, b, power, unit), lambda got, base, p=passes, w=f"{where} {a}->{b} {power} {unit}": _same(got["passes"], p, w))

    def _objective(self, where: str, change: dict) -> None:
        power = self.game.names.power(change["power"])

        def check(got: dict, base: dict) -> None:
            paying = {name: o for name, o in got.items() if o["value"] == change["value"] and o["conditions"]}
            amended = [o for o in paying.values() if len(o["conditions"]) == 1 + len(change.get("condition", []))]
            _true(len(amended) == 1, f"{where}: one objective of {change['value']} with the game's and the rule's conditions: {got}")
            _same(set(amended[0]["conditions"].values()), {power}, f"{where}: whose conditions")
            _same(got[change["amends"]]["value"], 0, f"{where}: the game's own {change['amends']} pays nothing more")

        self._ask(("objectives", power), check)

    def _trigger_pus(self, where: str, change: dict) -> None:
        # Paid once after the step in round 1 (the positions start in round 1): the power collects the game's
        # income for the territories it holds in the written game, plus the rule's amount.
        power, step = self.game.names.power(change["power"]), change["after_step"]
        production = self.game.production(power)

        def check(got: list, base: list) -> None:
            income = got[0]["pus_after"][power] - got[0]["pus_before"][power]
            plain = base[0]["pus_after"][power] - base[0]["pus_before"][power]
            _same(income, plain + production + change["amount"], f"{where}: {power}'s PUs at {step}")

        self.grants.append(([("step", step)], [("step", step)], check))

    def _trigger_units(self, where: str, change: dict) -> None:
        # Placed as the step starts the first time(s) the power's side controls the place: given to the power,
        # then the step run, the place holds the rule's units more.
        power, at, step = self.game.names.power(change["power"]), self.game.names.place(change["at"]), change["before_step"]
        units = {f"{power}|{self.game.names.unit(u)}": n for u, n in change["units"].items()}

        def check(got: list, base: list) -> None:
            before, after = got[0], got[3]
            for key, n in units.items():
                _same(after["units"].get(key, 0), before["units"].get(key, 0) + n, f"{where}: {key} in {at} after {step}")

        asked = [("units", at), ("owner", at, power), ("step", step), ("units", at)]
        self.grants.append((asked, [("units", at)], check))

    def _unit_support(self, where: str, change: dict) -> None:
        # Two of the power's supported units against an enemy transport in an empty sea zone (or, for land
        # units, an enemy infantry in an empty land territory): on the rule's side each rolls at the base
        # game's value plus the bonus; on the other side at the base game's.
        power, units = self.game.names.power(change["power"]), [self.game.names.unit(u) for u in change["units"]]
        catalog, board = self.game.board.catalog, self.game.written_board
        enemy = next(p for p in catalog.turn_order() if not catalog.allied(p, power))
        for unit in units:
            sea = catalog.unit_type(unit).domain == "sea"
            place = next(
                t
                for t, d in sorted(board.nodes.items())
                if d["water"] == sea and not any(board.units(t).values()) and not any(self.game.board.units(t).values())
            )
            target = self.game.names.unit("transport" if sea else "infantry")
            setup = [("add", place, power, unit, "2"), ("add", place, enemy, target, "1")]
            asked = [*setup, ("power", place, power, "attacking"), ("power", place, power, "defending")]
            on, off = (2, 3) if change["side"] == "offence" else (3, 2)

            def check(got: list, base: list, u=unit, on=on, off=off) -> None:
                _same(got[on]["power"][u], [v + change["bonus"] for v in base[on]["power"][u]], f"{where}: {u} supported")
                _same(got[off]["power"][u], base[off]["power"][u], f"{where}: {u} on the other side")

            self.grants.append((asked, asked, check))

    def _power_tech(self, where: str, change: dict) -> None:
        # Granted by a trigger at the game's first step (proven in 1.9's positions); here, what it gives once owned.
        power = self.game.names.power(change["power"])
        words = [w for w in change["name"].replace("-", " ").split() if w]
        tech = words[0].lower() + "".join(w[:1].upper() + w[1:] for w in words[1:])
        for key, field in (("movement_bonus", "movement"), ("attack_bonus", "attack"), ("defense_bonus", "defense")):
            for unit, bonus in change.get(key, {}).items():
                name = self.game.names.unit(unit)
                asked = [("unit", power, name), ("grant", power, tech), ("unit", power, name)]
                self.grants.append((asked, None, lambda got, base, f=field, b=bonus, w=where: _same(got[2][f] - got[0][f], b, f"{w} {f}")))
        for unit, ability in change.get("abilities", {}).items():
            name = self.game.names.unit(unit)
            assert ability == "canBlitz", f"{where}: no engine reading for {ability}"
            asked = [("unit", power, name), ("grant", power, tech), ("unit", power, name)]
            self.grants.append((asked, None, lambda got, base, w=where: _true(got[2]["blitz"] and not got[0]["blitz"], w)))


def _same(got: object, wanted: object, where: str) -> None:
    assert got == wanted, f"{where}: the engine answers {got!r}, the rule says {wanted!r}"


def _true(holds: bool, where: str) -> None:
    assert holds, where


def _units(got: dict, base: dict, more: dict[str, int], where: str) -> None:
    for key, n in more.items():
        _same(got["units"].get(key, 0), base["units"].get(key, 0) + n, f"{where} {key}")


CASES = [(set_id, path, n) for set_id, paths in sorted(TARGETS.items()) for path in paths for n in range(1, 7)]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Expectations]:
    folder = tmp_path_factory.mktemp("house-games")
    return {f"{s}:{p.name}:{n}": Expectations(Game(s, p, n, folder)) for s, p, n in CASES}


@pytest.fixture(scope="module", params=sorted(ENGINES))
def answers(request, written: dict[str, Expectations]) -> tuple[str, dict[str, list[str]]]:
    """Every written game's questions asked of one engine (one JVM): what failed, by game."""
    engine = request.param
    positions: list[Position] = []
    for label, expected in written.items():
        game = expected.game
        positions.append(Position(game.written, tuple(expected.read), label=f"{label} (written)"))
        positions.append(Position(game.base, tuple(expected.read), label=f"{label} (base)"))
        for asked, base_asked, _ in expected.grants:
            if base_asked is None:
                base_asked = [q for q in asked if q[0] == "frontier"][:1] or [("pus", game.first)]
            positions.append(Position(game.written, tuple(asked), label=f"{label} (written, granted)"))
            positions.append(Position(game.base, tuple(base_asked), label=f"{label} (base)"))
    # The unmodified games' questions repeat across the six games written from each: 502 positions, 283 different.
    got = iter(asked_once(ENGINES[engine], positions))
    failed: dict[str, list[str]] = {}
    for label, expected in written.items():
        mine, base = next(got), next(got)
        problems = []
        for check, a, b in zip(expected.checks, mine, base):
            problems += _run(check, a, b)
        for _, _, check in expected.grants:
            problems += _run(check, next(got), next(got))
        failed[label] = problems
    return engine, failed


def _run(check: Callable, got: Any, base: Any) -> list[str]:
    errors = [
        a["error"] for a in (got if isinstance(got, list) else [got]) + (base if isinstance(base, list) else [base]) if isinstance(a, dict) and "error" in a
    ]
    if errors:
        return errors
    try:
        check(got, base)
    except AssertionError as e:
        return [str(e)]
    return []


@pytest.mark.parametrize(("set_id", "game", "number"), CASES, ids=[f"{s}:{p.name}:{n}" for s, p, n in CASES])
def test_every_rule_written_into_the_game_is_what_the_engine_reads(answers, set_id: str, game: Path, number: int) -> None:
    engine, failed = answers
    problems = failed[f"{set_id}:{game.name}:{number}"]
    assert not problems, f"TripleA {engine}:\n" + "\n".join(problems)


@pytest.mark.parametrize("set_id", sorted(TARGETS))
def test_every_kind_a_set_writes_is_read_here_or_played_in_positions(set_id: str) -> None:
    house = load_named_house_set(set_id)
    kinds = {c.data["kind"] for r in [*house.rules.rules, *(a.rule for a in house.advantages)] for c in r.changes}
    unread = sorted(k for k in kinds - IN_PLAY if not hasattr(Expectations, f"_{k}"))
    assert not unread, f"{set_id} writes {unread}: give them an engine reading here or a position"
