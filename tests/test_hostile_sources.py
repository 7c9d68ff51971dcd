"""Outside text never adds an element or an attribute to a page (issue 44, items 1, 2, 16).

One battery of hostile text (entity-encoded and raw tags, an attribute list with event
handlers, a `javascript:` link, control and bidi characters, the private-use characters
the reader once used as its own marks) fills every text field of one old site per kind
`migrate` reads (academicpages, al-folio, Hugo Blox, a data list), of a .bib file and of
DBLP's and ORCID's answers to `update`; each is migrated or updated, then built, through
the command line, and every page built is read as a browser does. Cheap by design: one
site per reader, all fields hostile at once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import build_args, paper, run_cli, write_files
from fakeservices import Services, json_answer
from test_update import SITE, default_routes

# The private-use characters open em, strong, sup and sub (U+E010, E012, E014, E016), and
# close em (U+E011): as text they stay text, never tags.
PRIVATE = "PUA\ue010\ue012\ue014\ue016 end\ue011"
BATTERY = ('# Results &lt;img src=x onerror=alert(1)&gt; <img src=x onerror=alert(2)> '
           '&lt;script&gt;alert(3)&lt;/script&gt; [click](javascript:alert(5)) '
           '&lt;a href="javascript:alert(6)"&gt;a&lt;/a&gt; ctl\x01\x1b bidi\u202eevil\u2066 '
           f'{PRIVATE} {{: onfocus="alert(4)" tabindex=1 autofocus style="position:fixed" }}')
# What no page may hold, whatever a field said.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
SCRIPT_DATA = {"application/ld+json", "application/json"}


# What opens a block of Markdown, at the start of the fields a reader may write into a
# body as a paragraph: a list item ('#', the battery's own, a heading, for the rest).
OPENERS = {"summary": "-", "abstract": "1."}


def hostile(field: str) -> str:
    """The battery as one field holds it: each field's its own, as a reader that drops a
    field repeating another (an excerpt that is the citation again) would skip it."""
    text = BATTERY.replace("Results", f"Results ({field})", 1)
    return OPENERS.get(field, "#") + text.removeprefix("#")


def yaml_text(text: str) -> str:
    """`text` as a YAML scalar (JSON is YAML): control characters as escapes."""
    return json.dumps(text)


def fields(*names: str) -> str:
    """Front-matter lines, each field hostile."""
    return "".join(f"{name}: {yaml_text(hostile(name))}\n" for name in names)


def addresses(*names: str) -> str:
    """Front-matter lines of web addresses, each hostile after its scheme and host."""
    return "".join(f"{name}: {yaml_text('https://example.org/x) ' + hostile(name))}\n"
                   for name in names)


def bib_text(text: str) -> str:
    """`text` as a BibTeX value means it: braces and LaTeX's specials escaped."""
    return re.sub(r"([{}#&%$_])", r"\\\1", text)


def academicpages_site(root: Path) -> Path:
    return write_files(root, {
        "_config.yml": f"author:\n  name: Ada Example\n  {fields('bio')}{fields('title', 'description')}",
        "_publications/2020-01-05-x.md": "---\ncollection: publications\ndate: 2020-01-05\n"
        f"{fields('title', 'venue', 'excerpt', 'citation')}---\n",  # the excerpt is its text
        "_talks/2021-02-03-t.md": "---\ncollection: talks\ndate: 2021-02-03\ntype: Talk\n"
        f"{fields('title', 'venue', 'location', 'excerpt')}---\nA talk.\n",
        "_portfolio/p.md": f"---\n{fields('title', 'excerpt')}---\nA project.\n"})


def alfolio_site(root: Path) -> Path:
    b = {name: bib_text(hostile(name)) for name in ("title", "author", "journal", "abstract",
                                                    "note")}
    return write_files(root, {
        "_config.yml": f"first_name: Ada\nlast_name: Example\n{fields('description')}"
                       "scholar:\n  last_name: [Example]\n",
        "_bibliography/papers.bib": f"@article{{x, title = {{{b['title']}}}, author = {{Example, "
        f"Ada and {b['author']}}}, journal = {{{b['journal']}}}, year = 2020, abstract = "
        f"{{{b['abstract']}}}, note = {{{b['note']}}}}}\n",
        "_news/announcement_1.md": f"---\ndate: 2021-01-02\n{fields('title')}---\nNews.\n",
        "_projects/1_project.md": f"---\n{fields('title', 'description')}---\nA project.\n",
        "_posts/2021-03-04-p.md": f"---\n{fields('title', 'description', 'tags')}---\nA post {{% cite x %}}.\n",
        # The owner's own text, with kramdown's attribute list: a class moves, the rest not.
        "_posts/2021-03-05-k.md": "---\ntitle: A post\n---\nKramdown.\n"
                                  '{: .note style="position:fixed" onclick="alert(7)"}\n'})


