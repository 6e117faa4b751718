/* A 2-D sweep over 64-byte aligned arrays for the whole end lines of
 * streamed rows (StreamingRows.cpp): with the default NX of 64 floats every
 * row starts at a cache-line boundary and its first and last lines hold
 * ring cells; other NX make rows start anywhere in a line. LO and HI are
 * the ring's widths along x. With SAME_RING both arrays start with the same
 * ring; otherwise B's differs, and the C program leaves B's own.
 * Usage: ring-lines STEPS */
#include <stdio.h>
#include <stdlib.h>

#ifndef REAL
#define REAL float
#endif
#ifndef NY
#define NY 11
#endif
#ifndef NX
#define NX 64
#endif
#ifndef LO
#define LO 1
#endif
#ifndef HI
#define HI 1
#endif

static REAL A[NY][NX] __attribute__((aligned(64)));
static REAL B[NY][NX] __attribute__((aligned(64)));

int main(int argc, char **argv) {
  int i, j, t;
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  const REAL c0 = 0.5, c1 = 0.125;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) {
      A[i][j] = (REAL)((i * 13 + j * 7) % 11);
#ifdef SAME_RING
      B[i][j] = A[i][j];
#else
      B[i][j] = (REAL)(-1 - i - 100 * j);
#endif
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(REAL A[NY][NX]) destination(REAL B[NY][NX])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NY - 1; i++)
      for (j = LO; j < NX - HI; j++)
        B[i][j] = c0 * A[i][j] + c1 * (A[i - 1][j] + A[i + 1][j] +
                                       A[i][j - LO] + A[i][j + HI]);
#pragma stencil copy
    for (i = 1; i < NY - 1; i++)
      for (j = LO; j < NX - HI; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  double sa = 0, sb = 0;
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) {
      sa += A[i][j] * (1 + i + 3 * j);
      sb += B[i][j] * (1 + i + 3 * j);
    }
  printf("t %d\nchecksum A %.17g B %.17g\n", t, sa, sb);
  printf("rings A %.17g %.17g B %.17g %.17g\n", (double)A[3][0],
         (double)A[3][NX - 1], (double)B[3][0], (double)B[3][NX - 1]);
  return 0;
}
