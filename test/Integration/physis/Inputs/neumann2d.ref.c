/* neumann2d.c in plain C. */
#include <stdio.h>
#include <stdlib.h>

static void relax(const double *u, double *v, int nx, int ny, double w) {
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      double c = u[y * nx + x];
      double west = x == 0 ? c : u[y * nx + x - 1];
      double east = x == nx - 1 ? c : u[y * nx + x + 1];
      double south = y > 0 ? u[(y - 1) * nx + x] : c;
      double north =
          y < ny - 1 && !(x == 3 && y == 2) ? u[(y + 1) * nx + x] : c;
      v[y * nx + x] = c + w * (west + east + south + north - 4.0 * c);
    }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int nx = argc > 2 ? atoi(argv[2]) : 19, ny = nx + 5;
  double *u = calloc((size_t)nx * ny, sizeof(double));
  double *v = calloc((size_t)nx * ny, sizeof(double));
  for (int i = 0; i < nx * ny; ++i)
    u[i] = (i % 11 == 0) ? 1.0 : 0.0;
  for (int s = 0; s < steps; ++s) {
    relax(u, v, nx, ny, 0.2);
    relax(v, u, nx, ny, 0.2);
  }
  double sum = 0, total = u[0];
  for (int i = 0; i < nx * ny; ++i)
    sum += u[i] * (i % 7 + 1);
  for (int i = 1; i < nx * ny; ++i)
    total += u[i];
  printf("checksum %.12e total %.9e\n", sum, total);
  printf("corners %.9e %.9e %.9e\n", u[0], u[nx - 1], u[nx * ny - 1]);
  free(u);
  free(v);
  return 0;
}
