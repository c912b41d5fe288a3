/* covers: every OpenMP 4.5/5.0 runtime routine allowed in a target region, called on the device in serial target code, in teams and in (nested) parallel regions, with the values the specification fixes: thread/team numbers and sizes, levels, ancestors, thread limit, ICV getters and setters (num_threads, dynamic, nested, max_active_levels, schedule), cancellation, final, task priority, supported active levels, proc bind and places, device numbers (device, initial, default, count), timers, simple and nest locks (with hints) */
#include <stdio.h>
#include <omp.h>

#define NCHECK 64
#define NT 6

static const char *names[NCHECK];
static int nchecks;

static int check(const char *name) {
  names[nchecks] = name;
  return nchecks++;
}

int main(void) {
  int ok[NCHECK];
  for (int i = 0; i < NCHECK; i++) ok[i] = 0;

  int host_num_devices = omp_get_num_devices();
  int host_initial_device = omp_get_initial_device();
  int dev = omp_get_default_device();

  /* serial code of a target region: the initial thread of the device */
  const int c_initial = check("is_initial_device == 0");
  const int c_serial_ids = check("serial: thread 0 of 1, team 0 of 1");
  const int c_levels0 = check("serial: level 0, active level 0, not in parallel");
  const int c_ancestors0 = check("serial: ancestor(0) = 0, team_size(0) = 1, level 1 and -1 give -1");
  const int c_limits = check("thread_limit, max_threads, num_procs >= 1");
  const int c_icv_bools = check("dynamic, nested, cancellation, in_final are 0 or 1; in_final = 0");
  const int c_levels_icv = check("1 <= max_active_levels <= supported_active_levels");
  const int c_priority = check("max_task_priority = 0 (default)");
  const int c_schedule = check("get_schedule: a schedule kind, chunk >= 0");
  const int c_bind = check("proc_bind is a binding policy; no places on the device");
  const int c_devnum = check("device_num = the device the region runs on");
  const int c_numdev = check("num_devices and initial_device as on the host");
  const int c_dflt = check("default_device is a device number");
  const int c_time = check("wtime increases, wtick > 0");
  const int c_lock = check("simple lock: set, test fails while held, unset, test succeeds");
  const int c_nest = check("nest lock: test counts nesting, unset releases");
  const int c_hint = check("locks with hints behave as plain locks");
  const int c_setters = check("omp_set_dynamic/nested/schedule/max_active_levels may be called");
#pragma omp target map(tofrom: ok) device(dev)
  {
    ok[c_initial] = omp_is_initial_device() == 0;
    ok[c_serial_ids] = omp_get_thread_num() == 0 && omp_get_num_threads() == 1 && omp_get_team_num() == 0 &&
                       omp_get_num_teams() == 1;
    ok[c_levels0] = omp_get_level() == 0 && omp_get_active_level() == 0 && omp_in_parallel() == 0;
    ok[c_ancestors0] = omp_get_ancestor_thread_num(0) == 0 && omp_get_team_size(0) == 1 &&
                       omp_get_ancestor_thread_num(1) == -1 && omp_get_team_size(1) == -1 &&
                       omp_get_ancestor_thread_num(-1) == -1 && omp_get_team_size(-1) == -1;
    ok[c_limits] = omp_get_thread_limit() >= 1 && omp_get_max_threads() >= 1 && omp_get_num_procs() >= 1;
    int dyn = omp_get_dynamic(), nested = omp_get_nested(), cancel = omp_get_cancellation();
    ok[c_icv_bools] = (dyn == 0 || dyn == 1) && (nested == 0 || nested == 1) && (cancel == 0 || cancel == 1) &&
                      omp_in_final() == 0;
    ok[c_levels_icv] = omp_get_max_active_levels() >= 1 &&
                       omp_get_max_active_levels() <= omp_get_supported_active_levels();
    ok[c_priority] = omp_get_max_task_priority() == 0;
    omp_sched_t kind;
    int chunk = -1;
    omp_get_schedule(&kind, &chunk);
    int base = (int)kind & 0x7fffffff;
    ok[c_schedule] = base >= 1 && base <= 4 && chunk >= 0;
    omp_proc_bind_t bind = omp_get_proc_bind();
    ok[c_bind] = (int)bind >= 0 && (int)bind <= 4 && omp_get_num_places() >= 0 &&
                 (omp_get_num_places() > 0 || omp_get_place_num() == -1) && omp_get_partition_num_places() >= 0;
    ok[c_devnum] = omp_get_device_num() == dev;
    ok[c_numdev] = omp_get_num_devices() == host_num_devices && omp_get_initial_device() == host_initial_device;
    int d = omp_get_default_device();
    ok[c_dflt] = d >= 0 && d < omp_get_num_devices();
    double t0 = omp_get_wtime();
    volatile double x = 1.0;
    for (int i = 0; i < 20000; i++) x = x * 1.0000001 + 1e-9;
    double t1 = omp_get_wtime();
    ok[c_time] = t1 > t0 && omp_get_wtick() > 0.0;

    omp_lock_t l;
    omp_init_lock(&l);
    omp_set_lock(&l);
    int held = omp_test_lock(&l);
    omp_unset_lock(&l);
    int got = omp_test_lock(&l);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
    ok[c_lock] = held == 0 && got == 1;

    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
    omp_set_nest_lock(&nl);
    int depth2 = omp_test_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    int again = omp_test_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_destroy_nest_lock(&nl);
    ok[c_nest] = depth2 == 2 && again == 1;

    omp_lock_t hl;
    omp_nest_lock_t hnl;
    omp_init_lock_with_hint(&hl, omp_sync_hint_uncontended);
    omp_init_nest_lock_with_hint(&hnl, omp_lock_hint_contended);
    int h1 = omp_test_lock(&hl), h2 = omp_test_lock(&hl);
    int n1 = omp_test_nest_lock(&hnl), n2 = omp_test_nest_lock(&hnl);
    omp_unset_lock(&hl);
    omp_unset_nest_lock(&hnl);
    omp_unset_nest_lock(&hnl);
    omp_destroy_lock(&hl);
    omp_destroy_nest_lock(&hnl);
    ok[c_hint] = h1 == 1 && h2 == 0 && n1 == 1 && n2 == 2;

    omp_set_dynamic(0);
    omp_set_nested(0);
    omp_set_schedule(omp_sched_static, 0);
    omp_set_max_active_levels(1);
    ok[c_setters] = omp_get_dynamic() == 0 && omp_get_max_active_levels() == 1;
  }

  /* teams: team numbers are 0..n-1 */
  const int c_teams = check("teams: team numbers are exactly 0..num_teams-1, the same num_teams everywhere");
  int seen[64];
  int nteams = -1, bad_nteams = 0;
  for (int i = 0; i < 64; i++) seen[i] = 0;
#pragma omp target teams num_teams(8) map(tofrom: seen, nteams, bad_nteams)
  {
    int t = omp_get_team_num(), n = omp_get_num_teams();
#pragma omp parallel num_threads(1)
    {
      if (t == 0) nteams = n;
#pragma omp atomic
      seen[t] += 1;
      if (n < 1 || n > 8) {
#pragma omp atomic write
        bad_nteams = 1;
      }
    }
  }
  int teams_ok = nteams >= 1 && nteams <= 8 && !bad_nteams;
  for (int i = 0; i < 64; i++) teams_ok = teams_ok && seen[i] == (i < nteams ? 1 : 0);
  ok[c_teams] = teams_ok;

  /* a parallel region of NT threads, and a region nested in it */
  const int c_par = check("parallel: level 1, active level 1, in parallel, thread ids 0..NT-1 of NT");
  const int c_par_anc = check("parallel: ancestor(1) = thread num, ancestor(0) = 0, team_size(1) = NT, team_size(0) = 1");
  const int c_nested = check("nested parallel: level 2, thread 0 of 1, ancestor(1) = outer thread, team_size(2) = 1");
  const int c_setnum = check("omp_set_num_threads(3) in serial code: the next parallel region has 3 threads");
  int ids[NT], par_bad = 0, anc_bad = 0, nest_bad = 0, set_threads = -1;
  for (int i = 0; i < NT; i++) ids[i] = 0;
#pragma omp target map(tofrom: ids, par_bad, anc_bad, nest_bad, set_threads)
  {
#pragma omp parallel num_threads(NT)
    {
      int t = omp_get_thread_num();
      if (omp_get_level() != 1 || omp_get_active_level() != 1 || !omp_in_parallel() || omp_get_num_threads() != NT ||
          t < 0 || t >= NT) {
#pragma omp atomic write
        par_bad = 1;
      } else {
#pragma omp atomic
        ids[t] += 1;
      }
      if (omp_get_ancestor_thread_num(1) != t || omp_get_ancestor_thread_num(0) != 0 || omp_get_team_size(1) != NT ||
          omp_get_team_size(0) != 1) {
#pragma omp atomic write
        anc_bad = 1;
      }
#pragma omp parallel num_threads(2)
      {
        if (omp_get_level() != 2 || omp_get_active_level() != 1 || omp_get_thread_num() != 0 ||
            omp_get_num_threads() != 1 || omp_get_ancestor_thread_num(1) != t ||
            omp_get_ancestor_thread_num(2) != 0 || omp_get_team_size(2) != 1) {
#pragma omp atomic write
          nest_bad = 1;
        }
      }
    }
    omp_set_num_threads(3);
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) set_threads = omp_get_num_threads();
    }
  }
  int ids_ok = !par_bad;
  for (int i = 0; i < NT; i++) ids_ok = ids_ok && ids[i] == 1;
  ok[c_par] = ids_ok;
  ok[c_par_anc] = !anc_bad;
  ok[c_nested] = !nest_bad;
  ok[c_setnum] = set_threads == 3;

  int failed = 0;
  for (int i = 0; i < nchecks; i++) {
    printf("%-4s %s\n", ok[i] ? "ok" : "BAD", names[i]);
    failed += !ok[i];
  }
  printf("%s\n", failed ? "FAIL" : "PASS");
  return 0;
}
