"""The room's pages as players read them (issue 31): what a refused form keeps, the forms' defaults, the rule
beside its form, the bid and the summary as tables and lists, whose move it is, and what an undo takes back.

The browser tests (test_web_browser.py) check the same pages for their layout; these read the HTML the server sends.
"""

from __future__ import annotations

import re
import warnings
from datetime import date
from pathlib import Path

import lxml.html
import pytest

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.web.app import create_app
from kremlin_triplea.web.pages import message_page
from kremlin_triplea.web.room import SPECTATOR, Room, new_draft
from support.paths import MAPS_DIR
from support.web import bid_form, example, header, pick_form

RAW_JSON = re.compile(r"[{\[]\s*[\"']\w+[\"']\s*[:,]")  # {"axis": 11, ...}: what json.dumps writes


def no_picture(room: Room) -> str:
    return "<svg></svg>"


def room_at(tmp_path: Path, *, picks: bool = False) -> Room:
    """A new room, or one whose ten picks (the example's) are made: the bid is next."""
    data = example()
    made = header(data)
    if picks:
        made["pick"] = data["pick"]
    new_draft(tmp_path / "draft.toml", made, MAPS_DIR)
    return Room(tmp_path / "draft.toml", MAPS_DIR)


@pytest.fixture
def room(tmp_path: Path) -> Room:
    return room_at(tmp_path)


@pytest.fixture
def client(room: Room) -> TestClient:
    return TestClient(create_app(room, svg_for=no_picture))


def post(client: TestClient, room: Room, role: str, what: str, form: dict[str, str]):
    return client.post(f"/room/{room.keys[role]}/{what}", data=form, follow_redirects=False)


def get(client: TestClient, room: Room, role: str, query: str = "") -> str:
    response = client.get(f"/room/{room.keys[role]}{query}")
    assert response.status_code == 200
    return response.text


def fields(html: str, form_id: str) -> dict[str, str]:
    """What the form would send as the page drew it: each input's value and each select's chosen option."""
    form = lxml.html.fromstring(html).get_element_by_id(form_id)
    return {name: value for name, value in form.form_values()}


def marked(html: str) -> set[str]:
    """The fields the page marks as at fault."""
    return {e.get("name") for e in lxml.html.fromstring(html).xpath("//*[@aria-invalid='true']")}


def visible_text(html: str) -> str:
    tree = lxml.html.fromstring(html)
    for hidden in tree.xpath("//script|//style"):
        hidden.drop_tree()
    return tree.text_content()


def test_every_page_has_a_viewport_so_a_phone_lays_it_out_at_its_own_width(room: Room, client: TestClient) -> None:
    for html in (get(client, room, "Axis"), get(client, room, SPECTATOR), message_page("403 Forbidden", "no")):
        assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in html


def test_a_refused_neutral_pick_keeps_both_neutrals_and_their_powers_and_marks_the_neutrals(room: Room, client: TestClient) -> None:
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], room.seq)).status_code == 303
    # 000 A option 3: two neutrals "whose IPC values add up to no more than four"; Sweden 3 + Mongolia 2 is five.
    sent = {"seq": str(room.seq), "option": "3", "neutral.0": "Sweden", "by.0": "Russians", "neutral.1": "Mongolia", "by.1": "Chinese"}
    response = post(client, room, "Allies", "pick", sent)
    assert response.status_code == 422
    kept = fields(response.text, "pick-form")
    assert {k: kept[k] for k in ("option", "neutral.0", "by.0", "neutral.1", "by.1")} == {
        k: sent[k] for k in ("option", "neutral.0", "by.0", "neutral.1", "by.1")
    }
    assert marked(response.text) == {"neutral.0", "neutral.1"}
    assert "navy to" not in visible_text(response.text).replace("its navy to", "")  # no label without its field


def test_the_place_a_refusal_names_is_the_field_marked_and_the_other_row_is_kept(room: Room, client: TestClient) -> None:
    # 000 A option 2 places as option 1 does: "Infantry must be placed on its own territory"; Karelia is the Russians'.
    sent = {"seq": str(room.seq), "option": "2", "power.0": "Germans", "unit.0": "artillery", "at.0": "Germany"}
    sent |= {"power.1": "Germans", "unit.1": "armour", "at.1": "Karelia S.S.R."}
    response = post(client, room, "Axis", "pick", sent)
    assert response.status_code == 422 and "own territory" in response.text
    assert marked(response.text) == {"at.1"}
    kept = fields(response.text, "pick-form")
    assert {k: kept[k] for k in sent if k != "seq"} == {k: v for k, v in sent.items() if k != "seq"}


def test_a_malformed_bid_field_is_the_one_marked(tmp_path: Path) -> None:
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    sent = {"seq": str(room.seq), "amount": "11", "power.0": "Germans", "unit.0": "artillery", "at.0": "Germany", "count.0": "lots"}
    response = post(client, room, "Axis", "bid", sent)
    assert response.status_code == 400
    assert marked(response.text) == {"count.0"}
    assert fields(response.text, "bid-form")["at.0"] == "Germany"


