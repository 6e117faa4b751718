/* forms.c in plain C. */
#include <stdio.h>
#include <stdlib.h>

#define N 12

static void print(const char *what, const float *h) {
  printf("%s", what);
  for (int i = 0; i < N; ++i)
    printf(" %g", h[i]);
  printf("\n");
}

int main(int argc, char *argv[]) {
  int pick = argc > 1 ? atoi(argv[1]) : 1;
  float a[N], b[N] = {0};
  for (int i = 0; i < N; ++i)
    a[i] = (float)i;
  for (int i = 0; i < N; ++i)
    b[i] = 2.0f * a[i];
  print("closure", b);
  for (int i = 0; i < N; ++i)
    b[i] = 2.0f * a[i];
  for (int i = 0; i < N; ++i)
    a[i] = 10.0f + b[i];
  print("global", a);
  for (int i = 0; i < N - 1; ++i)
    b[i] = a[i + 1] + 5 + i;
  print("shifted", b);
  for (int i = 0; i < N; ++i)
    b[i] = pick ? a[i] + 1.0f : a[i] * 3.0f;
  print("pick", b);
  print("empty", b);
  printf("line %d\n", 74);
  printf("checksum done\n");
  return 0;
}
