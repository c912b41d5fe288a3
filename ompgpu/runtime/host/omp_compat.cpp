// OpenMP host routines that the host compiler's OpenMP runtime may lack: libgomp 12 declares
// omp_init_lock_with_hint and omp_init_nest_lock_with_hint in omp.h but does not define
// them, so a program calling them on the host (or in a target region's host fallback) would
// not link. A hint may be ignored (OpenMP 5.0, 3.3.2): the lock is initialised as a plain one.
// Weak, so a runtime that does define them wins; and the plain routines they call are weak
// references, so the runtime also links where no OpenMP library is (its unit tests).
#include <omp.h>

#pragma weak omp_init_lock
#pragma weak omp_init_nest_lock

extern "C" {
__attribute__((weak)) void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t) {
  if (omp_init_lock) omp_init_lock(lock);
}
__attribute__((weak)) void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t) {
  if (omp_init_nest_lock) omp_init_nest_lock(lock);
}
}
