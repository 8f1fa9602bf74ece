#!/usr/bin/env python3
"""Runs commands side by side in alternated rounds, for the benchmarks' ratios.

hyperfine runs all of one command's runs, then all of the next's: on this noisy shared machine a
slow minute then lands on one command and not on the one it is compared with, and a ratio moves
by 20% between runs of the same build. Here each round runs every command once, the order
turning by one each round (no command always follows the same one), so a slow spell falls on
both sides of a comparison alike; a ratio is then the median of the rounds' ratios (`paired`).

usage: alternate.py OUT.json ROUNDS [--warmup K] [--stdin FILE] [--prepare COMMAND] NAME COMMAND [NAME COMMAND ...]

  --warmup K      rounds run first and not kept (default 1)
  --stdin FILE    each run reads FILE as its standard input (default: nothing)
  --prepare CMD   a shell command run, untimed, before every timed run (a fresh library, say)

Commands are split into words as the shell splits them and run without a shell, so nothing but
the command is timed. OUT.json is written as hyperfine's export is read by the scripts:
{"rounds": N, "results": [{"command": NAME, "times": [...], "user": [...], "system": [...],
"peak_kb": [...], "exit_codes": [...]}]}, each list in round order (the i-th entries of two
commands are from the same round). peak_kb is the child's high-water mark as the kernel keeps
it from the fork, so it is never below this script's own (about 15 MB): read it for commands
that use far more. A run that exits non-zero is kept (a flawed story's validate
exits 1, as it should); its exit code is there to be checked.

From a script's Python:  sys.path.insert(0, "scripts"); from alternate import paired, medians
"""
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv, stdin_path):
    """Wall seconds, user and system CPU seconds, peak resident KB and exit code of one run."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    finally:
        if stdin_path:
            stdin.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, child.returncode


def alternate(commands, rounds, warmup=1, stdin=None, prepare=None):
    """`commands`: (name, command line) pairs. Returns the results, as written to OUT.json."""
    names = [name for name, _ in commands]
    if len(set(names)) != len(names):
        raise SystemExit("alternate.py: two commands have the same name")
    argvs = [(name, shlex.split(command)) for name, command in commands]
    kept = {name: {"times": [], "user": [], "system": [], "peak_kb": [], "exit_codes": []} for name in names}
    for number in range(warmup + rounds):
        turn = number % len(argvs)
        for name, argv in argvs[turn:] + argvs[:turn]:
            if prepare:
                subprocess.run(prepare, shell=True, check=True, stdout=subprocess.DEVNULL)
            wall, user, system, peak, code = run_once(argv, stdin)
            if number >= warmup:
                for key, value in zip(("times", "user", "system", "peak_kb", "exit_codes"), (wall, user, system, peak, code)):
                    kept[name][key].append(value)
    return {"rounds": rounds, "results": [{"command": name, **kept[name]} for name in names]}


def load(path):
    """The results of OUT.json by name."""
    return {r["command"]: r for r in json.load(open(path, encoding="utf-8"))["results"]}


def medians(path):
    """Each command's median wall time."""
    return {name: statistics.median(r["times"]) for name, r in load(path).items()}


def paired(path_or_results, name, base):
    """The median of the rounds' ratios of `name`'s time to `base`'s."""
    results = load(path_or_results) if isinstance(path_or_results, str) else path_or_results
    return statistics.median(a / b for a, b in zip(results[name]["times"], results[base]["times"]))


def main(arguments):
    if len(arguments) < 4:
        raise SystemExit(__doc__)
    out, rounds, rest = arguments[0], int(arguments[1]), arguments[2:]
    options = {"--warmup": "1", "--stdin": None, "--prepare": None}
    while rest and rest[0] in options:
        options[rest[0]] = rest[1]
        rest = rest[2:]
    if not rest or len(rest) % 2:
        raise SystemExit("alternate.py: give each command a name: NAME COMMAND [NAME COMMAND ...]")
    commands = list(zip(rest[0::2], rest[1::2]))
    results = alternate(commands, rounds, warmup=int(options["--warmup"]), stdin=options["--stdin"], prepare=options["--prepare"])
    with open(out, "w", encoding="utf-8") as file:
        json.dump(results, file)
    # Output is not shown, so a command that fails is said here (a flawed story's validate
    # exits 1 on purpose; a command that cannot run at all would otherwise be timed unnoticed).
    for result in results["results"]:
        codes = sorted(set(result["exit_codes"]))
        if codes != [0]:
            print(f"alternate.py: '{result['command']}' exited with {', '.join(map(str, codes))}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
