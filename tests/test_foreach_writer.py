"""The writer on games whose territoryAttachments a ``foreach`` template makes (issue 46: an option-10 takeover
wrote a second territoryAttachment on such a territory, and TripleA keeps only the last, losing the template's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.check.validate import added_problems, validate_tree
from kremlin_triplea.check.variables import expand
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.document import XmlDocument
from support.paths import CORPUS_DIR

#: The corpus games where a foreach territoryAttachment is the one TripleA keeps for some territory (grep 'foreach='
#: in the corpus; Battle_For_Arda.xml's templates are each followed by the territory's own attachment). The second
#: takes ~7 s to validate: the full suite's.
TEMPLATED = [
    pytest.param(CORPUS_DIR / "Invasion_USA.xml", id="Invasion_USA.xml"),
    pytest.param(CORPUS_DIR / "imperialism_1974_board_game.xml", id="imperialism_1974_board_game.xml", marks=pytest.mark.slow),
]


def territory_attachments(root) -> dict[str, list[list[tuple[str, str]]]]:
    """Each territory's territoryAttachments as TripleA 2.7 makes them (variables and foreach expanded)."""
    found: dict[str, list] = {}
    for attachment in expand(root).attachments:
        if attachment.get("type") == "territory" and attachment.get("name") == "territoryAttachment":
            found.setdefault(attachment.get("attachTo"), []).append([(o.get("name"), o.get("value")) for o in attachment.iterfind("option")])
    return found


def templated_territories(game: Game) -> list[str]:
    """One territory of each foreach territoryAttachment template, the one TripleA keeps for it (the last made)."""
    last: dict[str, int] = {}
    for attachment in expand(game.document.root).attachments:
        if attachment.get("name") == "territoryAttachment" and "@" not in attachment.get("attachTo", ""):
            last[attachment.get("attachTo")] = attachment.sourceline
    lines = {a.sourceline for a in game.document.root.iterfind("attachmentList/attachment") if a.get("foreach") and a.get("name") == "territoryAttachment"}
    picked: dict[int, str] = {}
    for territory, line in last.items():
        if line in lines and territory in game.board.graph:
            picked.setdefault(line, territory)
    return list(picked.values())


@pytest.mark.parametrize("path", TEMPLATED)
def test_a_new_owner_on_a_templated_territory_keeps_one_territory_attachment_with_the_template_s_options(path: Path) -> None:
    game = load(path)
    before = territory_attachments(game.document.root)
    board = game.board.copy()
    changed = []
    for territory in templated_territories(game):
        place = board.node(territory)
        if place["water"] or place["owner"] is None:  # a neutral's original owner is its new owner, as in TripleA
            continue
        place["owner"] = next(p for p in game.catalog.players if p != place["owner"])
        changed.append(territory)
    assert changed
    written = Game(XmlDocument(game.to_bytes(board), source=path.name))
    after = territory_attachments(written.document.root)
    for territory, attachments in before.items():
        if territory not in changed:
            assert after[territory] == attachments, territory
            continue
        options = dict(attachments[-1])  # the board read as the engine makes the attachment (it read no template)
        assert game.board.node(territory)["production"] == int(options.get("production", 0))
        assert game.board.node(territory)["capital"] == options.get("capital")
        assert len(after[territory]) == len(attachments), territory  # no second one
        kept = [o for o in after[territory][-1] if o[0] != "originalOwner"]
        assert kept == [o for o in attachments[-1] if o[0] != "originalOwner"], territory
        assert written.board.node(territory)["owner"] == board.node(territory)["owner"]
        assert written.board.node(territory)["original_owner"] == board.node(territory)["original_owner"]
    new = added_problems(validate_tree(game.document.root, path.name), validate_tree(written.document.root, path.name))
    assert new == []
