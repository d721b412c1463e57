"""The draft room's server (issue 18): who may act, one pick per turn, refusals as apply words them, nothing changed by a bad request."""

from __future__ import annotations

import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.session import Agreement
from kremlin_triplea.web.app import MAX_BODY, create_app
from kremlin_triplea.web.room import SPECTATOR, Room, new_draft, room_file
from support.paths import MAPS_DIR
from support.web import EXAMPLE, bid_form, example, header, http_client, live_server, pick_form


def no_picture(room: Room) -> str:
    return "<svg></svg>"  # the picture has its own tests; these are about the server's checks


@pytest.fixture
def room(tmp_path: Path) -> Room:
    path = tmp_path / "draft.toml"
    new_draft(path, header(example()), MAPS_DIR)
    room = Room(path, MAPS_DIR)
    room.seq = 0  # it starts at a random step (see Room); from 0 the steps below read plainly
    return room


@pytest.fixture
def client(room: Room) -> TestClient:
    return TestClient(create_app(room, svg_for=no_picture))


def refused(response) -> str:
    found = re.search(r"id='refused'>(.*?)</p>", response.text, re.DOTALL)
    return unescape(found.group(1)) if found else ""


def post(client: TestClient, room: Room, role: str, what: str, form: dict[str, str]):
    return client.post(f"/room/{room.keys[role]}/{what}", data=form, follow_redirects=False)


def declare_as_the_example(client: TestClient, room: Room) -> None:
    """After the bid, each open declaration as the example's draft file states it (Archangel's Russians to Russia, Venezuela's navy to 19)."""
    stated = {"Archangel": "Russia", "Northern South America": "19 Sea Zone"}
    while (step := room.declaration()) is not None:
        displaced, _, _ = step
        assert displaced.side == "Allies" and displaced.origin in stated, displaced
        assert post(client, room, "Allies", "declare", {"seq": str(room.seq), "to": stated[displaced.origin]}).status_code == 303


def test_the_links_secrets_are_kept_beside_the_draft_and_survive_a_restart(room: Room) -> None:
    again = Room(room.path, MAPS_DIR)
    assert again.keys == room.keys
    assert set(room.keys) == {"Axis", "Allies", SPECTATOR}
    assert len(set(room.keys.values())) == 3 and all(len(k) >= 32 for k in room.keys.values())
    assert room_file(room.path).stat().st_mode & 0o077 == 0
    read_draft(room.path)  # the draft file itself stays what apply reads


def test_a_wrong_or_missing_secret_a_spectator_and_the_side_out_of_turn_get_403_and_change_nothing(room: Room, client: TestClient) -> None:
    before = room.path.read_bytes()
    first = pick_form(example()["pick"][0], 0)  # the Axis' takeover of Archangel
    assert client.get("/room/not-a-secret").status_code == 403
    assert client.get("/").status_code == 403
    assert client.post("/room/not-a-secret/pick", data=first).status_code == 403
    assert client.get("/events/not-a-secret").status_code == 403
    assert post(client, room, SPECTATOR, "pick", first).status_code == 403
    # "The lower ranked player gets to pick for either axis or allies" and picks alternate: pick 1 is the Axis'.
    assert post(client, room, "Allies", "pick", {**first, "option": "3"}).status_code == 403
    assert post(client, room, SPECTATOR, "undo", {"seq": "0"}).status_code == 403
    assert client.get(f"/room/{room.keys[SPECTATOR]}").status_code == 200
    assert room.path.read_bytes() == before and room.seq == 0


def test_a_refused_choice_says_the_rule_and_why_and_changes_nothing(room: Room, client: TestClient) -> None:
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], 0)).status_code == 303
    before = room.path.read_bytes()
    # 000 A option 3: two neutrals "whose IPC values add up to no more than four"; Sweden 3 + Mongolia 2 is five.
    response = post(
        client, room, "Allies", "pick", {"seq": "1", "option": "3", "neutral.0": "Sweden", "by.0": "Russians", "neutral.1": "Mongolia", "by.1": "China"}
    )
    assert response.status_code == 422
    reason = refused(response)
    assert (
        "Sweden" in reason and "more than 4" in reason and "no more than four" in reason and "(rule text 000, option 3)" in reason
    )  # seed 000_bc04a4edf7f7d2ab.txt, by its number
    assert room.path.read_bytes() == before and len(room.session.picks) == 1


