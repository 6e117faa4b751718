/* periodic.c in plain C. */
#include <stdio.h>
#include <stdlib.h>

#define N1 37
#define NX 13
#define NY 10
#define WRAP(i, n) (((i) + (n)) % (n))

static void ring(const float *a, float *b) {
  for (int i = 0; i < N1; ++i)
    b[i] = 0.5f * a[i] + 0.125f * (a[WRAP(i - 2, N1)] + a[WRAP(i - 1, N1)] +
                                   a[WRAP(i + 1, N1)] + a[WRAP(i + 2, N1)]);
}

#define T(a, x, y) a[WRAP(y, NY) * NX + WRAP(x, NX)]
static void torus(const double *a, double *b) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      double s = 0;
      s += T(a, x - 1, y - 1) + T(a, x, y - 1) + T(a, x + 1, y - 1);
      s += T(a, x - 1, y) + T(a, x + 1, y);
      s += T(a, x - 1, y + 1) + T(a, x, y + 1) + T(a, x + 1, y + 1);
      b[y * NX + x] = 0.2 * a[y * NX + x] + 0.1 * s;
    }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  float r1[N1], r2[N1];
  double t1[NX * NY], t2[NX * NY];
  for (int i = 0; i < N1; ++i)
    r1[i] = (float)(i % 4);
  for (int i = 0; i < NX * NY; ++i)
    t1[i] = i == 0 ? 100.0 : (double)(i % 3);
  for (int s = 0; s < steps; ++s) {
    ring(r1, r2);
    ring(r2, r1);
  }
  for (int s = 0; s < steps; ++s) {
    torus(t1, t2);
    torus(t2, t1);
  }
  for (int i = 0; i < N1; i += 6)
    printf("ring %d %.7e\n", i, r1[i]);
  for (int i = 0; i < NX * NY; i += 17)
    printf("torus %d %.12e\n", i, t1[i]);
  printf("torus corners %.12e %.12e\n", t1[NX - 1], t1[NX * NY - 1]);
  double sum = 0;
  for (int i = 0; i < NX * NY; ++i)
    sum += t1[i] * (i % 4 + 1);
  printf("checksum %.12e\n", sum);
  return 0;
}
