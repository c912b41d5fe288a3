/* deep nesting on the device: target > teams > distribute > parallel > for/sections/single/critical/atomic/master, nested parallel, nested data regions */
#include <omp.h>
#include <stdio.h>

#define N 64

int main(void) {
  static double grid[N][N];
  double total = 0.0;
  int events = 0;

#pragma omp target data map(tofrom: grid)
  {
#pragma omp target data map(tofrom: total, events)
    {
#pragma omp target
#pragma omp teams num_teams(8) thread_limit(64)
      {
#pragma omp distribute
        for (int r = 0; r < N; r++) {
          double rowsum = 0.0;
#pragma omp parallel shared(rowsum)
          {
#pragma omp for reduction(+: rowsum)
            for (int c = 0; c < N; c++) {
              grid[r][c] = r * c;
              rowsum += grid[r][c];
            }
#pragma omp sections
            {
#pragma omp section
              {
#pragma omp atomic
                events++;
              }
#pragma omp section
              {
#pragma omp critical(ev)
                events += 1;
              }
            }
#pragma omp single
            {
#pragma omp atomic
              total += rowsum;
            }
#pragma omp master
            {
#pragma omp parallel num_threads(2)
              {
#pragma omp for
                for (int k = 0; k < 4; k++) {
#pragma omp atomic
                  events += 0;
                }
              }
            }
#pragma omp barrier
          }
        }
      }
    }
  }
  printf("%f %d\n", total, events);
  return 0;
}
