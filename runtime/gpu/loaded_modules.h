/*===- loaded_modules.h - Kernel modules unloaded before the driver's exit ===*
 *
 * The host code loads its kernel modules in a global constructor and
 * unloads them in a global destructor (gpu-to-llvm's embedded binaries).
 * Destructors of the executable run after every atexit handler, and GPU
 * drivers tear themselves down in an atexit handler they register when
 * they initialize: seen on an NVIDIA H200 with driver 580, where
 * cuModuleUnload failed and vkDestroyPipeline crashed at exit. Each runtime
 * therefore notes the modules it loaded here, and the first note registers
 * unloadModulesAtExit with atexit: after a module loaded, the driver is up
 * and its handler registered, so ours runs before it. The destructor's
 * mgpuModuleUnload then finds nothing left to unload.
 *
 * After an error the runtime sets exitingOnError before it calls exit(1):
 * the handler then leaves the modules to the process's end, since an
 * unload after a lost device or a sticky CUDA error would fail again (or
 * crash) and print a second error after the real one.
 *
 * A runtime includes this header once and defines
 * `static void unloadModule(void *module)`.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_GPU_LOADED_MODULES_H
#define STENCIL_RUNTIME_GPU_LOADED_MODULES_H

#include <stdio.h>
#include <stdlib.h>

/* A program has one module per kernel at most; a few if several programs'
 * objects are linked. */
enum { kMaxLoadedModules = 1024 };
static void *loadedModules[kMaxLoadedModules];
static int loadedModuleCount;

static int exitingOnError;

static void unloadModule(void *module);

static void unloadModulesAtExit(void) {
  if (exitingOnError)
    return;
  while (loadedModuleCount > 0)
    unloadModule(loadedModules[--loadedModuleCount]);
}

/* Returns `module`, a module just loaded, after noting it. */
static void *rememberModule(void *module, const char *backend) {
  static int registered;
  if (!registered) {
    atexit(unloadModulesAtExit);
    registered = 1;
  }
  if (loadedModuleCount == kMaxLoadedModules) {
    fprintf(stderr, "stencil-gpu (%s): error: more than %d kernel modules\n",
            backend, kMaxLoadedModules);
    exit(1);
  }
  loadedModules[loadedModuleCount++] = module;
  return module;
}

/* Removes `module`; false if it was not loaded or was unloaded at exit. */
static int forgetModule(void *module) {
  for (int i = 0; i < loadedModuleCount; ++i) {
    if (loadedModules[i] != module)
      continue;
    loadedModules[i] = loadedModules[--loadedModuleCount];
    return 1;
  }
  return 0;
}

#endif /* STENCIL_RUNTIME_GPU_LOADED_MODULES_H */
