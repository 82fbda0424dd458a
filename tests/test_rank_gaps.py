"""Gap-encoded columns and N-literal row labels in the Coq rank files (issue 23 item 1).

The Coq file writes the minor's strictly increasing columns as `gap_cols 0 (gaps)%nat` and
the row labels as `labels_of_N (...)%N`; the kernel reads the minor in one walk per row
(RankCore.v `select_minor`, proved equal to `minor_rows` in ElimSound.v `select_minor_eq`).
These tests check the twins on the encoding, the read-back, and that coqc rejects a file whose
gaps were changed after rendering so that they name another, singular or out-of-range, minor.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from certify import certificate
from certify.checker.kernel import rank_core as RC
from certify.checker.kernel.rank import LowerWitness, check_rank_lower
from certify.errors import RenderError
from certify.families.polynomial import render_rank as R
from certify.provers import coq as coqp
from tests.conftest import make_cert

GAPS = re.compile(r"(lw_cols := gap_cols 0 \(\[)([^\]]*)(\]\)%nat)")


@pytest.fixture(scope="module")
def cert():
    """(3,2,1), t^2 without bias: 8 parameters, a 5 x 5 minor (lower bound 5)."""
    return make_cert([3, 2, 1], "t^2")


def test_gap_cols_inverts_col_gaps_on_increasing_columns_and_none_otherwise():
    rng = random.Random(7)
    for _ in range(200):
        cols = sorted(rng.sample(range(40), rng.randrange(0, 12)))
        gaps = RC.col_gaps(0, cols)
        assert gaps is not None and all(g >= 0 for g in gaps)
        assert RC.gap_cols(0, gaps) == cols
        if len(cols) >= 2:
            assert RC.col_gaps(0, [cols[1], cols[0], *cols[2:]]) is None
            assert RC.col_gaps(0, [cols[0], cols[0], *cols[1:]]) is None


def test_sel_gaps_and_select_minor_are_minor_rows():
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randrange(0, 15)
        rows = [[rng.randrange(100) for _ in range(rng.randrange(0, n + 3))] for _ in range(4)]
        cols = [rng.randrange(n + 4) for _ in range(rng.randrange(0, 6))]
        assert RC.select_minor(rows, cols) == RC.minor_rows(rows, cols)
        inc = sorted(set(cols))
        gaps = RC.col_gaps(0, inc)
        assert [RC.sel_gaps(r, gaps) for r in rows] == RC.minor_rows(rows, inc)


def test_the_coq_file_writes_gaps_and_n_labels_that_read_back(cert):
    text = R.render_coq(cert, certificate.sha256(cert))
    lw = cert["witness"]["lower"]
    m = GAPS.search(text)
    assert m, "the columns are not written as gaps"
    gaps = [int(x) for x in m.group(2).split(";")]
    assert RC.gap_cols(0, gaps) == lw["cols"]
    assert "lw_rows := labels_of_N ([" in text
    assert re.search(r"lw_rows := labels_of_N \(\[[^\]]*\]\)%N;", text)


def test_a_changed_gap_or_label_does_not_read_back(cert):
    text = R.render_coq(cert, certificate.sha256(cert))
    data = R.kernel_data(cert)
    m = GAPS.search(text)
    gaps = m.group(2).split(";")
    gaps[-1] = str(int(gaps[-1]) + 1)
    bad = text[: m.start(2)] + ";".join(gaps) + text[m.end(2) :]
    headers = ("Definition inst", "Definition lower", "Definition upper")
    R.verify_roundtrip(text, data, R.COQ_FIELDS, headers, coq=True)
    with pytest.raises(RenderError, match="lw_cols"):
        R.verify_roundtrip(bad, data, R.COQ_FIELDS, headers, coq=True)
    bad_rows = text.replace("labels_of_N ([(0, 0)", "labels_of_N ([(1, 0)", 1)
    assert bad_rows != text
    with pytest.raises(RenderError, match="lw_rows"):
        R.verify_roundtrip(bad_rows, data, R.COQ_FIELDS, headers, coq=True)


def test_unsorted_columns_are_written_as_a_plain_list():
    assert R.coq_coded("cols", [2, 0, 1]) == "([2; 0; 1])%nat"
    assert R.coq_coded("cols", [0, 2, 3]) == "gap_cols 0 ([0; 1; 0])%nat"


def _wrong_gap_files(cert) -> list[tuple[str, str]]:
    """Rendered files with their gaps changed so that the Python twin rejects the columns they
    name: the last gap pushed past the parameters, and the gaps of the first r-subset of the
    columns (in lexicographic order) whose minor is singular. (Every change of one gap by 1
    leaves this witness a nonsingular minor, i.e. a true certificate, rightly accepted.)"""
    text = R.render_coq(cert, certificate.sha256(cert))
    m = GAPS.search(text)
    gaps = [int(x) for x in m.group(2).split(";")]
    inst, lw, _ = R.kernel_objects(R.kernel_data(cert))
    r = cert["witness"]["lower"]["rank"]
    n = len(inst.theta)

    def with_gaps(gs: list[int]) -> str:
        return text[: m.start(2)] + "; ".join(map(str, gs)) + text[m.end(2) :]

    out = [("last gap past the parameters", with_gaps([*gaps[:-1], gaps[-1] + n]))]
    for cols in itertools.combinations(range(n), r):
        lw2 = LowerWitness(lw.p, lw.samples, lw.theta_inv, lw.acts_inv, lw.rows, list(cols))
        if not check_rank_lower(inst, lw2, r):
            gs = RC.col_gaps(0, list(cols))
            out.append((f"gaps {gs}: the singular minor on {list(cols)}", with_gaps(gs)))
            return out
    raise AssertionError("every r x r minor on these rows is nonsingular")


def test_a_wrong_gap_fails_coqc(cert, coq):
    for what, text in _wrong_gap_files(cert):
        coq.count += 1
        path = coq.proj / "Certificates" / f"Rank_wrong_gap_{coq.count}.v"
        path.write_text(text)
        v = coqp.check_file(coq.proj, f"Certificates/{path.name}", 600)
        assert v.status == "failed", f"coqc accepted a file with a wrong gap ({what})"
        assert "check_rank_lower inst lower" in v.message, v.message  # the kernel said false
    ok = coq.verdict(cert)
    assert ok.status == "passed", ok.message
