"""site.yaml's `cms`: the browser editor at /admin/, its configuration made from the readers'
own tables; and an entry written through the editor's own forms (Sveltia CMS's test
backend, in Chromium) is one the build reads."""

from __future__ import annotations

import json
import re
import shutil

import jsonschema
import yaml

from browser import open_page, require, serve
from conftest import MINIMAL_CONFIG, ROOT, build_args, read_front_matter, run_cli, write_files
from scholarsite.models.forms import PAPER_FIELDS

EDITOR = ROOT / "tests" / "node_modules" / "@sveltia" / "cms"
EDITOR_JS = EDITOR / "dist" / "sveltia-cms.js"
EDITOR_SCHEMA = EDITOR / "schema" / "sveltia-cms.json"  # the configuration's JSON schema
CMS = "cms:\n  repo: ada-lab/site\n  branch: pages\n  auth: https://auth.example.org/\n"
TWO_LANGUAGES = "languages: [en, de]\n"
COLLECTIONS = {"publications": "content/publications", "talks": "content/talks",
               "teaching": "content/teaching", "projects": "content/projects",
               "news": "content/news", "posts": "content/posts", "pages": "content/pages",
               "people": "content/people"}
# A paper that gives every field of models/forms.PAPER_FIELDS, as a user writes them: the
# build reads it with no unknown field (the table names nothing the reader refuses), and
# the reader stops any build where it asks for a field the table lacks (check_declared).
FULL_PAPER = """\
---
title: Every Field
authors: [Ada Example]
date: 2026-03
status: in press
type: journal
venue: Journal of Forms
venue_short: JoF
location: Lyon
volume: "12"
number: "3"
pages: 1--9
publisher: ACM
institution: Forms University
isbn: 978-3-16-148410-0
editors: [Bob Builder]
tier: A
category: Systems
topics: [forms]
links: {doi: 10.1000/xyz, more: [{label: Data, url: "https://example.org/data"}]}
citation: Ada. Every Field.
selected: true
award: Best paper
note: Invited
preview: files/p.png
language: en
translations: {de: {title: Jedes Feld}}
bibtex_key: ada2026every
bibtex_type: article
extra: {keywords: forms}
---
"""
PNG_1x1 = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"
           b"\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00"
           b"\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")
# The Origin Private File System folder where Sveltia's test backend commits, read back.
READ_TEST_REPO = """async () => {
  const out = {};
  async function walk(dir, prefix) {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind === 'directory') await walk(handle, prefix + name + '/');
      else out[prefix + name] = await (await handle.getFile()).text();
    }
  }
  const root = await navigator.storage.getDirectory();
  await walk(await root.getDirectoryHandle('sveltia-cms-test'), '');
  return out;
}"""


def fields_of(collection: dict) -> dict[str, dict]:
    return {field["name"]: field for field in collection["fields"]}


