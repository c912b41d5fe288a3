"""The compiler driver: C file -> preprocessed text -> AST -> kernels -> host .c + device .cu -> objects -> executable."""
from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from pycparser import c_ast

from ompgpu.codegen.device import generate_device
from ompgpu.codegen.host import generate_host
from ompgpu.codegen.host.compat import host_openmp_gaps
from ompgpu.device_image import (LINKED_IMAGE_SYMBOL, has_relocatable_device_code, image_assembly, plan_device_image,
                                 relocatable_image_assembly, relocatable_images)
from ompgpu.errors import OmpgpuError, ToolchainError, UnsupportedError, compiling
from ompgpu.nvjitlink import NvJitLinkError, find_nvjitlink
from ompgpu.nvrtc import NvrtcError, find_nvrtc, image_options
from ompgpu.options import Options, UsageError
from ompgpu.outliner.outline import outline
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import ParsedUnit, parse_c, preprocess, walk_nodes
from ompgpu.parser.declarators import lower_declarators
from ompgpu.parser.loop_transforms import apply_loop_transforms
from ompgpu.parser.variants import resolve_variants
from ompgpu.analysis.tile_walks import flatten_tile_walks
from ompgpu.timing import phase, start_report, stop_report
from ompgpu.plan.mode import plan_kernels
from ompgpu.plan.persistent_loops import plan_persistent_loops
from ompgpu.toolchain import (DEVICE_RT, EMU_LINKED_USE, EMU_RT, HOST_RT, find_cuda, host_cc, host_compiler_identity, host_cxx, linker_flags,
                              host_openmp_flags, emu_prelude, nesting_flags, run, runtime_library, SOURCE_ENCODING)


@dataclass(frozen=True)
class Translation:
    """What one C file becomes."""

    source: str
    host_c: str
    device_cu: str | None
    remarks: tuple[str, ...]
    # Device code that calls device functions of other files: compiled relocatable (-rdc) and
    # device-linked with them.
    relocatable: bool = False
    kernels: tuple[tuple[str, str], ...] = ()   # (enclosing function, kernel name), in source order
    warnings: tuple[str, ...] = ()   # printed unless -w (error directives of severity warning)
    # The symbol of the file's device image (its device code compiled on its own and kept as
    # data of the host object, launched through the runtime); None: nvcc's whole compile, a
    # device object with launch stubs (relocatable device code, the emulator, no device code).
    device_image: str | None = None
    # the image is relocatable device code (NVRTC -rdc), linked into the program's image at the
    # link by nvJitLink (device_image.relocatable_linker)
    device_image_relocatable: bool = False


def translate(path: str, opts: Options) -> Translation:
    """Front end, analysis and code generation for one C file (no external compilers but cpp)."""
    def work() -> Translation:
        with compiling(path):
            return _translate(path, opts)

    return run_deep(work)


# pycparser's parser and printer, and the passes' AST walks, recurse once per nesting level of
# an expression; a macro-expanded stencil or a sum of thousands of terms nests thousands deep.
# Translation runs on a thread with a large stack and a recursion limit to match.
DEEP_STACK_BYTES = 1 << 30
DEEP_RECURSION_LIMIT = 1_000_000


def run_deep(fn):
    """fn() on a thread whose stack and recursion limit fit deeply nested ASTs; its result or exception."""
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as is
            outcome["error"] = exc

    old_limit = sys.getrecursionlimit()
    old_size = threading.stack_size(DEEP_STACK_BYTES)
    try:
        sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
        thread = threading.Thread(target=target, name="ompgpu-translate", daemon=True)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _parse_file(path: str, opts: Options, dependencies: bool = True) -> ParsedUnit:
    """The file preprocessed (writing its dependency file where the options ask and
    `dependencies`), its loop transformations applied, parsed."""
    cpp_args = (*opts.cpp_args, *((opts.std,) if opts.std else ()), *(opts.dependency_args(path) if dependencies else ()))
    with phase("preprocess"):
        pre = preprocess(path, host_cc(), cpp_args, opts.verbose)
    with phase("loop transformations"):
        pre = apply_loop_transforms(pre)
    with phase("parse C"):
        return parse_c(pre)


