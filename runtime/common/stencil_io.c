/*===- stencil_io.c - Output calls of the compiled regions ----------------===*
 *
 * `stencil.write_raw` on one process (stencil_io.h's stencil_write_raw in a
 * region): the header's own write, so a region and plain C write the same
 * bytes and stop with the same message. Linked into every executable
 * stencilcc builds; the MPI form is stencil_mpi_write_raw (runtime/mpi).
 *
 *===----------------------------------------------------------------------===*/

#include "../include/stencil_io.h"

#include <stdint.h>

/* All arguments are 64-bit integers, as the lowering passes them: the
 * array's address, its size in bytes and the address of the file name
 * (null: write nothing). */
void stencil_write_raw_buffer(int64_t data, int64_t bytes, int64_t path) {
  const char *name = (const char *)(intptr_t)path;
  /* A conditional write whose condition does not hold. */
  if (!name)
    return;
  stencil_write_raw_bytes((const void *)(intptr_t)data, (size_t)bytes, name);
}
