/* In-process A/B of heat3d's compiled region against a copy (see
 * sweep_ab.sh). Every process gets its own physical pages, and on a shared
 * machine that alone moves a sweep's speed by 10% or more; here all
 * variants and the copy share one process and one OpenMP runtime, and run
 * interleaved, so that their differences are measured on the same pages
 * under the same load.
 *
 * Each variant is a region `void vN(float *A, float *B, long long steps)`
 * compiled by stencilcc from examples/heat3d.c. One sweep is the time of
 * 60 steps minus that of 20 (the region's fixed cost per call cancels). The
 * copy is bench/stream_copy.c's (copy_bandwidth.h). */
#include "copy_bandwidth.h"

#include <stdio.h>
#include <stdlib.h>

#define N 256
#define COPY_ELEMENTS (1L << 25) /* 2 x 256 MiB of doubles */

#ifndef NV
#define NV 1
#endif
#if NV < 1 || NV > 4
#error "NV (the number of variants) must be 1 to 4"
#endif

/* Like examples/heat3d.c as stencilcc builds it: static arrays aligned to a
 * cache line (the rewritten host program asks for that, docs/PragmaC.md). */
static float A[N][N][N] __attribute__((aligned(64)));
static float B[N][N][N] __attribute__((aligned(64)));

typedef void (*Region)(float *, float *, long long);
/* Weak: the variants not built stay null and are never called (NV says
 * how many there are). */
#define VARIANT(name)                                                          \
  extern void name(float *, float *, long long) __attribute__((weak))
VARIANT(v0);
VARIANT(v1);
VARIANT(v2);
VARIANT(v3);
static const Region regions[4] = {v0, v1, v2, v3};

static double regionTime(Region region, long long steps) {
  double start = omp_get_wtime();
  region(&A[0][0][0], &B[0][0][0], steps);
  return omp_get_wtime() - start;
}

static int compareDoubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The median of `values` (sorts them). */
static double median(double *values, int count) {
  qsort(values, count, sizeof(double), compareDoubles);
  return count % 2 ? values[count / 2]
                   : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 9;
  if (rounds < 1 || rounds > 100) {
    fprintf(stderr, "usage: sweep_ab [rounds (1-100)]\n");
    return 1;
  }
  double *a = malloc(COPY_ELEMENTS * sizeof(double));
  double *c = malloc(COPY_ELEMENTS * sizeof(double));
  if (!a || !c)
    return 1;
  for (long i = 0; i < COPY_ELEMENTS; i++) {
    a[i] = (double)i;
    c[i] = 0.0;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (float)((i * 7 + j * 3 + k) % 17) / 17.0f;

  /* GB/s of one sweep at 8 bytes per interior cell, per round. */
  static double sweep[NV][100], ratio[NV][100], copy[100];
  const double bytes = 8.0 * (N - 2) * (N - 2) * (N - 2) * 40;
  printf("round");
  for (int v = 0; v < NV; v++)
    printf("   v%d GB/s", v);
  printf("   copy GB/s\n");
  for (int r = 0; r < rounds; r++) {
    printf("%5d", r + 1);
    for (int v = 0; v < NV; v++) {
      double few = regionTime(regions[v], 20);
      double many = regionTime(regions[v], 60);
      sweep[v][r] = bytes / (many - few) * 1e-9;
      printf(" %10.2f", sweep[v][r]);
    }
    copy[r] = copyBandwidth(a, c, COPY_ELEMENTS, 10);
    printf(" %11.2f\n", copy[r]);
    for (int v = 0; v < NV; v++)
      ratio[v][r] = sweep[v][r] / copy[r];
  }
  /* Medians: robust to the bursts of load a shared machine has. */
  for (int v = 0; v < NV; v++) {
    double sweepMedian = median(sweep[v], rounds);
    printf("v%d: median sweep %.2f GB/s (%.3f GCells/s), median %.0f%% of "
           "the copy of its round\n",
           v, sweepMedian, sweepMedian / 8, 100 * median(ratio[v], rounds));
  }
  printf("copy: median %.2f GB/s (checks %.1f %.4f)\n", median(copy, rounds),
         c[COPY_ELEMENTS / 2], (double)A[N / 2][N / 2][N / 2]);
  free(a);
  free(c);
  return 0;
}
