"""Exact algebra helpers: polynomials, primes, modular linear algebra."""
