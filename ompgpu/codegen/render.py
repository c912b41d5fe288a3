"""The one place that renders jinja2 templates (all emitted C/CUDA lives in templates/)."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ompgpu import cache_dir

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The templates compiled once per installation: compiling them again in every `ompgpu cc`
    process took about a tenth of a second. jinja2 keys each by its name, its source and the
    Python version, not by jinja2's own version, whose compiled code differs between releases
    (3.1's calls environment.concat, which 3.0 lacks): one folder per jinja2 release."""
    folder = cache_dir() / f"templates-jinja2-{jinja2.__version__}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None   # no cache folder: compiled in memory
    return jinja2.FileSystemBytecodeCache(str(folder))


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.globals["ids"] = BLOCK_TEAM_IDS  # device code of a team per block unless the caller says
    return env


@dataclass(frozen=True)
class TeamIds:
    """How device code names the calling thread's place in its team (templates read it as `ids`).

    A team per CUDA block (the default): the thread's number is threadIdx.x, a barrier of the
    whole team is the block's, and distribute deals out iterations by blockIdx.x of gridDim.x.
    Packed teams (KernelPlan.packed_teams: several one-warp teams per block): the thread's
    number is its lane, the team's barrier its warp's, and the distribute calls take the
    team's number and the league's size from the kernel's prologue (device.cu.j2)."""

    packed: bool = False
    thread: str = "threadIdx.x"
    block_barrier: str = "ompgpu::block_barrier()"
    team: str = "blockIdx.x"
    league: str = "gridDim.x"
    lanes: int = 32     # packed: the team's lanes (8 or 16: several teams per warp)

    def lanes_arg(self) -> str:
        """The team's lane count as a trailing argument of the packed_* calls (teams below a warp)."""
        return f", {self.lanes}u" if self.packed and self.lanes < 32 else ""

    def thread_arg(self) -> str:
        """The thread's number as a trailing argument of the known_static_* calls (packed only)."""
        return f", {self.thread}" if self.packed else ""

    def team_arg(self) -> str:
        return f", {self.team}" if self.packed else ""

    def league_arg(self) -> str:
        return f", {self.league}" if self.packed else ""

    def spread_team(self) -> str:
        """The template argument of the spread_* calls (runtime/device/spread.cuh): a warp team's
        state is its own, the block's otherwise."""
        return f"<{self.lanes}>" if self.packed else ""


BLOCK_TEAM_IDS = TeamIds()
PACKED_TEAM_IDS = TeamIds(True, "ompgpu::lane_id()", "ompgpu::packed_team_barrier()", "__omp_team", "__omp_league")


def packed_team_ids(lanes: int) -> TeamIds:
    """The ids of packed teams of `lanes` threads: a warp each (PACKED_TEAM_IDS), or an aligned
    group of 8 or 16 lanes of a warp."""
    if lanes == 32:
        return PACKED_TEAM_IDS
    return TeamIds(True, f"ompgpu::packed_thread({lanes}u)", f"ompgpu::packed_team_barrier({lanes}u)", "__omp_team",
                   "__omp_league", lanes)


def render(template: str, **context) -> str:
    return _env().get_template(template).render(**context)
