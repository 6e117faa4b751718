/*===- stencil_io.h - Output of stencil programs ---------------*- C -*-===*\
 *
 * stencil_write_raw(A, path) writes all of array A to the file `path` as
 * raw bytes in C order (the bytes of A in memory), creating or truncating
 * it, and stops the program with "stencil: error: cannot write ..." when it
 * cannot. A is an array (not a pointer): the whole object is written.
 *
 * In a `#pragma stencil` region, before or after its time loop, the call
 * is part of the region: under `stencilcc --mpi` each rank writes its block
 * at its place in the file (a collective MPI-IO write), so a resident array
 * (`distribute(...) resident`) is written without ever existing whole, and
 * the file holds the same bytes as the serial program's. Elsewhere, and in
 * a program compiled by a plain C compiler, it is the function below.
 * stencilcc puts this header on the include path; for other compilers add
 * -I<prefix>/include/stencil-mlir. docs/MPI.md.
 *
\*===----------------------------------------------------------------------===*/

#ifndef STENCIL_IO_H
#define STENCIL_IO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void stencil_write_raw_bytes(const void *data, size_t bytes,
                                           const char *path) {
  FILE *file = fopen(path, "wb");
  int ok = file && fwrite(data, 1, bytes, file) == bytes;
  int error = errno;
  if (file && fclose(file) != 0 && ok) {
    ok = 0;
    error = errno;
  }
  if (!ok) {
    fflush(stdout);
    fprintf(stderr, "stencil: error: cannot write '%s': %s\n", path,
            strerror(error));
    exit(1);
  }
}

#define stencil_write_raw(array, path)                                         \
  stencil_write_raw_bytes((array), sizeof(array), (path))

#endif /* STENCIL_IO_H */
