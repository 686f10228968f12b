#!/usr/bin/env python3
"""Capture real PyTorch profiler traces of torch.distributed.pipelining runs.

For: the measured-run fixtures ppflow reads (tests/data/traces/), and for
anyone who wants a trace of a known pipeline to try ppflow's trace reader on.
Each schedule runs once as a warm-up (PipelineStage infers shapes then) and
once under torch.profiler; every rank writes its own Kineto Chrome trace.

Runs on the CPU with the gloo backend: no GPU and no network needed, only
PyTorch (2.11 or later: its multi-stage runtime labels each action
"PP:<action>", e.g. PP:2F5, PP:3RECV_F5, PP:(0F3;7B1)OVERLAP_F_B). The model
is a stack of square Linear+ReLU layers split evenly into stages, so that a
stage's forward costs about a third of its full backward, as in a
transformer's.

    python3 tools/capture_pp_traces.py --out traces/ [--ranks 4] [--microbatches 8]
        [--schedules gpipe,1f1b,interleaved-1f1b,interleaved-zb,zbv,dualpipev]
        [--hidden 512] [--layers-per-stage 2] [--batch-per-microbatch 32] [--threads 2]

Writes, for each schedule S:
    OUT/S/rank<r>.json.gz   rank r's trace (Kineto Chrome trace JSON, gzipped)
    OUT/S/schedule.csv      each rank's compute actions, one row per rank, as
                            PyTorch's own _dump_csv writes them (multi-stage
                            schedules only), and schedule_comms.csv with the
                            sends and receives PyTorch added
    OUT/S/manifest.json     what ran: PyTorch's version, the schedule class,
                            ranks, stages, micro-batches, which rank holds
                            which stage, the model's sizes, and each rank's
                            wall time of the profiled step
Exit status: 0 when every schedule ran, 1 when one failed (the others
are still written; the failure is printed with its schedule's name), 2 for
an unknown schedule.

The traces in tests/data/traces/pytorch-2.11/ were captured with the
defaults (see the README there); with 16 cores the six schedules take
about a minute and a half, most of it starting PyTorch.
"""

import argparse
import gzip
import json
import os
import shutil
import socket
import sys
import tempfile
import time

SCHEDULES = {
    # name: (PyTorch class name, stages per rank, placement)
    "gpipe": ("ScheduleGPipe", 1, "loop"),
    "1f1b": ("Schedule1F1B", 1, "loop"),
    "interleaved-1f1b": ("ScheduleInterleaved1F1B", 2, "loop"),
    "interleaved-zb": ("ScheduleInterleavedZeroBubble", 2, "loop"),
    "zbv": ("ScheduleZBVZeroBubble", 2, "v"),
    "dualpipev": ("ScheduleDualPipeV", 2, "v"),
}


