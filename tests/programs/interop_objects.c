/* covers: the interop construct (OpenMP 5.1: init with target and targetsync, prefer_type, use, destroy, device, depend, nowait), the interop routines (omp_get_interop_int/ptr/str/name/type_desc/rc_desc, omp_get_num_interop_properties), a dispatch whose variant gets interop objects through append_args */
/* Interop objects of the default device. A host fallback (no GPU) gets omp_interop_none, which
   the program checks too: the printed lines are the same either way. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* the variant receives an interop object with targetsync after its own argument */
int scaled_with_interop(int x, omp_interop_t sync) {
  int rc = 0;
  if (sync == omp_interop_none) return 10 * x;   /* the host */
  int fr = (int)omp_get_interop_int(sync, omp_ipr_fr_id, &rc);
  void *stream = omp_get_interop_ptr(sync, omp_ipr_targetsync, &rc);
  return fr == omp_ifr_cuda && rc == omp_irc_success && stream != NULL ? 10 * x : -1;
}
#pragma omp declare variant(scaled_with_interop) match(construct={dispatch}) append_args(interop(targetsync))
int scaled(int x) { return x; }

static int check_object(omp_interop_t obj, int dev, int want_sync) {
  int rc = 0, bad = 0;
  if (obj == omp_interop_none) return 0;   /* the region's device is the host */
  if (omp_get_interop_int(obj, omp_ipr_fr_id, &rc) != omp_ifr_cuda || rc != omp_irc_success) bad++;
  const char *fr_name = omp_get_interop_str(obj, omp_ipr_fr_name, &rc);
  if (fr_name == NULL || strcmp(fr_name, "cuda") != 0 || rc != omp_irc_success) bad++;
  const char *vendor = omp_get_interop_str(obj, omp_ipr_vendor_name, &rc);
  if (vendor == NULL || strcmp(vendor, "nvidia") != 0) bad++;
  if (omp_get_interop_int(obj, omp_ipr_device_num, &rc) != dev || rc != omp_irc_success) bad++;
  void *stream = omp_get_interop_ptr(obj, omp_ipr_targetsync, &rc);
  if (want_sync && (stream == NULL || rc != omp_irc_success)) bad++;
  if (!want_sync && rc != omp_irc_no_value) bad++;
  (void)omp_get_interop_str(obj, omp_ipr_fr_id, &rc);   /* an int property read as a string */
  if (rc != omp_irc_type_int) bad++;
  (void)omp_get_interop_int(obj, (omp_interop_property_t)-42, &rc);
  if (rc != omp_irc_out_of_range) bad++;
  if (strcmp(omp_get_interop_name(obj, omp_ipr_targetsync), "targetsync") != 0) bad++;
  if (omp_get_interop_type_desc(obj, omp_ipr_fr_name) == NULL) bad++;
  if (omp_get_interop_rc_desc(obj, omp_irc_success) == NULL) bad++;
  if (omp_get_num_interop_properties(obj) < 0) bad++;
  return bad;
}

int main(void) {
  int failures = 0;
  int dev = omp_get_default_device();
  int data[4] = {0, 0, 0, 0};

  omp_interop_t sync_obj = omp_interop_none, plain_obj = omp_interop_none;
  #pragma omp interop init(targetsync: sync_obj) device(dev) depend(inout: data) nowait
  #pragma omp interop init(prefer_type("cuda"), target: plain_obj)
  int bad = check_object(sync_obj, dev, 1) + check_object(plain_obj, dev, 0);
  printf("interop objects: %s\n", bad ? "WRONG" : "ok");
  failures += bad != 0;

  #pragma omp interop use(sync_obj)
  #pragma omp interop destroy(sync_obj) destroy(plain_obj)
  printf("destroy sets omp_interop_none: %s\n",
         sync_obj == omp_interop_none && plain_obj == omp_interop_none ? "ok" : "WRONG");
  failures += sync_obj != omp_interop_none || plain_obj != omp_interop_none;

  int r = 0, rc = 0;
  (void)omp_get_interop_int(sync_obj, omp_ipr_fr_id, &rc);
  printf("omp_interop_none has no properties: %s\n", rc == omp_irc_empty ? "ok" : "WRONG");
  failures += rc != omp_irc_empty;

  #pragma omp dispatch
  r = scaled(4);
  printf("append_args: %s\n", r == 40 ? "ok" : "WRONG");
  failures += r != 40;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