@pytest.mark.parametrize(
    "form, why",
    [
        ({"seq": "1", "option": "99"}, "option"),  # no such option
        ({"seq": "1", "option": "2", "power.0": "Russians", "unit.0": "artillery", "at.0": "Caucasus", "count.0": "lots"}, "count.0"),
        ({"seq": "1", "option": "2", "power.0": "Russians", "unit.0": "artillery", "at.0": "Caucasus", "count.0": "1", "at.99": "x"}, "at.99"),
        ({"seq": "one", "option": "2"}, "seq"),
        ({"option": "2"}, "seq"),
        ({"seq": "1", "option": "2", "power.0": "Russians", "unit.0": "artillery", "at.0": "Atlantis"}, "Atlantis"),
    ],
)
def test_bad_requests_get_a_clear_4xx_and_change_nothing(room: Room, client: TestClient, form: dict[str, str], why: str) -> None:
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], 0)).status_code == 303
    before = room.path.read_bytes()
    response = post(client, room, "Allies", "pick", form)
    assert 400 <= response.status_code < 500 and response.status_code != 403
    assert why in unescape(response.text)
    assert room.path.read_bytes() == before and room.seq == 1


def test_an_oversize_body_a_form_not_urlencoded_and_a_field_given_twice_are_refused(room: Room, client: TestClient) -> None:
    key = room.keys["Axis"]
    assert (
        client.post(
            f"/room/{key}/pick", content=b"seq=0&option=1&" + b"x" * (MAX_BODY + 1), headers={"content-type": "application/x-www-form-urlencoded"}
        ).status_code
        == 413
    )
    assert client.post(f"/room/{key}/pick", json={"seq": 0, "option": 1}).status_code == 400
    assert client.post(f"/room/{key}/pick", content=b"seq=0&seq=0&option=10", headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 400
    assert room.seq == 0 and read_draft(room.path).picks == ()


def test_a_second_submission_for_the_same_turn_is_a_409_and_no_second_pick(room: Room, client: TestClient) -> None:
    form = pick_form(example()["pick"][0], 0)
    assert post(client, room, "Axis", "pick", form).status_code == 303
    assert post(client, room, "Axis", "pick", form).status_code in (403, 409)
    assert len(read_draft(room.path).picks) == 1


def test_many_simultaneous_submissions_for_one_turn_make_exactly_one_pick(room: Room) -> None:
    form = pick_form(example()["pick"][0], 0)
    url = f"/room/{room.keys['Axis']}/pick"
    with live_server(lambda stopping: create_app(room, svg_for=no_picture, stopping=stopping)) as base:

        def submit(_: int) -> int:
            with http_client(base, timeout=60) as http:
                return http.post(url, data=form).status_code

        with ThreadPoolExecutor(max_workers=16) as pool:
            statuses = list(pool.map(submit, range(32)))
    assert statuses.count(303) == 1, statuses
    assert set(statuses) <= {303, 403, 409}
    assert len(read_draft(room.path).picks) == 1 and room.seq == 1


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_pages_drawn_while_a_declaration_is_made_all_show_a_whole_state(room: Room) -> None:
    """Both players' pages and the spectators' reload while the Allies declare: every page is whole (the full suite
    once caught a page drawn while the declarations were being made again on the board: IndexError, a 500)."""
    data = example()
    with live_server(lambda stopping: create_app(room, svg_for=no_picture, stopping=stopping)) as base:
        with http_client(base, timeout=60) as http:
            for entry in data["pick"]:
                assert http.post(f"/room/{room.keys[entry['side']]}/pick", data=pick_form(entry, room.seq)).status_code == 303
            assert http.post(f"/room/{room.keys['Allies']}/bid", data=bid_form(data["bid"], room.seq)).status_code == 303
            assert http.post(f"/room/{room.keys['Axis']}/bid/answer", data={"seq": str(room.seq), "agree": "yes"}).status_code == 303

        def reload(n: int) -> int:
            with http_client(base, timeout=60) as http:
                return http.get(f"/room/{room.keys[(SPECTATOR, 'Axis', 'Allies')[n % 3]]}").status_code

        def declare() -> list[int]:
            stated = {"Archangel": "Russia", "Northern South America": "19 Sea Zone"}
            statuses = []
            with http_client(base, timeout=60) as http:
                while (step := room.declaration()) is not None:
                    form = {"seq": str(room.seq), "to": stated[step[0].origin]}
                    statuses.append(http.post(f"/room/{room.keys['Allies']}/declare", data=form).status_code)
            return statuses

        with ThreadPoolExecutor(max_workers=9) as pool:
            declared = pool.submit(declare)
            pages = list(pool.map(reload, range(240)))
            assert declared.result() and set(declared.result()) <= {303, 409}
    assert set(pages) == {200}, sorted(set(pages))
    assert room.complete


def test_undo_is_at_once_before_the_other_side_saw_the_pick_and_needs_their_agreement_after(room: Room, client: TestClient) -> None:
    first = pick_form(example()["pick"][0], 0)
    assert post(client, room, "Axis", "pick", first).status_code == 303
    assert post(client, room, "Allies", "undo", {"seq": "1"}).status_code == 403  # not their pick
    assert post(client, room, "Axis", "undo", {"seq": "1"}).status_code == 303  # the Allies' page never showed it
    assert read_draft(room.path).picks == ()
    assert post(client, room, "Axis", "pick", {**first, "seq": "2"}).status_code == 303
    assert client.get(f"/room/{room.keys['Allies']}").status_code == 200  # the Allies have seen pick 1
    assert post(client, room, "Axis", "undo", {"seq": "3"}).status_code == 303
    assert len(read_draft(room.path).picks) == 1 and room.undo_request is not None
    page = client.get(f"/room/{room.keys['Allies']}").text
    assert "id='undo-agree'" in page
    assert post(client, room, "Allies", "pick", pick_form(example()["pick"][1], 4)).status_code in (403, 409)
    assert post(client, room, "Axis", "undo/answer", {"seq": "4", "agree": "yes"}).status_code == 403  # the asker does not answer
    assert post(client, room, "Allies", "undo/answer", {"seq": "4", "agree": "no"}).status_code == 303
    assert len(read_draft(room.path).picks) == 1
    assert post(client, room, "Axis", "undo", {"seq": "5"}).status_code == 303
    assert post(client, room, "Allies", "undo/answer", {"seq": "6", "agree": "yes"}).status_code == 303
    assert read_draft(room.path).picks == ()


def test_a_whole_draft_over_http_writes_the_game_apply_writes(room: Room, client: TestClient, tmp_path: Path) -> None:
    data = example()
    for entry in data["pick"]:
        side = entry["side"]
        assert post(client, room, side, "pick", pick_form(entry, room.seq)).status_code == 303, entry
    assert post(client, room, "Allies", "bid", bid_form(data["bid"], room.seq)).status_code == 303
    assert post(client, room, "Axis", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    # Then the retreats (000 A "Order of action" 1): Archangel's Russians may go to four territories; the Allies say which.
    assert not room.complete
    displaced, found, _ = room.declaration()
    assert (displaced.origin, displaced.side, found.matches) == ("Archangel", "Allies", ("Belorussia", "Karelia S.S.R.", "Russia", "Urals"))
    assert "Waiting for the Allies to declare where 2 Russians infantry from Archangel go" in client.get(f"/room/{room.keys['Axis']}").text
    assert post(client, room, "Axis", "declare", {"seq": str(room.seq), "to": "Russia"}).status_code == 403
    response = post(client, room, "Allies", "declare", {"seq": str(room.seq), "to": "Caucasus"})
    assert "they cannot go to Caucasus; the nearest territories of their side are: Belorussia, Karelia S.S.R., Russia, Urals" in refused(response)
    assert post(client, room, "Allies", "declare", {"seq": str(room.seq), "to": "Russia"}).status_code == 303
    declare_as_the_example(client, room)  # and Venezuela's navy
    assert room.complete
    page = client.get(f"/room/{room.keys[SPECTATOR]}").text
    assert "id='summary'" in page and "id='download'" not in page
    assert client.get(f"/room/{room.keys[SPECTATOR]}/game.xml").status_code == 403
    served = client.get(f"/room/{room.keys['Axis']}/game.xml")
    assert served.status_code == 200
    runner = CliRunner()
    ours = tmp_path / "ours.xml"
    assert runner.invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(room.path), "-o", str(ours)]).exit_code == 0
    assert served.content == ours.read_bytes()
    # The room's draft file holds the example's picks and bid: apply reads both to the same board.
    assert len(read_draft(room.path).picks) == len(data["pick"])
    by_hand = tmp_path / "example.xml"
    assert runner.invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(by_hand)]).exit_code == 0
    assert by_hand.read_bytes() == served.content


