/* FDTD in 2-D, written the way PolyBench/C writes its fdtd-2d kernel: per
 * time step a boundary row of ey set from a table of the steps (fict[t]),
 * then three fields updated in turn, each over a range of its own and in
 * place at the point. Double precision, run-time sizes nx, ny.
 * Usage: fdtd2d [steps [nx [ny]]]   (steps <= TMAX, nx <= NX, ny <= NY) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef NX
#define NX 1000
#endif
#ifndef NY
#define NY 1200
#endif
#ifndef TMAX
#define TMAX 500
#endif

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict_values[TMAX];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void fdtd(int steps, int nx, int ny, double e_x[NX][NY],
                 double e_y[NX][NY], double h_z[NX][NY], double fict[TMAX]) {
  int t, i, j;
#pragma stencil begin
#pragma stencil step(t:500)
#pragma stencil data source(double h_z[NX][NY]) destination(double e_x[NX][NY], double e_y[NX][NY])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE /* e.g. -DDISTRIBUTE='block,*' for stencilcc --mpi */
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    for (j = 0; j < ny; j++)
      e_y[0][j] = fict[t];
#pragma stencil calc
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        e_y[i][j] = e_y[i][j] - 0.5 * (h_z[i][j] - h_z[i - 1][j]);
#pragma stencil calc
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        e_x[i][j] = e_x[i][j] - 0.5 * (h_z[i][j] - h_z[i][j - 1]);
#pragma stencil calc
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        h_z[i][j] = h_z[i][j] - 0.7 * (e_x[i][j + 1] - e_x[i][j] +
                                       e_y[i + 1][j] - e_y[i][j]);
  }
#pragma stencil end
  printf("loops left t %d i %d j %d\n", t, i, j);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  int nx = argc > 2 ? atoi(argv[2]) : NX;
  int ny = argc > 3 ? atoi(argv[3]) : NY;
  if (nx < 2 || nx > NX || ny < 2 || ny > NY || steps > TMAX) {
    fprintf(stderr, "fdtd2d: need 2 <= nx <= %d, 2 <= ny <= %d, steps <= %d\n",
            NX, NY, TMAX);
    return 2;
  }
  for (int t = 0; t < TMAX; t++)
    fict_values[t] = (double)t;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      ex[i][j] = ((double)i * (j + 1)) / NX;
      ey[i][j] = ((double)i * (j + 2)) / NY;
      hz[i][j] = ((double)i * (j + 3)) / NX;
    }

  double start = now();
  fdtd(steps, nx, ny, ex, ey, hz, fict_values);
  double seconds = now() - start;

  double checksum = 0.0;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      checksum += ex[i][j] + 0.5 * ey[i][j] + 0.25 * hz[i][j];
  double cells = 3.0 * nx * ny * steps;
  printf("fdtd2d nx %d ny %d steps %d\n", nx, ny, steps);
  printf("checksum %.10e\n", checksum);
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", cells / seconds * 1e-9);
  return 0;
}
