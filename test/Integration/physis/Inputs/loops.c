/* A Physis program whose stencil functions loop: over the members of a
   struct point (a 2 x 3 array member, copied transposed into another
   point type, averaged with the neighbours along x), over a 3 x 3 x 3
   neighbourhood (a weighted box filter in nested loops, the inner bounds
   fixed), a triangular loop whose inner bound is the outer variable (its
   variables declared before it), and a loop of one statement without
   braces. A host function with a loop, which stays as it is. Its plain-C twin is
   loops.ref.c. */
#include "physis/physis.h"

#define N 10
#define DIM1 2
#define DIM2 3

struct In {
  float p[DIM1][DIM2];
};
struct Out {
  float q[DIM2][DIM1];
};
DeclareGrid3D(In, struct In);
DeclareGrid3D(Out, struct Out);

static void transpose(const int x, const int y, const int z, PSGrid3DIn a,
                      PSGrid3DOut b) {
  int i, j;
  for (i = 0; i < DIM1; ++i) {
    for (j = 0; j < DIM2; ++j) {
      float v = PSGridGet(a, x, y, z).p[i][j];
      float w = PSGridGet(a, x - 1, y, z).p[i][j] +
                PSGridGet(a, x + 1, y, z).p[i][j];
      PSGridEmitUtype(b.q[j][i], 0.5f * v + 0.25f * w);
    }
  }
}

static void box(const int x, const int y, const int z, PSGrid3DDouble in,
                PSGrid3DDouble out) {
  double s = 0;
  for (int k = -1; k <= 1; ++k)
    for (int j = -1; j <= 1; ++j) {
      for (int i = -1; i < 2; i += 1)
        s += PSGridGet(in, x + i, y + j, z + k) *
             (1.0 + (i == 0) + 2 * (j == 0) + 4 * (k == 0));
    }
  /* Triangular: the inner bound is the outer variable; both declared
     before the loops, as C89 writes them. */
  int p, q;
  for (p = 0; p < 3; p++)
    for (q = 0; q <= p; q++)
      s += 0.01 * PSGridGet(in, x + q - p, y, z);
  PSGridEmit(out, s / 64.0);
}

/* Not a stencil function: its loop runs on the host. */
static double weigh(int n, PSGrid3DDouble g) {
  double w = 0;
  for (int i = 0; i < 4; ++i)
    w += (double)(n + i) * (double)PSGridDim(g, 0);
  return w;
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 3;
  PSInit(&argc, &argv, 3, N, N, N);
  size_t n = (size_t)N * N * N, i;
  PSGrid3DIn a = PSGrid3DInNew(N, N, N);
  PSGrid3DOut b = PSGrid3DOutNew(N, N, N);
  struct In *in = (struct In *)malloc(n * sizeof(struct In));
  struct Out *out = (struct Out *)malloc(n * sizeof(struct Out));
  for (i = 0; i < n; ++i)
    for (int u = 0; u < DIM1; ++u)
      for (int v = 0; v < DIM2; ++v)
        in[i].p[u][v] = (float)((i * 3 + u * 7 + v * 11) % 17);
  PSGridCopyin(a, in);
  PSStencilRun(PSStencilMap(transpose, PSDomain3DNew(1, N - 1, 0, N, 0, N),
                            a, b));
  PSGridCopyout(b, out);
  double sum = 0;
  for (i = 0; i < n; ++i)
    for (int u = 0; u < DIM2; ++u)
      for (int v = 0; v < DIM1; ++v)
        sum += out[i].q[u][v] * (double)((i + u * 2 + v) % 5 + 1);
  printf("transposed %.9e\n", sum);

  PSGrid3DDouble c = PSGrid3DDoubleNew(N, N, N);
  PSGrid3DDouble d = PSGrid3DDoubleNew(N, N, N);
  double *h = (double *)malloc(n * sizeof(double));
  for (i = 0; i < n; ++i)
    h[i] = (double)((i * 13) % 29) / 29.0;
  PSGridCopyin(c, h);
  PSGridCopyin(d, h);
  PSDomain3D inner = PSDomain3DNew(2, N - 1, 1, N - 1, 1, N - 1);
  PSStencilRun(PSStencilMap(box, inner, c, d), PSStencilMap(box, inner, d, c),
               steps);
  PSGridCopyout(c, h);
  sum = 0;
  for (i = 0; i < n; ++i)
    sum += h[i] * (double)(i % 7 + 1);
  printf("checksum %.15e\n", sum);
  printf("weight %g\n", weigh(steps, c));
  PSGridFree(a);
  PSGridFree(b);
  PSGridFree(c);
  PSGridFree(d);
  PSFinalize();
  free(in);
  free(out);
  free(h);
  return 0;
}
