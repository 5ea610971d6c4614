"""An MkDocs hook that makes the README the site's home page.

``docs/index.md`` holds one line, ``--8<-- "README.md"``; this hook puts the README there before the
page is rendered, with its links rewritten for the site: the README sits at the repository root
and links ``docs/rules.md``, ``CHANGELOG.md`` and ``LICENSE``, which the site serves as
``rules.md``, ``changelog.md`` and ``license.md``. So the same links work on GitHub and in the
site, and the strict build checks them. Loaded from ``mkdocs.yml`` (``hooks:``).

>>> site_links("[a](docs/rules.md#loops) ![b](docs/table.png) [c](CHANGELOG.md) [d](LICENSE)")
'[a](rules.md#loops) ![b](table.png) [c](changelog.md) [d](license.md)'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

INCLUDE = '--8<-- "README.md"'
"""The line of ``docs/index.md`` that the README replaces."""

_RENAMED = {"CHANGELOG.md": "changelog.md", "LICENSE": "license.md"}


def site_links(markdown: str) -> str:
    """The README's relative links, as seen from the site's home page."""
    markdown = re.sub(r"\]\(docs/", "](", markdown)
    for name, page in _RENAMED.items():
        markdown = markdown.replace(f"]({name})", f"]({page})")
    return markdown


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the README, its links rewritten, in place of the include line of the home page."""
    if page.file.src_uri != "index.md" or INCLUDE not in markdown:
        return markdown
    readme = Path(config.config_file_path).parent / "README.md"
    return markdown.replace(INCLUDE, site_links(readme.read_text(encoding="utf-8")))
