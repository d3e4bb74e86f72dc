# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading a results JSON's interval table, for the benches of runs on several hosts
(agents-overhead, mpi-overhead).

The table has a block of scopes per set of hosts: the last intervals of a step, after a
host ended it, have fewer hosts. So a host's intervals are the sum over the blocks it is
in, and its own rate is read from its first (largest) block."""
import datetime, statistics


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


def _measuring_spans(doc, kind):
    """Each scope of `kind`'s measured intervals as (start, end, I/Os, its own seconds), on
    the wall clock: the moment the intervals count from (time_origin_at) plus their start_s
    and end_s. Not started_at: a process prepares its targets between the two."""
    if "time_origin_at" not in doc:
        raise SystemExit("a results file without time_origin_at: a build before it was kept")
    t0 = datetime.datetime.fromisoformat(
        doc["time_origin_at"].replace("Z", "+00:00")).timestamp()
    table = doc["intervals"]
    spans = {}
    for s in table["scopes"]:
        if s["kind"] != kind:
            continue
        mine = spans.setdefault(s["label"], [])
        for k in range(s["count"]):
            i = s["first"] + k
            if table["phase"][i] == "measuring":
                ios = s["read_ios"][k] + s["write_ios"][k]
                # The scope's own length of the interval: in a run of several hosts the
                # table's start and end are the earliest and latest of the hosts'.
                own = ios / s["iops"][k] if s["iops"][k] else table["end_s"][i] - table["start_s"][i]
                mine.append((t0 + table["start_s"][i], t0 + table["end_s"][i], ios, own))
    return spans


def window_iops(docs, kind):
    """Each scope's IOPS over the intervals that lie in the window where every scope of
    every doc was measuring: processes started one by one (RANKS CLIs alone) are compared
    over the same time as hosts that start and end together, and over nearly all of it
    (a whole run's rate gives the processes that start last the machine nearly alone
    while the first ones have ended). Returns (IOPS per scope, window length in seconds)."""
    spans = [sorted(s) for d in docs for s in _measuring_spans(d, kind).values()]
    if not spans or not all(spans):
        raise SystemExit("window_iops: a process measured no interval")
    begin = max(s[0][0] for s in spans)
    end = min(s[-1][1] for s in spans)
    if end <= begin:
        raise SystemExit("window_iops: the processes never measured at the same time")
    out = []
    for s in spans:
        # time_origin_at has milliseconds: an interval may seem to pass the window by one.
        inside = [x for x in s if x[0] >= begin - 0.002 and x[1] <= end + 0.002]
        seconds = sum(x[3] for x in inside)
        if seconds <= 0:
            raise SystemExit("window_iops: a process has no whole interval in the window")
        out.append(sum(x[2] for x in inside) / seconds)
    return out, end - begin
