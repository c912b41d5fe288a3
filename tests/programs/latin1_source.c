/* covers: a source file in Latin-1, not UTF-8 (old codes are full of them): bytes above 127 in
   comments (café, naïve, © 1998), in a string literal and a character constant used in
   device code; they pass through ompgpu unchanged, as gcc and clang take them */
#include <stdio.h>

#pragma omp declare target
/* résumé of the bytes of a string */
static int byte_sum(const char *s) {
  int sum = 0;
  for (int i = 0; s[i]; i++) sum += (unsigned char)s[i];
  return sum;
}
#pragma omp end declare target

int main(void) {
  int sums[4] = {0, 0, 0, 0};
  /* À la carte: the target region's own bytes */
#pragma omp target map(tofrom: sums) /* été */
  {
    const char word[] = "café";
    sums[0] = byte_sum(word);
    sums[1] = (unsigned char)'ü';
    sums[2] = (unsigned char)"à bientôt"[0];
    int total = 0;
#pragma omp parallel for reduction(+: total) num_threads(4) /* déjà vu */
    for (int i = 0; i < 4; i++) total += byte_sum("ÿ");
    sums[3] = total;
  }
  const char host_word[] = "café";
  printf("device %d %d %d %d host %d\n", sums[0], sums[1], sums[2], sums[3], byte_sum(host_word));
  return 0;
}
