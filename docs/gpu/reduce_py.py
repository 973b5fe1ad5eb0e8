"""reduce_py.py - the sum of n ints from Python, five ways: a Triton
kernel, and CuPy's and PyTorch's sum, each with NumPy's rule for the
type of the total (int64 for int32 ints) and with an int32 total asked
for (cupy_int32, torch_int32); each timed by lab.py as lab.h times the
book's CUDA reduction (kernels/reduce/reduce.cu): CUDA events behind a
gate, L2 flushed by a read before every repetition, repetitions until the
median is known to a quarter of a percent.

    python3 reduce_py.py [--n 16384:268435456:x4]

The input is random ints in [-100, 100], as reduce.cu's; every sum is
checked exactly against a 64-bit sum on the CPU.
"""
import argparse

import cupy as cp
import numpy as np
import torch
import triton
import triton.language as tl

import lab


@triton.jit
def sum_tiles(x, out, n, BLOCK: tl.constexpr):
    # Program p sums tiles p, p + P, p + 2P, ... of BLOCK ints (P programs
    # in all), then adds its total to out: the grid-stride loop of the
    # book's best variant, with Triton choosing the loads.
    p = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(p * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x + offs, mask=offs < n, other=0)
    tl.atomic_add(out, tl.sum(acc, axis=0))


BLOCK = 4096


def sizes(text):
    """"16384:268435456:x4" -> 16384, 65536, ... 268435456."""
    lo, hi, mul = text.split(":")
    n, out = int(lo), []
    while n <= int(hi):
        out.append(n)
        n *= int(mul.lstrip("x"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="16384:268435456:x4")
    args = ap.parse_args()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.zeros(1, dtype=torch.int32, device="cuda")

    for n in sizes(args.n):
        gen = torch.Generator(device="cuda").manual_seed(n)
        x = torch.randint(-100, 101, (n,), dtype=torch.int32, device="cuda",
                          generator=gen)
        xc = cp.from_dlpack(x)
        want = int(x.cpu().numpy().astype(np.int64).sum())
        grid = (min(triton.cdiv(n, BLOCK), 4 * sms),)

        def triton_sum():
            out.zero_()
            sum_tiles[grid](x, out, n, BLOCK=BLOCK, num_warps=8)
            return out

        ways = [("triton", triton_sum, triton.__version__),
                ("cupy", xc.sum, cp.__version__),
                ("cupy_int32", lambda: xc.sum(dtype=cp.int32), cp.__version__),
                ("torch", x.sum, torch.__version__),
                ("torch_int32", lambda: x.sum(dtype=torch.int32),
                 torch.__version__)]
        for name, fn, version in ways:
            st = lab.time(fn, device="cuda", cold=True)
            got = int(fn().item())
            lab.record(variant=name, n=n, ms=st.median_ms,
                       **st.rate("gbps", n * 4 / 1e9), correct=got == want,
                       version=version, **st)
        del x, xc


if __name__ == "__main__":
    main()
