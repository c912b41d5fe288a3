/* C11 features next to offload code: _Static_assert, _Alignas/_Alignof, _Generic, _Noreturn, anonymous structs and unions, static inline, for-loop declarations, // comments, mixed declarations and code, long long, hex float literals, universal character names in strings */
#include <stdio.h>
#include <stdlib.h>
#include <stdalign.h>

_Static_assert(sizeof(int) >= 4, "int is at least 32 bits");

#define ABS(x) _Generic((x), int: abs, long: labs, default: fabs_local)(x)
static inline double fabs_local(double x) { return x < 0 ? -x : x; }

struct sample {
  int tag;
  union {
    struct {
      float re, im;
    };
    double both;
  };
};

_Noreturn static void die(const char *msg) {
  fprintf(stderr, "%s\n", msg);
  exit(1);
}

#pragma omp declare target
static inline float norm2(struct sample s) { return s.re * s.re + s.im * s.im; }
#pragma omp end declare target

int main(void) {
  alignas(32) float buf[64];
  _Alignas(16) struct sample ss[8];
  size_t al = _Alignof(struct sample) + alignof(double);
  for (int i = 0; i < 8; i++) {
    ss[i].tag = i;
    ss[i].re = (float)i;
    ss[i].im = -(float)i;
  }
  float out[8];
  long long big = 0x1p4 > 15.0 ? 1LL << 40 : 0;
#pragma omp target map(to: ss) map(from: out, buf) firstprivate(big)
  {
    for (int i = 0; i < 8; i++) out[i] = norm2(ss[i]) + (float)(big >> 40);
    for (int i = 0; i < 64; i++) buf[i] = 0x1.8p1f;
  }
  if (out[1] != 3.0f) die("unexpected");
  int ai = ABS(-3);
  long al2 = ABS(-4L);
  double ad = ABS(-2.5);
  printf("%f %f %zu %d %ld %f %s\n", out[7], buf[0], al, ai, al2, ad, "\u00e9t\u00e9");
  return 0;
}
