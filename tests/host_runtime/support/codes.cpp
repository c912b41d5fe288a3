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
// successful cudaMalloc calls so far (-1: unknown, with the real emulator)
extern "C" long long tc_malloc_calls(void) {
#ifdef OMPGPU_TEST_CUDA_MOCK_H
  return cuda_mock_malloc_calls();
#else
  return -1;
#endif
}
// cudaStreamSynchronize (which = 0) or cudaStreamWaitEvent (which = 1) calls so far (-1: unknown)
extern "C" long long tc_stream_calls(int which) {
#ifdef OMPGPU_TEST_CUDA_MOCK_H
  return cuda_mock_stream_calls(which);
#else
  (void)which;
  return -1;
#endif
}
// bytes of device memory allocated (all devices with the mock; the current one with the
// emulator, which has one unless OMPGPU_EMU_DEVICES says otherwise)
extern "C" long long tc_used_bytes(void) {
#ifdef OMPGPU_TEST_CUDA_MOCK_H
  return cuda_mock_used_bytes();
#else
  size_t free_b = 0, total = 0;
  if (cudaMemGetInfo(&free_b, &total) != cudaSuccess) return -1;
  return (long long)(total - free_b);
#endif
}
