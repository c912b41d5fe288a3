// expect-error: 5:56: 'lastprivate' on a 'loop' construct may list only loop iteration variables, and 'last' is not one
int main(void) {
  int a[16], last = -1;
  for (int i = 0; i < 16; i++) a[i] = i;
  #pragma omp target teams loop map(to: a) lastprivate(last)
  for (int i = 0; i < 16; i++) last = a[i];
  return last;
}
