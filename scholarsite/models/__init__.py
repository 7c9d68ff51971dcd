"""The content model: what a site means, independent of where it was read from.

Readers (Markdown front matter, BibTeX) build these once; nothing mutates them afterwards.
A paper from Markdown and a paper from BibTeX are the same `Paper`. Papers and their parts
are in papers.py, the site's settings and its other content in site.py; both are named
from here (`from scholarsite.models import Paper`)."""

from .papers import (LINK_KINDS, MONTH_NAMES, PAPER_TYPES, TOPIC_SEPARATOR, TYPE_LABELS,
                     Author, Link, Paper, Preview, PubDate)
from .site import (CV, AnalyticsConfig, AuthorLink, CitationCount, CmsConfig, CommentsConfig, CVEntry,
                   CVPdfSettings,
                   CVSection, Item, LabConfig, NavEntry, Owner, Person, PublicationsConfig,
                   Redirect, SiteConfig, Site, SourcesConfig, ThemeConfig, TierRow,
                   TierTable, Variant)

__all__ = ["LINK_KINDS", "MONTH_NAMES", "PAPER_TYPES", "TOPIC_SEPARATOR", "TYPE_LABELS",
           "Author", "Link", "Paper", "Preview", "PubDate", "CV", "AnalyticsConfig",
           "AuthorLink", "CitationCount", "CmsConfig", "CommentsConfig", "CVEntry", "CVPdfSettings", "CVSection", "Item",
           "LabConfig", "NavEntry", "Owner", "Person", "PublicationsConfig", "Redirect",
           "SiteConfig", "Site", "SourcesConfig", "ThemeConfig", "TierRow", "TierTable",
           "Variant"]
