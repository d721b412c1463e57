"""Faults in the host's map folder: a record of installed games that lies, an entry the user renamed (issue 27).

``kremlin-triplea-installed.json`` travels with a map folder that a host zips
and shares, so it is input like any other. The README promises that a game
the map shipped with is never replaced or removed, and that uninstall takes
out exactly what install put in: these tests hold the tool to that with
records written by hand, as a stranger could write them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.install import RECORD_NAME, installed_games
from support.concurrency import most_holders_at_once
from support.paths import MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"
#: The stock game of world_war_ii_v3 as its map.yml lists it.
STOCK_NAME, STOCK_FILE = "World War II v3 1941", "WW2v3-1941.xml"


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    for path in [maps, *maps.rglob("*")]:  # the pinned copies are read-only; a host's are not
        path.chmod(path.stat().st_mode | 0o200)
    return maps


def map_folder(maps: Path) -> Path:
    return maps / "world_war_ii_v3"


def games_folder(maps: Path) -> Path:
    return map_folder(maps) / "map" / "games"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def write_record(maps: Path, *entries: dict) -> None:
    data = {"written_by": "kremlin-triplea", "games": list(entries)}
    (map_folder(maps) / RECORD_NAME).write_text(json.dumps(data), encoding="utf-8")


def run(maps: Path, *args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(maps), *args])


def refused_in_one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


# -- a record naming a file outside the games folder ---------------------------------------------


OUTSIDE = ["../../../victim.txt", "{absolute}", "..", "sub/../../../../victim.txt", "..\\..\\..\\victim.txt", "C:victim.txt"]


@pytest.mark.parametrize("file_name", OUTSIDE)
def test_uninstall_never_deletes_a_file_the_record_names_outside_the_games_folder(maps: Path, file_name: str) -> None:
    victim = maps / "victim.txt"  # where ../../../victim.txt from map/games lands
    victim.write_text("the host's file")
    file_name = file_name.replace("{absolute}", str(victim))
    write_record(maps, {"game_name": "Kremlin", "file_name": file_name, "notes_file": None, "date": "2026-01-01"})
    before = snapshot(maps)
    message = refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert "file_name" in message and RECORD_NAME in message
    assert victim.read_text() == "the host's file" and snapshot(maps) == before


@pytest.mark.parametrize("notes_file", ["../../../victim.txt", "WW2v3-1941.xml", "other.notes.html"])
def test_a_record_whose_notes_are_not_its_games_notes_is_refused(maps: Path, notes_file: str) -> None:
    (maps / "victim.txt").write_text("the host's file")
    write_record(maps, {"game_name": "Kremlin", "file_name": "Kremlin.xml", "notes_file": notes_file, "date": "2026-01-01"})
    before = snapshot(maps)
    assert "notes_file" in refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert snapshot(maps) == before


@pytest.mark.linux_only
def test_a_record_that_is_a_symbolic_link_is_never_written_through(maps: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"games": []}))
    (map_folder(maps) / RECORD_NAME).symlink_to(elsewhere)
    out = tmp_path / "game.xml"
    message = refused_in_one_line(run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin", "-o", str(out)))
    assert "symbolic link" in message
    assert json.loads(elsewhere.read_text()) == {"games": []} and not out.exists()


# -- a record naming a game the map shipped with ----------------------------------------------------


def stock_record(maps: Path, **extra: object) -> dict:
    """A record entry for the stock game, as a stranger could forge it: even its true content hash."""
    stock = games_folder(maps) / STOCK_FILE
    return {"game_name": STOCK_NAME, "file_name": STOCK_FILE, "notes_file": None, "date": "2026-01-01", **extra} | (
        {"sha256": hashlib.sha256(stock.read_bytes()).hexdigest()} if extra.get("sha256") is True else {}
    )


@pytest.mark.parametrize("with_hash", [False, True], ids=["no hash", "its true hash"])
def test_uninstall_never_removes_a_game_the_map_shipped_with(maps: Path, with_hash: bool) -> None:
    write_record(maps, stock_record(maps, sha256=True) if with_hash else stock_record(maps))
    before = snapshot(maps)
    message = refused_in_one_line(run(maps, "uninstall", STOCK_NAME))
    assert STOCK_FILE in message and "nothing was changed" in message
    assert snapshot(maps) == before, "the stock game, its map.yml entry and the record are as they were"


@pytest.mark.parametrize("with_hash", [False, True], ids=["no hash", "its true hash"])
def test_install_force_never_replaces_a_game_the_map_shipped_with(maps: Path, with_hash: bool) -> None:
    write_record(maps, stock_record(maps, sha256=True) if with_hash else stock_record(maps))
    before = snapshot(maps)
    result = run(maps, "apply", str(EXAMPLE), "--install", "--name", STOCK_NAME, "--force")
    assert STOCK_FILE in refused_in_one_line(result)
    assert snapshot(maps) == before


def test_a_record_pointing_our_name_at_a_stock_file_is_not_ours(maps: Path) -> None:
    """The map.yml entry of the name must list the record's file: else the game is someone else's."""
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    record = json.loads((map_folder(maps) / RECORD_NAME).read_text())
    record["games"][0].update(file_name=STOCK_FILE, notes_file=None)
    (map_folder(maps) / RECORD_NAME).write_text(json.dumps(record))
    before = snapshot(maps)
    assert "did not install" in refused_in_one_line(run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin", "--force"))
    assert STOCK_FILE in refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert snapshot(maps) == before


# -- our own game, changed or renamed by the user ---------------------------------------------------------


def test_a_game_changed_since_it_was_installed_is_neither_removed_nor_replaced(maps: Path) -> None:
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (game,) = installed_games(maps)
    game.game_file.write_bytes(game.game_file.read_bytes().replace(b"Kremlin", b"Edited"))
    before = snapshot(maps)
    assert "changed since" in refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert "changed since" in refused_in_one_line(run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin", "--force"))
    assert snapshot(maps) == before


def test_our_game_is_replaced_with_force_and_uninstalled_whole(maps: Path) -> None:
    original = snapshot(maps)
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    replaced = run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin", "--force")
    assert replaced.exit_code == 0 and "replaced 'Kremlin'" in replaced.stdout
    gone = run(maps, "uninstall", "Kremlin")
    assert gone.exit_code == 0, gone.stderr
    assert snapshot(maps) == original


def test_an_entry_the_user_renamed_is_found_by_its_file_and_removed(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    original = map_yml.read_bytes()
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (game,) = installed_games(maps)
    map_yml.write_bytes(map_yml.read_bytes().replace(b'game_name: "Kremlin",', b"game_name: Friday night,"))
    assert [g["game_name"] for g in yaml.safe_load(map_yml.read_text())["games"]][-1] == "Friday night"
    gone = run(maps, "uninstall", "Kremlin")
    assert gone.exit_code == 0, gone.stderr
    assert "renamed 'Friday night'" in gone.stdout
    assert map_yml.read_bytes() == original, "TripleA no longer lists a game whose file is gone"
    assert not game.game_file.exists() and installed_games(maps) == []


def test_an_entry_the_user_removed_is_reported_not_claimed(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    original = map_yml.read_bytes()
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (game,) = installed_games(maps)
    map_yml.write_bytes(original)
    gone = run(maps, "uninstall", "Kremlin")
    assert gone.exit_code == 0, gone.stderr
    assert "its entry" not in gone.stdout and f"map.yml did not list {game.game_file.name}" in gone.stdout
    assert map_yml.read_bytes() == original and not game.game_file.exists()


@pytest.mark.linux_only
def test_a_game_file_that_is_a_link_is_not_ours(maps: Path, tmp_path: Path) -> None:
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (game,) = installed_games(maps)
    kept = tmp_path / "kept.xml"
    os.replace(game.game_file, kept)
    game.game_file.symlink_to(kept)
    before = snapshot(maps)
    assert "not a regular file" in refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert snapshot(maps) == before and kept.is_file()


def test_install_then_uninstall_leaves_no_lock_file_and_concurrent_locks_still_exclude(maps: Path) -> None:

    from kremlin_triplea.gamefile.install import LOCK_NAME, map_lock

    original = snapshot(maps)
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    assert not (map_folder(maps) / LOCK_NAME).exists()
    assert run(maps, "uninstall", "Kremlin").exit_code == 0
    assert snapshot(maps) == original
    # The lock file is removed by its holder; runs waiting meanwhile still take turns, one at a time.
    assert most_holders_at_once(lambda: map_lock(map_folder(maps)), rounds=20) == 1 and not (map_folder(maps) / LOCK_NAME).exists()


def test_an_entry_the_user_renamed_is_uninstalled_by_either_name(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    original = map_yml.read_bytes()
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    map_yml.write_bytes(map_yml.read_bytes().replace(b'game_name: "Kremlin",', b"game_name: Friday night,"))
    listed = run(maps, "installed")
    assert listed.exit_code == 0 and "[listed as 'Friday night']" in listed.stdout
    gone = run(maps, "uninstall", "friday night")
    assert gone.exit_code == 0, gone.stderr
    assert map_yml.read_bytes() == original and installed_games(maps) == []


def test_installing_the_old_name_of_a_renamed_game_keeps_both(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    original = map_yml.read_bytes()
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    map_yml.write_bytes(map_yml.read_bytes().replace(b'game_name: "Kremlin",', b"game_name: Friday night,"))
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    assert sorted(g.game_name for g in installed_games(maps)) == ["Friday night", "Kremlin"]
    assert run(maps, "uninstall", "Kremlin").exit_code == 0
    assert run(maps, "uninstall", "Friday night").exit_code == 0
    assert map_yml.read_bytes() == original and installed_games(maps) == []


def test_an_install_killed_before_its_map_yml_entry_leaves_nothing_behind_the_next_one(maps: Path) -> None:
    """A kill between the record and map.yml leaves the files and a record entry that map.yml does not list."""
    original = snapshot(maps)
    map_yml = map_folder(maps) / "map.yml"
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (killed,) = installed_games(maps)
    map_yml.write_bytes(original["world_war_ii_v3/map.yml"])  # as if the map.yml write never happened
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (again,) = installed_games(maps)
    assert again.game_file == killed.game_file, "the leftover was removed, and its name is used again"
    assert run(maps, "uninstall", "Kremlin").exit_code == 0
    assert snapshot(maps) == original


def test_a_leftover_changed_since_is_kept_and_the_new_game_takes_another_file(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    shipped = map_yml.read_bytes()
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (killed,) = installed_games(maps)
    map_yml.write_bytes(shipped)
    killed.game_file.write_bytes(b"the host edited it")
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (again,) = installed_games(maps)
    assert again.game_file != killed.game_file and killed.game_file.read_bytes() == b"the host edited it"


def test_one_maps_bad_record_does_not_hide_the_others(maps: Path) -> None:
    shutil.copytree(MAPS_DIR / "classic_variations", maps / "classic_variations")
    for path in [maps / "classic_variations", *(maps / "classic_variations").rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    (maps / "classic_variations" / RECORD_NAME).write_text(json.dumps({"games": [{"game_name": "X", "file_name": "../x.xml"}]}))
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    listed = run(maps, "installed")
    assert listed.exit_code == 0 and listed.stdout.startswith("world_war_ii_v3\tKremlin\t")
    assert "warning" in listed.stderr and "classic_variations" in listed.stderr and "file_name '../x.xml'" in listed.stderr
    assert run(maps, "uninstall", "Kremlin").exit_code == 0
    assert "file_name '../x.xml'" in refused_in_one_line(run(maps, "uninstall", "X"))


# -- any record at all -------------------------------------------------------------------------------------------

NAME_PARTS = st.sampled_from(["..", ".", "/", "\\", ":", "C:", "victim.txt", "shipped.xml", "a.xml", "a.notes.html", "\x00", "~", "%2e%2e", " "])


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    file_name=st.one_of(st.lists(NAME_PARTS, min_size=1, max_size=6).map("".join), st.text(max_size=20), st.integers(), st.none()),
    notes_file=st.one_of(st.none(), st.lists(NAME_PARTS, min_size=1, max_size=4).map("".join), st.booleans()),
    sha256=st.one_of(st.none(), st.just("0" * 64), st.text(max_size=5)),
)
def test_no_record_makes_uninstall_touch_anything_but_its_own_files(tmp_path: Path, file_name: object, notes_file: object, sha256: object) -> None:
    """Whatever a record says, uninstall refuses it in one line or forgets an entry whose file is gone; the shipped
    game, its map.yml entry and every file outside the games folder stay (here nothing was written by the tool)."""
    with tempfile.TemporaryDirectory(dir=tmp_path) as temporary:
        maps = Path(temporary)
        folder = maps / "amap"
        games = folder / "map" / "games"
        games.mkdir(parents=True)
        (folder / "map.yml").write_text("map_name: amap\ngames:\n- {game_name: Shipped, file_name: shipped.xml}\n")
        for path in (games / "shipped.xml", games / "a.xml", games / "a.notes.html", maps / "victim.txt", folder / "victim.txt"):
            path.write_text("the host's file")
        entry = {"game_name": "Shipped", "file_name": file_name, "notes_file": notes_file, "sha256": sha256, "date": "2026-01-01"}
        (folder / RECORD_NAME).write_text(json.dumps({"games": [entry]}))
        before = snapshot(maps)
        result = CliRunner().invoke(main, ["--maps-dir", str(maps), "uninstall", "Shipped"])
        if result.exit_code == 0:  # a plain name of no file: the entry is forgotten, and the output says nothing went
            assert "removed no file" in result.stdout and "map.yml did not list" in result.stdout
            del before[f"amap/{RECORD_NAME}"]
        else:
            assert result.exit_code == 2 and result.stderr.count("\n") == 1, (result.stdout, result.stderr, result.exception)
        assert snapshot(maps) == before


def test_a_renamed_game_is_replaced_with_force_under_its_new_name(maps: Path) -> None:
    map_yml = map_folder(maps) / "map.yml"
    original = snapshot(maps)
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    map_yml.write_bytes(map_yml.read_bytes().replace(b'game_name: "Kremlin",', b"game_name: Friday night,"))
    renamed = map_yml.read_bytes()
    replaced = run(maps, "apply", str(EXAMPLE), "--install", "--name", "Friday night", "--force")
    assert replaced.exit_code == 0 and "replaced 'Friday night'" in replaced.stdout, replaced.stderr
    assert map_yml.read_bytes() == renamed and [g.game_name for g in installed_games(maps)] == ["Friday night"]
    assert run(maps, "uninstall", "Friday night").exit_code == 0
    assert snapshot(maps) == original


def test_a_game_file_that_cannot_be_removed_is_one_line_and_uninstall_can_finish_later(maps: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As when TripleA holds the file open on Windows, or the games folder is read-only."""
    original = snapshot(maps)
    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    (game,) = installed_games(maps)
    real_unlink = os.unlink

    def held_open(path, *args, **kwargs):
        if Path(path) == game.game_file:
            raise PermissionError(13, "Permission denied")
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", held_open)
    message = refused_in_one_line(run(maps, "uninstall", "Kremlin"))
    assert "cannot remove" in message and str(game.game_file) in message
    # Not as if nothing changed: what is done and what is left.
    assert (
        f"the uninstall of 'Kremlin' is not finished: removed its entry from {map_folder(maps) / 'map.yml'}, and Kremlin.xml, Kremlin.notes.html are left"
        in message
    )
    assert "`kremlin-triplea uninstall Kremlin` finishes it" in message
    assert game.game_file.is_file() and installed_games(maps)[0].listed_as == "", "TripleA no longer lists it; the record still does"
    monkeypatch.setattr(os, "unlink", real_unlink)
    finished = run(maps, "uninstall", "Kremlin")
    assert finished.exit_code == 0 and "map.yml did not list" in finished.stdout
    assert snapshot(maps) == original


