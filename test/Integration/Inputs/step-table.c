/* Boundary statements with step tables: a column set from a table read at
 * t + 1 (over a run-time range), a corner cell at a constant position, a
 * row from t itself; the table holds TABLE values, so more steps than it
 * covers stop the program before the region writes anything, unless the
 * column's range is empty and C never reads the table.
 * Usage: step-table [steps [m]] */
#include <stdio.h>
#include <stdlib.h>
#define N 24
#ifndef TABLE
#define TABLE 12
#endif
static float a[N][N], b[N][N];
static float pulse[TABLE];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 6;
  int m = argc > 2 ? atoi(argv[2]) : N - 1;
  int t, i, j;
  for (t = 0; t < TABLE; t++)
    pulse[t] = (float)(t % 4) - 1.5f;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = b[i][j] = (float)((i * 3 + j) % 7) / 7.0f;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float a[N][N]) destination(float b[N][N])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    for (i = 1; i < m; i++)
      a[i][0] = pulse[t + 1] * 0.5f + a[i][1];
    a[N - 1][N - 1] = 2.0f;
    for (j = 2; j < N; j++)
      a[0][j] = (float)t;
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        b[i][j] = 0.25f * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        a[i][j] = b[i][j];
  }
#pragma stencil end
  double checksum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      checksum += a[i][j] + 0.5 * b[i][j];
  printf("step-table steps %d t %d i %d j %d\n", steps, t, i, j);
  printf("checksum %.10e\n", checksum);
  return 0;
}
