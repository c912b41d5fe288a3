/* covers: target, parallel, master, masked, team-shared locals updated in loops (held in registers and written through), for/while/do-while, postfix and compound updates, shadowing, struct members of the same name, barriers and calls that keep a variable in memory */
#include <omp.h>
#include <stdio.h>

struct counters {
  int count;
  double total;
};

#pragma omp declare target
static int twice(int v) { return 2 * v; }
/* a function that synchronizes: a loop that calls it keeps its shared variables in memory */
static void meet(void) {
#pragma omp barrier
}
#pragma omp end declare target

int main(void) {
  const int reps = 1000;
  int ok = 1;
  int out[16];
  double dout[4];

  /* 1. master updates in a for loop; the value after the loop is read by every thread */
#pragma omp target map(from: out[0:4]) thread_limit(64)
  {
    int count = 0, seen_wrong = 0;
    long post_sum = 0;
#pragma omp parallel num_threads(64)
    {
      for (int j = 0; j < reps; j++) {
#pragma omp master
        {
          post_sum += count++;  /* postfix: the old value */
          count += 2;
        }
      }
#pragma omp barrier
      if (count != 3 * reps) {
#pragma omp atomic
        seen_wrong++;
      }
    }
    out[0] = count;
    out[1] = seen_wrong;
    out[2] = (int)(post_sum % 100000);
    out[3] = 0;
  }
  /* post_sum = sum over j of 3j = 3 * reps * (reps - 1) / 2 */
  printf("master for: count %d, threads that saw another value %d, postfix sum %d\n", out[0], out[1], out[2]);
  ok &= out[0] == 3 * reps && out[1] == 0 && out[2] == (int)((3L * reps * (reps - 1) / 2) % 100000);

  /* 2. masked, while and do-while loops, prefix and compound forms, a call to a pure function */
#pragma omp target map(from: out[0:4], dout[0:2]) thread_limit(32)
  {
    int a = 0, b = 100;
    double x = 1.0;
#pragma omp parallel num_threads(32)
    {
      int j = 0;
      while (j < reps) {
#pragma omp masked filter(0)
        {
          ++a;
          b -= twice(1);
          x *= 1.0009765625; /* 1 + 2^-10: exact until it rounds, the same on every compiler */
        }
        j++;
      }
      int k = 0;
      do {
#pragma omp masked filter(0)
        {
          a = a + 1;
          --b;
        }
        k++;
      } while (k < 10);
    }
    out[0] = a;
    out[1] = b;
    dout[0] = x;
  }
  printf("masked while/do-while: a %d, b %d, x %.6f\n", out[0], out[1], dout[0]);
  ok &= out[0] == reps + 10 && out[1] == 100 - 2 * reps - 10;

  /* 3. a name declared again inside the loop, and a struct member of the same name */
#pragma omp target map(from: out[0:4]) thread_limit(32)
  {
    int count = 5;
    struct counters c = {0, 0.0};
#pragma omp parallel num_threads(32)
    {
      for (int j = 0; j < 20; j++) {
#pragma omp master
        {
          count++;
          c.count += 1;
          {
            int count = 1000; /* another variable */
            count++;
            c.total += count;
          }
        }
      }
    }
    out[0] = count;
    out[1] = c.count;
    out[2] = (int)c.total;
  }
  printf("shadowing: count %d, member %d, inner total %d\n", out[0], out[1], out[2]);
  ok &= out[0] == 25 && out[1] == 20 && out[2] == 20 * 1001;

  /* 4. loops with a barrier (directly or in a called function): other threads read the
     variable in the loop, after the barrier, and must see every update */
#pragma omp target map(from: out[0:4]) thread_limit(64)
  {
    int step = 0, bad = 0;
#pragma omp parallel num_threads(64)
    {
      for (int j = 0; j < 100; j++) {
#pragma omp master
        step++;
#pragma omp barrier
        if (step != j + 1) {
#pragma omp atomic
          bad++;
        }
#pragma omp barrier
      }
      for (int j = 0; j < 100; j++) {
#pragma omp master
        step += 2;
        meet();
        if (step != 100 + 2 * (j + 1)) {
#pragma omp atomic
          bad++;
        }
        meet();
      }
    }
    out[0] = step;
    out[1] = bad;
  }
  printf("loops with barriers: step %d, stale reads %d\n", out[0], out[1]);
  ok &= out[0] == 300 && out[1] == 0;

  /* 5. the address taken: the variable stays in memory, updates through the pointer count */
#pragma omp target map(from: out[0:4]) thread_limit(32)
  {
    int total = 0;
    int *p = &total;
#pragma omp parallel num_threads(32)
    {
      for (int j = 0; j < 50; j++) {
#pragma omp master
        {
          total++;
          (*p)++;
        }
      }
    }
    out[0] = total;
  }
  printf("address taken: total %d\n", out[0]);
  ok &= out[0] == 100;

  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