@pytest.mark.parametrize(
    "sent, missing",
    [
        ({"option": "2", "unit.0": "artillery", "at.0": "Germany"}, "power.0"),  # a placement row with a place names its power
        ({"option": "3", "neutral.0": "Spain", "by.0": "Germans", "neutral.1": "Switzerland"}, "by.1"),  # each neutral, who takes it
        ({"option": "10", "territory": "Archangel"}, "by"),  # a takeover, who takes over
    ],
)
def test_a_form_without_an_answer_the_pick_needs_is_refused_naming_the_field(room: Room, client: TestClient, sent: dict, missing: str) -> None:
    response = post(client, room, "Axis", "pick", {"seq": str(room.seq), **sent})
    assert response.status_code == 400 and f"{missing}: missing" in response.text
    assert room.session.picks == []


def test_a_placement_of_two_different_units_defaults_to_them_and_is_accepted_as_drawn(room: Room, client: TestClient) -> None:
    # 000 A option 2, "Artillery/Tank Placement": one artillery and one tank; the rows must not both default to one unit.
    drawn = fields(get(client, room, "Axis", "?option=2"), "pick-form")
    assert (drawn["unit.0"], drawn["unit.1"]) == ("artillery", "armour")  # AA50 calls the tank armour
    sent = {**drawn, "at.0": "Germany", "at.1": "Germany"}
    assert post(client, room, "Axis", "pick", sent).status_code == 303
    assert room.session.to_toml()["pick"][-1]["place"] == [
        {"power": "Germans", "unit": "artillery", "count": 1, "at": "Germany"},
        {"power": "Germans", "unit": "armour", "count": 1, "at": "Germany"},
    ]


def test_the_options_rule_text_is_beside_its_form(room: Room, client: TestClient) -> None:
    html = get(client, room, "Axis", "?option=3")
    rule = lxml.html.fromstring(html).get_element_by_id("rule-text").text_content()
    assert "whose IPC values add up to no more than four" in rule and "000_bc04a4edf7f7d2ab.txt, option 3" in rule


def test_a_refused_bid_keeps_its_rows_and_the_budget_counts_them(tmp_path: Path) -> None:
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    page = get(client, room, "Axis")
    assert "0 of 0 PUs spent." in visible_text(page)
    # A bid of 3 cannot buy 1 artillery (4 PUs in AA50) and 2 infantry (3 each): 10 PUs.
    sent = bid_form({"axis": 3, "place": example()["bid"]["place"]}, room.seq)
    response = post(client, room, "Axis", "bid", sent)
    assert response.status_code == 422
    kept = fields(response.text, "bid-form")
    for name, value in sent.items():
        if name != "seq":
            assert kept[name] == value, name
    assert "10 of 3 PUs spent." in visible_text(response.text)


def test_the_proposed_and_the_agreed_bid_are_tables_not_json(tmp_path: Path) -> None:
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    for role in ("Allies", "Axis", SPECTATOR):
        html = get(client, room, role)
        assert not RAW_JSON.search(visible_text(html)), role
    proposed = lxml.html.fromstring(get(client, room, "Allies")).get_element_by_id("bid-proposed")
    rows = [[cell.text_content() for cell in row.xpath("td")] for row in proposed.xpath(".//tr[td]")]
    assert rows == [["Germans", "artillery", "1", "Morocco Algeria"], ["Italians", "infantry", "2", "Italy"]]
    assert "the Axis +11 PUs" in proposed.text_content()
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    entered = lxml.html.fromstring(get(client, room, SPECTATOR)).get_element_by_id("bid-entered")
    assert [[c.text_content() for c in r.xpath("td")] for r in entered.xpath(".//tr[td]")] == rows


def test_whose_move_it_is_shows_on_both_sides_and_an_undo_names_the_pick_it_takes_back(room: Room, client: TestClient) -> None:
    assert "Your move." in visible_text(get(client, room, "Axis"))
    assert "Waiting for the Axis." in visible_text(get(client, room, "Allies"))
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], room.seq)).status_code == 303
    get(client, room, "Allies")  # the Allies have seen the pick: undoing it now needs their agreement
    assert post(client, room, "Axis", "undo", {"seq": str(room.seq)}).status_code == 303
    asked = visible_text(get(client, room, "Allies"))
    assert "The Axis ask to take back pick 1 (Axis, option 10 Takeover of enemy held territory)" in asked
    assert "pick 1 (Axis, option 10" in visible_text(get(client, room, "Axis"))


