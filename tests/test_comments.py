"""Readers' comments (site.yaml's `comments`, giscus): opt-in; in a real browser, a page
with them asks nothing of another site until its reader presses "Show comments", then
loads giscus with the site's repository, the page's path and the page's light or dark
look; a site without them has no trace of them; bad settings are errors at their lines."""

from __future__ import annotations

from pathlib import Path

from browser import open_page, serve
from conftest import MINIMAL_CONFIG, build_args, run_cli, write_files

GISCUS = """\
comments:
  giscus:
    repo: ada-example/ada-example.github.io
    repo_id: R_kgDOabc123
    category: Announcements
    category_id: DIC_kwDOabc123
"""
POST = "---\ntitle: {title}\ndate: 2024-03-01\n{extra}---\nSome text.\n"


def build_site(root: Path, config: str) -> Path:
    content = write_files(root / "content", {
        "site.yaml": MINIMAL_CONFIG + config,
        "posts/open.md": POST.format(title="Open", extra=""),
        "posts/closed.md": POST.format(title="Closed", extra="comments: false\n"),
        "pages/guestbook.md": "---\ntitle: Guestbook\ncomments: true\n---\nSay hello.\n",
        "pages/about-me.md": "---\ntitle: About me\n---\nHello.\n",
        "talks/a-talk.md": "---\ntitle: A talk\ndate: 2024-01-01\n---\nSlides soon.\n"})
    result = run_cli(*build_args(content, root / "site"))
    assert result.code == 0, result.err
    return root / "site"


def test_comments_load_from_giscus_only_when_asked(tmp_path, browser):
    site = build_site(tmp_path / "with", GISCUS)
    shown = {path.parent.relative_to(site).as_posix() for path in site.rglob("index.html")
             if 'class="comments"' in path.read_text("utf-8")}
    assert shown == {"posts/open", "guestbook"}  # posts by default; a page that asks
    with serve(site) as base, open_page(browser, "dark") as page:
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.route("https://giscus.app/**", lambda route: route.abort())  # offline
        page.goto(base + "posts/open/")
        button = page.get_by_role("button", name="Show comments")
        assert button.is_visible()
        assert [u for u in requested if not u.startswith(base)] == []
        with page.expect_event("requestfailed", predicate=lambda r: "giscus.app" in r.url):
            button.click()
        assert [u for u in requested if not u.startswith(base)] == \
            ["https://giscus.app/client.js"]
        data = page.evaluate("Object.assign({}, document.querySelector("
                             "'script[src=\"https://giscus.app/client.js\"]').dataset)")
        assert data["repo"] == "ada-example/ada-example.github.io" and data["theme"] == "dark"
        assert (data["repoId"], data["categoryId"]) == ("R_kgDOabc123", "DIC_kwDOabc123")
        assert (data["mapping"], data["term"], data["lang"]) == ("specific", "posts/open/", "en")
        assert button.count() == 0
    # Without the setting: nothing of it on any page, and its script is no asset of the site's.
    site = build_site(tmp_path / "without", "")
    pages = [p.read_text("utf-8") for p in site.rglob("*.html")]
    assert pages and not any("giscus" in text or "comments" in text for text in pages)


def test_bad_comment_settings_are_errors_at_their_lines(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": MINIMAL_CONFIG + GISCUS.replace("R_kgDOabc123", "12345").replace(
            "    category: Announcements\n", "") + "  collections: [posts, blog]\n",
        "posts/open.md": POST.format(title="Open", extra="comments: maybe\n")})
    result = run_cli(*build_args(content, tmp_path / "site"))
    assert result.code == 1 and "Traceback" not in result.err
    config = content / "site.yaml"
    lines = config.read_text("utf-8").splitlines()
    at = {name: next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith(name))
          for name in ("repo_id", "giscus", "collections")}
    for expected in (f"{config}:{at['repo_id']}: error: 'comments.giscus.repo_id' '12345'",
                     f"{config}:{at['giscus']}: error: missing required setting "
                     "'comments.giscus.category'",
                     f"{config}:{at['collections']}: error: 'comments.collections' names 'blog'",
                     f"{content / 'posts/open.md'}:4: error: 'comments' must be true or false"):
        assert expected in result.err, (expected, result.err)
    assert not (tmp_path / "site").exists()
