// peak.c: one core's single-precision FMA peak, in GFLOP/s.
//
// Each kernel runs CHAINS independent FMA chains (acc = acc*m + a), enough of
// them to cover the FMA latency on every pipe (4-5 cycles, 2 pipes on current
// x86 cores: at least 10 in flight), all held in registers. Best of REPS runs
// of about 0.2 s each. Prints
//
//   peak_avx2_fma_gflops 111.4        (8-wide _mm256_fmadd_ps)
//   peak_avx512_fma_gflops 111.3      (16-wide _mm512_fmadd_ps, where the CPU has AVX-512F)
//
// gpu/device_check.sh greps `peak_avx2_fma_gflops ([\d.]+)`. Build and run:
//
//   gcc -O2 -mavx2 -mfma -mavx512f scripts/peak.c -o /tmp/peak && taskset -c 0 /tmp/peak
//
// The AVX-512 kernel carries its own target attribute and runs only when
// __builtin_cpu_supports("avx512f"); -mavx512f is not needed for it.
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#define REPS 5

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile float sink;

// 12 chains of 8 lanes: 12 accumulators + 2 operands of the 16 ymm registers.
__attribute__((noinline, target("avx2,fma"))) static double avx2_fma(long iters) {
	__m256 m = _mm256_set1_ps(0.9999999f), a = _mm256_set1_ps(1e-7f);
	__m256 c0 = _mm256_set1_ps(0.f), c1 = _mm256_set1_ps(.1f), c2 = _mm256_set1_ps(.2f), c3 = _mm256_set1_ps(.3f);
	__m256 c4 = _mm256_set1_ps(.4f), c5 = _mm256_set1_ps(.5f), c6 = _mm256_set1_ps(.6f), c7 = _mm256_set1_ps(.7f);
	__m256 c8 = _mm256_set1_ps(.8f), c9 = _mm256_set1_ps(.9f), c10 = _mm256_set1_ps(1.f), c11 = _mm256_set1_ps(1.1f);
	double t = now();
	for (long i = 0; i < iters; i++) {
		c0 = _mm256_fmadd_ps(c0, m, a); c1 = _mm256_fmadd_ps(c1, m, a);
		c2 = _mm256_fmadd_ps(c2, m, a); c3 = _mm256_fmadd_ps(c3, m, a);
		c4 = _mm256_fmadd_ps(c4, m, a); c5 = _mm256_fmadd_ps(c5, m, a);
		c6 = _mm256_fmadd_ps(c6, m, a); c7 = _mm256_fmadd_ps(c7, m, a);
		c8 = _mm256_fmadd_ps(c8, m, a); c9 = _mm256_fmadd_ps(c9, m, a);
		c10 = _mm256_fmadd_ps(c10, m, a); c11 = _mm256_fmadd_ps(c11, m, a);
		__asm__ volatile("" : "+x"(c0), "+x"(c1), "+x"(c2), "+x"(c3), "+x"(c4), "+x"(c5));  // keep the loop as written
	}
	t = now() - t;
	__m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
	                         _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
	s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
	float out[8];
	_mm256_storeu_ps(out, s);
	sink = out[0] + out[7];
	return (double)iters * 12 * 8 * 2 / t / 1e9;
}

// 16 chains of 16 lanes (32 zmm registers there are).
__attribute__((noinline, target("avx512f"))) static double avx512_fma(long iters) {
	__m512 m = _mm512_set1_ps(0.9999999f), a = _mm512_set1_ps(1e-7f);
	__m512 c[16];
	for (int j = 0; j < 16; j++) c[j] = _mm512_set1_ps(0.1f * j);
	__m512 c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5], c6 = c[6], c7 = c[7];
	__m512 c8 = c[8], c9 = c[9], c10 = c[10], c11 = c[11], c12 = c[12], c13 = c[13], c14 = c[14], c15 = c[15];
	double t = now();
	for (long i = 0; i < iters; i++) {
		c0 = _mm512_fmadd_ps(c0, m, a); c1 = _mm512_fmadd_ps(c1, m, a);
		c2 = _mm512_fmadd_ps(c2, m, a); c3 = _mm512_fmadd_ps(c3, m, a);
		c4 = _mm512_fmadd_ps(c4, m, a); c5 = _mm512_fmadd_ps(c5, m, a);
		c6 = _mm512_fmadd_ps(c6, m, a); c7 = _mm512_fmadd_ps(c7, m, a);
		c8 = _mm512_fmadd_ps(c8, m, a); c9 = _mm512_fmadd_ps(c9, m, a);
		c10 = _mm512_fmadd_ps(c10, m, a); c11 = _mm512_fmadd_ps(c11, m, a);
		c12 = _mm512_fmadd_ps(c12, m, a); c13 = _mm512_fmadd_ps(c13, m, a);
		c14 = _mm512_fmadd_ps(c14, m, a); c15 = _mm512_fmadd_ps(c15, m, a);
		__asm__ volatile("" : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4), "+v"(c5), "+v"(c6), "+v"(c7));
	}
	t = now() - t;
	__m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
	                         _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
	s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)),
	                                   _mm512_add_ps(_mm512_add_ps(c12, c13), _mm512_add_ps(c14, c15))));
	sink = _mm512_reduce_add_ps(s);
	return (double)iters * 16 * 16 * 2 / t / 1e9;
}

static double best(double (*kernel)(long), long iters) {
	double b = 0;
	kernel(iters / 10);  // warm-up: clocks up, AVX-512 unit powered
	for (int r = 0; r < REPS; r++) {
		double g = kernel(iters);
		if (g > b) b = g;
	}
	return b;
}

int main(void) {
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
		fprintf(stderr, "peak: this CPU has no AVX2/FMA\n");
		return 1;
	}
	// About 0.2 s a run at 100 GFLOP/s.
	printf("peak_avx2_fma_gflops %.1f\n", best(avx2_fma, 100000000));
	if (__builtin_cpu_supports("avx512f"))
		printf("peak_avx512_fma_gflops %.1f\n", best(avx512_fma, 50000000));
	else
		printf("peak_avx512_fma_gflops n/a (no AVX-512F)\n");
	return 0;
}