def test_server_sent_events_announce_each_accepted_action(room: Room) -> None:
    with live_server(lambda stopping: create_app(room, svg_for=no_picture, stopping=stopping)) as base:
        with http_client(base, timeout=30) as http:
            with http.stream("GET", f"/events/{room.keys[SPECTATOR]}") as events:
                lines = events.iter_lines()
                assert next(line for line in lines if line.startswith("data:")) == "data: 0"
                assert http.post(f"/room/{room.keys['Axis']}/pick", data=pick_form(example()["pick"][0], 0)).status_code == 303
                assert next(line for line in lines if line.startswith("data:")) == "data: 1"


def make_picks(client: TestClient, room: Room) -> None:
    for entry in example()["pick"]:
        assert post(client, room, entry["side"], "pick", pick_form(entry, room.seq)).status_code == 303, entry


def test_a_bid_over_its_amount_is_refused_with_the_rule_and_a_negative_bid_is_allocated(room: Room, client: TestClient, tmp_path: Path) -> None:
    make_picks(client, room)
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], room.seq)).status_code == 403  # the picks are done
    before = room.path.read_bytes()
    # A bid of 3 cannot buy two artillery (4 PUs each in AA50's production frontier).
    response = post(
        client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "3", "power.0": "Germans", "unit.0": "artillery", "count.0": "2", "at.0": "Germany"}
    )
    assert response.status_code == 422
    reason = refused(response)
    assert "cost 8 PUs, more than the bid of 3" in reason and "A bid of 11 would mean the axis would get to place 11 ipc's" in reason
    assert room.path.read_bytes() == before and not room.complete
    # Negative: the Allies receive the PUs, shared as the form says.
    assert post(client, room, "Allies", "bid", {"seq": str(room.seq), "amount": "-6", "allocate.Russians": "4", "allocate.British": "2"}).status_code == 303
    assert post(client, room, "Axis", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    declare_as_the_example(client, room)
    assert room.complete
    assert read_draft(room.path).bid.data == {"axis": -6, "allocate": {"Russians": 4, "British": 2}}
    served = client.get(f"/room/{room.keys['Allies']}/game.xml").content
    written = tmp_path / "applied.xml"
    assert CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(room.path), "-o", str(written)]).exit_code == 0
    assert served == written.read_bytes()
    assert post(client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "0"}).status_code == 409  # one bid


