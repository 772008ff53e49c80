/*
 * replay_main.c - runs fuzz inputs through the fuzz target without libFuzzer
 * (for valgrind, ThreadSanitizer or plain builds, and for the regression
 * tests). Arguments are files or directories (their regular files, sorted).
 * Exits non-zero if an input could not be read; an oracle violation or a
 * sanitizer report aborts, as under libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) { fclose(f); free(buf); perror(path); return 1; }
    fclose(f);
    if (getenv("CADENCE_REPLAY_VERBOSE")) fprintf(stderr, "replay %s (%ld bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { perror(argv[i]); bad = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[i]); count++; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { perror(argv[i]); bad = 1; continue; }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.') continue;
            size_t len = strlen(argv[i]) + strlen(de->d_name) + 2;
            char *p = malloc(len);
            snprintf(p, len, "%s/%s", argv[i], de->d_name);
            struct stat fs;
            if (stat(p, &fs) != 0 || !S_ISREG(fs.st_mode)) { free(p); continue; }
            names = realloc(names, (nn + 1) * sizeof *names);
            names[nn++] = p;
        }
        closedir(d);
        qsort(names, nn, sizeof *names, cmp);
        for (size_t k = 0; k < nn; k++) { bad |= run_file(names[k]); count++; free(names[k]); }
        free(names);
    }
    fprintf(stderr, "replayed %d input(s)\n", count);
    return bad;
}
