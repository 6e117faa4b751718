/* The plain-C twin of structs.c: the same points, in plain arrays of
   structs, with periodic neighbours by index arithmetic. */
#include <stdio.h>
#include <stdlib.h>

#define NX 13
#define NY 9
#define NZ 7

struct Complex {
  float re, im;
};

static struct Complex A[NZ][NY][NX], B[NZ][NY][NX];

static void rotate(struct Complex from[NZ][NY][NX],
                   struct Complex to[NZ][NY][NX], float angle) {
  for (int z = 0; z < NZ; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 0; x < NX; ++x) {
        struct Complex c = from[z][y][x];
        struct Complex e = from[z][y][(x + 1) % NX];
        struct Complex w = from[z][(y - 1 + NY) % NY][(x - 1 + NX) % NX];
        struct Complex s = {e.re + w.re, e.im - w.im};
        struct Complex half = {0.5f};
        struct Complex d = {from[z][y + 1][x].re, from[z][y - 1][x].im};
        struct Complex out = s;
        out.re = c.re * half.re + angle * s.im + d.re * ((d.im) * (d.im));
        if (c.im > 0.0f)
          out.im = c.im - angle * s.re + half.im;
        to[z][y][x] = out;
      }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  struct Complex *h =
      (struct Complex *)calloc(NX * NY * NZ, sizeof(struct Complex));
  for (int i = 0; i < NX * NY * NZ; ++i) {
    h[i].re = (i % 11) * 0.125f;
    h[i].im = (i % 7) * 0.25f - 0.75f;
  }
  for (int i = 0; i < NX * NY * NZ; ++i) {
    (&A[0][0][0])[i] = h[i];
    (&B[0][0][0])[i] = h[i];
  }
  for (int t = 0; t < steps; ++t) {
    rotate(A, B, 0.25f);
    rotate(B, A, -0.125f);
  }
  for (int i = 0; i < NX * NY * NZ; ++i)
    h[i] = (&A[0][0][0])[i];
  double sum = 0;
  for (int i = 0; i < NX * NY * NZ; ++i)
    sum += h[i].re * (1 + i % 3) + h[i].im * (2 + i % 5);
  printf("checksum %.9e\n", sum);
  printf("point 100 %.9e %.9e\n", h[100].re, h[100].im);
  free(h);
  return 0;
}
