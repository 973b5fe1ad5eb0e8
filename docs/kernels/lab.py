"""lab.py - what lab.h gives C++ experiments, for Python programs.

One module, imported by an experiment's program (`import lab`), so that
it stays a short, plain Python program:

    lab.record(**fields)       one JSON object per line to $LAB_RECORDS
    lab.fact(name, value)      a measured fact, for the bundle's machine.json
    lab.time(fn, *args)        time fn(*args); returns lab.Stats
    st.rate(name, amount)      amount per second, with _lo and _hi

    st = lab.time(total, xs)
    lab.record(n=len(xs), **st.rate("mops", len(xs) / 1e6), **st)

A `.py` source runs with its book's kernels/ folder on PYTHONPATH, so
`import lab` finds kernels/lab.py as `#include "lab.h"` finds lab.h
(docs/05-course.md, "Programs in Python"); a run: command sets it itself,
with env: PYTHONPATH=kernels.

How lab.time measures, as lab.h's lab::time does (the book's appendix says
why each step matters):
  - warm-up calls first (imports, caches, first-touch, a JIT);
  - a call shorter than batch_below_us is batched: each repetition times
    enough back-to-back calls to last batch_target_us, judged from the
    fastest of three single calls (which also warm it up), so the timer's
    resolution and its own cost are a small part of it;
  - repetitions continue until at least min_reps are done and min_time_ms
    is spent, then stop once the median is known to target_noise (its
    relative standard error, from the quartiles), or when budget_ms or
    max_reps runs out;
  - the statistics are median, min, max, quartiles, spread and noise, in
    milliseconds per call, under the field names lab.h writes (reps,
    batch, median_ms, min_ms, max_ms, q1_ms, q3_ms, spread, noise), so
    labbook merges the runs of a Python experiment as it merges lab.h's;
    `timer` says which clock took them;
  - on the CPU (device="cpu", the default) each repetition is read with
    time.perf_counter_ns;
  - with device="cuda", each repetition is bracketed by CUDA events behind
    a gate, with cold=True flushing L2 by a read before each (see _Cuda
    below: that path needs CuPy or PyTorch and a GPU, and is not run by
    labbook's tests);
  - under Nsight Compute (LAB_PROFILE set) every point is one call, with
    no warm-up.

Records are JSON objects, one per line, appended to the file named by the
environment variable LAB_RECORDS; without it they are printed, prefixed
with "record: ", so a program run by hand still shows its numbers.
"""
import json
import math
import os
import statistics
import sys
import time as _clock

__all__ = ["record", "fact", "time", "Stats"]


# ---- records ---------------------------------------------------------------

def _value(v):
    """A field's value as JSON has it: a NumPy, CuPy or PyTorch scalar as
    the number it holds, and a number that is not finite as null (lab.h
    writes null too)."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def record(**fields):
    """Append one record, its fields in the order given, to $LAB_RECORDS;
    print it as "record: {...}" where that is unset."""
    line = json.dumps({k: _value(v) for k, v in fields.items()},
                      separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)
    path = os.environ.get("LAB_RECORDS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    else:
        print("record: " + line, flush=True)


def fact(name, value):
    """A fact about the machine ("bw_copy_gbps"), merged into the bundle's
    machine.json under "measured", as lab::Record::fact."""
    record(fact=name, value=value)


# ---- statistics ------------------------------------------------------------

def _quantile(s, q):
    """The q quantile of sorted s, interpolated as lab.h's quantile()."""
    pos = q * (len(s) - 1)
    i = int(pos)
    f = pos - i
    return s[i] * (1 - f) + s[i + 1] * f if i + 1 < len(s) else s[i]


def _noise(s):
    """The relative standard error of the median of sorted s: 1.2533 sigma
    / sqrt(n), sigma from the quartiles (IQR / 1.349), as lab.h's."""
    med = _quantile(s, 0.5)
    if med <= 0 or len(s) < 2:
        return 0.0
    iqr = _quantile(s, 0.75) - _quantile(s, 0.25)
    return 1.2533 * iqr / 1.349 / math.sqrt(len(s)) / med


