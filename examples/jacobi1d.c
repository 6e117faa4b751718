/* Two-sweep Jacobi in 1-D, in PolyBench/C's shape: a kernel function, a
 * run-time size n and step count, B from A then A from B in each step.
 * Double precision, 3 points. Usage: jacobi1d [steps [n]]   (n <= N) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 4000000
#endif

static double A[N], B[N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void jacobi(int steps, int n, double a[N], double b[N]) {
  int t, i;
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(double a[N]) destination(double b[N])
#pragma stencil dimension(i)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE=block for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
  }
#pragma stencil end
  printf("loops left t %d i %d\n", t, i);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  int n = argc > 2 ? atoi(argv[2]) : N;
  if (n < 3 || n > N) {
    fprintf(stderr, "jacobi1d: n must lie in [3, %d]\n", N);
    return 2;
  }
  for (int i = 0; i < N; i++) {
    A[i] = ((double)i + 2) / N;
    B[i] = ((double)i + 3) / N;
  }

  double start = now();
  jacobi(steps, n, A, B);
  double seconds = now() - start;

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    checksum += A[i] + 0.25 * B[i];
  double cells = 2.0 * (n - 2) * steps;
  printf("jacobi1d n %d steps %d\n", n, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