def hugo_site(root: Path) -> Path:
    picture = Path(__file__).parent / "fixtures/migrate/hugo-blox/content/post/getting-started"
    return write_files(root, {
        "config/_default/config.yaml": fields("title"),
        "content/authors/admin/_index.md": "---\ntitle: Ada Example\nsuperuser: true\n"
        f"{fields('role')}interests: [{yaml_text(hostile('interests'))}]\n---\nMy words.\n",
        "content/publication/x/index.md": f"---\ndate: 2020-01-01\n{fields('title')}"
        f"authors: [Ada Example, {yaml_text(hostile('authors'))}]\n"
        f"{fields('publication', 'summary')}---\n",
        "content/talk/t/index.md": f"---\ndate: 2021-01-01\n"
        f"{fields('title', 'event', 'location', 'summary')}{addresses('event_url', 'url_code')}"
        f"links: [{{name: {yaml_text(hostile('name'))}, url: {yaml_text(hostile('url'))}}}]"
        "\n---\n",
        "content/post/p/index.md": f"---\ndate: 2021-01-01\n{fields('title', 'summary')}"
        f"tags: [{yaml_text(hostile('tags'))}]\nimage:\n  {fields('caption')}---\nA post.\n",
        "content/post/p/featured.png": (picture / "chart.png").read_bytes()})


def datalist_site(root: Path) -> Path:
    item = fields("title", "venue", "abstract", "note").replace("\n", "\n  ")
    return write_files(root, {
        "_config.yml": f"author: Ada Example\n{fields('title')}",
        "_data/publications.yml": f"- authors: {yaml_text('Ada Example, ' + hostile('authors'))}"
                                  f"\n  year: 2020\n  {item}"})


OLD_SITES = {"academicpages": academicpages_site, "al-folio": alfolio_site,
             "hugo-blox": hugo_site, "jekyll-data": datalist_site}


def update_site(root: Path) -> Path:
    """A content folder whose papers come from a .bib file, a Markdown file, DBLP and
    ORCID: all text hostile."""
    b = {name: bib_text(hostile(name)) for name in ("title", "author", "booktitle",
                                                    "abstract", "note", "keywords")}
    return write_files(root, {
        "site.yaml": SITE.replace("citations: openalex\n", ""),
        "publications/mine.bib": f"@inproceedings{{mine, title = {{{b['title']}}}, author = "
        f"{{Example, Ada and {b['author']}}}, booktitle = {{{b['booktitle']}}}, year = 2019, "
        f"abstract = {{{b['abstract']}}}, note = {{{b['note']}}}, keywords = "
        f"{{{b['keywords']}}}}}\n",
        "publications/md-paper.md": f"---\n{fields('title')}authors: [Ada Example, "
        f"{yaml_text(hostile('authors'))}]\n{fields('venue', 'note')}date: 2018-01\n---\n"
        "The owner's abstract.\n"})


def hostile_answers(services: Services) -> None:
    b = {name: bib_text(hostile(name)) for name in ("author", "title", "booktitle")}
    dblp = (f"@inproceedings{{DBLP:conf/x/E24, author = {{Ada Example 0001 and {b['author']}}}, "
            f"title = {{{b['title']}}}, booktitle = {{{b['booktitle']}}}, year = {{2024}}}}\n")
    services.routes["/dblp/pid/00/0001.bib"] = (200, dblp.encode(), {})
    work = {"put-code": 201, "type": "journal-article",
            "title": {"title": {"value": hostile("title")},
                      "subtitle": {"value": hostile("subtitle")}},
            "publication-date": {"year": {"value": "2023"}},
            "journal-title": {"value": hostile("journal")}}
    services.routes["/orcid/0000-0002-1825-0097/works"] = json_answer(
        {"group": [{"work-summary": [work]}]})
    services.routes["/orcid/0000-0002-1825-0097/works/201"] = json_answer({"bulk": [
        {"work": {"put-code": 201, "contributors": {"contributor": [
            {"credit-name": {"value": hostile("contributor")}},
            {"credit-name": {"value": "Ada Example"}}]}}}]})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[list[str], Path]]:
    """Each reader's site, moved and built: {kind: (what went wrong, the built site)}."""
    root = tmp_path_factory.mktemp("hostile")
    done = {}
    for kind, make in OLD_SITES.items():
        content = root / kind / "content"
        moved = run_cli("migrate", str(make(root / kind / "old")), "--content", str(content),
                        "--from", kind)
        done[kind] = (content, moved)
    services = Services(default_routes())
    try:
        hostile_answers(services)
        with pytest.MonkeyPatch.context() as patch:
            for name in ("dblp", "orcid"):
                patch.setenv(f"SCHOLARSITE_{name.upper()}_URL", f"{services.url}/{name}")
            content = update_site(root / "update" / "content")
            done["bibtex, DBLP, ORCID"] = (content, run_cli("update", "--content", str(content)))
    finally:
        services.close()
    results = {}
    for kind, (content, first) in done.items():
        site = content.parent / "site"
        build = run_cli(*build_args(content, site))
        failed = [f"{kind}: exit {r.code}: {r.err}" for r in (first, build) if r.code]
        # Nothing is left behind: every field reached the new site, or was said.
        failed += [line for line in first.out.splitlines() if "not moved" in line]
        results[kind] = (failed, site)
    return results