def test_cms_writes_admin_from_the_readers_tables(make_site, tmp_path):
    """/admin/config.yml names each collection with its folder and every paper field; a
    site without `cms:` has no /admin/; bad `cms` values are errors at their lines."""
    content = make_site({"site.yaml": MINIMAL_CONFIG + TWO_LANGUAGES + CMS,
                         "publications/every-field-2026.md": FULL_PAPER, "files/p.png": PNG_1x1})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0 and "warning" not in result.err, result.err
    assert set(read_front_matter(content / "publications" / "every-field-2026.md")) == \
        {f.name for f in PAPER_FIELDS}
    config = yaml.safe_load((out / "admin" / "config.yml").read_text(encoding="utf-8"))
    assert config["backend"] == {"name": "github", "repo": "ada-lab/site", "branch": "pages",
                                 "base_url": "https://auth.example.org"}
    collections = {c["name"]: c for c in config["collections"]}
    assert {name: collections[name]["folder"] for name in COLLECTIONS} == COLLECTIONS
    assert collections["cv"]["files"][0]["file"] == "content/cv.yaml"
    papers = fields_of(collections["publications"])
    assert [(f.name, f.required) for f in PAPER_FIELDS] == \
        [(name, field["required"]) for name, field in papers.items() if name != "body"]
    assert papers["type"]["widget"] == "select" and "journal" in papers["type"]["options"]
    assert papers["date"]["widget"] == "datetime" and papers["selected"]["widget"] == "boolean"
    assert "PI" in fields_of(collections["people"])["role"]["options"]
    page = (out / "admin" / "index.html").read_text(encoding="utf-8")
    assert 'src="https://unpkg.com/@sveltia/cms@' in page and 'integrity="sha384-' in page
    assert "admin/" not in (out / "sitemap.xml").read_text(encoding="utf-8")

    plain = tmp_path / "plain"
    result = run_cli(*build_args(make_site({"site.yaml": MINIMAL_CONFIG}), plain))
    assert result.code == 0 and (plain / "index.html").is_file() and not (plain / "admin").exists()

    bad = ("cms:\n  editor: wordpress\n  repo: not a repo\n  branch: a..b\n  colour: red\n"
           "  auth: http://auth.example.org/login\n")
    write_files(content, {"site.yaml": MINIMAL_CONFIG + bad})
    result = run_cli(*build_args(content, out))
    assert result.code == 1 and "Traceback" not in result.err
    for line, words in ((8, "'cms.editor' must be one of sveltia, decap"),
                        (9, "'cms.repo' 'not a repo' is not owner/name"),
                        (10, "'cms.branch' 'a..b' is not a branch name"),
                        (11, "unknown setting 'cms.colour'"),
                        (12, "'cms.auth' 'http://auth.example.org/login' is not an https://")):
        assert f"site.yaml:{line}: error: {words}" in result.err, result.err
    assert (out / "admin" / "config.yml").is_file()  # the previous site is intact


# What the paper's form is given, field by field: every one-line text field of the form
# (the reader checks some of them: a language tag, a BibTeX type).
PAPER_TEXTS = {"Venue": "Conference on Forms", "Venue (short)": "CoF", "Location": "Lyon",
               "Volume": "12", "Number": "3", "Pages": "1--9", "Publisher": "ACM",
               "Institution": "Forms University", "ISBN": "978-3-16-148410-0",
               "Tier": "A", "Category": "Systems", "Award": "Best paper",
               "Note": "Invited", "Citation (overrides the generated one)": "Ada. Forms.",
               "Language (a tag such as zh, when not the site's)": "en",
               "BibTeX key": "ada2026forms", "BibTeX type": "inproceedings"}


def field(page, label: str, role: str = "textbox"):
    """The form's field labelled `label`: the editor renders fields as they scroll into
    view, so scroll on until it is there."""
    return scroll_to(page, page.get_by_role(role, name=label, exact=True))


def scroll_to(page, found):
    for _ in range(50):  # the form is a few screens long
        if found.count():
            return found.first
        page.mouse.wheel(0, 400)
        page.wait_for_function("() => new Promise(requestAnimationFrame)")
    raise AssertionError(f"the form has no {found}")


def section(page, key: str):
    """The form's field of `key` (Sveltia marks each with its key path), scrolled to."""
    found = scroll_to(page, page.locator(f'section.field[data-key-path="{key}"]'))
    found.scroll_into_view_if_needed()
    return found


def fill_paper(page) -> None:
    field(page, "Title").fill("Forms Make Papers")
    page.get_by_label("Item Value").first.fill("Ada Example")
    page.get_by_role("button", name="Today").first.click()
    for label, value in PAPER_TEXTS.items():
        field(page, label).fill(value)
    field(page, "Selected", "switch").click()
    for key, value in (("editors", "Bob Builder"), ("topics", "forms")):
        part = section(page, key)
        if not part.get_by_label("Item Value").count():
            part.get_by_role("button", name=re.compile("^Add")).click()
        part.get_by_label("Item Value").last.fill(value)
    links = section(page, "links")
    links.get_by_role("checkbox").click()  # an optional group of fields is off until added
    expand = links.get_by_role("button", name=re.compile("^Expand"))
    if expand.count():  # collapsed: the form opens it
        expand.first.click()
    section(page, "links.doi").get_by_role("textbox").fill("10.1000/forms")
    page.get_by_role("radio", name="in press").click()
    page.get_by_role("combobox", name="Type").click()
    page.get_by_role("option", name="journal").click()


