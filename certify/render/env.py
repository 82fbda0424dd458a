"""The jinja2 environment: StrictUndefined, templates from the checkout or the wheel."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

import jinja2

from certify.checker.ir import MAX_NAT
from certify.errors import RenderError
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
    text = environment().get_template(template).render(**context)
    if template.startswith("coq/"):
        big = [n for n in nat_literals(text) if n > MAX_NAT]
        if big:  # the checker bounds these fields by name first (checker/check/nats.py)
            raise RenderError(
                f"a Coq nat literal {big[0]} is above {MAX_NAT} (nat is unary: the file "
                "would exhaust coqc's memory)"
            )
    return text


_NAT_END = re.compile(r"%nat\b")
_NUMBER = re.compile(r"(?<![\w.])\d+")


def nat_literals(text: str) -> list[int]:
    """The integers of a Coq text's nat literals: `12%nat` and every number inside a
    `( ... )%nat` group (how certify.render.literals.coq writes nat data)."""
    out: list[int] = []
    for m in _NAT_END.finditer(text):
        end = m.start()
        if end and text[end - 1] == ")":
            depth, j = 0, end - 1
            while j >= 0:
                depth += {")": 1, "(": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j -= 1
            out += [int(x) for x in _NUMBER.findall(text, max(j, 0), end)]
        else:
            k = end
            while k and text[k - 1].isdigit():
                k -= 1
            if k < end:
                out.append(int(text[k:end]))
    return out


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