def find_hostile(site: Path) -> list[str]:
    """What any page of `site` holds that no outside text may add."""
    return [f"{page.relative_to(site).as_posix()}: {problem}"
            for page in sorted(site.rglob("*.html"))
            for problem in page_problems(page.read_text(encoding="utf-8"))]


def page_problems(raw: str) -> list[str]:
    found = [f"the character U+{ord(c):04X}" for c in set(_CONTROL.findall(raw))]
    if "PUA<" in raw:
        found.append("a private-use character became a tag")
    for element in BeautifulSoup(raw, "html.parser").find_all(True):
        found += element_problems(element)
    return found


def element_problems(element) -> list[str]:
    tag = element.name
    found = []
    for name, value in element.attrs.items():
        value = " ".join(value) if isinstance(value, list) else value or ""
        if name.lower().startswith("on") or name == "autofocus" or (name, value) == (
                "tabindex", "1"):  # the battery's attribute list, any of it
            found.append(f"<{tag} {name}>")
        if name == "style" and "fixed" in value:
            found.append(f"<{tag} style={value!r}>")
        if name in ("href", "src") and re.sub(r"[\x00-\x20]", "", value).lower().startswith(
                "javascript:"):
            found.append(f"<{tag} {name}={value!r}>")
        if name in ("href", "src", "id") and _BIDI.search(value):
            found.append(f"<{tag} {name}> with a bidi control")
    if tag in ("iframe", "object", "embed") or (tag == "img" and element.get("src") == "x"):
        found.append(f"<{tag}> element")
    if tag == "script" and element.get("type") not in SCRIPT_DATA and "alert(" in element.text:
        found.append("a script from text")
    if tag == "script" and element.get("type") == "application/ld+json":
        json.loads(element.string)  # the text never ends the script early
    if (re.fullmatch(r"h[1-6]|pre|li|dt|dd|abbr", tag) or "admonition" in element.get(
            "class", [])) and re.match(r"Results \([a-z_]+\)", element.get_text().strip()):
        found.append(f"<{tag}> made from text")  # its opening mark read as Markdown
    return found


@pytest.mark.parametrize("kind", [*OLD_SITES, "bibtex, DBLP, ORCID"])
def test_outside_text_adds_no_element_or_attribute(built, kind):
    failed, site = built[kind]
    assert failed == []
    assert "\n".join(find_hostile(site)) == ""
    texts = [BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser").get_text()
             for p in site.rglob("*.html")]
    # The battery reached the pages as text: its tags (decoded from an old site's
    # entities, or as written in a field) and attribute list shown, its private-use
    # characters kept as the characters they are.
    assert sum("<img src=x onerror=alert(" in t and "alert(4)" in t for t in texts) >= 2
    assert sum(PRIVATE in t for t in texts) >= 2


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


def test_an_old_sites_attribute_list_moves_without_handler_or_style(built):
    """kramdown's `{: ...}` in an old post: its class kept, its style and handler left out
    (and named), and the post moved, not left behind as a page the build would refuse."""
    failed, site = built["al-folio"]
    assert failed == []
    post = BeautifulSoup((site / "posts" / "k" / "index.html").read_text(encoding="utf-8"),
                         "html.parser").find("p", class_="note")
    assert post is not None and post.get_text() == "Kramdown." and post.attrs == {
        "class": ["note"]}