def fill_news(page) -> None:
    page.get_by_label("Title", exact=True).fill("The editor works")
    page.get_by_role("button", name="Today").first.click()


def fill_person(page) -> None:
    field(page, "Name").fill("Grace Student")
    page.get_by_role("combobox", name="Role").click()
    page.get_by_role("option", name="PhD student").click()


def save_entry(page, base: str, collection: str, fill) -> None:
    page.goto(f"{base}admin/")
    page.reload()  # a fresh start for each entry: the test backend keeps what was saved
    sign_in = page.get_by_role("button", name="Work with Test Repository")
    signed_in = page.get_by_role("button", name="Show Account Menu")
    sign_in.or_(signed_in).first.wait_for()
    if sign_in.is_visible():  # the first time; then the editor remembers
        sign_in.click()
    signed_in.wait_for()
    page.goto(f"{base}admin/#/collections/{collection}/new")
    page.get_by_role("button", name="Save", exact=True).wait_for()
    fill(page)
    page.get_by_role("button", name="Save", exact=True).click()
    try:
        page.get_by_text("Entry saved.").wait_for()
    except Exception:
        page.screenshot(path=f"/tmp/cms50/fail-{collection}.png", full_page=True)
        raise


def test_editor_forms_write_entries_the_build_reads(make_site, tmp_path, browser):
    """A paper and a news item written through Sveltia CMS's own forms (its test backend
    commits to the browser's private file system), read back and built."""
    require(EDITOR_JS.is_file(), "Sveltia CMS is not installed (npm ci --prefix tests)")
    from playwright.sync_api import expect  # as browser.py: imported once Chromium is there
    content = make_site({"site.yaml": MINIMAL_CONFIG + CMS})
    out = tmp_path / "site"
    admin = write_files(tmp_path / "served" / "admin", {"index.html": (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Editor</title>'
        '<script src="sveltia-cms.js"></script></head><body></body></html>')})
    assert run_cli(*build_args(content, out)).code == 0
    config = yaml.safe_load((out / "admin" / "config.yml").read_text(encoding="utf-8"))
    schema = json.loads(EDITOR_SCHEMA.read_text(encoding="utf-8"))  # the editor's own
    assert not [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(config)]
    config["backend"] = {"name": "test-repo"}
    (admin / "config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    shutil.copy(EDITOR_JS, admin / "sveltia-cms.js")
    with serve(admin.parent) as base, open_page(browser) as page:
        page.set_default_timeout(15_000)
        save_entry(page, base, "publications", fill_paper)
        expect(page.get_by_role("treeitem")).to_have_count(len(config["collections"]))
        labels = page.get_by_role("treeitem").all_inner_texts()
        assert [c["label"] for c in config["collections"]] == \
            [label.split("\n")[-2] for label in labels], labels  # each collection is there
        save_entry(page, base, "news", fill_news)
        save_entry(page, base, "people", fill_person)
        written = page.evaluate(READ_TEST_REPO)
    assert sorted(written) and all(path.startswith("content/") for path in written), written
    write_files(tmp_path, written)
    result = run_cli(*build_args(content, out))
    assert result.code == 0 and "warning" not in result.err, result.err  # no empty lines
    paper_page = next((out / "publications").glob("forms-make-papers*/index.html"))
    text = paper_page.read_text(encoding="utf-8")
    assert "Forms Make Papers" in text and "Conference on Forms" in text and "Best paper" in text
    assert "In press" in text and "Bob Builder" in text and ">forms<" in text
    assert "https://doi.org/10.1000/forms" in text and "ada2026forms" in (out / "publications.bib").read_text()
    assert "The editor works" in (out / "news" / "index.html").read_text(encoding="utf-8")
    assert "Grace Student" in (out / "people" / "index.html").read_text(encoding="utf-8")
