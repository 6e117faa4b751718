/* diffusion3d.c in plain C: the same arithmetic in the same order. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 21
#endif
#define NY (NX + 3)
#define NZ (NX - 4)
#define AT(g, x, y, z) g[((size_t)(z) * NY + (y)) * NX + (x)]

static void sweep(const float *in, float *out, float cc, float cw) {
  for (int z = 1; z < NZ - 1; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x) {
        float side = AT(in, x - 1, y, z) + AT(in, x + 1, y, z) +
                     AT(in, x, y - 1, z) + AT(in, x, y + 1, z) +
                     AT(in, x, y, z - 1) + AT(in, x, y, z + 1);
        AT(out, x, y, z) = cc * AT(in, x, y, z) + cw * side;
      }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  size_t n = (size_t)NX * NY * NZ, i;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (i = 0; i < n; ++i)
    a[i] = b[i] = (float)((i * 7) % 23) / 23.0f;
  for (int s = 0; s < steps; ++s) {
    sweep(a, b, 0.4f, 0.1f);
    sweep(b, a, 0.4f, 0.1f);
  }
  double sum = 0;
  float top = a[0];
  for (i = 0; i < n; ++i) {
    sum += a[i] * (double)(i % 5 + 1);
    top = a[i] > top ? a[i] : top;
  }
  printf("checksum %.9e\n", sum);
  printf("max %.6e corner %.6e centre %.6e\n", top, a[0],
         a[(size_t)NZ / 2 * NX * NY + (size_t)NY / 2 * NX + NX / 2]);
  free(a);
  free(b);
  return 0;
}
