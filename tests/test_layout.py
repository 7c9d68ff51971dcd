"""The package keeps the shape docs/architecture.md describes: stages that import only the
stages below them (imports inside functions included, so no cycle hides there), modules
under 400 lines and functions under 50."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scholarsite"
# Lowest first: a module may import from its own stage and the stages before it. The read
# recorder (reads.py), whose stand-ins the loader and the planners are handed, sits low
# down; the speed code that uses what it records (fastpath/) between rendering and the build.
STAGES = ["__init__", "diagnostics", "models", "reads", "output", "structure",
          "reading", "views", "plan", "render", "fastpath", "build", "live", "commands", "cli",
          "__main__"]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def list_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            found.update(t for t in [target, *(f"{target}.{a.name}" for a in node.names)]
                         if t in modules)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
    return found - {name}


def stage_of(name: str) -> int:
    parts = name.split(".")
    module = ".".join(parts[1:3])
    return STAGES.index(module if module in STAGES else parts[1] if len(parts) > 1
                        else "__init__")


def test_every_module_belongs_to_a_stage():
    for name in list_modules():
        stage_of(name)  # raises for a module outside the stages


def test_stages_import_only_stages_below_them():
    modules = list_modules()
    upward = [f"{name} imports {target}"
              for name, path in modules.items()
              for target in sorted(imported_modules(name, path, modules))
              if stage_of(target) > stage_of(name)]
    assert upward == []


def test_output_knows_nothing_of_content():
    """output/ writes files, keeps the cache's files and runs the workers: it imports no
    model, nor anything of the speed code (fastpath/), which goes by papers."""
    modules = list_modules()
    allowed = {"scholarsite", "scholarsite.diagnostics"}
    found = [f"{name} imports {target}"
             for name, path in modules.items() if name.startswith("scholarsite.output.")
             for target in sorted(imported_modules(name, path, modules))
             if target not in allowed and not target.startswith("scholarsite.output.")]
    assert found == []


def test_no_import_cycle():
    modules = list_modules()
    graph = {name: imported_modules(name, path, modules) for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(name):]
                                                               + [name]))
        if name not in done:
            for target in sorted(graph[name]):
                visit(target, [*trail, name])
            done.add(name)

    for name in graph:
        visit(name, [])


def test_modules_and_functions_stay_small():
    too_long = []
    for name, path in list_modules().items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}.{node.name}: {lines} lines")
    assert too_long == []
