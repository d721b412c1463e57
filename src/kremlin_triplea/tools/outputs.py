"""A finished draft's outputs, all or none: the game file, its savegame and the install (apply, the terminal draft, the draft room).

Everything that can be refused is refused before a file is written; the files are then written through
:func:`~kremlin_triplea.gamefile.safe.all_or_none`, the install last, so a failure puts every file back.
Writing a game includes its notes: the writers here add them (once), so no caller has to remember to.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from kremlin_triplea.errors import InputError

if TYPE_CHECKING:
    from kremlin_triplea.draft.run import DraftResult
    from kremlin_triplea.gamerules.house import HouseResult
    from kremlin_triplea.rules.profile import Profile


def apply_file(path: Path, *, maps_dir: Path | str | None = None, profile: Profile | None = None) -> DraftResult:
    """A Kremlin draft file applied as ``apply`` applies it (read back from disk: what the players' session saved).

    Through ``apply_draft``, which finishes its own session in place: ``Session.result`` would replay the steps on a
    copy first, for a session nobody keeps."""
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.session import apply_draft

    return apply_draft(read_draft(path), maps_dir=maps_dir, profile=profile)


def finish_draft(
    path: Path,
    output: Path,
    *,
    maps_dir: Path | str | None = None,
    overwrite: bool = False,
    install: bool = False,
    result: DraftResult | None = None,
    profile: Profile | None = None,
) -> list[str]:
    """Write the game of the finished draft file at ``path`` (or its ``result``, applied already) to ``output``, and install
    it with ``install``, as ``apply -o --install`` does: all or none. Its summary, then what was written."""
    from kremlin_triplea.gamefile.locate import default_maps_dir

    result = result or apply_file(path, maps_dir=maps_dir, profile=profile)
    written = write_apply_outputs(
        result,
        maps_dir=default_maps_dir(Path(maps_dir) if maps_dir is not None else None),
        output=output,
        savegame=None,
        install=install,
        install_name=None,
        force=overwrite,
        triplea=None,
        inputs=(path,),
    )
    return [*result.summary(), *written]


def written_game(result: DraftResult | HouseResult, where: Path | str | None = None) -> bytes:
    """The game as every writer writes it: with its notes and name (added once), checked as ``apply`` checks it."""
    from kremlin_triplea.check.gate import check_written_game
    from kremlin_triplea.report.notes import add_notes

    data = add_notes(result).game.to_bytes()
    # The game made is checked before any copy of it is kept (file, install, savegame or download): TripleA would refuse it.
    check_written_game(data, where or result.game.source)
    return data


def write_apply_outputs(
    result: DraftResult | HouseResult,
    *,
    maps_dir: Path,
    output: Path | None,
    savegame: Path | None,
    install: bool,
    install_name: str | None,
    force: bool,
    triplea: Path | None,
    inputs: tuple[Path, ...],
    save_name: str | None = None,
) -> list[str]:
    """Write the game to ``output``, its savegame to ``savegame`` and, with ``install``, install it (under
    ``install_name``, else the default name), all or none; what was written, one line each. ``save_name`` names
    the savegame's game otherwise than the game (``--base-name``: the base game's name, which a lobby bot lists).

    Everything that can be refused is refused before a file is written: the outputs and the install are checked
    and the savegame is made and loaded back in a scratch folder first. The files are then written through
    :func:`~kremlin_triplea.gamefile.safe.all_or_none`, the install last: if it fails, the files are put back.
    """
    from kremlin_triplea.gamefile.safe import all_or_none, check_output, scratch_folder, write_atomically
    from kremlin_triplea.report.notes import add_notes

    game = result.game
    add_notes(result)  # the game's notes and name first: an install's name replaces that name, and is written too
    name = _name_for_install(result, install_name, maps_dir, force) if install else None
    data = written_game(result, output)  # what is checked is what is written
    for path in (output, savegame):
        if path is not None:
            check_output(path, overwrite=force, protect=inputs)
    if output is not None and savegame is not None and same_file(output, savegame):
        raise InputError(f"--savegame names the game's own output file ({output}); name another", where=str(savegame))
    save_bytes, engine = b"", ""
    if savegame is not None:
        from kremlin_triplea.engine.savegame import checked_savegame

        with scratch_folder("apply") as folder:
            game_xml = write_atomically(folder / "game.xml", data)
            if save_name is not None:
                from kremlin_triplea.game import load
                from kremlin_triplea.model.changes import SetGameName

                renamed = load(game_xml)
                renamed.board.push(SetGameName(save_name))
                game_xml = renamed.save(folder / "renamed.xml")
            save_bytes, engine = checked_savegame(game_xml, savegame, triplea=triplea)  # the bytes checked
    lines = []
    with all_or_none() as outputs:
        if output is not None:
            lines.append(f"wrote {outputs.write(output, data, overwrite=force, protect=(game.source, *inputs))}")
        if savegame is not None:
            written = outputs.write(savegame, save_bytes, overwrite=force, protect=inputs)
            named = f", named {save_name!r} as its base game" if save_name is not None else ""
            lines.append(f"wrote {written} with {engine}{named}; it loads back as the game was written")
        if name is not None:
            installed = game.install(maps_dir, name=name, force=force, protect=inputs)
            verb = "replaced" if installed.replaced else "installed"
            lines.append(f"{verb} {installed.game_name!r}: {installed.game_file} (notes {installed.notes_file}), listed in {installed.map_yml}")
    return lines


def _name_for_install(result: DraftResult | HouseResult, wanted: str | None, maps_dir: Path, force: bool) -> str:
    """The name the game is installed under, checked now; the game takes it, so its file and savegame say it too."""
    from kremlin_triplea.gamefile.install import check_install
    from kremlin_triplea.model.changes import SetGameName
    from kremlin_triplea.report.notes import install_name as default_install_name

    name = wanted if wanted is not None else default_install_name(result)
    name = check_install(result.game.map_folder(maps_dir), name, force=force, maps_dir=maps_dir)
    if name != result.game.board.game_name:
        result.game.board.push(SetGameName(name))
    return name


def same_file(first: Path, second: Path) -> bool:
    """Whether two output names lead to one file (the same path, through links, or hard links to one file)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.normcase(os.path.realpath(first)) == os.path.normcase(os.path.realpath(second))
