// expect-error: 5:48: 'lastprivate' on a 'loop' construct may list only loop iteration variables
int main(void) {
  int last = 0;
  /* OpenMP 5.0: a lastprivate item of loop (combined forms too) is a loop iteration variable */
  #pragma omp target parallel loop lastprivate(last) map(tofrom: last)
  for (int i = 0; i < 300; i++) last = i;
  return last;
}
