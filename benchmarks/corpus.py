"""Synthetic publication sites for the benchmarks: N papers with realistic fields.

Each paper has a title of 8-14 words, about 8 authors (the site's owner among them), a venue,
a date, a type, a tier for some, a category, topics, four links and an abstract of about 150
words; some abstracts use Markdown (emphasis, code, a link, two paragraphs). A share of the
papers is written as BibTeX instead of Markdown.
The same seed gives the same corpus, byte for byte.
"""

from __future__ import annotations

import random
from pathlib import Path

OWNER = "Ada Example"
CATEGORIES = ["Systems", "Machine Learning", "Security", "Theory", "Databases"]
VENUES = [
    ("USENIX Symposium on Operating Systems Design and Implementation", "OSDI", "conference"),
    ("ACM Symposium on Operating Systems Principles", "SOSP", "conference"),
    ("International Conference on Machine Learning", "ICML", "conference"),
    ("IEEE Transactions on Parallel and Distributed Systems", "TPDS", "journal"),
    ("ACM SIGMOD International Conference on Management of Data", "SIGMOD", "conference"),
    ("USENIX Security Symposium", "USENIX Security", "conference"),
    ("Journal of Imaginary Systems", "JIS", "journal"),
    ("Workshop on Hypothetical Computing", "WHC", "conference"),
]
GIVEN = ["Wei", "Maria", "John", "Aiko", "Lars", "Fatima", "Chen", "Olga", "Ravi", "Emma",
         "Diego", "Yuki", "Noah", "Sara", "Ivan", "Lena", "Omar", "Mei", "Paul", "Zara"]
FAMILY = ["Gao", "Garcia", "Smith", "Tanaka", "Nilsson", "Khan", "Li", "Petrova", "Patel",
          "Brown", "Lopez", "Sato", "Miller", "Rossi", "Ivanov", "Weber", "Haddad", "Wang",
          "Martin", "Okafor"]
WORDS = ("system scheduling cluster training inference model memory latency throughput "
         "workload accelerator design evaluation algorithm network storage distributed "
         "fault tolerance efficient scalable adaptive framework performance resource "
         "allocation graph query optimization learning data privacy secure protocol "
         "analysis benchmark kernel compiler runtime parallel pipeline cache consistency "
         "replication transaction stream embedding retrieval language large").split()
TOPICS = ["scheduling", "GPU clusters", "LLM serving", "fault tolerance", "compilers",
          "privacy", "storage", "networking"]


def make_sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def make_abstract(rng: random.Random, markdown: bool) -> str:
    """About 150 words of prose; with `markdown`, some inline Markdown, inline and display
    math, and three paragraphs."""
    sentences = [make_sentence(rng, rng.randint(12, 18)) for _ in range(10)]
    if markdown:
        words = sentences[1].split(" ")
        words[2] = f"*{words[2]}*"
        sentences[1] = " ".join(words)
        sentences[3] = sentences[3][:-1] + " with `kernel_launch()` calls."
        sentences[5] = sentences[5][:-1] + " (see [the artifact](https://example.org/a))."
        # Math, as scientists write it: inline, and a display of its own.
        sentences[7] = sentences[7][:-1] + r" in $O(n \log n)$ time for $n \ge 2$ jobs."
        display = r"$$T(n) = \sum_{i=1}^{n} \frac{c_i}{\mu - \lambda_i}$$"
        return (" ".join(sentences[:5]) + "\n\n" + " ".join(sentences[5:8]) + "\n\n"
                + display + "\n\n" + " ".join(sentences[8:]))
    return " ".join(sentences)


def make_title(rng: random.Random, i: int) -> str:
    name = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(5)).capitalize()
    rest = " ".join(rng.choice(WORDS) for _ in range(rng.randint(7, 12)))
    return f"{name}{i}: {rest.capitalize()}"


def make_authors(rng: random.Random) -> list[str]:
    names = [f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}" for _ in range(rng.randint(5, 11))]
    names.insert(rng.randrange(len(names)), OWNER)
    if rng.random() < 0.3:
        names[0] += "*"
        names[1] += "*"
    return names


