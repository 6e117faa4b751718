/* A helper of more-inputs/main.c in a C file of its own. */
double scale(double x) { return 2 * x; }
