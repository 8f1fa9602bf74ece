#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    char *(*version)(void);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static const char *load_error = "libcurl was not loaded";

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = "libcurl.so.4 was not found (install libcurl4)";
        return;
    }
#define LOAD(field, name)                                   \
    *(void **)(&curl.field) = dlsym(library, name);         \
    if (!curl.field) {                                      \
        load_error = "libcurl lacks " name;                 \
        return;                                             \
    }
    LOAD(global_init, "curl_global_init")
    LOAD(easy_init, "curl_easy_init")
    LOAD(easy_cleanup, "curl_easy_cleanup")
    LOAD(easy_perform, "curl_easy_perform")
    LOAD(easy_strerror, "curl_easy_strerror")
    LOAD(slist_append, "curl_slist_append")
    LOAD(slist_free_all, "curl_slist_free_all")
    LOAD(easy_setopt, "curl_easy_setopt")
    LOAD(easy_getinfo, "curl_easy_getinfo")
    LOAD(version, "curl_version")
#undef LOAD
    // curl_global_init is not thread-safe: it runs here, once, under pthread_once.
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_error = "curl_global_init failed";
        return;
    }
    loaded = 1;
}

int ccurl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *ccurl_load_error(void) { return load_error; }

const char *ccurl_version(void) { return ccurl_load() ? curl.version() : NULL; }

CURLcode ccurl_global_init(long flags) { return curl.global_init(flags); }
CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) { return curl.slist_append(list, string); }
void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value) { return curl.easy_getinfo(handle, info, value); }