def make_fields(rng: random.Random, i: int) -> dict:
    venue, short, kind = rng.choice(VENUES)
    year = rng.randint(2005, 2025)
    tag = f"{short.split()[0].lower()}{year}-{i}"
    return {
        "slug": f"paper-{i:05d}", "title": make_title(rng, i), "authors": make_authors(rng),
        "venue": venue, "venue_short": short, "type": kind, "year": year,
        "month": rng.randint(1, 12), "tier": rng.choice(["", "", "CCF-A", "CCF-B"]),
        "category": rng.choice(CATEGORIES), "topics": rng.sample(TOPICS, 2),
        "selected": rng.random() < 0.02, "abstract": make_abstract(rng, rng.random() < 0.1),
        "pdf": f"https://example.org/papers/{tag}.pdf", "code": f"https://github.com/example/{tag}",
        "doi": f"10.1145/{3000000 + i}", "arxiv": f"{year % 100:02d}{(i % 12) + 1:02d}.{i:05d}",
    }


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def translation_lines(p: dict, languages: tuple[str, ...]) -> list[str]:
    """A paper's `translations:` in the site's other languages (each third paper's: a
    title and an abstract), as a bilingual site's papers give some (examples/bilingual)."""
    if len(languages) < 2 or int(p["slug"].split("-")[1]) % 3:
        return []
    lines = ["translations:"]
    for tag in languages[1:]:
        lines += [f"  {tag}:", f"    title: {quote(f'[{tag}] ' + p['title'])}",
                  f"    abstract: {quote(f'[{tag}] ' + p['abstract'].split(chr(10))[0])}"]
    return lines


def write_markdown(folder: Path, p: dict, languages: tuple[str, ...] = ()) -> None:
    authors = "".join(f"  - {quote(a)}\n" for a in p["authors"])
    lines = [
        "---", f"title: {quote(p['title'])}", "authors:", authors.rstrip("\n"),
        f"venue: {p['venue']}", f"venue_short: {p['venue_short']}",
        f'date: "{p["year"]}-{p["month"]:02d}"', f"type: {p['type']}",
        *([f"tier: {p['tier']}"] if p["tier"] else []), f"category: {p['category']}",
        f"topics: [{', '.join(p['topics'])}]", *(["selected: true"] if p["selected"] else []),
        "links:", f"  pdf: {p['pdf']}", f"  code: {p['code']}", f"  doi: {p['doi']}",
        f"  arxiv: '{p['arxiv']}'", *translation_lines(p, languages), "---", "",
        p["abstract"], "",
    ]
    (folder / f"{p['slug']}.md").write_text("\n".join(lines), encoding="utf-8")


def bib_entry(p: dict) -> str:
    kind = "inproceedings" if p["type"] == "conference" else "article"
    where = "booktitle" if kind == "inproceedings" else "journal"
    fields = [("title", p["title"]), ("author", " and ".join(a.rstrip("*") for a in p["authors"])),
              (where, p["venue"]), ("abbr", p["venue_short"]), ("year", str(p["year"])),
              ("month", str(p["month"])), ("doi", p["doi"]), ("pdf", p["pdf"]),
              ("code", p["code"]), ("category", p["category"]), ("abstract", p["abstract"])]
    if p["tier"]:
        fields.append(("tier", p["tier"]))
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
    return f"@{kind}{{{p['slug'].replace('-', '_')},\n{body}\n}}\n"


SITE_YAML = """\
title: {owner}
url: https://example.org/
description: A synthetic site of {n} papers for benchmarks.
author:
  name: {owner}
publications:
  group_by: category
  categories: [{categories}]
  author_notes:
    "*": Equal contribution
"""
LANGUAGES_YAML = "languages: [{languages}]\n"


def make_corpus(root: Path, n: int, bib_share: float = 0.2, seed: int = 1,
                languages: tuple[str, ...] = ()) -> list[dict]:
    """Write a content folder of `n` papers below `root`; returns the papers' fields (for
    converting the same corpus to other generators). `bib_share` of them go into one
    publications/papers.bib. With several `languages` (the first the default), the site
    is in all of them and each third Markdown paper has a translation."""
    rng = random.Random(seed)
    papers = [make_fields(rng, i) for i in range(n)]
    pubs = root / "publications"
    pubs.mkdir(parents=True, exist_ok=True)
    (root / "site.yaml").write_text(SITE_YAML.format(
        owner=OWNER, n=n, categories=", ".join(CATEGORIES))
        + (LANGUAGES_YAML.format(languages=", ".join(languages)) if languages else ""),
        encoding="utf-8")
    (root / "index.md").write_text(f"{OWNER} works on *imaginary* systems.\n",
                                   encoding="utf-8")
    n_bib = int(n * bib_share)
    for p in papers[n_bib:]:
        write_markdown(pubs, p, languages)
    if n_bib:
        text = "\n".join(bib_entry(p) for p in papers[:n_bib])
        (pubs / "papers.bib").write_text(text, encoding="utf-8")
    return papers


def paper_path(root: Path, paper: dict) -> Path:
    """The Markdown file of a paper written by make_corpus."""
    return root / "publications" / f"{paper['slug']}.md"
