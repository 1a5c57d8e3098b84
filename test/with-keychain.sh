#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so the keychain
# tests use a real Secret Service and never touch the user's own keyring (toolchain.md).
set -euo pipefail
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  if [ "${CI:-}" = "true" ]; then
    echo "dbus-run-session and gnome-keyring-daemon are required (apt-get install dbus dbus-x11 gnome-keyring)" >&2
    exit 1
  fi
  echo "warning: no dbus/gnome-keyring here; keychain tests will fail" >&2
  exec "$@"
fi
XDG_DATA_HOME=$(mktemp -d)
XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
export XDG_DATA_HOME XDG_RUNTIME_DIR
export COUNTERSIGN_KEYCHAIN=real
trap 'rm -rf "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"' EXIT
dbus-run-session -- sh -c 'echo -n ci-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' sh "$@"
