"""tests/programs/matmul.c through ompgpu.compile: the three kernels inside one target data."""
import numpy as np

SOURCE = r"""
#define M 72
#define K 56
#define NC 64
#define TILE 8
void matmul(const double *A, const double *B, double *C1, double *C2, double *C3) {
#pragma omp target data map(to: A[0:M * K], B[0:K * NC]) map(from: C1[0:M * NC], C2[0:M * NC], C3[0:M * NC])
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < NC; j++) {
        double s = 0.0;
        for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * NC + j];
        C1[i * NC + j] = s;
      }

#pragma omp target teams distribute
    for (int i = 0; i < M; i++) {
#pragma omp parallel for
      for (int j = 0; j < NC; j++) {
        double s = 0.0;
        for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * NC + j];
        C2[i * NC + j] = s;
      }
    }

    /* tiled: each team owns TILE rows; the rows of A are staged in a team-local array */
#pragma omp target teams distribute thread_limit(64)
    for (int t = 0; t < M / TILE; t++) {
      double atile[TILE * K];
#pragma omp parallel for
      for (int q = 0; q < TILE * K; q++) atile[q] = A[(t * TILE) * K + q];
#pragma omp parallel for collapse(2)
      for (int r = 0; r < TILE; r++)
        for (int j = 0; j < NC; j++) {
          double s = 0.0;
          for (int k = 0; k < K; k++) s += atile[r * K + k] * B[k * NC + j];
          C3[(t * TILE + r) * NC + j] = s;
        }
    }
  }
}
"""


def main(compile):
    M, K, NC = 72, 56, 64
    A = ((np.arange(M * K) * 7) % 11 - 5).astype(np.float64)
    B = ((np.arange(K * NC) * 3) % 13 - 6).astype(np.float64)
    C1, C2, C3 = (np.zeros(M * NC) for _ in range(3))
    compile(SOURCE, "matmul")(A, B, C1, C2, C3)
    ref = (A.reshape(M, K) @ B.reshape(K, NC)).reshape(-1)  # integer-valued: exact
    ok = all(np.array_equal(c, ref) for c in (C1, C2, C3))
    ii, jj = np.meshgrid(np.arange(M), np.arange(NC), indexing="ij")
    total = float(np.sum(ref.reshape(M, NC) * ((ii + jj) % 3 + 1)))
    tr = float(np.trace(ref.reshape(M, NC)[:, :NC]))
    print(f"C[0][0]={C1[0]:.0f} C[71][63]={C1[M * NC - 1]:.0f} trace={tr:.0f} weighted={total:.0f}")
    print("PASS" if ok else "FAIL")
