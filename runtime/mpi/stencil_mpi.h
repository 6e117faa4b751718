/*===- stencil_mpi.h - MPI halo-exchange runtime of stencilcc --*- C -*-===*\
|*                                                                          *|
|* The functions that code lowered by `stencil-distribute` and             *|
|* `convert-stencil-to-loops` calls when a program is compiled with        *|
|* `stencilcc --mpi` (docs/MPI.md). Every argument is a 64-bit integer      *|
|* (pointers included) so that the lowered IR passes `index` values and    *|
|* needs no memref descriptors. Axes are numbered outermost first, as in   *|
|* the IR; `rank` is the number of axes (1 to 3), unused sizes are 1.      *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_MPI_H
#define STENCIL_RUNTIME_MPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts a distributed region over arrays of global shape n0 x n1 x n2.
 * Bit d of `distributed` says whether axis d is split across ranks (block
 * decomposition over a Cartesian layout of all ranks); h_d is the widest
 * halo the region exchanges along axis d; [g_lower_d, g_upper_d) is the box
 * of points the region computes. Aborts the job with a message on rank 0
 * when a rank's block is thinner than its halo. */
void stencil_mpi_begin(int64_t rank, int64_t n0, int64_t n1, int64_t n2,
                       int64_t distributed, int64_t h0, int64_t h1, int64_t h2,
                       int64_t g_lower0, int64_t g_lower1, int64_t g_lower2,
                       int64_t g_upper0, int64_t g_upper1, int64_t g_upper2);

/* Before stencil_mpi_begin, once per device (index 0 .. devices - 1, one
 * rank each): the device's share of the outermost axis (stencil-tune-split,
 * seed 002). The region's computed points along that axis are divided in
 * proportion to the shares instead of evenly; the ranks must number
 * `devices`, and only the outermost axis may be distributed. Cleared by
 * stencil_mpi_end. */
void stencil_mpi_split(int64_t devices, int64_t index, int64_t share);

/* This rank's block along `axis`: global indices [lower, upper). */
int64_t stencil_mpi_block_lower(int64_t axis);
int64_t stencil_mpi_block_upper(int64_t axis);

/* The global index of local index 0 along `axis`, and the number of cells
 * this rank stores of an axis of global extent n (block plus halo). */
int64_t stencil_mpi_local_offset(int64_t axis);
int64_t stencil_mpi_local_extent(int64_t axis, int64_t n);

/* How many cells beyond this rank's block on `side` along `axis` are
 * computed points of a neighbour (at most the halo): how far a deep-halo
 * step may compute redundantly there. 0 at the edge of the computed box. */
int64_t stencil_mpi_ring(int64_t axis, int64_t side);

/* 1 when this rank has a neighbour below (side 0) or above (side 1) along
 * `axis`, else 0. */
int64_t stencil_mpi_has_neighbor(int64_t axis, int64_t side);

/* Refreshes `widths[d]` halo cells along each distributed axis of the local
 * array at `data` (local extents s0 x s1 x s2, elements of `elem_bytes`).
 * `begin` posts the messages to and from every neighbour of the process
 * grid, diagonal ones included (so corner cells arrive directly), and
 * returns; `end` waits for them and unpacks. `stencil_mpi_exchange` is
 * both. */
void stencil_mpi_exchange_begin(int64_t data, int64_t elem_bytes, int64_t s0,
                                int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                                int64_t w2);
void stencil_mpi_exchange_end(void);
void stencil_mpi_exchange(int64_t data, int64_t elem_bytes, int64_t s0,
                          int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                          int64_t w2);

/* The same for an array in GPU memory (`data` is a device pointer of the
 * program's GPU runtime): each face is packed on the device into a host
 * buffer (Vulkan: a transfer into a staging buffer; CUDA/HIP: a 3-D
 * memcpy), sent from there, and the received faces are unpacked on the
 * device. The program must link a runtime/gpu runtime. */
void stencil_mpi_exchange_begin_device(int64_t data, int64_t elem_bytes,
                                       int64_t s0, int64_t s1, int64_t s2,
                                       int64_t w0, int64_t w1, int64_t w2);
void stencil_mpi_exchange_device(int64_t data, int64_t elem_bytes, int64_t s0,
                                 int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                                 int64_t w2);

/* Fills the local array at `local` (extents l0 x l1 x l2) with this
 * rank's block plus halo of the global array at `global` (n0 x n1 x n2),
 * which every rank holds at region entry. */
void stencil_mpi_scatter(int64_t global, int64_t local, int64_t elem_bytes,
                         int64_t n0, int64_t n1, int64_t n2, int64_t l0,
                         int64_t l1, int64_t l2);

/* Collects every rank's block of the local array at `local` (extents
 * l0 x l1 x l2) into the global array at `global` (n0 x n1 x n2) on every
 * rank, or on rank 0 only when STENCIL_MPI_GATHER=root. */
void stencil_mpi_gather(int64_t global, int64_t local, int64_t elem_bytes,
                        int64_t n0, int64_t n1, int64_t n2, int64_t l0,
                        int64_t l1, int64_t l2);

/* Fills the local array at `local` (extents l0 x l1 x l2) with zero bytes:
 * the block of a resident array (`distribute(...) resident`), which no
 * global array initializes, starts as C's static arrays do. */
void stencil_mpi_clear(int64_t local, int64_t elem_bytes, int64_t l0,
                       int64_t l1, int64_t l2);

/* Writes the global array whose blocks the ranks hold in their local arrays
 * at `local` (extents l0 x l1 x l2) to the file named by the string at
 * `path`, in C order, each rank its own block (collective, MPI-IO); the
 * file is created or truncated; a null `path` writes nothing. A failure
 * ends the job with a message. */
void stencil_mpi_write_raw(int64_t local, int64_t elem_bytes, int64_t l0,
                           int64_t l1, int64_t l2, int64_t path);

/* Combines the value at `data` (one element of type `type`: 0 float, 1
 * double, 2 int32, 3 int64) with the other ranks' by `kind` (0 sum, 1
 * product, 2 minimum, 3 maximum; fmin/fmax on floats) and leaves the result
 * there on every rank (MPI_Allreduce). */
void stencil_mpi_allreduce(int64_t data, int64_t type, int64_t kind);

/* Ends the region; with STENCIL_MPI_STATS=1 rank 0 prints the exchange
 * counters of all ranks to stderr. */
void stencil_mpi_end(void);

/* The rank of this process among those on its node, for choosing a GPU
 * (the GPU runtimes call it when the program links this runtime). */
int64_t stencil_mpi_local_rank(void);

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_MPI_H */
