"""A citable bundle (issue 25 item 3): `certify cite` fills in the bundle's CITATION.cff with
valid Citation File Format 1.2.0, and `certify check` stays green after it and after a manual
edit; an edited CITATION.cff is replaced only with --force and kept first; bad values are
named (exit 2). The repository's own CITATION.cff names the version in pyproject.toml.

CFF 1.2.0 is checked against the rules of its JSON schema (schema.json of
citation-file-format/citation-file-format) for the keys written here: required keys, the
`date` and `doi` patterns, persons and entities, and a reference's required keys."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from certify.cite import author
from certify.cli import example_specs
from tests.conftest import run_cli

yaml = pytest.importorskip("yaml")  # PyYAML: in the test extra
ROOT = Path(__file__).resolve().parent.parent
DATE = re.compile(r"^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$")
DOI = re.compile(r"^10\.\d{4,9}(\.\d+)?/[A-Za-z0-9:/_;\-.()\[\]\\]+$")
TOP = {"abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi",
       "identifiers", "keywords", "license", "license-url", "message", "preferred-citation",
       "references", "repository", "repository-artifact", "repository-code", "title", "type",
       "url", "version"}  # fmt: skip
PERSON = {"address", "affiliation", "alias", "city", "country", "email", "family-names", "fax",
          "given-names", "name-particle", "name-suffix", "orcid", "post-code", "region", "tel",
          "website"}  # fmt: skip
ENTITY = {"address", "alias", "city", "country", "date-end", "date-start", "email", "fax",
          "location", "name", "orcid", "post-code", "region", "tel", "website"}  # fmt: skip


def cff_problems(doc: object) -> list[str]:
    """What CFF 1.2.0's schema rejects in `doc` (the keys used here)."""
    if not isinstance(doc, dict):
        return ["not a mapping"]
    out = [f"unknown key {k}" for k in doc if k not in TOP]
    out += [f"missing {k}" for k in ("authors", "cff-version", "message", "title") if k not in doc]
    if doc.get("cff-version") != "1.2.0":
        out.append("cff-version is not '1.2.0'")
    if doc.get("type", "software") not in ("software", "dataset"):
        out.append("type")
    for k in ("message", "title"):
        if not isinstance(doc.get(k), str) or not doc.get(k):
            out.append(f"{k}: not a non-empty string")
    if "date-released" in doc and not (
        isinstance(doc["date-released"], str) and DATE.match(doc["date-released"])
    ):
        out.append("date-released: not a YYYY-MM-DD string")
    if "doi" in doc and not (isinstance(doc["doi"], str) and DOI.match(doc["doi"])):
        out.append("doi: not a DOI")
    out += _authors(doc.get("authors"), "authors")
    for i, ref in enumerate(doc.get("references") or []):
        need = ("authors", "title", "type")
        out += [f"references[{i}]: missing {k}" for k in need if k not in ref]
        out += _authors(ref.get("authors"), f"references[{i}].authors")
    kw = doc.get("keywords", ["x"])
    if not (isinstance(kw, list) and kw and all(isinstance(k, str) and k for k in kw)):
        out.append("keywords")
    return out