def _translate(path: str, opts: Options) -> Translation:
    parsed = _parse_file(path, opts)
    with phase("bind pragmas"):
        bound = bind_pragmas(parsed, opts.offload_arch)
    warnings = tuple(f"{coord}: warning: {msg}" for coord, msg in bound.warnings)
    if opts.syntax_only:
        return Translation(path, "", None, (), warnings=warnings)
    try:
        with phase("resolve variants and declarators"):
            bound, tile_remarks = flatten_tile_walks(resolve_variants(bound, opts.offload_arch))
            bound = lower_declarators(bound)
        with phase("outline"):
            program = outline(bound)
        with phase("plan kernels"):
            plans = plan_kernels(program, opts.mode)
            loops = plan_persistent_loops(program, plans)
        with phase("generate device code"):
            device = generate_device(program, plans, loops)
        # Device code: kernels, or declare target functions and variables that other files may use.
        has_device_code = bool(program.kernels or device.globals or device.defines_functions or device.external_device_code)
        image = plan_device_image(device, opts) if has_device_code else None
        with phase("generate host code"):
            host = generate_host(program, device.kernel_names, opts.offload, device.globals, device.kernel_modes,
                                 device.kernel_max_threads, opts.offload_arch, device.kernel_dense,
                                 host_openmp_gaps(host_compiler_identity(host_cc())), device.indirect_functions,
                                 device.indirect_table, image, device.kernel_scratch, device.kernel_combine, device.loops,
                                 device.kernel_grid_tiles)
    except OmpgpuError as exc:
        exc.coord = bound.coord_fixer.fix(exc.coord)
        raise
    # (coord, message) or (coord, message, "analysis"): the inputs of a decision
    # (coord, message[, "analysis" | "missed"]): a decision, its inputs, or what was not done and why
    remarks = tuple(f"{r[0]}: remark: {r[1]} [-Rpass{'-' + r[2] if r[2:3] and r[2] else ''}=ompgpu]"
                    for r in (*tile_remarks, *device.remarks))
    return Translation(path, host, device.cuda if has_device_code or opts.emit_cuda else None, remarks,
                       device.external_device_code, tuple((k.function, device.kernel_names[id(k)]) for k in program.kernels),
                       warnings, image.symbol if image is not None else None,
                       image is not None and image.relocatable)


def compile_and_link(opts: Options, translated: dict[str, Translation] | None = None) -> int:
    """Build what opts ask for; `translated` holds C files the caller already translated.
    With -ftime-report, the time of each phase is printed at the end (also after an error)."""
    if not opts.time_report:
        return _compile_and_link(opts, translated)
    start_report()
    try:
        return _compile_and_link(opts, translated)
    finally:
        stop_report()


