/*===- stencil_check.c - Run-time checks of the rewritten host C ---------===*
 *
 * The call block that replaces a region whose loop bounds are known only at
 * run time (`i < imax-1`) checks them against the arrays before the region
 * runs (docs/PragmaC.md); a violation ends the program here, before any
 * array is written. Linked into every executable stencilcc builds.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L /* posix_memalign */

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

/* The heap of the lowered regions (finalize-memref-to-llvm with
 * use-generic-functions): malloc's, but a failure ends the program. */
static void allocation_error(size_t size) {
  fflush(stdout);
  fprintf(stderr,
          "stencil: error: cannot allocate %zu bytes for a buffer of a "
          "stencil region\n",
          size);
  exit(1);
}

void *_mlir_memref_to_llvm_alloc(size_t size) {
  void *pointer = malloc(size);
  if (!pointer && size != 0)
    allocation_error(size);
  return pointer;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  void *pointer = NULL;
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  if (posix_memalign(&pointer, alignment, size) != 0 && size != 0)
    allocation_error(size);
  return pointer;
}

void _mlir_memref_to_llvm_free(void *pointer) { free(pointer); }
