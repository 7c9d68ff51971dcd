"""The links of the papers' abstracts that a save checks (plan/checks.check_text_links),
kept from save to save: a save of papers looks at those it read again rather than at
every abstract (at 5,000 papers, going over them all took 12 ms of a 50 ms save)."""

from __future__ import annotations

from ..models import Paper, Site
from ..plan.checks import Linking, abstract_of, find_linking, link_text, list_other_texts


class PaperLinks:
    """The abstracts that link to the site or to a place of their own, by the paper's
    slug, in the site's order."""

    def __init__(self) -> None:
        self.found: dict[str, Linking] | None = None  # None: not looked at yet

    def update(self, site: Site, papers: list[Paper] | None, positions: dict[str, int]
               ) -> list[Linking]:
        """find_linking of the site's texts but the bio, the abstracts of `papers` looked
        at again (the site's others as they were, in their places: `positions`), or of
        every paper (None)."""
        if papers is None or self.found is None:
            self.found = {paper.slug: linking for paper in site.papers
                          if (linking := link_text(*abstract_of(paper)))}
        else:
            self.look_again(papers, positions)
        return list(self.found.values()) + find_linking(list_other_texts(site))

    def look_again(self, papers: list[Paper], positions: dict[str, int]) -> None:
        found, added = self.found or {}, False
        for paper in papers:
            linking = link_text(*abstract_of(paper))
            if linking is None:
                found.pop(paper.slug, None)
            else:
                added = added or paper.slug not in found
                found[paper.slug] = linking
        if added:  # in the site's order, as check_text_links says them
            self.found = dict(sorted(found.items(), key=lambda item: positions[item[0]]))
