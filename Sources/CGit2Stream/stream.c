#include "cgit2_stream.h"

#include <git2.h>
#include <git2/sys/stream.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static atomic_int connect_timeout_ms = 10000;
static atomic_int stall_timeout_ms = 30000;
// libgit2 transfers run on the calling thread, so limits can be per thread: parallel syncs with
// different limits do not disturb each other.
static _Thread_local int thread_connect_ms = 0;
static _Thread_local int thread_stall_ms = 0;

void cgit2_stream_set_timeouts(int connect_ms, int stall_ms) {
    if (connect_ms > 0) atomic_store(&connect_timeout_ms, connect_ms);
    if (stall_ms > 0) atomic_store(&stall_timeout_ms, stall_ms);
}

void cgit2_stream_set_thread_timeouts(int connect_ms, int stall_ms) {
    thread_connect_ms = connect_ms > 0 ? connect_ms : 0;
    thread_stall_ms = stall_ms > 0 ? stall_ms : 0;
}

// The calling thread's operation: its limits and what its streams have received so far. A
// server cannot outlive these: every read checks them before and after waiting.
static _Thread_local int operation_active = 0;
static _Thread_local cgit2_stream_limits operation;
static _Thread_local long long operation_deadline_ms;
static _Thread_local long long operation_received;
static _Thread_local long long operation_writes;
static _Thread_local long long window_start_ms;
static _Thread_local long long window_bytes;

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void cgit2_stream_begin_operation(cgit2_stream_limits limits) {
    operation = limits;
    operation_active = 1;
    long long now = now_ms();
    operation_deadline_ms = limits.total_ms > 0 ? now + limits.total_ms : 0;
    operation_received = 0;
    operation_writes = 0;
    window_start_ms = now;
    window_bytes = 0;
}

void cgit2_stream_end_operation(void) { operation_active = 0; }

typedef struct {
    git_stream parent;
    char *host;
    char *port;
    int fd;
    int connect_ms;
    int stall_ms;
} timed_stream;

// The last network failure this thread's streams met. libgit2's TLS layer replaces the error
// message of a failed read with its own ("SSL error: ... Generic error"); this keeps ours.
static _Thread_local char last_error[512];

const char *cgit2_stream_last_error(void) { return last_error; }
void cgit2_stream_clear_error(void) { last_error[0] = 0; }

static void set_error(const char *format, const char *host, const char *port, int value) {
    snprintf(last_error, sizeof last_error, format, host, port, value);
    git_error_set_str(GIT_ERROR_NET, last_error);
}

/// Waits until the socket is ready for `events`; 1 ready, 0 timed out, -1 error.
static int wait_for(int fd, short events, int timeout_ms) {
    struct pollfd entry = {.fd = fd, .events = events};
    for (;;) {
        int ready = poll(&entry, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        return ready < 0 ? -1 : (ready == 0 ? 0 : 1);
    }
}

/// git's servers answer in many small writes; acknowledging at once (rather than after the
/// kernel's delayed-ACK wait of up to 40 ms) keeps a server held back by Nagle's algorithm from
/// waiting on us. Linux clears the flag after use, so it is set again after every read.
static void quick_ack(int fd) {
#ifdef TCP_QUICKACK
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#else
    (void)fd;
#endif
}

static int timed_connect(git_stream *base) {
    timed_stream *stream = (timed_stream *)base;
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC};
    struct addrinfo *addresses = NULL;
    int status = getaddrinfo(stream->host, stream->port, &hints, &addresses);
    if (status != 0) {
        snprintf(last_error, sizeof last_error, "cannot resolve %s: %s", stream->host, gai_strerror(status));
        git_error_set_str(GIT_ERROR_NET, last_error);
        return -1;
    }
    int last_errno = 0, timed_out = 0;
    for (struct addrinfo *address = addresses; address; address = address->ai_next) {
        int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, address->ai_protocol);
        if (fd < 0) {
            last_errno = errno;
            continue;
        }
        if (connect(fd, address->ai_addr, address->ai_addrlen) == 0) {
            stream->fd = fd;
            break;
        }
        if (errno == EINPROGRESS) {
            int ready = wait_for(fd, POLLOUT, stream->connect_ms);
            int error = 0;
            socklen_t length = sizeof error;
            if (ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
                stream->fd = fd;
                break;
            }
            if (ready == 0) timed_out = 1;
            last_errno = ready == 1 ? error : errno;
        } else {
            last_errno = errno;
        }
        close(fd);
    }
    freeaddrinfo(addresses);
    if (stream->fd >= 0) {
        // Requests are written whole: send them at once.
        int one = 1;
        setsockopt(stream->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        quick_ack(stream->fd);
        return 0;
    }
    if (timed_out)
        set_error("cannot connect to %s:%s: no answer within %d ms", stream->host, stream->port, stream->connect_ms);
    else {
        snprintf(last_error, sizeof last_error, "cannot connect to %s:%s: %s", stream->host, stream->port, strerror(last_errno));
        git_error_set_str(GIT_ERROR_NET, last_error);
    }
    return -1;
}

static void set_limit_error(const char *format, const char *host, const char *port, long long value) {
    snprintf(last_error, sizeof last_error, format, host, port, value);
    git_error_set_str(GIT_ERROR_NET, last_error);
}

