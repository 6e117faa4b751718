/* Timing models of heat2d's pipelined time blocks (docs/Tuning.md, "Where
 * heat2d's time blocks stop"), in C with AVX-512, to tell what the scheme
 * allows from what our generated code reaches. They time memory traffic and
 * arithmetic only: the values they compute mean nothing.
 *
 *   pipeline_model kernel W H REPS
 *     The five-point update as the ring rows do it (aligned loads, the row
 *     neighbours shifted in registers), swept REPS times over a W x H pair
 *     of arrays per thread: with a small H, a sweep that never leaves the
 *     cache.
 *   pipeline_model pipeline W L R ROWS TILE
 *     L levels of a time block over a ROWS x W grid per thread, in tiles of
 *     TILE rows (PipelinedTimeBlock.cpp's layout): level 1 reads the source
 *     grid, levels 2 .. L-1 each a ring of R + 2 rows (rows padded by 16
 *     elements, as the lowering pads 2048-wide rows) of the level before,
 *     and the last level's rows are copied to the destination. Each wave
 *     computes R rows of every level; a level computes its tile's rows
 *     grown by one row per level still to come at both ends, as the tiles
 *     of the lowering overlap.
 *
 * Prints GCells/s (one level's update of one cell is a cell), the median
 * of 5 runs with their range. Build: cc -O3 -march=native -fopenmp. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef __AVX512F__
#error "pipeline_model needs AVX-512 (build with -march=native on such a CPU)"
#endif
#include <immintrin.h>

#define RUNS 5

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static inline __m512 shiftedLeft(__m512 previous, __m512 current) {
  return _mm512_castsi512_ps(_mm512_alignr_epi32(
      _mm512_castps_si512(current), _mm512_castps_si512(previous), 15));
}
static inline __m512 shiftedRight(__m512 current, __m512 next) {
  return _mm512_castsi512_ps(_mm512_alignr_epi32(
      _mm512_castps_si512(next), _mm512_castps_si512(current), 1));
}

/* One row of the update, columns 16 .. W - 17, from three rows. C's order
 * of operations (no contraction), as the generated code keeps it. */
static void updateRow(const float *up, const float *middle, const float *down,
                      float *out, long width) {
  const __m512 c0 = _mm512_set1_ps(0.6f), c1 = _mm512_set1_ps(0.1f);
  __m512 previous = _mm512_load_ps(middle),
         current = _mm512_load_ps(middle + 16);
  for (long j = 16; j < width - 16; j += 16) {
    __m512 next = _mm512_load_ps(middle + j + 16);
    __m512 vertical =
        _mm512_add_ps(_mm512_load_ps(up + j), _mm512_load_ps(down + j));
    __m512 sum = _mm512_add_ps(vertical, shiftedLeft(previous, current));
    sum = _mm512_add_ps(sum, shiftedRight(current, next));
    _mm512_store_ps(out + j, _mm512_add_ps(_mm512_mul_ps(c0, current),
                                           _mm512_mul_ps(c1, sum)));
    previous = current;
    current = next;
  }
}

static float *allocateFilled(long count) {
  float *data = aligned_alloc(64, ((count * sizeof(float) + 63) / 64) * 64);
  if (!data) {
    fprintf(stderr, "pipeline_model: cannot allocate %ld floats\n", count);
    exit(1);
  }
  for (long i = 0; i < count; i++)
    data[i] = (float)(i % 7) / 7.0f;
  return data;
}

/* Seconds of the timed part of one run, the slowest thread's. */
static double runKernel(long width, long height, long reps) {
  double seconds = 0;
#pragma omp parallel reduction(max : seconds)
  {
    float *a = allocateFilled(width * height),
          *b = allocateFilled(width * height);
#pragma omp barrier
    double start = now();
    for (long r = 0; r < reps; r++) {
      for (long i = 1; i < height - 1; i++)
        updateRow(a + (i - 1) * width, a + i * width, a + (i + 1) * width,
                  b + i * width, width);
      float *t = a;
      a = b;
      b = t;
    }
    seconds = now() - start;
    if (a[width + 17] == 12345.0f)
      printf("(unlikely)\n");
    free(a);
    free(b);
  }
  return seconds;
}

