"""The jinja2 environment: StrictUndefined, templates from the checkout or the wheel."""

from __future__ import annotations

from functools import cache

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
