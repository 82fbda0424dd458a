"""The generator's mod-p linear algebra is over a prime field only (FLINT aborts the process,
with no exception, when elimination meets a zero divisor of a composite modulus)."""

import pytest

from certify.algebra.modp import maximal_minor, nmod, require_prime

pytestmark = pytest.mark.quick


@pytest.mark.parametrize("p", [2, 3, 2147483647, 1000003])
def test_a_prime_modulus_gives_a_matrix_over_the_prime_field(p: int) -> None:
    assert nmod([[1, 2], [3, 4]], p, 2).modulus() == p


@pytest.mark.parametrize("q", [0, 1, 4, 6, 2147483645, 561, -7])
def test_a_composite_or_non_prime_modulus_is_refused_before_flint_sees_it(q: int) -> None:
    with pytest.raises(ValueError, match="not a prime"):
        nmod([[2, 3], [4, 6]], q, 2)
    with pytest.raises(ValueError, match="not a prime"):
        require_prime(q)


def test_the_maximal_minor_search_refuses_a_composite_modulus() -> None:
    with pytest.raises(ValueError, match="not a prime"):
        maximal_minor([[2, 3], [4, 6]], 6, 2)