class Stats(dict):
    """The fields lab.h's Record::stats writes, in its order, as a dict
    (lab.record(**st)) whose keys read as attributes (st.median_ms).
    times holds each repetition's milliseconds per call, in order."""

    def __init__(self, times, batch, timer, cold=None):
        s = sorted(times)
        med = _quantile(s, 0.5)
        super().__init__(reps=len(s))
        if batch > 1:
            self["batch"] = batch
        q1, q3 = _quantile(s, 0.25), _quantile(s, 0.75)
        self.update(median_ms=med, min_ms=s[0], max_ms=s[-1], q1_ms=q1,
                    q3_ms=q3, spread=(q3 - q1) / med if med > 0 else 0.0,
                    noise=_noise(s), timer=timer)
        if cold is not None:
            self["cold"] = cold
        self.times = list(times)
        self.mean_ms = statistics.fmean(s)

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def rate(self, name, amount):
        """{name: amount per second at the median, name_lo: at the slowest
        repetition, name_hi: at the fastest}, as Record::rate."""
        return {name: amount / (self.median_ms * 1e-3),
                name + "_lo": amount / (self.max_ms * 1e-3),
                name + "_hi": amount / (self.min_ms * 1e-3)}


# ---- timing ----------------------------------------------------------------

def _profiling():
    return bool(os.environ.get("LAB_PROFILE"))


class _Cpu:
    """Repetitions read with time.perf_counter_ns."""
    name = "perf_counter"
    batchable = True

    def sync(self):
        pass

    def rep(self, fn, args, batch, cold):
        t0 = _clock.perf_counter_ns()
        for _ in range(batch):
            fn(*args)
        return (_clock.perf_counter_ns() - t0) / 1e6


def _sample(fn, args, o, timer):
    """Each repetition's milliseconds per call, in the order taken."""
    for _ in range(o["warmup"]):
        fn(*args)
    timer.sync()
    ms, total = [], 0.0
    while len(ms) < o["max_reps"]:
        t = timer.rep(fn, args, o["batch"], o["cold"])
        ms.append(t / o["batch"])
        total += t
        if len(ms) < o["min_reps"] or total < o["min_time_ms"]:
            continue
        if total > o["budget_ms"] or _noise(sorted(ms)) < o["target_noise"]:
            break
    return ms


def _batch_for(fn, args, o, timer):
    """Calls per repetition: o's batch when set; for a call shorter than
    batch_below_us (hot, gated where on the GPU), enough calls to last
    batch_target_us; else 1."""
    if o["batch"] > 0:
        return o["batch"]
    # A cold call is never batched: the calls after the first would find
    # L2 warm. An ungated GPU point is not either: its events would time
    # the host's launches.
    if o["cold"] or _profiling() or not timer.batchable:
        return 1
    one = dict(o, batch=1, min_reps=3, max_reps=3)
    us = min(_sample(fn, args, one, timer)) * 1e3
    o["warmup"] = 0
    if us >= o["batch_below_us"] or us <= 0:
        return 1
    return min(1000, math.ceil(o["batch_target_us"] / us))


def time(fn, *args, device="cpu", warmup=3, min_reps=20, max_reps=2000,
         budget_ms=500.0, min_time_ms=5.0, target_noise=0.0025, batch=0,
         batch_below_us=20.0, batch_target_us=50.0, cold=False, gate=True):
    """Time fn(*args) as lab::time does (see the module's comment) and
    return its Stats. device="cuda" times the GPU work fn queues, with CUDA
    events (_Cuda); cold=True flushes L2 before each repetition there, and
    gate=False is for work that waits on the host."""
    if device == "cpu":
        if cold:
            raise ValueError("lab.time: cold=True flushes a GPU's L2; it "
                             "needs device='cuda'")
        timer = _Cpu()
    elif device == "cuda":
        timer = _Cuda.get(gate)
    else:
        raise ValueError(f"lab.time: device is 'cpu' or 'cuda', not {device!r}")
    o = dict(warmup=warmup, min_reps=min_reps, max_reps=max_reps,
             budget_ms=budget_ms, min_time_ms=min_time_ms,
             target_noise=target_noise, batch=batch, cold=cold,
             batch_below_us=batch_below_us, batch_target_us=batch_target_us)
    if _profiling():
        o.update(warmup=0, min_reps=1, max_reps=1, batch=1, cold=False)
    o["batch"] = _batch_for(fn, args, o, timer)
    ms = _sample(fn, args, o, timer)
    return Stats(ms, o["batch"], timer.name,
                 cold=o["cold"] if device == "cuda" else None)


# ---- CUDA events (CuPy or PyTorch) -----------------------------------------

