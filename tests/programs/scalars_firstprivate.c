/* covers: scalars firstprivate by default in target, explicit firstprivate, map(tofrom: scalar), map(from: scalar), map(to: scalar), defaultmap(tofrom: scalar) */
#include <stdio.h>

int main(void) {
  int n = 100;
  double scale = 2.5;
  long counter = 7;
  int result = 0;
  double acc = 0.0;

  /* n, scale and counter are firstprivate: changes stay on the device */
#pragma omp target map(from: result, acc)
  {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    result = s;
    acc = scale * n;
    counter += 1000; /* private copy */
    n = -1;          /* private copy */
  }
  printf("default firstprivate: result=%d acc=%.1f n=%d counter=%ld\n", result, acc, n, counter);

  /* explicit firstprivate and map(tofrom:) scalar */
  int total = 5;
#pragma omp target firstprivate(counter) map(tofrom: total)
  {
    counter *= 2;
    total += (int)counter;
  }
  printf("tofrom scalar: total=%d counter=%ld\n", total, counter);

  /* map(to:) scalar read on the device, map(from:) written on the device */
  int in = 41, out = 0;
#pragma omp target map(to: in) map(from: out)
  out = in + 1;
  printf("to/from scalars: out=%d\n", out);

  /* scalar reduction target via map(tofrom:) and a parallel loop */
  long sum = 0;
#pragma omp target teams distribute parallel for map(tofrom: sum) reduction(+: sum)
  for (int i = 1; i <= 1000; i++) sum += i;
  printf("mapped reduction: sum=%ld\n", sum);

  /* defaultmap(tofrom: scalar) makes scalars mapped tofrom */
  int flag = 0;
  double d = 1.5;
#pragma omp target defaultmap(tofrom: scalar)
  {
    flag = 1;
    d *= 4.0;
  }
  printf("defaultmap: flag=%d d=%.1f\n", flag, d);

  /* firstprivate scalar used as a loop bound and value in a combined construct */
  int m = 37;
  int arr[64];
  for (int i = 0; i < 64; i++) arr[i] = 0;
#pragma omp target teams distribute parallel for map(tofrom: arr)
  for (int i = 0; i < m; i++) arr[i] = m - i;
  int s2 = 0;
  for (int i = 0; i < 64; i++) s2 += arr[i];
  printf("bound from firstprivate: s=%d arr[0]=%d arr[36]=%d arr[37]=%d\n", s2, arr[0], arr[36], arr[37]);
  int pass = result == 4950 && n == 100 && counter == 7 && total == 19 && out == 42 && sum == 500500 &&
             flag == 1 && d == 6.0 && s2 == 703;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
