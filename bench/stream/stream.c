/* stream, OpenMP offload (see stream.h): the triad as users write it, four ways.
 *   -DSTREAM_MAP:     arrays mapped by `target data`; the triad maps them again (present)
 *   default:          arrays from omp_target_alloc, passed with is_device_ptr
 *   -DSTREAM_STATIC:  either of the above with schedule(static) on the triad */
#if defined(STREAM_MAP) && defined(STREAM_STATIC)
#define BENCH_VARIANT "map_static"
#elif defined(STREAM_MAP)
#define BENCH_VARIANT "map"
#elif defined(STREAM_STATIC)
#define BENCH_VARIANT "devptr_static"
#else
#define BENCH_VARIANT "devptr"
#endif
#include "stream.h"

int main(int argc, char **argv) {
  const long n = stream_length(argc, argv);
  double *a = (double *)bench_alloc(sizeof(double) * n);
  double *b = (double *)bench_alloc(sizeof(double) * n);
  double *c = (double *)bench_alloc(sizeof(double) * n);
  stream_fill(b, c, n);
  const double s = STREAM_SCALAR;
  double kernel = 0;
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = BENCH_NOW();
#ifdef STREAM_MAP
#pragma omp target data map(to: b[0:n], c[0:n]) map(from: a[0:n])
    {
      double k0 = BENCH_NOW();
      for (int sweep = 0; sweep < STREAM_SWEEPS; sweep++) {
#ifdef STREAM_STATIC
#pragma omp target teams distribute parallel for schedule(static) map(to: b[0:n], c[0:n]) map(from: a[0:n])
#else
#pragma omp target teams distribute parallel for map(to: b[0:n], c[0:n]) map(from: a[0:n])
#endif
        for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
      }
      kernel = BENCH_NOW() - k0;
    }
#else
    const int dev = omp_get_default_device(), host = omp_get_initial_device();
    double *da = (double *)omp_target_alloc(sizeof(double) * n, dev);
    double *db = (double *)omp_target_alloc(sizeof(double) * n, dev);
    double *dc = (double *)omp_target_alloc(sizeof(double) * n, dev);
    if (!da || !db || !dc) {
      fprintf(stderr, "omp_target_alloc failed\n");
      return 3;
    }
    omp_target_memcpy(db, b, sizeof(double) * n, 0, 0, dev, host);
    omp_target_memcpy(dc, c, sizeof(double) * n, 0, 0, dev, host);
    double k0 = BENCH_NOW();
    for (int sweep = 0; sweep < STREAM_SWEEPS; sweep++) {
#ifdef STREAM_STATIC
#pragma omp target teams distribute parallel for schedule(static) is_device_ptr(da, db, dc)
#else
#pragma omp target teams distribute parallel for is_device_ptr(da, db, dc)
#endif
      for (long i = 0; i < n; i++) da[i] = db[i] + s * dc[i];
    }
    kernel = BENCH_NOW() - k0;
    omp_target_memcpy(a, da, sizeof(double) * n, 0, 0, host, dev);
    omp_target_free(da, dev);
    omp_target_free(db, dev);
    omp_target_free(dc, dev);
#endif
    bench_report("stream", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(stream_check(a, n, kernel));
}
