"""Host code generation: the user's preprocessed file with its target constructs replaced by
calls into the host runtime, one module per concern:

    program.py      the entry point, generate_host(program, ...): splices each host-level
                    construct (target, target data, enter/exit data, update) out of the
                    preprocessed text and renders its replacement (host_*.j2); kernel
                    descriptors, launch clauses, line markers, the host omp_* API renamed
    pragmas.py      every other `#pragma omp` line as the host compiler must see it
                    (host_pragma_lines: requires, metadirective, begin declare target,
                    array shaping, imperfect collapse, begin declare variant blocks), and a
                    target region's host fallback
    maps.py         map entries and target update sections
    tasks.py        target tasks (nowait, depend, in_reduction)
    source_text.py  scanning the C text: statement ends, use_device_addr renaming

program.py runs host_pragma_lines over the whole text first, then splices the constructs;
maps.py and tasks.py give each construct its runtime arguments.
"""
from ompgpu.codegen.host.maps import host_item_text
from ompgpu.codegen.host.program import generate_host

__all__ = ["generate_host", "host_item_text"]
