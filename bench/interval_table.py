# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading a results JSON's interval table, for the benches of runs on several hosts
(agents-overhead, mpi-overhead).

The table has a block of scopes per set of hosts: the last intervals of a step, after a
host ended it, have fewer hosts. So a host's intervals are the sum over the blocks it is
in, and its own rate is read from its first (largest) block."""
import statistics


def interval_counts(doc, kind):
    """Intervals per scope label of `kind` ("all", "host"), over every block."""
    counts = {}
    for s in doc["intervals"]["scopes"]:
        if s["kind"] == kind:
            counts[s["label"]] = counts.get(s["label"], 0) + s["count"]
    return counts


def steady_iops(doc, kind):
    """Each scope's median interval IOPS over the middle 60 % of its intervals: the rate
    while every process runs. A whole run's rate also holds its first and last moments,
    when processes started one by one run with fewer others; the hosts of one run start
    and end together."""
    out = {}
    for s in doc["intervals"]["scopes"]:
        if s["kind"] == kind and s["label"] not in out:
            iops = s["iops"]
            middle = iops[len(iops) // 5: len(iops) - len(iops) // 5] or iops
            out[s["label"]] = statistics.median(middle)
    return list(out.values())
