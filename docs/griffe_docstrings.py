r"""A Griffe extension that lets mkdocstrings render the project's docstrings as written.

The docstrings are written for doctest and for reading in a terminal, in reStructuredText's
habits: examples are doctest blocks (lines starting with ``>>>``, not fenced), and other objects
are named with roles such as ``:class:`~beggar.engine.Game```. Markdown knows neither: a doctest
block would be read as a paragraph (its ``[...]`` output as broken links) and a role as stray
text. This extension rewrites each docstring once the package is loaded, before mkdocstrings
parses it:

- a doctest block becomes a fenced ``pycon`` code block;
- a role becomes a cross-reference to the object it names, resolved the way Python would from
  where the docstring stands (the object, then its parents), shown as code. The link is
  *optional*: a name that is not documented (a private helper, another library) stays plain
  code instead of failing the strict build, and is listed by ``unlinked_roles`` for review.

It changes nothing in the source files. Loaded from ``mkdocs.yml`` (``extensions:`` of the
python handler).

>>> doctest_blocks_to_fences("Add:\n>>> 1 + 1\n2\n\nDone.").split("\n")
['Add:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
"""

from __future__ import annotations

import html
import logging
import re
from typing import Any

import griffe

_log = logging.getLogger("mkdocs.griffe_docstrings")

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc|const):`(?P<target>[^`]+)`")
"""A Sphinx-style Python role, for example ``:meth:`Game.step```."""

unlinked_roles: list[tuple[str, str]] = []
"""(object path, role target) of every role that names nothing the reference documents."""


def doctest_blocks_to_fences(text: str) -> str:
    """Wrap every doctest block (from a ``>>>`` line to the next blank line) in a code fence."""
    lines = text.split("\n")
    out: list[str] = []
    fence_open = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fence_open = not fence_open
        if fence_open or not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        if out and out[-1].strip():
            out.append("")  # a fence must not continue a paragraph
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


def _lookup(scope: griffe.Object | griffe.Alias, dotted: str) -> griffe.Object | griffe.Alias | None:
    try:
        return scope[dotted]  # type: ignore[no-any-return]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def resolve(obj: griffe.Object, target: str) -> str | None:
    """The documented path that ``target`` names, seen from ``obj``'s docstring, or None."""
    found: griffe.Object | griffe.Alias | None = None
    head, _, rest = target.partition(".")
    if rest and head == obj.package.name:
        found = _lookup(obj.package, rest)
    if found is None:
        scope: griffe.Object | None = obj
        while scope is not None and found is None:
            if scope.is_class or scope.is_module:
                found = _lookup(scope, target)
            scope = scope.parent
    if found is None:
        return None
    try:
        path = found.canonical_path
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    if any(part.startswith("_") for part in path.split(".")):
        return None  # private: the reference does not show it
    return path


def roles_to_links(text: str, obj: griffe.Object) -> str:
    """Replace each role by an optional cross-reference shown as code."""

    def link(match: re.Match[str]) -> str:
        target = match["target"].strip()
        short = target.startswith("~")
        target = target.lstrip("~")
        title = html.escape(target.rsplit(".", 1)[-1] if short else target)
        path = resolve(obj, target)
        if path is None:
            unlinked_roles.append((obj.path, target))
            if not any(part.startswith("_") for part in obj.path.split(".")):
                # Only docstrings the reference shows are worth a line of the build's output.
                _log.info(
                    "griffe_docstrings: %s names %r, which the reference does not document", obj.path, target
                )
            return f"<code>{title}</code>"
        return f'<autoref identifier="{html.escape(path)}" optional><code>{title}</code></autoref>'

    return ROLE.sub(link, text)


class DocstringsToMarkdown(griffe.Extension):
    """Rewrite every docstring of the loaded package for Markdown (see the module docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Runs once the whole object tree is loaded, so every name can be resolved."""
        if obj.docstring is None:
            return
        obj.docstring.value = roles_to_links(doctest_blocks_to_fences(obj.docstring.value), obj)
