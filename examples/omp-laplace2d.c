/* 2-D Laplace (Jacobi) in seed 004's OpenMP spelling for several devices:
 * the host initializes both arrays, `target enter data` maps them to the
 * devices split in row blocks (v with a one-row shadow for its
 * neighbours' reads), each time step copies u into v and averages v's
 * four neighbours into u, `target reflect(v)` brings v's shadow rows up to
 * date between the two, and `target exit data` maps v back. u is not
 * mapped back, so the host's u keeps its initial values (OpenMP's map
 * semantics; a plain C compile, which ignores the directives, updates it).
 * stencilcc reads the directives as it reads #pragma stencil (the devices
 * are the host's cores, or the MPI ranks under --mpi).
 * Usage: omp-laplace2d [steps [show-host-u]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 1026
#endif

static double u[N][N], v[N][N];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A hot edge along j = 0, a warm one along i = N - 1, the rest cold. */
static void initialize_on_host(double a[N][N]) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      a[j][i] = j == 0 ? 100.0 : i == N - 1 ? 40.0 + 0.01 * j : 0.0;
}

static double sum(double a[N][N]) {
  double total = 0.0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      total += a[j][i] * (1.0 + 1e-3 * ((i + 3 * j) % 7));
  return total;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  int i, j, k;
  initialize_on_host(u);
  initialize_on_host(v);
  double hostU = sum(u);

  double start = now();
#pragma omp target enter data map(to: u) device(0:4) layout(block, *)
#pragma omp target enter data map(to: v) device(0:4) layout(block, *) shadow(1)
  for (k = 0; k < steps; k++) {
#pragma omp target teams distribute parallel for layout(v)
    for (j = 1; j < N - 1; j++)
      for (i = 1; i < N - 1; i++)
        v[j][i] = u[j][i];
#pragma omp target reflect(v)
#pragma omp target teams distribute parallel for layout(v)
    for (j = 1; j < N - 1; j++)
      for (i = 1; i < N - 1; i++)
        u[j][i] = (v[j - 1][i] + v[j + 1][i] + v[j][i - 1] + v[j][i + 1]) / 4.0;
  }
#pragma omp target exit data map(from: v) layout(v)
  double seconds = now() - start;

  printf("omp-laplace2d N %d steps %d k %d\n", N, steps, k);
  printf("checksum %.10e\n", sum(v));
  if (argc > 2)
    printf("host u %s\n", sum(u) == hostU ? "kept its values" : "changed");
  printf("time %.6f s\n", seconds);
  printf("GCells/s %.3f\n", 2.0 * (N - 2) * (N - 2) * steps / seconds * 1e-9);
  return 0;
}
