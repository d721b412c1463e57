"""Write the attachment setters TripleA 1.9 has, read from its jar (issue 44: derive, do not transcribe).

    python3 scripts/derive_engine19_tables.py [JAR] [--out FILE] [--check]

JAR is a TripleA 1.9 jar (default: Debian's, /usr/share/games/triplea/bin/triplea.jar); the table is written to
src/kremlin_triplea/check/tables/triplea19.json (sorted keys: the same jar gives the same bytes). ``--check``
writes nothing and exits 1 when the file differs from what the jar gives.

1.9's ``GameParser.setValues`` sets an option through the public method ``set<Name>(String)`` of the attachment's
class, inherited ones included, and refuses the game when there is none. For each class of the jar's
``games.strategy.triplea.attachments`` package and each of their superclasses up to ``Object``, read by reflection
in 1.9's own JVM: the public ``set<Name>(String)`` methods it declares (``setters``, by suffix) and its superclass
(``parents``).
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JAR = Path("/usr/share/games/triplea/bin/triplea.jar")
TABLES = ROOT / "src" / "kremlin_triplea" / "check" / "tables" / "triplea19.json"
PACKAGE = "games/strategy/triplea/attachments/"


def derive(jar: Path) -> dict:
    import jpype

    jpype.startJVM(jpype.getDefaultJVMPath(), "-Djava.awt.headless=true", classpath=[str(jar)], convertStrings=False)
    from jpype import JClass

    modifier = JClass("java.lang.reflect.Modifier")
    with zipfile.ZipFile(jar) as archive:
        names = sorted(
            n.removesuffix(".class").replace("/", ".")
            for n in archive.namelist()
            if n.startswith(PACKAGE) and n.endswith(".class") and "$" not in n and "/" not in n.removeprefix(PACKAGE)
        )
    setters: dict[str, list[str]] = {}
    parents: dict[str, str] = {}
    for name in names:
        cls = JClass(name).class_
        if cls.isInterface() or not JClass("games.strategy.engine.data.IAttachment").class_.isAssignableFrom(cls):
            continue  # a helper class or interface of the package, not an attachment
        while cls is not None and str(cls.getName()) != "java.lang.Object":
            simple = str(cls.getSimpleName())
            if simple in setters:
                break
            setters[simple] = sorted(
                str(m.getName()).removeprefix("set")
                for m in cls.getDeclaredMethods()
                if str(m.getName()).startswith("set")
                and modifier.isPublic(m.getModifiers())
                and [str(p.getName()) for p in m.getParameterTypes()] == ["java.lang.String"]
            )
            superclass = cls.getSuperclass()
            if superclass is not None and str(superclass.getName()) != "java.lang.Object":
                parents[simple] = str(superclass.getSimpleName())
            cls = superclass
    return {"engine": jar.name, "setters": setters, "parents": parents}


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from derive_engine_tables import derive_main  # the same command line as 2.x's tables

    return derive_main(derive, DEFAULT_JAR, TABLES, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
