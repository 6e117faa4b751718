/* Starts the OpenMP runtime when a stencilcc executable loads.
 *
 * The lowered regions run their sweeps in OpenMP parallel regions, which
 * MLIR lowers to libomp's __kmpc_* entry points. libomp initializes itself
 * lazily, at the first parallel region: it calibrates its timestamp counter
 * (a busy wait), reads the machine's topology and sets up affinity. On the
 * machines we measured that took 1.5-1.9 ms, against 0.1 ms for the first
 * parallel region of gcc's libgomp, and it fell inside the first call of a
 * region, i.e. inside the time a C program measures around it.
 *
 * This constructor does that initialization before main. It creates no
 * thread: the first parallel region still starts the team, as libgomp's
 * does. The program's total run time does not change. The driver links this
 * archive member with `-u stencil_openmp_start` (nothing else refers to it).
 */

/* The OpenMP API function, declared here so that this file compiles without
 * an OpenMP-enabled compiler; the executable links libomp. */
int omp_get_max_threads(void);

__attribute__((constructor)) void stencil_openmp_start(void) {
  /* Any API call initializes the runtime; this one has no side effect. */
  (void)omp_get_max_threads();
}
