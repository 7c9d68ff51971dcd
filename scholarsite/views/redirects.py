"""What a redirect page shows: where its old address now is, relative (for the refresh and
the link, so that a copy of the site works anywhere) and absolute (its canonical link)."""

from __future__ import annotations

from ..models import Redirect, SiteConfig
from ..structure.urls import absolute_url, is_external, page_root


def redirect_view(config: SiteConfig, redirect: Redirect) -> dict:
    target = redirect.target
    relative = target if is_external(target) else page_root(redirect.old) + target
    return {"to": relative or "./", "canonical": absolute_url(config.url, target)}
