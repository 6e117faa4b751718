/*===- physis/physis.h - The Physis stencil API, as stencil-mlir reads it --===*
 *
 * Physis (seed 003; Maruyama, Nomura, Sato, Matsuoka, SC'11) writes a
 * stencil program in C with grid types (PSGrid3DFloat, ...), stencil
 * functions that read grids with PSGridGet and write the current point with
 * PSGridEmit, and PSStencilMap/PSStencilRun to apply them. This header is
 * stencil-mlir's own, written from Physis's documented API
 * (docs/Physis.md): `stencilcc prog.c` compiles a program that includes
 * it. The front end turns each PSStencilRun into a compiled stencil region;
 * what stays in the program (grids, copies, reductions) is implemented
 * here, on the host.
 *
 * Grids are stored with x fastest (Physis's column-major order), with a
 * margin of PHYSIS_MARGIN cells on both sides of each axis that the front
 * end sets from the widest offset the file's stencil functions read: a
 * read that a coordinate test skips in C is computed and discarded by a
 * compiled region, and finds the margin there; periodic reads find their
 * wrapped values there. Copy-in and copy-out move the grid without it.
 *
 * C99 or later (stencilcc's default): variadic macros, inline functions.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_MLIR_PHYSIS_H
#define STENCIL_MLIR_PHYSIS_H

/* Programs written for Physis use these without including them. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PHYSIS_MARGIN
#define PHYSIS_MARGIN 0
#endif

#define PS_MAX_DIM 3

typedef int32_t PSIndex;

/* A box of points: [min, max) along each axis, x first. */
typedef struct __PSDomain {
  PSIndex min[PS_MAX_DIM];
  PSIndex max[PS_MAX_DIM];
} __PSDomain;
typedef __PSDomain PSDomain1D;
typedef __PSDomain PSDomain2D;
typedef __PSDomain PSDomain3D;

static inline __PSDomain __PSDomainNew(int rank, const PSIndex *bounds) {
  __PSDomain d;
  int i;
  for (i = 0; i < PS_MAX_DIM; ++i) {
    d.min[i] = i < rank ? bounds[2 * i] : 0;
    d.max[i] = i < rank ? bounds[2 * i + 1] : 1;
  }
  return d;
}
static inline PSDomain1D PSDomain1DNew(PSIndex minx, PSIndex maxx) {
  PSIndex b[2] = {minx, maxx};
  return __PSDomainNew(1, b);
}
static inline PSDomain2D PSDomain2DNew(PSIndex minx, PSIndex maxx, PSIndex miny,
                                       PSIndex maxy) {
  PSIndex b[4] = {minx, maxx, miny, maxy};
  return __PSDomainNew(2, b);
}
static inline PSDomain3D PSDomain3DNew(PSIndex minx, PSIndex maxx, PSIndex miny,
                                       PSIndex maxy, PSIndex minz,
                                       PSIndex maxz) {
  PSIndex b[6] = {minx, maxx, miny, maxy, minz, maxz};
  return __PSDomainNew(3, b);
}

enum PSReduceOp { PS_MAX, PS_MIN, PS_SUM, PS_PROD };
enum PS_GRID_ATTRIBUTE { PS_GRID_CIRCULAR = 1 };

/* What every grid handle points to first. */
enum __PSElementKind {
  __PS_FLOAT,
  __PS_DOUBLE,
  __PS_INT,
  __PS_LONG,
  __PS_USER
};
typedef struct __PSGrid {
  char *data;              /* with the margin */
  PSIndex dim[PS_MAX_DIM]; /* without it; 1 beyond the rank */
  int rank;
  int margin;
  size_t elem_size;
  enum __PSElementKind kind;
} __PSGrid;

static inline void __PSFail(const char *what) {
  fprintf(stderr, "physis: error: %s\n", what);
  exit(1);
}

