/* Every captured scalar type of C and the math calls the importer accepts,
 * in a 1-D radius-2 stencil; the GPU backends must compute what C does
 * (no reassociation of (a + 1) - 1, narrow integers with their values).
 * -DREAL=double for the double version; -DUSE_EXP adds EXP (expf unless
 * -DEXP=exp: C's exp computes in double).
 * Usage: c-math-scalars [steps] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef REAL
#define REAL float
#endif
#ifndef N
#define N 1003
#endif
#ifndef EXP
#define EXP expf
#endif

static REAL A[N], B[N];

int main(int argc, char **argv) {
  int i, t;
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  char c = -3;
  signed char sc = -100;
  unsigned char uc = 200;
  short s = -7000;
  unsigned short us = 60000;
  int n = -123456;
  unsigned u = 4000000000u;
  long l = -5000000000L;
  unsigned long ul = 9000000000UL;
  long long ll = -70000000000LL;
  float f = 0.3f;
  double d = 0.1;
  for (i = 0; i < N; i++) {
    A[i] = (REAL)(i % 17) / 17;
    B[i] = 0;
  }
#pragma stencil begin
#pragma stencil step(t:1000)
#pragma stencil data source(REAL A[N]) destination(REAL B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 2; i < N - 2; i++)
      B[i] = (A[i] + 1) - 1 +
             (REAL)1e-3 * sqrt(fabs(A[i - 2] - A[i + 2])) +
             (REAL)1e-5 * sqrtf(fabsf((float)A[i + 1] - 0.5f)) +
             (REAL)1e-4 * (fmin(A[i - 1], f) - fmax(A[i + 1], (REAL)d)) +
#ifdef USE_EXP
             (REAL)1e-4 * EXP(A[i]) +
#endif
             (REAL)1e-9 * (REAL)(c + sc + uc + s + us) +
             (REAL)1e-15 * (REAL)((double)n + u + (double)l + ul + ll);
#pragma stencil copy
    for (i = 2; i < N - 2; i++)
      A[i] = B[i];
  }
#pragma stencil end
  double sum = 0;
  for (i = 0; i < N; i++)
    sum += A[i] * (i % 7 + 1);
  printf("steps %d t %d\n", steps, t);
  printf("checksum %.17g\n", sum);
  return 0;
}
