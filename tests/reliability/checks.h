/*
 * checks.h - named checks with a known-failures list, for the reliability tests.
 *
 * A program reports each check by name with check_result(name, ok, detail).
 * The file named by $CADENCE_KNOWN_FAILURES (scripts/reliability.sh sets it to
 * tests/reliability/known_failures.txt) lists checks that fail because of an
 * engine bug not fixed yet, one per line: "check-name  reason" ('#' starts a
 * comment). A listed check that fails is reported as XFAIL and does not fail
 * the run; one that passes is reported as XPASS (delete its line). check_exit()
 * returns 1 if any check not listed failed (or, with CADENCE_STRICT=1, if any
 * listed one passed).
 */
#ifndef CADENCE_RELIABILITY_CHECKS_H
#define CADENCE_RELIABILITY_CHECKS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char check_known[64][96];
static int check_nknown = -1;
static int check_failed, check_passed, check_xfail, check_xpass;

static inline void check_load_known(void) {
    if (check_nknown >= 0) return;
    check_nknown = 0;
    const char *path = getenv("CADENCE_KNOWN_FAILURES");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f) && check_nknown < 64) {
        char name[96];
        if (line[0] == '#' || sscanf(line, "%95s", name) != 1 || name[0] == '#') continue;
        memcpy(check_known[check_nknown++], name, sizeof name);
    }
    fclose(f);
}

static inline int check_is_known(const char *name) {
    check_load_known();
    for (int i = 0; i < check_nknown; i++)
        if (strcmp(check_known[i], name) == 0) return 1;
    return 0;
}

static inline void check_result(const char *name, int ok, const char *detail) {
    int known = check_is_known(name);
    if (ok && !known) { check_passed++; printf("PASS  %s\n", name); }
    else if (ok) { check_xpass++; printf("XPASS %s (listed in known failures: delete its line)\n", name); }
    else if (known) { check_xfail++; printf("XFAIL %s: %s\n", name, detail ? detail : ""); }
    else { check_failed++; printf("FAIL  %s: %s\n", name, detail ? detail : ""); }
    fflush(stdout);
}

static inline int check_exit(const char *program) {
    const char *strict = getenv("CADENCE_STRICT");
    int bad = check_failed > 0 || (strict && *strict == '1' && check_xpass > 0);
    printf("%s: %d passed, %d failed, %d known failures, %d unexpectedly passing\n", program, check_passed,
           check_failed, check_xfail, check_xpass);
    return bad ? 1 : 0;
}

#endif
