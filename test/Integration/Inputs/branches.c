/* A masked 2-D diffusion with branches in its calc body: if / else if /
 * else on a mask and on the values, nested, with &&, || and !; a
 * destination written on some paths only (it keeps its value on the
 * others, as C); temporaries assigned in branches; a reduction updated in
 * a branch; an integer division guarded by its branch; comparisons used as
 * numbers; a scalar mask as a condition.
 * Usage: branches [steps]. -DDISTRIBUTE=... splits it across ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define NY 45
#define NX 70
static float a[NY][NX], b[NY][NX], seen[NY][NX], hits[NY][NX];
static float mask[NY][NX], divisor[NY][NX]; /* integers, as floats */
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 10;
  int i, j, t;
  float above = 0.0f, peak = 0.0f;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++) {
      a[j][i] = b[j][i] = (float)((i * 7 + j * 3) % 11) / 11.0f;
      seen[j][i] = hits[j][i] = (float)(i % 3);
      mask[j][i] = (float)((i * i + j) % 5);
      divisor[j][i] = (float)((i + 2 * j) % 4); /* 0 where the branch avoids it */
    }
#pragma stencil begin
#pragma stencil step(t:100)
#pragma stencil data source(float a[NY][NX], float seen[NY][NX], float mask[NY][NX], float divisor[NY][NX]) destination(float b[NY][NX], float hits[NY][NX])
#pragma stencil dimension(j, i)
#ifdef DISTRIBUTE
#pragma stencil distribute(DISTRIBUTE)
#endif
  for (t = 0; t < steps; t++) {
    above = 0.0f;
#pragma stencil calc
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++) {
        float lap = a[j - 1][i] + a[j + 1][i] + a[j][i - 1] + a[j][i + 1] - 4.0f * a[j][i];
        int m = (int)mask[j][i], d = (int)divisor[j][i];
        float rate;
        if (m == 0) {
          rate = 0.0f;
        } else if (m == 1 || (a[j][i] > 0.5f && !(m == 4))) {
          rate = 0.2f;
          if (lap < 0.0f)
            rate = 0.1f;
        } else {
          rate = 0.05f;
        }
        b[j][i] = a[j][i] + rate * lap;
        if (d != 0 && m > 1) {
          int q = (m * 7) / d + (m * 5) % d;
          b[j][i] = b[j][i] + 0.001f * (float)q;
        }
        if (mask[j][i])
          hits[j][i] = seen[j][i] + (float)(lap > 0.0f) + (float)(a[j][i] <= 0.3f && lap != 0.0f);
        if (b[j][i] > 0.6f)
          above += b[j][i] - 0.6f;
        else
          peak = fmaxf(peak, b[j][i]);
      }
#pragma stencil copy
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++)
      {
        a[j][i] = b[j][i];
        seen[j][i] = hits[j][i];
      }
  }
#pragma stencil end
  double checksum = 0;
  for (j = 0; j < NY; j++)
    for (i = 0; i < NX; i++)
      checksum += a[j][i] + 3.0 * b[j][i] + 0.01 * hits[j][i] + 0.1 * seen[j][i];
  printf("branches %dx%d steps %d t %d\n", NY, NX, steps, t);
  printf("above %.6e peak %.6e\n", above, peak);
  printf("checksum %.10e\n", checksum);
  return 0;
}
