#include <stdio.h>
#include <stdlib.h>

/* reads: "P f dim inst" start; "X x1..xn" evaluate; "R" restart; "E" end problem */
int main(int argc, char **argv) {
  coco_set_log_level("error");
  char opt[300];
  sprintf(opt, "outer_folder: %s result_folder: coco algorithm_name: mmaes algorithm_info: \"test\"", argv[1]);
  coco_observer_t *obs = coco_observer("bbob", opt);
  char cmd[4];
  coco_problem_t *p = NULL, *op = NULL; coco_suite_t *suite = NULL;
  unsigned long f, d, inst; double x[64], y;
  while (scanf("%3s", cmd) == 1) {
    if (cmd[0] == 'P') {
      scanf("%lu %lu %lu", &f, &d, &inst);
      char o[200]; sprintf(o, "function_indices: %lu dimensions: %lu instance_indices: %lu", f, d, inst);
      suite = coco_suite("bbob", "instances: 1-200", o);
      p = coco_suite_get_next_problem(suite, NULL);
      op = coco_problem_add_observer(p, obs);
    } else if (cmd[0] == 'X') {
      for (unsigned long i = 0; i < d; i++) scanf("%lf", &x[i]);
      coco_evaluate_function(op, x, &y);
    } else if (cmd[0] == 'R') {
      coco_observer_signal_restart(obs, op);
    } else if (cmd[0] == 'E') {
      coco_problem_remove_observer(op, obs);
      coco_suite_free(suite);
    }
  }
  coco_observer_free(obs);
  return 0;
}
