/* Loop indices and the step variable as values in a 3-D sweep: a source
 * term from the coordinates of every axis (the innermost one too, which
 * the vector rows compute lane by lane), integer %, /, shifts and bitwise
 * operators, a step count from 1 with `<=`, and a reduction of an integer
 * expression of the coordinates.
 * Usage: coordinates [steps]. -DDISTRIBUTE=... splits it across ranks. */
#include <stdio.h>
#include <stdlib.h>
#define NZ 19
#define NY 23
#define NX 70
static float u[NZ][NY][NX], v[NZ][NY][NX];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  int t, k, j, i;
  long marks = 0;
  const float dt = 0.125f;
  for (k = 0; k < NZ; k++)
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        u[k][j][i] = v[k][j][i] = (float)((k * 3 + j * 5 + i) % 9) / 9.0f;
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float u[NZ][NY][NX]) destination(float v[NZ][NY][NX])
#pragma stencil dimension(k, j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 1; t <= steps; t++) {
#pragma stencil calc
    for (k = 1; k < NZ - 1; k++)
      for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++) {
          int code = ((k << 4) ^ (j * 7)) + (i % 5) * (i / 3) - (t & 1);
          float shift = (float)(code % 11) * dt / (float)t;
          v[k][j][i] = 0.5f * u[k][j][i] +
                       0.0625f * (u[k - 1][j][i] + u[k + 1][j][i] +
                                  u[k][j - 1][i] + u[k][j + 1][i] +
                                  u[k][j][i - 1] + u[k][j][i + 1]) +
                       (i > NX / 2 && j % 4 == (t % 4) ? shift : 0.0f);
          marks += (long)((i + j + k + t) % 3 == 0);
        }
#pragma stencil copy
    for (k = 1; k < NZ - 1; k++)
      for (j = 1; j < NY - 1; j++)
        for (i = 1; i < NX - 1; i++)
          u[k][j][i] = v[k][j][i];
  }
#pragma stencil end
  double checksum = 0.0;
  for (k = 0; k < NZ; k++)
    for (j = 0; j < NY; j++)
      for (i = 0; i < NX; i++)
        checksum += u[k][j][i] + 0.5 * v[k][j][i];
  printf("coordinates steps %d t %d k %d j %d i %d marks %ld\n", steps, t, k,
         j, i, marks);
  printf("checksum %.10e\n", checksum);
  return 0;
}
