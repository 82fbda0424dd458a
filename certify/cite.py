"""`certify cite BUNDLE --author NAME ... --date YYYY-MM-DD [--title T] [--doi DOI]`: fill in
the bundle's CITATION.cff, the one file of a bundle the user may edit (verify.USER_EDITABLE:
`certify check` requires it to be a regular file and does not compare it).

The file written is Citation File Format 1.2.0 (https://citation-file-format.github.io/,
schema.json of citation-file-format/citation-file-format): `cff-version`, `message`,
`title`, `authors` (persons with `family-names` / `given-names`), `date-released`, `doi`
when given, `keywords`, and a `references` entry for the nn-certify that wrote the bundle
(its version and the sha256 of its sources, from the manifest). Every string is written as
a YAML double-quoted scalar (a JSON string), so any title or name reads back exactly.

An author is "Family, Given" (split at the first comma) or "Given ... Family" (the last
word is the family name); one word is a family name alone. A CITATION.cff that is not the
bundle's template (someone edited it) is replaced only with --force, and its text is first
kept next to the bundle (`<bundle>.CITATION.cff.orig`, numbered if taken): nothing the user
wrote is deleted."""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from certify.errors import BundleError, InputError, OutputError

CFF = "CITATION.cff"
# The patterns of schema.json (CFF 1.2.0) for `date` and `doi`.
DATE_RE = re.compile(r"[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])")
DOI_RE = re.compile(r"10\.\d{4,9}(\.\d+)?/[A-Za-z0-9:/_;\-.()\[\]\\]+")
KEYWORDS = ("neural networks", "certificates", "Coq", "Lean")


def _q(s: str) -> str:
    """A YAML double-quoted scalar holding `s` exactly (JSON's escapes are YAML's)."""
    return json.dumps(s, ensure_ascii=False)


def _text(value: str, flag: str) -> str:
    """A one-line, non-empty text without control or line-separator characters."""
    v = value.strip()
    bad = [c for c in v if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if not v or bad:
        raise InputError(f"{flag} {value!r}: expected a non-empty line of text")
    return v


def author(value: str) -> dict[str, str]:
    """--author "Family, Given" or "Given ... Family" -> a CFF person."""
    v = _text(value, "--author")
    if "," in v:
        family, given = (p.strip() for p in v.split(",", 1))
    else:
        *first, family = v.split()
        given = " ".join(first)
    if not family:
        raise InputError(f"--author {value!r}: expected 'Family, Given' or 'Given Family'")
    return {"family-names": family, **({"given-names": given} if given else {})}


def citation_text(
    manifest: dict[str, Any],
    authors: list[dict[str, str]],
    date: str,
    title: str | None = None,
    doi: str | None = None,
) -> str:
    """CITATION.cff for the bundle of `manifest` (module docstring)."""
    if not authors:
        raise InputError("--author: at least one author is required")
    if not DATE_RE.fullmatch(date):
        raise InputError(f"--date {date!r}: expected YYYY-MM-DD")
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise InputError(f"--date {date!r}: not a calendar date") from None
    if doi is not None and not DOI_RE.fullmatch(doi):
        raise InputError(f"--doi {doi!r}: expected a DOI such as 10.5281/zenodo.1003150 "
                         "(not a resolver URL)")  # fmt: skip
    names = ", ".join(str(s.get("name")) for s in manifest.get("specs") or [])
    title = (
        _text(title, "--title") if title is not None else f"Machine-checked certificates: {names}"
    )
    tool = manifest.get("tool") or {}
    sources = (manifest.get("tool_sources") or {}).get("sha256")
    lines = [
        "# Written by `certify cite`. You may edit this file: it is the one file of the bundle",
        "# that `certify check` does not compare (Citation File Format 1.2.0).",
        "cff-version: 1.2.0",
        f"message: {_q('If you use these certificates, please cite them as below.')}",
        "type: dataset",
        f"title: {_q(title)}",
        "authors:",
    ]
    for a in authors:
        keys = list(a)
        lines.append(f"  - {keys[0]}: {_q(a[keys[0]])}")
        lines += [f"    {k}: {_q(a[k])}" for k in keys[1:]]
    lines.append(f"date-released: {_q(date)}")
    if doi is not None:
        lines.append(f"doi: {_q(doi)}")
    lines.append("keywords:")
    lines += [f"  - {_q(k)}" for k in KEYWORDS]
    lines += [
        "references:",
        "  - type: software",
        "    title: nn-certify",
        "    authors:",
        f"      - name: {_q('nn-certify developers')}",
        f"    version: {_q(str(tool.get('nn-certify')))}",
        "    license: MIT",
        f"    notes: {_q(f'sha256 of the tool sources: {sources}')}",
    ]
    return "\n".join(lines) + "\n"


def _keep(bundle: Path, text: bytes) -> Path:
    """Save `text` next to the bundle under a name not taken; return it."""
    base = bundle.parent / f"{bundle.name}.{CFF}.orig"
    p, n = base, 1
    while p.exists() or p.is_symlink():
        n += 1
        p = base.with_name(f"{base.name}.{n}")
    p.write_bytes(text)
    return p


def write_citation(
    bundle: Path,
    authors: list[str],
    date: str,
    title: str | None = None,
    doi: str | None = None,
    force: bool = False,
) -> tuple[Path, Path | None]:
    """Write BUNDLE/CITATION.cff; returns it and where an edited previous file was kept."""
    from certify.referee import citation_cff
    from certify.verify import _read_manifest

    try:
        manifest = _read_manifest(Path(bundle))
    except BundleError as e:
        raise InputError(f"BUNDLE {bundle}: {e}") from None
    text = citation_text(manifest, [author(a) for a in authors], date, title, doi)
    target = Path(bundle) / CFF
    kept = None
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise OutputError(f"{target}: not a regular file (a bundle holds regular files only)")
    if target.exists():
        old = target.read_bytes()
        try:
            template = citation_cff(manifest).encode()
        except (KeyError, TypeError, AttributeError, ValueError):
            template = None
        if old not in (template, text.encode()):
            if not force:
                raise OutputError(
                    f"{target}: edited since the bundle was written; refusing to replace it "
                    "(--force replaces it, keeping the present text next to the bundle)"
                )
            kept = _keep(Path(bundle), old)
    try:
        target.write_text(text)
    except OSError as e:
        raise OutputError(f"{target}: cannot write: {e}") from None
    return target, kept
