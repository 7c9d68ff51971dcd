"""site.yaml's `cms`: a browser editor at /admin/ for the people who do not use git. Opt-in;
without it the site has no /admin/. A lab member signs in with GitHub there and edits
papers, news, talks, people, pages and the CV as forms; each save is a commit to `repo`,
which the site's workflow builds (docs/editor.md).

    cms:
      editor: sveltia     # or decap (default: sveltia)
      repo: owner/name    # the site's repository on GitHub
      branch: main        # where the editor commits (default: main)
      auth: https://...   # an OAuth proxy for "Sign in with GitHub" (default: none;
                          # Sveltia then signs in with a personal access token)
"""

from __future__ import annotations

import re

from ...models import CmsConfig
from .fields import FieldReader

EDITORS = ("sveltia", "decap")
_REPO = re.compile(r"^[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}$")
_AUTH = re.compile(r"^https://[A-Za-z0-9.-]+(?::\d{1,5})?/?$")
_BRANCH = re.compile(r"^[A-Za-z0-9._/-]{1,200}$")


def read_cms(reader: FieldReader, present: bool) -> CmsConfig:
    """`cms` (see above); absent: none."""
    if not present:
        return CmsConfig()
    editor = reader.choice("editor", EDITORS, EDITORS[0])
    repo = reader.line_text("repo", required=True)
    branch = reader.line_text("branch") or "main"
    auth = reader.line_text("auth")
    reader.check_unknown()
    good = True
    if repo and not _REPO.match(repo):
        reader.error(("repo",), f"'cms.repo' {repo!r} is not owner/name, the repository's "
                     "name on GitHub")
        good = False
    if not _BRANCH.match(branch) or ".." in branch:
        reader.error(("branch",), f"'cms.branch' {branch!r} is not a branch name")
        good = False
    if auth and not _AUTH.match(auth):
        reader.error(("auth",), f"'cms.auth' {auth!r} is not an https:// address (of the "
                     "OAuth proxy, without a path)")
        good = False
    return CmsConfig(editor, repo, branch, auth) if repo and good else CmsConfig()
