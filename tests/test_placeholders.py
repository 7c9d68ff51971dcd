"""The starter's placeholders ('Your Name', `your-username.github.io`) never reach a published
site unnoticed: every build names the lines that still hold them, and `check`, which the
Pages workflow runs, fails on them once the owner has begun to edit the site (the untouched
starter publishes as a preview, said so). Through the real command line."""

from __future__ import annotations

import re

from conftest import run_cli

WARNING = re.compile(r"^(?P<where>\S+): (?P<severity>warning|error): still the starter's "
                     r"placeholders .* on lines? (?P<lines>[\d, ]+): put your own", re.M)


def named_lines(output: str, severity: str) -> dict[str, str]:
    """{file:line: the lines named} of each placeholder problem of that severity."""
    return {m["where"]: m["lines"] for m in WARNING.finditer(output)
            if m["severity"] == severity}


def test_a_site_begun_with_placeholders_left_fails_check_at_their_lines(tmp_path):
    site = tmp_path / "mysite"
    assert run_cli("new", str(site)).code == 0
    settings = site / "content" / "site.yaml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace("title: Your Name ", "title: Ada Lovelace"),
                        encoding="utf-8")
    built = run_cli("build", cwd=site)
    assert built.code == 0, built.err
    assert named_lines(built.err, "warning") == {
        "content/publications/example-paper-2025.md:7": "7",
        "content/site.yaml:4": "4, 5, 8, 12"}, built.err
    checked = run_cli("check", cwd=site)
    assert checked.code == 1, checked.out + checked.err
    assert named_lines(checked.err, "error") == named_lines(built.err, "warning")
    assert "untouched starter" not in checked.out
    # Every placeholder replaced: no word of them, nothing to say.
    for old, new in (("Your Name", "Ada Lovelace"), ("you@example.org", "ada@cam.example"),
                     ("your-username.github.io", "ada.github.io")):
        for path in (settings, site / "content/publications/example-paper-2025.md"):
            path.write_text(path.read_text(encoding="utf-8").replace(old, new),
                            encoding="utf-8")
    for result in (run_cli("build", "--strict", cwd=site), run_cli("check", cwd=site)):
        assert result.code == 0 and "warning" not in result.err, result.err
