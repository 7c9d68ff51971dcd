"""Filling Sveltia CMS's forms as a person does, field by field, from the editor's own
configuration (views/editor.py's config.yml): whatever a collection's form offers is typed,
picked, switched or uploaded through its widget, so a field the configuration gains is
filled without a change here. Used by test_editor.py."""

from __future__ import annotations

import re
from pathlib import Path

ADD = re.compile(r"^Add")


def value_of(key: str, prefix: str, special: dict[str, str]) -> str:
    """What is typed into the text field at `key`: the value `special` gives its name (a
    language tag, a URL, a date the reader checks), else a word made of its collection and
    key path, found again in the file and in the built site."""
    name = key.rsplit(".", 1)[-1]
    return special.get(f"{prefix}.{key}", special.get(name, f"zq-{prefix}-{key}".replace(".", "-")))


class FormFiller:
    """Fills one entry's form (the page shows it) from its configuration's `fields`."""

    def __init__(self, page, prefix: str, special: dict[str, str], picture: Path) -> None:
        self.page, self.prefix, self.special, self.picture = page, prefix, special, picture
        self.typed: dict[str, str | bool] = {}  # {key path: the text typed or picked}, to find again

    def fill(self, fields: list[dict], parent: str = "") -> None:
        for spec in fields:
            self.fill_field(spec, f"{parent}{spec['name']}")

    def section(self, key: str):
        """The field at `key` (Sveltia marks each with its key path): the form renders
        fields as they scroll into view, so scroll on until it is there."""
        found = self.page.locator(f'section.field[data-key-path="{key}"]')
        for _ in range(80):
            if found.count():
                found.first.scroll_into_view_if_needed()
                return found.first
            self.page.mouse.wheel(0, 400)
            self.page.wait_for_function("() => new Promise(requestAnimationFrame)")
        raise AssertionError(f"the form has no field {key!r}")

    def fill_field(self, spec: dict, key: str) -> None:
        part = self.section(key)
        widget = spec.get("widget", "string")
        getattr(self, f"fill_{widget}")(part, spec, key)

    def value(self, key: str) -> str:
        self.typed[key] = value_of(key, self.prefix, self.special)
        return self.typed[key]

    def fill_string(self, part, spec: dict, key: str) -> None:
        part.get_by_role("textbox").first.fill(self.value(key))

    fill_text = fill_string

    def fill_markdown(self, part, spec: dict, key: str) -> None:
        part.get_by_role("button", name="Edit in Markdown").click()
        text = self.value(key)
        part.get_by_role("textbox").first.fill(f"## Part {text}\n\n{text} said.")

    def fill_boolean(self, part, spec: dict, key: str) -> None:
        part.get_by_role("switch").click()
        self.typed[key] = True

    def fill_datetime(self, part, spec: dict, key: str) -> None:
        part.get_by_role("button", name="Today").click()

    def fill_select(self, part, spec: dict, key: str) -> None:
        choice = self.special.get(f"{self.prefix}.{key}", spec["options"][0])
        self.typed[key] = choice
        radio = part.get_by_role("radio", name=choice, exact=True)
        if radio.count():  # a few options are shown as radio buttons
            radio.click()
            return
        part.get_by_role("combobox").click()
        self.page.get_by_role("option", name=choice, exact=True).click()

    def fill_list(self, part, spec: dict, key: str) -> None:
        if "fields" in spec:  # a list of groups: one added, each of its fields filled
            part.get_by_role("button", name=ADD).last.click()
            self.fill(spec["fields"], f"{key}.0.")
            return
        if not part.get_by_label("Item Value").count():
            part.get_by_role("button", name=ADD).click()
        part.get_by_label("Item Value").last.fill(self.value(key))

    def fill_object(self, part, spec: dict, key: str) -> None:
        if not spec.get("required", True):  # an optional group is off until added
            part.get_by_role("checkbox").first.click()
        expand = part.get_by_role("button", name=re.compile("^Expand"))
        if expand.count():
            expand.first.click()
        self.fill(spec["fields"], f"{key}.")

    def fill_keyvalue(self, part, spec: dict, key: str) -> None:
        part.get_by_role("button", name="Add").click()
        pair = self.value(key).split("=", 1)
        part.get_by_role("textbox", name="Key").last.fill(pair[0])
        part.get_by_role("textbox", name="Value").last.fill(pair[1])

    def fill_image(self, part, spec: dict, key: str) -> None:
        part.locator("input[type=file]").first.set_input_files(str(self.picture))
        self.typed[key] = f"files/{self.picture.name}"
        replace = self.page.get_by_role("alertdialog").get_by_role("button", name="Replace")
        replace.or_(part.get_by_text(self.picture.name)).first.wait_for()
        if replace.is_visible():  # the same picture, uploaded by an earlier form
            replace.click()

    def fill_relation(self, part, spec: dict, key: str) -> None:
        # A few entries are all listed: ticked (several) or picked (one).
        role = "checkbox" if spec.get("multiple") else "radio"
        part.get_by_role(role, name=self.value(key)).click()
