"""The one place that renders jinja2 templates (all emitted C/CUDA lives in templates/)."""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render(template: str, **context) -> str:
    return _env().get_template(template).render(**context)
