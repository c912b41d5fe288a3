"""tests/programs/transpose.c through ompgpu.compile."""
import numpy as np

SOURCE = r"""
#define R 96
#define C 80
#define B 16
void transpose(const int *a, int *t1, int *t2) {
#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:R * C]) map(from: t1[0:R * C])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) t1[j * R + i] = a[i * C + j];

  /* blocked: tiles of B x B, tile staged in team-local storage */
#pragma omp target teams distribute collapse(2) map(to: a[0:R * C]) map(from: t2[0:R * C]) thread_limit(128)
  for (int bi = 0; bi < R / B; bi++)
    for (int bj = 0; bj < C / B; bj++) {
      int tile[B][B + 1];
#pragma omp parallel for collapse(2)
      for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) tile[i][j] = a[(bi * B + i) * C + bj * B + j];
#pragma omp parallel for collapse(2)
      for (int j = 0; j < B; j++)
        for (int i = 0; i < B; i++) t2[(bj * B + j) * R + bi * B + i] = tile[i][j];
    }
}
void transpose_in_place(int n, int *sq) {
#pragma omp target teams distribute parallel for map(tofrom: sq[0:n * n])
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      int x = sq[i * n + j];
      sq[i * n + j] = sq[j * n + i];
      sq[j * n + i] = x;
    }
}
"""


def main(compile):
    R, C = 96, 80
    a = (np.arange(R * C, dtype=np.int32) * 3 + 1)
    t1, t2 = np.zeros(R * C, np.int32), np.zeros(R * C, np.int32)
    compile(SOURCE, "transpose")(a, t1, t2)
    n = 64
    sq = np.arange(n * n, dtype=np.int32)
    compile(SOURCE, "transpose_in_place")(n, sq)
    want = a.reshape(R, C).T.reshape(-1)
    ok = np.array_equal(t1, want) and np.array_equal(t2, want)
    q = np.arange(R * C)
    chk = int(np.sum(t1.astype(np.int64) * (q % 7)))
    sok = int(np.array_equal(sq.reshape(n, n), np.arange(n * n, dtype=np.int32).reshape(n, n).T))
    print(f"t1[1]={t1[1]} t1[R]={t1[R]} t2[last]={t2[R * C - 1]} checksum={chk}")
    print(f"in-place: sq[1]={sq[1]} sq[64]={sq[64]} ok={sok}")
    print("PASS" if ok and sok else "FAIL")