static inline void *__PSGridNew(size_t handle_size, int rank,
                                const PSIndex *dims, size_t elem_size,
                                enum __PSElementKind kind) {
  __PSGrid *g = (__PSGrid *)calloc(1, handle_size);
  size_t n = 1;
  int i;
  if (!g)
    __PSFail("cannot allocate a grid");
  g->rank = rank;
  g->margin = PHYSIS_MARGIN;
  g->elem_size = elem_size;
  g->kind = kind;
  for (i = 0; i < PS_MAX_DIM; ++i) {
    size_t stored;
    g->dim[i] = i < rank ? dims[i] : 1;
    if (g->dim[i] < 1)
      __PSFail("a grid needs at least one point along each axis");
    stored = (size_t)g->dim[i] + (i < rank ? 2 * (size_t)g->margin : 0);
    if (n > (size_t)-1 / stored / elem_size)
      __PSFail("a grid too large to address");
    n *= stored;
  }
  /* Physis grids start zeroed. */
  g->data = (char *)calloc(n, elem_size);
  if (!g->data)
    __PSFail("cannot allocate a grid");
  return g;
}

/* The extent of axis `d` with the margin. */
static inline size_t __PSGridStored(const __PSGrid *g, int d) {
  return (size_t)g->dim[d] + (d < g->rank ? 2 * (size_t)g->margin : 0);
}

/* Where the point (0, y, z) of the grid is stored. */
static inline char *__PSGridRow(const __PSGrid *g, PSIndex y, PSIndex z) {
  size_t m = (size_t)g->margin;
  size_t sx = __PSGridStored(g, 0), sy = __PSGridStored(g, 1);
  size_t oy = g->rank > 1 ? m : 0, oz = g->rank > 2 ? m : 0;
  return g->data + (((size_t)z + oz) * sy * sx + ((size_t)y + oy) * sx + m) *
                       g->elem_size;
}

static inline void PSGridCopyin(void *grid, const void *src) {
  __PSGrid *g = (__PSGrid *)grid;
  const char *from = (const char *)src;
  size_t row = (size_t)g->dim[0] * g->elem_size;
  PSIndex y, z;
  for (z = 0; z < g->dim[2]; ++z)
    for (y = 0; y < g->dim[1]; ++y, from += row)
      memcpy(__PSGridRow(g, y, z), from, row);
}

static inline void PSGridCopyout(void *grid, void *dst) {
  __PSGrid *g = (__PSGrid *)grid;
  char *to = (char *)dst;
  size_t row = (size_t)g->dim[0] * g->elem_size;
  PSIndex y, z;
  for (z = 0; z < g->dim[2]; ++z)
    for (y = 0; y < g->dim[1]; ++y, to += row)
      memcpy(to, __PSGridRow(g, y, z), row);
}

static inline void PSGridFree(void *grid) {
  if (!grid)
    return;
  free(((__PSGrid *)grid)->data);
  free(grid);
}

static inline PSIndex PSGridDim(void *grid, int d) {
  return ((__PSGrid *)grid)->dim[d];
}

/* Fails when two grids of one compiled run differ in shape (their sizes
   were not known when the program was compiled). */
static inline void __PSCheckSameShape(const char *where, void *a, void *b) {
  __PSGrid *ga = (__PSGrid *)a, *gb = (__PSGrid *)b;
  int i;
  for (i = 0; i < PS_MAX_DIM; ++i)
    if (ga->dim[i] != gb->dim[i]) {
      fprintf(stderr,
              "physis: error: %s: the grids of one PSStencilRun must have "
              "one shape, but one is %dx%dx%d and another %dx%dx%d\n",
              where, (int)ga->dim[0], (int)ga->dim[1], (int)ga->dim[2],
              (int)gb->dim[0], (int)gb->dim[1], (int)gb->dim[2]);
      exit(1);
    }
}

/* A grid as a compiled run takes it: its storage, once its margin is the
   one the run was compiled for (a grid made in a C file compiled without
   stencilcc's PHYSIS_MARGIN is not). */
static inline void *__PSRunGrid(const char *where, void *grid, int margin) {
  __PSGrid *g = (__PSGrid *)grid;
  if (g->margin != margin) {
    fprintf(stderr,
            "physis: error: %s: this grid was made with a margin of %d "
            "cells, the run expects %d: compile every C file that makes "
            "grids with stencilcc, in one command\n",
            where, g->margin, margin);
    exit(1);
  }
  return g->data;
}

