"""The replay package imports one way: ``__init__.py`` re-exports ``state.py``, and no module
of the package imports the package itself back (``from . import x``, ``import replay``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "replay"


def imports_of_the_package(source: str) -> list[str]:
    """The statements of ``source`` that import the ``replay`` package itself (not one of
    its modules by name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
            found.append(f"from . import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "replay":
            found.append(f"from replay import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Import) and any(a.name == "replay" for a in node.names):
            found.append("import replay")
    return found


def test_no_module_of_replay_imports_the_package_back():
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name != "__init__.py":
            assert imports_of_the_package(path.read_text(encoding="utf-8")) == [], path.name


def test_the_check_sees_an_import_of_the_package():
    # near miss: the form state.py used to have
    assert imports_of_the_package("from . import claims, room\n") == ["from . import claims, room"]
    assert imports_of_the_package("from replay import Replayer\nimport replay\n") == [
        "from replay import Replayer", "import replay"]
    assert imports_of_the_package("from .claims import won\nfrom .room import fee\n") == []
