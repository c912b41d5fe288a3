/* covers: OpenMP 5.0/5.1 data features: a list item in several map clauses of one construct
   (target, target data, enter and exit data: the combined map type); omp_target_memcpy_async
   and omp_target_memcpy_rect_async without dependence objects, with one and with five (they
   order the copy after the tasks that wrote the data and before those that read it);
   omp_get_mapped_ptr; depend on omp_all_memory on host tasks and on a target task;
   default(firstprivate) on a task in a target region; has_device_addr of an array that
   use_device_addr names */
#include <stdio.h>
#include <omp.h>

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();

  /* the same list item in several map clauses */
  int a[16], b[16], c[16];
  for (int i = 0; i < 16; i++) { a[i] = i; b[i] = 0; c[i] = 5; }
#pragma omp target map(alloc: a) map(to: a) map(from: b) map(alloc: b)
  for (int i = 0; i < 16; i++) b[i] = a[i] * 2;
  int b_first = b[15];
#pragma omp target data map(alloc: c) map(tofrom: c)
  {
#pragma omp target
    for (int i = 0; i < 16; i++) c[i] += 1;
  }
#pragma omp target enter data map(alloc: a) map(to: a)
#pragma omp target map(from: b)
  for (int i = 0; i < 16; i++) b[i] = a[i] + 100;
#pragma omp target exit data map(release: a) map(delete: a)
  printf("repeated maps: %d %d %d present after delete %d\n", b_first, c[3], b[15], omp_target_is_present(a, dev));

  /* asynchronous copies */
  int *d = omp_target_alloc(64 * sizeof(int), dev);
  int src[64], dst[64];
  for (int i = 0; i < 64; i++) { src[i] = i + 100; dst[i] = 0; }
  int rc = omp_target_memcpy_async(d, src, 64 * sizeof(int), 0, 0, dev, host, 0, NULL);
#pragma omp taskwait
  omp_depend_t obj[5];
  int flags[5] = {0, 0, 0, 0, 0};
  for (int k = 0; k < 5; k++) {
#pragma omp depobj(obj[k]) depend(inout: flags[k])
  }
  int later = -1;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    /* a task that writes the source, the copy after it (one dependence object), a task after the copy */
#pragma omp task depend(out: flags[0]) shared(src)
    for (int i = 0; i < 64; i++) src[i] = i + 1000;
    rc |= omp_target_memcpy_async(d, src, 64 * sizeof(int), 0, 0, dev, host, 1, obj);
    rc |= omp_target_memcpy_async(dst, d, 64 * sizeof(int), 0, 0, host, dev, 5, obj);
#pragma omp task depend(in: flags[0]) shared(dst, later)
    later = dst[63];
  }
  printf("memcpy_async: rc %d dst[0] %d dst[63] %d read after the copy %d\n", rc, dst[0], dst[63], later);
  int m2[4][4], r2[4][4];
  for (int i = 0; i < 16; i++) { m2[i / 4][i % 4] = i; r2[i / 4][i % 4] = -1; }
  size_t vol[2] = {2, 2}, doff[2] = {1, 1}, soff[2] = {2, 2}, dims[2] = {4, 4}, zero[2] = {0, 0};
  int *d2 = omp_target_alloc(16 * sizeof(int), dev);
  rc = omp_target_memcpy_rect_async(d2, m2, sizeof(int), 2, dims, zero, zero, dims, dims, dev, host, 0, NULL);
#pragma omp taskwait
  rc |= omp_target_memcpy_rect_async(r2, d2, sizeof(int), 2, vol, doff, soff, dims, dims, host, dev, 1, obj);
#pragma omp taskwait
  printf("memcpy_rect_async: rc %d r2[1][1] %d r2[2][2] %d r2[0][0] %d\n", rc, r2[1][1], r2[2][2], r2[0][0]);
  for (int k = 0; k < 5; k++) {
#pragma omp depobj(obj[k]) destroy
  }
  omp_target_free(d, dev);
  omp_target_free(d2, dev);

  /* omp_get_mapped_ptr */
  int z[8], unmapped[8];
#pragma omp target enter data map(to: z)
  void *mz = omp_get_mapped_ptr(z, dev);
  int found = 0;
#pragma omp target map(from: found) is_device_ptr(mz)
  found = mz != 0;
  printf("mapped_ptr: mapped %d on the device %d unmapped %d host %d\n", mz != NULL, found,
         omp_get_mapped_ptr(unmapped, dev) == NULL, omp_get_mapped_ptr(z, host) == (void *)z);
#pragma omp target exit data map(delete: z)

  /* omp_all_memory */
  int x = 0, y = 0, w = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp task depend(out: x) shared(x)
    x = 1;
#pragma omp task depend(inout: omp_all_memory) shared(x, y)
    y = x + 1;
#pragma omp task depend(in: y) shared(y, w)
    w = y * 10;
#pragma omp target nowait depend(inout: omp_all_memory) map(tofrom: w)
    w += 1;
  }
  printf("omp_all_memory: x %d y %d w %d\n", x, y, w);

  /* default(firstprivate) on a device task */
  int out[2] = {0, 0};
#pragma omp target map(tofrom: out)
  {
    int v = 5;
    int *p = out;
#pragma omp task default(firstprivate)
    {
      v += 1;
      p[0] = v;
    }
#pragma omp taskwait
    out[1] = v;
  }
  printf("default(firstprivate): task saw %d, v after %d\n", out[0], out[1]);

  /* has_device_addr of an array */
  int h[16], hb[16];
  for (int i = 0; i < 16; i++) { h[i] = i; hb[i] = 0; }
#pragma omp target data map(tofrom: h) use_device_addr(h)
  {
#pragma omp target has_device_addr(h) map(from: hb)
    for (int i = 0; i < 16; i++) { h[i] += 100; hb[i] = h[i]; }
  }
  printf("has_device_addr: h[15] %d hb[15] %d\n", h[15], hb[15]);
  return 0;
}