def _authors(authors: object, where: str) -> list[str]:
    if not isinstance(authors, list) or not authors:
        return [f"{where}: not a non-empty list"]
    out = []
    for a in authors:
        if not isinstance(a, dict) or not all(isinstance(v, str) and v for v in a.values()):
            out.append(f"{where}: {a!r} is not a mapping of non-empty strings")
        elif not (set(a) <= PERSON or ("name" in a and set(a) <= ENTITY)):
            out.append(f"{where}: {a!r} is neither a person nor an entity")
    return out


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cite") / "b"
    spec = example_specs()[0].parent / "ktb-2-2-1.toml"
    r = run_cli("run", str(spec), "--no-coq", "--no-lean", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def _check(b: Path):
    r = run_cli("check", str(b), "--no-coq", "--no-lean", "--jobs", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "CITATION.cff: user-editable, not compared" in r.stdout


CITE = ("--author", "Noether, Emmy", "--author", "Kurt Gödel", "--author", "Euclid",
        "--date", "2026-01-31", "--title", 'Rank "certificates": a test', "--doi",
        "10.5281/zenodo.1003150")  # fmt: skip


def test_cite_writes_valid_cff_and_check_stays_green_after_it_and_a_manual_edit(
    plain: Path, tmp_path: Path
):
    b = tmp_path / "b"
    shutil.copytree(plain, b)
    template = yaml.safe_load((b / "CITATION.cff").read_text())
    r = run_cli("cite", str(b), *CITE)
    assert r.returncode == 0, r.stdout + r.stderr
    text = (b / "CITATION.cff").read_text()
    doc = yaml.safe_load(text)
    assert cff_problems(doc) == []
    assert doc["authors"] == [
        {"family-names": "Noether", "given-names": "Emmy"},
        {"family-names": "Gödel", "given-names": "Kurt"},
        {"family-names": "Euclid"},
    ]
    assert doc["title"] == 'Rank "certificates": a test'
    assert doc["date-released"] == "2026-01-31" and doc["doi"] == "10.5281/zenodo.1003150"
    (ref,) = doc["references"]
    assert ref["version"] == template["references"][0]["version"] == "0.1.0"
    assert ref["notes"].endswith(template["references"][0]["notes"].rsplit(" ", 1)[1])
    _check(b)
    # "You may edit this file" (its first comment): an ORCID and an abstract added by hand
    edited = (
        text.replace(
            '    given-names: "Emmy"\n',
            '    given-names: "Emmy"\n    orcid: "https://orcid.org/0000-0002-1825-0097"\n',
        )
        + 'abstract: "Certificates of the rank of a small network."\n'
    )
    (b / "CITATION.cff").write_text(edited)
    assert cff_problems(yaml.safe_load(edited)) == []
    _check(b)


def test_the_template_filled_in_by_hand_per_its_instructions_checks(plain: Path, tmp_path: Path):
    b = tmp_path / "b"
    shutil.copytree(plain, b)
    cff = b / "CITATION.cff"
    first = cff.read_text().splitlines()[0]
    assert "fill in the authors, title and date" in first
    filled = (
        cff.read_text()
        .replace("<family name>", "Noether")
        .replace("<given names>", "Emmy")
        .replace("<YYYY-MM-DD>", "2026-01-31")
        .replace(first + "\n", "")
    )
    cff.write_text(filled)
    _check(b)


def test_an_edited_citation_is_replaced_only_with_force_and_kept(plain: Path, tmp_path: Path):
    b = tmp_path / "b"
    shutil.copytree(plain, b)
    assert run_cli("cite", str(b), *CITE).returncode == 0
    assert run_cli("cite", str(b), *CITE).returncode == 0  # its own text: replaced silently
    mine = (b / "CITATION.cff").read_text() + "# my note\n"
    (b / "CITATION.cff").write_text(mine)
    r = run_cli("cite", str(b), "--author", "A B", "--date", "2026-02-01")
    assert r.returncode == 2 and "edited since the bundle was written" in r.stderr
    assert (b / "CITATION.cff").read_text() == mine
    r = run_cli("cite", str(b), "--author", "A B", "--date", "2026-02-01", "--force")
    assert r.returncode == 0, r.stderr
    kept = tmp_path / "b.CITATION.cff.orig"
    assert kept.read_text() == mine and str(kept) in r.stdout
    assert yaml.safe_load((b / "CITATION.cff").read_text())["authors"] == [
        {"family-names": "B", "given-names": "A"}
    ]
    _check(b)


@pytest.mark.parametrize(
    "args, flag",
    [
        (("--author", "A B", "--date", "2026-13-01"), "--date"),
        (("--author", "A B", "--date", "2026-02-30"), "--date"),
        (("--author", "A B", "--date", "2026-02-01", "--doi", "https://doi.org/10.1/x"), "--doi"),
        (("--author", " ", "--date", "2026-02-01"), "--author"),
        (("--author", "A\u2028B", "--date", "2026-02-01"), "--author"),
        (("--author", "A B", "--date", "2026-02-01", "--title", "a\nb"), "--title"),
    ],
)
def test_bad_values_are_named(plain: Path, tmp_path: Path, args, flag):
    b = tmp_path / "b"
    shutil.copytree(plain, b)
    before = (b / "CITATION.cff").read_bytes()
    r = run_cli("cite", str(b), *args)
    assert r.returncode == 2 and flag in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert (b / "CITATION.cff").read_bytes() == before


def test_cite_refuses_a_directory_that_is_not_a_bundle(tmp_path: Path):
    r = run_cli("cite", str(tmp_path), "--author", "A B", "--date", "2026-02-01")
    assert r.returncode == 2 and "no manifest.json" in r.stderr


def test_author_names():
    assert author("van der Waals, Johannes Diderik") == {
        "family-names": "van der Waals", "given-names": "Johannes Diderik"}  # fmt: skip
    assert author("Ada Lovelace") == {"family-names": "Lovelace", "given-names": "Ada"}


def test_the_repository_cites_itself_at_its_version():
    doc = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff_problems(doc) == []
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert doc["version"] == version and doc["type"] == "software"
    assert doc["authors"] == [{"name": "nn-certify developers"}]
    assert doc["license"] == "MIT"
