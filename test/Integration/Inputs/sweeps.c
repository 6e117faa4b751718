/* Several nests per time step, as FDTD and PolyBench programs write them:
 * three fields updated in turn, each nest over its own range, in place at
 * the point (ey = ey - ... reads ey at the point only), a later nest
 * reading what an earlier one wrote in the same step; then a nest that
 * writes a source from a destination at an offset, a copy nest over a range
 * of its own, and a reduction in a nest that is not the first.
 * Usage: sweeps [steps] [n]. -DDISTRIBUTE=... splits it across ranks. */
#include <stdio.h>
#include <stdlib.h>
#define NX 37
#define NY 52
static double ex[NX][NY], ey[NX][NY], hz[NX][NY], w[NX][NY], v[NX][NY];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int n = argc > 2 ? atoi(argv[2]) : NY - 1; /* run-time bound */
  int i, j, t;
  double energy = 0.0, peak = -1e30;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++) {
      ex[i][j] = ((double)i * (j + 1)) / NX;
      ey[i][j] = ((double)i * (j + 2)) / NY;
      hz[i][j] = ((double)i * (j + 3)) / NX;
      w[i][j] = (double)((i * 3 + j * 5) % 7) / 7.0;
      v[i][j] = 0.5;
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(double hz[NX][NY], double w[NX][NY]) destination(double ex[NX][NY], double ey[NX][NY], double v[NX][NY])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    energy = 0.0;
#pragma stencil calc
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma stencil calc
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma stencil calc
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < n; j++) {
        hz[i][j] -= 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
        energy += hz[i][j] * hz[i][j];
      }
#pragma stencil calc
    for (i = 1; i < NX - 1; i++)
      for (j = 1; j < NY - 1; j++) {
        v[i][j] = 0.25 * (w[i - 1][j] + w[i + 1][j] + w[i][j - 1] + w[i][j + 1]);
        peak = v[i][j] > peak ? v[i][j] : peak;
      }
#pragma stencil copy
    for (i = 2; i < NX - 2; i++)
      for (j = 2; j < NY - 2; j++)
        w[i][j] = v[i][j];
  }
#pragma stencil end
  double checksum = 0.0;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++)
      checksum += ex[i][j] + 2.0 * ey[i][j] + 3.0 * hz[i][j] + w[i][j] +
                  0.5 * v[i][j];
  printf("sweeps steps %d t %d i %d j %d\n", steps, t, i, j);
  printf("energy %.12e peak %.12e\n", energy, peak);
  printf("checksum %.10e\n", checksum);
  return 0;
}
