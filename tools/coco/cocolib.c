#include <stdio.h>
#include <stdlib.h>

/* A shared library over COCO's bbob suite for other languages (ctypes):
 * open one problem, evaluate it, read f_opt. Not thread-safe: one process,
 * one problem at a time. */

static coco_suite_t *lib_suite;
static coco_problem_t *lib_problem;

/* cocolib_open selects function f (1-24) in dimension dim, instance inst;
 * it returns 0, or -1 when COCO has no such problem. */
int cocolib_open(int f, int dim, int inst) {
  char inst_opt[40], opts[200];
  coco_set_log_level("error");
  if (lib_suite != NULL) coco_suite_free(lib_suite);
  sprintf(inst_opt, "instances: %d", inst);
  sprintf(opts, "function_indices: %d dimensions: %d", f, dim);
  lib_suite = coco_suite("bbob", inst_opt, opts);
  lib_problem = coco_suite_get_next_problem(lib_suite, NULL);
  return lib_problem == NULL ? -1 : 0;
}

double cocolib_eval(const double *x) {
  double y;
  coco_evaluate_function(lib_problem, x, &y);
  return y;
}

double cocolib_fopt(void) { return lib_problem->best_value[0]; }
