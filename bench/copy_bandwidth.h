/* The STREAM-style copy both bench programs measure the roofline with:
 * c[i] = a[i] over n doubles with OpenMP, best of `reps` repetitions, in
 * GB/s counting 8 bytes read and 8 written per element, as STREAM does.
 * Compiled without memcpy (gcc does not substitute it here; clang needs
 * -fno-builtin) so that the stores go through the cache like a sweep's. */
#ifndef STENCIL_BENCH_COPY_BANDWIDTH_H
#define STENCIL_BENCH_COPY_BANDWIDTH_H

#include <omp.h>

static double copyBandwidth(const double *a, double *c, long n, int reps) {
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    double start = omp_get_wtime();
#pragma omp parallel for
    for (long i = 0; i < n; i++)
      c[i] = a[i];
    double seconds = omp_get_wtime() - start;
    if (seconds < best)
      best = seconds;
  }
  return 16.0 * n / best * 1e-9;
}

#endif
