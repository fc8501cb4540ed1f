#!/usr/bin/env bash
# Removes FollowMe from the ground unit: the same as `scripts/install.sh --uninstall`.
# Keeps /etc/followme, /var/log/followme and the followme user unless --purge; accepts --root DIR.
exec "$(dirname "$0")/install.sh" --uninstall "$@"
