"""kernel_compind.normalize (indexed) equals the right fold of add_term, the Coq/Lean
definition it twins, on random term lists: same terms, same order, same unnormalised
rationals."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker.kernel.compind import add_term, normalize

rat = st.tuples(st.integers(-5, 5), st.integers(1, 4))
exps = st.lists(st.integers(0, 2), min_size=0, max_size=3)
terms = st.lists(st.tuples(rat, exps), max_size=40)


def folded(ts):
    acc = []
    for t in reversed(ts):
        acc = add_term(t, acc)
    return acc


@settings(max_examples=300, deadline=None)
@given(terms)
def test_normalize_is_the_right_fold_of_add_term(ts):
    assert normalize(ts) == folded(ts)


def test_like_terms_are_combined_in_first_seen_order_from_the_right():
    ts = [((1, 1), [1, 0]), ((2, 1), [0, 1]), ((3, 2), [1, 0]), ((1, 1), [0, 1, 0])]
    assert normalize(ts) == [((1, 1), [0, 1, 0]), ((3 * 1 + 1 * 2, 2), [1, 0]), ((2, 1), [0, 1])]
