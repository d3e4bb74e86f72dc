# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the measured processes' CPU went, by kind of thread, over a window in the middle
of their run: the workers' (threads named ioprism-worker or ioprism-sync) and everything
else's (samplers, sessions, message pumps, MPI's threads, a controller).

Why: with the null engine each process's IOPS is its workers' CPU time times the I/Os a
worker does per CPU second. On this project's VM the second factor drifts by 10 to 30 %
within a minute (the host's other guests), so IOPS ratios between two ways of running,
even alternated, spread by as much, while the workers' CPU time in the same window does
not drift with the machine's speed: it moves only with what the other threads take. The
ratio of the workers' CPU seconds, one way against the other, is then the overhead
measured without the drift (steal time aside, which `top` shows as 0 here).

Used by bench/mpi-overhead and bench/agents-overhead: `during(names, workers, settle,
length)` starts a watcher at real-time priority (so that a loaded machine does not delay
its looks) that waits until the processes have all their `workers` worker threads (the
step has started: before, some hosts would still be preparing), waits `settle` seconds
more, and measures over the next `length` seconds; `result()` gives {"workers_s",
"others_s", "processes", "window_s"}, or None when the workers never all appeared. Reads
/proc/PID/task/TID/schedstat (nanoseconds on a CPU) and comm; Linux only, needs root for
the priority (else it runs at normal priority and says so).
"""
import json, os, statistics, subprocess, sys, time

WORKER_NAMES = ("ioprism-worker", "ioprism-sync")


def snapshot(names):
    threads = {}
    for name in names:
        pids = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                try:
                    comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
                    ns = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
                except (OSError, ValueError, IndexError):
                    continue  # ended meanwhile
                threads[(pid, tid)] = (comm in WORKER_NAMES, ns)
    return threads


def watch(names, workers, settle, length, give_up=120):
    deadline = time.monotonic() + give_up
    while True:
        seen = snapshot(names)
        if sum(1 for is_worker, _ in seen.values() if is_worker) >= workers:
            break
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)
    time.sleep(settle)
    first = snapshot(names)
    time.sleep(length)
    second = snapshot(names)
    worker_s = others = 0.0
    for key, (is_worker, ns) in second.items():
        delta = (ns - first.get(key, (is_worker, 0))[1]) / 1e9
        if is_worker:
            worker_s += delta
        else:
            others += delta
    return {"workers_s": worker_s, "others_s": others, "window_s": length,
            "processes": len({pid for pid, _ in second})}


class during:
    """Watches processes named `names` once their `workers` worker threads run."""

    def __init__(self, names, workers, settle, length):
        cmd = [sys.executable, os.path.abspath(__file__), ",".join(names), str(workers),
               str(settle), str(length)]
        if os.geteuid() == 0:
            cmd = ["chrt", "-f", "10", *cmd]
        else:
            print("thread_cpu: not root, the watcher runs at normal priority", file=sys.stderr)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)

    def result(self):
        out, _ = self.proc.communicate()
        return json.loads(out) if self.proc.returncode == 0 and out else None


def compare_round(ratios, without, with_, names):
    """One round's "; workers' CPU ..." text, its ratio appended to `ratios` ("" when a
    watcher saw nothing). `names`: how the two ways of running are called."""
    if not without or not with_ or without["workers_s"] <= 0:
        return ""
    ratios.append(with_["workers_s"] / without["workers_s"])
    return (f"; workers' CPU over {with_['window_s']:.1f} s: {names[0]} "
            f"{without['workers_s']:.3f} s (others {without['others_s']:.3f} s), {names[1]} "
            f"{with_['workers_s']:.3f} s (others {with_['others_s']:.3f} s), "
            f"ratio {ratios[-1]:.3f}")


def summary(ratios, names):
    """The last line: the median of the rounds' ratios ("" without any)."""
    if not ratios:
        return ""
    return (f"{names[1]}/{names[0]} workers' CPU seconds (the overhead without the machine's "
            f"drift): median {statistics.median(ratios):.3f} (rounds "
            f"{', '.join(f'{x:.3f}' for x in ratios)})")


if __name__ == "__main__":
    print(json.dumps(watch(sys.argv[1].split(","), int(sys.argv[2]), float(sys.argv[3]),
                           float(sys.argv[4]))))
