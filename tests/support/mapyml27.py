"""TripleA 2.7's own reading of map.yml, for tests that compare ours with it (issue 40).

The engine's jar (../shared/triplea-engine-2.7) reads map.yml with ``MapDescriptionYaml.fromFile`` (SnakeYAML, as
``org.triplea.yaml.YamlReader``), and writes one for a map without it with ``MapDescriptionYaml.generateForMap`` (the
game names read from each XML's ``<info name>`` by its StAX mapper). A JVM is started once, in a child process (JPype
allows one JVM a process, and the tests' own process may need another class path), and asked map by map: one line
of JSON in, one out.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.paths import SHARED

JAR_27 = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
#: The Debian jars the engine's map.yml reader and XML mapper need (README of ../shared/triplea-engine-2.7).
LIBRARIES = ("guava", "snakeyaml", "slf4j-api", "logback-classic", "logback-core", "commons-io", "commons-lang3", "commons-text")

_CHILD = r"""
import json, sys
import jpype
jpype.startJVM(classpath=sys.argv[1:], convertStrings=True)
System = jpype.JClass("java.lang.System")
System.setOut(System.err)  # the engine logs to stdout; this process answers there
Paths = jpype.JClass("java.nio.file.Paths")
Yaml = jpype.JClass("org.triplea.map.description.file.MapDescriptionYaml")

def described(found):
    if not found.isPresent():
        return None
    yml = found.get()
    return {"map_name": yml.getMapName(), "games": [[g.getGameName(), g.getXmlFileName()] for g in yml.getMapGameList()]}

for line in sys.stdin:
    request = json.loads(line)
    path = Paths.get(request["path"])
    try:
        answer = described(Yaml.fromFile(path) if request["how"] == "read" else Yaml.generateForMap(path))
    except jpype.JException as error:
        answer = {"error": str(error)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


class TripleaMapYml:
    """One JVM with TripleA 2.7's classes, reading map.yml files as TripleA lists maps."""

    def __init__(self) -> None:
        classpath = [str(JAR_27), *(f"/usr/share/java/{name}.jar" for name in LIBRARIES)]
        missing = [p for p in classpath if not Path(p).is_file()]
        assert not missing, f"TripleA 2.7's map.yml reader needs {missing} (scripts/test installs the Debian packages)"
        self._child = subprocess.Popen([sys.executable, "-c", _CHILD, *classpath], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def _ask(self, how: str, path: Path) -> Any:
        assert self._child.stdin is not None and self._child.stdout is not None
        self._child.stdin.write(json.dumps({"how": how, "path": str(path)}) + "\n")
        self._child.stdin.flush()
        line = self._child.stdout.readline()
        assert line, f"TripleA's map.yml reader stopped (exit {self._child.poll()})"
        return json.loads(line)

    def read(self, map_yml: Path) -> dict | None:
        """``{"map_name", "games": [[game_name, file_name]...]}`` as TripleA reads ``map_yml``; None if it refuses the file
        (then it lists no game of that map)."""
        return self._ask("read", map_yml)

    def generate(self, map_folder: Path) -> dict | None:
        """The map.yml TripleA writes into ``map_folder`` (which has none) and then reads, as when it first lists the map."""
        return self._ask("generate", map_folder)

    def close(self) -> None:
        if self._child.stdin is not None:
            self._child.stdin.close()
        self._child.wait(timeout=30)
