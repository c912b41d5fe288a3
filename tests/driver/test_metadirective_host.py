"""Tier 1: the host code of a metadirective is the variant the host takes, with the same
context as the binder's: a target_device trait in host code names the GPU of --offload-arch."""
from ompgpu.driver import translate
from ompgpu.options import Options

SOURCE = """int main(void) {
  int a[8];
  #pragma omp metadirective when(target_device={isa(sm_80)}: target teams distribute parallel for map(from: a)) default(parallel for)
  for (int i = 0; i < 8; i++) a[i] = i;
  return a[7];
}
"""


def host_pragmas(tmp_path, arch: str) -> list[str]:
    src = tmp_path / "m.c"
    src.write_text(SOURCE)
    host = translate(str(src), Options(offload="emu", offload_arch=arch)).host_c
    return [line.strip() for line in host.splitlines() if line.lstrip().startswith("#pragma omp")]


def test_target_device_trait_follows_the_offload_arch_in_host_code(tmp_path):
    # sm_80: the target variant, bound as a target region, whose host fallback keeps its pragma
    assert any(p.startswith("#pragma omp target teams distribute parallel for map(from: a)") and "if(target: 0)" in p
               for p in host_pragmas(tmp_path, "sm_80"))
    # sm_90: the default, a host parallel loop
    assert "#pragma omp parallel for" in host_pragmas(tmp_path, "sm_90")
