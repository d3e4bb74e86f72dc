#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long read run as an unprivileged user on a raw device opened by udisks2 (issue 26).
#
# The e2e tests (tests/e2e/broker_test.cpp) prove that such a run starts; this shows that
# it also lasts: udisks2 hands over one descriptor at the start, and nothing that happens
# on the bus or in polkit afterwards (a rule reloaded, an authorisation that would have
# expired) may end or pause a run of many minutes. Not in the default suite: it takes
# DURATION seconds (default 600).
#
#   bench/udisks_long_read.sh [--bin DIR]      (as root; DIR holds ioprism-cli,
#                                               default build/release/bin, else build/dev/bin)
#   DURATION=60 IMAGE_SIZE=256M QD=32 bench/udisks_long_read.sh
#
# Sets up what the e2e tests set up (tests/scripts/system_services.sh): a private system
# bus with udev, polkitd and udisksd, a throwaway user, a polkit rule that lets that user
# open loop devices only, and a loop device over an image of random bytes; removes it all
# again at exit, also after a failure or Ctrl-C. Prints whether the run completed
# uninterrupted, its IOPS and who opened the device. Prints figures, never fails on them;
# exits non-zero only when the run itself failed or the setup did.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
services="$here/tests/scripts/system_services.sh"
duration=${DURATION:-600}
image_size=${IMAGE_SIZE:-256M}
qd=${QD:-32}
bin=
while (($#)); do
    case $1 in
        --bin)
            bin=$2
            shift 2
            ;;
        *)
            echo "usage: $0 [--bin DIR]  (env: DURATION=600 IMAGE_SIZE=256M QD=32)" >&2
            exit 2
            ;;
    esac
done
if [[ -z $bin ]]; then
    for b in "$here/build/release/bin" "$here/build/dev/bin"; do
        [[ -x $b/ioprism-cli ]] && bin=$b && break
    done
fi
[[ -n $bin && -x $bin/ioprism-cli ]] || {
    echo "no ioprism-cli (build it, or pass --bin DIR)" >&2
    exit 2
}
[[ $(id -u) == 0 ]] || {
    echo "run as root: it starts udisksd, polkitd and a system bus, adds a user and a loop device" >&2
    exit 2
}

# The tests take the same lock: udev is machine-wide, and a test's teardown must not stop
# it under this run (nor this run's under a test).
exec 9>/run/lock/ioprism-system-services.lock
flock -w 600 9 || {
    echo "another test or bench holds /run/lock/ioprism-system-services.lock" >&2
    exit 1
}

state=$(mktemp -d /tmp/ioprism-udisks-bench-XXXXXX)
chmod 0755 "$state" # the user connects to the bus socket inside
loop=
cleanup() {
    set +e
    bash "$services" disallow "$state" >/dev/null
    [[ -n $loop ]] && losetup -d "$loop"
    bash "$services" remove-user "$state"
    bash "$services" stop "$state"
    rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# With our PID: if this script is killed (no EXIT trap runs), the watchdog cleans up.
bash "$services" start "$state" $$
# shellcheck disable=SC2046 # one NAME=value word
export $(cat "$state/env")
bash "$services" add-user "$state"
user=$(cat "$state/user")
bash "$services" allow-loops "$state"

# Random bytes, so the reads come from the image's real blocks (a sparse or fallocated
# image answers reads of holes without touching the disk); on /var/tmp, not tmpfs, so
# the loop device's direct I/O is direct.
img_dir=$(mktemp -d /var/tmp/ioprism-udisks-bench-XXXXXX)
trap 'cleanup; rm -rf "$img_dir"' EXIT
head -c "$image_size" /dev/urandom >"$img_dir/loop.img"
loop=$(losetup -f --show --direct-io=on "$img_dir/loop.img")
name=${loop#/dev/}
# udisks2 learns of the device from udev some time after losetup: wait for its object.
for ((i = 0; i < 300; ++i)); do
    dbus-send --bus="$DBUS_SYSTEM_BUS_ADDRESS" --print-reply --reply-timeout=5000 \
        --dest=org.freedesktop.UDisks2 "/org/freedesktop/UDisks2/block_devices/$name" \
        org.freedesktop.DBus.Properties.Get string:org.freedesktop.UDisks2.Block string:Device \
        >/dev/null 2>&1 && break
    sleep 0.1
done

# The user's own folder (HOME, XDG_RUNTIME_DIR, the run library), and a copy of the CLI
# where the user may execute it if a parent folder of the build tree is closed.
home="$state/home"
mkdir -p "$home/data"
chown -R "$user:$user" "$home"
chmod 0700 "$home"
cli="$bin/ioprism-cli"
if ! setpriv --reuid="$user" --regid="$user" --clear-groups test -x "$cli"; then
    mkdir -p "$state/bin"
    install -m 0755 "$cli" "$state/bin/ioprism-cli"
    cli="$state/bin/ioprism-cli"
fi

echo "udisks long read: $loop ($image_size), 4 KiB random read QD$qd for ${duration} s as $user"
rc=0
# setpriv, not su: no PAM session and no supplementary groups, so the user cannot open
# the device itself (root:disk 0660) and udisks2 is the only way in.
setpriv --reuid="$user" --regid="$user" --clear-groups env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
    HOME="$home" XDG_RUNTIME_DIR="$home" USER="$user" LOGNAME="$user" \
    DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SYSTEM_BUS_ADDRESS" IOPRISM_DATA_DIR="$home/data" \
    "$cli" run --target "$loop" --bs 4k --read 100 --random 100 --qd "$qd" \
    --duration "$duration" --ramp 0 --interval 1s --device-tail 0 --quiet \
    --json "$home/long.json" </dev/null >"$state/run.log" 2>&1 || rc=$?

if [[ $rc != 0 || ! -s $home/long.json ]]; then
    echo "the run failed (exit $rc):"
    cat "$state/run.log"
    exit 1
fi

python3 - "$home/long.json" "$loop" "$duration" <<'EOF'
import json, sys

doc = json.load(open(sys.argv[1]))
device, requested = sys.argv[2], float(sys.argv[3])
step = doc["steps"][0]
summary = doc["summary"]
target = next((t for t in doc["environment"]["targets"] if t.get("path") == device), {})
intervals = doc.get("intervals", {})
# The longest stretch between one interval's end and the next one's start: a run that
# stalled (a descriptor taken away, a paused worker) shows a hole here.
starts, ends = intervals.get("start_s", []), intervals.get("end_s", [])
gap = max((b - a for a, b in zip(ends, starts[1:])), default=0.0)
uninterrupted = (step.get("complete") and not doc.get("error") and not doc.get("stoppedByUser")
                 and not doc.get("stuck_io") and summary.get("errors", 0) == 0
                 and step["measured_seconds"] >= requested * 0.99)
print(f"completed uninterrupted: {'yes' if uninterrupted else 'NO'} "
      f"(measured {step['measured_seconds']:.1f} s of {requested:.0f} s, complete={step.get('complete')}, "
      f"errors={summary.get('errors', 0)}, error={doc.get('error')}, stopped by user={doc.get('stoppedByUser')}, "
      f"{intervals.get('count', len(starts))} intervals, largest gap between them {gap * 1000:.0f} ms)")
print(f"IOPS: {summary['iops']:.0f} (read {summary['read_iops']:.0f}), {summary['mbps']:.1f} MB/s")
print(f"opened_by: {target.get('opened_by', '(missing)')}  open_flags: {target.get('open_flags', '(missing)')}"
      + ("" if target.get("opened_by") == "udisks2" else "  <- expected udisks2"))
EOF
