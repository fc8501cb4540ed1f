#!/usr/bin/env bash
# Removes FollowMe from the ground unit: the followme package (docs/packaging.md §2). Stopping the
# service lands the drone. Keeps /etc/followme unless --purge (then also the flight logs in
# /var/log/followme and the pins of followme pin; the user followme stays, Debian policy 9.2.2).
set -euo pipefail
action=remove
[ "${1:-}" = --purge ] && action=purge
exec apt-get "$action" -y followme-tools followme
