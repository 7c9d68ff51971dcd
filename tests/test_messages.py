"""What the command line says: where a YAML mistake is, counts as people say them, its own
name, and what to do with a word that is no command."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import (MINIMAL_CONFIG, MINIMAL_PAPER, ROOT, build_args, paper, run_cli,
                      tree_bytes)


def test_an_unclosed_bracket_is_reported_where_it_opens(make_site):
    paper = ("---\ntitle: A Paper\nvenue: Venue\nauthors: [Ada Example,\n  Bob Builder\n"
             "date: 2024-05\n\n\n---\nAn abstract.\n")
    content = make_site({"publications/a-paper.md": paper})
    result = run_cli(*build_args(content))
    assert result.code == 1
    [line] = [l for l in result.err.splitlines() if ": error: " in l]
    assert "a-paper.md:4: error: YAML syntax error:" in line  # where the '[' is
    assert "on line 6, while parsing a flow sequence" in line  # where the parser gave up


def test_counts_are_said_as_people_say_them(make_site):
    result = run_cli(*build_args(make_site()))
    assert result.code == 0 and "(1 paper)" in result.out, result.out
    two = make_site({"publications/b-paper.md": MINIMAL_PAPER.replace("A Paper", "B")})
    result = run_cli(*build_args(two))
    assert "(2 papers)" in result.out
    broken = make_site({"publications/b-paper.md": "---\ntitle: [\n---\n"})
    result = run_cli(*build_args(broken))
    assert result.code == 1 and "Build failed: 1 problem;" in result.err


def test_each_way_of_running_says_its_own_name():
    assert run_cli("--help").out.startswith("usage: python build.py ")
    installed = subprocess.run([sys.executable, "-m", "scholarsite", "--help"], cwd=ROOT,
                               capture_output=True, text=True)
    assert installed.stdout.startswith("usage: scholarsite ")


def test_a_word_that_is_no_command_is_a_usage_error():
    for words in (["migrat", "X"], ["publish", "--help"]):
        result = run_cli(*words)
        assert result.code == 2, (words, result.out)
        assert f"unknown command '{words[0]}'; the commands are build, serve" in result.err
    assert "did you mean 'migrate'?" in run_cli("migrat", "X").err
    assert "did you mean 'build'?" in run_cli("biuld").err
    assert run_cli("--content", "nowhere").code == 1  # options alone still mean build


def find_line(err: str, where: str, fragment: str) -> str:
    """The one line of `err` at `where` ('site.yaml:7: error') that says `fragment`."""
    found = [line for line in err.splitlines() if where in line and fragment in line]
    assert len(found) == 1, (where, fragment, err)
    return found[0]


# Mistakes about languages, people, files and YAML, all in one site: (file:line: severity,
# what the message must say). Each is told what was meant, not a parser's or a slug's words.
MISTAKES = [
    ("site.yaml:1: error", "'english' is not a known language: did you mean 'en' (English)?"),
    ("site.yaml:2: error", "'cn' is not a known language: Chinese is zh (China's region is "
     "CN: zh-CN)"),
    ("site.yaml:7: error", "'author.position' has a comma in its en text ('Professor, PhD "
     "advisor'), which in {...} ends the text: put that text in quotes: "
     'en: "Professor, PhD advisor"'),
    ("site.yaml:8: error", "found 'files/Marchetti.JPG'; did you mean 'files/marchetti.jpg'?"),
    ("news/x.zh.md:1: error", "'x.zh.md' is the text of 'x.md' in Chinese (zh), which is not "
     "one of the site's languages, so it is not built"),
    ("people/luca-marchetti.md:4: error", "which is not a file in"),
    ("people/luca-marchetti.md:4: error", "did you mean 'files/marchetti.jpg'?"),
    ("publications/tab.md:5: error", "a tab indents this line ('\\tvenue_short: CoE'); YAML "
     "indents with spaces only"),
    ("publications/quote.md:2: error", "the quote \" opened on this line ('title: \"A Paper') "
     "is never closed, so YAML reads all that follows as one text: close it with \" where the "
     "text ends: title: \"A Paper\""),
]


def test_mistakes_about_languages_people_and_yaml_say_what_was_meant(make_site):
    config = MINIMAL_CONFIG.replace("  name: Ada Example\n", "  name: Ada Example\n"
                                    "  position: {en: Professor, PhD advisor, zh: 教授}\n"
                                    "  photo: files/Marchetti.JPG\n")
    news = "---\ndate: 2024-01-02\n---\nNews.\n"
    content = make_site({
        "site.yaml": "language: english\nlanguages: [en, cn]\n" + config,
        "index.md": "Home.\n", "index.zh.md": "主页。\n",
        "news/x.md": news, "news/x.zh.md": news,
        "files/marchetti.jpg": (ROOT / "examples/lab/files/mira-castell.svg").read_bytes(),
        "people/luca-marchetti.md": "---\nname: Luca Marchetti\nrole: PhD Studnet\n"
                                    "photo: files/Marchetti.JPG\n---\n",
        "publications/tab.md": MINIMAL_PAPER.replace("venue_short:", "\tvenue_short:"),
        "publications/quote.md": MINIMAL_PAPER.replace("title: A Paper", 'title: "A Paper'),
    })
    result = run_cli(*build_args(content))
    assert result.code == 1 and "Traceback" not in result.err
    for where, message in MISTAKES:
        find_line(result.err, where, message)
    assert "not a valid slug" not in result.err and "is empty" not in result.err
    assert "while scanning" not in result.err


def test_a_role_or_a_text_that_orders_or_shows_nothing_is_warned_of(make_site):
    config = MINIMAL_CONFIG + "people:\n  roles: [PI, Postdocs]\n"
    person = "---\nname: {}\nrole: {}\n---\n"
    content = make_site({
        "site.yaml": config, "index.md": "Home.\n", "index.zh.md": "主页。\n",
        "people/luca-marchetti.md": person.format("Luca Marchetti", "PhD Studnet"),
        "people/ann-lee.md": person.format("Ann Lee", "phd"),
        "people/bo-li.md": person.format("Bo Li", "Postdoc"),
        "publications/b-paper.md": paper("B", extra="translations:\n  zh: {title: 乙}\n"),
    })
    result = run_cli(*build_args(content))
    assert result.code == 0, result.err
    for where, message in [
        ("content/index.zh.md: warning", "'index.zh.md' is the text of 'index.md' in Chinese "
         "(zh), which is not one of the site's languages, so it is not built: list them in "
         "site.yaml, the default first, such as languages: [en, zh]"),
        ("luca-marchetti.md:3: warning", "role 'PhD Studnet' is none of the usual roles nor "
         "site.yaml's people.roles (PI, Postdocs): did you mean 'PhD student'?"),
        ("ann-lee.md:3: warning", "role 'phd' is none of the usual roles nor site.yaml's "
         "people.roles (PI, Postdocs): did you mean 'PhD student'?"),
        ("bo-li.md:3: warning", "role 'Postdoc' is not in site.yaml's people.roles"),
        ("site.yaml:8: warning", "people.roles names 'Postdocs', which is no one's role: did "
         "you mean 'Postdoc'?"),
        ("b-paper.md:1: warning", "'translations' has 'zh', which is not one of the site's "
         "languages (en): it is shown nowhere; list it in site.yaml: languages: [en, zh]"),
    ]:
        find_line(result.err, where, message)
    assert "did you mean 'index.md'" not in result.err


def test_check_says_a_texts_rooted_link_and_missing_anchor_at_its_line(make_site):
    """'/publications/' in the bio (kept as written: right on a domain's root only) and a
    '#method' an abstract has no id for: told at the line of the .md file, not only in
    the built pages' HTML; a link from '/' in any built page fails check."""
    content = make_site({
        "index.md": "Hello.\n\nSee [all papers](/publications/).\n",
        "files/old.html": "<!doctype html><title>Old</title><a href='/publications/'>all</a>",
        "publications/b-paper.md": paper("B", abstract="First.\n\nSee [the method](#method) "
                                         "and [ok](#sec).\n\n## Sec {#sec}"),
    })
    result = run_cli("check", "--content", str(content))
    find_line(result.err, "content/index.md:3: warning", "link to '/publications/' begins "
              "with '/', the server's root: it breaks when the site is opened from disk or "
              "published under a subpath (user.github.io/repo/); write it from the home "
              "page: 'publications/'")
    find_line(result.err, "publications/b-paper.md:10: warning", "link to '#method', which "
              "is no id in this text")
    assert "'#sec'" not in result.err
    # In the built pages: an error in one the build wrote, a warning in the owner's own.
    rooted = "link to '/publications/' begins with '/', the server's root: it breaks when " \
        "the site is opened from disk or published under a subpath; make it relative"
    find_line(result.err, "site/index.html:", f"error: {rooted}")
    find_line(result.err, "site/files/old.html:1: warning", rooted)
    assert result.code == 1


def test_a_command_run_inside_the_content_folder_says_to_run_it_above(make_site):
    content = make_site()
    result = run_cli("build", cwd=content)
    assert result.code == 1 and "Traceback" not in result.err
    assert "content/site.yaml: error: there is no folder 'content' here: this is the " \
        "content folder itself (it holds site.yaml); run the command in the site's " \
        "folder, the one above it (cd ..)" in result.err
    assert not (content / "site").exists()


def test_upgrade_to_an_older_scholarsite_warns_and_asks_for_force(tmp_path):
    assert run_cli("new", "site", cwd=tmp_path).code == 0
    record = tmp_path / "site" / ".scholarsite-starter.json"
    newer = re.sub(r'"scholarsite": "[^"]*"', '"scholarsite": "99.1.0"',
                   record.read_text(encoding="utf-8"))
    record.write_text(newer, encoding="utf-8")
    before = tree_bytes(tmp_path / "site")
    refused = run_cli("upgrade", "site", cwd=tmp_path)
    assert refused.code == 1 and tree_bytes(tmp_path / "site") == before
    assert "site/.scholarsite-starter.json: error: the site is from scholarsite 99.1.0, " \
        "newer than this one (" in refused.err
    assert "run `scholarsite upgrade --force` to move back to" in refused.err
    forced = run_cli("upgrade", "--force", "site", cwd=tmp_path)
    assert forced.code == 0 and "warning: the site is from scholarsite 99.1.0" in forced.err
    assert '"scholarsite": "99.1.0"' not in record.read_text(encoding="utf-8")


def test_a_copied_bib_file_is_one_warning(make_site):
    entries = "".join(f"@article{{p{n},\n  title = {{Paper {n}}},\n  author = {{Example, Ada}},"
                      f"\n  journal = {{J}},\n  year = {{2024}},\n}}\n\n" for n in range(1, 5))
    content = make_site({"publications/papers.bib": entries,
                         "publications/papers copy.bib": entries})
    result = run_cli(*build_args(content))
    assert result.code == 0 and "(5 papers)" in result.out, result.err
    [warning] = [line for line in result.err.splitlines() if ": warning: " in line]
    assert "papers.bib:1: warning: 4 entries of this file repeat those of " in warning
    assert "papers copy.bib exactly ('p1', 'p2', 'p3', 'p4'); each is shown once: if one " \
        "file is a copy of the other, remove it" in warning
