/* The STREAM kernels (copy, scale, add, triad) in seed 004's OpenMP
 * spelling, in STREAM's own loop of repetitions: `target enter data` maps
 * the three arrays to the devices in blocks, each kernel is a `target
 * teams distribute parallel for` over a's layout, and `target exit data`
 * maps a back. b and c are not mapped back: the host keeps their initial
 * values (OpenMP's map semantics; a plain C compile, which ignores the
 * directives, updates them).
 * Usage: omp-stream [repetitions [show-host-b-c]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 4000000
#endif

static double a[N], b[N], c[N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double sum(const double x[N]) {
  double total = 0.0;
  for (int i = 0; i < N; i++)
    total += x[i] * (1.0 + 1e-3 * (i % 5));
  return total;
}

int main(int argc, char **argv) {
  int times = argc > 1 ? atoi(argv[1]) : 10;
  double scalar = 3.0;
  int i, k;
  for (i = 0; i < N; i++) {
    a[i] = 1.0 + 1e-6 * (i % 1000);
    b[i] = 2.0;
    c[i] = 0.5 * (i % 7);
  }
  double hostB = sum(b), hostC = sum(c);

  double start = now();
#pragma omp target enter data map(to: a, b, c) device(0:4) layout(block)
  for (k = 0; k < times; k++) {
#pragma omp target teams distribute parallel for layout(a)
    for (i = 0; i < N; i++)
      c[i] = a[i];
#pragma omp target teams distribute parallel for layout(a)
    for (i = 0; i < N; i++)
      b[i] = scalar * c[i];
#pragma omp target teams distribute parallel for layout(a)
    for (i = 0; i < N; i++)
      c[i] = a[i] + b[i];
#pragma omp target teams distribute parallel for layout(a)
    for (i = 0; i < N; i++)
      a[i] = b[i] + scalar * c[i];
  }
#pragma omp target exit data map(from: a)
  double seconds = now() - start;

  printf("omp-stream N %d repetitions %d k %d\n", N, times, k);
  printf("checksum %.10e\n", sum(a));
  if (argc > 2)
    printf("host b and c %s\n",
           sum(b) == hostB && sum(c) == hostC ? "kept their values"
                                              : "changed");
  printf("time %.6f s\n", seconds);
  /* STREAM's count: 2 + 2 + 3 + 3 arrays of 8 bytes per element. */
  printf("GB/s %.3f\n", 80.0 * N * times / seconds * 1e-9);
  return 0;
}
