/* Drives the Vulkan runtime's memory functions (runtime/gpu/mgpu.h)
 * directly, in whichever kind of memory STENCIL_GPU_MEMORY picks: uploads
 * and downloads of every size (in pieces when STENCIL_GPU_STAGING_BYTES is
 * small), small updates that join a batch, copies between buffers at
 * interior and unaligned offsets, 32-bit fills, and halo boxes packed and
 * unpacked through the host or in device buffers. Every byte read back is
 * compared with the same operations done on host arrays. As argument,
 * `overrun` copies past a buffer's end and `overlap` between overlapping
 * parts of one buffer, both errors. */
#include "mgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 4003 };

static int failures;

static void expectSame(const char *what, const unsigned char *got,
                       const unsigned char *want, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    if (got[i] != want[i]) {
      printf("FAIL %s: byte %zu is %u, expected %u\n", what, i, got[i],
             want[i]);
      ++failures;
      return;
    }
  printf("ok %s\n", what);
}

int main(int argc, char **argv) {
  unsigned char source[kBytes], modelA[kBytes], modelB[kBytes], got[kBytes];
  for (int i = 0; i < kBytes; ++i)
    source[i] = (unsigned char)(i * 7 + 3);
  char *a = mgpuMemAlloc(kBytes, NULL, 0);
  char *b = mgpuMemAlloc(kBytes, NULL, 0);

  printf("buffers: %s\n", stencil_gpu_buffers());
  if (argc > 1 && strcmp(argv[1], "overrun") == 0) {
    mgpuMemcpy(got, a + kBytes - 8, 16, NULL);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "overlap") == 0) {
    mgpuMemcpy(a + 8, a, 16, NULL);
    return 0;
  }

  /* Whole upload, then a download. */
  mgpuMemcpy(a, source, kBytes, NULL);
  memcpy(modelA, source, kBytes);
  mgpuMemcpy(got, a, kBytes, NULL);
  expectSame("upload and download", got, modelA, kBytes);

  /* A small aligned update (it may join a batch), then an unaligned one. */
  unsigned char small[16];
  for (int i = 0; i < 16; ++i)
    small[i] = (unsigned char)(200 + i);
  mgpuMemcpy(a + 40, small, 16, NULL);
  memcpy(modelA + 40, small, 16);
  mgpuMemcpy(a + 3, small, 7, NULL);
  memcpy(modelA + 3, small, 7);
  mgpuMemcpy(got, a, kBytes, NULL);
  expectSame("small updates", got, modelA, kBytes);

  /* A buffer-to-buffer copy between interior, unaligned offsets. */
  memset(modelB, 0, kBytes);
  mgpuMemset32(b, 0, kBytes / 4, NULL);
  mgpuMemcpy(b + 5, a + 17, 2001, NULL);
  memcpy(modelB + 5, modelA + 17, 2001);
  /* A fill of words in the middle. */
  mgpuMemset32(b + 1000, 0x01020304u, 100, NULL);
  for (int i = 0; i < 100; ++i) {
    unsigned value = 0x01020304u;
    memcpy(modelB + 1000 + 4 * i, &value, 4);
  }
  /* Small updates over the fill, one over the other: each lands after the
     transfer before it. */
  mgpuMemcpy(b + 1008, small, 16, NULL);
  memcpy(modelB + 1008, small, 16);
  mgpuMemcpy(b + 1012, small + 8, 4, NULL);
  memcpy(modelB + 1012, small + 8, 4);
  mgpuMemcpy(got, b, kBytes / 4 * 4, NULL);
  expectSame("copy between buffers, fill, updates", got, modelB,
             kBytes / 4 * 4);

  /* An interior download of odd length. */
  mgpuMemcpy(got, b + 999, 13, NULL);
  expectSame("interior download", got, modelB + 999, 13);

  /* A halo box of a 5 x 6 x 7 array of doubles in b: pack it, then unpack
     other bytes into the same box. */
  enum { X = 5, Y = 6, Z = 7 };
  double field[X][Y][Z], box[2 * 3 * 4], expect[2 * 3 * 4];
  for (int i = 0; i < X * Y * Z; ++i)
    ((double *)field)[i] = i * 0.25;
  char *c = mgpuMemAlloc(sizeof field, NULL, 0);
  mgpuMemcpy(c, field, sizeof field, NULL);
  const int64_t size[3] = {X, Y, Z}, lower[3] = {1, 2, 3}, upper[3] = {3, 5, 7};
  stencil_gpu_copy_box(c, size, sizeof(double), lower, upper, box, 1);
  int n = 0;
  for (int i = 1; i < 3; ++i)
    for (int j = 2; j < 5; ++j)
      for (int k = 3; k < 7; ++k)
        expect[n++] = field[i][j][k];
  expectSame("box packed", (unsigned char *)box, (unsigned char *)expect,
             sizeof box);
  n = 0;
  for (int i = 1; i < 3; ++i)
    for (int j = 2; j < 5; ++j)
      for (int k = 3; k < 7; ++k, ++n) {
        box[n] = -1.0 - n;
        field[i][j][k] = box[n];
      }
  stencil_gpu_copy_box(c, size, sizeof(double), lower, upper, box, 0);
  /* The host's box may change once the call returns. */
  memset(box, 0, sizeof box);
  double back[X][Y][Z];
  mgpuMemcpy(back, c, sizeof back, NULL);
  expectSame("box unpacked", (unsigned char *)back, (unsigned char *)field,
             sizeof back);

  /* The same box packed into and unpacked from a device buffer, at an
     offset in it (what a GPU-aware MPI sends from and receives into). */
  char *face = mgpuMemAlloc(sizeof box + 24, NULL, 0);
  stencil_gpu_copy_box_on_device(c, size, sizeof(double), lower, upper,
                                 face + 24, 1);
  mgpuMemcpy(box, face + 24, sizeof box, NULL);
  n = 0;
  for (int i = 1; i < 3; ++i)
    for (int j = 2; j < 5; ++j)
      for (int k = 3; k < 7; ++k)
        expect[n++] = field[i][j][k];
  expectSame("box packed on the device", (unsigned char *)box,
             (unsigned char *)expect, sizeof box);
  for (n = 0; n < 2 * 3 * 4; ++n)
    box[n] = 100.0 + n;
  mgpuMemcpy(face + 24, box, sizeof box, NULL);
  stencil_gpu_copy_box_on_device(c, size, sizeof(double), lower, upper,
                                 face + 24, 0);
  n = 0;
  for (int i = 1; i < 3; ++i)
    for (int j = 2; j < 5; ++j)
      for (int k = 3; k < 7; ++k, ++n)
        field[i][j][k] = 100.0 + n;
  mgpuMemcpy(back, c, sizeof back, NULL);
  expectSame("box unpacked on the device", (unsigned char *)back,
             (unsigned char *)field, sizeof back);
  mgpuMemFree(face, NULL);

  mgpuMemFree(a, NULL);
  mgpuMemFree(b, NULL);
  mgpuMemFree(c, NULL);
  return failures != 0;
}
