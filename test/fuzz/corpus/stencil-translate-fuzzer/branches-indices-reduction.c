#include <math.h>
#define N 24
void run(double A[N][N], double B[N][N], double *residual, int steps) {
  int i, j, t;
  double r = 0.0;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[N][N]) destination(double B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++) {
        if (i > 4 && (j % 3 != 0 || !(i & 1)))
          B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] +
                            A[i][j + 1]);
        else
          B[i][j] = A[i][j] + 1e-3 * (double)(i * j % 13) * t;
        r = fmax(r, fabs(B[i][j] - A[i][j]));
      }
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
  *residual = r;
}
