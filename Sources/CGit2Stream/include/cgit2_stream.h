#ifndef CGIT2_STREAM_H
#define CGIT2_STREAM_H

// libgit2 1.5 has no network timeouts: a server that accepts a connection and then says nothing
// holds a clone or fetch forever. This shim registers a socket stream with libgit2 (its
// git_stream_register hook, used by git://, http:// and, under TLS, https://) whose connect, read
// and write wait at most a set time for the network. A transfer that stalls longer fails with a
// libgit2 network error naming the stall. This is the watchdog.

/// Registers the timed stream with libgit2 (once; libgit2 must be initialised). 0 on success.
int cgit2_stream_install(void);

/// Default limits for connections opened from now on, in milliseconds (0 leaves a limit as it is).
void cgit2_stream_set_timeouts(int connect_ms, int stall_ms);

/// Limits for connections the calling thread opens from now on (0: the defaults).
void cgit2_stream_set_thread_timeouts(int connect_ms, int stall_ms);

/// Limits on everything a server can send during one operation (a clone, a fetch, an ls-remote)
/// of the calling thread, on top of the stall timeout; 0 turns a limit off.
typedef struct {
    int total_ms;                     // the whole operation, however busy the server keeps it
    long long max_bytes;              // everything received (the pack, mostly)
    long long max_advertisement_bytes;  // received before the client's second request: the refs
    int low_speed_bytes_per_second;   // below this rate ...
    int low_speed_ms;                 // ... for this long: abandoned (a server trickling bytes)
} cgit2_stream_limits;

/// Starts an operation under `limits` on the calling thread; its counters start at zero.
void cgit2_stream_begin_operation(cgit2_stream_limits limits);
/// Ends it: the thread's streams are unlimited again (but for the stall timeout).
void cgit2_stream_end_operation(void);

/// The calling thread's last network failure in a timed stream ("" when none since the last
/// clear): libgit2's TLS layer reports a failed read as a generic SSL error, this says why.
const char *cgit2_stream_last_error(void);
void cgit2_stream_clear_error(void);

#endif