def _compile_and_link(opts: Options, translated: dict[str, Translation] | None = None) -> int:
    translated = translated or {}
    c_files = [f for f in opts.inputs if f.endswith(".c")]
    others = [f for f in opts.inputs if not f.endswith(".c")]
    for f in c_files + others:
        if not os.path.exists(f):
            raise UsageError(f"no such file or directory: '{f}'")
    for f in others:
        if not f.endswith((".o", ".a", ".so")):
            raise UsageError(f"unsupported input file '{f}' (expected .c, .o or .a)")
    runtime = None
    if opts.offload in ("cuda", "emu") and not (opts.syntax_only or opts.emit_cuda or opts.compile_only):
        # The runtime library builds beside the front end and the compiles on a fresh cache (10 s
        # of a first build's compiles); a cached one is found at once.
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        runtime = pool.submit(runtime_library, opts.offload, opts.verbose)
        pool.shutdown(wait=False)
    translations = []
    for f in c_files:
        t = translated[f] if f in translated else translate(f, opts)
        if not opts.no_warnings:
            for w in t.warnings:
                print(w, file=sys.stderr)
        for r in t.remarks:
            family = {"[-Rpass-analysis=ompgpu]": opts.analysis_remarks, "[-Rpass-missed=ompgpu]": opts.missed_remarks}
            if family.get(r[r.rindex(" ") + 1:], opts.remarks):
                print(r, file=sys.stderr)
        translations.append(t)
    if opts.syntax_only:
        return 0
    if opts.emit_cuda:
        text = "".join(t.device_cu or "" for t in translations)
        if opts.output and opts.output != "-":
            Path(opts.output).write_text(text, **SOURCE_ENCODING)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode(**SOURCE_ENCODING))
            sys.stdout.flush()
        return 0
    with tempfile.TemporaryDirectory(prefix="ompgpu-") as tmp:
        per_file = []   # each C file's objects (host, and device or image)
        for t in translations:
            stem = Path(t.source).stem
            work = Path(".") if opts.save_temps else Path(tmp)
            per_file.append(_compile_translation(t, opts, work / stem, Path(tmp)))
        if opts.compile_only:
            for t, obj_group in zip(translations, per_file):
                out = opts.output or (Path(t.source).stem + ".o")
                _merge_objects(obj_group, out, opts)
            return 0
        objects = [o for group in per_file for o in group]
        out = opts.output or "a.out"
        if opts.offload == "cuda":
            linked = _link_relocatable_images([*objects, *others, *_static_libraries(opts.link_args)], opts, Path(tmp))
            if linked:
                objects.append(linked)
        if opts.offload == "cuda" and (any(t.relocatable and not t.device_image for t in translations) or any(
                has_relocatable_device_code(Path(f)) for f in [*others, *_static_libraries(opts.link_args)])):
            # Separate compilation: device functions of other objects and libraries (compiled
            # with -c, relocatable) are linked into the device code here. Device images need no
            # device link (each is a module of its own).
            dlink = str(Path(tmp) / "device-link.o")
            cuda = find_cuda()
            pic = ["-Xcompiler", "-fPIC"] if opts.pic or opts.shared else []
            with phase("link device code"):
                run([str(cuda.nvcc), f"-arch={opts.offload_arch}", "-dlink", *pic, *objects, *others,
                     *_static_libraries(opts.link_args), "-o", dlink], opts.verbose, "linking the device code")
            objects.append(dlink)
        link = [host_cxx(), *host_openmp_flags(host_cxx()), *linker_flags(opts.link_args, opts.shared),
                *(["-shared"] if opts.shared else []), *objects, *others,
                *opts.link_args, "-lm"]
        if runtime is not None:
            with phase("runtime library"):
                link += runtime.result()
        with phase("link"):
            run(link + ["-o", out], opts.verbose, "linking")
    return 0


def _link_relocatable_images(inputs: list[str], opts: Options, tmp: Path) -> str | None:
    """The object of the program's linked image: the relocatable device code that NVRTC compiled
    (device_image.relocatable_images) of every input object and static library, linked by
    nvJitLink into one cubin under LINKED_IMAGE_SYMBOL; None where no input has any."""
    cubins = [(f"{Path(f).name}#{i}", cubin) for f in inputs for i, cubin in enumerate(relocatable_images(Path(f)))]
    if not cubins:
        return None
    nvjitlink = find_nvjitlink()
    if nvjitlink is None:
        raise ToolchainError("linking relocatable device code needs nvJitLink, which was not found: "
                             "pip install 'ompgpu[cuda]' (NVIDIA's nvidia-nvjitlink wheel), or a CUDA toolkit")
    with phase("link device code"):
        if opts.verbose:
            print(f"ompgpu: nvJitLink ({nvjitlink.path}): -arch={opts.offload_arch} {' '.join(n for n, _ in cubins)}",
                  file=sys.stderr)
        try:
            image = nvjitlink.link(cubins, opts.offload_arch)
        except NvJitLinkError as exc:
            raise ToolchainError(f"linking the device code failed:\n{_user_names(exc.log.strip())}") from None
    cubin = tmp / "linked-image.cubin"
    cubin.write_bytes(image)
    obj = tmp / "linked-image.o"
    _assemble(image_assembly(LINKED_IMAGE_SYMBOL, cubin), obj, opts, "the linked device image")
    return str(obj)


