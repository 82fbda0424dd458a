"""The documentation does what it says (issue 25, item 4).

* The README's Python example runs: every ```python block of README.md is a doctest, run here
  (without provers: `api.certify` without `coq` or `out` runs only the Python checker) and
  compared with the output the README prints.
* Every document that the README, docs/*.md, the `certify <cmd> --help` texts, the claim
  texts and the sources (certify/, templates/, coq/, lean/) cite by a file name ending in
  ".md" exists in the repository (or is a file every bundle has, or is named as another
  repository's file).
  The claim texts are those of a certificate of every registry line (the `certify init`
  starters; tests/test_init_spec.py tests the command).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from pathlib import Path

import pytest

from certify import cli
from certify.checker import registry
from certify.init_spec import STARTERS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PY_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


# ------------------------------------------------------------------ the README's example


def readme_examples() -> list[str]:
    return PY_BLOCK.findall(README.read_text(encoding="utf-8"))


@pytest.mark.quick
def test_the_readme_has_a_python_example_with_output() -> None:
    blocks = readme_examples()
    assert blocks, "no ```python block in README.md"
    parser = doctest.DocTestParser()
    for b in blocks:
        examples = parser.get_examples(b)
        assert examples and any(e.want for e in examples), b[:200]


@pytest.mark.quick
@pytest.mark.parametrize(
    "block", readme_examples(), ids=[f"block-{i}" for i in range(len(readme_examples()))]
)
def test_the_readme_python_example_prints_what_it_says(block: str) -> None:
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", str(README), 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    assert runner.tries >= 2


def test_a_wrong_expected_output_fails_the_doctest() -> None:
    """The runner above reports a mismatch (the README once promised (True, 5, 6))."""
    block = readme_examples()[0]
    wrong = block.replace("(True, 5, 6, 5)", "(True, 5, 6, 6)")
    assert wrong != block
    test = doctest.DocTestParser().get_doctest(wrong, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda s: None)
    assert runner.failures == 1


# ----------------------------------------------------------- cited documents exist

# ".md" file names in prose: "docs/math.md", "math.md", "`benchmarks/README.md`".
MD_NAME = re.compile(r"(?<![\w./\\-])((?:[\w.-]+/)*[\w-]+\.md)\b")
# Files of every bundle (written by certify/bundle.py and certify/referee.py), mentioned
# bare or below a bundle directory the text names (out/, DIR/, ...).
BUNDLE_FILES = {"report.md", "README.md", "docs/citations.md", "citations.md"}
# Another repository's files, cited with its name: path -> the repository.
EXTERNAL = {
    "SPEC/matrix-tactics.md": "kim-em/hex-dev",
    "HexRank/SPEC/hex-rank.md": "kim-em/hex-dev",
}
# Names that are not citations: name -> what it is.
NOT_CITED = {"READM\u0415.md": "a look-alike of README.md (Cyrillic Е) that certify check rejects"}
SOURCE_DIRS = [
    (ROOT / "certify", (".py", ".toml")),
    (ROOT / "templates", (".j2",)),
    (ROOT / "coq", (".v",)),
    (ROOT / "lean", (".lean", ".toml")),
]


def help_texts() -> dict[str, str]:
    """`certify --help` and `certify <cmd> --help` for every subcommand, run in process."""

    def helptext(argv: list[str]) -> str:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), pytest.raises(SystemExit):
            cli.main(argv)
        return buf.getvalue()

    top = helptext(["--help"])
    cmds = re.search(r"\{([a-z,-]+)\}", top)
    assert cmds, top
    out = {"certify --help": top}
    for cmd in cmds.group(1).split(","):
        out[f"certify {cmd} --help"] = helptext([cmd, "--help"])
    return out


def _texts() -> list[tuple[str, str, Path]]:
    """(where, text, the directory its relative names are read from)."""
    out = [("README.md", README.read_text(encoding="utf-8"), ROOT)]
    out += [
        (f"docs/{p.name}", p.read_text(encoding="utf-8"), DOCS) for p in sorted(DOCS.glob("*.md"))
    ]
    for base, suffixes in SOURCE_DIRS:
        for p in sorted(base.rglob("*")):
            if p.is_file() and p.suffix in suffixes and "_data" not in p.parts:
                out.append((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"), ROOT))
    return out


def resolves(name: str, base: Path) -> bool:
    """A cited .md name exists: relative to the citing document, the repository root or
    docs/, or anywhere in the repository for a bare name (benchmarks/README.md)."""
    for d in (base, ROOT, DOCS):
        if (d / name).is_file():
            return True
    return False


def unresolved(where: str, text: str, base: Path) -> list[str]:
    bad = []
    for m in MD_NAME.finditer(text):
        name = m.group(1)
        if name in NOT_CITED:
            continue
        if name in EXTERNAL:
            near = text[max(0, m.start() - 80) : m.end() + 80]
            if EXTERNAL[name] not in near:
                bad.append(f"{where}: {name} (another repository's file, not named near it)")
            continue
        if resolves(name, base):
            continue
        parts = name.split("/")
        if any("/".join(parts[i:]) in BUNDLE_FILES for i in range(len(parts))):
            continue
        line = text.count("\n", 0, m.start()) + 1
        bad.append(f"{where}:{line}: {name}")
    return bad


@pytest.mark.quick
def test_bundle_files_are_written_by_the_bundle_code() -> None:
    src = (ROOT / "certify" / "bundle.py").read_text() + (
        ROOT / "certify" / "referee.py"
    ).read_text()
    for name in BUNDLE_FILES:
        assert f'"{name}"' in src or f"/ {name!r}" in src or name in src, name


@pytest.mark.quick
def test_the_scan_finds_citations() -> None:
    """The scan sees the citations it is about (a broken regex would pass everything)."""
    found = {m.group(1) for _, t, _ in _texts() for m in MD_NAME.finditer(t)}
    assert {"docs/math.md", "math.md", "design.md", "docs/trust-model.md"} <= found, found
    assert "math.md" in help_texts()["certify --help"]  # figure: "a figure of math.md"
    assert "docs/spec-reference.md" in help_texts()["certify init --help"]
    assert unresolved("x", "see docs/no-such-guide.md and coq-guide.md", ROOT) == [
        "x:1: docs/no-such-guide.md",
        "x:1: coq-guide.md",
    ]


@pytest.mark.quick
def test_every_document_cited_in_docs_and_sources_exists() -> None:
    bad = [b for where, text, base in _texts() for b in unresolved(where, text, base)]
    assert not bad, "\n".join(bad)


@pytest.mark.quick
def test_every_document_cited_in_help_texts_exists() -> None:
    bad = [b for where, text in help_texts().items() for b in unresolved(where, text, ROOT)]
    assert not bad, "\n".join(bad)


LINES = sorted(registry.BY_KEY)


@pytest.mark.parametrize("family,kind", LINES, ids=[f"{f}-{k}" for f, k in LINES])
def test_every_document_cited_in_claim_texts_exists(family: str, kind: str) -> None:
    """The claims of a certificate of every registry line (the `certify init` starters)."""
    from certify import api

    for c in api.certify(STARTERS[(family, kind)]):
        assert not unresolved(f"claim of {c.name}", c.claim["text"], ROOT)
