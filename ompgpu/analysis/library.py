"""What device code may call without a definition in the user's file."""

# Functions a kernel may call without a definition in the file: CUDA provides them on the device.
DEVICE_LIBRARY = frozenset("""
printf malloc free memcpy memset memcmp abs labs llabs
sqrt sqrtf cbrt cbrtf exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf
pow powf sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf
tanh tanhf asinh acosh atanh fabs fabsf floor floorf ceil ceilf round roundf trunc truncf fmod fmodf
fmin fminf fmax fmaxf hypot hypotf erf erff erfc erfcf lround lroundf llround rint rintf nearbyint
copysign copysignf fma fmaf ldexp ldexpf frexp frexpf modf modff rsqrt rsqrtf isnan isinf isfinite signbit
tgamma lgamma remainder remainderf fdim fdimf nan nanf __assert_fail
""".split())
OMP_DEVICE_API = frozenset("""
omp_get_thread_num omp_get_num_threads omp_get_team_num omp_get_num_teams omp_get_level omp_get_active_level
omp_in_parallel omp_get_max_threads omp_get_thread_limit omp_get_num_procs omp_is_initial_device omp_get_wtime
omp_get_wtick omp_get_ancestor_thread_num omp_get_team_size omp_get_device_num omp_init_lock omp_destroy_lock
omp_set_lock omp_unset_lock omp_test_lock omp_init_nest_lock omp_destroy_nest_lock omp_set_nest_lock
omp_unset_nest_lock omp_test_nest_lock omp_get_num_devices omp_get_default_device
""".split())

# Library functions without side effects: calling them in a kernel's serial code keeps the
# kernel SPMD-eligible (every thread computes the same value).
PURE_LIBRARY = DEVICE_LIBRARY - frozenset("printf malloc free memcpy memset frexp frexpf modf modff __assert_fail".split())
