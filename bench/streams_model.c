/* How fast the cores read K arrays laid out as Himeno's fields (docs/
 * Tuning.md, "That is what memory gives"): K arrays of PLANES x 129 x 257
 * floats, end to end as the example's static arrays lie, read by the
 * OpenMP team in tiles of 16 rows along y (each thread its share of the
 * rows), plane after plane, as the first level of a Himeno block streams
 * them. With SPLIT (a multiple of 16), each piece of SPLIT points of a
 * tile's plane is read in two passes, the first FIRST arrays (default
 * half of K, rounded up) and then the rest.
 *
 *   streams_model K PLANES [SPLIT [FIRST]]
 *
 * Prints the best of 7 runs in GB/s (bytes read; nothing is written).
 * Varying K at a fixed footprint (K x PLANES) tells the number of streams
 * from the footprint. Build: cc -O3 -march=native -fopenmp. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef __AVX512F__
#error "streams_model needs AVX-512 (build with -march=native on such a CPU)"
#endif
#include <immintrin.h>

#define ROWS 129L
#define POINTS 257L
#define TILE_ROWS 16L
#define MAX_ARRAYS 16

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static long argument(const char *text) {
  char *end;
  long value = strtol(text, &end, 10);
  if (*end || value <= 0) {
    fprintf(stderr, "streams_model: '%s' is not a positive number\n", text);
    exit(2);
  }
  return value;
}

/* Adds the vectors of arrays [firstArray, lastArray) over [from, to) of the
 * piece that starts at `offset` in each array. */
static __m512 readPiece(float *const *arrays, int firstArray, int lastArray,
                        long offset, long from, long to, __m512 sum) {
  for (long at = from; at + 16 <= to; at += 16)
    for (int array = firstArray; array < lastArray; array++)
      sum = _mm512_add_ps(sum, _mm512_loadu_ps(arrays[array] + offset + at));
  return sum;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: streams_model K PLANES [SPLIT [FIRST]]\n");
    return 2;
  }
  long count = argument(argv[1]), planes = argument(argv[2]);
  long split = argc > 3 ? argument(argv[3]) : 0;
  long first = argc > 4 ? argument(argv[4]) : count / 2 + count % 2;
  if (count > MAX_ARRAYS || planes < 3 || planes > 4096 ||
      (split && (split % 16 || first >= count))) {
    fprintf(stderr,
            "streams_model: K at most %d, PLANES from 3 to 4096, and "
            "with SPLIT, a multiple of 16 and FIRST below K\n",
            MAX_ARRAYS);
    return 2;
  }
  long size = planes * ROWS * POINTS;
  float *block =
      aligned_alloc(64, ((count * size * sizeof(float)) / 64 + 1) * 64);
  if (!block) {
    fprintf(stderr, "streams_model: cannot allocate %ld arrays\n", count);
    return 1;
  }
  for (long i = 0; i < count * size; i++)
    block[i] = (float)(i % 7);
  float *arrays[MAX_ARRAYS];
  for (long array = 0; array < count; array++)
    arrays[array] = block + array * size;

  double best = 0;
  float keep = 0;
  for (int run = 0; run < 7; run++) {
    double start = now();
#pragma omp parallel reduction(+ : keep)
    {
      int thread = omp_get_thread_num(), threads = omp_get_num_threads();
      long rowFrom = 1 + (ROWS - 2) * thread / threads;
      long rowTo = 1 + (ROWS - 2) * (thread + 1) / threads;
      __m512 sum = _mm512_setzero_ps();
      for (long tile = rowFrom; tile < rowTo; tile += TILE_ROWS) {
        long length =
            ((tile + TILE_ROWS < rowTo ? tile + TILE_ROWS : rowTo) - tile) *
            POINTS;
        for (long plane = 1; plane < planes - 1; plane++) {
          long offset = (plane * ROWS + tile) * POINTS;
          long piece = split ? split : length;
          for (long from = 0; from < length; from += piece) {
            long to = from + piece < length ? from + piece : length;
            if (split) {
              sum = readPiece(arrays, 0, first, offset, from, to, sum);
              sum = readPiece(arrays, first, count, offset, from, to, sum);
            } else {
              sum = readPiece(arrays, 0, count, offset, from, to, sum);
            }
          }
        }
      }
      keep += _mm512_reduce_add_ps(sum);
    }
    double seconds = now() - start;
    double bytes =
        (double)count * sizeof(float) * (planes - 2) * (ROWS - 2) * POINTS;
    if (bytes / seconds * 1e-9 > best)
      best = bytes / seconds * 1e-9;
  }
  printf("K=%ld planes=%ld (%.0f MB) split=%ld first=%ld: %.1f GB/s, best "
         "of 7, %d threads%s\n",
         count, planes, count * size * sizeof(float) / 1e6, split,
         split ? first : count, best, omp_get_max_threads(),
         keep == 12345.0f ? " (unlikely)" : "");
  free(block);
  return 0;
}
