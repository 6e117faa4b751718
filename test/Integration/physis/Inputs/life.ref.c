/* life.c in plain C. */
#include <stdio.h>
#include <stdlib.h>

#define NX 23
#define NY 17
#define AT(g, x, y) g[(((y) + NY) % NY) * NX + ((x) + NX) % NX]

static void generation(const int *now, int *next) {
  for (int y = 0; y < NY; ++y)
    for (int x = 0; x < NX; ++x) {
      int n = AT(now, x - 1, y - 1) + AT(now, x, y - 1) +
              AT(now, x + 1, y - 1) + AT(now, x - 1, y) + AT(now, x + 1, y) +
              AT(now, x - 1, y + 1) + AT(now, x, y + 1) + AT(now, x + 1, y + 1);
      int alive = now[y * NX + x];
      next[y * NX + x] = (n == 3 || (alive && n == 2)) ? 1 : 0;
    }
}

int main(int argc, char *argv[]) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int a[NX * NY], b[NX * NY];
  for (int i = 0; i < NX * NY; ++i)
    a[i] = (i * 7 + i / 5) % 3 == 0;
  for (int s = 0; s < steps; ++s) {
    generation(a, b);
    generation(b, a);
  }
  int live = 0;
  for (int i = 0; i < NX * NY; ++i)
    live += a[i];
  long signature = 0;
  for (int i = 0; i < NX * NY; ++i)
    signature = signature * 3 % 1000003 + a[i] * (i + 1);
  printf("checksum live %d signature %ld\n", live, signature);
  return 0;
}