def _assemble(assembly: str, obj: Path, opts: Options, what: str) -> None:
    """An object from generated assembly (the .s beside it): a device image's, relocatable device
    code's or the linked image's."""
    asm = obj.with_suffix(".s")
    asm.write_text(assembly, **SOURCE_ENCODING)
    with phase("device image object"):
        run([host_cc(), "-c", str(asm), "-o", str(obj)], opts.verbose, f"assembling {what}")


def _user_names(log: str) -> str:
    """A device linker's log with the user's functions and variables by their C names: device code
    puts them in namespace ompgpu_user (`_ZN11ompgpu_user5scaleEd` is `scale`)."""
    def name(m: re.Match) -> str:
        rest = m.group(2)
        return rest[:int(m.group(1))]
    return re.sub(r"_ZN11ompgpu_user(\d+)(\w+)", name, log)


def _static_libraries(link_args: list[str]) -> list[str]:
    """The static libraries that `-L DIR -l NAME` name (libNAME.a), which may hold device code."""
    dirs = [a[2:] for a in link_args if a.startswith("-L")]
    found = []
    for a in link_args:
        if a.startswith("-l"):
            for d in dirs:
                lib = Path(d) / f"lib{a[2:]}.a"
                if lib.exists():
                    found.append(str(lib))
                    break
    return found


def _merge_objects(objs: list[str], out: str, opts: Options) -> None:
    if len(objs) == 1:
        shutil.copyfile(objs[0], out)
    else:
        run(["ld", "-r", *objs, "-o", out], opts.verbose, "combining the host and device objects")


def _compile_translation(t: Translation, opts: Options, stem: Path, tmp: Path) -> list[str]:
    host_c = stem.with_suffix(".host.c") if opts.save_temps else tmp / (stem.name + ".host.c")
    host_c.write_text(t.host_c, **SOURCE_ENCODING)
    host_o = tmp / (stem.name + ".host.o")
    pic = ["-fPIC"] if opts.pic or opts.shared else []
    flags = [opts.opt_level, *pic] + (["-g"] if opts.debug else []) + (["-w"] if opts.no_warnings else ["-Wno-unknown-pragmas"])
    cc_cmd = [host_cc(), *host_openmp_flags(host_cc()), *flags, *nesting_flags(host_cc()), f"-I{HOST_RT}", "-c", str(host_c),
              "-o", str(host_o)]
    if opts.std:
        cc_cmd.insert(1, opts.std)
    host_job = ("compile host code", cc_cmd, f"compiling the host code of {t.source}")
    objects = [str(host_o)]
    if opts.offload == "none" or t.device_cu is None:
        _run_jobs([host_job], opts.verbose)
        return objects
    dev_cu = stem.with_suffix(".device.cu") if opts.save_temps else tmp / (stem.name + ".device.cu")
    dev_cu.write_text(t.device_cu, **SOURCE_ENCODING)
    dev_o = tmp / (stem.name + ".device.o")
    if opts.offload == "cuda" and t.device_image:
        _compile_device_image(t, opts, dev_cu, dev_o, host_job, stem, tmp)
        objects.append(str(dev_o))
        return objects
    if opts.offload == "cuda":
        # Relocatable device code where another file may call into it (-c) or it calls another file.
        rdc = ["-rdc=true"] if opts.compile_only or t.relocatable else []
        cmd = [*_nvcc_device_command(opts), *rdc, *(["-Xcompiler", "-fPIC"] if pic else []),
               "-c", str(dev_cu), "-o", str(dev_o)]
        _run_jobs([host_job, ("compile device code", cmd, f"compiling the device code of {t.source}")], opts.verbose)
    else:
        _run_jobs([host_job, lambda: _compile_emulated(t, opts, dev_cu, dev_o, pic)], opts.verbose)
    objects.append(str(dev_o))
    return objects


