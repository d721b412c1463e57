"""No page of the room shows a raw id, ``None``, a snake_case key, a file hash or an internal step number (issue 43:
"set capital of Mongolia to None", ``colonial_garrison_at``, ``aaGun``, file hashes as rule sources).

Every page of a scripted draft of each Kremlin ruleset is read as a player reads it (the text, the fields' spoken
names, the choices' labels): each side's and a spectator's, after each pick, each option's form while picks are
open, a proposed bid, an undo asked and answered, and the finished draft.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import lxml.html
import pytest

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.web.app import create_app
from kremlin_triplea.web.board_view import places_info
from kremlin_triplea.web.room import SPECTATOR, Room, new_draft
from kremlin_triplea.web.words import Words
from support.paths import MAPS_DIR
from support.web import REPO, bid_form, header, pick_form

# One scripted draft per Kremlin ruleset (kremlin-aa50, kremlin-classic, kremlin-daak): the examples.
DRAFTS = (
    "kremlin-aa50-1941.toml",
    pytest.param("kremlin-classic-3rd-edition.toml", marks=pytest.mark.slow),
    pytest.param("kremlin-daak-classic.toml", marks=pytest.mark.slow),
)

#: Every id of an option, a rule or an advantage in the rule set files that is not a word (it has a hyphen).
RULE_IDS = {found for path in (REPO / "rulesets").glob("*.toml") for found in re.findall(r'^id = "([^"]*-[^"]*)"', path.read_text(encoding="utf-8"), re.M)}

RAW = {
    "None": re.compile(r"\bNone\b"),
    "a snake_case key": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "a camelCase id": re.compile(r"\b[a-z]+[A-Z][A-Za-z]*\b"),
    "a file hash": re.compile(r"\b[0-9a-f]{12,}\b|_[0-9a-f]{8,}\.txt"),
    "a step number": re.compile(r"\bstep \d+|\bseq\b"),
    # The rule sets' ids (kremlin-aa50, house-revised): a page names a set by its title.
    "a rule set's id": re.compile(r"\b(" + "|".join(sorted(path.stem for path in (REPO / "rulesets").glob("*.toml"))) + r")\b"),
    "a draft file's key": re.compile(r"\b\w+\[\d+\]|\bpick \d+\.\w+"),
    # The ids the rule set files give their options, rules and advantages ("artillery-tank", "d3-straits"): named by title.
    "a rule's id": re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, RULE_IDS), key=len, reverse=True)) + r")(?![\w-])"),
    "a repr": re.compile(r"\b[A-Z]\w*\(\w+=|<[\w.]+ object at 0x|\{'\w+': |\[\('"),
}


def shown(html: str) -> str:
    """What a player reads and hears: the text, and the spoken names and labels of fields and choices."""
    tree = lxml.html.fromstring(html)
    for hidden in tree.xpath("//script|//style|//input[@type='hidden']"):
        hidden.drop_tree()
    heard = [e.get("aria-label") for e in tree.xpath("//*[@aria-label]")] + [e.get("title") for e in tree.xpath("//*[@title]")]
    return "\n".join([*tree.itertext(), *heard])  # each text apart: "...draft.toml" and "Your pick" are not one word


def raw_in(text: str) -> list[str]:
    return [f"{what}: {m.group(0)!r} in {text[max(0, m.start() - 60) : m.end() + 40]!r}" for what, found in RAW.items() for m in found.finditer(text)]


def pages(room: Room, client: TestClient):
    """Every page the room draws now: each role's, and each open option's form for the side to pick."""
    for role in ("Axis", "Allies", SPECTATOR):
        yield role, client.get(f"/room/{room.keys[role]}").text
    turn = room.turn()
    if turn is not None and room.undo_request is None:
        for choice in room.next_pick().options:
            if choice.available:
                yield f"{turn} option {choice.option.number}", client.get(f"/room/{room.keys[turn]}?option={choice.option.number}").text


def scripted(draft: str, tmp_path: Path):
    """The draft's rooms, step by step: (what, room) after each pick, an undo asked and answered, the bid proposed, done."""
    data = read_toml(REPO / "examples" / draft)
    made = header(data)
    for count in range(len(data["pick"]) + 1):
        folder = tmp_path / f"{count}"
        folder.mkdir()
        new_draft(folder / "draft.toml", {**made, "pick": data["pick"][:count]}, MAPS_DIR)
        yield f"after {count} picks", Room(folder / "draft.toml", MAPS_DIR)
    folder = tmp_path / "complete"
    folder.mkdir()
    new_draft(folder / "draft.toml", {**made, "pick": data["pick"], **({"bid": data["bid"]} if "bid" in data else {})}, MAPS_DIR)
    yield "complete", Room(folder / "draft.toml", MAPS_DIR)


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("draft", DRAFTS)
def test_no_page_of_a_scripted_draft_shows_a_raw_id_none_snake_case_or_a_file_hash(draft: str, tmp_path: Path) -> None:
    found: list[str] = []
    for when, room in scripted(draft, tmp_path):
        client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
        for page_of, html in pages(room, client):
            found += [f"{draft} {when}, {page_of}: {raw}" for raw in raw_in(shown(html))]
        # The tap on a place: what its panel says.
        for place, info in places_info(room).items():
            found += [f"{draft} {when}, the panel of {place}: {raw}" for raw in raw_in("\n".join(info["lines"]))]
        if when == "after 1 picks":  # the other side asks to undo it, the room waits, the undo is refused
            seen = client.get(f"/room/{room.keys['Allies']}")
            assert seen.status_code == 200
            client.post(f"/room/{room.keys['Axis']}/undo", data={"seq": str(room.seq)}, follow_redirects=False)
            found += [f"{draft} undo asked, {p}: {raw}" for p, html in pages(room, client) for raw in raw_in(shown(html))]
            client.post(f"/room/{room.keys['Allies']}/undo/answer", data={"seq": str(room.seq), "agree": "no"}, follow_redirects=False)
            found += [f"{draft} undo refused, {p}: {raw}" for p, html in pages(room, client) for raw in raw_in(shown(html))]
            # A pick the draft refuses, naming what the game has not: the draft's own second pick with its first name mistyped.
            wrong = pick_form(read_toml(REPO / "examples" / draft)["pick"][1], room.seq)
            wrong[next(k for k in wrong if k not in ("seq", "option"))] = "Atlantis"
            refused = client.post(f"/room/{room.keys[room.turn()]}/pick", data=wrong, follow_redirects=False)
            assert refused.status_code == 422 and "Atlantis" in shown(refused.text), refused.status_code
            found += [f"{draft} a refused pick: {raw}" for raw in raw_in(shown(refused.text))]
            # An option the ruleset has not (a hand-made request): refused in the players' words, not the ruleset file's ids.
            unknown = client.post(f"/room/{room.keys[room.turn()]}/pick", data={"seq": str(room.seq), "option": "99"}, follow_redirects=False)
            assert unknown.status_code == 400, unknown.status_code
            found += [f"{draft} an unknown option: {raw}" for raw in raw_in(shown(unknown.text))]
            # A form sent from a page drawn before the room moved on: refused, in words.
            stale = client.post(f"/room/{room.keys['Allies']}/undo", data={"seq": str(room.seq - 1)}, follow_redirects=False)
            assert stale.status_code == 409
            found += [f"{draft} a stale form: {raw}" for raw in raw_in(shown(stale.text))]
        if room.picks_done and not room.complete:  # the example's bid proposed with a message, then refused with one
            bid = read_toml(REPO / "examples" / draft)["bid"]
            proposer = room.session.ruleset.bid.placing_side
            other = next(side for side in room.sides if side != proposer)
            sent = client.post(f"/room/{room.keys[proposer]}/bid", data={**bid_form(bid, room.seq), "message": "as agreed"}, follow_redirects=False)
            assert sent.status_code == 303 and room.bid_proposal is not None, sent.text[-300:]
            found += [f"{draft} bid proposed, {p}: {raw}" for p, html in pages(room, client) for raw in raw_in(shown(html))]
            answer = {"seq": str(room.seq), "agree": "no", "message": "too much"}
            assert client.post(f"/room/{room.keys[other]}/bid/answer", data=answer, follow_redirects=False).status_code == 303
            found += [f"{draft} bid refused, {p}: {raw}" for p, html in pages(room, client) for raw in raw_in(shown(html))]
    assert not found, "\n".join(dict.fromkeys(found))