def test_the_bid_is_written_only_once_the_other_side_agrees(room: Room, client: TestClient) -> None:
    # The players settle the bid between them (000 C: "Players can bid once or go back and forth auction style").
    make_picks(client, room)
    before = room.path.read_bytes()
    assert post(client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "0"}).status_code == 303
    assert not room.complete and room.path.read_bytes() == before  # proposed, not written
    assert "id='bid-agree'" in client.get(f"/room/{room.keys['Allies']}").text
    assert "id='bid-waiting'" in client.get(f"/room/{room.keys['Axis']}").text
    assert post(client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "3"}).status_code == 409  # one bid waits at a time
    assert post(client, room, "Axis", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 403  # not their own
    assert post(client, room, SPECTATOR, "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 403
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    assert not room.complete and room.path.read_bytes() == before
    assert post(client, room, "Allies", "bid", {"seq": str(room.seq), "amount": "-2", "allocate.Russians": "2"}).status_code == 303
    assert post(client, room, "Axis", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    declare_as_the_example(client, room)
    assert room.complete and read_draft(room.path).bid.data == {"axis": -2, "allocate": {"Russians": 2}}


def test_the_players_install_the_finished_game_as_apply_install_does(tmp_path: Path) -> None:
    import shutil

    ours, theirs = tmp_path / "room-maps", tmp_path / "apply-maps"
    for maps in (ours, theirs):
        shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    path = tmp_path / "draft.toml"
    new_draft(path, header(example()), ours)
    room = Room(path, ours)
    client = TestClient(create_app(room, svg_for=no_picture))
    assert post(client, room, "Axis", "install", {"seq": str(room.seq)}).status_code == 409  # not complete yet
    make_picks(client, room)
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    declare_as_the_example(client, room)
    assert post(client, room, SPECTATOR, "install", {"seq": str(room.seq)}).status_code == 403
    assert post(client, room, "Axis", "install", {"seq": str(room.seq)}).status_code == 303
    assert "installed" in client.get(f"/room/{room.keys['Axis']}").text
    result = CliRunner().invoke(main, ["--maps-dir", str(theirs), "apply", str(path), "--install", "-o", str(tmp_path / "out.xml")])
    assert result.exit_code == 0, result.output
    games = sorted((ours / "world_war_ii_v3" / "map" / "games").iterdir())
    assert [g.name for g in games] == [g.name for g in sorted((theirs / "world_war_ii_v3" / "map" / "games").iterdir())]
    for game in games:
        assert game.read_bytes() == (theirs / "world_war_ii_v3" / "map" / "games" / game.name).read_bytes()
    assert (ours / "world_war_ii_v3" / "map.yml").read_bytes() == (theirs / "world_war_ii_v3" / "map.yml").read_bytes()


def test_each_side_chooses_its_powers_house_rule_advantages_after_the_bid(tmp_path: Path) -> None:
    # 004 (house-revised): "each power" gets one advantage; the draft leaves them open, so each side chooses its own.
    # 004's House Rules 1-3 close the straits 000 D(3) already closes, differently: switched off, as apply requires.
    house = load_named_house_set("house-revised")
    straits = {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}
    path = tmp_path / "draft.toml"
    with pytest.raises(KremlinError, match="conflicting rules"):
        new_draft(path, {**header(example()), "house_rules": ["house-revised"]}, MAPS_DIR)
    assert not path.exists()
    new_draft(path, {**header(example()), "house_rules": ["house-revised"], "house_rule_choices": {"house-revised": straits}}, MAPS_DIR)
    room = Room(path, MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    make_picks(client, room)
    assert post(client, room, "Axis", "house", {"seq": str(room.seq)}).status_code == 403  # after the bid
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    declare_as_the_example(client, room)
    assert not room.complete and set(room.house_pending()) == {"Axis", "Allies"}
    assert "id='house-form'" in client.get(f"/room/{room.keys['Axis']}").text
    germany, japan = (house.advantages_of(p)[0] for p in ("Germany", "Japan"))
    form = {"seq": str(room.seq), "advantage.house-revised.Germany": germany.id, "advantage.house-revised.Japan": "none"}
    assert post(client, room, "Axis", "house", {**form, "advantage.house-revised.Japan": "kamikaze-x"}).status_code == 400
    assert post(client, room, "Axis", "house", form).status_code == 303
    assert post(client, room, "Axis", "house", {**form, "seq": str(room.seq)}).status_code == 409  # chosen once
    assert "id='house-waiting'" in client.get(f"/room/{room.keys['Axis']}").text
    allied = {f"advantage.house-revised.{p}": "none" for p in ("USSR", "UK", "USA")}
    assert post(client, room, "Allies", "house", {"seq": str(room.seq), **allied}).status_code == 303
    assert room.complete
    written = read_draft(room.path).house_rule_choices["house-revised"].data
    assert written["advantages"] == {"Germany": germany.id} and all(written[k] is False for k in straits)
    # A restart remembers who chose (a "none" leaves no trace in the draft file).
    assert Room(room.path, MAPS_DIR).complete
    served = client.get(f"/room/{room.keys['Allies']}/game.xml").content
    ours = tmp_path / "ours.xml"
    assert CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(room.path), "-o", str(ours)]).exit_code == 0
    assert served == ours.read_bytes()
    assert germany.title in ours.read_text() and japan.title not in ours.read_text()  # the notes name the advantages given


# The room file as the room before the house-rule answers were session steps wrote it (commit 5d2eb35), once the
# Axis had chosen Germany's advantage and none for Japan and then asked to undo the agreed bid: the links' secrets
# are the room's own (filled in), the rest exactly as that version wrote it.
OLD_ROOM_FILE = """# The draft room's links (kremlin-triplea serve): keep private; delete to make new links.
house_answered = [
    "Axis",
]

[keys]
Axis = "{Axis}"
Allies = "{Allies}"
spectator = "{spectator}"

[players]

[undo_request]
side = "Axis"
pick = 10
"""


def test_a_room_saved_by_the_version_before_the_house_answers_were_steps_resumes_where_it_was(tmp_path: Path) -> None:
    house = load_named_house_set("house-revised")
    straits = {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}
    path = tmp_path / "draft.toml"
    new_draft(path, {**header(example()), "house_rules": ["house-revised"], "house_rule_choices": {"house-revised": straits}}, MAPS_DIR)
    room = Room(path, MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    make_picks(client, room)
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    declare_as_the_example(client, room)
    germany = house.advantages_of("Germany")[0]
    form = {"seq": str(room.seq), "advantage.house-revised.Germany": germany.id, "advantage.house-revised.Japan": "none"}
    assert post(client, room, "Axis", "house", form).status_code == 303
    room_file(path).write_text(OLD_ROOM_FILE.format(**room.keys))

    resumed = Room(path, MAPS_DIR)  # 004: each side answers for its own powers once; the Axis have, the Allies not yet
    assert resumed.house_answered == {"Axis"} and resumed.house_pending() == ["Allies"]
    assert resumed.undo_request is not None and (resumed.undo_request.side, resumed.undo_request.pick) == ("Axis", 10)
    again = TestClient(create_app(resumed, svg_for=no_picture))
    assert post(again, resumed, "Axis", "house", {**form, "seq": str(resumed.seq)}).status_code == 409  # answered once
    assert post(again, resumed, "Allies", "undo/answer", {"seq": str(resumed.seq), "agree": "no"}).status_code == 303
    allied = {f"advantage.house-revised.{p}": "none" for p in ("USSR", "UK", "USA")}
    assert post(again, resumed, "Allies", "house", {"seq": str(resumed.seq), **allied}).status_code == 303
    assert resumed.complete and Room(path, MAPS_DIR).complete
    assert read_draft(path).house_rule_choices["house-revised"].data["advantages"] == {"Germany": germany.id}


def test_serve_starts_a_draft_with_house_rules_and_refuses_a_set_that_conflicts_or_an_unknown_switch(tmp_path: Path) -> None:
    start = [
        "--maps-dir",
        str(MAPS_DIR),
        "serve",
        str(tmp_path / "d.toml"),
        "--ruleset",
        "kremlin-aa50",
        "--game",
        "world_war_ii_v3/WW2v3-1941.xml",
        "--first",
        "Axis",
    ]
    conflict = CliRunner().invoke(main, [*start, "--house-rules", "house-revised"])
    assert conflict.exit_code == 2 and "conflicting rules: Straits (kremlin-aa50 rule 'd3-straits'" in conflict.output
    unknown = CliRunner().invoke(main, [*start, "--house-rules", "house-revised", "--switch", "hr99=off"])
    assert unknown.exit_code == 2 and "--switch hr99: no such switch in house-revised" in unknown.output
    assert not (tmp_path / "d.toml").exists()


def test_a_bid_or_an_undo_waiting_for_an_answer_survives_a_restart(room: Room, client: TestClient) -> None:
    # Issue 18: "stopping the server (even with SIGKILL) and starting serve on the same file resumes exactly where it
    # was": an entered bid waits for the other side's answer in the room file, not only in the server's memory.
    make_picks(client, room)
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    restarted = Room(room.path, MAPS_DIR)  # a new server process on the same draft file
    assert restarted.bid_proposal == room.bid_proposal and restarted.bid_proposal.side == "Axis"
    again = TestClient(create_app(restarted, svg_for=no_picture))
    assert "id='bid-agree'" in again.get(f"/room/{restarted.keys['Allies']}").text
    assert post(again, restarted, "Allies", "bid/answer", {"seq": str(restarted.seq), "agree": "yes"}).status_code == 303
    assert Room(room.path, MAPS_DIR).bid_proposal is None and read_draft(room.path).bid is not None
    # An undo the other side has seen waits for their agreement across a restart too.
    assert post(again, restarted, "Allies", "undo", {"seq": str(restarted.seq)}).status_code == 303  # the bid: the other agrees
    assert Room(room.path, MAPS_DIR).undo_request == restarted.undo_request is not None


def test_a_rematch_is_installed_under_the_name_the_players_type_and_nothing_of_the_host_shows(tmp_path: Path) -> None:
    """Issue 31: the room's install takes the name from its form; the same name again (a same-day rematch) is refused
    with what to do from the room, not `--force ... --name` and the host's map.yml path."""
    import shutil

    import yaml

    maps = tmp_path / "room-maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    path = tmp_path / "draft.toml"
    new_draft(path, header(example()), maps)
    room = Room(path, maps)
    client = TestClient(create_app(room, svg_for=no_picture))
    make_picks(client, room)
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    agreed = post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"})
    assert agreed.status_code == 303
    page = client.get(f"/room/{room.keys['Allies']}").text
    assert "the draft is complete" not in page  # the declarations are still to come (000 A, Order of action)
    declare_as_the_example(client, room)
    assert post(client, room, "Axis", "install", {"seq": str(room.seq), "name": "Ann v Bob, rematch"}).status_code == 303
    listed = [g["game_name"] for g in yaml.safe_load((maps / "world_war_ii_v3" / "map.yml").read_text())["games"]]
    assert listed[-1] == "Ann v Bob, rematch"
    # A name TripleA lists already (not this room's install: issue 40's case is below) is refused with what to do.
    stock = listed[0]
    taken = post(client, room, "Allies", "install", {"seq": str(room.seq), "name": stock})
    assert taken.status_code == 422 and "choose another name" in taken.text
    # A look-alike of it (a Cyrillic a) is refused by the host's rules for a name, saying why (issue 40).
    lookalike = post(client, room, "Allies", "install", {"seq": str(room.seq), "name": stock.replace("a", "\u0430", 1)})
    assert lookalike.status_code == 422 and "mixes Cyrillic and Latin letters" in unescape(lookalike.text)
    # The other side's install under the same name is told it is there, by whom, not refused as a bare clash.
    again = post(client, room, "Allies", "install", {"seq": str(room.seq), "name": "Ann v Bob, rematch"})
    shown = unescape(again.text)  # the page the refusal is shown on
    assert again.status_code == 422 and "the Axis installed this draft's game on the host's TripleA already, as 'Ann v Bob, rematch'" in shown
    for response in (taken, lookalike, again):
        for secret in (str(maps), str(tmp_path), "--force", "--name", "map.yml"):
            assert secret not in response.text, secret


def test_the_side_to_pick_s_legal_choices_are_worked_out_once_a_step(room: Room, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of the side to pick lists its legal choices (each legal pick checked whole: tens of milliseconds on
    AA50); a step's are worked out once however many pages are drawn (a page per option chosen), and again after the
    step changes."""
    worked_out = []
    original = room.session.next_pick
    monkeypatch.setattr(room.session, "next_pick", lambda: worked_out.append(room.seq) or original())
    for option in ("", "?option=1", "?option=6", "?option=10"):
        assert client.get(f"/room/{room.keys['Axis']}{option}").status_code == 200
        assert client.get(f"/room/{room.keys['Allies']}{option}").status_code == 200
    assert worked_out == [0]
    assert post(client, room, "Axis", "pick", pick_form(example()["pick"][0], 0)).status_code == 303
    page = client.get(f"/room/{room.keys['Allies']}")
    assert page.status_code == 200 and worked_out == [0, 1]
    assert "Allies" in page.text


def test_a_negative_bid_that_removes_units_is_proposed_from_the_forms_rows_in_the_rule_texts_words(tmp_path: Path) -> None:
    """Kremlin Classic's negative bid removes Axis infantry and armour (001/002: "If the bid goes negative ... units
    are being removed from the board"; -3 removes units worth 3, one infantry): the room reads the form's rows as the
    units removed, the names as the draft file reads them ("Germany", the rule text's word for the Germans)."""
    from kremlin_triplea.rules.tomlfile import read_toml

    data = read_toml(EXAMPLE.parent / "kremlin-classic-3rd-edition.toml")
    new_draft(tmp_path / "draft.toml", {**header(data), "pick": data["pick"]}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    form = {"seq": str(room.seq), "amount": "-3", "power.0": "Germany", "unit.0": "infantry", "count.0": "1", "at.0": "Germany"}
    assert post(client, room, "Allies", "bid", form).status_code == 303, refused(post(client, room, "Allies", "bid", form))
    assert room.bid_proposal is not None and room.bid_proposal.bid == {
        "axis": -3,
        "remove": [{"power": "Germans", "unit": "infantry", "count": 1, "at": "Germany"}],
    }
    # A row the rules do not let go (an armour's worth is not 3): refused with the rule, nothing kept.
    assert post(client, room, "Axis", "bid/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    wrong = post(client, room, "Allies", "bid", {**form, "seq": str(room.seq), "unit.0": "armour"})
    assert wrong.status_code == 422 and room.bid_proposal is None


def test_a_positive_bid_is_left_to_triplea_s_bid_phase_where_the_rules_let_it(tmp_path: Path) -> None:
    """002 III (kremlin-daak): "Players do not have to declare what they are buying nor where the bid units will be
    placed during the bidding process". The example's bid, axis = 10 with phase = { Germany = 6, Japan = 4 }, could not
    be made in the room: its form had no bid phase, and a bid of 10 with nothing placed was taken as 10 PUs unspent."""
    import lxml.html

    from kremlin_triplea.rules.tomlfile import read_toml

    data = read_toml(EXAMPLE.parent / "kremlin-daak-classic.toml")
    new_draft(tmp_path / "draft.toml", {**header(data), "pick": data["pick"]}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    form = lxml.html.fromstring(client.get(f"/room/{room.keys['Axis']}").text).get_element_by_id("bid-form")
    offered = [field.get("name") for field in form.xpath(".//input[starts-with(@name, 'phase.')]")]
    assert offered == ["phase.Germans", "phase.Japanese"]  # the Axis powers whose bid property the game has
    assert all(field.xpath("ancestor::label") for field in form.xpath(".//input[starts-with(@name, 'phase.')]"))
    # Shares that leave PUs of the bid over are refused with the rule; the example's are proposed, agreed, written.
    short = post(client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "10", "phase.Germans": "6"})
    assert short.status_code == 422 and "bid phase gets 6 PUs" in refused(short)
    assert lxml.html.fromstring(short.text).get_element_by_id("budget").text_content() == "6 of 10 PUs spent."  # the share counted
    assert post(client, room, "Axis", "bid", {"seq": str(room.seq), "amount": "10", "phase.Germany": "6", "phase.Japan": "4"}).status_code == 303
    shown = lxml.html.fromstring(client.get(f"/room/{room.keys['Allies']}").text).get_element_by_id("bid-proposed").text_content()
    assert "PUs spent in TripleA's bid phase" in shown and "Germans6" in shown.replace(" ", "")
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    assert read_draft(room.path).bid.data == {"axis": 10, "phase": {"Germans": 6, "Japanese": 4}}


def test_asking_which_declaration_waits_pushes_nothing_the_action_that_makes_groups_due_declares_them(tmp_path: Path) -> None:
    """Issue 45: "the room's declaration() and complete look like queries but push". The groups that need no answer
    (here pick 1's retreat, which the draft file sends to Russia, and pick 2's navy, to 19 Sea Zone) are declared by
    the action that makes them due, before the draft file is written; asking what waits changes no step."""
    data = example()
    picks = [dict(entry) for entry in data["pick"]]
    picks[0] = {**picks[0], "takeover": {**picks[0]["takeover"], "retreat": [{"to": "Russia"}]}}
    new_draft(tmp_path / "draft.toml", {**header(data), "pick": picks}, MAPS_DIR)
    room = Room(tmp_path / "draft.toml", MAPS_DIR)
    client = TestClient(create_app(room, svg_for=no_picture))
    assert post(client, room, "Axis", "bid", bid_form(data["bid"], room.seq)).status_code == 303
    session = room.session
    session.push(Agreement("Allies"))  # agreed behind the room's back: no action has declared the groups
    steps = list(session.steps)
    waiting = room.declaration()
    assert waiting is not None and waiting[0].origin == "Archangel"  # the first group still to declare, as it stands
    assert not room.complete and session.steps == steps  # asked twice, nothing pushed
    session.pop()  # the agreement, made again by the room's own action
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    assert session.pending_declarations == () and room.declaration() is None and room.complete
