#!/usr/bin/env python3
"""Independent Python versions of the examples; writes NAME.expected.

The .expected files are committed; rerun this only when an example's
arguments (NAME.args) change:  python3 reference.py
"""
import pathlib


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def count_primes(n):
    sieve = bytearray([1]) * max(n, 2)
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return sum(sieve[:n])


def longest(limit):
    best, best_steps = 0, 0
    for n in range(1, limit):
        m, steps = n, 0
        while m != 1:
            m = m // 2 if m % 2 == 0 else 3 * m + 1
            steps += 1
        if steps > best_steps:
            best, best_steps = n, steps
    return best


def gcd_sum(n):
    from math import gcd
    return sum(gcd(i, j) for i in range(1, n + 1) for j in range(1, n + 1))


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def mandel(width, height, max_iter):
    count = 0
    for py in range(height):
        for px in range(width):
            cx = trunc_div(px * 12288, width) - 8192
            cy = trunc_div(py * 9830, height) - 4915
            zr = zi = zr2 = zi2 = 0
            it = 0
            inside = 1
            while it < max_iter:
                if zr2 + zi2 > 16384:
                    inside = 0
                    break
                zi = ((zr * zi) >> 11) + cy
                zr = zr2 - zi2 + cx
                zr2 = (zr * zr) >> 12
                zi2 = (zi * zi) >> 12
                it += 1
            count += inside
    return count


def ack(m, n):
    # iterative, with an explicit stack of pending m's
    stack = [m]
    while stack:
        m = stack.pop()
        if m == 0:
            n += 1
        elif n == 0:
            stack.append(m - 1)
            n = 1
        else:
            stack.append(m - 1)
            stack.append(m)
            n -= 1
    return n


def chain(x):
    mask = (1 << 64) - 1

    def level(k, x):
        if k == 22:
            return (7 * x + 1) & mask
        return level(k + 1, (x + k) & mask) ^ level(k + 1, (3 * x) & mask)
    value = level(0, x)
    return value - (1 << 64) if value >> 63 else value


def modsum(n):
    mask = (1 << 64) - 1
    total = sum(((i * j) % 7) ^ (i + j) for i in range(n) for j in range(n)) & mask
    return total - (1 << 64) if total >> 63 else total


def hash64(n):
    mask = (1 << 64) - 1
    h = 5381
    for i in range(n):
        h = (h * 33 + i) & mask
        h ^= h >> 15
        h = (h * 0x9e3779b97f4a7c15) & mask
        h ^= h >> 29
    return h - (1 << 64) if h >> 63 else h


def digitsum(n):
    return sum(sum(map(int, str(i))) for i in range(n))


FUNCS = {"fib": fib, "count_primes": count_primes, "longest": longest,
         "gcd_sum": gcd_sum, "mandel": mandel, "ack": ack, "chain": chain,
         "modsum": modsum, "hash": hash64, "digitsum": digitsum}

if __name__ == "__main__":
    here = pathlib.Path(__file__).parent
    for args_file in sorted(here.glob("*.args")):
        func, *args = args_file.read_text().split()
        value = FUNCS[func](*map(int, args))
        args_file.with_suffix(".expected").write_text(f"{value}\n")
        print(args_file.stem, value)