/* Fails when a domain known only at run time reaches outside the grids of
   its run. */
static inline void __PSCheckDomain(const char *where, __PSDomain d, int rank,
                                   long long nx, long long ny, long long nz) {
  long long n[3];
  int i;
  n[0] = nx;
  n[1] = ny;
  n[2] = nz;
  for (i = 0; i < rank; ++i)
    if (d.min[i] < 0 || d.max[i] > n[i]) {
      fprintf(stderr,
              "physis: error: %s: the domain runs from %d to %d along %c, "
              "outside the grid (%lld points)\n",
              where, (int)d.min[i], (int)d.max[i], "xyz"[i], n[i]);
      exit(1);
    }
}

/* Storage a compiled run needs for itself (a red-black sweep's copy). */
static inline void *__PSScratch(size_t bytes) {
  void *p = malloc(bytes);
  if (!p)
    __PSFail("cannot allocate the scratch storage of a run");
  return p;
}
static inline void __PSFreeScratch(void *p) { free(p); }

/* A grid smaller than the others of its run, as the run takes it: in an
   array of the run's stored extents (bx, by, bz), zeros beyond the grid's
   (sx, sy, sz), so that a point has one place in every array of the run.
   __PSUnembed copies it back when the run wrote it, and frees the array. */
static inline void *__PSEmbed(const void *data, size_t elem, size_t sx,
                              size_t sy, size_t sz, size_t bx, size_t by,
                              size_t bz) {
  char *big = (char *)calloc(bx * by * bz, elem);
  size_t y, z;
  if (!big)
    __PSFail("cannot allocate the storage of a run");
  for (z = 0; z < sz; ++z)
    for (y = 0; y < sy; ++y)
      memcpy(big + ((z * by + y) * bx) * elem,
             (const char *)data + ((z * sy + y) * sx) * elem, sx * elem);
  return big;
}
static inline void __PSUnembed(void *data, void *big, int written, size_t elem,
                               size_t sx, size_t sy, size_t sz, size_t bx,
                               size_t by, size_t bz) {
  size_t y, z;
  (void)bz;
  if (written)
    for (z = 0; z < sz; ++z)
      for (y = 0; y < sy; ++y)
        memcpy((char *)data + ((z * sy + y) * sx) * elem,
               (char *)big + ((z * by + y) * bx) * elem, sx * elem);
  free(big);
}

/* Grid types. A handle's members give PSGridGet and PSGridEmit their
   element type in C; stencilcc compiles the stencil functions that use
   them, so the members are never called. */
#define __PS_GRID_MEMBERS(type, ...)                                           \
  __PSGrid __ps_base;                                                          \
  type (*__ps_get)(__VA_ARGS__);                                               \
  type (*__ps_get_periodic)(__VA_ARGS__);                                      \
  void (*__ps_set)(__VA_ARGS__, type);                                         \
  void (*__ps_emit)(type)

#define __PS_DECLARE_GRID1D(name, type, kind)                                  \
  typedef struct __PSGrid1D##name {                                            \
    __PS_GRID_MEMBERS(type, PSIndex);                                          \
  } * PSGrid1D##name;                                                          \
  static inline PSGrid1D##name PSGrid1D##name##New(PSIndex nx, ...) {          \
    PSIndex d[1] = {nx};                                                       \
    return (PSGrid1D##name)__PSGridNew(sizeof(struct __PSGrid1D##name), 1, d,  \
                                       sizeof(type), kind);                    \
  }
#define __PS_DECLARE_GRID2D(name, type, kind)                                  \
  typedef struct __PSGrid2D##name {                                            \
    __PS_GRID_MEMBERS(type, PSIndex, PSIndex);                                 \
  } * PSGrid2D##name;                                                          \
  static inline PSGrid2D##name PSGrid2D##name##New(PSIndex nx, PSIndex ny,     \
                                                   ...) {                      \
    PSIndex d[2] = {nx, ny};                                                   \
    return (PSGrid2D##name)__PSGridNew(sizeof(struct __PSGrid2D##name), 2, d,  \
                                       sizeof(type), kind);                    \
  }
