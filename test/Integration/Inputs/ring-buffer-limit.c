/* A region whose saved ring is a buffer as large as its fields (run-time
 * bounds, rings that differ): under a memory limit that the arrays fit but
 * that buffer does not, the program must stop with a message. */
#include <stdio.h>
#include <stdlib.h>
#define N 8192
static float A[N][N], B[N][N];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 2, n = argc > 2 ? atoi(argv[2]) : 64;
  int t, i, j;
  for (i = 0; i < n + 1; i++)
    for (j = 0; j < n + 1; j++) { A[i][j] = i + j; B[i][j] = i - j; }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n; i++)
      for (j = 1; j < n; j++)
        B[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < n; i++)
      for (j = 1; j < n; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  printf("checksum %.6e\n", (double)A[5][5] + B[7][3]);
  return 0;
}
