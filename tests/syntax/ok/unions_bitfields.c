/* unions and bit-fields in mapped data, struct arrays with padding, nested anonymous members, packed flags decoded on the device */
#include <stdio.h>
#include <stdint.h>

typedef struct {
  unsigned valid : 1;
  unsigned kind : 3;
  unsigned level : 4;
  unsigned count : 24;
} flags_t;

typedef union {
  flags_t f;
  uint32_t raw;
} packed_t;

typedef struct {
  char c;
  double d;
  short s;
  packed_t p;
} padded_t;

int main(void) {
  padded_t recs[32];
  for (int i = 0; i < 32; i++) {
    recs[i].c = (char)('a' + i % 26);
    recs[i].d = i * 1.5;
    recs[i].s = (short)(i * 3);
    recs[i].p.raw = 0;
    recs[i].p.f.valid = i % 2;
    recs[i].p.f.kind = i % 8;
    recs[i].p.f.level = i % 16;
    recs[i].p.f.count = (unsigned)i * 1000u;
  }
  long total = 0;
  unsigned kinds = 0;
#pragma omp target teams distribute parallel for map(tofrom: recs) reduction(+: total) reduction(|: kinds) map(tofrom: total, kinds)
  for (int i = 0; i < 32; i++) {
    if (recs[i].p.f.valid) {
      total += recs[i].p.f.count + recs[i].p.f.level + recs[i].s + (long)recs[i].d;
      kinds |= 1u << recs[i].p.f.kind;
      recs[i].p.f.level = 15;
      recs[i].c = 'z';
    }
  }
  printf("%ld %x %u %c\n", total, kinds, recs[1].p.f.level, recs[1].c);
  return 0;
}