#define __PS_DECLARE_GRID3D(name, type, kind)                                  \
  typedef struct __PSGrid3D##name {                                            \
    __PS_GRID_MEMBERS(type, PSIndex, PSIndex, PSIndex);                        \
  } * PSGrid3D##name;                                                          \
  static inline PSGrid3D##name PSGrid3D##name##New(PSIndex nx, PSIndex ny,     \
                                                   PSIndex nz, ...) {          \
    PSIndex d[3] = {nx, ny, nz};                                               \
    return (PSGrid3D##name)__PSGridNew(sizeof(struct __PSGrid3D##name), 3, d,  \
                                       sizeof(type), kind);                    \
  }

__PS_DECLARE_GRID1D(Float, float, __PS_FLOAT)
__PS_DECLARE_GRID1D(Double, double, __PS_DOUBLE)
__PS_DECLARE_GRID1D(Int, int, __PS_INT)
__PS_DECLARE_GRID1D(Long, long, __PS_LONG)
__PS_DECLARE_GRID2D(Float, float, __PS_FLOAT)
__PS_DECLARE_GRID2D(Double, double, __PS_DOUBLE)
__PS_DECLARE_GRID2D(Int, int, __PS_INT)
__PS_DECLARE_GRID2D(Long, long, __PS_LONG)
__PS_DECLARE_GRID3D(Float, float, __PS_FLOAT)
__PS_DECLARE_GRID3D(Double, double, __PS_DOUBLE)
__PS_DECLARE_GRID3D(Int, int, __PS_INT)
__PS_DECLARE_GRID3D(Long, long, __PS_LONG)

/* Grids of a user's struct type (seed 003's user-defined point types). */
#define DeclareGrid1D(name, type) __PS_DECLARE_GRID1D(name, type, __PS_USER)
#define DeclareGrid2D(name, type) __PS_DECLARE_GRID2D(name, type, __PS_USER)
#define DeclareGrid3D(name, type) __PS_DECLARE_GRID3D(name, type, __PS_USER)

/* Point access in stencil functions (stencilcc rejects it elsewhere). */
#define PSGridGet(g, ...) ((g)->__ps_get(__VA_ARGS__))
#define PSGridGetPeriodic(g, ...) ((g)->__ps_get_periodic(__VA_ARGS__))
#define PSGridEmit(g, v) ((g)->__ps_emit(v))
#define PSGridSet(g, ...) ((g)->__ps_set(__VA_ARGS__))
/* One member of a point of a struct grid: PSGridEmitUtype(g.q, v) or
   PSGridEmitUtype(g.p[1], v); stencilcc reads the member path as text. */
#define PSGridEmitUtype(member, v) __PSGridEmitUtype(#member, (v))
static inline void __PSGridEmitUtype(const char *member, ...) { (void)member; }

/* A struct grid as a compiled run takes it: one array per scalar of the
   struct (seed 003's structure of arrays), from the points stored whole
   (as PSGridCopyin gives them), and back. */
static inline void *__PSToComponents(const void *points, size_t count,
                                     int components, size_t scalar) {
  char *arrays = (char *)malloc(count * components * scalar);
  const char *from = (const char *)points;
  size_t i;
  int c;
  if (!arrays)
    __PSFail("cannot allocate the components of a struct grid");
  for (i = 0; i < count; ++i)
    for (c = 0; c < components; ++c, from += scalar)
      memcpy(arrays + (c * count + i) * scalar, from, scalar);
  return arrays;
}
static inline void __PSFromComponents(void *points, void *arrays, size_t count,
                                      int components, size_t scalar) {
  char *to = (char *)points;
  size_t i;
  int c;
  for (i = 0; i < count; ++i)
    for (c = 0; c < components; ++c, to += scalar)
      memcpy(to, (char *)arrays + (c * count + i) * scalar, scalar);
  free(arrays);
}

