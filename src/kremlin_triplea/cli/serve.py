"""``kremlin-triplea serve DRAFT.toml``: the draft room in the browser (issue 18)."""

from __future__ import annotations

from pathlib import Path

import click

from kremlin_triplea.cli.common import NativePath


@click.command("serve")
@click.argument("draft", type=NativePath(path_type=Path, dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8050, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--ruleset", help="A new draft: the Kremlin ruleset (e.g. kremlin-aa50).")
@click.option("--game", "game_spec", help="A new draft: the game (MAP/GAME or a path).")
@click.option("--first", help="A new draft: the side making the first pick.")
@click.option("--picks-per-side", type=int, help="A new draft: picks per side (default: the ruleset's).")
@click.option("--player", "players", multiple=True, metavar="SIDE=NAME", help="The player's name for a side (kept for the room; noted in each pick).")
@click.option(
    "--house-rules",
    "house_sets",
    multiple=True,
    metavar="SET",
    help="A new draft: a house-rule set (e.g. house-revised); the players choose its advantages after the bid.",
)
@click.option("--switch", "switches", multiple=True, metavar="NAME=on|off", help="A new draft: a house-rule set's switch, e.g. hr3_gibraltar=off.")
@click.option(
    "--profile",
    "profile_path",
    type=NativePath(path_type=Path, dir_okay=False, exists=True),
    help="Read the game with this map profile; a new draft names it (relative to the draft), so that it is served again with it.",
)
@click.option(
    "--forwarded-allow-ips",
    metavar="ADDRESSES",
    help="Trust X-Forwarded-For from these proxies (comma-separated addresses or networks), e.g. 127.0.0.1 behind a local "
    "reverse proxy that sets it. Default: none (behind ssh -R every visitor would name its own address).",
)
@click.pass_context
def serve_command(
    ctx: click.Context,
    draft: Path,
    host: str,
    port: int,
    ruleset: str | None,
    game_spec: str | None,
    first: str | None,
    picks_per_side: int | None,
    players: tuple[str, ...],
    house_sets: tuple[str, ...],
    switches: tuple[str, ...],
    profile_path: Path | None,
    forwarded_allow_ips: str | None,
) -> None:
    """Serve the draft room for DRAFT (a new or unfinished draft): one link per player, one for spectators."""
    from kremlin_triplea.web.room import ServeLock

    proxies = _proxies(forwarded_allow_ips)
    # One server per draft file, held from before a new draft is written until the server stops.
    with ServeLock(draft) as lock:
        if draft.exists():  # the file itself, whatever name reaches it (a link): before its room file is touched
            lock.hold_draft()
        room = _open_room(ctx, draft, ruleset, game_spec, first, picks_per_side, players, house_sets, switches, profile_path)
        lock.hold_draft()
        room.written.append(lambda: _hold_quietly(lock))
        _run_server(room, draft, host, port, lock, proxies)
    if room.halted is not None:
        from kremlin_triplea.errors import InputError

        raise InputError(room.halted)


def _hold_quietly(lock) -> None:
    """The draft file as the room has just written it, locked (a failure keeps the lock on the file as it was)."""
    from kremlin_triplea.errors import KremlinError

    try:
        lock.hold_draft()
    except KremlinError:
        pass


def _open_room(
    ctx: click.Context,
    draft: Path,
    ruleset: str | None,
    game_spec: str | None,
    first: str | None,
    picks_per_side: int | None,
    players: tuple[str, ...],
    house_sets: tuple[str, ...],
    switches: tuple[str, ...],
    profile_path: Path | None,
):
    """The room for ``draft``: the draft opened, or first made from the options."""

    from kremlin_triplea.errors import InputError, KremlinError, UnknownNameError
    from kremlin_triplea.web.room import Room, checked_draft

    maps_dir = ctx.obj.get("maps_dir")
    names = {}
    for given in players:
        side, equals, name = given.partition("=")
        if not equals or not side.strip() or not name.strip():
            raise InputError(f"--player {given}: write SIDE=NAME, e.g. --player Axis=Ann")
        names[side.strip()] = name.strip()
    if not draft.exists():
        if not (ruleset and game_spec and first):
            raise InputError(f"{draft}: no such draft; to start one give --ruleset, --game and --first")
        from kremlin_triplea.draft.rulesets import load_named_ruleset

        def beside_draft(path: Path) -> str:
            return _named_from(draft, path)

        # A mistake inside the ruleset file keeps its own file and line; only a name that finds no file is the option's.
        rules = load_named_ruleset(ruleset, where="--ruleset")
        own_file = Path(ruleset).suffix == ".toml" and Path(ruleset).is_file()
        data = {
            "ruleset": beside_draft(Path(ruleset)) if own_file else rules.id,
            "game": game_spec,
            "first": first,
            "picks_per_side": picks_per_side if picks_per_side is not None else rules.picks.default,
            "pick": [],
        }
        if profile_path is not None:
            data["profile"] = beside_draft(profile_path)
        if house_sets:
            data["house_rules"] = list(house_sets)
            try:
                tables = _house_switches(house_sets, switches)
            except UnknownNameError as error:
                error.where = "--house-rules" if error.kind == "ruleset" else error.where
                raise
            if tables:
                data["house_rule_choices"] = tables
        elif switches:
            raise InputError("--switch: for a set given with --house-rules")
        try:
            session = checked_draft(draft, data, maps_dir)
        except KremlinError as error:
            # The draft is made from the options: a wrong value is the option's, not a line of a file not yet written.
            for key, option in (("game", "--game"), ("first", "--first"), ("picks_per_side", "--picks-per-side"), ("house_rules", "--house-rules")):
                if error.where is not None and error.where.startswith(f"{draft}: {key}"):
                    error.where = option + error.where[len(f"{draft}: {key}") :]
            if error.where == str(draft):  # a rule about the draft as a whole: its message names the option's key
                error.where = None
            raise
        session.save(overwrite=False)  # a write that fails names the file (not taken for a rule about the options)
        click.echo(f"started the draft {draft}")
    elif ruleset or game_spec or first or picks_per_side is not None or house_sets or switches:
        raise InputError(f"{draft}: the draft exists; --ruleset/--game/--first/--picks-per-side/--house-rules/--switch only start a new one")
    from kremlin_triplea.rules.profile import load_profile

    # A new draft records --profile as its `profile`; a draft resumed with --profile is read with it all the same.
    return Room(draft, maps_dir, names, profile=load_profile(profile_path) if profile_path is not None else None)


def _run_server(room, draft: Path, host: str, port: int, lock, proxies: str | None = None) -> None:
    """Listen, print the links, serve until Ctrl-C."""
    import os

    import uvicorn

    from kremlin_triplea.web.app import connection_ceiling, create_app, room_server
    from kremlin_triplea.web.room import SPECTATOR

    local = host in ("127.0.0.1", "localhost", "::1")
    everywhere = host in ("0.0.0.0", "::")
    shown_host = "localhost" if local else _machine_name() if everywhere else host
    socket = _bound_socket(host, port)
    port = socket.getsockname()[1]
    base = f"http://{shown_host}:{port}"
    lock.say(f"process {os.getpid()} at {base}")
    for side in room.sides:
        player = room.session.players.get(side)
        click.echo(f"{side}: {base}/room/{room.keys[side]}" + (f"  ({player})" if player else ""))
    click.echo(f"spectators: {base}/room/{room.keys[SPECTATOR]}")
    if everywhere:
        click.echo(
            f"Listening on every interface, port {port}: if {shown_host} is not the name the players reach this machine by, "
            "put its address (as they reach it) in place of it in the links."
        )
    if local:
        click.echo(
            f"Only this machine can open these links. To share them, run with --host 0.0.0.0 (and open port {port} "
            "as you do for TripleA) and send each player their link with this machine's address."
        )
    click.echo(f"The draft file {draft} is saved after every accepted action; stop with Ctrl-C and serve it again to resume.", nl=True)
    server: uvicorn.Server | None = None
    ceiling = connection_ceiling()  # the spectators' event streams may hold only their share of it
    app = create_app(room, stopping=lambda: server is not None and server.should_exit, max_connections=ceiling)
    server = room_server(app, max_connections=ceiling, forwarded_allow_ips=proxies, watch=room.watch)
    try:
        server.run(sockets=[socket])
    except KeyboardInterrupt:  # uvicorn stops gracefully, then passes Ctrl-C on
        pass
    if room.halted is None:
        click.echo(f"stopped; {draft} holds every accepted action: serve it again to resume.")


def _proxies(given: str | None) -> str | None:
    """``--forwarded-allow-ips`` checked: each an address or a network (``*``: any, for a proxy that is the only way in)."""
    import ipaddress

    from kremlin_triplea.errors import InputError

    if given is None:
        return None
    parts = [part.strip() for part in given.split(",") if part.strip()]
    for part in parts:
        if part == "*":
            continue
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise InputError(f"--forwarded-allow-ips {given}: {part!r} is not an address or a network (e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return ",".join(parts) or None


def _house_switches(sets: tuple[str, ...], switches: tuple[str, ...]) -> dict[str, dict[str, bool]]:
    """``--switch NAME=on|off`` as each set's ``[house_rule_choices.<set>]`` table (a switch goes to every set that has it)."""
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.rules.house_rules import load_named_house_set

    tables: dict[str, dict[str, bool]] = {}
    known = {set_id: load_named_house_set(set_id).choices for set_id in sets}
    for given in switches:
        name, equals, value = (part.strip() for part in given.partition("="))
        if not equals or value not in ("on", "off"):
            raise InputError(f"--switch {given}: write NAME=on or NAME=off")
        owners = [set_id for set_id, choices in known.items() if name in choices]
        if not owners:
            raise InputError(f"--switch {name}: no such switch in {', '.join(sets)} (they have {', '.join(k for c in known.values() for k in c)})")
        for set_id in owners:
            tables.setdefault(set_id, {})[name] = value == "on"
    return tables


def _named_from(draft: Path, path: Path) -> str:
    """A file the draft names: relative to the draft (as a host writing the draft by hand would name it), or its
    absolute path where none leads there from the draft (on Windows, a file on another drive: relpath raises ValueError)."""
    import os

    try:
        return Path(os.path.relpath(path.resolve(), draft.resolve().parent)).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def _machine_name() -> str:
    import socket

    name = socket.getfqdn()
    return name if name and not name.startswith("localhost") else socket.gethostname()


#: Winsock's SO_EXCLUSIVEADDRUSE (``~SO_REUSEADDR``); Python names it only on Windows.
_SO_EXCLUSIVEADDRUSE = -5


def _listen_options(windows: bool) -> list[tuple[int, int, int]]:
    """The socket options for the room's port: never one that lets two servers share it.

    Elsewhere SO_REUSEADDR only lets a restarted server take its port back from connections closing
    (TIME_WAIT); a port another socket listens on stays refused. On Windows it would let a second server
    bind the port a first one listens on, and the connections go to either: there the port is claimed
    exclusively instead (Microsoft's "Using SO_REUSEADDR and SO_EXCLUSIVEADDRUSE"; a restarted server may
    then find the port taken until the old server's connections have ended, and says so).
    """
    import socket

    if windows:
        return [(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", _SO_EXCLUSIVEADDRUSE), 1)]
    return [(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)]


def _bound_socket(host: str, port: int):
    import os
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    for level, option, value in _listen_options(os.name == "nt"):
        sock.setsockopt(level, option, value)
    try:
        sock.bind((host, port))
    except OSError as error:
        from kremlin_triplea.errors import InputError

        raise InputError(f"--host {host} --port {port}: cannot listen there ({error.strerror})") from None
    sock.listen(1024)  # many spectators opening the room at once wait in the queue, not for a SYN retry
    sock.set_inheritable(True)
    return sock
