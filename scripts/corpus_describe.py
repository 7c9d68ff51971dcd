"""What a collected site is: its owner, language and field, as its configuration and its
papers' titles and venues say (guesses, and named as such in the manifest)."""

from __future__ import annotations

import re
from pathlib import Path

from corpus_truth import load_config, load_front_matter, plain


def owner_name(root: Path, kind: str) -> str | None:
    if kind == "hugo":
        for path in sorted(root.glob("content/**/authors/admin/_index.md")):
            meta = load_front_matter(path) or {}
            return plain(meta.get("title") or meta.get("name") or "") or None
        return None
    config = load_config(root, ("_config.yml",))
    author = config.get("author") if isinstance(config.get("author"), dict) else {}
    name = author.get("name") or " ".join(
        str(config.get(k) or "") for k in ("first_name", "middle_name", "last_name")).strip()
    return plain(name) or plain(config.get("title") or "") or None


FIELDS = (  # a site's field as its venues and titles name it (a guess, said as one)
    ("physics", r"phys|astro|quantum|optic|cosmolog|particle|condensed matter|plasma"),
    ("biology", r"biolog|genom|cell|ecolog|evolution|neuro|bioinf|protein|plos|molec|"
                r"medic|clinic|health|cancer|epidem"),
    ("economics", r"econom|financ|market|polic|management|business"),
    ("humanities", r"histor|philosoph|linguist|literat|religio|music|art\b|cultur|"
                   r"politic|sociolog|anthropolog|law\b|education|psycholog"),
    ("chemistry", r"chem|materials|catal"),
    ("mathematics", r"math|algebra|topolog|combinator|statistic|probab|siam"),
    ("computing", r"comput|learning|neural information|ieee|acm|arxiv|software|robot|"
                  r"vision|language processing|data|network|intelligen"),
)


def describe_site(root: Path, kind: str, truth: list[dict]) -> tuple[str, str]:
    """(language, field) of a site, guessed from its papers' titles and venues."""
    text = " ".join(f"{i['title']} {i['venue'] or ''}" for i in truth)
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    kana = len(re.findall(r"[\u3040-\u30ff]", text))
    hangul = len(re.findall(r"[\uac00-\ud7af]", text))
    language = "ja" if kana > 5 else "ko" if hangul > 5 else "zh" if cjk > 5 else \
        guess_latin_language(text)
    scores = {name: len(re.findall(pattern, text, re.I)) for name, pattern in FIELDS}
    best = max(scores, key=scores.get)
    return language, best if scores[best] else "unknown"


def guess_latin_language(text: str) -> str:
    words = re.findall(r"[a-zà-ÿ]+", text.lower())
    marks = {"de": {"und", "der", "die", "für", "über", "mit", "zur"},
             "fr": {"et", "les", "des", "pour", "une", "dans", "sur"},
             "es": {"y", "los", "las", "para", "del", "una", "con"},
             "pt": {"e", "os", "para", "uma", "com", "do", "da", "em"}}
    counts = {lang: sum(w in vocab for w in words) for lang, vocab in marks.items()}
    best = max(counts, key=counts.get)
    return best if counts[best] > max(5, len(words) // 40) else "en"
