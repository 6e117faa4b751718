/* Accesses far along the rows (j - 17 to j + 16), next to near ones and a
 * read-only field of another type: the vector rows of the time blocks keep
 * windows of several vectors per ring row and shift each access out of
 * them. With -DINTDIV the body divides integers, so the partial vectors at
 * the row ends must not run on masked-off lanes (their zeros would trap). Usage: wide-rows [steps] */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 101
#endif
#ifndef NY
#define NY 23
#endif

static double A[NY][NX], B[NY][NX];
static float K[NY][NX];

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) {
      A[i][j] = (i * 7 + j * 13) % 29;
      B[i][j] = 100 + (i * 3 + j) % 7;
      K[i][j] = 0.01f * ((i + 3 * j) % 5);
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[NY][NX], float K[NY][NX]) destination(double B[NY][NX])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NY - 1; i++)
      for (j = 17; j < NX - 16; j++) {
#ifdef INTDIV
        int m = (int)A[i][j - 17] + 3 * (int)A[i][j + 1] + (int)A[i - 1][j] +
                (int)A[i][j + 16] + 5;
        int q = m / (1 + (int)A[i][j] % 4);
        B[i][j] = 0.5 * A[i][j] + q % 10;
#else
        B[i][j] = 0.3 * A[i][j] + 0.1 * (A[i][j - 17] + A[i][j + 16]) +
                  0.2 * (A[i][j - 1] + A[i][j + 1]) + 0.05 * A[i][j + 2] +
                  K[i][j] * (A[i - 1][j] - A[i + 1][j]);
#endif
      }
#pragma stencil copy
    for (i = 1; i < NY - 1; i++)
      for (j = 17; j < NX - 16; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double checksum = 0;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++)
      checksum += (double)A[i][j] * (1 + i + j % 7) + 0.5 * B[i][j];
  printf("t %d i %d j %d\nchecksum %.17g\n", t, i, j, checksum);
  return 0;
}
