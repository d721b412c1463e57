"""What each accepted action of the room said, kept by the action's key (issue 43).

A page's script gives every form it sends a key of its own (``ACTION_FIELD``), kept when the same answer is sent
again (a retry after the server or the line was down). The room then:

- confirms an action on the page that made it: the redirect names the key (``/room/KEY?done=ACTION``), so the
  page drawn for that address says what the action did, not the first page drawn for that side (the sending page's
  own live refresh, another tab or another device took it: issue 43, 6 of 18 actions);
- applies an action once: a key already applied is answered with the same confirmation, not applied again (the form
  sent again would otherwise be refused as stale, or, worse, be a second pick).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

#: The form field carrying an action's key (the page's script fills it when the form is sent).
ACTION_FIELD = "action_key"
#: The query parameter of the page that confirms an action.
DONE_PARAMETER = "done"
#: The actions remembered: far more than a draft makes (about 30), so a retry is always recognized.
KEPT_ACTIONS = 512
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


class Actions:
    """The accepted actions by key: which side made each and what it said. Shared by the server's worker threads."""

    def __init__(self, kept: int = KEPT_ACTIONS) -> None:
        self.kept = kept
        self._done: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key_of(form: dict[str, str]) -> str | None:
        """The action's key, taken out of ``form`` (the room's actions never see it); None when the form has none
        or one no script of ours writes (it is then an action without a key, confirmed as before)."""
        key = form.pop(ACTION_FIELD, "")
        return key if _KEY.fullmatch(key) else None

    def record(self, key: str, role: str, said: str) -> None:
        with self._lock:
            self._done[key] = (role, said)
            self._done.move_to_end(key)
            while len(self._done) > self.kept:
                self._done.popitem(last=False)

    def done(self, key: str | None, role: str) -> str | None:
        """What the action ``key`` of ``role`` said when it was applied, or None if it was not (or by another side)."""
        if key is None:
            return None
        with self._lock:
            found = self._done.get(key)
        return found[1] if found is not None and found[0] == role else None


def confirmation(key: str, action: str, option: str = "") -> str:
    """Where an action sent with a key redirects: the page that says what it did (with the option the page had in
    hand: an undo answered while a pick form is half filled comes back to that form)."""
    kept = f"&option={option}" if option.isdecimal() and len(option) < 4 else ""
    return f"/room/{key}?{DONE_PARAMETER}={action}{kept}"
