/* sparserows: y = A x for a sparse matrix in CSR form whose row lengths follow a power law
 * (issue 34, item 4): most rows hold a few nonzeros, a few rows hold most of them (like the
 * degrees of a graph's vertices), so the inner loop's trip count varies by orders of magnitude
 * from one outer iteration to the next. Row r has about max_len / (1 + r % spread)^alpha
 * nonzeros, rows shuffled by a hash so that the long ones are spread over the matrix.
 *     ./sparserows [rows] [max_len]          (defaults 1048576 rows, up to 1048576 per row: about 3.6M nonzeros) */
#ifndef SPARSEROWS_H
#define SPARSEROWS_H
#include "../common/bench.h"

typedef struct {
  int rows, cols;
  long nnz;
  long *start;  /* rows + 1 offsets */
  int *col;
  float *val;
} sr_matrix;

/* row r's length: a power law with exponent 1.5 over the rows' ranks, at least 1 */
static int sr_row_length(int r, int rows, int max_len) {
  const unsigned rank = bench_hash((unsigned)r * 2654435761u + 7u) % (unsigned)rows;
  const double len = (double)max_len / pow(1.0 + (double)rank, 1.5);
  return len < 1.0 ? 1 : (int)len;
}

/* a matrix of `rows` rows, row r of length(r, rows, max_len) nonzeros */
static sr_matrix sr_build_rows(int rows, int (*length)(int, int, int), int max_len) {
  sr_matrix m;
  m.rows = rows;
  m.cols = rows;
  m.start = (long *)bench_alloc(sizeof(long) * (rows + 1));
  long nnz = 0;
  for (int r = 0; r < rows; r++) {
    m.start[r] = nnz;
    nnz += length(r, rows, max_len);
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

static sr_matrix sr_build(int rows, int max_len) { return sr_build_rows(rows, sr_row_length, max_len); }

/* The benchmark's name and its matrix from the command line: bench/rowmix defines its own. */
#ifndef SR_NAME
#define SR_NAME "sparserows"
#define SR_MATRIX(argc, argv) sr_build(bench_arg(argc, argv, 1, 1048576), bench_arg(argc, argv, 2, 1048576))
#endif

static void sr_vector(float *x, int n) {
  for (int i = 0; i < n; i++) x[i] = bench_unit((unsigned)i, 11);
}

/* against a serial reference in double precision; the float sums of a long row differ from it
 * by rounding in any order, so the tolerance grows with the row's length */
static int sr_check(const sr_matrix *m, const float *x, const float *y) {
  int bad = 0;
  for (int r = 0; r < m->rows && bad < 10; r++) {
    double s = 0, mag = 0;
    for (long k = m->start[r]; k < m->start[r + 1]; k++) {
      s += (double)m->val[k] * x[m->col[k]];
      mag += fabs((double)m->val[k] * x[m->col[k]]);
    }
    const double tol = 1e-5 * mag + 1e-6;
    if (fabs((double)y[r] - s) > tol) {
      if (bad == 0) fprintf(stderr, "row %d: got %g, expected %g\n", r, (double)y[r], s);
      bad++;
    }
  }
  return bad == 0;
}
#endif
