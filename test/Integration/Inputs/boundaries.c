/* A and B start with different boundary cells, and the grid leaves a wider
 * border on one side (2..N-1 along y): a lowering that swaps buffers must
 * still end with C's result — B keeps its own boundary, both arrays hold
 * the last interior, A its original boundary. Usage: boundaries STEPS */
#include <stdio.h>
#include <stdlib.h>

#define NY 23
#define NX 17

static double A[NY][NX], B[NY][NX];

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  double w = 0.3;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) {
      A[i][j] = (i * 13 + j * 7) % 11;
      B[i][j] = -1.0 - i - 100.0 * j;
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[NY][NX]) destination(double B[NY][NX])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 2; i < NY - 1; i++)
      for (j = 1; j < NX - 1; j++)
        B[i][j] = (1 - 4 * w) * A[i][j] +
                  w * (A[i - 2][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma stencil copy
    for (i = 2; i < NY - 1; i++)
      for (j = 1; j < NX - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double sa = 0, sb = 0;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) {
      sa += A[i][j] * (1 + i + j);
      sb += B[i][j] * (1 + i + j);
    }
  printf("t %d i %d j %d\nchecksum A %.17g B %.17g\n", t, i, j, sa, sb);
  printf("corners B %.17g %.17g A %.17g\n", B[0][0], B[1][5], A[1][5]);
  return 0;
}
