#!/usr/bin/env python3
"""Runs commands in a pseudo-terminal of a given size, as a reader's terminal would, typing the
given input, and prints each command's median wall time and peak memory over N runs.

usage: scripts/pty-bench.py RUNS COLUMNS ROWS INPUT NAME=COMMAND...
(COMMAND is split like a shell would, without a shell; the environment is passed on.)
Used by scripts/bench-read.sh.
"""
import fcntl
import os
import pty
import select
import shlex
import statistics
import struct
import sys
import termios
import time


def run(argv, columns, rows, typed):
    """One run: (seconds from start to exit, peak RSS in KiB, bytes written to the terminal)."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, columns * 10, rows * 20))
        os.execvp(argv[0], argv)
    os.write(fd, typed.encode())
    received = 0
    # Bounded: a run that has not finished in 60 s is abandoned.
    deadline = start + 60
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        received += len(chunk)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.exit(f"{argv[0]} did not finish within 60 s")
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(fd)
    if status != 0:
        sys.exit(f"{argv[0]} exited with status {status}")
    return elapsed, usage.ru_maxrss, received


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    runs, columns, rows = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    typed = sys.argv[4].encode().decode("unicode_escape")
    print(f"{'':<28} {'median':>9} {'min':>9} {'peak memory':>12} {'output':>10}")
    for spec in sys.argv[5:]:
        name, command = spec.split("=", 1)
        argv = shlex.split(command)
        run(argv, columns, rows, typed)  # warm-up
        times, memory, output = [], [], 0
        for _ in range(runs):
            elapsed, rss, output = run(argv, columns, rows, typed)
            times.append(elapsed)
            memory.append(rss)
        print(f"{name:<28} {statistics.median(times) * 1000:>7.1f}ms {min(times) * 1000:>7.1f}ms {max(memory) / 1024:>9.1f} MB {output:>8} B",
              flush=True)


if __name__ == "__main__":
    main()
