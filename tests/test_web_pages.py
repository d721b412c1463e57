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
from kremlin_triplea.web.presence import AWAY_SECONDS, Presence
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
    assert "whose IPC values add up to no more than four" in rule and "rule text 000, option 3" in rule  # the seed 000_bc04a4edf7f7d2ab.txt, by its number


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
    assert headings[0] == "pick 1 (Axis, option 10 Takeover of enemy held territory)" and "The bid" in headings
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


def note_shown(html: str) -> str | None:
    found = lxml.html.fromstring(html).xpath("//*[@id='note']")
    return found[0].text_content() if found else None


def test_an_action_is_confirmed_on_the_page_its_redirect_names_not_on_the_first_page_drawn_for_that_side(room: Room, client: TestClient) -> None:
    """Issue 43: the sending page's own live refresh, or another tab, took the confirmation (6 of 18 actions)."""
    sent = post(client, room, "Axis", "pick", {**pick_form(example()["pick"][0], room.seq), "action_key": "tab-one-0001"})
    assert sent.status_code == 303
    # Before the browser follows the redirect, the same side's other tab (or this page's live refresh) draws the room.
    assert note_shown(get(client, room, "Axis")) is None
    confirmed = client.get(sent.headers["location"])
    assert confirmed.status_code == 200
    said = note_shown(confirmed.text)
    assert said is not None and "Archangel" in said  # pick 1 of the example: the Germans take over Archangel
    assert note_shown(client.get(sent.headers["location"]).text) == said  # a reload of it says it again
    # Another side's key names nothing on this side's page.
    assert note_shown(client.get(f"/room/{room.keys['Allies']}?done=tab-one-0001").text) is None


def test_an_action_sent_again_with_its_key_is_applied_once_and_confirmed_again(room: Room, client: TestClient) -> None:
    """Issue 43: a retry after an outage never loses an answer nor makes it twice (an idempotency key per action)."""
    picks = example()["pick"]
    form = {**pick_form(picks[0], room.seq), "action_key": "retry-key-0001"}
    first = post(client, room, "Axis", "pick", form)
    again = post(client, room, "Axis", "pick", form)  # the answer to the first was lost: the page sends it again
    assert first.status_code == again.status_code == 303
    assert again.headers["location"] == first.headers["location"]
    assert len(room.session.picks) == 1
    # The same answer under a new key is a new action: stale now, refused, nothing changed.
    assert post(client, room, "Axis", "pick", {**form, "action_key": "retry-key-0002"}).status_code == 409
    # Without a key (a page without its script), a form is confirmed on the side's next page as before.
    undo = post(client, room, "Axis", "undo", {"seq": str(room.seq)})
    assert undo.headers["location"] == f"/room/{room.keys['Axis']}"
    assert len(room.session.picks) == 0


def latest(client: TestClient, room: Room, role: str) -> str:
    return lxml.html.fromstring(get(client, room, role)).get_element_by_id("latest").text_content()


def test_every_page_spectators_too_marks_the_latest_change_proposals_undo_requests_and_answers(tmp_path: Path) -> None:
    """Issue 43: "Spectators miss a proposed bid and any undo request"; an event log with the last change marked."""
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    roles = ("Axis", "Allies", SPECTATOR)
    assert all(latest(client, room, role).startswith("Latest: Pick 10 (Allies, option 11") for role in roles)
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert all("The Axis propose a bid: Axis +11 PUs: 1 Germans artillery at Morocco Algeria" in latest(client, room, role) for role in roles)
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    assert all(latest(client, room, role) == "Latest: The Allies refused the Axis' bid." for role in roles)
    get(client, room, "Axis")  # seen: the undo of pick 10 needs the Axis' word
    assert post(client, room, "Allies", "undo", {"seq": str(room.seq)}).status_code == 303
    assert all(latest(client, room, role).startswith("Latest: The Allies ask to take back pick 10 (Allies, option 11") for role in roles)
    assert post(client, room, "Axis", "undo/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    assert all(latest(client, room, role).startswith("Latest: The Axis refused to undo pick 10 (Allies, option 11") for role in roles)
    history = lxml.html.fromstring(get(client, room, SPECTATOR)).get_element_by_id("history")
    told = [li.text_content() for li in history.xpath(".//li")]
    assert len(told) == 10 and told[0].startswith("Pick 10 (Allies") and told[-1].startswith("Pick 1 (Axis, option 10")  # newest first


def test_the_tab_title_says_your_move_to_the_side_whose_move_it_is_only(room: Room, client: TestClient) -> None:
    """Issue 43: no "your turn" signal outside the page (the tab title)."""

    def title(role: str) -> str:
        return lxml.html.fromstring(get(client, room, role)).findtext(".//title")

    assert title("Axis").startswith("Your move · ") and not title("Allies").startswith("Your move") and not title(SPECTATOR).startswith("Your move")
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], room.seq)).status_code == 303
    assert title("Allies").startswith("Your move · ") and not title("Axis").startswith("Your move")


