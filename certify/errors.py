"""Errors a user sees. Each names where the problem is and what was expected."""

from __future__ import annotations

from pathlib import Path


class CertifyError(Exception):
    """Base class; the CLI turns it into a message and a non-zero exit code."""

    exit_code = 1


class SpecError(CertifyError):
    """A spec file is malformed: names the file, the field and what was expected."""

    exit_code = 2

    def __init__(self, file: str, field: str, expected: str, got: object = None) -> None:
        self.file = file
        self.field = field
        self.expected = expected
        self.got = got
        msg = f"{file}: field '{field}': expected {expected}"
        if got is not None:
            msg += f", got {got!r}"
        super().__init__(msg)


class InputError(CertifyError):
    """Bad input that is not a spec file (a model file for `certify from-torch`, a value
    given on the command line): names it and what was expected. Exit code 2."""

    exit_code = 2


class PolynomialSyntaxError(ValueError):
    """Raised by the restricted polynomial parser; the spec layer adds file and field."""


class RenderError(CertifyError):
    """A value cannot be rendered exactly, or a rendered literal does not read back."""


class OutputError(CertifyError):
    """The output directory cannot be used: not a directory, not writable, another run is
    writing it, or it is not an unchanged nn-certify bundle (refused unless --force, which
    moves it aside). Bad input: exit code 2."""

    exit_code = 2


class BundleError(CertifyError):
    """A bundle is incomplete or inconsistent (certify check)."""


def require_bundle_dir(path: Path) -> None:
    """InputError (exit 2) when the BUNDLE argument names no directory: a wrong argument, not
    a damaged bundle (that is the caller's BundleError, exit 1)."""
    if not path.is_dir():
        what = "not a directory" if path.exists() else "no such directory"
        raise InputError(f"BUNDLE {path}: {what} (expected an nn-certify bundle)")
