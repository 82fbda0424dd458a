"""The jinja2 environment: StrictUndefined, templates from the checkout or the wheel."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import jinja2

from certify.resources import resource_dir


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_dir("templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


def prover_files(
    module: str,
    theorems: list[str],
    cert: dict[str, Any],
    sha: str,
    render_prover: Callable[[dict[str, Any], str, str], str],
) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): what a registry renderer returns,
    for renderers with one `render_prover(cert, sha, prover)` for both provers."""
    return module, theorems, render_prover(cert, sha, "coq"), render_prover(cert, sha, "lean")
