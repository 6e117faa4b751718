/*===- stencil_profile.c - Time spent in each region, for --autotune ------===*
 *
 * `stencilcc --autotune` builds its candidates with every region function
 * wrapped in stencil_profile_begin/end (lib/Driver/Autotune.cpp). The time
 * each region spends, summed over its calls, is written at exit to the file
 * the STENCIL_PROFILE environment variable names, one line per region:
 *   NAME SECONDS CALLS
 * so the tuner times the regions, not the program's set-up and output.
 * Executables built without --autotune never call these. The table is not
 * locked: the rewritten C calls its regions from one thread.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct stencil_profile_entry {
  const char *name;
  double seconds;
  long long calls;
};

static struct stencil_profile_entry *entries;
static int entry_count;

static void write_profile(void) {
  const char *path = getenv("STENCIL_PROFILE");
  if (!path || !*path)
    return;
  FILE *file = fopen(path, "w");
  if (!file) {
    perror(path);
    return;
  }
  for (int i = 0; i < entry_count; ++i)
    if (entries[i].name)
      fprintf(file, "%s %.9e %lld\n", entries[i].name, entries[i].seconds,
              entries[i].calls);
  fclose(file);
}

double stencil_profile_begin(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* Region `index` (0, 1, ... in the module), named `name`, ran from
 * `start` (stencil_profile_begin's value) until now. */
void stencil_profile_end(int index, const char *name, double start) {
  double seconds = stencil_profile_begin() - start;
  if (index < 0)
    return;
  if (index >= entry_count) {
    struct stencil_profile_entry *grown =
        realloc(entries, (size_t)(index + 1) * sizeof *entries);
    if (!grown)
      return;
    for (int i = entry_count; i <= index; ++i)
      grown[i] = (struct stencil_profile_entry){0, 0.0, 0};
    if (!entries)
      atexit(write_profile);
    entries = grown;
    entry_count = index + 1;
  }
  entries[index].name = name;
  entries[index].seconds += seconds;
  entries[index].calls += 1;
}
