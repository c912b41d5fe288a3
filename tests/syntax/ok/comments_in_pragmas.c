/* comments inside and after directives, odd spacing, tabs, commas between clauses, empty clause separators, pragmas at unusual indentation */
#include <stdio.h>

int main(void) {
  int a[128];
  long s = 0;
  for (int i = 0; i < 128; i++) a[i] = i;

#pragma omp target teams distribute parallel for /* block comment */ map(tofrom: a) // line comment
  for (int i = 0; i < 128; i++) a[i] += 1;

#pragma omp target map(tofrom: a, s) /* multi-word
                                       block comment spanning lines */
  {
#pragma omp parallel for reduction(+: s), schedule(static), num_threads(8)
    for (int i = 0; i < 128; i++) s += a[i];
  }

#pragma omp target teams distribute parallel for map(tofrom:a) num_teams( 4 ) thread_limit (32)
  for (int i = 0; i < 128; i++) a[i] *= 2;

#pragma omp target   teams   distribute   parallel   for   map (  tofrom  :  a [ 0 : 128 ] )
  for (int i = 0; i < 128; i++) a[i] -= 1;

    #pragma omp target map(tofrom: s)
        s += 1;

#pragma omp target map(/* what */ tofrom /* how */ : /* which */ a)
  a[0] = 0;

#pragma omp target data map(tofrom: a) // the data region
  { // body
#pragma omp target // no clauses
    a[1] = 1;
  }
  printf("%ld %d\n", s, a[127]);
  return 0;
}
