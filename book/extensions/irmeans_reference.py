"""Sphinx extension of the book's site: the reference pages of the library and of the command line.

``chapters/api-reference.md`` documents every name of ``irmeans.__all__`` with autodoc, under
its public name (``irmeans.split_half``), although each is defined in a module of its own
(``irmeans.consistency``). This extension makes that work:

- **references by a home module's name** (``:func:`irmeans.consistency.split_half``` in a
  docstring) link to the public entry when the object is the same; a reference to something
  of the library that exists but has no entry (a module, a private helper) is shown as code
  without a link; a reference to something that does not exist stays a warning (an error
  under ``-W``), so that a stale docstring cannot pass the build;
- each public entry ends with **the module it comes from**, and **constants**
  (``irmeans.TREC_EVAL_GM_EPS``) take the ``#:`` comment written above them there, which autodoc
  looks for only in the module it documents them from;
- the reference's entries are **searched as text**, like every page, not as objects (Sphinx shows
  an object result without the text around the words searched for);
- the ``irmeans-cli-help`` directive writes ``irmeans --help``, or ``irmeans COMMAND --help``
  with the command as its argument, as the parser prints it when the book is built (80
  columns), so that ``chapters/cli-reference.md`` never goes stale; a line the parser prints
  longer than that (a measure's list of defaults) is wrapped under its own text
  (:func:`wrapped`), so that nothing scrolls sideways on a laptop.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains.python import PythonDomain
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

_DOCSTRING_OF = re.compile(r"docstring of ([\w.]+)")


def _lookup(dotted: str) -> Any:
    """The object named ``irmeans.a.b.c``, imported as far as modules go, or raise LookupError."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                raise LookupError(dotted)
            obj = getattr(obj, attr)
        return obj
    raise LookupError(dotted)


def _candidates(target: str, node: Any) -> list[str]:
    """Full names ``target`` may stand for: as written, in the current module and class, and beside the object
    whose docstring holds the reference."""
    names = [target]
    module, cls = node.get("py:module"), node.get("py:class")
    if module:
        names += [f"{module}.{cls}.{target}"] if cls else []
        names.append(f"{module}.{target}")
    found = _DOCSTRING_OF.search(str(node.source or ""))
    if found:
        parts = found.group(1).split(".")
        names += [".".join(parts[:cut] + [target]) for cut in range(len(parts), 0, -1)]
    return [n for n in dict.fromkeys(names) if n.startswith("irmeans")]


def public_name(obj: object) -> str | None:
    """``irmeans.NAME`` if ``obj`` is one of ``irmeans.__all__`` (a class, function or exception), else None."""
    import irmeans

    for name in irmeans.__all__:
        value = getattr(irmeans, name)
        if value is obj and (isinstance(value, type) or callable(value)):
            return f"irmeans.{name}"
    return None


def resolve_library_reference(app: Sphinx, env: BuildEnvironment, node: Any, contnode: Any) -> Any:
    """``missing-reference``: a library object by its home module's name, linked to its public entry, or code."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip("~.")
    for name in _candidates(target, node):
        try:
            obj = _lookup(name)
        except LookupError:
            continue
        public = public_name(obj)
        if public and public != name:
            domain = env.get_domain("py")
            linked = domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], public, node, contnode)
            if linked is not None:
                return linked
        return contnode  # it exists but has no entry here: the code, without a link
    return None


def public_docstring(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """``autodoc-process-docstring``: a public name's entry ends with the module it comes from, and a
    constant takes the ``#:`` comment written above it there."""
    import irmeans

    short = name.removeprefix("irmeans.")
    if not name.startswith("irmeans.") or short not in irmeans.__all__:
        return
    home = f"irmeans.{irmeans._MODULE_OF[short]}"
    if what == "data":
        lines[:] = _comment_of(short, obj) or lines
    lines += ["", f"From ``{home}``."]


def _comment_of(short: str, obj: object) -> list[str]:
    """The ``#:`` comment above the assignment of ``short`` (a re-export has none), or []."""
    from sphinx.pycode import ModuleAnalyzer

    for module in _library_modules():
        if getattr(importlib.import_module(module), short, None) is obj:
            comment = ModuleAnalyzer.for_module(module).find_attr_docs().get(("", short))
            if comment:
                return list(comment)
    return []


def _library_modules() -> list[str]:
    import pkgutil

    import irmeans

    return [m.name for m in pkgutil.walk_packages(irmeans.__path__, prefix="irmeans.") if ".cli" not in m.name]


def command_help(command: str | None, width: int = 80) -> str:
    """``irmeans --help`` (no command) or ``irmeans COMMAND --help``, as printed ``width`` columns wide."""
    from irmeans.cli import build_parser

    parser = build_parser()
    if command is not None:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if command not in sub.choices:
            raise ValueError(f"irmeans has no command {command!r}; it has {', '.join(sub.choices)}")
        parser = sub.choices[command]
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            parser.print_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return out.getvalue()


#: The widest line of a command's help on the page: what fits its box on a 1366 px laptop (86 characters).
HELP_COLUMNS = 80


def wrapped(text: str, width: int = HELP_COLUMNS) -> str:
    """``text`` with each line longer than ``width`` broken between words, its continuation indented under
    the line's own text: under a term's description ("  utility   p1 a + ..."), else two spaces in.

    Examples
    --------
    >>> print(wrapped("  name      a description that goes on and on", 30))
      name      a description that
                goes on and on
    >>> print(wrapped("      -m LEVELS e.g. x.1,2 (default 0,0.1,0.2,0.3)", 32))
          -m LEVELS e.g. x.1,2
            (default 0,0.1,0.2,0.3)
    """
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        term = re.match(r"^(\s*\S+\s{2,})\S", line)
        hang = len(term.group(1)) if term else len(line) - len(line.lstrip()) + 2
        current = line[: len(line) - len(line.lstrip())]
        for token in re.findall(r"\S+\s*", line):  # each word with the spaces after it
            if current.strip() and len(current.rstrip()) + 1 + len(token.rstrip()) > width:
                out.append(current.rstrip())
                current = " " * hang
            current += token
        out.append(current.rstrip())
    return "\n".join(out)


def commands() -> list[str]:
    """The names of the ``irmeans`` subcommands, in the order of ``irmeans --help``."""
    from irmeans.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


class CliHelp(SphinxDirective):
    """``{irmeans-cli-help} [COMMAND]``: the help text, as a literal block."""

    optional_arguments = 1

    def run(self) -> list[Any]:
        command = self.arguments[0] if self.arguments else None
        try:
            text = command_help(command)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        text = wrapped(text)
        block = nodes.literal_block(text, text, language="text")
        self.set_source_info(block)
        return [block]


class TextSearchedPythonDomain(PythonDomain):
    """Python's domain, its objects left out of the site's search (priority -1): a search finds the reference's
    text like any page's, with the text around the words as its summary, which Sphinx gives no object result."""

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for name, shown, kind, docname, anchor, _ in super().get_objects():
            yield name, shown, kind, docname, anchor, -1


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_domain(TextSearchedPythonDomain, override=True)
    app.connect("missing-reference", resolve_library_reference)
    app.connect("autodoc-process-docstring", public_docstring)
    app.add_directive("irmeans-cli-help", CliHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
