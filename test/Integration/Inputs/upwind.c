/* A 2-D stencil that reads only the row before a point along the outer
 * axis (and the column before it): no point reads the rows after its own.
 * Usage: upwind [steps] */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 40
#endif

static float A[N][N], B[N][N];

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (float)((i * 7 + j * 3) % 17) / 17.0f;
      B[i][j] = A[i][j];
    }
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.5f * A[i][j] + 0.25f * A[i - 1][j] + 0.25f * A[i - 1][j - 1];
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double checksum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      checksum += A[i][j] + 0.5 * B[i][j];
  printf("checksum %.10e\n", checksum);
  return 0;
}