static double runPipeline(long width, long levels, long rowsPerWave, long rows,
                          long tileRows) {
  double seconds = 0;
  long stride = width + 16, slots = rowsPerWave + 2;
#pragma omp parallel reduction(max : seconds)
  {
    float *ring = allocateFilled(levels * slots * stride);
    float *source = allocateFilled((rows + 2) * stride);
    float *destination = allocateFilled((rows + 2) * stride);
#define RING(level, row)                                                       \
  (ring + ((level)*slots + (unsigned long)(row) % slots) * stride)
#pragma omp barrier
    double start = now();
    for (long tile = 1; tile < rows; tile += tileRows)
      for (long wave = tile - levels; wave < tile + tileRows + levels;
           wave += rowsPerWave)
        for (long level = 1; level < levels; level++)
          for (long k = 0; k < rowsPerWave; k++) {
            long row = wave + k - level, grown = levels - level;
            if (row < tile - grown || row >= tile + tileRows + grown ||
                row < 1 || row >= rows)
              continue;
            if (level == 1)
              updateRow(source + (row - 1) * stride, source + row * stride,
                        source + (row + 1) * stride, RING(level, row), width);
            else
              updateRow(RING(level - 1, row - 1), RING(level - 1, row),
                        RING(level - 1, row + 1), RING(level, row), width);
            if (level == levels - 1)
              memcpy(destination + row * stride, RING(level, row),
                     width * sizeof(float));
          }
#undef RING
    seconds = now() - start;
    if (destination[stride + 17] == 12345.0f)
      printf("(unlikely)\n");
    free(ring);
    free(source);
    free(destination);
  }
  return seconds;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *what, double cells, double seconds[RUNS]) {
  double rates[RUNS];
  for (int i = 0; i < RUNS; i++)
    rates[i] = cells / seconds[i] * 1e-9;
  qsort(rates, RUNS, sizeof(double), compareDoubles);
  printf("%s: %.2f GCells/s (%.2f-%.2f), %d threads\n", what, rates[RUNS / 2],
         rates[0], rates[RUNS - 1], omp_get_max_threads());
}

static long argument(char **argv, int index) {
  char *end;
  long value = strtol(argv[index], &end, 10);
  if (*end || value <= 0) {
    fprintf(stderr, "pipeline_model: '%s' is not a positive number\n",
            argv[index]);
    exit(2);
  }
  return value;
}

int main(int argc, char **argv) {
  double seconds[RUNS];
  char what[160];
  if (argc == 5 && !strcmp(argv[1], "kernel")) {
    long width = argument(argv, 2), height = argument(argv, 3),
         reps = argument(argv, 4);
    if (width % 16 || width < 48 || height < 3) {
      fprintf(stderr, "pipeline_model: W must be a multiple of 16, at least "
                      "48; H at least 3\n");
      return 2;
    }
    for (int i = 0; i < RUNS; i++)
      seconds[i] = runKernel(width, height, reps);
    snprintf(what, sizeof what, "kernel W=%ld H=%ld", width, height);
    report(what,
           (double)(width - 32) * (height - 2) * reps * omp_get_max_threads(),
           seconds);
    return 0;
  }
  if (argc == 7 && !strcmp(argv[1], "pipeline")) {
    long width = argument(argv, 2), levels = argument(argv, 3),
         rowsPerWave = argument(argv, 4), rows = argument(argv, 5),
         tileRows = argument(argv, 6);
    if (width % 16 || width < 48 || levels < 2 || rows < 3) {
      fprintf(stderr, "pipeline_model: W must be a multiple of 16, at least "
                      "48; L at least 2; ROWS at least 3\n");
      return 2;
    }
    for (int i = 0; i < RUNS; i++)
      seconds[i] = runPipeline(width, levels, rowsPerWave, rows, tileRows);
    snprintf(what, sizeof what, "pipeline W=%ld L=%ld R=%ld rows=%ld tile=%ld",
             width, levels, rowsPerWave, rows, tileRows);
    /* The useful cells: each of L - 1 levels updates the grid once. */
    report(what,
           (double)(width - 32) * (rows - 2) * (levels - 1) *
               omp_get_max_threads(),
           seconds);
    return 0;
  }
  fprintf(stderr, "usage: pipeline_model kernel W H REPS\n"
                  "       pipeline_model pipeline W L R ROWS TILE\n");
  return 2;
}
