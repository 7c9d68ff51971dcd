"""The marker of the interface's strings that Python tables hold (a kind's title, a type's
heading, a label): each is translated where it is shown, through a variable that Babel's
extractor cannot follow, so the table marks it.

tests/test_languages.py extracts every marked string, with those the views translate
directly (`t("Year")`, `gettext(...)`), and fails for one the catalogs lack, which would
be shown in English on every other language's pages.
"""


def N_(message: str) -> str:  # noqa: N802: gettext's name, a keyword Babel knows
    """`message` unchanged: marked for the catalogs, translated where it is shown."""
    return message
