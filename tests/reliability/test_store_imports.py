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


def _sibling_imports(path: str) -> set[str]:
    """The store modules ``path`` imports (``from .x import …``, at the top or inside a function)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("paipu.store."):
            found.add(node.module.split(".")[2])
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle of ``graph`` (module -> modules it imports), each from its least name."""
    cycles = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == path[0]:
                cycles.append(path[:])
            elif nxt not in path and nxt > path[0]:
                walk(path + [nxt])

    for start in sorted(graph):
        walk([start])
    return cycles


def test_no_two_store_modules_import_each_other():
    # derive built its batch with ingest's row builder while ingest imported derive: the rows
    # now live in paipu/store/rows.py, which both import and which imports neither
    graph = {name[:-3]: _sibling_imports(os.path.join(STORE, name))
             for name in sorted(os.listdir(STORE)) if name.endswith(".py") and name != "__init__.py"}
    assert _cycles(graph) == []
    assert "ingest" not in graph["derive"] and "rows" in graph["derive"] and "rows" in graph["ingest"]


def test_the_cycle_check_sees_a_cycle_inside_a_function_near_miss(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from .b import f\n")
    b.write_text("def g():\n    from .a import h\n")
    graph = {"a": _sibling_imports(str(a)), "b": _sibling_imports(str(b))}
    assert _cycles(graph) == [["a", "b"]]
