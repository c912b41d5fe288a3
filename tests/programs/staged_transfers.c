/* covers: large maps to, from and tofrom, target update both ways, enter/exit data, omp_target_memcpy both ways, sections that start off a page and end mid-chunk, copies into fresh (never touched) memory, copies both ways at once from two host threads (the runtime's pinned staging path: runtime/host/transfer.cpp); small updates to the device that return before their DMA, through the pinned buffers in turn, more than they hold, from two threads, with a large one among them, and small updates from the device */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* sizes around the staging threshold (1 MiB) and its chunking (several chunks, a short last one) */
static const long kSizes[] = {1000, (1L << 20) / 8 - 1, (1L << 20) / 8, 393217, 3 * (1L << 20) + 13, 5000003};

static unsigned long long checksum(const double *a, long n) {
  unsigned long long s = 0;
  for (long i = 0; i < n; i++) s = s * 1000003ULL + (unsigned long long)a[i];
  return s;
}

struct update {
  double *p;
  long n;
};

/* updates p[1:n] from the device, on a thread of its own */
static void *update_from(void *arg) {
  struct update *u = (struct update *)arg;
  double *p = u->p;
  long n = u->n;
#pragma omp target update from(p[1:n])
  return NULL;
}

/* small updates of a quarter of x each, on a thread of its own (another stream) */
struct pieces {
  double *x;
  long from, to, piece;
};

static void *update_pieces(void *arg) {
  struct pieces *w = (struct pieces *)arg;
  double *x = w->x;
  for (long p = w->from; p < w->to; p += w->piece) {
    for (long i = p; i < p + w->piece; i++) x[i] = (double)(i % 1009);
    const long len = w->piece;
#pragma omp target update to(x[p:len])
    for (long i = p; i < p + w->piece; i++) x[i] = -2;   /* the update took its values before it returned */
  }
  return NULL;
}

/* Small updates to the device (64 KB each, 8 MB in all: more than a pinned buffer holds with
   OMPGPU_STAGING_CHUNK_BYTES=262144), the host's copy overwritten after each: a quarter from this
   thread, a quarter from this one and another at once, a large update of the third quarter (which
   refills the buffers from their start), the last quarter from this thread again; then small
   updates from the device. Before any device address reaches the program (omp_target_alloc),
   which stops small updates from returning early. */
static int small_updates(void) {
  const long n = 1L << 20, piece = 8192, q = n / 4;
  double *x = (double *)malloc(sizeof(double) * n);
  int fails = 0;
  for (long i = 0; i < n; i++) x[i] = -1;
#pragma omp target enter data map(to: x[0:n])
  struct pieces first = {x, 0, q, piece}, mine = {x, q, 3 * q / 2, piece}, other = {x, 3 * q / 2, 2 * q, piece};
  update_pieces(&first);
  pthread_t t;
  int threaded = pthread_create(&t, NULL, update_pieces, &other) == 0;
  update_pieces(&mine);
  if (threaded) pthread_join(t, NULL);
  else update_pieces(&other);
  for (long i = 2 * q; i < 3 * q; i++) x[i] = (double)(i % 1009);
#pragma omp target update to(x[2 * q:q])
  for (long i = 2 * q; i < 3 * q; i++) x[i] = -2;
  struct pieces last = {x, 3 * q, n, piece};
  update_pieces(&last);
  long wrong = 0;
#pragma omp target teams distribute parallel for reduction(+: wrong) map(alloc: x[0:n]) map(tofrom: wrong)
  for (long i = 0; i < n; i++) {
    if (x[i] != (double)(i % 1009)) wrong++;
    x[i] = 2 * x[i] + 1;
  }
  if (wrong) fails++, printf("small updates to the device: %ld wrong\n", wrong);
  wrong = 0;
  for (long p = 0; p < n; p += piece) {
#pragma omp target update from(x[p:piece])
    for (long i = p; i < p + piece; i++)
      if (x[i] != 2 * (double)(i % 1009) + 1) wrong++;
  }
  if (wrong) fails++, printf("small updates from the device: %ld wrong\n", wrong);
#pragma omp target exit data map(delete: x[0:n])
  free(x);
  return fails;
}

