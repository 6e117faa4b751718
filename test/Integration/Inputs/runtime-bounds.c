/* Loop bounds known at run time only, as programs written before this
 * compiler have them: static arrays of a capacity, sizes read at run time
 * (`imax`, `jmax`, file-scope statics), `<` and `<=` loops, a reduction.
 * Usage: runtime-bounds [steps [imax [jmax]]]; prints the final state.
 * -DDISTRIBUTE=... splits the region across ranks. */
#include <stdio.h>
#include <stdlib.h>

#define MI 40
#define MJ 33

static float p[MI][MJ], q[MI][MJ];
static int imax, jmax;

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  imax = argc > 2 ? atoi(argv[2]) : MI - 1;
  jmax = argc > 3 ? atoi(argv[3]) : MJ - 1;
  int i, j, t;
  float gosa = -1.0f;
  for (i = 0; i < MI; i++)
    for (j = 0; j < MJ; j++)
      p[i][j] = q[i][j] = (float)((i * 3 + j * 5) % 7);
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float p[MI][MJ]) destination(float q[MI][MJ])
#pragma stencil dimension(i, j)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    gosa = 0.0;
#pragma stencil calc
    for (i = 1; i < imax - 1; i++)
      for (j = 1; j <= jmax - 2; j++) {
        float s =
            0.25f * (p[i - 1][j] + p[i + 1][j] + p[i][j - 1] + p[i][j + 1]);
        gosa += (s - p[i][j]) * (s - p[i][j]);
        q[i][j] = s;
      }
#pragma stencil copy
    for (i = 1; i < imax - 1; i++)
      for (j = 1; j <= jmax - 2; j++)
        p[i][j] = q[i][j];
  }
#pragma stencil end
  double checksum = 0;
  for (int a = 0; a < MI; a++)
    for (int b = 0; b < MJ; b++)
      checksum += p[a][b] + 2.0 * q[a][b];
  printf("imax %d jmax %d t %d i %d j %d\n", imax, jmax, t, i, j);
  printf("gosa %.6e\n", gosa);
  printf("checksum %.10e\n", checksum);
  return 0;
}
