"""Plots of a results CSV (matplotlib; run on the CPU machine).

    python -m epcc_bench plot CSV... [--out DIR]

sync.png:   overhead per construct against worker threads, one line per variant, one panel
            per construct (like Figure 4 of the warp-specialization paper).
sched.png:  schedbench overhead per `for` against chunk size, one panel per schedule kind,
            one row per thread count (32, 256, 992 where measured).
target.png: end-to-end time of an empty target region and of one with a small map.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import report  # noqa: E402

SYNC_PANELS = report.TABLE_TESTS
SCHED_PANELS = ("static_n", "dynamic_n", "guided_n")
STYLE = {
    "floor": dict(color="black", linestyle="--", marker="s"),
    "ompgpu-elide": dict(color="tab:blue", marker="o"),
    "ompgpu-generic": dict(color="tab:cyan", marker="^"),
    "clang19": dict(color="tab:red", marker="v"),
    "clang19-generic": dict(color="tab:orange", marker="<"),
    "gcc12": dict(color="tab:green", marker="D"),
}


def _title(meta: dict[str, str]) -> str:
    return f"EPCC offload overheads, one team - {meta.get('device', '?')}, {meta.get('date', '')[:10]}, " \
           f"commit {meta.get('commit', '?')}"


def plot_sync(meta, rows, path: Path) -> None:
    idx = report.overhead_index(rows)
    variants = report.variants_in(rows)
    fig, axes = plt.subplots(2, 5, figsize=(20, 8))
    for ax, test in zip(axes.flat, SYNC_PANELS):
        for v in variants:
            # Log scale: an overhead at or below zero (within noise of the reference) is not drawn.
            pts = sorted((t, y) for (vv, tt, t, c), y in idx.items() if vv == v and tt == test and c == 0 and y > 0)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], label=v, markersize=4, **STYLE.get(v, {}))
        ax.set_title(test)
        ax.set_xlabel("worker threads")
        ax.set_ylabel("overhead per construct (us)")
        ax.set_xticks([32, 256, 512, 768, 992])
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="upper right")
    fig.suptitle(_title(meta))
    fig.tight_layout(rect=(0, 0, 0.93, 0.95))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_sched(meta, rows, path: Path, threads_rows=(32, 256, 992)) -> None:
    """One row of panels per thread count (those measured), one panel per schedule kind."""
    idx = report.overhead_index(rows)
    variants = [v for v in report.variants_in(rows) if any(k[0] == v and k[1] in SCHED_PANELS for k in idx)]
    measured = sorted({k[2] for k in idx if k[1] in SCHED_PANELS})
    wanted = [t for t in threads_rows if t in measured] or measured[-1:]
    fig, axes = plt.subplots(len(wanted), len(SCHED_PANELS), figsize=(15, 4.2 * len(wanted)), squeeze=False)
    for row, threads in zip(axes, wanted):
        for ax, test in zip(row, SCHED_PANELS):
            for v in variants:
                pts = sorted((c, y) for (vv, tt, t, c), y in idx.items()
                             if vv == v and tt == test and t == threads and y > 0)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], label=v, **STYLE.get(v, {}))
                static = idx.get((v, "static", threads, 0))
                if static is not None and static > 0 and test == "static_n":
                    ax.axhline(static, linestyle=":", color=STYLE.get(v, {}).get("color", "gray"), alpha=0.6)
            ax.set_title(f"schedule({test.replace('_n', ', n')}) at {threads} threads")
            ax.set_xlabel("chunk size n")
            ax.set_ylabel("overhead per for (us)")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(_title(meta) + " - schedbench (dotted: schedule(static))")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plot_target(meta, rows, path: Path) -> None:
    idx = report.overhead_index(rows)
    variants = [v for v in report.variants_in(rows) if any(k[0] == v and k[1].startswith("target_") for k in idx)]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.38
    for i, test in enumerate(("target_empty", "target_map")):
        ys = [idx.get((v, test, 1, 0), 0.0) for v in variants]
        xs = [j + (i - 0.5) * width for j in range(len(variants))]
        ax.bar(xs, ys, width, label=test)
        for x, y in zip(xs, ys):
            ax.text(x, y, f"{y:.1f}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(variants)), variants)
    ax.set_ylabel("end-to-end time per target region (us)")
    ax.legend()
    ax.set_title(_title(meta) + "\ntarget regions", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot(csv_paths: list[str], out_dir: str | Path) -> list[Path]:
    meta, rows = report.read_all(csv_paths)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = Path(csv_paths[0]).stem
    made = []
    groups = {r["group"] for r in rows if r.get("status") == "ok"}
    for group, fn in (("sync", plot_sync), ("sched", plot_sched), ("target", plot_target)):
        if group in groups:
            path = out / f"{stem}-{group}.png"
            fn(meta, rows, path)
            made.append(path)
    return made
