/* header_plugin_host.c - loads header_plugin.c's shared object (linked) and runs it. */
#include <stdio.h>

int plugin_run(void);

int main(void) {
  int rc = plugin_run();
  if (rc != 0) fprintf(stderr, "header_plugin: plugin_run() returned %d\n", rc);
  return rc;
}