@pytest.mark.linux_only
def test_a_file_system_without_locks_is_one_line_and_changes_nothing(maps: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import fcntl

    def no_locks(descriptor: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    before = snapshot(maps)
    message = refused_in_one_line(run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin"))
    assert "cannot lock the map for installing" in message
    assert snapshot(maps) == before


def test_a_games_folder_that_cannot_be_made_is_one_error(tmp_path: Path) -> None:
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.gamefile.install import install_game
    from kremlin_triplea.gamefile.locate import read_map_folder

    folder = tmp_path / "amap"
    folder.mkdir()
    (folder / "map.yml").write_text("map_name: amap\n")
    (folder / "map").write_text("a file where the map's folder goes")
    with pytest.raises(InputError, match="cannot make the map's games folder") as error:
        install_game(read_map_folder(folder), "Kremlin", b"<game/>")
    assert error.value.where == str(folder / "map" / "games")
    assert (folder / "map.yml").read_text() == "map_name: amap\n"


def test_a_replace_failing_half_way_leaves_the_old_game_its_notes_and_record(maps: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.gamefile import install

    assert run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin").exit_code == 0
    before = snapshot(maps)
    real_write = install.write_atomically

    def full_disk(path, data, **kwargs):  # the record, written after the new game and notes, finds the disk full
        if Path(path).name == RECORD_NAME:
            raise InputError("cannot write: No space left on device", where=str(path))
        return real_write(path, data, **kwargs)

    monkeypatch.setattr(install, "write_atomically", full_disk)
    other = EXAMPLE.with_name("kremlin-aa50-1942.toml")  # another game into the same map: new bytes for both files
    result = run(maps, "apply", str(other), "--install", "--name", "Kremlin", "--force")
    assert "No space left on device" in refused_in_one_line(result)
    assert snapshot(maps) == before
    monkeypatch.setattr(install, "write_atomically", real_write)
    assert run(maps, "uninstall", "Kremlin").exit_code == 0, "the game is still the one the record describes"


@pytest.mark.linux_only
def test_an_install_waits_for_another_a_bounded_time_then_says_so(maps: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl

    from kremlin_triplea.gamefile import install, maplock

    monkeypatch.setattr(maplock, "LOCK_WAIT_SECONDS", 0.1)  # the bounded wait, shortened: the message states the bound it waited
    before = snapshot(maps)
    holder = os.open(map_folder(maps) / install.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)  # another install that hangs with the lock
    try:
        message = refused_in_one_line(run(maps, "apply", str(EXAMPLE), "--install", "--name", "Kremlin"))
    finally:
        os.close(holder)
    assert "another install into this map has held its lock for 0.1 s" in message
    before[f"world_war_ii_v3/{install.LOCK_NAME}"] = b""  # the other run's lock file, still its own
    assert snapshot(maps) == before


@pytest.mark.parametrize("had_map_yml", [False, True], ids=["map without map.yml", "map.yml edited"])
def test_a_map_yml_another_program_writes_during_an_install_is_kept_and_our_entry_added_to_it(
    maps: Path, monkeypatch: pytest.MonkeyPatch, had_map_yml: bool
) -> None:
    """TripleA writes the map.yml of a map that has none when it lists it (MapDescriptionYamlGenerator), without our
    lock; a host may edit map.yml. The install adds its entry to what is there when it writes (compare-and-swap)."""
    from kremlin_triplea.gamefile import install
    from kremlin_triplea.gamefile.install import install_game
    from kremlin_triplea.gamefile.locate import map_folder_without_yml, read_map_folder

    map_yml = map_folder(maps) / "map.yml"
    theirs = "# written meanwhile\nmap_name: world_war_ii_v3\ngames:\n- game_name: World War II v3 1941\n  file_name: WW2v3-1941.xml\n"
    if not had_map_yml:
        map_yml.unlink()
    folder = read_map_folder(map_folder(maps)) if had_map_yml else map_folder_without_yml(map_folder(maps))
    real_step = install._record_after_rename  # a step between reading map.yml and writing it

    def written_meanwhile(*args):
        map_yml.write_text(theirs, encoding="utf-8")
        return real_step(*args)

    monkeypatch.setattr(install, "_record_after_rename", written_meanwhile)
    installed = install_game(folder, "Kremlin", b"<game/>")
    after = map_yml.read_text(encoding="utf-8")
    assert after.startswith(theirs), "the other program's map.yml is kept"
    assert after[len(theirs) :] == f'- {{game_name: "Kremlin", file_name: "{installed.game_file.name}"}}\n'
