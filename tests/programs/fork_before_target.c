/* covers: fork() and system() while the runtime starts its devices, before the first target region: the child works on the host and exits, the parent offloads afterwards (a child that offloads too: tests/host_runtime/test_whole_run.py, which sets OMP_TARGET_OFFLOAD and OMPGPU_STARTUP) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static long sum_on_device(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
  for (int i = 0; i < n; i++) s += i;
  return s;
}

int main(void) {
  const int n = 100000;
  const long want = (long)n * (n - 1) / 2;
  fflush(stdout);
  if (system("exit 3") == -1) printf("system() failed\n");
  pid_t child = fork();
  if (child < 0) {
    printf("fork failed\n");
    return 1;
  }
  if (child == 0) {   /* host work only: under OMP_TARGET_OFFLOAD=MANDATORY a child of a started runtime cannot offload */
    long s = 0;
    for (int i = 0; i < n; i++) s += i;
    _exit(s == want ? 0 : 1);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) printf("child did not end normally\n");
  else printf("child: %s\n", WEXITSTATUS(status) == 0 ? "PASS" : "FAIL");
  long s = sum_on_device(n);
  printf("parent: %s\n", s == want ? "PASS" : "FAIL");
  printf("%s\n", s == want && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "PASS" : "FAIL");
  return 0;
}
