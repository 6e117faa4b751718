/* cells.c in plain C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 15
#define NY 11
#define AT(g, x, y) g[(y) * NX + (x)]
#define WRAPPED(g, x, y) g[(((y) + NY) % NY) * NX + ((x) + NX) % NX]

struct Cell {
  double u, v;
  double history[2];
};

static void advect(struct Cell *c, double dt) {
  for (int y = 1; y < NY - 1; ++y)
    for (int x = 1; x < NX - 1; ++x) {
      double du = AT(c, x + 1, y).u - AT(c, x - 1, y).u;
      double dv = AT(c, x, y + 1).u - AT(c, x, y - 1).u;
      AT(c, x, y).history[1] = AT(c, x, y).history[0];
      AT(c, x, y).history[0] = du + dv;
      AT(c, x, y).v = AT(c, x, y).v - dt * (du + dv);
    }
}

static void wrap(const struct Cell *from, struct Cell *to) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x)
      AT(to, x, y).u =
          0.5 * (WRAPPED(from, x - 1, y - 1).u + WRAPPED(from, x + 1, y + 1).v);
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 4;
  struct Cell *a = calloc(NX * NY, sizeof(struct Cell));
  struct Cell *b = calloc(NX * NY, sizeof(struct Cell));
  for (int i = 0; i < NX * NY; ++i) {
    a[i].u = (i % 7) * 0.25;
    a[i].v = (i % 5) * 0.5 - 1.0;
  }
  memcpy(b, a, NX * NY * sizeof(struct Cell));
  for (int s = 0; s < steps; ++s) {
    advect(a, 0.1);
    wrap(a, b);
    wrap(b, a);
  }
  double sum = 0;
  for (int i = 0; i < NX * NY; ++i)
    sum += a[i].u * 1.0 + a[i].v * 2.0 + a[i].history[0] * 3.0 +
           a[i].history[1] * 4.0;
  printf("checksum %.12e\n", sum);
  printf("cell 20 %.9e %.9e %.9e %.9e\n", a[20].u, a[20].v, a[20].history[0],
         a[20].history[1]);
  free(a);
  free(b);
  return 0;
}