/* Runtime set-up: nothing to do on one process; the arguments are not
   read (Physis programs pass their largest grid size). */
static inline void PSInit(int *argc, char ***argv, int grid_num_dims, ...) {
  (void)argc;
  (void)argv;
  (void)grid_num_dims;
}
static inline void PSFinalize(void) {}

/* A stencil function bound to a domain and arguments. stencilcc replaces
   each PSStencilRun of them by a compiled region; reaching these means a
   run it did not compile. */
typedef struct __PSStencil {
  int __ps_unused;
} PSStencil;
static inline PSStencil __PSStencilMap(void *kernel, ...) {
  PSStencil s = {0};
  (void)kernel;
  return s;
}
#define PSStencilMap(kernel, ...) __PSStencilMap((void *)(kernel), __VA_ARGS__)
#define PSStencilMapRedBlack(kernel, ...)                                      \
  __PSStencilMapRedBlack((void *)(kernel), __VA_ARGS__)
#define PSStencilMapRed(kernel, ...)                                           \
  __PSStencilMapRed((void *)(kernel), __VA_ARGS__)
#define PSStencilMapBlack(kernel, ...)                                         \
  __PSStencilMapBlack((void *)(kernel), __VA_ARGS__)
static inline PSStencil __PSStencilMapRedBlack(void *kernel, ...) {
  return __PSStencilMap(kernel);
}
static inline PSStencil __PSStencilMapRed(void *kernel, ...) {
  return __PSStencilMap(kernel);
}
static inline PSStencil __PSStencilMapBlack(void *kernel, ...) {
  return __PSStencilMap(kernel);
}
static inline void PSStencilRun(PSStencil first, ...) {
  (void)first;
  __PSFail("PSStencilRun reached without being compiled: build the program "
           "with stencilcc, which compiles the runs of the file that "
           "includes physis/physis.h directly (or is given "
           "--frontend=physis)");
}

/* PSReduce(&v, op, grid): the whole grid folded in storage order from its
   first point, as Physis's reference does, on the host. */
#define __PS_REDUCE(type, out, op, g)                                          \
  do {                                                                         \
    type acc = *(const type *)__PSGridRow(g, 0, 0);                            \
    PSIndex x, y, z;                                                           \
    for (z = 0; z < g->dim[2]; ++z)                                            \
      for (y = 0; y < g->dim[1]; ++y) {                                        \
        const type *row = (const type *)__PSGridRow(g, y, z);                  \
        for (x = (y == 0 && z == 0) ? 1 : 0; x < g->dim[0]; ++x) {             \
          type e = row[x];                                                     \
          switch (op) {                                                        \
          case PS_MAX:                                                         \
            acc = e > acc ? e : acc;                                           \
            break;                                                             \
          case PS_MIN:                                                         \
            acc = e < acc ? e : acc;                                           \
            break;                                                             \
          case PS_SUM:                                                         \
            acc += e;                                                          \
            break;                                                             \
          case PS_PROD:                                                        \
            acc *= e;                                                          \
            break;                                                             \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    *(type *)(out) = acc;                                                      \
  } while (0)

static inline void PSReduce(void *out, ...) {
  va_list ap;
  int op;
  __PSGrid *g;
  va_start(ap, out);
  op = va_arg(ap, int);
  g = va_arg(ap, __PSGrid *);
  va_end(ap);
  if (op < PS_MAX || op > PS_PROD)
    __PSFail("PSReduce: unknown operation");
  switch (g->kind) {
  case __PS_FLOAT:
    __PS_REDUCE(float, out, op, g);
    break;
  case __PS_DOUBLE:
    __PS_REDUCE(double, out, op, g);
    break;
  case __PS_INT:
    __PS_REDUCE(int, out, op, g);
    break;
  case __PS_LONG:
    __PS_REDUCE(long, out, op, g);
    break;
  case __PS_USER:
    __PSFail("PSReduce: grids of a struct type cannot be reduced");
  }
}

#endif /* STENCIL_MLIR_PHYSIS_H */
