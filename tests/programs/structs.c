/* covers: struct by value (firstprivate clause, implicit map(tofrom:) of aggregates), arrays of structs map(tofrom:), struct with array member, typedef struct, struct returned from declare target function, nested structs */
#include <stdio.h>

typedef struct {
  double x, y, z;
} vec3;

struct particle {
  vec3 pos;
  vec3 vel;
  int id;
  int hits;
};

typedef struct {
  int count;
  int bins[8];
  double weight;
} stats_t;

#pragma omp declare target
static vec3 vadd(vec3 a, vec3 b) {
  vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z};
  return r;
}
static vec3 vscale(vec3 a, double s) {
  vec3 r = {a.x * s, a.y * s, a.z * s};
  return r;
}
#pragma omp end declare target

#define NP 256

int main(void) {
  static struct particle ps[NP];
  for (int i = 0; i < NP; i++) {
    ps[i].pos = (vec3){i, 2 * i, -i};
    ps[i].vel = (vec3){1, i % 4, 0.5};
    ps[i].id = i;
    ps[i].hits = 0;
  }
  vec3 gravity = {0.0, -2.0, 0.0}; /* struct by value, firstprivate */
  double dt = 0.5;

#pragma omp target teams distribute parallel for map(tofrom: ps[0:NP])
  for (int i = 0; i < NP; i++) {
    ps[i].vel = vadd(ps[i].vel, vscale(gravity, dt));
    ps[i].pos = vadd(ps[i].pos, vscale(ps[i].vel, dt));
    if (ps[i].pos.y < 0) ps[i].hits++;
  }

  double sx = 0, sy = 0, sz = 0;
  int hits = 0;
  for (int i = 0; i < NP; i++) {
    sx += ps[i].pos.x;
    sy += ps[i].pos.y;
    sz += ps[i].pos.z;
    hits += ps[i].hits;
  }
  printf("particles: sx=%.2f sy=%.2f sz=%.2f hits=%d\n", sx, sy, sz, hits);
  printf("p[3]: pos=(%.2f,%.2f,%.2f) vel=(%.2f,%.2f,%.2f) id=%d\n", ps[3].pos.x, ps[3].pos.y, ps[3].pos.z,
         ps[3].vel.x, ps[3].vel.y, ps[3].vel.z, ps[3].id);

  /* struct with an array member, mapped tofrom as a whole */
  stats_t st = {0, {0}, 0.25};
#pragma omp target map(tofrom: st) map(to: ps[0:NP])
  {
    for (int i = 0; i < NP; i++) {
      st.bins[ps[i].id % 8] += 1;
      st.count++;
    }
    st.weight *= st.count;
  }
  printf("stats: count=%d weight=%.2f bins=%d %d %d %d %d %d %d %d\n", st.count, st.weight, st.bins[0],
         st.bins[1], st.bins[2], st.bins[3], st.bins[4], st.bins[5], st.bins[6], st.bins[7]);

  /* firstprivate struct: device changes are not seen on the host */
  stats_t copy = st;
  int seen = 0;
#pragma omp target firstprivate(copy) map(from: seen)
  {
    copy.count = -5;
    seen = copy.bins[3] + copy.count;
  }
  printf("firstprivate struct: seen=%d host count=%d\n", seen, copy.count);

  /* a struct without a clause is implicitly map(tofrom:), not firstprivate */
  stats_t implicit = st;
#pragma omp target
  {
    implicit.count += 1;
    implicit.bins[0] = 99;
  }
  printf("implicit tofrom struct: count=%d bins[0]=%d\n", implicit.count, implicit.bins[0]);
  int pass = st.count == NP && st.bins[7] == NP / 8 && seen == 27 && copy.count == NP &&
             implicit.count == NP + 1 && implicit.bins[0] == 99;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
