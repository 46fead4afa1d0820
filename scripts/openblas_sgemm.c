// openblas_sgemm: OpenBLAS's single-thread sgemm in GFLOP/s for one shape,
// the anchor of docs/performance.md's GEMM tables: the best of 7 timed rounds, or
// with a fifth argument "median" their median (scripts/gemm_anchor.sh, which
// compares it with simdrl's own mean over a run).
// It needs only Debian's libopenblas0-pthread (no cblas.h: the prototype is
// declared below, CBLAS's row-major enum values written out).
//
//   gcc -O2 scripts/openblas_sgemm.c -o /tmp/openblas_sgemm /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0
//   OPENBLAS_NUM_THREADS=1 taskset -c 0 /tmp/openblas_sgemm 192 288 96 NT
//
// OPENBLAS_CORETYPE=Cooperlake forces its AVX-512 kernels where its own
// dispatch picks others (docs/performance.md takes the better of both).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: openblas_sgemm M N K [NN|NT|TN [best|median]]\n");
		return 2;
	}
	int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
	if (m <= 0 || n <= 0 || k <= 0) {
		fprintf(stderr, "openblas_sgemm: M, N and K must be positive integers\n");
		return 2;
	}
	const char *op = argc > 4 ? argv[4] : "NN";
	if (strcmp(op, "NN") != 0 && strcmp(op, "NT") != 0 && strcmp(op, "TN") != 0) {
		fprintf(stderr, "openblas_sgemm: the form is NN, NT or TN, not %s\n", op);
		return 2;
	}
	int ta = op[0] == 'T', tb = op[1] == 'T';
	float *a = malloc(4L * m * k), *b = malloc(4L * k * n), *c = malloc(4L * m * n);
	for (long i = 0; i < (long)m * k; i++) a[i] = rand() / (float)RAND_MAX - 0.5f;
	for (long i = 0; i < (long)k * n; i++) b[i] = rand() / (float)RAND_MAX - 0.5f;
	int median = argc > 5 && strcmp(argv[5], "median") == 0;
	if (argc > 5 && !median && strcmp(argv[5], "best") != 0) {
		fprintf(stderr, "openblas_sgemm: the statistic is best or median, not %s\n", argv[5]);
		return 2;
	}
	double flops = 2.0 * m * n * k, t[7];
	long iters = (long)(4e8 / flops) + 1;
	for (int rep = 0; rep < 7; rep++) {
		double t0 = now();
		for (long i = 0; i < iters; i++)
			cblas_sgemm(101, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0f, a, ta ? m : k, b, tb ? k : n, 0.0f, c, n);
		t[rep] = (now() - t0) / iters;
		for (int j = rep; j > 0 && t[j] < t[j - 1]; j--) { // insertion sort, fastest first
			double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	printf("openblas %s %dx%dx%d %.1f GFLOP/s\n", op, m, n, k, flops / t[median ? 3 : 0] / 1e9);
	return 0;
}
