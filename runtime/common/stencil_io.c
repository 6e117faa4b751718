/*===- stencil_io.c - Output calls of the compiled regions ----------------===*
 *
 * `stencil.write_raw` on one process (stencil_io.h's stencil_write_raw in a
 * region): the array's bytes to a file, or the program stops with the same
 * message as the header's function. Linked into every executable stencilcc
 * builds; the MPI form is stencil_mpi_write_raw (runtime/mpi).
 *
 *===----------------------------------------------------------------------===*/

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* All arguments are 64-bit integers, as the lowering passes them: the
 * array's address, its size in bytes and the address of the file name
 * (null: write nothing). */
void stencil_write_raw_buffer(int64_t data, int64_t bytes, int64_t path) {
  const char *name = (const char *)(intptr_t)path;
  /* A conditional write whose condition does not hold. */
  if (!name)
    return;
  FILE *file = fopen(name, "wb");
  int ok = file && fwrite((const void *)(intptr_t)data, 1, (size_t)bytes,
                          file) == (size_t)bytes;
  int error = errno;
  if (file && fclose(file) != 0 && ok) {
    ok = 0;
    error = errno;
  }
  if (!ok) {
    fflush(stdout);
    fprintf(stderr, "stencil: error: cannot write '%s': %s\n", name,
            strerror(error));
    exit(1);
  }
}
