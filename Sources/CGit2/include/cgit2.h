#ifndef CGIT2_H
#define CGIT2_H
// libgit2's declarations (Debian libgit2-dev). The library itself is loaded on first use
// (cgit2_load), so a reader who never touches git never maps libgit2 and what it pulls in
// (OpenSSL, Kerberos, libssh2, mbed TLS): about 2.5 MB of a reader's memory.
// Swift cannot import the GIT_*_OPTIONS_INIT macros: callers use the git_*_options_init
// functions with the *_VERSION constants, which do import.
#include <git2.h>

/// Loads libgit2 (the soname of the headers this was built with) and checks that every function
/// cyd calls is there; 1 when it can be used. Safe to call from any thread, any number of times.
int cgit2_load(void);
/// Why cgit2_load failed, in words.
const char *cgit2_load_error(void);

#endif
