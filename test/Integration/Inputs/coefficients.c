/* Arrays of fewer dimensions than the loop nest (coefficient tables: the
 * metric terms of a stretched grid, Physis's mixed-dimension grids), read
 * along some of the nest's loop variables:
 *   1. 3-D heat with a coefficient per plane (cz[k] read at k-1, k, k+1:
 *      the same along every row), a 2-D table cyz[j][k] and a transposed
 *      one ckj[k][j] (its last axis is not the row's), in double;
 *   2. 2-D float with cx[i] (per row) and cy[j] (along the row), radius 2
 *      in both, over a time loop long enough for time blocks;
 *   3. 2-D int with a table read at i + 1 (per row).
 * Every array is printed whole. Usage: coefficients [steps].
 * -DDISTRIBUTE='block,block' (2-D regions) and -DDISTRIBUTE3='block,*,block'
 * (3-D) distribute them for stencilcc --mpi. */
#include <stdio.h>
#include <stdlib.h>

#define N0 9
#define N1 12
#define N2 14
#define M0 37
#define M1 45
#define L 61

static double U[N0][N1][N2], V[N0][N1][N2];
static double cz[N2], cyz[N1][N2], ckj[N2][N1];
static float P[M0][M1], Q[M0][M1];
static float cx[M0], cy[M1];
static int I[L][6], J[L][6];
static int ci[L];

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 6;
  int t, i, j, k;
  double sum = 0.0;
  for (i = 0; i < N0; i++)
    for (j = 0; j < N1; j++)
      for (k = 0; k < N2; k++) {
        U[i][j][k] = ((i * 3 + j * 5 + k * 7) % 13) / 13.0;
        V[i][j][k] = -1.0 - i * 0.01;
      }
  for (k = 0; k < N2; k++) {
    cz[k] = 0.05 + (k % 4) * 0.01;
    for (j = 0; j < N1; j++) {
      cyz[j][k] = 0.1 + ((j * 3 + k) % 5) * 0.02;
      ckj[k][j] = 0.02 * ((j + 2 * k) % 3);
    }
  }
  for (i = 0; i < M0; i++)
    for (j = 0; j < M1; j++) {
      P[i][j] = (float)((i * 7 + j * 11) % 19) / 19.0f;
      Q[i][j] = 2.0f;
    }
  for (i = 0; i < M0; i++)
    cx[i] = 0.1f + (float)(i % 3) * 0.05f;
  for (j = 0; j < M1; j++)
    cy[j] = 0.05f + (float)(j % 5) * 0.02f;
  for (i = 0; i < L; i++) {
    for (j = 0; j < 6; j++) {
      I[i][j] = (i * 37 + j * 5) % 101;
      J[i][j] = 0;
    }
    ci[i] = (i % 7) - 3;
  }

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double U[N0][N1][N2]) destination(double V[N0][N1][N2])
#pragma stencil dimension(i, j, k)
#ifdef DISTRIBUTE3
#pragma stencil distribute(DISTRIBUTE3)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N0 - 1; i++)
      for (j = 1; j < N1 - 1; j++)
        for (k = 1; k < N2 - 1; k++)
          V[i][j][k] = (1.0 - 2.0 * cz[k] - 4.0 * cyz[j][k]) * U[i][j][k] +
                       cz[k - 1] * U[i][j][k - 1] + cz[k + 1] * U[i][j][k + 1] +
                       cyz[j][k] * (U[i - 1][j][k] + U[i + 1][j][k] +
                                    U[i][j - 1][k] + U[i][j + 1][k]) +
                       ckj[k][j - 1] * U[i][j][k];
#pragma stencil copy
    for (i = 1; i < N0 - 1; i++)
      for (j = 1; j < N1 - 1; j++)
        for (k = 1; k < N2 - 1; k++)
          U[i][j][k] = V[i][j][k];
  }
#pragma stencil end

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float P[M0][M1]) destination(float Q[M0][M1])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps * 4; t++) {
#pragma stencil calc
    for (i = 2; i < M0 - 2; i++)
      for (j = 2; j < M1 - 2; j++)
        Q[i][j] = (1.0f - cx[i - 2] - cx[i + 2] - 2.0f * cy[j]) * P[i][j] +
                  cx[i - 2] * P[i - 2][j] + cx[i + 2] * P[i + 2][j] +
                  cy[j] * (P[i][j - 2] + P[i][j + 1]) +
                  (cy[j + 2] - cy[j - 1]) * 0.0f;
#pragma stencil copy
    for (i = 2; i < M0 - 2; i++)
      for (j = 2; j < M1 - 2; j++)
        P[i][j] = Q[i][j];
  }
#pragma stencil end

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(int I[L][6]) destination(int J[L][6])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < L - 2; i++)
      for (j = 1; j < 5; j++)
        J[i][j] = (I[i - 1][j] + I[i + 1][j] + I[i][j - 1]) / 3 +
                  ci[i + 1] * (I[i][j] % 5);
#pragma stencil copy
    for (i = 1; i < L - 2; i++)
      for (j = 1; j < 5; j++)
        I[i][j] = J[i][j];
  }
#pragma stencil end

  for (i = 0; i < N0; i++)
    for (j = 0; j < N1; j++) {
      printf("U %d %d", i, j);
      for (k = 0; k < N2; k++)
        printf(" %.17g", U[i][j][k]);
      printf("\n");
    }
  for (i = 0; i < M0; i++) {
    printf("P %d", i);
    for (j = 0; j < M1; j++)
      printf(" %.9g", P[i][j]);
    printf("\n");
  }
  for (i = 0; i < L; i++) {
    printf("I %d", i);
    for (j = 0; j < 6; j++) {
      printf(" %d", I[i][j]);
      sum += I[i][j];
    }
    printf("\n");
  }
  for (i = 0; i < N0; i++)
    for (j = 0; j < N1; j++)
      for (k = 0; k < N2; k++)
        sum += U[i][j][k];
  for (i = 0; i < M0; i++)
    for (j = 0; j < M1; j++)
      sum += P[i][j];
  printf("checksum %.17g\n", sum);
  return 0;
}
