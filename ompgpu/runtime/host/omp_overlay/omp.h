/* ompgpu's overlay of <omp.h>: the host OpenMP library's own header, then the OpenMP 5.1
   interop API where that header lacks it (gcc's libgomp before gcc 15). ompgpu's host runtime
   implements the routines (runtime/host/interop.cpp) for its devices. The preprocessor finds
   this file first (ompgpu passes this directory with -isystem), and it includes the next omp.h
   on the search path. */
#include_next <omp.h>

#ifndef OMPGPU_OMP_OVERLAY_H
#define OMPGPU_OMP_OVERLAY_H

#if !defined(omp_interop_none) && !defined(__clang__) && defined(__GNUC__) && __GNUC__ < 15
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef intptr_t omp_intptr_t;
typedef enum omp_interop_property {
  omp_ipr_fr_id = -1,
  omp_ipr_fr_name = -2,
  omp_ipr_vendor = -3,
  omp_ipr_vendor_name = -4,
  omp_ipr_device_num = -5,
  omp_ipr_platform = -6,
  omp_ipr_device = -7,
  omp_ipr_device_context = -8,
  omp_ipr_targetsync = -9,
  omp_ipr_first = -9
} omp_interop_property_t;
#define omp_interop_none 0
typedef enum omp_interop_rc {
  omp_irc_no_value = 1,
  omp_irc_success = 0,
  omp_irc_empty = -1,
  omp_irc_out_of_range = -2,
  omp_irc_type_int = -3,
  omp_irc_type_ptr = -4,
  omp_irc_type_str = -5,
  omp_irc_other = -6
} omp_interop_rc_t;
typedef enum omp_interop_fr {
  omp_ifr_cuda = 1,
  omp_ifr_cuda_driver = 2,
  omp_ifr_opencl = 3,
  omp_ifr_sycl = 4,
  omp_ifr_hip = 5,
  omp_ifr_level_zero = 6,
  omp_ifr_last = 7
} omp_interop_fr_t;
typedef void *omp_interop_t;
/* tells ompgpu that these declarations are its own (a build without offload defines the routines) */
enum { __ompgpu_overlay_declares_interop = 1 };
extern int omp_get_num_interop_properties(const omp_interop_t);
extern omp_intptr_t omp_get_interop_int(const omp_interop_t, omp_interop_property_t, int *);
extern void *omp_get_interop_ptr(const omp_interop_t, omp_interop_property_t, int *);
extern const char *omp_get_interop_str(const omp_interop_t, omp_interop_property_t, int *);
extern const char *omp_get_interop_name(const omp_interop_t, omp_interop_property_t);
extern const char *omp_get_interop_type_desc(const omp_interop_t, omp_interop_property_t);
extern const char *omp_get_interop_rc_desc(const omp_interop_t, omp_interop_rc_t);
#ifdef __cplusplus
}
#endif
#endif

/* OpenMP 5.1's omp_target_is_accessible (gcc 12's omp.h lacks it; declaring it again where the
   host's header has it is harmless) */
#if !defined(__clang__) && defined(__GNUC__)
#include <stddef.h>
#ifdef __cplusplus
extern "C"
#endif
int omp_target_is_accessible(const void *, size_t, int);
#endif

#endif /* OMPGPU_OMP_OVERLAY_H */
