/* rowmix: y = A x for a CSR matrix whose rows are short but for a share of long ones (issue 48,
 * item 3: a held-out program with 65536 rows, most tens of nonzeros long and every 512th row tens
 * of thousands, ran 1.43x slower after the irregular teams of issue 34). The mix is a build's:
 *     -DRM_EVERY=P   every P-th row is long (0: none)     -DRM_LONG=L   its length
 *     -DRM_SHORT=S   the other rows' length, S to 2S-1 by a hash
 * Long rows at every P-th row from a hashed start, so that they are spread over the matrix.
 *     ./rowmix [rows]          (default 65536) */
#ifndef ROWMIX_H
#define ROWMIX_H
#ifndef RM_EVERY
#define RM_EVERY 512
#endif
/* the OpenMP variant is the mix (bench/run.py PROBLEM_VARIANTS) */
#if RM_EVERY == 0
#define BENCH_VARIANT "uniform"
#elif RM_EVERY == 64
#define BENCH_VARIANT "every64"
#elif RM_EVERY == 4096
#define BENCH_VARIANT "every4096"
#else
#define BENCH_VARIANT "every512"
#endif
#include "../sparserows/sparserows.h"

#ifndef RM_LONG
#define RM_LONG 20000
#endif
#ifndef RM_SHORT
#define RM_SHORT 24
#endif

static int rm_row_length(int r) {
  if (RM_EVERY > 0 && (r + 37) % RM_EVERY == 0) return RM_LONG;
  return RM_SHORT + (int)(bench_hash((unsigned)r * 2246822519u + 3u) % (unsigned)RM_SHORT);
}

static sr_matrix rm_build(int rows) {
  sr_matrix m;
  m.rows = rows;
  m.cols = rows;
  m.start = (long *)bench_alloc(sizeof(long) * (rows + 1));
  long nnz = 0;
  for (int r = 0; r < rows; r++) {
    m.start[r] = nnz;
    nnz += rm_row_length(r);
  }
  m.start[rows] = nnz;
  m.nnz = nnz;
  m.col = (int *)bench_alloc(sizeof(int) * nnz);
  m.val = (float *)bench_alloc(sizeof(float) * nnz);
  for (int r = 0; r < rows; r++)
    for (long k = m.start[r]; k < m.start[r + 1]; k++) {
      m.col[k] = (int)(bench_hash((unsigned)k * 40503u + (unsigned)r) % (unsigned)m.cols);
      m.val[k] = bench_unit((unsigned)k, 3) - 0.5f;
    }
  return m;
}
#endif
