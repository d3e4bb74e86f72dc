#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The system services that opening a raw device through udisks2 needs (issue 26), started
# as root for a test or a bench and stopped again by the PIDs it recorded: nothing runs as
# a service on the project's machines (docs: /work/shared/ENVIRONMENT.md), and a test must
# not leave a daemon, a user or a polkit rule behind.
#
#   system_services.sh start DIR [PID]   private system bus, udev (if none runs), polkitd,
#                                        udisksd; DIR/env then holds DBUS_SYSTEM_BUS_ADDRESS.
#                                        With PID (the caller's): should that process end
#                                        without `stop`, a watchdog undoes it all
#   system_services.sh stop DIR          stops what `start` started, newest first
#   system_services.sh add-user DIR      a throwaway system user; its name goes to DIR/user
#   system_services.sh remove-user DIR
#   system_services.sh allow-loops DIR   a polkit rule: DIR/user may open /dev/loop* (only)
#                                        through udisks2; returns once polkit applies it
#   system_services.sh disallow DIR      removes that rule; returns once polkit forgets it
#
# DIR must exist, be root's and be 0755 (the user connects to the bus socket inside).
# Callers that may run side by side (ctest, a bench) hold an exclusive flock on
# /run/lock/ioprism-system-services.lock from start to stop: udev is machine-wide, and one
# caller's stop must not take it from under another.
#
# The bus is private (its own socket and pid file in DIR) so that a system bus some other
# test started is neither used nor disturbed; every client finds it through
# DBUS_SYSTEM_BUS_ADDRESS, which sd-bus, GLib (polkitd, udisksd, gdbus, pkcheck) and
# libdbus (dbus-send) all honour.
set -euo pipefail

UDEVD=/lib/systemd/systemd-udevd
POLKITD=/usr/lib/polkit-1/polkitd
UDISKSD=/usr/libexec/udisks2/udisksd
RULES_DIR=/etc/polkit-1/rules.d
# Bounded waits for readiness, in tenths of a second: generous, because a loaded CI machine
# is slow, but finite, so a daemon that never comes up fails the caller instead of hanging.
READY_TENTHS=300

die() {
    echo "system_services.sh: $*" >&2
    exit 1
}

# Whether the process recorded in PIDFILE still runs the program it was started as (a PID
# can be reused after the daemon died: never signal a stranger). A zombie counts as gone.
alive() {
    local pidfile=$1 pid exe
    [[ -s $pidfile ]] || return 1
    read -r pid exe <"$pidfile"
    [[ -d /proc/$pid ]] || return 1
    [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]] || return 1
    [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$exe" ]]
}

# SIGTERM, up to 10 s for the daemon to finish what it does (udisksd cleans up its state
# file), then SIGKILL and up to 5 s more.
stop_pidfile() {
    local pidfile=$1 pid exe i
    if alive "$pidfile"; then
        read -r pid exe <"$pidfile"
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; ++i)); do
            alive "$pidfile" || break
            sleep 0.1
        done
        if alive "$pidfile"; then
            echo "system_services.sh: $exe ($pid) ignored SIGTERM for 10 s: SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
            for ((i = 0; i < 50; ++i)); do
                alive "$pidfile" || break
                sleep 0.1
            done
        fi
        alive "$pidfile" && echo "system_services.sh: $exe ($pid) is still there" >&2
    fi
    rm -f "$pidfile"
}

# Starts PROGRAM ARGS... in the background with its output in DIR/NAME.log; records
# "PID PROGRAM" in DIR/NAME.pid before anything else can fail, so `stop` finds it.
spawn() {
    local dir=$1 name=$2
    shift 2
    "$@" </dev/null >"$dir/$name.log" 2>&1 &
    echo "$! $(readlink -f "$1")" >"$dir/$name.pid"
}

# Waits until NAME has an owner on the private bus, failing early if the daemon that should
# take it died (its log says why).
wait_for_name() {
    local dir=$1 name=$2 daemon=$3 i
    for ((i = 0; i < READY_TENTHS; ++i)); do
        # dbus-send, not busctl: busctl comes with systemd, which udev does not need.
        dbus-send --bus="$DBUS_SYSTEM_BUS_ADDRESS" --print-reply --reply-timeout=2000 \
            --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
            "string:$name" 2>/dev/null | grep -q "boolean true" && return 0
        alive "$dir/$daemon.pid" || die "$daemon exited before owning $name: $(tail -5 "$dir/$daemon.log")"
        sleep 0.1
    done
    die "$name has no owner after $((READY_TENTHS / 10)) s: $(tail -5 "$dir/$daemon.log")"
}

