"""Two shapes of scientific writing that Python-Markdown leaves as they are:

- a figure: an image alone in its paragraph, with a title, `![alt](files/x.png "Caption")`,
  becomes `<figure>` with the title as its `<figcaption>`;
- a task list: list items that start with `[ ]` or `[x]` get a checkbox, shown and read
  as done or not (disabled, with an accessible name, since a page cannot save a tick).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

_TASK = re.compile(r"\[([ xX])\]\s+")


class Figures(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for i, p in enumerate(list(parent)):
                if p.tag != "p" or len(p) != 1 or (p.text or "").strip():
                    continue
                img = p[0]
                if img.tag != "img" or not img.get("title") or (img.tail or "").strip():
                    continue
                figure = etree.Element("figure")
                caption = img.attrib.pop("title")
                figure.append(img)
                img.tail = None
                etree.SubElement(figure, "figcaption").text = caption
                figure.tail = p.tail
                parent.remove(p)
                parent.insert(i, figure)


class TaskLists(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for ul in root.iter("ul"):
            items = [li for li in ul if li.tag == "li"]
            marks = [match_task(li) for li in items]
            if not items or not all(marks):
                continue
            ul.set("class", "task-list")
            for li, match in zip(items, marks):
                holder = li[0] if len(li) and li[0].tag == "p" and not (li.text or "").strip() \
                    else li
                done = match.group(1) != " "
                box = etree.Element("input", {"type": "checkbox", "disabled": "disabled",
                                              "aria-label": "done" if done else "not done"})
                if done:
                    box.set("checked", "checked")
                box.tail = " " + holder.text[match.end():]
                holder.text = None
                holder.insert(0, box)


def match_task(li: etree.Element) -> re.Match | None:
    holder = li[0] if len(li) and li[0].tag == "p" and not (li.text or "").strip() else li
    return _TASK.match(holder.text or "")


class WritingExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.treeprocessors.register(Figures(md), "scholarsite_figures", 7)
        md.treeprocessors.register(TaskLists(md), "scholarsite_tasks", 7)
