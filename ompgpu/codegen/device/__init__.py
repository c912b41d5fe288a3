"""Device code generation: kernels, work functions and device functions -> one CUDA C++ file.

User statements are printed by pycparser's C generator (printer.Emitter, a subclass that
knows the OpenMP constructs and the soft stack); every piece of code the compiler itself adds
comes from the jinja2 templates in `codegen/templates/`. One module per construct family, each
plain functions over the Emitter of the function being printed (its typed context: the
kernel's plan, the scope, the team the code runs in, what it calls):

    program.py       the entry point, generate_device(program, plans): the call graph (which
                     functions run on the device), the user's types and declare target
                     globals at namespace scope, then each device function (printer.Emitter
                     .function) and each kernel (kernel.emit_kernel), then which work functions
                     each kernel reaches, rendered through device.cu.j2
    printer.py       Emitter: C statements, declarations, calls, #line markers; dispatches each
                     OpenMP construct (visit_OmpConstruct) to the modules below
    kernel.py        kernel entry: parameters from captures, launch bounds, packed teams, the
                     -Rpass=ompgpu mode remark
    parallel.py      parallel regions -> work functions and fork sites (parallel.outline)
    worksharing.py   for, distribute, simd, loop, sections, scope: loop nests and schedules
    reductions.py    reduction items and inscan (scan) loops
    data_sharing.py  private/firstprivate/lastprivate copies, the soft stack's escaping
                     locals, SPMD team-shared locals and guarded serial code, registers
    sync.py          atomic, barrier, flush, critical, single, master/masked
    tasks.py         task, taskloop, taskgroup (undeferred)
    cdecl.py         C types and names as CUDA C++ spells them

Imports go one way (tests/package checks it): cdecl <- data_sharing, reductions <- sync, tasks,
parallel <- worksharing <- printer <- kernel, program. A construct combined under `parallel` comes
back through the Emitter (Emitter.inner_construct), and reductions.scan_loop imports worksharing
when it runs (a scan is two worksharing loops).

What each reads and writes: printer.Emitter holds the per-function state (the modules read and
set its fields: team_size, whole_block, in_region, escaping, ...); program.DeviceGenerator holds
what the whole file collects (work functions, remarks, critical names, the call graph).
"""
from ompgpu.codegen.device.kernel import DENSE_THREADS, packed_team_blocker
from ompgpu.codegen.device.parallel import WorkFunction
from ompgpu.codegen.device.program import DeviceOutput, generate_device
from ompgpu.codegen.device.worksharing import BATCH_ITERATIONS

__all__ = ["BATCH_ITERATIONS", "DENSE_THREADS", "DeviceOutput", "WorkFunction", "generate_device", "packed_team_blocker"]
