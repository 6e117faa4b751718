/* Arrays of run-time extent (C99 variably modified types), the way
 * PolyBench/C declares its kernels under POLYBENCH_USE_C99_PROTO: the
 * extents are parameters, the arrays come from malloc.
 * - jacobi2d: `double A[n][n]`, two sweeps per step;
 * - heat2d:   `double (*u)[m]` over n x m, a copy section, a residual, and
 *             constant loop bounds (checked against n and m on entry);
 * - wave1d:   `float p[n + 2]` and a boundary cell set from the step;
 * - heat3d:   `double a[l][m][k]`, three different extents.
 * -DDISTRIBUTE='block,*' distributes the 2-D regions across MPI ranks.
 * Usage: c99-params STEPS [N [ROWS]]   (heat2d's nests need ROWS >= 10) */
#include <stdio.h>
#include <stdlib.h>

static void jacobi2d(int steps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double A[n][n]) destination(double B[n][n])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE) /* the 2-D regions */
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
#pragma stencil calc
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
#pragma stencil end
}

static double heat2d(int steps, int n, int m, double (*u)[m], double (*v)[m]) {
  int t, i, j;
  double res = 0.0;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double u[n][m]) destination(double v[n][m])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE) /* the 2-D regions */
#endif
  for (t = 0; t < steps; t++) {
    res = 0.0;
#pragma stencil calc
    for (i = 1; i < 9; i++)
      for (j = 1; j < m - 1; j++) {
        double d = u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] -
                   4.0 * u[i][j];
        v[i][j] = u[i][j] + 0.2 * d;
        res += d * d;
      }
#pragma stencil copy
    for (i = 1; i < 9; i++)
      for (j = 1; j < m - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma stencil end
  return res;
}

static void wave1d(int steps, int n, float p[n + 2], float q[n + 2],
                   const float drive[100]) {
  int t, i;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float p[n + 2]) destination(float q[n + 2])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
    p[0] = drive[t];
#pragma stencil calc
    for (i = 1; i <= n; i++)
      q[i] = 0.5f * p[i] + 0.25f * (p[i - 1] + p[i + 1]);
#pragma stencil copy
    for (i = 1; i <= n; i++)
      p[i] = q[i];
  }
#pragma stencil end
}

static void heat3d(int steps, int l, int m, int k, double a[l][m][k],
                   double b[l][m][k]) {
  int t, x, y, z;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double a[l][m][k]) destination(double b[l][m][k])
#pragma stencil dimension(x, y, z)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (x = 1; x < l - 1; x++)
      for (y = 1; y < m - 1; y++)
        for (z = 1; z < k - 1; z++)
          b[x][y][z] = a[x][y][z] +
                       0.1 * (a[x - 1][y][z] + a[x + 1][y][z] + a[x][y - 1][z] +
                              a[x][y + 1][z] + a[x][y][z - 1] +
                              a[x][y][z + 1] - 6.0 * a[x][y][z]);
#pragma stencil copy
    for (x = 1; x < l - 1; x++)
      for (y = 1; y < m - 1; y++)
        for (z = 1; z < k - 1; z++)
          a[x][y][z] = b[x][y][z];
  }
#pragma stencil end
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  int n = argc > 2 ? atoi(argv[2]) : 40;
  double sum;

  double (*A)[n] = malloc(sizeof(double[n][n]));
  double (*B)[n] = malloc(sizeof(double[n][n]));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / n;
      B[i][j] = ((double)i * (j + 3) + 3) / n;
    }
  jacobi2d(steps, n, A, B);
  sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += A[i][j] * (i + 1) + 0.5 * B[i][j] * (j + 1);
  printf("jacobi2d checksum %.12e\n", sum);
  free(A);
  free(B);

  int rows = argc > 3 ? atoi(argv[3]) : 10, cols = n + 3;
  double (*u)[cols] = malloc(sizeof(double[rows][cols]));
  double (*v)[cols] = malloc(sizeof(double[rows][cols]));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      u[i][j] = v[i][j] = (i * 7 + j * 3) % 11 * 0.1;
  double res = heat2d(steps, rows, cols, u, v);
  sum = 0.0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      sum += u[i][j] * (j + 1) + v[i][j];
  printf("heat2d checksum %.12e residual %.9e\n", sum, res);
  free(u);
  free(v);

  float *p = malloc(sizeof(float[n + 2])), *q = malloc(sizeof(float[n + 2]));
  float drive[100];
  for (int i = 0; i < 100; i++)
    drive[i] = (float)(i % 7) * 0.5f;
  for (int i = 0; i < n + 2; i++)
    p[i] = q[i] = (float)(i % 5);
  wave1d(steps, n, p, q, drive);
  sum = 0.0;
  for (int i = 0; i < n + 2; i++)
    sum += p[i] * (i + 1) + q[i];
  printf("wave1d checksum %.9e\n", sum);
  free(p);
  free(q);

  int l = n / 4 + 3, m = n / 3 + 2, k = n / 2 + 1;
  double (*a)[m][k] = malloc(sizeof(double[l][m][k]));
  double (*b)[m][k] = malloc(sizeof(double[l][m][k]));
  for (int x = 0; x < l; x++)
    for (int y = 0; y < m; y++)
      for (int z = 0; z < k; z++)
        a[x][y][z] = b[x][y][z] = ((x * 5 + y * 3 + z) % 9) * 0.125;
  heat3d(steps, l, m, k, a, b);
  sum = 0.0;
  for (int x = 0; x < l; x++)
    for (int y = 0; y < m; y++)
      for (int z = 0; z < k; z++)
        sum += a[x][y][z] * (x + 2 * y + 3 * z + 1);
  printf("heat3d checksum %.12e\n", sum);
  free(a);
  free(b);
  return 0;
}
