"""OpenMP pragma parsing: `parse_pragma(text, coord) -> Directive | None`."""
from .directives import Directive
from .pragma import parse_pragma

__all__ = ["parse_pragma", "Directive"]
