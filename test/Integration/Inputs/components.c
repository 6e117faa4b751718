/* A 2-D field of two components (u[0], u[1]) diffused and coupled:
 * component arrays (leading dimensions indexed by constants) as sources,
 * destinations and coefficients, each component a field of its own.
 * Usage: components [steps]. -DDISTRIBUTE=... splits it across ranks. */
#include <stdio.h>
#include <stdlib.h>
#define NY 61
#define NX 83
static float u[2][NY][NX], un[2][NY][NX];
static double coef[3][NY][NX];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int i, j, t;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++) {
      u[0][j][i] = un[0][j][i] = (float)((i * 7 + j * 3) % 11) / 11.0f;
      u[1][j][i] = un[1][j][i] = (float)((i * 5 + j * 13) % 17) / 17.0f;
      coef[0][j][i] = 0.1 + 0.001 * i;
      coef[1][j][i] = 0.2 - 0.001 * j;
      coef[2][j][i] = 0.05;
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float u[2][NY][NX], double coef[3][NY][NX]) destination(float un[2][NY][NX])
#pragma stencil dimension(j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
#pragma stencil calc
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++) {
        float lap0 = u[0][j - 1][i] + u[0][j + 1][i] + u[0][j][i - 1] + u[0][j][i + 1] - 4.0f * u[0][j][i];
        float lap1 = u[1][j - 1][i] + u[1][j + 1][i] + u[1][j][i - 1] + u[1][j][i + 1] - 4.0f * u[1][j][i];
        un[0][j][i] = u[0][j][i] + coef[0][j][i] * lap0 - coef[2][j][i] * (u[1][j][i + 1] - u[1][j][i - 1]);
        un[1][j][i] = u[1][j][i] + coef[1][j][i] * lap1 + coef[2][j][i] * (u[0][j + 1][i] - u[0][j - 1][i]);
      }
#pragma stencil copy
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++) {
        u[0][j][i] = un[0][j][i];
        u[1][j][i] = un[1][j][i];
      }
  }
#pragma stencil end
  double checksum = 0;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++)
      checksum += u[0][j][i] + 3.0 * u[1][j][i] + 5.0 * un[0][j][i] + 7.0 * un[1][j][i];
  printf("components %dx%d steps %d t %d i %d j %d\n", NY, NX, steps, t, i, j);
  printf("checksum %.10e\n", checksum);
  return 0;
}
