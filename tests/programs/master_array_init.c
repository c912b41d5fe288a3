/* covers: master variables with initializers shared with parallel regions (they live on the soft stack): int and double arrays with initializer lists, a 2-D array, a char array sized by its string literal, a const array, structs initialized by a list and by another struct, an array named like a C++ keyword, a pointer into such an array; in teams distribute serial code, in a plain target region and in a declare target function */
#include <stdio.h>
#include <omp.h>

struct pt { int x, y; };

#pragma omp declare target
int helper(int base) {
  int acc[4] = {base, 0, 0, 0};
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    if (t > 0 && t < 4) {
#pragma omp atomic
      acc[t] += t;
    }
  }
  return acc[0] + acc[1] + acc[2] + acc[3];
}
#pragma omp end declare target

int main(void) {
  int out[4][3];
  double dout[4];
#pragma omp target teams distribute map(from: out, dout) num_teams(4)
  for (int t = 0; t < 4; t++) {
    int counts[3] = {0, 0, 0};
    double w[2] = {1.5, t};
    char name[] = "abc";
    int grid[2][2] = {{1, 2}, {3, 4}};
#pragma omp parallel num_threads(6)
    {
      int k = omp_get_thread_num() % 3;
#pragma omp atomic
      counts[k] += 1 + grid[1][1] - 4 + (name[1] - 'b') + (int)sizeof name - 4;
#pragma omp master
      w[1] += 1.0;
    }
    for (int k = 0; k < 3; k++) out[t][k] = counts[k];
    dout[t] = w[0] + w[1];
  }

  int res[3] = {0, 0, 0};
#pragma omp target map(tofrom: res)
  {
    const double table[3] = {0.5, 1.5, 2.5};
    struct pt p = {1, 2};
    struct pt q = p;
    int new[2] = {10, 20};
    int *ptr = &new[0];
    char msg[] = "hi!";
    int sum = 0;
#pragma omp parallel num_threads(3) reduction(+: sum)
    {
      int t = omp_get_thread_num();
      sum += (int)(table[t] * 2) + p.x + q.y + new[t % 2] + ptr[1] + msg[2];
    }
    res[0] = sum;
    res[1] = helper(100);
    res[2] = (int)sizeof msg;
  }

  int ok = res[0] == 3 * (3 + 20 + '!') + (1 + 3 + 5) + 10 + 20 + 10 && res[1] == 106 && res[2] == 4;
  for (int t = 0; t < 4; t++) {
    printf("team %d: counts %d %d %d, w %.1f\n", t, out[t][0], out[t][1], out[t][2], dout[t]);
    ok = ok && out[t][0] == 2 && out[t][1] == 2 && out[t][2] == 2 && dout[t] == 2.5 + t;
  }
  printf("res %d %d %d\n%s\n", res[0], res[1], res[2], ok ? "PASS" : "FAIL");
  return 0;
}
