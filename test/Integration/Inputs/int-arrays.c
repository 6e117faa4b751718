/* Integer arrays in a region: int and long arrays beside a float one,
   integer division and remainder, a long array updated in place, and a
   copy back (seed 000's form, so it may be blocked in time). */
#include <stdio.h>
#define N 24
int A[N][N], B[N][N];
long L[N][N];
float F[N][N];
int main(int argc, char **argv) {
  int steps = argc > 1 ? 5 : 3, t, i, j;
  for (i = 0; i < N; i++) for (j = 0; j < N; j++) { A[i][j] = (i * 7 + j * 3) % 11; B[i][j] = 0; L[i][j] = (long)i * 100000000L; F[i][j] = 0.5f * i; }
  long total = 0;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(int A[N][N], long L[N][N], float F[N][N]) destination(int B[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = (A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]) / 4 + (A[i][j] % 3) + (int)(F[i][j] * 2.0f);
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        L[i][j] = L[i][j] + B[i][j] * 3L;
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  for (i = 0; i < N; i++) for (j = 0; j < N; j++) total += A[i][j] * (i + 1) + L[i][j] % 1000;
  printf("checksum %ld %d %ld\n", total, A[5][7], L[9][9]);
  return 0;
}