/// Checks the operation's limits after `count` more bytes arrived (0 to check the clock only).
/// 0 when within them; -1 (with the error set) when the server is to be abandoned.
static int within_limits(timed_stream *stream, ssize_t count) {
    if (!operation_active) return 0;
    long long now = now_ms();
    if (operation_deadline_ms > 0 && now >= operation_deadline_ms) {
        set_limit_error("%s:%s took too long: the transfer did not end within %lld s", stream->host, stream->port,
                        (long long)operation.total_ms / 1000);
        return -1;
    }
    if (count > 0) {
        operation_received += count;
        window_bytes += count;
        if (operation.max_advertisement_bytes > 0 && operation_writes <= 1 &&
            operation_received > operation.max_advertisement_bytes) {
            set_limit_error("%s:%s advertised more than %lld bytes of refs; no repository of stories has that many",
                            stream->host, stream->port, operation.max_advertisement_bytes);
            return -1;
        }
        if (operation.max_bytes > 0 && operation_received > operation.max_bytes) {
            set_limit_error("%s:%s sent more than %lld bytes, the limit for one repository", stream->host, stream->port,
                            operation.max_bytes);
            return -1;
        }
    }
    if (operation.low_speed_ms > 0 && now - window_start_ms >= operation.low_speed_ms) {
        long long expected = (long long)operation.low_speed_bytes_per_second * (now - window_start_ms) / 1000;
        if (window_bytes < expected) {
            snprintf(last_error, sizeof last_error, "%s:%s is too slow: fewer than %d bytes a second for %d s", stream->host,
                     stream->port, operation.low_speed_bytes_per_second, operation.low_speed_ms / 1000);
            git_error_set_str(GIT_ERROR_NET, last_error);
            return -1;
        }
        window_start_ms = now;
        window_bytes = 0;
    }
    return 0;
}

static ssize_t timed_read(git_stream *base, void *data, size_t length) {
    timed_stream *stream = (timed_stream *)base;
    for (;;) {
        ssize_t count = recv(stream->fd, data, length, 0);
        if (count > 0) quick_ack(stream->fd);
        if (count >= 0) return within_limits(stream, count) == 0 ? count : -1;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            snprintf(last_error, sizeof last_error, "cannot read from %s:%s: %s", stream->host, stream->port, strerror(errno));
            git_error_set_str(GIT_ERROR_NET, last_error);
            return -1;
        }
        if (within_limits(stream, 0) != 0) return -1;
        // Wait no longer than the stall timeout, the deadline, or the end of the speed window.
        int wait_ms = stream->stall_ms;
        if (operation_active) {
            long long now = now_ms();
            if (operation_deadline_ms > 0 && operation_deadline_ms - now < wait_ms) wait_ms = (int)(operation_deadline_ms - now);
            if (operation.low_speed_ms > 0) {
                long long window_end = window_start_ms + operation.low_speed_ms;
                if (window_end - now < wait_ms) wait_ms = (int)(window_end - now);
            }
            if (wait_ms < 1) wait_ms = 1;
        }
        int ready = wait_for(stream->fd, POLLIN, wait_ms);
        if (ready == 0) {
            if (wait_ms < stream->stall_ms) continue;  // a limit's moment, not a stall: checked above
            set_error("%s:%s stalled: nothing received for %d ms", stream->host, stream->port, stream->stall_ms);
            return -1;
        }
        if (ready < 0) return -1;
    }
}

static ssize_t timed_write(git_stream *base, const char *data, size_t length, int flags) {
    (void)flags;
    timed_stream *stream = (timed_stream *)base;
    if (operation_active) operation_writes++;
    size_t written = 0;
    while (written < length) {
        ssize_t count = send(stream->fd, data + written, length - written, MSG_NOSIGNAL);
        if (count >= 0) {
            written += (size_t)count;
            continue;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            snprintf(last_error, sizeof last_error, "cannot write to %s:%s: %s", stream->host, stream->port, strerror(errno));
            git_error_set_str(GIT_ERROR_NET, last_error);
            return -1;
        }
        int ready = wait_for(stream->fd, POLLOUT, stream->stall_ms);
        if (ready == 0) {
            set_error("%s:%s stalled: nothing accepted for %d ms", stream->host, stream->port, stream->stall_ms);
            return -1;
        }
        if (ready < 0) return -1;
    }
    return (ssize_t)written;
}

static int timed_close(git_stream *base) {
    timed_stream *stream = (timed_stream *)base;
    if (stream->fd >= 0) {
        close(stream->fd);
        stream->fd = -1;
    }
    return 0;
}

static void timed_free(git_stream *base) {
    timed_stream *stream = (timed_stream *)base;
    timed_close(base);
    free(stream->host);
    free(stream->port);
    free(stream);
}

static int timed_init(git_stream **out, const char *host, const char *port) {
    timed_stream *stream = calloc(1, sizeof *stream);
    if (!stream) return -1;
    stream->parent.version = GIT_STREAM_VERSION;
    stream->parent.connect = timed_connect;
    stream->parent.read = timed_read;
    stream->parent.write = timed_write;
    stream->parent.close = timed_close;
    stream->parent.free = timed_free;
    stream->host = strdup(host);
    stream->port = strdup(port);
    stream->fd = -1;
    stream->connect_ms = thread_connect_ms > 0 ? thread_connect_ms : atomic_load(&connect_timeout_ms);
    stream->stall_ms = thread_stall_ms > 0 ? thread_stall_ms : atomic_load(&stall_timeout_ms);
    if (!stream->host || !stream->port) {
        timed_free(&stream->parent);
        return -1;
    }
    *out = &stream->parent;
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int install_status = -1;

static void install(void) {
    git_stream_registration registration = {.version = GIT_STREAM_VERSION, .init = timed_init, .wrap = NULL};
    install_status = git_stream_register(GIT_STREAM_STANDARD, &registration);
}

int cgit2_stream_install(void) {
    pthread_once(&once, install);
    return install_status;
}
