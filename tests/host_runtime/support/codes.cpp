// Test helper compiled with the same force-included CUDA header as the runtime: gives
// the C test programs CUDA error codes and, with the mock, allocation counts.
extern "C" int tc_err_launch_failure(void) { return (int)cudaErrorLaunchFailure; }
extern "C" int tc_live_allocations(void) {
#ifdef OMPGPU_TEST_CUDA_MOCK_H
  return cuda_mock_live_allocations();
#else
  return -1;   // unknown with the real emulator
#endif
}
