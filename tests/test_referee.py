"""A bundle a referee can use: README.md, CITATION.cff, docs/citations.md and the spec files
ship in every bundle, `certify check` regenerates and compares them, and a re-run from the
bundle's own specs gives byte-identical certificates."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from certify.checker.claims import relu as claims_relu
from certify.checker.claims import tanh as claims_tanh
from certify.checker.claims.common import LOWER_CITE
from certify.checker.claims.compind import (
    COR41,
    EXAMPLES,
    NEWMAN_SLATER,
    PROP21,
    PROP33,
    THM35,
    ZARISKI,
)
from certify.checker.claims.rank import KTB, USEVICH
from certify.referee import CITATIONS, _tanh_cite, tool_sources
from tests.test_bundle import SPEC
from tests.test_cli_gates import cli

ROOT = Path(__file__).resolve().parent.parent
RESNET = (ROOT / "certify" / "examples" / "resnet-figure-1.toml").read_text()
COMPIND = (ROOT / "certify" / "examples" / "compind-z2z.toml").read_text()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One bundle of three specs for the module (the run is the expensive part)."""
    tmp = tmp_path_factory.mktemp("referee")
    specs = []
    for name, text in (("s.toml", SPEC), ("fig.toml", RESNET), ("z.toml", COMPIND)):
        (tmp / name).write_text(text)
        specs.append(str(tmp / name))
    out = tmp / "b"
    r = cli("run", *specs, "--out", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture
def bundle(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the module's bundle: each test may forge its own."""
    shutil.copytree(built, tmp_path / "b", symlinks=True)
    return tmp_path / "b"


def test_every_cite_constant_of_the_claims_has_a_citation_entry():
    consts = [LOWER_CITE, USEVICH, KTB, PROP21, PROP33,
              ZARISKI, NEWMAN_SLATER, COR41, THM35, EXAMPLES,
              claims_relu.LOWER_CITE, claims_relu.SCALING, claims_relu.GRILLO_MONTUFAR,
              claims_relu.WIDTH_ONE, claims_tanh.VB, claims_tanh.SUSSMANN,
              claims_tanh.FEFFERMAN]  # fmt: skip
    for c in consts:
        assert c in CITATIONS, c
    assert _tanh_cite(claims_tanh.SYM_LIB) is not None
    # literal cite strings elsewhere (claims/resnet.py, check/implicit.py)
    for src in (ROOT / "certify").glob("*.py"):
        for lit in re.findall(r'"cites": \[([^\]]*)\]', src.read_text()):
            for s in re.findall(r'"([^"]+)"', lit):
                assert s in CITATIONS, (src.name, s)


def test_bundle_ships_readme_citation_docs_and_specs_and_check_passes(bundle: Path):
    m = json.loads((bundle / "manifest.json").read_text())
    for rel in ("README.md", "CITATION.cff", "docs/citations.md", "specs/s.toml",
                "specs/fig.toml", "specs/z.toml"):  # fmt: skip
        assert (bundle / rel).is_file(), rel
        assert rel in m["files"], rel
    assert (bundle / "specs" / "s.toml").read_text() == SPEC
    assert m["tool_sources"] == tool_sources()
    readme = (bundle / "README.md").read_text()
    for cmd in ("certify check . --require coq,lean", "make -C coq", "sh coq/build.sh",
                "lake build", "lake env lean Audit.lean", "certify run specs/* --out rerun/",
                m["tool_sources"]["sha256"], "docs/citations.md", "leanprover/lean4:"):  # fmt: skip
        assert cmd in readme, cmd
    for e in m["certificates"]:
        assert f"### {e['name']} ({e['kind']})" in readme
        assert e["claim"]["text"] in readme
    cites = (bundle / "docs" / "citations.md").read_text()
    assert "no entry" not in cites
    assert "## design.md §6: rank lower bound by a nonsingular minor mod p" in cites
    assert "math.md §2 (Figure 1)" in cites
    report = (bundle / "report.md").read_text()
    assert "| det | MLP 3-2-2, sigma = 1/2*t^3 - t, with biases |" in report
    assert "| rank at θ |" in report
    assert "ResNet width 1, depth 2" in report
    cff = (bundle / "CITATION.cff").read_text()
    assert cff.startswith("# Template") and "cff-version: 1.2.0" in cff
    r = cli("check", str(bundle), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr


# CITATION.cff is not here: it is the bundle's one user-editable file (the bundle asks the
# user to fill it in; issue 22 item 2, issue 25), which check does not compare
# (tests/test_check_derives.py).
@pytest.mark.parametrize("rel", ["README.md", "docs/citations.md"])
def test_check_rejects_a_rewritten_referee_file(bundle: Path, rel: str):
    p = bundle / rel
    p.write_text(p.read_text().replace("Cited", "Kernel-checked") + "\nProved in Lean.\n")
    r = cli("check", str(bundle), "--no-coq", "--no-lean")
    assert r.returncode == 1, r.stdout
    assert f"{rel} differs from the {rel} regenerated from the manifest" in r.stdout


def test_check_rejects_a_changed_or_missing_spec(bundle: Path):
    spec = bundle / "specs" / "s.toml"
    spec.write_text(SPEC.replace("seed = 7", "seed = 8"))
    r = cli("check", str(bundle), "--no-coq", "--no-lean")
    assert r.returncode == 1 and "specs/s.toml: sha256 differs" in r.stdout
    spec.unlink()
    r = cli("check", str(bundle), "--no-coq", "--no-lean")
    assert r.returncode == 1 and "specs/s.toml: listed in the manifest but missing" in r.stdout


def test_check_rejects_a_forged_architecture(bundle: Path):
    mf = bundle / "manifest.json"
    m = json.loads(mf.read_text())
    m["certificates"][0]["architecture"] = "MLP 100-100-1"
    mf.write_text(json.dumps(m))
    r = cli("check", str(bundle), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "manifest architecture differs from the certificate's" in r.stdout


def test_a_rerun_from_the_bundles_own_specs_gives_byte_identical_certificates(
    bundle: Path, tmp_path: Path
):
    again = tmp_path / "again"
    specs = sorted(str(p) for p in (bundle / "specs").iterdir())
    r = cli("run", *specs, "--out", str(again), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    names = sorted(p.name for p in (bundle / "certificates").iterdir())
    assert names == sorted(p.name for p in (again / "certificates").iterdir())
    for n in names:
        assert (bundle / "certificates" / n).read_bytes() == (
            again / "certificates" / n
        ).read_bytes(), n
    for sub in ("coq/Certificates", "lean/Certificates"):
        for p in (bundle / sub).iterdir():
            assert p.read_bytes() == (again / sub / p.name).read_bytes()


def test_two_specs_with_one_file_name_get_distinct_copies(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "s.toml").write_text(SPEC)
    (b / "s.toml").write_text(SPEC.replace('"det"', '"det2"'))
    out = tmp_path / "o"
    r = cli("run", str(a / "s.toml"), str(b / "s.toml"), "--out", str(out), "--no-coq",
            "--no-lean")  # fmt: skip
    assert r.returncode == 0, r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert [s["bundled"] for s in m["specs"]] == ["specs/s.toml", "specs/s-2.toml"]
    assert (out / "specs" / "s-2.toml").read_text() == (b / "s.toml").read_text()
    assert cli("check", str(out), "--no-coq", "--no-lean").returncode == 0
