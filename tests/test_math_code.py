"""TeX math rendered to MathML and fenced code highlighted, at build time, through the CLI:
what Markdown must not mangle, what is reported, what plain-text forms show, and that the
output is valid HTML with readable colours."""

from __future__ import annotations

import json
import re

try:
    import resource
except ImportError:  # Windows
    resource = None

import pytest

from conftest import EXAMPLE, ROOT, build_args, paper, run_cli, soup, text_of, tree_bytes

ABSTRACT = r"""Inline $a*b*c$ and \(x<y\) and $\{a\} \\ b$, an escaped \$5 and a lone $5.

$$
\sum_{i=1}^{n} i = \frac{n(n+1)}{2}
$$

After the display, $$x^2$$ within a paragraph."""

PAGE = """\
---
title: Notes
---
Energy is \\(E = mc^2\\).

\\[
\\int_0^1 x\\,dx
\\]

```python
def area(r):
    return 3.14 * r ** 2  # a comment
```

```nosuchlanguage
plain text
```

!!! note "Read this"
    An admonition, with a footnote[^1].

[^1]: The footnote.
"""

BAD_MATH = paper("Bad Math", abstract="A first line.\n\nThen $\\left( x$ here.")


@pytest.fixture
def math_site(make_site):
    content = make_site({
        "publications/a-paper.md": paper("Sums $n^2$ of things", abstract=ABSTRACT),
        "publications/bad-math.md": BAD_MATH,
        "pages/notes.md": PAGE,
    })
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    return content.parent / "site", result


def test_abstract_math_is_mathml(math_site):
    site, _ = math_site
    page = soup(site / "publications" / "a-paper" / "index.html")
    assert page.find("h1").find("annotation").get_text() == "n^2"  # the title's math too
    maths = page.find("div", class_="abstract").find_all("math")
    tex = [m.find("annotation", encoding="application/x-tex").get_text() for m in maths]
    assert tex == ["a*b*c", "x<y", r"\{a\} \\ b", r"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}",
                   "x^2"]
    assert not any(m.find_parent("em") or m.find("em") for m in maths)  # no emphasis
    display = [m for m in maths if m.get("display") == "block"]
    assert [m.parent.name for m in display] == ["div", "span"]
    assert all(m.parent["class"] == ["math-display"] for m in display)
    assert maths[0].find_parent("p") is not None and maths[0].find("mi").get_text() == "a"
    assert not page.find_all(class_="arithmatex")
    paragraph = text_of(maths[0].find_parent("p"))
    assert "an escaped $5 and a lone $5." in paragraph and "\\$" not in paragraph


def test_page_math_and_code(math_site):
    site, _ = math_site
    page = soup(site / "notes" / "index.html")
    maths = page.find_all("math")
    assert [m.get("display") for m in maths] == [None, "block"]
    block = page.find("pre", class_="highlight")
    assert block.code["class"] == ["language-python"]
    classes = {c for span in block.find_all("span") for c in span.get("class", [])}
    assert {"k", "nf", "c1"} <= classes  # keyword, function name, comment
    assert "return 3.14 * r ** 2" in block.get_text()
    plain = page.find("code", class_="language-nosuchlanguage")
    assert plain.get_text() == "plain text\n" and not plain.find("span")
    assert page.find("div", class_="admonition").p.get_text() == "Read this"
    assert page.find("div", class_="footnote")
    assert page.find("link", href=re.compile(r"assets/code\.css$"))
    assert (site / "assets" / "code.css").is_file()


def test_problems_are_warnings_at_their_line(math_site):
    site, result = math_site
    assert re.search(r"publications/bad-math\.md:10: warning: the math '\\left\( x' cannot be "
                     r"converted to MathML", result.err), result.err
    assert re.search(r"pages/notes\.md:15: warning: no highlighting known for the language "
                     r"'nosuchlanguage'", result.err), result.err
    assert "Traceback" not in result.err
    page = soup(site / "publications" / "bad-math" / "index.html")
    assert page.find("code", string=r"\left( x") is not None and not page.find("math")


def test_strict_fails_on_those_warnings(make_site):
    content = make_site({"publications/bad-math.md": BAD_MATH})
    result = run_cli(*build_args(content, None, "--strict"))
    assert result.code != 0 and "bad-math.md:10: warning:" in result.err


def test_math_never_opened_is_an_error_not_a_hang(make_site):
    """'\\(' with no '\\)' sends the math reader to the end of the text from each one."""
    content = make_site({"publications/a-paper.md": paper(abstract="Fine.\n\n" + "\\(a " * 8000)})
    result = run_cli(*build_args(content), timeout=60)
    assert result.code != 0
    assert re.search(r"a-paper\.md:10: error: too many '\\\(' from here open math", result.err), \
        result.err


