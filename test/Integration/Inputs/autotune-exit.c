/* A 1-D smoothing whose run the arguments steer, for stencilcc --autotune's
 * failure paths. Usage: autotune-exit [steps [status]]: `steps` sweeps (0:
 * the region is not reached), then exit with `status`. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static float A[N], B[N];

int main(int argc, char **argv) {
  int i, t;
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int status = argc > 2 ? atoi(argv[2]) : 0;
  for (i = 0; i < N; i++)
    A[i] = B[i] = (float)(i % 17);
  if (steps > 0) {
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[N]) destination(float B[N])
#pragma stencil dimension(i)
    for (t = 0; t < steps; t++) {
#pragma stencil calc
      for (i = 1; i < N - 1; i++)
        B[i] = 0.25f * A[i - 1] + 0.5f * A[i] + 0.25f * A[i + 1];
#pragma stencil copy
      for (i = 1; i < N - 1; i++)
        A[i] = B[i];
    }
#pragma stencil end
  }
  printf("A[N/2] %.6f\n", A[N / 2]);
  if (status)
    fprintf(stderr, "giving up with status %d\n", status);
  return status;
}
