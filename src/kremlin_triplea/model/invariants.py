"""What must hold on the board after every change any command writes, whatever came before (issues 12 and 41).

Every writer goes through these: a Kremlin draft's picks, scenarios, declarations and bid
(:mod:`kremlin_triplea.draft.run`), and the game rules and house rules written after them
(:mod:`kremlin_triplea.gamerules.gate`), whether in the same draft or on a game written before.

A game can only start from a board where:

* no territory or sea zone holds units of two powers at war, and no neutral
  (unowned) territory holds a power's units (TripleA would fight or misread
  them at once; at sea as on land: 001 option 3 and 7 place ships "not in the
  same seazone with enemy units", and a scenario's retreat must not end there);
* no territory holds more than one factory, of whichever power's factory type
  (every option and scenario that places one says "factory", never "factories"),
  and a factory belongs to the territory's owner (TripleA hands a factory to
  whoever takes its territory: one of another power's is never where a game starts);
* a capital is held by its power's side (a capital in enemy hands starts the game
  with that power's income and purchases gone);
* every unit stands where its type may: ships only at sea, planes at sea only
  on carriers with room, land units at sea only on transports with room.

:func:`new_problems` reports, in plain words, what a pick or bid broke that
was not already so on the board before it (a base game may carry its own
oddities, which are not the draft's doing).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import Change


def touched_places(changes: Iterable[Change]) -> frozenset[str]:
    """The territories and sea zones ``changes`` act on: the only places where they can break an invariant."""
    return frozenset(place for change in changes if (place := getattr(change, "territory", None)) is not None)


def board_problems(board: Board, factory: str | Collection[str] | None, places: Iterable[str] | None = None) -> set[str]:
    """Every broken invariant on ``board`` (of ``places`` only, if given), one plain sentence each.

    ``factory``: the factory unit type, or every power's (a map giving each power its own, issue 28)."""
    catalog = board.catalog
    factories = {factory} if isinstance(factory, str) else set(factory or ())
    found: set[str] = set()
    nodes = board.nodes
    for place, data in nodes.items() if places is None else ((p, nodes[p]) for p in places):
        # One pass over the place's units (the legal enumeration asks this twice for every pick it lists).
        present: set[str] = set()
        ships: set[str] = set()
        factory_types: set[str] = set()
        factory_owners: set[str | None] = set()
        capacity = planes = room = cargo = factory_count = 0
        for (owner, unit), n in data["units"].items():
            if not n:
                continue
            kind = catalog.unit_type(unit)
            if owner is not None:
                present.add(owner)
            capacity += kind.carrier_capacity * n
            room += kind.transport_capacity * n
            if kind.domain == "air":
                planes += kind.carrier_cost * n
            elif kind.domain == "land":
                cargo += n * max(kind.transport_cost, 1)
            elif kind.domain == "sea":
                ships.add(unit)
            if unit in factories:
                factory_types.add(unit)
                factory_owners.add(owner)
                factory_count += n
        at_war = sorted({f"{a} and {b}" for a in present for b in present if a < b and not catalog.allied(a, b)})
        if at_war:
            found.add(f"{place} holds units of {at_war[0]}, who are at war")
        if data["water"]:
            if planes > capacity:
                found.add(f"{place} holds planes needing {planes} carrier spaces; its carriers have {capacity}")
            if cargo > room:
                found.add(f"{place} holds land units needing {cargo} transport room; its transports have {room}")
        else:
            if ships:
                found.add(f"{place} is land but holds ships ({', '.join(sorted(ships))})")
            if data["owner"] is None and present:
                found.add(f"{place} is neutral but holds units of {', '.join(sorted(present))}")
            if data["owner"] is not None:
                enemies = sorted(o for o in present if not catalog.allied(o, data["owner"]))
                if enemies:
                    found.add(f"{place} belongs to {data['owner']} but holds units of {', '.join(enemies)}, at war with them")
                others = sorted(o for o in factory_owners - {data["owner"]} if o is not None)
                if others:
                    found.add(f"{place} belongs to {data['owner']} but holds a factory of {', '.join(others)}")
            # An unowned capital is the map's own (AA50 keeps China's in neutral Mongolia): only an enemy's hand breaks it.
            if data["capital"] is not None and data["owner"] is not None and not catalog.allied(data["capital"], data["owner"]):
                found.add(f"{place} is the capital of {data['capital']} but belongs to {data['owner']}, at war with them")
        if factory_count > 1:
            types = sorted(factory_types)
            found.add(f"{place} holds more than one {types[0]}" if len(types) == 1 else f"{place} holds more than one factory ({', '.join(types)})")
    return found


def new_problems(before: set[str], board: Board, factory: str | Collection[str] | None, places: Iterable[str] | None = None) -> list[str]:
    """What ``board`` breaks that ``before`` (the problems of the board before the change, of the same places) did not."""
    return sorted(board_problems(board, factory, places) - before)
