#include "cgit2.h"

#include <dlfcn.h>
#include <git2/sys/stream.h>
#include <pthread.h>
#include <stdio.h>

// Every libgit2 function cyd calls, once: (return type, name, parameters, arguments). Each is
// defined below with the header's own prototype (so the compiler checks the signature) and
// forwards to the loaded library. A function not listed here fails at link time, not at run time.
#define CGIT2_FUNCTIONS(F, V)                                                                                              \
    F(const void *, git_blob_rawcontent, (const git_blob *blob), (blob))                                                   \
    F(git_object_size_t, git_blob_rawsize, (const git_blob *blob), (blob))                                                 \
    V(git_buf_dispose, (git_buf *buffer), (buffer))                                                                        \
    F(const git_error *, git_error_last, (void), ())                                                                       \
    F(int, git_error_set_str, (int error_class, const char *string), (error_class, string))                               \
    F(int, git_fetch_options_init, (git_fetch_options *opts, unsigned int version), (opts, version))                      \
    F(int, git_libgit2_init, (void), ())                                                                                   \
    F(int, git_libgit2_version, (int *major, int *minor, int *rev), (major, minor, rev))                                  \
    V(git_object_free, (git_object *object), (object))                                                                     \
    F(const git_oid *, git_object_id, (const git_object *obj), (obj))                                                      \
    F(int, git_repository_open_ext, (git_repository **out, const char *path, unsigned int flags, const char *ceiling_dirs), \
      (out, path, flags, ceiling_dirs))                                                                                    \
    F(const char *, git_repository_workdir, (const git_repository *repo), (repo))                                          \
    F(int, git_oid_fromstr, (git_oid *out, const char *str), (out, str))                                                   \
    F(int, git_object_lookup, (git_object **object, git_repository *repo, const git_oid *id, git_object_t type),           \
      (object, repo, id, type))                                                                                            \
    F(int, git_remote_fetch, (git_remote *remote, const git_strarray *refspecs, const git_fetch_options *opts,             \
                              const char *reflog_message),                                                                 \
      (remote, refspecs, opts, reflog_message))                                                                            \
    F(git_object_t, git_object_type, (const git_object *obj), (obj))                                                       \
    F(int, git_oid_equal, (const git_oid *a, const git_oid *b), (a, b))                                                    \
    F(char *, git_oid_tostr, (char *out, size_t n, const git_oid *id), (out, n, id))                                       \
    V(git_reference_free, (git_reference *ref), (ref))                                                                     \
    F(int, git_reference_lookup, (git_reference **out, git_repository *repo, const char *name), (out, repo, name))         \
    F(int, git_reference_name_to_id, (git_oid *out, git_repository *repo, const char *name), (out, repo, name))            \
    F(const char *, git_reference_symbolic_target, (const git_reference *ref), (ref))                                      \
    F(int, git_remote_connect,                                                                                             \
      (git_remote *remote, git_direction direction, const git_remote_callbacks *callbacks,                                 \
       const git_proxy_options *proxy_opts, const git_strarray *custom_headers),                                           \
      (remote, direction, callbacks, proxy_opts, custom_headers))                                                          \
    F(int, git_remote_create_anonymous, (git_remote **out, git_repository *repo, const char *url), (out, repo, url))       \
    F(int, git_remote_create_detached, (git_remote **out, const char *url), (out, url))                                    \
    F(int, git_remote_default_branch, (git_buf *out, git_remote *remote), (out, remote))                                   \
    F(int, git_remote_disconnect, (git_remote *remote), (remote))                                                          \
    F(int, git_remote_download, (git_remote *remote, const git_strarray *refspecs, const git_fetch_options *opts),         \
      (remote, refspecs, opts))                                                                                            \
    V(git_remote_free, (git_remote *remote), (remote))                                                                     \
    F(int, git_remote_init_callbacks, (git_remote_callbacks *opts, unsigned int version), (opts, version))                 \
    F(int, git_remote_ls, (const git_remote_head ***out, size_t *size, git_remote *remote), (out, size, remote))           \
    F(int, git_remote_prune, (git_remote *remote, const git_remote_callbacks *callbacks), (remote, callbacks))             \
    F(int, git_remote_update_tips,                                                                                         \
      (git_remote *remote, const git_remote_callbacks *callbacks, int update_fetchhead,                                    \
       git_remote_autotag_option_t download_tags, const char *reflog_message),                                             \
      (remote, callbacks, update_fetchhead, download_tags, reflog_message))                                                \
    V(git_repository_free, (git_repository *repo), (repo))                                                                 \
    F(int, git_repository_init_ext, (git_repository **out, const char *repo_path, git_repository_init_options *opts),      \
      (out, repo_path, opts))                                                                                              \
    F(int, git_repository_init_options_init, (git_repository_init_options *opts, unsigned int version), (opts, version))   \
    F(int, git_repository_open_bare, (git_repository **out, const char *bare_path), (out, bare_path))                      \
    F(int, git_repository_set_head, (git_repository *repo, const char *refname), (repo, refname))                          \
    F(int, git_revparse_single, (git_object **out, git_repository *repo, const char *spec), (out, repo, spec))             \
    F(int, git_stream_register, (git_stream_t type, git_stream_registration *registration), (type, registration))

// One slot per function, filled by load().
#define SLOT(ret, name, params, args) __typeof__(&name) name;
#define SLOT_VOID(name, params, args) __typeof__(&name) name;
static struct {
    CGIT2_FUNCTIONS(SLOT, SLOT_VOID)
} git;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "libgit2 was not loaded";

static void load(void) {
    const char *soname = "libgit2.so." LIBGIT2_SOVERSION;
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s was not found (install libgit2-%s)", soname, LIBGIT2_SOVERSION);
        return;
    }
#define LOAD(ret, name, params, args)                                                    \
    *(void **)(&git.name) = dlsym(library, #name);                                       \
    if (!git.name) {                                                                     \
        snprintf(load_error, sizeof load_error, "%s lacks %s", soname, #name);           \
        return;                                                                          \
    }
#define LOAD_VOID(name, params, args) LOAD(void, name, params, args)
    CGIT2_FUNCTIONS(LOAD, LOAD_VOID)
#undef LOAD
#undef LOAD_VOID
    loaded = 1;
}

int cgit2_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cgit2_load_error(void) { return load_error; }

// The forwarders. Callers load first (Transport does, before any other call); pthread_once
// makes the slots visible to every thread that called cgit2_load.
#define FORWARD(ret, name, params, args) \
    ret name params { return git.name args; }
#define FORWARD_VOID(name, params, args) \
    void name params { git.name args; }
CGIT2_FUNCTIONS(FORWARD, FORWARD_VOID)
