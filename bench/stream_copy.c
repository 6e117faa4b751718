/* STREAM-style copy bandwidth with OpenMP: c[i] = a[i] over arrays far
 * larger than the caches; best of several repetitions. Prints GB/s counting
 * 8 bytes read and 8 written per element, as STREAM does. */
#include "copy_bandwidth.h"

#include <stdio.h>
#include <stdlib.h>

#define N (1L << 25) /* 2 x 256 MiB of doubles */
#define REPS 10

int main(void) {
  double *a = malloc(N * sizeof(double)), *c = malloc(N * sizeof(double));
  if (!a || !c)
    return 1;
#pragma omp parallel for
  for (long i = 0; i < N; i++) {
    a[i] = 1.0 + (double)i;
    c[i] = 0.0;
  }
  double gbps = copyBandwidth(a, c, N, REPS);
  printf("copy_GBps %.2f (check %.1f)\n", gbps, c[N / 2]);
  free(a);
  free(c);
  return 0;
}
