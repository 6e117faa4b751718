/* More forms of arrays of run-time extent: `float A[][n]` parameters, a
 * boundary row set from the step, and local VLAs (`float C[n][n]` in
 * main) with the region in main itself. Both regions have the calc/copy
 * form, so the second can be time-blocked on every backend.
 * Usage: c99-forms STEPS N   (the boundary row 3 needs N >= 4) */
#include <stdio.h>
#include <stdlib.h>
static void k1(int steps, int n, float A[][n], float B[][n]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[n][n]) destination(float B[n][n])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
    for (j = 0; j < n; j++) A[3][j] = (float)t;
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
}
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  int n = argc > 2 ? atoi(argv[2]) : 10;
  float C[n][n], D[n][n];
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = D[i][j] = (i * 3 + j) % 7;
  k1(steps, n, C, D);
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float C[n][n]) destination(float D[n][n])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        D[i][j] = C[i][j] + 0.1f * (C[i - 1][j] + C[i + 1][j] - 2 * C[i][j]);
#pragma stencil copy
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        C[i][j] = D[i][j];
  }
#pragma stencil end
  double s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += C[i][j] * (i + 1) + D[i][j];
  printf("checksum %.9e\n", s);
}
