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
 *   pipeline_model block tiles|inplace L [PAD]
 *   pipeline_model block split L [H [RING]]
 *     One time block of L levels over heat2d's whole 2048 x 2048 grid on
 *     exactly two threads, from a source grid to a destination grid, two
 *     rows a wave, each row's partial end vectors masked:
 *       tiles    two tiles of 1023 columns, level s grown by L - s columns
 *                at the tile's inner end (the lowering's tiles), a ring of
 *                4 rows per level, ring rows PAD points longer than 2304
 *                (a multiple of 16, default 16);
 *       inplace  as tiles, but level s writes its row r over level s - 1's
 *                row r - 1, which it has just read for the last time: one
 *                ring of 2L + 8 rows indexed by r - s;
 *       split    one tile of all columns; levels 1 .. H (default L / 2) on
 *                one thread, the rest on the other, which reads level H
 *                from a ring of RING rows (default 64) between them; each
 *                thread spins on the other's count of finished waves.
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

/* Columns [from, to) of a row, from three rows indexed by the same column
 * (`up + c` is column c); the vectors start at the multiple of 16 at or
 * below `from`, and the end vectors store only the columns in range. The
 * rows must hold a vector on each side of the range. */
static void updateColumns(const float *up, const float *middle,
                          const float *down, float *out, long from, long to) {
  const __m512 c0 = _mm512_set1_ps(0.6f), c1 = _mm512_set1_ps(0.1f);
  long j = from & ~15L;
  __m512 previous = _mm512_load_ps(middle + j - 16),
         current = _mm512_load_ps(middle + j);
  for (; j < to; j += 16) {
    __m512 next = _mm512_load_ps(middle + j + 16);
    __m512 vertical =
        _mm512_add_ps(_mm512_load_ps(up + j), _mm512_load_ps(down + j));
    __m512 sum = _mm512_add_ps(vertical, shiftedLeft(previous, current));
    sum = _mm512_add_ps(sum, shiftedRight(current, next));
    __mmask16 lanes = 0xFFFF;
    if (j < from)
      lanes &= (__mmask16)(0xFFFF << (from - j));
    if (j + 16 > to)
      lanes &= (__mmask16)(0xFFFF >> (j + 16 - to));
    _mm512_mask_store_ps(
        out + j, lanes,
        _mm512_add_ps(_mm512_mul_ps(c0, current), _mm512_mul_ps(c1, sum)));
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

/* The block model: a 2048 x 2048 grid, its rows 16-point aligned. */
#define BLOCK_N 2048L
/* A ring row: columns -128 .. BLOCK_N + 128, so that a tile's grown rows
 * and the vectors beside them stay inside. */
#define BLOCK_RING_ROW (BLOCK_N + 256)

enum BlockMode { BLOCK_TILES, BLOCK_SPLIT, BLOCK_INPLACE };

static float *blockRingRow(float *ring, long stride, long slots, long slot,
                           long row) {
  return ring + (slot * slots + (unsigned long)row % slots) * stride + 128;
}

/* The rows of level `level` (1 .. L) in wave `wave`: 2 wave - (level - 1)
 * and the one after; level s reads level s - 1's rows from one below the
 * first to one above the second, all written by this wave or the last. */
static long blockRow(long wave, long level, long k) {
  return 2 * wave - (level - 1) + k;
}

/* The columns level `level` computes in tile `tile` of two. */
static void blockColumns(int tile, long levels, long level, long *from,
                         long *to) {
  long low = 1 + tile * 1023, high = low + 1023;
  if (tile == 1)
    low -= levels - level;
  else
    high += levels - level;
  *from = low < 1 ? 1 : low;
  *to = high > BLOCK_N - 1 ? BLOCK_N - 1 : high;
}

static double runBlock(enum BlockMode mode, const float *source,
                       float *destination, long levels, long split, long pad,
                       long handoffRows) {
  double seconds = 0;
  long waves = (BLOCK_N + levels) / 2 + 1;
  long handoffSlots = mode == BLOCK_SPLIT ? handoffRows : 1;
  float *handoff = allocateFilled(handoffSlots * BLOCK_RING_ROW);
  long produced = 0, consumed = 0;
#pragma omp parallel num_threads(2) reduction(max : seconds)
  {
    int thread = omp_get_thread_num();
    long stride = BLOCK_RING_ROW + (mode == BLOCK_SPLIT ? 0 : pad);
    long slots = mode == BLOCK_INPLACE ? 2 * levels + 8 : 4;
    long rings = mode == BLOCK_INPLACE ? 1 : levels;
    float *ring = allocateFilled(rings * slots * stride);
    long first = 1, last = levels;
    if (mode == BLOCK_SPLIT) {
      first = thread == 0 ? 1 : split + 1;
      last = thread == 0 ? split : levels;
    }
#pragma omp barrier
    double start = now();
    for (long wave = 0; wave < waves; wave++) {
      if (mode == BLOCK_SPLIT && thread == 0)
        while (__atomic_load_n(&consumed, __ATOMIC_ACQUIRE) <
               wave + 2 - handoffSlots / 2)
          _mm_pause();
      if (mode == BLOCK_SPLIT && thread == 1)
        while (__atomic_load_n(&produced, __ATOMIC_ACQUIRE) < wave + 1)
          _mm_pause();
      for (long level = first; level <= last; level++) {
        long from = 1, to = BLOCK_N - 1;
        if (mode != BLOCK_SPLIT)
          blockColumns(thread, levels, level, &from, &to);
        for (long k = 0; k < 2; k++) {
          long row = blockRow(wave, level, k);
          if (row < 1 || row >= BLOCK_N - 1)
            continue;
          const float *in[3];
          for (long d = 0; d < 3; d++) {
            long at = row - 1 + d;
            if (level == 1)
              in[d] = source + at * BLOCK_N;
            else if (mode == BLOCK_SPLIT && level == split + 1)
              in[d] =
                  blockRingRow(handoff, BLOCK_RING_ROW, handoffSlots, 0, at);
            else if (mode == BLOCK_INPLACE)
              in[d] = blockRingRow(ring, stride, slots, 0,
                                   at - (level - 1) + 4 * slots);
            else
              in[d] = blockRingRow(ring, stride, slots, level - 1, at);
          }
          float *out;
          if (level == levels)
            out = destination + row * BLOCK_N;
          else if (mode == BLOCK_SPLIT && level == split)
            out = blockRingRow(handoff, BLOCK_RING_ROW, handoffSlots, 0, row);
          else if (mode == BLOCK_INPLACE)
            out = blockRingRow(ring, stride, slots, 0, row - level + 4 * slots);
          else
            out = blockRingRow(ring, stride, slots, level, row);
          updateColumns(in[0], in[1], in[2], out, from, to);
        }
      }
      if (mode == BLOCK_SPLIT)
        __atomic_store_n(thread == 0 ? &produced : &consumed, wave + 1,
                         __ATOMIC_RELEASE);
    }
    seconds = now() - start;
    free(ring);
  }
  free(handoff);
  return seconds;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *what, double cells, double seconds[RUNS],
                   int threads) {
  double rates[RUNS];
  for (int i = 0; i < RUNS; i++)
    rates[i] = cells / seconds[i] * 1e-9;
  qsort(rates, RUNS, sizeof(double), compareDoubles);
  printf("%s: %.2f GCells/s (%.2f-%.2f), %d threads\n", what, rates[RUNS / 2],
         rates[0], rates[RUNS - 1], threads);
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
           seconds, omp_get_max_threads());
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
           seconds, omp_get_max_threads());
    return 0;
  }
  if ((argc >= 4 && argc <= 6) && !strcmp(argv[1], "block")) {
    enum BlockMode mode;
    if (!strcmp(argv[2], "tiles"))
      mode = BLOCK_TILES;
    else if (!strcmp(argv[2], "split"))
      mode = BLOCK_SPLIT;
    else if (!strcmp(argv[2], "inplace"))
      mode = BLOCK_INPLACE;
    else {
      fprintf(stderr,
              "pipeline_model: block takes tiles, split or inplace, "
              "not '%s'\n",
              argv[2]);
      return 2;
    }
    long levels = argument(argv, 3);
    long split = levels / 2, handoffRows = 64, pad = 16;
    if (mode == BLOCK_SPLIT) {
      if (argc > 4)
        split = argument(argv, 4);
      if (argc > 5)
        handoffRows = argument(argv, 5);
    } else if (argc == 5) {
      char *end;
      pad = strtol(argv[4], &end, 10);
      if (*end || pad < 0 || pad > 1024 || pad % 16) {
        fprintf(stderr, "pipeline_model: PAD must be a multiple of 16 from "
                        "0 to 1024\n");
        return 2;
      }
    } else if (argc > 5) {
      fprintf(stderr, "pipeline_model: block %s takes L and PAD only\n",
              argv[2]);
      return 2;
    }
    if (levels < 2 || levels > 512 ||
        (mode == BLOCK_SPLIT &&
         (split >= levels || handoffRows < 8 || handoffRows > 1024))) {
      fprintf(stderr, "pipeline_model: block needs 2 <= L <= 512, and for "
                      "split H < L and a ring of 8 to 1024 rows\n");
      return 2;
    }
    /* The model divides the grid between exactly two threads, and split
     * spins on the other thread: a team of one would never finish. */
    int team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    team = omp_get_num_threads();
    if (team != 2) {
      fprintf(stderr,
              "pipeline_model: block needs a team of two threads, "
              "OpenMP gives %d\n",
              team);
      return 2;
    }
    /* Four lines of floats beyond both ends of each grid: the rows' first
     * and last vectors read a vector to each side. */
    long margin = 64;
    float *source = allocateFilled(BLOCK_N * BLOCK_N + 2 * margin);
    float *destination = allocateFilled(BLOCK_N * BLOCK_N + 2 * margin);
    for (int i = 0; i < RUNS; i++)
      seconds[i] = runBlock(mode, source + margin, destination + margin, levels,
                            split, pad, handoffRows);
    if (mode == BLOCK_SPLIT)
      snprintf(what, sizeof what, "block split L=%ld H=%ld RING=%ld", levels,
               split, handoffRows);
    else
      snprintf(what, sizeof what, "block %s L=%ld PAD=%ld", argv[2], levels,
               pad);
    /* The useful cells: every level updates the grid's inner points once. */
    report(what, (double)(BLOCK_N - 2) * (BLOCK_N - 2) * levels, seconds, 2);
    free(source);
    free(destination);
    return 0;
  }
  fprintf(stderr, "usage: pipeline_model kernel W H REPS\n"
                  "       pipeline_model pipeline W L R ROWS TILE\n"
                  "       pipeline_model block tiles|inplace L [PAD]\n"
                  "       pipeline_model block split L [H [RING]]\n");
  return 2;
}
