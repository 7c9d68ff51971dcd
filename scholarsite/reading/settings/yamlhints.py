"""What to do about the YAML mistakes people make most, said in their words.

PyYAML's messages name the parser's state ("mapping values are not allowed in this
context", "did not find expected key ... while parsing a block mapping that starts here"),
and point at where it gave up, sometimes the start of the whole mapping. For four common
mistakes the line at fault is known and so is the fix:

- a value holding `: ` (`title: Tidal: Consistent Snapshots`): put the value in quotes;
- a line indented more or less than the keys beside it;
- a tab used to indent;
- a quote that opens a text and is never closed (the parser gives up at the file's end).

Each gives one line, the one to change, with its text shown. Anything else is left to
yamlread.describe_yaml_error.
"""

from __future__ import annotations

import re

import yaml

KEY = re.compile(r"\s*(?:-\s+)?[^\s#'\"][^:#]*?:\s")  # `key: ` or `- key: `, at a line's start


def explain_yaml_error(exc: yaml.MarkedYAMLError, text: str) -> tuple[int, str] | None:
    """(line counted from 0, message) for a common mistake, or None."""
    mark = exc.problem_mark
    if mark is None:
        return None
    lines = text.splitlines()
    if exc.context == "while scanning a quoted scalar" and exc.context_mark is not None \
            and exc.context_mark.line < len(lines):  # gave up at the end of the text
        return explain_quote(lines, exc.context_mark.line, exc.context_mark.column)
    if not 0 <= mark.line < len(lines):
        return None
    problem = exc.problem or ""
    if "\t" in problem or "'\\t'" in problem or " tab " in problem or (
            lines[mark.line][mark.column:mark.column + 1] == "\t" and "cannot start" in problem):
        return mark.line, (f"a tab indents this line ({show(lines[mark.line])}); YAML "
                           "indents with spaces only: replace the tab with spaces")
    if problem.startswith("mapping values are not allowed"):
        return explain_colon(lines, mark.line)
    if exc.context and "block" in exc.context and ("expected key" in problem
                                                   or "expected <block end>" in problem):
        return explain_indent(lines, mark.line)
    return None


def explain_colon(lines: list[str], line: int) -> tuple[int, str]:
    """`key: value: more`: the value holds `: `, or the line is indented under the one
    above as if it went on with that line's value."""
    here = lines[line]
    fixed = quote_value(here)
    if fixed:
        name = KEY.match(here).group(0).strip()
        return line, (f"the value of '{name.rstrip(':').lstrip('- ')}' holds ': ', which YAML "
                      f"reads as another key: put the value in quotes: {fixed.strip()}")
    return explain_indent(lines, line)


def quote_value(line: str) -> str | None:
    """`key: value: more` with its value in quotes, the fix explain_colon names (migrate
    makes it); None when the line's value holds no ': ' or is quoted already."""
    key = KEY.match(line)
    value = line[key.end():].strip() if key else ""
    if key and ": " in value + " " and not value.startswith(("'", '"', "[", "{")):
        quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return f"{key.group(0).rstrip()} {quoted}"
    return None


def explain_quote(lines: list[str], line: int, column: int) -> tuple[int, str]:
    """A quote that opens a text and is never closed: YAML reads on to the end of the
    file, so the parser gives up there, far from the line to change."""
    here = lines[line].rstrip()
    quote = here[column:column + 1] or '"'
    fix = f"close it with {quote} where the text ends"
    if here[:column].rstrip().endswith((":", "-")) and quote not in here[column + 1:]:
        fix += f": {here.strip()}{quote}"  # the value is the quoted text alone
    return line, (f"the quote {quote} opened on this line ({show(here)}) is never closed, so "
                  f"YAML reads all that follows as one text: {fix}")


def explain_indent(lines: list[str], line: int) -> tuple[int, str]:
    here = lines[line]
    above = next((lines[i] for i in range(line - 1, -1, -1)
                  if lines[i].strip() and not lines[i].lstrip().startswith("#")), "")
    indent, before = width(here), width(above)
    how = ("more than" if indent > before else "less than" if indent < before
           else "as much as")
    return line, (f"this line ({show(here)}) is indented {how} the line above it "
                  f"({show(above)}) and lines up with no key there: indent it as far as the "
                  "keys of the mapping it belongs to (spaces, the same number for each)")


def width(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def show(line: str) -> str:
    text = line.rstrip() or line  # a line of a tab alone shows it
    return repr(text if len(text) <= 60 else text[:57] + "...")
