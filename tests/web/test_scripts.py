"""The page's scripts (``src/beggar/web/static/js/`` and ``messages.js``): every module opens with
``// @ts-check``, TypeScript checks the JSDoc types of all of them together (``jsconfig.json``),
and no module grows past 500 lines."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import beggar.web

WEB = Path(beggar.web.__file__).parent
STATIC = WEB / "static"
MODULES = [*sorted((STATIC / "js").glob("*.js")), WEB / "messages.js"]
TSC = Path(__file__).resolve().parents[2] / "node_modules" / ".bin" / "tsc"
"""TypeScript, installed from package.json by ``npm ci`` (scripts/test runs it)."""


def test_every_module_is_checked_and_none_is_over_500_lines() -> None:
    checked = (STATIC / "jsconfig.json").read_text(encoding="utf-8")
    assert '"checkJs": true' in checked
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "// @ts-check", f"{path.name} does not open with // @ts-check"
        assert len(lines) <= 500, f"{path.name} has {len(lines)} lines"


@pytest.mark.system
def test_typescript_finds_no_error_in_the_scripts_types() -> None:
    if not TSC.exists():
        if os.environ.get("CI"):
            raise RuntimeError("TypeScript is needed for this test: npm ci")
        pytest.skip("TypeScript is not installed (npm ci)")
    result = subprocess.run(
        [str(TSC), "--pretty", "false", "-p", str(STATIC / "jsconfig.json")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
