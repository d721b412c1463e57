"""TripleA 2.7's verdict on many game files, in one JVM (issue 44: validate is judged against the engine).

    python3 scripts/judge_with_triplea27.py [--jar JAR] < paths.txt    # one path a line; one JSON answer a line, after 'verdict: '

An answer is ``{"verdict": V, "why": TEXT}`` with V

- ``refuses``: 2.7 does not parse the file (``GameParser.parse`` is empty; ``why`` is the error it logged), or the
  2.x game selector's ``GameParsingValidation`` objects (``why`` is its first objection);
- ``misreads``: 2.7 parses it, but a game property holds a value its reader cannot cast (``Properties``' getters,
  each called on the parsed game: a ``Low Luck="yes"`` kept as text throws ClassCastException in play);
- ``reads``.

The JVM runs in this process through JPype, with the classpath of ../shared/triplea-engine-2.7's README.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from kremlin_triplea.engine.jvm_bridge import triplea2_classpath  # noqa: E402

#: What starts an answer's line (the engine may print to the same stream).
ANSWER = "verdict: "
DEFAULT_JAR = ROOT.parent / "shared" / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"


class Judge:
    def __init__(self, jar: Path) -> None:
        import jpype

        if not jpype.isJVMStarted():
            jpype.startJVM(
                jpype.getDefaultJVMPath(),
                "-Djava.awt.headless=true",
                "-Dtriplea.headless=true",
                "-Duser.home=/tmp/kremlin-judge27-home",
                "-Djava.util.prefs.userRoot=/tmp/kremlin-judge27-home/.java",
                classpath=[str(p) for p in triplea2_classpath(jar)],
                convertStrings=False,
            )
        from jpype import JClass

        self.File = JClass("java.io.File")
        self.GameParser = JClass("games.strategy.engine.data.gameparser.GameParser")
        self.Validation = JClass("games.strategy.engine.data.gameparser.GameParsingValidation")
        factory = JClass("org.slf4j.LoggerFactory")
        self.appender = JClass("ch.qos.logback.core.read.ListAppender")()
        self.appender.setContext(factory.getILoggerFactory())
        self.appender.start()
        root = factory.getLogger("ROOT")
        for name in list(root.iteratorForAppenders()):
            root.detachAppender(name)  # the console's: the engine's log would fill the answers' stream
        root.addAppender(self.appender)
        self.error = JClass("ch.qos.logback.classic.Level").ERROR
        properties = JClass("games.strategy.triplea.Properties").class_
        self.getters = [
            m for m in properties.getDeclaredMethods() if len(m.getParameterTypes()) == 1 and str(m.getParameterTypes()[0].getSimpleName()) == "GameProperties"
        ]

    def judge(self, path: str) -> dict[str, str]:
        from jpype import JException

        self.appender.list.clear()
        try:
            parsed = self.GameParser.parse(self.File(path).toPath(), False)
        except JException as error:
            return {"verdict": "refuses", "why": f"{error.getClass().getSimpleName()}: {error.getMessage()}"}
        if not parsed.isPresent():
            logged = [str(e.getFormattedMessage()) for e in self.appender.list if e.getLevel().isGreaterOrEqual(self.error)]
            return {"verdict": "refuses", "why": logged[-1] if logged else "not parsed"}
        data = parsed.get()
        try:
            objections = [str(o) for o in self.Validation(data).validate()]
        except JException as error:
            return {"verdict": "refuses", "why": f"GameParsingValidation: {error.getClass().getSimpleName()}: {error.getMessage()}"}
        if objections:
            return {"verdict": "refuses", "why": objections[0]}
        for getter in self.getters:
            try:
                getter.invoke(None, data.getProperties())
            except JException as error:
                cause = error.getCause() if error.getCause() is not None else error
                return {"verdict": "misreads", "why": f"Properties.{getter.getName()}: {cause.getClass().getSimpleName()}: {cause.getMessage()}"}
        return {"verdict": "reads", "why": ""}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jar", type=Path, default=DEFAULT_JAR)
    args = parser.parse_args()
    judge = Judge(args.jar)
    for line in sys.stdin:
        path = line.rstrip("\n")
        if path:
            print(ANSWER + json.dumps(judge.judge(path), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
