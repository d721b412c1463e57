"""Parse untrusted XML without ever touching the network or expanding entities.

TripleA game files never declare entities, so a file that does is refused
outright; that closes entity-expansion bombs and external-entity reads
without relying on parser limits.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from kremlin_triplea.errors import InputError

#: The largest published game file we know of is 3.3 MB; 64 MiB leaves room
#: for any real map and refuses a file that could only be an attack or a mistake.
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_bytes(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, refusing missing, unreadable and oversized files."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InputError("no such file", where=str(path)) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", where=str(path)) from None
    if path.is_dir():
        raise InputError("is a folder, not a game file", where=str(path))
    if size > max_bytes:
        raise InputError(
            f"file is {size:,} bytes; the limit for a game file is {max_bytes:,} bytes",
            where=str(path),
        )
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", where=str(path)) from None


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        strip_cdata=False,
        remove_blank_text=False,
        remove_comments=False,
        remove_pis=False,
    )


def parse_xml(data: bytes, *, where: str) -> etree._ElementTree:
    """Parse ``data`` safely; ``where`` names the source in error messages."""
    try:
        tree = etree.ElementTree(etree.fromstring(data, _parser()))
    except etree.XMLSyntaxError as error:
        line = error.lineno or error.position[0]
        message = error.msg or str(error)
        raise InputError(f"malformed XML: {message}", where=f"{where}:{line}") from None
    internal = tree.docinfo.internalDTD
    if internal is not None and any(True for _ in internal.iterentities()):
        raise InputError(
            "declares XML entities; TripleA game files never do, and they are refused "
            "because they can expand without limit",
            where=where,
        )
    return tree
