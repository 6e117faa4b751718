/* STREAM-style copy bandwidth with OpenMP: c[i] = a[i] over arrays far
 * larger than the caches; best of several repetitions. Prints GB/s counting
 * 8 bytes read and 8 written per element, as STREAM does. */
#include <omp.h>
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
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double start = omp_get_wtime();
#pragma omp parallel for
    for (long i = 0; i < N; i++)
      c[i] = a[i];
    double seconds = omp_get_wtime() - start;
    if (seconds < best)
      best = seconds;
  }
  printf("copy_GBps %.2f (check %.1f)\n",
         2.0 * N * sizeof(double) / best * 1e-9, c[N / 2]);
  free(a);
  free(c);
  return 0;
}
