/* omp_target_memcpy_async and omp_target_memcpy_rect_async (OpenMP 5.1), compiled into the
   user's host code: the copy is a task of the host's OpenMP (the user's calls are renamed to
   these), which the runtime library, built without OpenMP, cannot create. Included at the end
   of a generated host file that calls them, after the user's own <omp.h>, whose types it uses
   (no header of its own: the file's text is already preprocessed); weak, since several files
   may define them.

   The copy waits for the tasks its dependence objects name, and tasks that later name them
   wait for the copy: up to four objects, the copy is one task with those dependences (gcc
   takes no list of them of a length known only at run time); with more, the caller waits for
   its child tasks (every task a dependence object can order) and copies at once, which orders
   the copy the same way, with no overlap. Without dependence objects the copy is a plain task.
   Bad arguments are reported at once (non-zero), as the synchronous routines report them. */
#ifndef OMPGPU_ASYNC_H
#define OMPGPU_ASYNC_H

extern void *malloc(size_t);
extern void *calloc(size_t, size_t);
extern void free(void *);

typedef struct {
  int rect;
  void *dst;
  const void *src;
  size_t length, dst_offset, src_offset, element_size;
  int num_dims, dst_device, src_device;
  size_t *dims;  /* rect: volume, dst_offsets, src_offsets, dst_dimensions, src_dimensions */
} ompgpu_async_copy;

static void ompgpu_async_copy_run(ompgpu_async_copy *job) {
  size_t *d = job->dims;
  int n = job->num_dims;
  if (job->rect)
    ompgpu_omp_target_memcpy_rect(job->dst, job->src, job->element_size, n, d, d + n, d + 2 * n, d + 3 * n, d + 4 * n,
                                  job->dst_device, job->src_device);
  else
    ompgpu_omp_target_memcpy(job->dst, job->src, job->length, job->dst_offset, job->src_offset, job->dst_device,
                             job->src_device);
}

static ompgpu_async_copy *ompgpu_async_copy_new(void *dst, const void *src, int dst_device, int src_device) {
  ompgpu_async_copy *job = (ompgpu_async_copy *)calloc(1, sizeof *job);
  if (job) {
    job->dst = dst;
    job->src = src;
    job->dst_device = dst_device;
    job->src_device = src_device;
  }
  return job;
}

static void ompgpu_async_copy_finish(ompgpu_async_copy *job) {
  ompgpu_async_copy_run(job);
  free(job->dims);
  free(job);
}

static int ompgpu_async_copy_start(ompgpu_async_copy *job, int depobj_count, void *depobjs) {
  omp_depend_t *o = (omp_depend_t *)depobjs;
  if (depobj_count <= 0 || !o) {
#pragma omp task firstprivate(job)
    ompgpu_async_copy_finish(job);
    return 0;
  }
  if (depobj_count == 1) {
    omp_depend_t o0 = o[0];
#pragma omp task depend(depobj: o0) firstprivate(job)
    ompgpu_async_copy_finish(job);
  } else if (depobj_count == 2) {
    omp_depend_t o0 = o[0], o1 = o[1];
#pragma omp task depend(depobj: o0, o1) firstprivate(job)
    ompgpu_async_copy_finish(job);
  } else if (depobj_count == 3) {
    omp_depend_t o0 = o[0], o1 = o[1], o2 = o[2];
#pragma omp task depend(depobj: o0, o1, o2) firstprivate(job)
    ompgpu_async_copy_finish(job);
  } else if (depobj_count == 4) {
    omp_depend_t o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3];
#pragma omp task depend(depobj: o0, o1, o2, o3) firstprivate(job)
    ompgpu_async_copy_finish(job);
  } else {
#pragma omp taskwait
    ompgpu_async_copy_finish(job);
  }
  return 0;
}

__attribute__((weak)) int ompgpu_omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                                                         size_t src_offset, int dst_device_num, int src_device_num,
                                                         int depobj_count, void *depobj_list) {
  if (!dst || !src || ompgpu_check_copy_devices(dst_device_num, src_device_num)) return 1;
  ompgpu_async_copy *job = ompgpu_async_copy_new(dst, src, dst_device_num, src_device_num);
  if (!job) return 1;
  job->length = length;
  job->dst_offset = dst_offset;
  job->src_offset = src_offset;
  return ompgpu_async_copy_start(job, depobj_count, depobj_list);
}

__attribute__((weak)) int ompgpu_omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size,
                                                              int num_dims, const size_t *volume,
                                                              const size_t *dst_offsets, const size_t *src_offsets,
                                                              const size_t *dst_dimensions,
                                                              const size_t *src_dimensions, int dst_device_num,
                                                              int src_device_num, int depobj_count, void *depobj_list) {
  if (!dst && !src) return ompgpu_omp_target_memcpy_rect(dst, src, element_size, num_dims, volume, dst_offsets,
                                                         src_offsets, dst_dimensions, src_dimensions, dst_device_num,
                                                         src_device_num);  /* the query form */
  if (!dst || !src || num_dims < 1 || element_size == 0 || !volume || !dst_offsets || !src_offsets ||
      !dst_dimensions || !src_dimensions || ompgpu_check_copy_devices(dst_device_num, src_device_num))
    return 1;
  ompgpu_async_copy *job = ompgpu_async_copy_new(dst, src, dst_device_num, src_device_num);
  size_t *dims = (size_t *)malloc(sizeof(size_t) * 5 * (size_t)num_dims);
  if (!job || !dims) {
    free(job);
    free(dims);
    return 1;
  }
  const size_t *parts[5] = {volume, dst_offsets, src_offsets, dst_dimensions, src_dimensions};
  for (int p = 0; p < 5; p++)
    for (int i = 0; i < num_dims; i++) dims[p * num_dims + i] = parts[p][i];  /* the caller's arrays may go */
  job->rect = 1;
  job->element_size = element_size;
  job->num_dims = num_dims;
  job->dims = dims;
  return ompgpu_async_copy_start(job, depobj_count, depobj_list);
}

#endif /* OMPGPU_ASYNC_H */
