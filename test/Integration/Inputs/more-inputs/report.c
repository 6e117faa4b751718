/* A helper of more-inputs/main.c, given to stencilcc as an object. */
#include <stdio.h>

void report(const char *name, double value) {
  printf("%s %.17g\n", name, value);
}
