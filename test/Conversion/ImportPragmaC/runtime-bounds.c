// Loop bounds of the program's integer variables become arguments of the
// region's function (`long long`, `index`), one per bound that is not a
// constant; the grid's upper bound is clamped to its lower one (a C loop
// that starts past its end runs no iteration). The call block computes
// each bound once, checks it against the arrays and the stencil's reach
// when a step over a non-empty nest will run, calls the region only when a
// step runs, and leaves the loop variables as the nests would.
// RUN: stencil-translate --import-pragma-c %s --manifest=%t.json --rewrite-c=%t.host.c | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file %t.host.c
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-unused-but-set-variable %t.host.c

#define N 64

static int lo, n;

// CHECK-LABEL: func.func @stencil_sweep_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<64x64xf32>, %[[B:[^:]*]]: memref<64x64xf32>, %[[IUP:[^:]*]]: index, %[[JLO:[^:]*]]: index, %[[JUP:[^:]*]]: index, %[[STEPS:[^:]*]]: index)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[IEND:.*]] = arith.maxsi %[[C1]], %[[IUP]] : index
// CHECK: %[[JEND:.*]] = arith.maxsi %[[JLO]], %[[JUP]] : index
// CHECK: stencil.load
// CHECK: stencil.grid [1, %[[JLO]]] to [%[[IEND]], %[[JEND]]] : !stencil.grid<2>
void sweep(float A[N][N], float B[N][N], int m, int steps) {
  int i, t;
#pragma stencil begin
#pragma stencil step(t:10)
#pragma stencil data source(float A[N][N]) destination(float B[N][N])
#pragma stencil dimension(i, j)
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (i = 1; i < m - 1; i++)
      for (int j = lo; j <= n; j++)
        B[i][j] = A[i - 1][j] + A[i][j + 2];
#pragma stencil copy
    for (i = 1; i < m + 1 - 2; i++)
      for (int j = lo + 0; j <= n; j++)
        A[i][j] = B[i][j];
  }
#pragma stencil end
}

// HOST: extern void stencil_sweep_0(float *A, float *B, long long i_upper, long long j_lower, long long j_upper, long long steps);
// HOST-NEXT: long long stencil_sweep_0_steps; extern void stencil_bound_error(const char *, long long); if (__builtin_sub_overflow((steps), (0), &stencil_sweep_0_steps)) stencil_bound_error("{{.*}}: the time loop over 't' from (0) to (steps) counts more steps than 64 bits hold (%lld after wrapping)", stencil_sweep_0_steps); if (stencil_sweep_0_steps > 0 && __builtin_add_overflow((0), stencil_sweep_0_steps - 1, &(int){0})) stencil_bound_error("{{.*}}: the time loop over 't' from (0) to (steps) runs %lld steps, beyond what 't' (int) can count to", stencil_sweep_0_steps);
// HOST-NEXT: long long stencil_sweep_0_i_upper = (long long)(m - 1), stencil_sweep_0_j_lower = (long long)(lo), stencil_sweep_0_j_upper = (long long)(n) + 1;
// HOST-NEXT: if (stencil_sweep_0_steps > 0 && 1 < stencil_sweep_0_i_upper && stencil_sweep_0_j_lower < stencil_sweep_0_j_upper) {
// HOST-SAME: if (stencil_sweep_0_i_upper + 0 > 64) stencil_bound_error("{{.*}}runtime-bounds.c:32: the upper bound 'm - 1' of the loop over 'i' is %lld, beyond the 64 elements of the arrays along dimension 0", stencil_sweep_0_i_upper);
// HOST-SAME: if (stencil_sweep_0_j_lower + 0 < 0) stencil_bound_error("{{.*}}runtime-bounds.c:33: the lower bound 'lo' of the loop over 'j' is %lld, before the first element of the arrays", stencil_sweep_0_j_lower);
// HOST-SAME: if (stencil_sweep_0_j_upper + 2 > 64) stencil_bound_error("{{.*}}runtime-bounds.c:33: the upper bound 'n' (inclusive) of the loop over 'j' is %lld, but 'A' is read at j+2, beyond its 64 elements along dimension 1", stencil_sweep_0_j_upper - 1); }
// HOST-NEXT: if (stencil_sweep_0_steps > 0) stencil_sweep_0(&A[0][0], &B[0][0], stencil_sweep_0_i_upper, stencil_sweep_0_j_lower, stencil_sweep_0_j_upper, stencil_sweep_0_steps);
// i is the program's: it ends at m - 1 when the nest ran, at 1 when not;
// j is the loops' own.
// HOST-NEXT: if (stencil_sweep_0_steps > 0) { if (1 < stencil_sweep_0_i_upper) { i = stencil_sweep_0_i_upper; if (stencil_sweep_0_j_lower < stencil_sweep_0_j_upper) { } } else i = 1; }

// MANIFEST: "grid": {
// MANIFEST-NEXT: "lower": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: "lo"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "upper": [
// MANIFEST-NEXT: "m - 1",
// MANIFEST-NEXT: "n + 1"