class _Cuda:
    """Repetitions timed on the GPU, as lab.h's sample() times them.

    NOT TESTED IN CI: labbook's tests run on machines without a GPU, so
    this path is exercised only where CuPy or PyTorch finds a CUDA device
    (it was run by hand on an H200, with CuPy 14.2 and PyTorch 2.11).

    The backend is PyTorch when the program has imported it, else CuPy,
    else whichever of the two imports. Each repetition is bracketed by its
    own pair of events on the current stream, queued whole behind a gate
    so no host-side launch cost falls inside them: with CuPy, lab.h's gate
    kernel, spinning on a flag in mapped host memory until the host has
    queued the repetition and opens it (a gate that times out, as behind a
    synchronous copy, is dropped for the rest of the point); with PyTorch
    alone, which launches no kernel of ours, torch.cuda._sleep for twice
    the time the host took to queue the last repetition. cold=True reads
    a buffer twice the L2 size (at least 8 MiB) before each repetition,
    outside the events: lab.h's read flush, which leaves L2 holding no
    dirty lines. The SM clock is not read (lab.h reads NVML), so its
    records have no clock_mhz or throttled.
    """
    name = "cuda_events"
    _one = None
    _gate_src = r'''
extern "C" __global__ void lab_gate(volatile int *flag, long long timeout_ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (!flag[0] && (long long)(t - t0) < timeout_ns);
    if (!flag[0])
        flag[1] = 1;
}
'''

    @classmethod
    def get(cls, gate):
        if cls._one is None:
            cls._one = cls()
        cls._one.gate = gate and not _profiling()
        return cls._one

    @property
    def batchable(self):
        return self.gate

    def __init__(self):
        self.torch = self.cp = None
        if "torch" in sys.modules or "cupy" not in sys.modules:
            try:
                import torch
                if torch.cuda.is_available():
                    self.torch = torch
            except ImportError:
                pass
        if self.torch is None:
            try:
                import cupy
                if cupy.cuda.runtime.getDeviceCount() > 0:
                    self.cp = cupy
            except Exception:
                pass
        if self.torch is None and self.cp is None:
            raise RuntimeError("lab.time(device='cuda') needs CuPy or "
                               "PyTorch, and a CUDA device they can see")
        if self.torch:
            t = self.torch
            l2 = t.cuda.get_device_properties(t.cuda.current_device()).L2_cache_size
            n = max(2 * l2, 8 << 20) // 4
            self.l2buf = t.zeros(n, dtype=t.int32, device="cuda")
            self.queue_ns = 100_000
        else:
            cp = self.cp
            l2 = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())["l2CacheSize"]
            n = max(2 * l2, 8 << 20) // 4
            self.l2buf = cp.zeros(n, dtype=cp.int32)
            import ctypes
            # Mapped pinned memory: under unified addressing (every 64-bit
            # platform CuPy runs on) the GPU reads it at the host's address.
            ptr = cp.cuda.runtime.hostAlloc(8, 2)  # cudaHostAllocMapped
            self.flag = (ctypes.c_int * 2).from_address(ptr)
            self.flag_dev = ptr
            self.kernel = cp.RawKernel(self._gate_src, "lab_gate")

    def event(self):
        if self.torch:
            return self.torch.cuda.Event(enable_timing=True)
        return self.cp.cuda.Event()

    def sync(self):
        if self.torch:
            self.torch.cuda.synchronize()
        else:
            self.cp.cuda.Device().synchronize()

    def rep(self, fn, args, batch, cold):
        start, stop = self.event(), self.event()
        t0 = _clock.perf_counter_ns()
        if self.gate and self.torch:
            # Twice the last repetition's queueing, at up to 2 cycles a ns.
            self.torch.cuda._sleep(int(2 * self.queue_ns * 2))
        elif self.gate:
            import numpy
            self.flag[0] = self.flag[1] = 0
            self.kernel((1,), (1,), (numpy.uintp(self.flag_dev),
                                     numpy.int64(100_000_000)))
        if cold:
            self.l2buf.sum()
        start.record()
        for _ in range(batch):
            fn(*args)
        stop.record()
        if self.gate and not self.torch:
            self.flag[0] = 1
        self.queue_ns = _clock.perf_counter_ns() - t0
        stop.synchronize()
        if self.gate and not self.torch and self.flag[1]:
            self.gate = False
        if self.torch:
            return start.elapsed_time(stop)
        return self.cp.cuda.get_elapsed_time(start, stop)