def unnamed_fields(html: str) -> list[str]:
    """The fields and buttons a screen reader could not name: no label around or for them, no aria-label, no text."""
    tree = lxml.html.fromstring(html)
    labelled = {label.get("for") for label in tree.xpath("//label[@for]")}
    out = []
    for field in tree.xpath("//input[not(@type='hidden')]|//select|//textarea|//button"):
        if field.get("aria-label") or field.get("id") in labelled or field.xpath("ancestor::label"):
            continue
        if field.tag == "button" and field.text_content().strip():
            continue
        out.append(lxml.html.tostring(field, encoding="unicode")[:120])
    return out


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("draft", DRAFTS)
def test_every_field_and_button_of_every_page_has_a_name_a_screen_reader_says(draft: str, tmp_path: Path) -> None:
    """Issue 43: "placement and bid selects have no accessible names"."""
    found: list[str] = []
    for when, room in scripted(draft, tmp_path):
        client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
        for page_of, html in pages(room, client):
            found += [f"{draft} {when}, {page_of}: {field}" for field in unnamed_fields(html)]
    assert not found, "\n".join(dict.fromkeys(found))


def room_at_house_rules(tmp_path: Path) -> Room:
    """The AA50 example with 004's house rules (house-revised) left to choose: its picks made, its bid agreed, its
    groups declared; each side now chooses its powers' advantages (004's straits off: 000 D(3) closes them)."""
    from support.web import bid_form, example, pick_form

    data = example()
    straits = {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}
    new_draft(tmp_path / "draft.toml", {**header(data), "house_rules": ["house-revised"], "house_rule_choices": {"house-revised": straits}}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    for entry in data["pick"]:
        room.pick(entry["side"], pick_form(entry, room.seq))
    room.bid("Axis", bid_form(data["bid"], room.seq))
    room.answer_bid("Allies", {"seq": str(room.seq), "agree": "yes"})
    while room.declaration() is not None:
        displaced, found, _ = room.declaration()
        room.declare(displaced.side, {"seq": str(room.seq), "to": found.matches[0]})
    assert set(room.house_pending()) == {"Axis", "Allies"}
    return room


def test_the_house_rule_pages_show_no_raw_id_and_name_every_field(tmp_path: Path) -> None:
    """Issue 43: ``colonial_garrison_at`` reached the page (004's UK Colonial Garrison)."""
    room = room_at_house_rules(tmp_path)
    client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
    for role in ("Axis", "Allies", SPECTATOR):
        html = client.get(f"/room/{room.keys[role]}").text
        assert not raw_in(shown(html)), raw_in(shown(html))
        assert not unnamed_fields(html)
    assert "Colonial Garrison: colonial garrison at" in shown(client.get(f"/room/{room.keys['Allies']}").text)


def test_the_finished_page_of_a_draft_with_house_rules_shows_no_raw_id(tmp_path: Path) -> None:
    """Issue 43: the finished page's summary was apply's, for the host (``rulesAttachment of Chinese:
    movementRestrictionTerritories``, a step named ``americanBidPlace``, ``house-revised: hr1_black_sea off``): each side
    takes an advantage for each of its powers (a place where one asks for it), and every page of the finished draft is read."""
    from kremlin_triplea.gamerules.house import advantage_places

    room = room_at_house_rules(tmp_path)
    session = room.session
    for role in room.house_pending():
        form = {"seq": str(room.seq)}
        for set_id, offered in room.house_choices_open()[role].items():
            for advantage in {a.power: a for a in reversed(offered)}.values():  # each power's first advantage
                form[f"advantage.{set_id}.{advantage.power}"] = advantage.id
                for name in advantage.choices:
                    form[f"value.{set_id}.{advantage.power}.{name}"] = advantage_places(advantage, name, session.game.board, session.names)[0]
        room.choose_house(role, form)
    assert room.complete
    client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
    found = [f"{page_of}: {raw}" for page_of, html in pages(room, client) for raw in raw_in(shown(html))]
    assert not found, "\n".join(found)
    summary = shown(client.get(f"/room/{room.keys['Axis']}").text)
    assert "Rules TripleA keeps" in summary and "Where China may go" in summary  # the rules, by their titles


def test_the_words_pass_names_a_rule_set_by_its_title_and_leaves_a_games_name_in_triplea_as_it_is() -> None:
    """The ruleset's id in a message the draft writes ("unknown scenario ... in ruleset kremlin-classic") reads as its
    title; the name a game was installed under keeps the id it holds: the players look for it in TripleA's list."""
    installed = "World War II v3 1941 - Kremlin (kremlin-aa50)"
    words = Words(["aaGun"], {"kremlin-aa50": "Kremlin for AA50 (Axis & Allies)"}, [installed])
    html = f"<p>unknown scenario 'x' in ruleset kremlin-aa50</p><p>installed as <b>{installed}</b>; 1 aaGun, kremlin-aa50x</p>"
    assert words.page(html) == (
        f"<p>unknown scenario 'x' in ruleset Kremlin for AA50 (Axis &amp; Allies)</p><p>installed as <b>{installed}</b>; 1 AA gun, kremlin-aa50x</p>"
    )
