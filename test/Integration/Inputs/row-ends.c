/* Arrays whose boundary rings agree but for their row ends (the cells
 * before and after the grid along the innermost axis), which the first
 * time block compares as it writes each row: the swapped loop must still
 * end as the C program does, B keeping its own ends. A 3-D region, the
 * grid narrower along x on one side, and a 2-D one whose rows are whole
 * cache lines, which streamed rows store whole (-DONLY_3D and
 * -DONLY_2D leave the other out, for schedules of one rank).
 * Usage: row-ends STEPS MODE
 *   MODE 0: the rings are equal;
 *   1: one of B's cells before a row differs (a row in the middle);
 *   2: one after a row (a row near the top and bottom);
 *   3: a cell of B's ring in plane 0 (compared before the loop);
 *   4: -0.0 against 0.0 after a row, equal as numbers but not bit for bit:
 *      B's ring is aligned, and must end with its -0.0 again. */
#include <stdio.h>
#include <stdlib.h>

#define NZ 13
#define NY 17
#define NX 41
#define MY 29
#define MX 32

static float A[NZ][NY][NX], B[NZ][NY][NX];
static double P[MY][MX], Q[MY][MX];

int main(int argc, char **argv) {
  int i, j, k, t;
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  int mode = argc > 2 ? atoi(argv[2]) : 1;
  for (i = 0; i < NZ; i++)
    for (j = 0; j < NY; j++)
      for (k = 0; k < NX; k++) {
        A[i][j][k] = (float)((i * 7 + j * 5 + k * 3) % 19) / 19.0f;
        B[i][j][k] = A[i][j][k];
      }
  for (i = 0; i < MY; i++)
    for (j = 0; j < MX; j++)
      P[i][j] = Q[i][j] = (i * 11 + j * 13) % 23 / 23.0;
  switch (mode) {
  case 1:
    B[6][8][0] = 5.0f;
    B[6][8][1] = 7.0f; /* inside the grid: C writes over it */
    Q[14][0] = -3.0;
    break;
  case 2:
    B[1][1][NX - 1] = 9.0f;
    B[NZ - 2][NY - 2][NX - 2] = 9.0f; /* beyond the grid along x too */
    Q[1][MX - 1] = 4.0;
    Q[MY - 2][MX - 1] = 4.5;
    break;
  case 3:
    B[0][3][4] = 2.0f;
    Q[0][7] = 2.0;
    break;
  case 4:
    A[4][9][NX - 2] = 0.0f;
    B[4][9][NX - 2] = -0.0f;
    P[20][MX - 1] = 0.0;
    Q[20][MX - 1] = -0.0;
    break;
  }

#ifndef ONLY_2D
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float A[NZ][NY][NX]) destination(float B[NZ][NY][NX])
#pragma stencil dimension(i, j, k)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NZ - 1; i++)
      for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NX - 2; k++)
          B[i][j][k] = 0.4f * A[i][j][k] +
                       0.1f * (A[i - 1][j][k] + A[i + 1][j][k] +
                               A[i][j - 1][k] + A[i][j + 1][k] +
                               A[i][j][k - 1] + A[i][j][k + 1]);
#pragma stencil copy
    for (i = 1; i < NZ - 1; i++)
      for (j = 1; j < NY - 1; j++)
        for (k = 1; k < NX - 2; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma stencil end
#endif

#ifndef ONLY_3D
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double P[MY][MX]) destination(double Q[MY][MX])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < MY - 1; i++)
      for (j = 1; j < MX - 1; j++)
        Q[i][j] = 0.5 * P[i][j] +
                  0.125 * (P[i - 1][j] + P[i + 1][j] + P[i][j - 1] +
                           P[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < MY - 1; i++)
      for (j = 1; j < MX - 1; j++)
        P[i][j] = Q[i][j];
  }
#pragma stencil end
#endif

  double sa = 0, sb = 0, sp = 0, sq = 0;
  int signs = 0;
  for (i = 0; i < NZ; i++)
    for (j = 0; j < NY; j++)
      for (k = 0; k < NX; k++) {
        sa += A[i][j][k] * (1 + i + 2 * j + 3 * k);
        sb += B[i][j][k] * (1 + 3 * i + 2 * j + k);
      }
  for (i = 0; i < MY; i++)
    for (j = 0; j < MX; j++) {
      sp += P[i][j] * (1 + i + 3 * j);
      sq += Q[i][j] * (1 + 2 * i + j);
      signs += (Q[i][j] == 0.0 && 1.0 / Q[i][j] < 0) * (i * MX + j);
    }
  signs += (B[4][9][NX - 2] == 0.0f && 1.0f / B[4][9][NX - 2] < 0);
  printf("t %d mode %d\nchecksum A %.9g B %.9g P %.17g Q %.17g signs %d\n",
         t, mode, sa, sb, sp, sq, signs);
  return 0;
}
