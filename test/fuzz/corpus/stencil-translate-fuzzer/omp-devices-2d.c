static float a[32][24], b[32][24];
void sweep(int steps, float w) {
  int i, j, t;
#pragma omp target enter data map(to: a, b) device(0:2) layout(block, *) shadow(1)
  for (t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for layout(a)
    for (j = 1; j < 31; j++)
      for (i = 1; i < 23; i++)
        b[j][i] = w * (a[j - 1][i] + a[j + 1][i]) + a[j][i - 1];
#pragma omp target reflect(b)
#pragma omp target teams distribute parallel for layout(a)
    for (j = 1; j < 31; j++)
      for (i = 1; i < 23; i++)
        a[j][i] = b[j][i];
  }
#pragma omp target exit data map(from: a) map(release: b)
}