int main(void) {
  int fails = small_updates();
  for (unsigned t = 0; t < sizeof kSizes / sizeof kSizes[0]; t++) {
    const long n = kSizes[t];
    /* one element more, and the section from element 1: the copies start off the allocation's alignment */
    double *a = (double *)malloc(sizeof(double) * (n + 1)), *b = (double *)malloc(sizeof(double) * (n + 1));
    double *c = (double *)malloc(sizeof(double) * (n + 1)), *want = (double *)malloc(sizeof(double) * (n + 1));
    for (long i = 0; i <= n; i++) a[i] = (double)((i * 7919) % 100003), b[i] = -1, c[i] = (double)(i % 17);
    /* map to / from / tofrom */
#pragma omp target teams distribute parallel for map(to: a[1:n]) map(from: b[1:n]) map(tofrom: c[1:n])
    for (long i = 1; i <= n; i++) {
      b[i] = a[i] * 2 + 1;
      c[i] = c[i] + a[i];
    }
    for (long i = 1; i <= n; i++) want[i] = a[i] * 2 + 1;
    if (checksum(b + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: map from wrong\n", n);
    for (long i = 1; i <= n; i++) want[i] = (double)(i % 17) + a[i];
    if (checksum(c + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: map tofrom wrong\n", n);
    /* enter data, update to, a kernel, update from, exit data */
#pragma omp target enter data map(alloc: b[1:n])
    for (long i = 1; i <= n; i++) b[i] = (double)(i % 1001);
#pragma omp target update to(b[1:n])
#pragma omp target teams distribute parallel for map(alloc: b[1:n])
    for (long i = 1; i <= n; i++) b[i] = b[i] * 3;
#pragma omp target update from(b[1:n])
#pragma omp target exit data map(delete: b[1:n])
    for (long i = 1; i <= n; i++) want[i] = (double)(i % 1001) * 3;
    if (checksum(b + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: update wrong\n", n);
    /* into fresh memory: a new allocation the program never touched; and both ways at once
       (up to 25 MB: several chunks and a short last one, as the largest size) */
    if (n <= 3 * (1L << 20) + 13) {
      double *fresh = (double *)malloc(sizeof(double) * (n + 1));
#pragma omp target teams distribute parallel for map(to: a[1:n]) map(from: fresh[1:n])
      for (long i = 1; i <= n; i++) fresh[i] = a[i] - 5;
      for (long i = 1; i <= n; i++) want[i] = a[i] - 5;
      if (checksum(fresh + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: map from into fresh memory wrong\n", n);
      free(fresh);
      /* both ways at once: c from the device on another thread while b goes to the device */
#pragma omp target enter data map(to: c[1:n]) map(alloc: b[1:n])
#pragma omp target teams distribute parallel for map(alloc: c[1:n])
      for (long i = 1; i <= n; i++) c[i] = (double)(i % 23) + 0.5;
      for (long i = 1; i <= n; i++) b[i] = (double)(i % 29), c[i] = -7;
      struct update other = {c, n};
      pthread_t t;
      int threaded = pthread_create(&t, NULL, update_from, &other) == 0;
#pragma omp target update to(b[1:n])
      if (threaded) pthread_join(t, NULL);
      else update_from(&other);
#pragma omp target teams distribute parallel for map(alloc: b[1:n])
      for (long i = 1; i <= n; i++) b[i] = b[i] + 1;
#pragma omp target exit data map(from: b[1:n]) map(delete: c[1:n])
      for (long i = 1; i <= n; i++) want[i] = (double)(i % 23) + 0.5;
      if (checksum(c + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: update from beside another thread wrong\n", n);
      for (long i = 1; i <= n; i++) want[i] = (double)(i % 29) + 1;
      if (checksum(b + 1, n) != checksum(want + 1, n)) fails++, printf("size %ld: update to beside another thread wrong\n", n);
    }
    /* omp_target_memcpy host -> device -> host */
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    if (omp_get_num_devices() > 0) {
      double *d = (double *)omp_target_alloc(sizeof(double) * n, dev);
      for (long i = 1; i <= n; i++) c[i] = -3;
      if (!d || omp_target_memcpy(d, a + 1, sizeof(double) * n, 0, 0, dev, host) ||
          omp_target_memcpy(c + 1, d, sizeof(double) * n, 0, 0, host, dev))
        fails++, printf("size %ld: omp_target_memcpy failed\n", n);
      else if (checksum(c + 1, n) != checksum(a + 1, n))
        fails++, printf("size %ld: omp_target_memcpy wrong\n", n);
      omp_target_free(d, dev);
    }
    free(a), free(b), free(c), free(want);
  }
  printf("%d sizes checked\n", (int)(sizeof kSizes / sizeof kSizes[0]));
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