def _compile_emulated(t: Translation, opts: Options, dev_cu: Path, dev_o: Path, pic: list[str]) -> None:
    """The device code compiled for the CPU emulator. Its precompiled prelude (the emulator's
    and the device runtime's headers, built once per compiler and flags) is made here, beside
    the host compile, when the cache lacks it."""
    # -g1: line tables, so that the emulator's fault reports name the user's source line.
    # -Wno-narrowing: the user's C initializers convert implicitly (`double v[] = {i}`), which
    # C++ calls narrowing and clang rejects unless told (g++ only warns).
    cxx = host_cxx()
    flags = ["-std=c++17", "-O1" if opts.opt_level == "-O0" else opts.opt_level, "-g1", "-x", "c++", "-DOMPGPU_EMU", EMU_LINKED_USE,
             f"-I{DEVICE_RT}", f"-I{HOST_RT}", f"-I{EMU_RT}", "-w", "-Wno-narrowing", *pic, *nesting_flags(cxx)]
    with phase("compile device code"):
        run([cxx, *flags, *emu_prelude(cxx, flags, opts.verbose), "-c", str(dev_cu), "-o", str(dev_o)], opts.verbose,
            f"compiling the device code of {t.source}")


def _nvcc_device_command(opts: Options) -> list[str]:
    """nvcc and the flags of every compile of generated device code (the output kind after)."""
    return [str(find_cuda().nvcc), "-std=c++17", opts.opt_level, *(["-lineinfo"] if opts.debug else []),
            f"-arch={opts.offload_arch}", "--expt-relaxed-constexpr", f"-I{DEVICE_RT}", f"-I{HOST_RT}",
            "-w" if opts.no_warnings else "-Wno-deprecated-gpu-targets"]


def _compile_device_image(t: Translation, opts: Options, dev_cu: Path, image_o: Path, host_job, stem: Path,
                          tmp: Path) -> None:
    """The file's device code compiled on its own, beside the host compile, then an object that
    holds the image as data under the image's symbol, which the host code names. NVRTC compiles
    it in-process where it is installed (a cubin); else nvcc does (a fatbin: the cubin and its
    PTX, which the driver compiles for a newer GPU), as it does code NVRTC rejects (NVRTC lacks
    the C library's headers and GNU C++: device code that needs them)."""
    image = (stem if opts.save_temps else tmp / stem.name).with_suffix(".cubin")
    ptx = image.with_suffix(".ptx")
    nvrtc = find_nvrtc()
    if t.device_image_relocatable:
        _compile_relocatable_image(t, opts, nvrtc, image, image_o, host_job)
        return
    compiled_by_nvrtc = False
    if nvrtc is not None:
        def compile_with_nvrtc() -> None:
            nonlocal compiled_by_nvrtc
            with phase("compile device code"):
                options = image_options(opts.offload_arch, opts.debug, nvrtc.version())
                if opts.verbose:
                    print(f"ompgpu: NVRTC {nvrtc.version()} ({nvrtc.path}): {' '.join(options)} {dev_cu}", file=sys.stderr)
                try:
                    compiled = nvrtc.compile(t.device_cu, dev_cu.name, options)
                    image.write_bytes(compiled.cubin)
                    ptx.write_bytes(compiled.ptx)
                    compiled_by_nvrtc = True
                except NvrtcError as exc:
                    if find_cuda(required=False) is None:
                        raise _nvrtc_failure(t, opts, exc) from None
                    if opts.verbose:
                        why = "\n".join(line for line in exc.log.splitlines() if "error" in line)
                        print(f"ompgpu: NVRTC cannot compile the device code of {t.source}; nvcc compiles it\n{why}",
                              file=sys.stderr)
        _run_jobs([host_job, compile_with_nvrtc], opts.verbose)
    if not compiled_by_nvrtc:
        image = image.with_suffix(".fatbin")
        cmd = [*_nvcc_device_command(opts), "-DOMPGPU_DEVICE_IMAGE", "-fatbin", str(dev_cu), "-o", str(image)]
        device_job = ("compile device code", cmd, f"compiling the device code of {t.source}")
        _run_jobs([device_job] if nvrtc is not None else [host_job, device_job], opts.verbose)
    _assemble(image_assembly(t.device_image, image, ptx if compiled_by_nvrtc else None), image_o, opts,
              f"the device image of {t.source}")


