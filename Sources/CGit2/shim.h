#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H
// libgit2 (Debian libgit2-dev). Swift cannot import the GIT_*_OPTIONS_INIT macros: callers use
// the git_*_options_init functions with the *_VERSION constants, which do import.
#include <git2.h>
#endif