def test_the_bid_is_a_conversation_messages_a_refused_bid_given_back_as_sent_and_a_counter_proposal(tmp_path: Path) -> None:
    """Issue 43: "no way to discuss the bid, no counter-offer"; "a refused bid is not pre-filled for its proposer"."""
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    sent = bid_form(example()["bid"], room.seq)
    assert post(client, room, "Axis", "bid", {**sent, "message": "Eleven, as  last game"}).status_code == 303
    asked = lxml.html.fromstring(get(client, room, "Allies"))
    assert asked.get_element_by_id("bid-message").text_content() == "The Axis said: Eleven, as last game"
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "no", "message": "Too much for Italy"}).status_code == 303
    again = get(client, room, "Axis")
    given_back = fields(again, "bid-form")
    assert {k: given_back[k] for k in sent if k != "seq"} == {k: v for k, v in sent.items() if k != "seq"}  # as the Axis sent it
    assert lxml.html.fromstring(again).get_element_by_id("bid-said").text_content() == "The Allies said: Too much for Italy"
    # The Axis propose it again; the Allies refuse it and propose their own in one step, starting from the Axis' rows.
    assert post(client, room, "Axis", "bid", {**sent, "seq": str(room.seq)}).status_code == 303
    counter = fields(get(client, room, "Allies"), "counter-form")
    assert counter["amount"] == sent["amount"] and counter["at.0"] == sent["at.0"]
    counter |= {"amount": "7", "count.1": "1", "message": "Seven, one Italian infantry fewer"}
    assert post(client, room, "Allies", "bid/counter", counter).status_code == 303
    assert room.bid_proposal is not None and room.bid_proposal.side == "Allies" and room.bid_proposal.bid["axis"] == 7
    answering = lxml.html.fromstring(get(client, room, "Axis"))
    assert answering.get_element_by_id("bid-message").text_content() == "The Allies said: Seven, one Italian infantry fewer"
    assert answering.get_element_by_id("bid-agree") is not None
    # A counter-proposal the rules refuse leaves the refusal sent and the counter-proposal in its form, to mend.
    refused = post(client, room, "Axis", "bid/counter", {**counter, "seq": str(room.seq), "amount": "1"})
    assert refused.status_code == 422 and "their bid is refused; yours was not proposed" in refused.text
    assert room.bid_proposal is None and room.answer is not None and room.answer.by == "Axis" and not room.answer.agreed
    assert fields(refused.text, "bid-form")["amount"] == "1"


def test_the_bids_messages_and_the_refused_form_survive_a_restart(tmp_path: Path) -> None:
    """Issue 43's leftover: the bid's messages were kept by the running server only, so a restart lost what each side
    said and the refused proposal's form (the proposal itself was in the room file). They are kept with it now."""
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    sent = bid_form(example()["bid"], room.seq)
    assert post(client, room, "Axis", "bid", {**sent, "message": "Eleven, as last game"}).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "no", "message": "Too much for Italy"}).status_code == 303
    assert post(client, room, "Allies", "bid", {**sent, "seq": str(room.seq), "amount": "7", "count.1": "1", "message": "Seven, then"}).status_code == 303

    restarted = Room(room.path, MAPS_DIR)  # a server started again on the same draft: only the files carry over
    client = TestClient(create_app(restarted, svg_for=no_picture))
    axis = lxml.html.fromstring(get(client, restarted, "Axis"))
    assert axis.get_element_by_id("bid-message").text_content() == "The Allies said: Seven, then"  # with the proposal waiting
    counter = fields(get(client, restarted, "Axis"), "counter-form")
    assert counter["amount"] == "7" and counter["at.0"] == sent["at.0"]  # the counter-proposal starts from the Allies' rows
    assert post(client, restarted, "Axis", "bid/answer", {"seq": str(restarted.seq), "agree": "no", "message": "No"}).status_code == 303

    again = Room(room.path, MAPS_DIR)
    client = TestClient(create_app(again, svg_for=no_picture))
    allies = get(client, again, "Allies")
    assert lxml.html.fromstring(allies).get_element_by_id("bid-said").text_content() == "The Axis said: No"
    assert fields(allies, "bid-form")["amount"] == "7"  # the Allies' refused bid given back as they sent it


