"""Programs of the corpus that ompgpu rejects on purpose, with the error they must get.

Valid OpenMP that is not supported yet must fail with a named error, never compile into
code that computes something else; these tests keep it that way until support lands.
"""
KNOWN_UNSUPPORTED: dict[str, str] = {}
