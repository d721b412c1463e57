"""What every command module shares: the maps folder the group was given, ``--profile``, and number options."""

from __future__ import annotations

import math
from pathlib import Path

import click
from click.core import ParameterSource

from kremlin_triplea.errors import InputError, KremlinError
from kremlin_triplea.gamefile.locate import default_maps_dir


def one_line(message: str) -> str:
    """``message`` on one line: a control character (a newline in a file name or in a library's message) is shown
    escaped, as Python writes it, so the message stays one line that names exactly what was given."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def warn(message: object) -> None:
    """A warning on stderr, on one line like an error."""
    click.echo(f"kremlin-triplea: warning: {one_line(str(message))}", err=True)


class FiniteFloatRange(click.FloatRange):
    """A number within bounds, and a number at all: click's FloatRange lets ``nan`` through (every comparison with it
    is false), and ``--scale nan`` reached cairo as a size it cannot round."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}", param, ctx)
        return number


class NativePath(click.Path):
    """A path as click checks it, written with backslashes too, as on Windows (issue 32: ``drafts\\ann.toml``)."""

    def convert(self, value, param, ctx):
        from kremlin_triplea.gamefile.locate import native_path

        try:
            return super().convert(native_path(value) if isinstance(value, str) else value, param, ctx)
        except click.BadParameter as error:
            # A value from the environment is the variable's: say so, not the option's name (`--maps-dir`).
            variable = getattr(param, "envvar", None)
            if ctx is not None and param is not None and isinstance(variable, str) and ctx.meta.get(_source_key(param)) == ParameterSource.ENVIRONMENT:
                error.param_hint = f"${variable}"
            raise


class EnvironmentOption(click.Option):
    """An option that may come from an environment variable, remembering where its value came from while it is
    converted (click says so only after): an error in a value from the environment then names the variable."""

    def consume_value(self, ctx, opts):
        value, source = super().consume_value(ctx, opts)
        ctx.meta[_source_key(self)] = source
        return value, source


def _source_key(param: click.Parameter) -> str:
    return f"kremlin_triplea.source.{param.name}"


def maps_dir(ctx: click.Context) -> Path:
    """The maps folder: ``--maps-dir``, else ``$KREMLIN_TRIPLEA_MAPS``, else TripleA's own."""
    root = ctx.find_root()
    return default_maps_dir((root.obj or {}).get("maps_dir"))


def profile_option(command):
    """``--profile FILE`` for a command that reads a game for rules: the game is read with that map profile,
    passed to the command as ``profile`` (a loaded Profile, or None) for it to hand to what reads the game.

    Without it, the lookup of ``rules.profile.profile_for_game`` applies. A game
    no profile is found for fails with the options that need one and the exact
    ``profile new`` command to start it.
    """
    import functools

    @click.option(
        "--profile",
        "profile_path",
        type=NativePath(path_type=Path, dir_okay=False, exists=True),
        help="Read the game with this map profile (default: the draft's `profile`, then profiles/<map>.toml beside the maps folder, the map's own kremlin-profile.toml, the built-in one).",
    )
    @functools.wraps(command)
    def with_profile(*args, profile_path=None, **kwargs):
        from kremlin_triplea.rules.profile import NoProfileError, load_profile

        try:
            return command(*args, profile=load_profile(profile_path) if profile_path is not None else None, **kwargs)
        except NoProfileError as error:
            raise InputError(_no_profile_message(error, kwargs.get("draft") or kwargs.get("resume") or kwargs.get("draft_file")), where=error.where) from None

    return with_profile


def _no_profile_message(error, draft_path) -> str:
    """The lookup's message, with the options of the draft's ruleset that need names the game lacks."""
    from kremlin_triplea.tools.profile_check import options_needing_profile

    message = error.message
    try:
        from kremlin_triplea.draft.rulesets import load_named_ruleset
        from kremlin_triplea.draft.run import read_draft

        ruleset_id = read_draft(draft_path).ruleset if draft_path is not None else None
        needs = options_needing_profile(error.game, load_named_ruleset(ruleset_id)) if ruleset_id else []
    except KremlinError:
        needs = []
    if needs:
        message += f". Without one, these need names the game does not have: {'; '.join(needs)}"
    return message