start() {
    local dir=$1 i
    [[ $(id -u) == 0 ]] || die "start needs root"
    for p in dbus-daemon dbus-send udevadm pkcheck setpriv "$POLKITD" "$UDISKSD"; do
        command -v "$p" >/dev/null || die "$p is not installed (apt install dbus-daemon udev polkitd udisks2 util-linux)"
    done
    # If anything below fails (die exits), stop what was started already.
    trap 'stop "$dir"' EXIT

    # system.conf as it is (policies of system.d/, the messagebus user), with its own pid
    # file instead of /run/dbus/pid (a second system bus would refuse to start on it) and
    # no service activation: every daemon here is started and stopped by PID, and an
    # activated one would be nobody's to stop.
    cat >"$dir/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <include>/usr/share/dbus-1/system.conf</include>
  <pidfile>$dir/dbus.pid.daemon</pidfile>
  <servicehelper>/nonexistent/ioprism-no-activation</servicehelper>
</busconfig>
EOF
    local address="unix:path=$dir/system_bus_socket" pid
    # --fork returns once the socket listens; --print-pid gives the daemon's own PID.
    pid=$(dbus-daemon --config-file="$dir/bus.conf" --address="$address" --fork --print-pid \
        2>"$dir/dbus.log") || die "dbus-daemon did not start: $(cat "$dir/dbus.log")"
    echo "$pid $(readlink -f "$(command -v dbus-daemon)")" >"$dir/dbus.pid"
    export DBUS_SYSTEM_BUS_ADDRESS=$address
    echo "DBUS_SYSTEM_BUS_ADDRESS=$address" >"$dir/env"
    wait_for_name "$dir" org.freedesktop.DBus dbus

    # udisks lists no block device that is not in udev's database. udev is machine-wide:
    # start one only if none answers, and then fill its database once.
    if ! udevadm control --ping --timeout=2 >/dev/null 2>&1; then
        [[ -x $UDEVD ]] || die "$UDEVD is not installed (apt install udev)"
        spawn "$dir" udevd "$UDEVD"
        for ((i = 0; i < READY_TENTHS; ++i)); do
            udevadm control --ping --timeout=2 >/dev/null 2>&1 && break
            alive "$dir/udevd.pid" || die "systemd-udevd exited: $(tail -5 "$dir/udevd.log")"
            sleep 0.1
        done
        udevadm control --ping --timeout=2 >/dev/null 2>&1 || die "systemd-udevd does not answer"
        udevadm trigger --subsystem-match=block --action=add
        udevadm settle --timeout=60 || die "udev did not settle in 60 s"
    fi

    spawn "$dir" polkitd "$POLKITD" --no-debug
    wait_for_name "$dir" org.freedesktop.PolicyKit1 polkitd
    spawn "$dir" udisksd "$UDISKSD"
    wait_for_name "$dir" org.freedesktop.UDisks2 udisksd
    trap - EXIT
    if [[ -n ${owner:-} ]]; then
        # In a session of its own, so that a kill of the owner's process group (a test
        # runner's timeout) does not take it along.
        local bash_exe pid
        bash_exe=$(readlink -f "$(command -v bash)")
        setsid bash "${BASH_SOURCE[0]}" watch "$dir" "$owner" </dev/null >/dev/null 2>&1 &
        pid=$!
        echo "$pid $bash_exe" >"$dir/watchdog.pid"
        # setsid execs bash in the same process: until it has, `stop` would not know it
        # (it signals only the program it recorded).
        for ((i = 0; i < READY_TENTHS; ++i)); do
            [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$bash_exe" ]] && break
            sleep 0.1
        done
    fi
}

# Runs detached while the owner (the test process, the bench) lives. An owner that ends
# normally stops this first; one that was killed (SIGKILL, a runner's timeout) cannot, so
# this undoes what it would have: the rule, the user, the daemons, the state folder. The
# one-second poll only decides how soon that cleanup starts, never whether a test passes.
watch() {
    local dir=$1 owner=$2
    while kill -0 "$owner" 2>/dev/null; do
        sleep 1
    done
    rm -f "$dir/watchdog.pid"
    [[ -s $dir/env ]] && export "$(cat "$dir/env")"
    (disallow "$dir") || true
    (remove_user "$dir") || true
    (stop "$dir") || true
    rm -rf "$dir"
}

stop() {
    local dir=$1
    # Newest first: udisksd still talks to polkitd and the bus while it shuts down. The
    # watchdog before all: its owner is stopping everything itself.
    for name in watchdog udisksd polkitd udevd dbus; do
        stop_pidfile "$dir/$name.pid"
    done
    rm -f "$dir/system_bus_socket" "$dir/dbus.pid.daemon" "$dir/env"
}

user_of() {
    [[ -s $1/user ]] || die "no user in $1 (add-user first)"
    cat "$1/user"
}

add_user() {
    local dir=$1 name
    # Unique per caller, so that two runs (or a user left by a killed one) never share one.
    name="ioprism-e2e-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')"
    useradd --system --no-create-home --user-group --shell /usr/sbin/nologin "$name" \
        || die "useradd $name failed"
    echo "$name" >"$dir/user"
}

remove_user() {
    local dir=$1
    [[ -s $dir/user ]] || return 0
    userdel "$(cat "$dir/user")" || die "userdel $(cat "$dir/user") failed"
    rm -f "$dir/user"
}

rule_file() {
    echo "$RULES_DIR/10-$(user_of "$1").rules"
}

# pkcheck's verdict on `action` for a process of the user (as root: only a privileged
# caller may pass details, and "device" is the one the rule reads). 0: authorised.
pk_verdict() {
    local pid=$1 action=$2 device=$3
    pkcheck --action-id "$action" --process "$pid" --detail device "$device" >/dev/null 2>&1
}

# Waits until polkit's verdict for the user on both udisks actions matches `want` (yes/no):
# polkitd rereads rules.d when it changes, but on its own time.
wait_for_verdict() {
    local dir=$1 want=$2 device=$3 user pid i ok=0 r1 r2
    user=$(user_of "$dir")
    # A process of the user for polkit to judge; ours, ended below by its PID.
    setpriv --reuid "$user" --regid "$user" --clear-groups sleep 120 &
    pid=$!
    # Judged only once it runs as the user: before setpriv switched, it is root's, whom
    # polkit refuses nothing, and a verdict of "no" would come from the wrong subject.
    local uid
    uid=$(id -u "$user")
    for ((i = 0; i < READY_TENTHS; ++i)); do
        [[ $(awk '/^Uid:/ {print $2}' "/proc/$pid/status" 2>/dev/null) == "$uid" ]] && break
        sleep 0.1
    done
    for ((i = 0; i < READY_TENTHS; ++i)); do
        r1=0 r2=0
        pk_verdict "$pid" org.freedesktop.udisks2.open-device "$device" || r1=$?
        pk_verdict "$pid" org.freedesktop.udisks2.open-device-system "$device" || r2=$?
        if [[ $want == yes && $r1 == 0 && $r2 == 0 ]] || [[ $want == no && $r1 != 0 && $r2 != 0 ]]; then
            ok=1
            break
        fi
        sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    ((ok)) || echo "polkit's verdict for $user on $device did not become '$want' in $((READY_TENTHS / 10)) s" >&2
    ((ok))
}

allow_loops() {
    local dir=$1 user file
    user=$(user_of "$dir")
    file=$(rule_file "$dir")
    # Only loop devices, and only for this user: udisksd passes the block's preferred device
    # as the detail "device" (udisks_daemon_util_check_authorization_sync); loop devices that
    # root set up have HintSystem, so the action asked is usually open-device-system.
    cat >"$file.tmp" <<EOF
// Written by IOPrism's tests (tests/scripts/system_services.sh); removed after the test.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.udisks2.open-device"
         || action.id == "org.freedesktop.udisks2.open-device-system")
        && subject.user == "$user"
        && action.lookup("device").indexOf("/dev/loop") == 0)
        return polkit.Result.YES;
});
EOF
    chmod 0644 "$file.tmp"
    # Renamed into place, so polkitd never reads half a rule.
    mv "$file.tmp" "$file"
    wait_for_verdict "$dir" yes /dev/loop0 || die "the rule $file does not take effect"
    # Once it applies, it must not grant a disk (the name need not exist: polkit judges
    # the detail, udisksd is not asked).
    wait_for_verdict "$dir" no /dev/sda || {
        rm -f "$file"
        die "the rule grants more than loop devices"
    }
}

disallow() {
    local dir=$1 file
    file=$(rule_file "$dir")
    [[ -e $file ]] || return 0
    rm -f "$file"
    wait_for_verdict "$dir" no /dev/loop0 || die "polkit still applies the removed rule $file"
}

cmd=${1:-}
dir=${2:-}
owner=${3:-}
[[ -n $cmd && -n $dir && -d $dir ]] || die "usage: $0 start|stop|add-user|remove-user|allow-loops|disallow DIR"
dir=$(readlink -f "$dir")
case $cmd in
    start) start "$dir" ;;
    watch) watch "$dir" "$owner" ;;
    stop) stop "$dir" ;;
    add-user) add_user "$dir" ;;
    remove-user) remove_user "$dir" ;;
    allow-loops)
        [[ -s $dir/env ]] && export "$(cat "$dir/env")"
        allow_loops "$dir"
        ;;
    disallow)
        [[ -s $dir/env ]] && export "$(cat "$dir/env")"
        disallow "$dir"
        ;;
    *) die "unknown command $cmd" ;;
esac
