"""Packs the top-level ``maps/`` and ``rulesets/`` into the wheel as ``kremlin_triplea/data/{maps,rulesets}``.

The data files live once, at the top of the checkout where map makers edit them. They used to reach the package
through git symlinks, which Git for Windows checks out as small text files by default: a wheel built there carried
no ruleset at all. Copying real files at build time works from any checkout (and from the sdist, see MANIFEST.in).
Everything else about the package is declared in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The folders copied, relative to this file; ``rules/datafiles.py`` looks for them under ``kremlin_triplea/data``.
DATA_FOLDERS = ("maps", "rulesets")
#: What a data folder holds: rulesets and profiles (TOML), the evidence `profile new` ships with (maps/evidence, JSON).
DATA_SUFFIXES = (".toml", ".json")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        root = Path(__file__).resolve().parent
        for folder in DATA_FOLDERS:
            sources = sorted(p for p in (root / folder).rglob("*") if p.suffix in DATA_SUFFIXES and p.is_file())
            if not any(p.suffix == ".toml" for p in sources):
                raise SystemExit(f"setup.py: {root / folder} holds no .toml file; the package would ship without its {folder}")
            for source in sources:
                target = Path(self.build_lib) / "kremlin_triplea" / "data" / folder / source.relative_to(root / folder)
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildWithData})
