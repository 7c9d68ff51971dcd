"""Outside text never adds an element or an attribute to a page (issue 44)."""

from __future__ import annotations

from conftest import build_args, paper, run_cli


def test_an_attribute_list_sets_no_handler_nor_style(make_site, tmp_path):
    """The owner's Markdown may hold HTML, but `{: ...}` (attr_list), which Jekyll's kramdown
    writes too and an old site's text could carry, sets no event handler and no style: each
    is an error at its line, every one at once."""
    content = make_site({
        "index.md": "Hello.\n\n## Results {: onfocus=\"alert(1)\" tabindex=1 #results }\n\n"
                    "| a | b |\n|:--|--:|\n| x | y |\n\nText\n{: style=\"position:fixed\" .note }\n",
        "publications/b.md": paper("B", abstract="An *abstract*{: onmouseover=alert(2) .x}.")})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err
    errors = {line.split(": error: ")[0].split("/content/")[-1]: line.split(": error: ")[1]
              for line in result.err.splitlines() if ": error: " in line}
    assert sorted(errors) == ["index.md:10", "index.md:3", "publications/b.md:8"], result.err
    assert errors["index.md:3"].startswith("the attribute list '{: onfocus=\"alert(1)\" "
                                           "tabindex=1 #results}' sets 'onfocus'")
    assert "sets 'style'" in errors["index.md:10"]
    assert "sets 'onmouseover'" in errors["publications/b.md:8"]
