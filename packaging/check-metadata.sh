#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks of the files that integrate IOPrism with the desktop, run by ctest
# (packaging/install.cmake, label "packaging") and usable alone:
#   sh packaging/check-metadata.sh desktop|metainfo|mime SOURCE_DIR VERSION
# Exit 77 (a skip) when the tool is missing, unless IOPRISM_NO_SKIP=1: then it fails.
set -eu
check=$1 src=$2 version=$3
id=io.github.ioprism.IOPrism

need() { # tool package
    command -v "$1" >/dev/null 2>&1 && return 0
    echo "$1 is missing (Debian package $2)"
    [ "${IOPRISM_NO_SKIP:-}" = 1 ] && exit 1
    exit 77
}

case "$check" in
desktop)
    need desktop-file-validate desktop-file-utils
    # Prints hints and errors; any output is a finding.
    out=$(desktop-file-validate "$src/resources/$id.desktop" 2>&1) || { echo "$out"; exit 1; }
    [ -z "$out" ] || { echo "$out"; exit 1; }
    echo "desktop-file-validate: $id.desktop is clean"
    ;;
metainfo)
    need appstreamcli appstream
    appstreamcli validate --no-net --explain "$src/resources/$id.metainfo.xml"
    # The package's version must have its release entry (software centres show it).
    grep -q "<release version=\"$version\"" "$src/resources/$id.metainfo.xml" || {
        echo "$id.metainfo.xml: no <release version=\"$version\"> for this version"
        exit 1
    }
    ;;
mime)
    need update-mime-database shared-mime-info
    need gio libglib2.0-bin
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/mime/packages"
    cp "$src/resources/$id.mime.xml" "$tmp/mime/packages/$id.xml"
    XDG_DATA_DIRS=$tmp update-mime-database "$tmp/mime"
    # A profile is told by its content (it is a .json), any other JSON stays JSON, and an
    # Iometer file by its name.
    cp "$src/resources/presets/quick.json" "$tmp/profile.json"
    echo '{"format": "something-else"}' >"$tmp/other.json"
    cp "$src/tests/fixtures/icf/reference.icf" "$tmp/nightly.icf"
    status=0
    for pair in profile.json:application/x-ioprism-profile other.json:application/json \
        nightly.icf:application/x-iometer-config; do
        file=${pair%%:*} want=${pair#*:}
        got=$(XDG_DATA_HOME=$tmp XDG_DATA_DIRS=$tmp:/usr/share gio info \
            -a standard::content-type "$tmp/$file" | sed -n 's/.*content-type: //p')
        if [ "$got" = "$want" ]; then
            echo "$file: $got"
        else
            echo "$file: $got, expected $want"
            status=1
        fi
    done
    exit $status
    ;;
*)
    echo "usage: $0 desktop|metainfo|mime SOURCE_DIR VERSION" >&2
    exit 2
    ;;
esac
