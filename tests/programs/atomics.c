/* covers: atomic update (x++, ++x, x--, x+=e, x-=e, x*=e, x|=e, x&=e, x^=e, x=x+e, x=e+x), atomic read, atomic write, atomic capture (v=x++, v=++x, v=x--, v=x+=e, {v=x; x+=e;}, {x+=e; v=x;}, {v=x; x=e;}), on int, long, unsigned, float, double, across teams and threads */
#include <stdio.h>

#define N 3000

int main(void) {
  int c1 = 0, c2 = 0, c3 = 1000000;
  long lsum = 0;
  double dsum = 0.0;
  float fsum = 0.0f;
  unsigned bits_or = 0, bits_and = 0xffffffffu, bits_xor = 0;
  int c4 = 0, c5 = 0;
  long prod_mod = 1;

#pragma omp target teams distribute parallel for map(tofrom: c1, c2, c3, lsum, dsum, fsum, bits_or, bits_and, bits_xor, c4, c5)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    c1++;
#pragma omp atomic update
    ++c2;
#pragma omp atomic
    c3--;
#pragma omp atomic
    lsum += (long)i * i;
#pragma omp atomic
    dsum += 0.25 * (i % 8);
#pragma omp atomic update
    fsum += 1.0f;
#pragma omp atomic
    bits_or |= 1u << (i % 32);
#pragma omp atomic
    bits_and &= ~(1u << (i % 31));
#pragma omp atomic
    bits_xor ^= (unsigned)i;
#pragma omp atomic
    c4 = c4 + 2;
#pragma omp atomic
    c5 = 3 + c5;
  }
  printf("update: c1=%d c2=%d c3=%d lsum=%ld dsum=%.2f fsum=%.1f\n", c1, c2, c3, lsum, dsum, fsum);
  printf("update bits: or=%#x and=%#x xor=%u c4=%d c5=%d\n", bits_or, bits_and, bits_xor, c4, c5);

  /* x *= e on a small number of threads with factors that keep it exact */
#pragma omp target parallel for num_threads(8) map(tofrom: prod_mod)
  for (int i = 0; i < 20; i++) {
#pragma omp atomic
    prod_mod *= 2;
  }
  printf("update mul: %ld\n", prod_mod);

  /* capture: every thread gets a unique ticket */
  static int ticket_a[N], ticket_b[N], ticket_c[N], ticket_d[N], ticket_e[N];
  int ta = 0, tb = 0, tc = N, td = 0, te = 0;
#pragma omp target teams distribute parallel for map(tofrom: ta, tb, tc, td, te) map(from: ticket_a, ticket_b, ticket_c, ticket_d, ticket_e)
  for (int i = 0; i < N; i++) {
    int v;
#pragma omp atomic capture
    v = ta++;
    ticket_a[i] = v;
#pragma omp atomic capture
    v = ++tb;
    ticket_b[i] = v;
#pragma omp atomic capture
    v = tc--;
    ticket_c[i] = v;
#pragma omp atomic capture
    {
      v = td;
      td += 3;
    }
    ticket_d[i] = v;
#pragma omp atomic capture
    {
      te += 2;
      v = te;
    }
    ticket_e[i] = v;
  }
  /* tickets must be a permutation */
  static char seen[5][3 * N + 4];
  int perm = 1;
  for (int i = 0; i < N; i++) {
    int a = ticket_a[i], b = ticket_b[i] - 1, c = N - ticket_c[i], d = ticket_d[i], e = ticket_e[i];
    if (a < 0 || a >= N || b < 0 || b >= N || c < 0 || c >= N || d % 3 || d / 3 >= N || e % 2 || e < 2 || e / 2 > N) {
      perm = 0;
      break;
    }
    if (seen[0][a]++ || seen[1][b]++ || seen[2][c]++ || seen[3][d / 3]++ || seen[4][e / 2 - 1]++) perm = 0;
  }
  printf("capture: ta=%d tb=%d tc=%d td=%d te=%d permutations=%d\n", ta, tb, tc, td, te, perm);

  /* capture with += expression, and swap form {v = x; x = e;} */
  int pos = 0, swapped_total = 0;
  static int slots[N];
  int last_swap = -1;
#pragma omp target teams distribute parallel for map(tofrom: pos, swapped_total, last_swap) map(from: slots)
  for (int i = 0; i < N; i++) {
    int where;
#pragma omp atomic capture
    where = pos += 1;
    slots[where - 1] = 1;
    int old;
#pragma omp atomic capture
    {
      old = last_swap;
      last_swap = i;
    }
#pragma omp atomic
    swapped_total += (old >= -1);
  }
  int filled = 0;
  for (int i = 0; i < N; i++) filled += slots[i];
  printf("capture +=: pos=%d filled=%d swaps=%d last_in_range=%d\n", pos, filled, swapped_total,
         last_swap >= 0 && last_swap < N);

  /* atomic read and write */
  int flag = 0, snapshot = -1;
#pragma omp target parallel num_threads(4) map(tofrom: flag, snapshot)
  {
#pragma omp single
    {
#pragma omp atomic write
      flag = 42;
    }
    /* implicit barrier after single */
    int r;
#pragma omp atomic read
    r = flag;
    if (r == 42) {
#pragma omp atomic write
      snapshot = r;
    }
  }
  printf("read/write: flag=%d snapshot=%d\n", flag, snapshot);

  long want_l = 0;
  unsigned want_x = 0;
  for (int i = 0; i < N; i++) {
    want_l += (long)i * i;
    want_x ^= (unsigned)i;
  }
  int pass = c1 == N && c2 == N && c3 == 1000000 - N && lsum == want_l && dsum == 0.25 * 28 * (N / 8) &&
             fsum == (float)N && bits_or == 0xffffffffu && bits_and == 0x80000000u && bits_xor == want_x &&
             c4 == 2 * N && c5 == 3 * N && prod_mod == (1L << 20) && perm && pos == N && filled == N &&
             swapped_total == N && snapshot == 42;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
