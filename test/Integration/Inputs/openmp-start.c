/* Writes to stderr when main starts, then runs a small 1-D region: with
 * OMP_DISPLAY_ENV=true, libomp's display (written when it initializes)
 * shows whether OpenMP started before main or in the region. */
#include <stdio.h>

#define N 64

static float A[N], B[N];

int main(void) {
  int i, t;
  fprintf(stderr, "main starts\n");
  for (i = 0; i < N; i++)
    A[i] = B[i] = (float)(i % 7);
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N]) destination(float B[N])
#pragma stencil dimension(i)
  for (t = 0; t < 4; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      B[i] = 0.5f * A[i] + 0.25f * (A[i - 1] + A[i + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma stencil end
  double checksum = 0;
  for (i = 0; i < N; i++)
    checksum += A[i] * (i + 1);
  fprintf(stderr, "checksum %.6f\n", checksum);
  return 0;
}
