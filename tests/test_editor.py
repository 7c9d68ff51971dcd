"""site.yaml's `cms`: the browser editor at /admin/, its configuration made from the readers'
own tables; and every field of every form, written through the editor's own widgets
(Sveltia CMS's test backend, in Chromium), is one the build reads and shows."""

from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
import yaml

from browser import open_page, require, serve
from conftest import MINIMAL_CONFIG, ROOT, build_args, read_front_matter, run_cli, write_files
from editorforms import FormFiller
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
# The Origin Private File System folder where Sveltia's test backend commits, read back
# (each file's bytes: a picture is among them).
READ_TEST_REPO = """async () => {
  const out = {};
  async function walk(dir, prefix) {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind === 'directory') await walk(handle, prefix + name + '/');
      else out[prefix + name] = Array.from(new Uint8Array(await (await handle.getFile()).arrayBuffer()));
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
    assert collections["home"]["files"][0]["file"] == "content/index.md"
    students = fields_of(fields_of(collections["cv"]["files"][0])["students"])
    assert students["person"]["widget"] == "relation"  # a person of people/, by slug
    assert students["person"]["collection"] == "people"
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


# What a form's text field is given when the reader checks it (a language tag, a link, a
# date, a BibTeX type), by field name or by collection and key path; every other text
# field gets a word of its own (editorforms.value_of). SKIP: left untouched, as a CV
# entry gives either 'date' or 'start'/'end' (each is typed in some section).
SKIP = ""
URL = "https://example.org/zq-"
SPECIAL = {
    "language": "en", **{kind: f"{URL}{kind}" for kind in (
        "pdf", "code", "slides", "video", "poster", "supp", "html", "url")},
    "doi": "10.1000/zq-doi", "arxiv": "2401.01234", "isbn": "978-3-16-148410-0",
    "bibtex_type": "inproceedings", "publications.status": "in press",
    "publications.type": "journal", "publications.extra": "keywords=zq-extra-keywords",
    "projects.links": f"Code={URL}project-code", "people.links": f"homepage={URL}homepage",
    "projects.papers": "zq-publications-title", "people.role": "PhD student",
    # A free page with a `place` is named after a list page: its text goes above the talks.
    "pages.title": "Talks", "pages.place": "above",
    "date": "2019", "start": "2018", "end": "present",
    **{f"cv.{section}.0.date": SKIP for section in ("positions", "grants", "students")},
    **{f"cv.{section}.0.{key}": SKIP for section in (
        "education", "awards", "service", "teaching") for key in ("start", "end")},
    "cv.students.0.person": "zq-people-name",  # the person saved before, by name
}
# The order the forms are filled in: a project names a paper, the CV a person.
ORDER = ("publications", "talks", "teaching", "projects", "news", "posts", "pages", "people",
         "cv", "home")
# What the built site does not show as typed, and why (each is checked in the file).
NOT_SHOWN = {
    "pages.place",  # where the page's text goes: above the talks (checked below)
    "pages.description",  # a page shown on a list page is not a page of its own
}


def save_entry(page, base: str, collection: dict, picture) -> dict[str, str]:
    """One new entry of `collection` with every field of its form filled, saved; what
    was typed, by key path."""
    page.goto(f"{base}admin/")
    page.reload()  # a fresh start for each entry: the test backend keeps what was saved
    sign_in = page.get_by_role("button", name="Work with Test Repository")
    signed_in = page.get_by_role("button", name="Show Account Menu")
    sign_in.or_(signed_in).first.wait_for()
    if sign_in.is_visible():  # the first time; then the editor remembers
        sign_in.click()
    signed_in.wait_for()
    name = collection["name"]
    page.goto(f"{base}admin/#/collections/{name}/" + (
        "new" if "fields" in collection else f"entries/{collection['files'][0]['name']}"))
    page.get_by_role("button", name="Save", exact=True).wait_for()
    filler = FormFiller(page, name, SPECIAL, picture)
    filler.fill(collection.get("fields") or collection["files"][0]["fields"])
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_text("Entry saved.").wait_for()
    return filler.typed


@pytest.mark.full(only=True)  # ~30 s: every field of every form typed in Chromium
def test_editor_forms_write_every_field_the_build_reads(make_site, tmp_path, browser):
    """Every field of every collection's form (Sveltia CMS's own widgets, its test backend
    committing to the browser's private file system) is written to the file and read by
    the build with no error and no warning, and the built site shows what was typed."""
    require(EDITOR_JS.is_file(), "Sveltia CMS is not installed (npm ci --prefix tests)")
    content = make_site({"site.yaml": MINIMAL_CONFIG + TWO_LANGUAGES + CMS}, base=False)
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
    collections = {c["name"]: c for c in config["collections"]}
    assert sorted(ORDER) == sorted(collections)  # a new collection is added to ORDER
    picture = write_files(tmp_path, {"zq-picture.png": PNG_1x1}) / "zq-picture.png"
    typed: dict[str, dict[str, str]] = {}
    with serve(admin.parent) as base, open_page(browser) as page:
        page.set_default_timeout(15_000)
        for name in ORDER:
            typed[name] = save_entry(page, base, collections[name], picture)
        written = page.evaluate(READ_TEST_REPO)
    check_written(written, typed, collections)
    assert bytes(written["content/index.md"]).startswith(b"## Part")  # the text alone, as read
    write_files(tmp_path, {path: bytes(data) for path, data in written.items()})
    check_built(content, out, typed)


def check_written(written: dict, typed: dict, collections: dict) -> None:
    """Each form's file holds every value typed into it."""
    assert all(path.startswith("content/") for path in written), sorted(written)
    assert "content/files/zq-picture.png" in written, sorted(written)
    for name, values in typed.items():
        folder = collections[name].get("folder") or collections[name]["files"][0]["file"]
        files = [bytes(data).decode() for path, data in written.items()
                 if path.startswith(folder)]
        assert len(files) == 1, (name, sorted(written))
        missing = [key for key, value in values.items() if written_as(key, value) not in files[0]]
        assert not missing, (name, missing, files[0])


def written_as(key: str, value: str | bool) -> str:
    """How a value typed (a switch turned on, a key=value pair) is found in the file."""
    return f"{key.rsplit('.', 1)[-1]}: true" if value is True else value.split("=")[-1]


def check_built(content, out, typed: dict) -> None:
    """The build reads every file with no error and no warning; a draft is left out
    until it is no longer one, and then each value typed is on the built site."""
    result = run_cli(*build_args(content, out))
    assert result.code == 0 and "warning" not in result.err, result.err
    drafts = [name for name, values in typed.items() if values.get("draft")]
    assert drafts and not [name for name in drafts if f"zq-{name}-body" in site_text(out)]
    for path in content.rglob("*.md"):  # every draft switch was turned on
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("draft: true\n", ""), encoding="utf-8")
    result = run_cli(*build_args(content, out))
    assert result.code == 0 and "warning" not in result.err, result.err
    site = site_text(out)
    missing = [f"{name}.{key}: {value}" for name, values in typed.items()
               for key, value in values.items() if isinstance(value, str)
               and f"{name}.{key}" not in NOT_SHOWN and value.split("=")[-1].lower() not in site]
    assert not missing, missing
    talks = (out / "talks" / "index.html").read_text(encoding="utf-8")
    assert talks.index("zq-pages-body") < talks.index("zq-talks-title")  # `place: above`


def site_text(out) -> str:
    """The built site's pages and exports as one lower-case text, to look values up in."""
    return "\n".join(p.read_text(encoding="utf-8", errors="replace").lower()
                     for p in out.rglob("*") if p.suffix in (".html", ".bib", ".xml"))
