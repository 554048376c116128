/* mandel.c - examples/mandel.jit in C: 12-bit fixed-point Mandelbrot count. */
#include "bench.h"

const int bench_arity = 3;

static int64_t sar(int64_t a, int n) { return a < 0 ? ~(~a >> n) : a >> n; }

static int64_t inside(int64_t cx, int64_t cy, int64_t max_iter)
{
	int64_t zr = 0, zi = 0, zr2 = 0, zi2 = 0;
	for (int64_t iter = 0; iter < max_iter; iter = wrap_add(iter, 1)) {
		if (wrap_add(zr2, zi2) > 16384)
			return 0;
		zi = wrap_add(sar(wrap_mul(zr, zi), 11), cy);
		zr = wrap_add(wrap_sub(zr2, zi2), cx);
		zr2 = sar(wrap_mul(zr, zr), 12);
		zi2 = sar(wrap_mul(zi, zi), 12);
	}
	return 1;
}

static int64_t mandel(int64_t width, int64_t height, int64_t max_iter)
{
	int64_t count = 0;
	for (int64_t py = 0; py < height; py++)
		for (int64_t px = 0; px < width; px++) {
			int64_t cx = wrap_add(wrap_mul(px, 12288) / width, -8192);
			int64_t cy = wrap_add(wrap_mul(py, 9830) / height, -4915);
			count = wrap_add(count, inside(cx, cy, max_iter));
		}
	return count;
}

int64_t bench_entry(const int64_t *args) { return mandel(args[0], args[1], args[2]); }
