/* Time steps of several sweeps in a chain, each sweep computing new arrays
 * from what the sweep before it wrote (PolyBench's jacobi: B from A, then
 * A from B), which time blocks pipeline one level per sweep:
 *   1. three sweeps in 2-D over a grid of run-time bounds, with stencils
 *      reaching differently far on each side, a read-only coefficient
 *      array, and arrays whose boundary rings all differ;
 *   2. two sweeps in 1-D, single precision, radius 2 on one side;
 *   3. two sweeps in 3-D;
 *   4. seed 004's Fig. 5 step: a copy first, then the sweep;
 *   5. three sweeps of one array each (a GPU block keeps three copies).
 * Every array is printed whole, so any cell computed differently from C
 * shows. Usage: chains [steps] [n]. -DONLY2D leaves out the 1-D and 3-D
 * regions, so that one --schedule=wg=WxH fits every region left. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 23
#endif
#ifndef NY
#define NY 29
#endif
#define N1 203
#define N3 11

static double A[NX][NY], B[NX][NY], C[NX][NY], K[NX][NY];
static float P[N1], Q[N1];
static double U[N3][N3 + 2][N3 + 1], V[N3][N3 + 2][N3 + 1];
static double X[NX][NY], Y[NX][NY];
static double R[NX][NY], S[NX][NY], W[NX][NY];

static void print2(const char *name, double a[NX][NY]) {
  for (int i = 0; i < NX; i++) {
    printf("%s %d", name, i);
    for (int j = 0; j < NY; j++)
      printf(" %.17g", a[i][j]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 7;
  int n = argc > 2 ? atoi(argv[2]) : NY - 2; /* run-time bound */
  int t, i, j, k;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++) {
      A[i][j] = ((i * 7 + j * 3) % 11) / 11.0;
      B[i][j] = -1.0 - i * 0.01 - j * 0.001;
      C[i][j] = 2.0 + ((i + j) % 5) * 0.1;
      K[i][j] = 0.2 + ((i * j) % 4) * 0.05;
      X[i][j] = ((i * 5 + j) % 9) / 9.0;
      Y[i][j] = 3.0 + i * 0.02;
      R[i][j] = ((i * 3 + j * 2) % 7) / 7.0;
      S[i][j] = -2.0 + j * 0.03;
      W[i][j] = 4.0 - i * 0.01;
    }
  for (i = 0; i < N1; i++) {
    P[i] = (float)((i * 13) % 17) / 17.0f;
    Q[i] = -0.5f - (float)i * 0.001f;
  }
  for (i = 0; i < N3; i++)
    for (j = 0; j < N3 + 2; j++)
      for (k = 0; k < N3 + 1; k++) {
        U[i][j][k] = ((i * 3 + j * 5 + k * 7) % 13) / 13.0;
        V[i][j][k] = 5.0 + i * 0.1 + j * 0.01 + k * 0.001;
      }

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[NX][NY], double K[NX][NY]) destination(double B[NX][NY], double C[NX][NY])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NX - 2; i++)
      for (j = 2; j < n; j++)
        B[i][j] = 0.5 * A[i][j] + 0.3 * A[i - 1][j] + 0.2 * A[i][j + 2];
#pragma stencil calc
    for (i = 1; i < NX - 2; i++)
      for (j = 2; j < n; j++)
        C[i][j] = 0.6 * B[i][j] + 0.25 * B[i + 2][j] + 0.15 * B[i][j - 2];
#pragma stencil calc
    for (i = 1; i < NX - 2; i++)
      for (j = 2; j < n; j++)
        A[i][j] = K[i][j] * (C[i - 1][j - 1] + C[i + 1][j + 1]) +
                  (1.0 - 2.0 * K[i][j]) * C[i][j];
  }
#pragma stencil end

#ifndef ONLY2D
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float P[N1]) destination(float Q[N1])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 2; i < N1 - 1; i++)
      Q[i] = 0.25f * P[i - 2] + 0.5f * P[i] + 0.25f * P[i + 1];
#pragma stencil calc
    for (i = 2; i < N1 - 1; i++)
      P[i] = 0.375f * Q[i - 1] + 0.25f * Q[i - 2] + 0.375f * Q[i];
  }
#pragma stencil end

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double U[N3][N3 + 2][N3 + 1]) destination(double V[N3][N3 + 2][N3 + 1])
#pragma stencil dimension(i, j, k)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N3 - 1; i++)
      for (j = 1; j < N3 + 1; j++)
        for (k = 1; k < N3; k++)
          V[i][j][k] = 0.4 * U[i][j][k] + 0.1 * (U[i - 1][j][k] + U[i + 1][j][k] +
                       U[i][j - 1][k] + U[i][j + 1][k] + U[i][j][k - 1] +
                       U[i][j][k + 1]);
#pragma stencil calc
    for (i = 1; i < N3 - 1; i++)
      for (j = 1; j < N3 + 1; j++)
        for (k = 1; k < N3; k++)
          U[i][j][k] = 0.5 * V[i][j][k] + 0.125 * (V[i - 1][j][k] + V[i][j + 1][k] +
                       V[i][j][k - 1] + V[i + 1][j][k]);
  }
#pragma stencil end
#endif

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double Y[NX][NY]) destination(double X[NX][NY])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++)
        X[i][j] = Y[i][j];
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++)
        Y[i][j] = 0.25 * (X[i - 1][j] + X[i + 1][j] + X[i][j - 1] + X[i][j + 1]);
  }
#pragma stencil end

#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double R[NX][NY]) destination(double S[NX][NY], double W[NX][NY])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++)
        S[i][j] = 0.5 * R[i][j] + 0.25 * (R[i - 1][j] + R[i][j + 1]);
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++)
        W[i][j] = 0.5 * S[i][j] + 0.25 * (S[i + 1][j] + S[i][j - 1]);
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++)
        R[i][j] = 0.6 * W[i][j] + 0.1 * (W[i - 1][j] + W[i + 1][j] +
                  W[i][j - 1] + W[i][j + 1]);
  }
#pragma stencil end

  printf("chains steps %d t %d i %d j %d\n", steps, t, i, j);
  print2("A", A);
  print2("B", B);
  print2("C", C);
  for (i = 0; i < N1; i++)
    printf("P %d %.9g Q %.9g\n", i, P[i], Q[i]);
  for (i = 0; i < N3; i++)
    for (j = 0; j < N3 + 2; j++) {
      printf("UV %d %d", i, j);
      for (k = 0; k < N3 + 1; k++)
        printf(" %.17g %.17g", U[i][j][k], V[i][j][k]);
      printf("\n");
    }
  print2("X", X);
  print2("Y", Y);
  print2("R", R);
  print2("S", S);
  print2("W", W);
  double checksum = 0.0;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++)
      checksum += A[i][j] + B[i][j] + C[i][j] + X[i][j] + Y[i][j] + R[i][j] +
                  S[i][j] + W[i][j];
  printf("checksum %.10e\n", checksum);
  return 0;
}
