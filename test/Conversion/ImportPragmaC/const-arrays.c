// Read-only coefficient arrays declared `const` in C (`static const float
// C[N] = {...}`) or in `data` (`const double W[N]`): the region's prototype
// takes them as `const T *`, so the rewritten call compiles without a
// qualifier warning under -Werror; the IR does not change.
// RUN: stencil-translate --import-pragma-c %s --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-unused-but-set-variable %t.host.c

#define N 64

static float A[N], B[N];
static const float C[N] = {1, 2, 3};
static double W[N];

// CHECK-LABEL: func.func @stencil_weights_0(
// CHECK-SAME: memref<64xf32>, %{{[^:]*}}: memref<64xf32>, %{{[^:]*}}: memref<64xf32>, %{{[^:]*}}: index)
void weights(int steps) {
  int i, t;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N], float C[N]) destination(float B[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      B[i] = C[i] * (A[i - 1] + A[i + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma stencil end
}
// HOST: extern void stencil_weights_0(float *A, const float *C, float *B, long long steps);

// CHECK-LABEL: func.func @stencil_declared_0(
void declared(double *out, int steps) {
  double X[N], Y[N];
  int i, t;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(double X[N], const double W[N]) destination(double Y[N])
#pragma stencil dimension(i)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      Y[i] = W[i] * X[i];
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      X[i] = Y[i];
  }
#pragma stencil end
  *out = X[3];
}
// HOST: extern void stencil_declared_0(double *X, const double *W, double *Y, long long steps);
