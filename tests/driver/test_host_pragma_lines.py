"""The host code's pragma lines as the host compiler (gcc 12) must see them: one rewriter
(ompgpu.codegen.host.pragmas.host_pragma_lines) for requires, begin declare target, allocate and
declare mapper, metadirectives, imperfect collapse and array shaping."""
from ompgpu.codegen.host import host_item_text
from ompgpu.codegen.host.pragmas import host_pragma_lines as _host_pragma_lines
from ompgpu.errors import SourceCoord
from ompgpu.parser.pragma import parse_pragma


def rewrite(text: str, imperfect=()) -> str:
    out = _host_pragma_lines(text, tuple(imperfect), "sm_90")
    assert out.count("\n") == text.count("\n")  # line numbers stay
    return out


def test_lines_that_change_keep_their_place():
    text = ("int x;\n#pragma omp requires unified_address, atomic_default_mem_order(seq_cst)\n"
            "#pragma omp begin declare target device_type(nohost)\n#pragma omp end declare target\n"
            "#pragma omp declare mapper(vec_t v) map(v)\n#pragma omp allocate(x) allocator(omp_low_lat_mem_alloc)\n")
    lines = rewrite(text).split("\n")
    assert lines[1].rstrip() == "#pragma omp requires atomic_default_mem_order(seq_cst)"
    assert lines[2].rstrip() == "#pragma omp declare target"
    assert lines[3] == "#pragma omp end declare target"
    assert lines[4].strip() == "" and lines[5].strip() == ""


def test_metadirective_takes_the_host_variant():
    text = "#pragma omp metadirective when(device={kind(gpu)}: teams loop) default(parallel for)\n"
    assert rewrite(text).split("\n")[0].rstrip() == "#pragma omp parallel for"


def test_imperfect_collapse_becomes_its_perfect_depth():
    text = "\n#pragma omp parallel for collapse(3)\n"
    assert rewrite(text, [(2, 3, 2)]).split("\n")[1].rstrip() == "#pragma omp parallel for collapse(2)"
    assert rewrite(text, [(2, 3, 1)]).split("\n")[1].rstrip() == "#pragma omp parallel for"


def test_array_shaping_in_depend_and_affinity_left_out():
    """Shaped items become the storage they name; affinity (a hint, which gcc 11 rejects) goes."""
    text = "#pragma omp task depend(in: ([n][m+1])p, q) affinity(([4])r) depend(out: ([2][3])s[1][1:2])\n"
    line = rewrite(text).split("\n")[0].rstrip()
    assert line == "#pragma omp task depend(in: p[0:(n)*(m+1)], q) depend(out: s[(1)*(3) + (1)])"


def test_iterators_pass_through():
    text = "#pragma omp task depend(iterator(int i = 0:n), in: a[i])\n"
    assert rewrite(text) == text


def test_host_item_text():
    d = parse_pragma("omp target update to(([nx][ny])a, ([nx][ny])a[2:3][1], b[0:4])", SourceCoord("x.c", 1, 1))
    assert [host_item_text(i) for i in d.clauses[0].items] == ["a[0:(nx)*(ny)]", "a[(2)*(ny) + (1)]", "b[0:4]"]


def test_declare_target_enter_as_to():
    """enter (5.2) as the 5.0 `to` that gcc 12 knows; indirect(0) says nothing on the host."""
    text = "#pragma omp declare target enter(f, g) indirect(0)\n"
    assert rewrite(text).split("\n")[0].rstrip() == "#pragma omp declare target to(f, g)"


def test_declare_target_indirect_left_out():
    """indirect (5.1; gcc 12 rejects it) says nothing about the host's copies: bare, or with an
    argument."""
    for clause in ("indirect", "indirect(1)", "indirect(true)"):
        text = f"#pragma omp declare target to(f, g) {clause}\n"
        assert rewrite(text).split("\n")[0].rstrip() == "#pragma omp declare target to(f, g)"
    assert rewrite("#pragma omp begin declare target indirect\n").split("\n")[0].rstrip() == "#pragma omp declare target"
