/* covers: clause and modifier words as names of the program in clause forms with and without
   modifiers: linear(val:2), reduction(+: present), depend(in: to), map(tofrom: always, close),
   map(always, close) (no map type), if(parallel: target), if(target ? 1 : 0), lastprivate
   (conditional: conditional), linear(ref, val: 2) */
#include <stdio.h>

int main(void) {
  int val = 0, present = 0, to = 1, always = 2, close = 3, target = 1, conditional = -1;
  int ref = 0;
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target parallel for linear(val:2) map(tofrom: val)
  for (int i = 0; i < 8; i++) val += 2;
#pragma omp target teams distribute parallel for reduction(+: present) map(tofrom: present)
  for (int i = 0; i < 64; i++) present += a[i];
#pragma omp target map(tofrom: always, close) map(to: to) depend(in: to)
  {
    always += to;
    close += to;
  }
#pragma omp target map(always, close)
  {
    always *= 10;
    close *= 10;
  }
  int in = 0;
#pragma omp target parallel for map(tofrom: in) if(parallel: target) reduction(+: in) num_threads(4)
  for (int i = 0; i < 4; i++) in += 1;
  int hits = 0;
#pragma omp target if(target ? 1 : 0) map(tofrom: hits)
  hits = 5;
#pragma omp target parallel for lastprivate(conditional: conditional) map(tofrom: conditional)
  for (int i = 0; i < 64; i++)
    if (i % 10 == 3) conditional = i;
#pragma omp target map(tofrom: ref, val)
#pragma omp simd linear(ref, val: 2)
  for (int i = 0; i < 4; i++) { ref += 2; val += 2; }
  printf("val %d present %d always %d close %d in %d hits %d conditional %d ref %d\n", val, present, always, close, in,
         hits, conditional, ref);
  return 0;
}
