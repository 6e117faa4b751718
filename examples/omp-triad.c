/* Seed 004's Fig. 4 as printed: STREAM's triad as one `target` construct
 * over one loop. `map(to: b, c) map(from: a)` maps the arrays,
 * `device(0:4) layout(block)` splits them, and the loop's iterations, in
 * blocks over four devices: the host's cores, or the MPI ranks under
 * stencilcc --mpi. The construct runs once each time the host reaches it;
 * STREAM's repetitions are the host's loop around it, and the best time
 * counts. The scalar changes between repetitions, so each run must read
 * its current value.
 * Usage: omp-triad [repetitions] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 4000000
#endif

double a[N], b[N], c[N], scalar = 1.0;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  int times = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < N; i++) {
    a[i] = -1.0;
    b[i] = 1.0 + 1e-6 * (i % 1000);
    c[i] = 0.5 * (i % 7);
  }
  double best = 1e30;
  for (int k = 0; k < times; k++) {
    double start = now();
#pragma omp target map(to: b,c) map(from: a) device(0:4) layout(block)
#pragma omp teams distribute parallel for device(0:4) layout(block)
    for(int i=0;i<N;i++)
      a[i] = b[i] + scalar * c[i];
    double seconds = now() - start;
    if (seconds < best)
      best = seconds;
    scalar += 0.5;
  }

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    checksum += a[i] * (1.0 + 1e-3 * (i % 5));
  printf("omp-triad N %d repetitions %d\n", N, times);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", best);
  /* STREAM's count for the triad: three arrays of 8 bytes per element. */
  printf("GB/s %.3f\n", 24.0 * N / best * 1e-9);
  return 0;
}
