#!/bin/sh
# Starts the installed trust assistant with the settings install.sh wrote: used where there is no
# systemd user manager (the desktop's autostart entry, and install.sh's start right after installing).
set -a
if [ -f "$HOME/.config/trust-assistant/agent.env" ]; then . "$HOME/.config/trust-assistant/agent.env"; fi
set +a
exec "$(dirname "$0")/trust-assistant" "$@"