def _compile_relocatable_image(t: Translation, opts: Options, nvrtc, cubin: Path, image_o: Path, host_job) -> None:
    """Relocatable device code without nvcc: NVRTC compiles it with -rdc beside the host compile,
    and the object keeps the relocatable cubin in its RELOCATABLE_IMAGE_SECTION, for the link
    to give nvJitLink (_link_relocatable_images)."""
    if nvrtc is None:
        raise ToolchainError(f"the device code of {t.source} is relocatable (other files call into it or it calls "
                             "theirs) and needs NVRTC and nvJitLink, or nvcc: none was found")

    def compile_with_nvrtc() -> None:
        with phase("compile device code"):
            options = [*image_options(opts.offload_arch, opts.debug, nvrtc.version()), "-rdc=true", "-DOMPGPU_RELOCATABLE_IMAGE"]
            if opts.verbose:
                print(f"ompgpu: NVRTC {nvrtc.version()} ({nvrtc.path}): {' '.join(options)} {t.source}", file=sys.stderr)
            try:
                cubin.write_bytes(nvrtc.compile(t.device_cu, Path(t.source).stem + ".device.cu", options).cubin)
            except NvrtcError as exc:
                raise _nvrtc_failure(t, opts, exc) from None
    _run_jobs([host_job, compile_with_nvrtc], opts.verbose)
    _assemble(relocatable_image_assembly(cubin), image_o, opts, f"the device code of {t.source}")


def _nvrtc_failure(t: Translation, opts: Options, exc: NvrtcError) -> OmpgpuError:
    """The error of device code NVRTC rejects where no nvcc is there to compile it instead. A
    flexible array member (C has them, C++ does not, NVRTC compiles C++) is named where the user
    wrote it; the file is parsed again to find it (only this failure asks)."""
    if "is not allowed" in exc.log and "[]" in exc.log:
        parsed = _parse_file(t.source, opts, dependencies=False)
        members = []
        for n in walk_nodes(parsed.ast):
            if isinstance(n, (c_ast.Struct, c_ast.Union)) and n.decls and isinstance(n.decls[-1].type, c_ast.ArrayDecl) \
                    and n.decls[-1].type.dim is None:
                m = n.decls[-1]
                members.append((m.name, parsed.pre.user_coord(m.coord.line, m.coord.column) if m.coord else None))
        # the user's own before a header's (a header may declare one the device code never uses)
        members.sort(key=lambda m: m[1] is None or Path(m[1].file).resolve() != Path(t.source).resolve())
        if members:
            name, coord = members[0]
            return UnsupportedError(f"flexible array member '{name}' in device code: NVRTC (C++) cannot compile it, "
                                    "and nvcc, which can, was not found (set CUDA_HOME, put nvcc on PATH, or pip "
                                    "install nvidia-cuda-nvcc)", coord)
    return ToolchainError(f"NVRTC cannot compile the device code of {t.source}:\n{exc.log.strip()}")


def _run_jobs(jobs: list, verbose: bool) -> None:
    """Runs the jobs at once, one thread each: a (phase, command, what) job runs a tool (a
    separate process: a file's host compile runs beside its device compile), timed as its
    phase; a callable job runs in-process (NVRTC, which lets go of the GIL). The first failing
    job, in list order, is the error."""
    def one(job):
        if callable(job):
            job()
            return
        name, cmd, what = job
        with phase(name):
            run(cmd, verbose, what)
    if len(jobs) == 1:
        one(jobs[0])
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(one, job) for job in jobs]
    for f in futures:
        f.result()
