#include <stdio.h>
#include <stdlib.h>

/* reads lines "f dim inst x1 ... xn" and prints f(x) with %.17g */
int main(void) {
  coco_set_log_level("error");
  unsigned long f, d, inst;
  double x[64], y;
  while (scanf("%lu %lu %lu", &f, &d, &inst) == 3) {
    for (unsigned long i = 0; i < d; i++) scanf("%lf", &x[i]);
    char opts[100];
    sprintf(opts, "function_indices: %lu dimensions: %lu instance_indices: %lu", f, d, inst);
    coco_suite_t *suite = coco_suite("bbob", "instances: 1-200", opts);
    coco_problem_t *p = coco_suite_get_next_problem(suite, NULL);
    coco_evaluate_function(p, x, &y);
    printf("%.17g %.17g\n", y, p->best_value[0]);
    coco_suite_free(suite);
  }
  return 0;
}
