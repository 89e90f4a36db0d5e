"""No import cycle in the store package (issue 33): ``paipu/store/__init__.py`` imports its
submodules, so none of them imports the package back (``from . import x``, ``paipu.store``);
each takes what it needs from its sibling module by name."""

from __future__ import annotations

import ast
import os

from tests.reliability.helpers import ROOT

STORE = os.path.join(ROOT, "paipu", "store")


def _imports_of_the_package(path: str) -> list[str]:
    tree = ast.parse(open(path, encoding="utf-8").read())
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                bad.append(f"from . import {', '.join(a.name for a in node.names)}")
            if node.level == 0 and node.module in ("paipu.store", "paipu"):
                if node.module == "paipu.store" or any(a.name == "store" for a in node.names):
                    bad.append(f"from {node.module} import …")
        elif isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names if a.name == "paipu.store"]
    return bad


def test_no_store_module_imports_its_package_back():
    found = {name: _imports_of_the_package(os.path.join(STORE, name))
             for name in sorted(os.listdir(STORE)) if name.endswith(".py") and name != "__init__.py"}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_check_sees_such_an_import_near_miss(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("from . import derive\nfrom paipu import store\n")
    assert _imports_of_the_package(str(path)) == ["from . import derive", "from paipu import …"]
