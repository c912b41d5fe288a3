/* directives under #if/#ifdef, _OPENMP checks, stub fallbacks, directives selected by macros, #pragma once-free include guards in the same file */
#ifndef CONDITIONAL_COMPILATION_GUARD
#define CONDITIONAL_COMPILATION_GUARD

#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_is_initial_device(void) { return 1; }
#endif

#ifndef USE_GPU
#define USE_GPU 1
#endif

#if defined(_OPENMP) && _OPENMP >= 201307
#define HAVE_TARGET 1
#else
#define HAVE_TARGET 0
#endif

#define N 100

int main(void) {
  double a[N];
  int on_host = -1;
  for (int i = 0; i < N; i++) a[i] = i;

#if HAVE_TARGET && USE_GPU
#pragma omp target teams distribute parallel for map(tofrom: a)
#elif HAVE_TARGET
#pragma omp parallel for
#endif
  for (int i = 0; i < N; i++) a[i] *= 2.0;

#ifdef _OPENMP
#pragma omp target map(from: on_host)
#endif
  on_host = omp_is_initial_device();

#if 0
#pragma omp this is never seen by the compiler
#endif

#if USE_GPU
#pragma omp target map(tofrom: a)
  {
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      if (omp_get_thread_num() == 0) a[0] = -1.0;
    }
  }
#endif
  printf("%f %d\n", a[N - 1], on_host);
  return 0;
}

#endif /* CONDITIONAL_COMPILATION_GUARD */
