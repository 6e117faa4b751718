/*===- stencil_check.c - Run-time checks of the rewritten host C ---------===*
 *
 * The call block that replaces a region whose loop bounds are known only at
 * run time (`i < imax-1`) checks them against the arrays before the region
 * runs (docs/PragmaC.md); a violation ends the program here, before any
 * array is written. Linked into every executable stencilcc builds.
 *
 *===----------------------------------------------------------------------===*/

#include <stdio.h>
#include <stdlib.h>

/* Prints "stencil: error: " and `format` (FILE:LINE: ..., with one %lld for
 * `value`) to stderr and exits with status 1. */
void stencil_bound_error(const char *format, long long value) {
  fflush(stdout);
  fputs("stencil: error: ", stderr);
  fprintf(stderr, format, value);
  fputc('\n', stderr);
  exit(1);
}
