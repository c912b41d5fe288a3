// Writes to arrays inside structs from parallel loops of target regions: `s.out[i] = ...`
// changes the struct itself, so a parallel region shares it by address rather than copying it
// (a copy lost every write: SOLLVE 5.0 test_target_teams_loop_defaultmap; issue 46).
#include <stdio.h>
#include <omp.h>

#define N 512
typedef int row_t[8];

struct inner { double v[N]; };
struct data { int in[N]; int out[N]; struct inner nested; row_t rows[4]; int *p; };

int main(void) {
  struct data s;
  int heap[N];
  for (int i = 0; i < N; i++) { s.in[i] = i; s.out[i] = 0; s.nested.v[i] = 0; heap[i] = 0; }
  for (int r = 0; r < 4; r++) for (int c = 0; c < 8; c++) s.rows[r][c] = 0;
  s.p = heap;

  #pragma omp target teams loop defaultmap(tofrom: aggregate)
  for (int i = 0; i < N; i++) s.out[i] = s.in[i] * 2;

  #pragma omp target teams distribute parallel for map(tofrom: s, s.p[0:N])
  for (int i = 0; i < N; i++) { s.nested.v[i] = i * 0.5; s.p[i] = i + 1; }

  #pragma omp target map(tofrom: s)
  {
    int scale = 3;
    #pragma omp parallel for
    for (int k = 0; k < 32; k++) s.rows[k / 8][k % 8] = k * scale;
  }

  struct data many[3];
  for (int j = 0; j < 3; j++) for (int i = 0; i < N; i++) many[j].out[i] = 0;
  #pragma omp target teams map(tofrom: many) num_teams(3)
  {
    #pragma omp parallel for
    for (int i = 0; i < N; i++) many[omp_get_team_num()].out[i] = omp_get_team_num() + i;
  }

  long a = 0, c = 0, d = 0;
  double b = 0;
  for (int i = 0; i < N; i++) { a += s.out[i]; b += s.nested.v[i]; c += heap[i]; }
  for (int r = 0; r < 4; r++) for (int k = 0; k < 8; k++) d += s.rows[r][k];
  long m = 0;
  for (int j = 0; j < 3; j++) for (int i = 0; i < N; i++) m += many[j].out[i] * (j + 1);
  printf("out %ld nested %.1f through pointer %ld rows %ld array of structs %ld\n", a, b, c, d, m);
  return 0;
}