def test_the_finished_drafts_summary_is_headed_lists_with_the_download_first(tmp_path: Path) -> None:
    data = example()
    new_draft(tmp_path / "draft.toml", {**header(data), "pick": data["pick"], "bid": data["bid"]}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    html = get(client, room, "Axis")
    assert "<pre" not in html
    summary = lxml.html.fromstring(html).get_element_by_id("summary")
    headings = [h.text_content() for h in summary.xpath("h4")]
    assert headings[0] == "pick 1 (Axis, option 10 Takeover of enemy held territory)" and "bid" in headings
    items = [li.text_content() for li in summary.xpath(".//li")]
    assert any(item.startswith("Germans take over Archangel") for item in items)
    assert html.index("id='download'") < html.index("id='summary'")
    assert "The draft is complete." in visible_text(html)


def test_the_install_form_offers_the_name_apply_gives_and_no_page_shows_the_hosts_paths(tmp_path: Path) -> None:
    data = example()
    new_draft(tmp_path / "draft.toml", {**header(data), "pick": data["pick"], "bid": data["bid"]}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    html = get(client, room, "Allies")
    # Issue 14: "<base game> Kremlin - <player> v <player> <date>"; this draft names no players, so its sides.
    assert fields(html, "install")["name"] == f"World War II v3 1941 Kremlin - Axis v Allies {date.today().isoformat()}"
    for role in ("Axis", "Allies", SPECTATOR):
        shown = get(client, room, role)
        assert str(tmp_path) not in shown and str(MAPS_DIR) not in shown and "--force" not in shown and "--name" not in shown


def test_while_declarations_are_open_the_bar_does_not_call_the_draft_complete_and_says_who_declares(room: Room, client: TestClient) -> None:
    # The room's forms carry no retreats or navies: those are declared after the bid (000 A "Order of action" 1).
    for entry in example()["pick"]:
        assert post(client, room, entry["side"], "pick", pick_form(entry, room.seq)).status_code == 303
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    bars = {role: lxml.html.fromstring(get(client, room, role)).get_element_by_id("bar").text_content() for role in ("Axis", "Allies", SPECTATOR)}
    for role, bar in bars.items():
        assert "complete" not in bar.lower(), role
        assert "The Allies declare where 2 Russians infantry from Archangel go" in bar, role
    assert "Waiting for the Allies." in bars["Axis"] and "Waiting for the Allies." in bars[SPECTATOR]
    assert "Your move." in bars["Allies"]


def answer_shown(client: TestClient, room: Room, role: str) -> str | None:
    """The notice of the other side's answer on ``role``'s page as a reload (or another device) draws it."""
    found = lxml.html.fromstring(get(client, room, role)).xpath("//*[@id='answer']")
    return found[0].text_content() if found else None


def test_the_other_sides_answer_to_an_undo_is_on_every_page_of_the_asker_until_the_next_action_and_survives_a_restart(room: Room, client: TestClient) -> None:
    """Issue 31: "Notices when the other side refuses or agrees": a page opened after the answer says it too."""
    picks = example()["pick"]
    assert post(client, room, "Axis", "pick", pick_form(picks[0], room.seq)).status_code == 303
    get(client, room, "Allies")  # seen: the undo needs the Allies' word
    assert post(client, room, "Axis", "undo", {"seq": str(room.seq)}).status_code == 303
    assert post(client, room, "Allies", "undo/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    refused = answer_shown(client, room, "Axis")
    assert refused is not None and refused.startswith("The other side refused to undo pick 1 (Axis, option 10 Takeover of enemy held territory)")
    assert answer_shown(client, room, "Axis") == refused  # not once only: every page of the Axis, a reload's too
    assert answer_shown(client, room, "Allies") is None and answer_shown(client, room, SPECTATOR) is None  # it concerns the Axis
    restarted = Room(room.path, MAPS_DIR)  # a new server on the same draft: the room file kept the answer
    again = TestClient(create_app(restarted, svg_for=no_picture))
    assert answer_shown(again, restarted, "Axis") == refused
    # The next action supersedes it, on the running server and in the room file.
    assert post(again, restarted, "Allies", "pick", pick_form(picks[1], restarted.seq)).status_code == 303
    assert answer_shown(again, restarted, "Axis") is None
    assert Room(room.path, MAPS_DIR).answer is None
    # Agreed: the pick named as it was before it was taken back.
    get(again, restarted, "Axis")
    assert post(again, restarted, "Allies", "undo", {"seq": str(restarted.seq)}).status_code == 303
    assert post(again, restarted, "Axis", "undo/answer", {"seq": str(restarted.seq), "agree": "yes"}).status_code == 303
    assert len(restarted.session.picks) == 1
    agreed = answer_shown(again, restarted, "Allies")
    assert agreed is not None and agreed.startswith("The other side agreed: pick 2 (Allies, option ") and agreed.endswith(" is undone.")
    assert answer_shown(again, restarted, "Axis") is None


def test_the_other_sides_answer_to_a_bid_is_on_the_proposers_pages_until_the_next_action(tmp_path: Path) -> None:
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    bid = bid_form(example()["bid"], room.seq)
    assert post(client, room, "Axis", "bid", bid).status_code == 303
    assert answer_shown(client, room, "Axis") is None  # nothing answered yet
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    assert answer_shown(client, room, "Axis") == "The other side refused your bid: propose another."
    assert (
        answer_shown(TestClient(create_app(Room(room.path, MAPS_DIR), svg_for=no_picture)), room, "Axis") == "The other side refused your bid: propose another."
    )
    assert post(client, room, "Axis", "bid", {**bid, "seq": str(room.seq)}).status_code == 303  # the next action
    assert answer_shown(client, room, "Axis") is None
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    assert answer_shown(client, room, "Axis") == "The other side agreed to your bid."
    assert answer_shown(client, room, "Allies") is None
