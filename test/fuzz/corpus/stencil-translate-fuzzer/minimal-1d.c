void step(float *out) {
  float A[16], B[16];
  int i, t;
#pragma stencil begin
#pragma stencil step(t:4)
#pragma stencil data source(float A[16]) destination(float B[16])
#pragma stencil dimension(i)
  for (t = 0; t < 4; t++) {
#pragma stencil calc
    for (i = 1; i < 15; i++)
      B[i] = 0.5f * (A[i - 1] + A[i + 1]);
#pragma stencil copy
    for (i = 1; i < 15; i++)
      A[i] = B[i];
  }
#pragma stencil end
  out[0] = A[1];
}
