#include "clineeditor.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static char *(*editor_readline)(const char *);
static int (*editor_add_history)(const char *);
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;

static void load(void) {
    void *library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libedit.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    *(void **)(&editor_readline) = dlsym(library, "readline");
    *(void **)(&editor_add_history) = dlsym(library, "add_history");
    loaded = editor_readline != NULL && editor_add_history != NULL;
}

int cle_load(void) {
    pthread_once(&once, load);
    return loaded;
}

char *cle_readline(const char *prompt) { return cle_load() ? editor_readline(prompt) : NULL; }

void cle_add_history(const char *line) {
    if (cle_load() && line && *line) editor_add_history(line);
}

void cle_free(char *line) { free(line); }