def processor_seconds() -> float:
    """User and system time of this process's finished children (the CLI runs)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


@pytest.mark.skipif(resource is None, reason="no resource module (Windows)")
@pytest.mark.full(only=True)  # slow and seldom moved: CI's first step runs it
def test_unusual_math_is_cheap_and_builds(make_site):
    """Dollars and brackets that open no formula, and many formulas, build as they are."""
    bodies = {"dollars": "$" * 20000, "dollar-lines": "$$\n" * 10000,
              "bracket-lines": "\\[\n" * 10000, "closings": "\\)" * 20000,
              "formulas": "$a$ " * 3000, "deep": "$" + "{" * 900 + "$"}
    content = make_site({f"publications/{name}.md": paper(name, abstract=body)
                         for name, body in bodies.items()})
    start = processor_seconds()
    result = run_cli(*build_args(content, None, "--no-cache"), timeout=120)
    assert result.code == 0, result.err
    # Processor time, not wall time: a quadratic reader costs minutes of it, while a loaded
    # machine only stretches the wall clock.
    assert processor_seconds() - start < 30


def test_plain_text_forms_read_math_as_text(math_site):
    """Where text is plain (the feed, the page's description), math reads as Unicode text,
    never as TeX or MathML; so does the search index."""
    site, _ = math_site
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    summary = re.search(r"<summary>(Inline.*?)</summary>", feed, re.DOTALL).group(1)
    assert summary.startswith("Inline a*b*c and x&lt;y and {a} b, an escaped $5")
    assert "x²" in summary and "mrow" not in summary
    assert "semantics" not in feed and "<math" not in feed
    paper_page = soup(site / "publications" / "a-paper" / "index.html")
    description = paper_page.find("meta", attrs={"name": "description"})["content"]
    assert description.startswith("Inline a*b*c and x<y and {a} b")
    script = soup(site / "search" / "index.html").find("script", type="application/json")
    entries = json.loads(script.string) if script else []
    text = json.dumps(entries)
    assert "a*b*c" in text and "mrow" not in text and "<math" not in text


def test_math_and_code_pages_are_valid_html(math_site):
    """The W3C Nu checker accepts the MathML and the highlighted code."""
    from test_html_valid import check_html
    site, _ = math_site
    files = [site / "publications" / "a-paper" / "index.html", site / "notes" / "index.html",
             site / "publications" / "bad-math" / "index.html"]
    errors = check_html(files)
    assert not errors, "\n".join(m["message"] for m in errors)


def luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_code_colours_meet_wcag_aa():
    """Every token colour against the backgrounds code sits on (--bg and --soft of each
    theme, from style.css), or against its own background when it has one."""
    css = (ROOT / "templates" / "assets" / "code.css").read_text(encoding="utf-8")
    style = (ROOT / "templates" / "assets" / "style.css").read_text(encoding="utf-8")
    light = re.search(r"--bg: (#\w+); --fg: #\w+; --muted: #\w+; --soft: (#\w+)", style).groups()
    dark = re.search(r'\[data-theme="dark"\] \{\s*--bg: (#\w+); --fg: #\w+; --muted: #\w+; '
                     r"--soft: (#\w+)", style).groups()
    rules = re.findall(r"^\s*(.*?\.highlight (?:\.\w+|:is\([.\w,]+\))) \{ color: (#\w+)"
                       r"(?:; background-color: (#\w+))?", css, re.MULTILINE)
    assert len(rules) > 30
    for selector, colour, background in rules:
        grounds = [background] if background else list(dark if "data-theme" in selector else light)
        for ground in grounds:
            assert contrast(colour, ground) >= 4.5, (selector, colour, ground)


def test_example_site_has_no_math_or_highlighting(shipped):
    """The example site has no math and no fenced code: its pages gain only the link to
    code.css (compared byte for byte with the code before this change by hand)."""
    site, result = shipped(EXAMPLE)  # built once for the session, as a user builds it
    assert result.code == 0 and "warning" not in result.err, result.err
    pages = tree_bytes(site)
    assert not any(b"<math" in data or b'class="highlight"' in data for data in pages.values())


NUMBERED = """\
---
title: Numbered
---
```{.python .linenums}
def f(x):
    return x  # the same
```

```python
plain = True
```
"""


def test_line_numbers_on_request_and_a_copy_button_that_leaves_them_out(make_site, browser):
    from browser import open_page, serve

    content = make_site({"pages/numbered.md": NUMBERED})
    out = content.parent / "site"
    assert run_cli(*build_args(content, out, "--strict")).code == 0
    page = soup(out / "numbered" / "index.html")
    numbered, plain = page.select("pre.highlight")
    assert "linenums" in numbered["class"] and "linenums" not in plain["class"]
    assert [text_of(n) for n in numbered.select(".ln")] == ["1", "2"]
    assert all(n["aria-hidden"] == "true" for n in numbered.select(".ln"))
    assert not plain.select(".ln") and plain["tabindex"] == "0"
    with serve(out) as base, open_page(
            browser, permissions=["clipboard-read", "clipboard-write"]) as tab:
        tab.goto(f"{base}numbered/")
        buttons = tab.locator("button.copy-button")
        assert buttons.count() == 2 and buttons.first.text_content() == "Copy code"
        buttons.first.click()
        tab.wait_for_function("document.querySelector('.copy-status').textContent !== ''")
        copied = tab.evaluate("navigator.clipboard.readText()")
    assert copied == "def f(x):\n    return x  # the same\n"


def test_square_bracket_display_math_inside_a_paragraph_is_display_math(make_site, tmp_path):
    content = make_site({"index.md": "We sum \\[ \\sum_{i=1}^n x_i \\] over all items, and "
                         "an escaped \\\\[not math] stays text.\n"})
    assert run_cli(*build_args(content, None, "--strict")).code == 0
    page = soup(tmp_path / "site" / "index.html")
    paragraph = page.select_one(".bio p")
    [shown] = paragraph.select(".math-display math[display=block]")
    assert shown.find("annotation").get_text() == "\\sum_{i=1}^n x_i"
    text = text_of(paragraph)
    assert text.startswith("We sum") and "over all items" in text and "\\[not math]" in text
    assert "[ \\sum" not in text
