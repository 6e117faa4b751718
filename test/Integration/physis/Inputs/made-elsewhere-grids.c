/* The grid maker of made-elsewhere.c. */
#include "physis/physis.h"

PSGrid1DFloat make(int n) { return PSGrid1DFloatNew(n); }
