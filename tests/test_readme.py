"""The README a newcomer reads first points only at files a clone has."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_link_of_the_readme_and_the_docs_is_in_the_project():
    for page in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        text = page.read_text()
        assert "../shared" not in text, f"{page.name} points outside the project"
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name} links {target}, which is missing"


def test_the_readme_says_how_to_serve_on_another_port():
    assert "make run PORT=" in (ROOT / "README.md").read_text()
