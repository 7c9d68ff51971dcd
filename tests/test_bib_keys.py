"""Page addresses of BibTeX entries whose keys a machine made: DBLP's and ORCID's (as
`update` writes them), through a build of a .bib-only site."""

from __future__ import annotations

from conftest import build_args, run_cli, write_files

BIB = """\
@inproceedings{DBLP:conf/coe/ExampleB24,
  author = {Ada Example and Bob Builder},
  title = {Sharing Accelerators Fairly},
  booktitle = {Conference on Examples},
  year = {2024},
}

@article{ORCID:102,
  author = {Ada Example},
  title = {Queues That Say No: Admission Control for Training Jobs},
  journal = {Journal of Examples},
  year = {2023},
}
"""


def test_dblp_and_orcid_keys_give_readable_addresses(tmp_path):
    content = write_files(tmp_path / "content", {
        "site.yaml": "title: T\nurl: https://example.org/\nauthor:\n  name: Ada Example\n",
        "publications/papers.bib": BIB})
    out = tmp_path / "site"
    result = run_cli(*build_args(content, out))
    assert result.code == 0, result.err
    pages = sorted(p.parent.name for p in (out / "publications").glob("*/index.html"))
    assert pages == ["exampleb24", "queues-that-say-no-admission-control-for-training"]