def stages_of_rank(rank, ranks, per_rank, placement):
    """The global stage indices rank holds: a loop puts stage s on rank
    s mod ranks; a V puts stages r and 2*ranks-1-r on rank r."""
    if per_rank == 1:
        return [rank]
    if placement == "v":
        return [rank, 2 * ranks - 1 - rank]
    return [rank + k * ranks for k in range(per_rank)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def drop_self_sends():
    """PipelineStage's first exchange (_get_init_p2p_neighbors_ops) sends to
    the neighbouring stages' ranks, which under V placement is the rank
    itself for the middle stages (rank P-1 holds stages P-1 and P); gloo has
    no connection to itself and fails there (NCCL allows it). The exchange
    only warms connections up, and the schedules never send to their own
    rank, so such operations are dropped."""
    from torch.distributed.pipelining.stage import _PipelineStageBase

    original = _PipelineStageBase._get_init_p2p_neighbors_ops

    def without_self(self):
        return [op for op in original(self) if getattr(op, "group_peer", None) != self.group_rank]

    _PipelineStageBase._get_init_p2p_neighbors_ops = without_self


def run_rank(rank, args, name, port, tmp):
    import torch
    import torch.distributed as dist
    import torch.distributed.pipelining as pp
    from torch.profiler import ProfilerActivity, profile

    drop_self_sends()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1234)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")  # the ranks share this machine
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=args.ranks)
    try:
        cls_name, per_rank, placement = SCHEDULES[name]
        n_stages = args.ranks * per_rank
        mine = stages_of_rank(rank, args.ranks, per_rank, placement)
        h = args.hidden

        def stage_module():
            layers = []
            for _ in range(args.layers_per_stage):
                layers += [torch.nn.Linear(h, h), torch.nn.ReLU()]
            return torch.nn.Sequential(*layers)

        stages = [pp.PipelineStage(stage_module(), s, n_stages, torch.device("cpu")) for s in mine]
        loss_fn = lambda out, target: torch.nn.functional.mse_loss(out, target)  # noqa: E731
        cls = getattr(pp, cls_name)
        sched = cls(stages[0] if per_rank == 1 else stages, args.microbatches, loss_fn=loss_fn)

        batch = args.batch_per_microbatch * args.microbatches
        gen = torch.Generator().manual_seed(99)
        x = torch.randn(batch, h, generator=gen)
        y = torch.randn(batch, h, generator=gen)
        has_first = 0 in mine
        has_last = n_stages - 1 in mine

        def step():
            losses = []
            inputs = (x,) if has_first else ()
            target = y if has_last else None
            sched.step(*inputs, target=target, losses=losses if has_last else None)

        step()  # warm-up: shapes are inferred, buffers made
        for st in stages:
            for p in st.submod.parameters():
                p.grad = None
        dist.barrier()
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            t0 = time.perf_counter()
            step()
            wall = time.perf_counter() - t0
        path = os.path.join(tmp, f"rank{rank}.json")
        prof.export_chrome_trace(path)
        with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
            shutil.copyfileobj(f, g)
        os.remove(path)
        if rank == 0 and per_rank > 1:
            # The schedule as PyTorch's own CSV: compute actions (what
            # `ppflow --schedule csv` reads) and with the comms added.
            sched._dump_csv(os.path.join(tmp, "schedule.csv"), format="compute_only")
            sched._dump_csv(os.path.join(tmp, "schedule_comms.csv"), format="compute_comms")
        with open(os.path.join(tmp, f"rank{rank}.info.json"), "w") as f:
            json.dump({"rank": rank, "stages": mine, "wall_s": wall}, f)
    finally:
        dist.destroy_process_group()


def capture(name, args):
    import torch
    import torch.multiprocessing as mp

    out = os.path.join(args.out, name)
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(run_rank, args=(args, name, free_port(), tmp), nprocs=args.ranks, join=True)
        infos = []
        for r in range(args.ranks):
            with open(os.path.join(tmp, f"rank{r}.info.json")) as f:
                infos.append(json.load(f))
            shutil.move(os.path.join(tmp, f"rank{r}.json.gz"), os.path.join(out, f"rank{r}.json.gz"))
        for csv_name in ("schedule.csv", "schedule_comms.csv"):
            if os.path.exists(os.path.join(tmp, csv_name)):
                shutil.move(os.path.join(tmp, csv_name), os.path.join(out, csv_name))
    cls_name, per_rank, placement = SCHEDULES[name]
    manifest = {
        "torch": torch.__version__,
        "schedule": name,
        "class": "torch.distributed.pipelining." + cls_name,
        "backend": "gloo (CPU)",
        "ranks": args.ranks,
        "stages": args.ranks * per_rank,
        "microbatches": args.microbatches,
        "placement": placement if per_rank > 1 else "one stage per rank",
        "stages_of_rank": {str(i["rank"]): i["stages"] for i in infos},
        "model": {
            "hidden": args.hidden,
            "layers_per_stage": args.layers_per_stage,
            "batch_per_microbatch": args.batch_per_microbatch,
            "threads_per_rank": args.threads,
        },
        "profiled_step_wall_s": {str(i["rank"]): round(i["wall_s"], 6) for i in infos},
        "captured_by": "tools/capture_pp_traces.py",
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--microbatches", type=int, default=8)
    ap.add_argument("--schedules", default=",".join(SCHEDULES))
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--layers-per-stage", type=int, default=2)
    ap.add_argument("--batch-per-microbatch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    names = [s for s in args.schedules.split(",") if s]
    for n in names:
        if n not in SCHEDULES:
            print(f"capture_pp_traces: --schedules: unknown schedule {n!r} (known: {', '.join(SCHEDULES)})",
                  file=sys.stderr)
            return 2
    failed = 0
    for n in names:
        t0 = time.time()
        try:
            capture(n, args)
            print(f"capture_pp_traces: {n}: written in {time.time() - t0:.1f} s", flush=True)
        except Exception as e:  # one schedule's failure leaves the others
            failed += 1
            print(f"capture_pp_traces: {n}: failed: {e}", file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
