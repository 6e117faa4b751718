/* Static arrays of 2.2 GiB each, past what the small code model's 32-bit
 * relocations reach: stencilcc must link it. Only a corner of the grid
 * (run-time bounds) is computed, so few pages are ever touched.
 * Usage: big-arrays STEPS [N]   (N <= 1024: the corner's side) */
#include <stdio.h>
#include <stdlib.h>

#ifndef NZ
#define NZ 1100
#endif
#define NY 1024
#define NX 512

static float A[NZ][NY][NX], B[NZ][NY][NX];

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  int n = argc > 2 ? atoi(argv[2]) : 8;
  int t, i, j, k;
  for (i = 0; i < n + 1; i++)
    for (j = 0; j < n + 1; j++)
      for (k = 0; k < n + 1; k++)
        A[i][j][k] = B[i][j][k] = (float)((i * 7 + j * 3 + k) % 5);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[NZ][NY][NX]) destination(float B[NZ][NY][NX])
#pragma stencil dimension(i, j, k)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n; i++)
      for (j = 1; j < n; j++)
        for (k = 1; k < n; k++)
          B[i][j][k] = 0.5f * A[i][j][k] +
                       (A[i - 1][j][k] + A[i + 1][j][k] + A[i][j - 1][k] +
                        A[i][j + 1][k] + A[i][j][k - 1] + A[i][j][k + 1]) /
                           12.0f;
#pragma stencil copy
    for (i = 1; i < n; i++)
      for (j = 1; j < n; j++)
        for (k = 1; k < n; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma stencil end
  double sum = 0.0;
  for (i = 0; i < n + 1; i++)
    for (j = 0; j < n + 1; j++)
      for (k = 0; k < n + 1; k++)
        sum += A[i][j][k] * (i + 2 * j + 3 * k + 1);
  printf("checksum %.9e\n", sum);
  return 0;
}
