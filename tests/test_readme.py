"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)


def test_every_document_the_docs_point_to_is_in_the_repository() -> None:
    """A plain clone has nothing beside it: links and cited paths stay inside it."""
    root = README.parent
    for document in [README, *sorted((root / "docs").glob("*.md"))]:
        text = document.read_text(encoding="utf-8")
        assert not re.search(r"\.\./shared", text), f"{document.name} points outside the repo"
        for target in re.findall(r"\]\(([^)#\s]+)\)", text):
            if "://" not in target:
                assert (document.parent / target).exists(), f"{document.name}: {target}"
        for cited in re.findall(r"`((?:src|tests|bench|docs|examples)/[\w./-]+)`", text):
            assert (root / cited).exists(), f"{document.name} cites {cited}"
