"""The Coq library's layers (issue 26, item 4): coq/NNCert/kernel/ is plain-Coq computation
(no MathComp, no reals, no meaning file), coq/NNCert/meaning/ the theorems shared by every
family, and meaning/<family>/ the theorems of one family, which may use the shared ones but
not another family's. certify/provers/coq_library.py lists every file once, each after the
library modules it requires."""

from __future__ import annotations

import re
from pathlib import Path

from certify.provers.coq_library import LIBRARY, PATHS, qualified

ROOT = Path(__file__).resolve().parents[1]
NNCERT = ROOT / "coq" / "NNCert"
REQUIRE = re.compile(r"From\s+(\w+)\s+Require\s+(?:Import\s+|Export\s+)?([^.]*)\.")


def requires(text: str) -> list[tuple[str, str]]:
    """(prefix, module) of every `From prefix Require [Import] m1 m2 ...` of a Coq source."""
    return [(m.group(1), name) for m in REQUIRE.finditer(text) for name in m.group(2).split()]


def layer_problems(files: dict[str, str]) -> list[str]:
    """What breaks the layers in `files` (path under NNCert without .v -> source)."""
    out = []
    stems = {path.rsplit("/", 1)[-1]: path for path in files}
    for path, text in files.items():
        folder = path.rsplit("/", 1)[0]
        for prefix, mod in requires(text):
            if path.startswith("kernel/") and prefix in ("mathcomp",):
                out.append(f"{path}: a kernel file requires MathComp ({mod})")
            if path.startswith("kernel/") and prefix == "Coq" and mod in ("Reals", "Lra", "QArith"):
                out.append(f"{path}: a kernel file requires Coq's {mod}")
            if prefix != "NNCert":
                continue
            dep = stems.get(mod)
            if dep is None:
                out.append(f"{path}: requires NNCert {mod}, which is not in the library")
                continue
            dep_folder = dep.rsplit("/", 1)[0]
            if path.startswith("kernel/") and dep_folder != "kernel":
                out.append(f"{path}: a kernel file requires {dep}")
            if folder.count("/") and dep_folder.count("/") and dep_folder != folder:
                out.append(f"{path}: requires another family's {dep}")
    return out


def _library_sources() -> dict[str, str]:
    return {path: (NNCERT / f"{path}.v").read_text() for path in LIBRARY}


def test_the_library_list_is_every_coq_file_once():
    on_disk = sorted(str(p.relative_to(NNCERT).with_suffix("")) for p in NNCERT.rglob("*.v"))
    assert sorted(LIBRARY) == on_disk
    assert len(set(PATHS)) == len(LIBRARY)  # short names are unique: partial qualification works


def test_each_library_file_comes_after_what_it_requires():
    order = {path.rsplit("/", 1)[-1]: i for i, path in enumerate(LIBRARY)}
    for i, path in enumerate(LIBRARY):
        for prefix, mod in requires((NNCERT / f"{path}.v").read_text()):
            if prefix == "NNCert":
                assert order[mod] < i, (path, mod)


def test_the_library_keeps_its_layers():
    assert layer_problems(_library_sources()) == []


def test_the_layer_check_sees_a_kernel_file_using_mathcomp_or_a_theorem_and_a_family_crossing():
    files = {
        "kernel/A": "From mathcomp Require Import ssralg.\nFrom NNCert Require Import T.\n",
        "meaning/T": "From NNCert Require Import A.\n",
        "meaning/relu/R": "From NNCert Require Import A T.\n",
        "meaning/tanh/S": "From NNCert Require Import R.\n",
    }
    assert layer_problems(files) == [
        "kernel/A: a kernel file requires MathComp (ssralg)",
        "kernel/A: a kernel file requires meaning/T",
        "meaning/tanh/S: requires another family's meaning/relu/R",
    ]


def test_full_names_follow_the_folders():
    assert qualified("Rank.lw_samples") == "NNCert.kernel.Rank.lw_samples"
    assert qualified("DependenceMeaning") == "NNCert.meaning.compind.DependenceMeaning"
