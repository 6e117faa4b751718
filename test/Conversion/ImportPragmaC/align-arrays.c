// The host program gives the regions' arrays of static storage duration a
// 64-byte alignment (a cache line; HostInterface.cpp), at their
// definitions, unless they ask for their own. Other arrays are left alone.
// RUN: stencil-translate --import-pragma-c %s -o /dev/null --rewrite-c=%t.c
// RUN: FileCheck %s --input-file %t.c
// RUN: %clang -fsyntax-only %t.c

#define N 8

// One attribute for a definition of two arrays.
// CHECK: {{^}}__attribute__((aligned(64))) static float A[N][N], B[N][N];
static float A[N][N], B[N][N];
// An alignment of its own stays.
// CHECK: {{^}}static double E[N] __attribute__((aligned(128)));
static double E[N] __attribute__((aligned(128)));
// A declaration before the definition: the definition is aligned.
// CHECK: {{^}}extern float C[N][N];
extern float C[N][N];
// An array the regions do not use.
// CHECK: {{^}}static float U[N][N];
static float U[N][N];

int main(void) {
  int i, j, t;
  // An array of automatic storage duration.
  // CHECK: {{^}}  double L[N];
  double L[N];
  for (i = 0; i < N; i++)
    L[i] = E[i] = i;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N][N], float C[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < 3; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + C[i][j]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(double L[N]) destination(double E[N])
#pragma stencil dimension(i)
  for (t = 0; t < 2; t++) {
#pragma stencil calc
    for (i = 1; i < N - 1; i++)
      E[i] = 0.5 * (L[i - 1] + L[i + 1]);
#pragma stencil copy
    for (i = 1; i < N - 1; i++)
      L[i] = E[i];
  }
#pragma stencil end
  return (int)(A[1][1] + B[2][2] + C[3][3] + E[4] + L[5] + U[6][6]);
}

// CHECK: {{^}}__attribute__((aligned(64))) float C[N][N];
float C[N][N];
