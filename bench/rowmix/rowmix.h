/* rowmix: y = A x for a CSR matrix whose rows are short but for a share of long ones (issue 48,
 * item 3: a held-out program with 65536 rows, most tens of nonzeros long and every 512th row tens
 * of thousands, ran 1.43x slower after the irregular teams of issue 34). sparserows' code on
 * another matrix; the mix is a build's:
 *     -DRM_EVERY=P   every P-th row is long (0: none)     -DRM_LONG=L   its length
 *     -DRM_SHORT=S   the other rows' length, S to 2S-1 by a hash
 * Long rows at every P-th row from an offset, so that they are spread over the matrix.
 *     ./rowmix [rows]          (default 65536) */
#ifndef ROWMIX_H
#define ROWMIX_H
#ifndef RM_EVERY
#define RM_EVERY 512
#endif
#ifndef RM_LONG
#define RM_LONG 20000
#endif
#ifndef RM_SHORT
#define RM_SHORT 24
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
#define SR_NAME "rowmix"
#define SR_MATRIX(argc, argv) sr_build_rows(bench_arg(argc, argv, 1, 65536), rm_row_length, 0)
#include "../sparserows/sparserows.h"

static int rm_row_length(int r, int rows, int max_len) {
  (void)rows;
  (void)max_len;
  if (RM_EVERY > 0 && (r + 37) % RM_EVERY == 0) return RM_LONG;
  return RM_SHORT + (int)(bench_hash((unsigned)r * 2246822519u + 3u) % (unsigned)RM_SHORT);
}
#endif
