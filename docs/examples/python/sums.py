"""Sum the first n whole numbers two ways, each timed by lab.py: a Python
loop, and the builtin sum(). Run by hand, it prints its records:

    cd docs && PYTHONPATH=kernels python3 examples/python/sums.py --n 1000
"""
import argparse

import lab


def loop(xs):
    total = 0
    for x in xs:
        total += x
    return total


args = argparse.ArgumentParser()
args.add_argument("--n", type=int, default=1000)
n = args.parse_args().n
xs = list(range(n))
for method, fn in (("loop", loop), ("builtin", sum)):
    st = lab.time(fn, xs)
    total = fn(xs)
    print(f"{method}: the first {n} sum to {total}, "
          f"{st.median_ms:.4f} ms a call")
    lab.record(method=method, n=n, correct=total == n * (n - 1) // 2,
               **st.rate("madds", n / 1e6), **st)
