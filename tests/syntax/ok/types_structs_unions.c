/* structs, unions, enums, typedefs, nested aggregates and arrays of them in target regions */
#include <stdio.h>
#include <string.h>

typedef enum { KIND_INT, KIND_FLOAT, KIND_PAIR } kind_t;

typedef union {
  int i;
  float f;
  unsigned char bytes[4];
} word_t;

typedef struct pair {
  short a, b;
} pair_t;

typedef struct item {
  kind_t kind;
  union {
    word_t w;
    pair_t p;
  } u;
  struct item *next; /* never followed on the device */
} item_t;

struct matrix2 {
  double m[2][2];
};

typedef double vec4[4];
typedef int (*cmp_fn)(const void *, const void *);

#pragma omp declare target
static double det(struct matrix2 mm) { return mm.m[0][0] * mm.m[1][1] - mm.m[0][1] * mm.m[1][0]; }
static int item_value(const item_t *it) {
  switch (it->kind) {
  case KIND_INT:
    return it->u.w.i;
  case KIND_FLOAT:
    return (int)it->u.w.f;
  case KIND_PAIR:
    return it->u.p.a + it->u.p.b;
  default:
    return 0;
  }
}
#pragma omp end declare target

int main(void) {
  item_t items[16];
  memset(items, 0, sizeof items);
  for (int i = 0; i < 16; i++) {
    items[i].kind = (kind_t)(i % 3);
    if (items[i].kind == KIND_INT) items[i].u.w.i = i;
    if (items[i].kind == KIND_FLOAT) items[i].u.w.f = i * 0.5f;
    if (items[i].kind == KIND_PAIR) items[i].u.p = (pair_t){(short)i, (short)-i};
  }
  struct matrix2 mats[4] = {{{{1, 2}, {3, 4}}}, {{{2, 0}, {0, 2}}}, {{{1, 1}, {1, 1}}}, {{{0, 1}, {1, 0}}}};
  vec4 v = {1, 2, 3, 4};
  int total = 0;
  double dets = 0.0;
  word_t w;
  w.i = 0x01020304;
  unsigned char b0 = 0;

#pragma omp target map(to: items, mats, v) map(tofrom: total, dets, w, b0)
  {
    for (int i = 0; i < 16; i++) total += item_value(&items[i]);
    for (int k = 0; k < 4; k++) dets += det(mats[k]) * v[k];
    b0 = w.bytes[0];
    w.f = 1.0f;
  }
  cmp_fn unused = 0;
  (void)unused;
  printf("%d %f %u %f\n", total, dets, b0, w.f);
  return 0;
}