def test_each_scenario_shows_what_it_would_do_on_this_board_as_the_pick_then_does_it(room: Room, client: TestClient) -> None:
    """Issue 43: "Scenario choices show titles only: no effects". The preview is the pick's own outcome (the same
    lines the room confirms when the pick is made), worked out on a copy: the room's draft is left as it was."""
    before = room.session.to_toml()
    html = get(client, room, "Axis", "?option=11")
    assert room.session.to_toml() == before
    effects = lxml.html.fromstring(html).get_element_by_id("effects")
    told = {li.findtext("b"): [item.text_content() for item in li.xpath("./ul/li")] for li in effects.xpath("./ul/li")}
    scenarios = lxml.html.fromstring(html).xpath("//select[@name='scenario']/option")
    assert scenarios and sorted(told) == sorted(o.text_content() for o in scenarios)  # every choice, no other
    felix = next(o for o in scenarios if o.text_content() == "Operation Felix")
    assert any("Germans capture Gibraltar" in line for line in told["Operation Felix"])
    sent = post(client, room, "Axis", "pick", {"seq": str(room.seq), "option": "11", "scenario": felix.get("value"), "action_key": "felix-00001"})
    confirmed = lxml.html.fromstring(client.get(sent.headers["location"]).text).get_element_by_id("note").text_content()
    assert confirmed == "; ".join(told["Operation Felix"])  # what the page said it would do is what it did


def test_each_side_is_told_whether_the_other_has_the_room_open(room: Room, client: TestClient) -> None:
    """Issue 43: "no sign whether the opponent is online". A page says it is there (its script asks every 15 s)."""

    def told(role: str) -> str:
        response = client.get(f"/room/{room.keys[role]}/presence")
        assert response.status_code == 200
        return response.text

    assert told("Allies") == "The Axis have not opened the room since the server started."
    assert told(SPECTATOR).startswith("The Axis have not opened the room") and "The Allies have the room open." in told(SPECTATOR)
    assert told("Axis") == "The Allies have the room open."  # the spectator's asking counted for nobody
    assert told("Allies") == "The Axis have the room open."
    assert client.get("/room/wrong-key/presence").status_code == 403
    clock = [0.0]
    here = Presence(("Axis", "Allies"), clock=lambda: clock[0])
    here.touch("Axis")
    clock[0] = AWAY_SECONDS + 5 * 60
    assert here.line("Allies") == "The Axis are away (last seen 5 min ago)."


def test_on_the_finished_drafts_page_the_game_comes_first_and_taking_back_the_bid_is_folded_below_it(tmp_path: Path) -> None:
    """Issue 43: ""Undo it" of the bid stays on the finished page above download and install"."""
    room = room_at(tmp_path, picks=True)
    client = TestClient(create_app(room, svg_for=no_picture))
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    while room.declaration() is not None:  # any group the draft file leaves open, to the first of its nearest places
        displaced, found, _ = room.declaration()
        assert post(client, room, displaced.side, "declare", {"seq": str(room.seq), "to": found.matches[0]}).status_code == 303
    assert room.complete
    html = get(client, room, "Allies")  # the Allies agreed last: they may ask to take it back
    tree = lxml.html.fromstring(html)
    assert html.index("id='download'") < html.index("id='undo-button'")
    assert tree.get_element_by_id("undo-button").xpath("ancestor::details[@id='undo-details']")


def test_a_filled_pick_form_shows_what_the_pick_would_do_before_it_is_made_and_then_does_exactly_that(room: Room, client: TestClient) -> None:
    """Issue 43, choices explained: the pick as filled, pushed on a copy of the room's session; a refused one says why."""
    entry = example()["pick"][0]  # the Axis take over Archangel (000 A option 10)
    form = {k: v for k, v in pick_form(entry, room.seq).items() if k != "seq"}
    before = room.session.to_toml()
    html = client.get(f"/room/{room.keys['Axis']}", params={**form, "preview": "1"}).text
    shown = [li.text_content() for li in lxml.html.fromstring(html).get_element_by_id("preview").xpath(".//li")]
    assert room.session.to_toml() == before and any("Archangel" in line for line in shown)
    sent = post(client, room, "Axis", "pick", {**form, "seq": str(room.seq), "action_key": "preview-pick-1"})
    assert lxml.html.fromstring(client.get(sent.headers["location"]).text).get_element_by_id("note").text_content() == "; ".join(shown)
    # The Allies' neutrals worth more than four: the rules refuse it, and say why, before anything is sent.
    refused = client.get(
        f"/room/{room.keys['Allies']}",
        params={"option": "3", "neutral.0": "Sweden", "by.0": "Russians", "neutral.1": "Mongolia", "by.1": "Chinese", "preview": "1"},
    )
    said = lxml.html.fromstring(refused.text).get_element_by_id("preview").text_content()
    assert "The rules refuse it" in said and "more than 4" in said and len(room.session.picks) == 1
