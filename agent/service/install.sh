#!/bin/sh
# Installs the trust assistant for the signed-in user and starts it now and at every sign-in: a systemd
# user service on Linux (with the trust-assistant:// link handler), or where there is no systemd user
# manager an autostart entry of the desktop and a start right now; a launchd agent on macOS.
#
#   ./install.sh [--origin https://console.example.com]...
#
# --origin names a console the agent may talk to (repeat it for several). The settings of README.md
# (TRUST_AGENT_PKCS11_MODULES, TRUST_AGENT_PORT, …) set in this script's environment are kept for the
# agent too; settings of an earlier install not given again stay as they were. The executable carries
# its own Node.js: neither Node.js nor npm is needed.
set -eu

package=$(cd "$(dirname "$0")" && pwd)
config_dir="$HOME/.config/trust-assistant"
settings="$config_dir/agent.env"
origins=""

while [ $# -gt 0 ]; do
  case "$1" in
    --origin)
      [ $# -ge 2 ] || { echo "--origin needs a URL, such as https://console.example.com" >&2; exit 2; }
      origins="${origins:+$origins,}$2"
      shift 2
      ;;
    *)
      echo "Unknown argument: $1 (the only option is --origin URL)" >&2
      exit 2
      ;;
  esac
done

require() {
  [ -f "$package/$1" ] || { echo "This package has no $1: download the package for $(uname -s) $(uname -m)." >&2; exit 1; }
}

# One setting in agent.env, which both systemd and sh read: NAME='value', replacing an earlier one.
set_setting() {
  case "$2" in
    *"'"* | *'
'*) echo "$1 cannot hold a quote or a line break." >&2; exit 2 ;;
  esac
  touch "$settings"
  grep -v "^$1=" "$settings" >"$settings.new" || true
  printf "%s='%s'\n" "$1" "$2" >>"$settings.new"
  mv "$settings.new" "$settings"
}

write_settings() {
  mkdir -p "$config_dir"
  umask 077
  [ -f "$settings" ] || : >"$settings"
  if [ -n "$origins" ]; then set_setting TRUST_AGENT_ALLOWED_ORIGINS "$origins"; fi
  for name in TRUST_AGENT_PREAPPROVED_ORIGINS TRUST_AGENT_PKCS11_MODULES TRUST_AGENT_SOFTWARE_KEYSTORE \
    TRUST_AGENT_WEB_ACCESS TRUST_AGENT_DATA_DIR TRUST_AGENT_PORT TRUST_AGENT_DESKTOP_CLIENT \
    TRUST_AGENT_DESKTOP_CLIENT_PORT; do
    value=$(printenv "$name" || true)
    if [ -n "$value" ]; then set_setting "$name" "$value"; fi
  done
  umask 022
}

# The new copy is complete before it replaces the old one.
install_app() {
  target=$1
  shift
  mkdir -p "$(dirname "$target")"
  rm -rf "$target.new" "$target.old"
  mkdir "$target.new"
  for file in "$@"; do
    if [ -f "$package/$file" ]; then cp "$package/$file" "$target.new/"; fi
  done
  # The programs that show desktop notifications on macOS and Windows, where the package has them.
  if [ -d "$package/vendor" ]; then cp -R "$package/vendor" "$target.new/"; fi
  if [ -d "$target" ]; then mv "$target" "$target.old"; fi
  mv "$target.new" "$target"
  rm -rf "$target.old"
}

# `trust-assistant approve CODE` from any terminal, where ~/.local/bin is on the PATH.
link_command() {
  mkdir -p "$HOME/.local/bin"
  ln -sf "$1/trust-assistant" "$HOME/.local/bin/trust-assistant"
}

case "$(uname -s)" in
  Linux)
    require trust-assistant.service
    app="$HOME/.local/lib/trust-assistant"
    state="${XDG_STATE_HOME:-$HOME/.local/state}/trust-assistant"
    # An agent the fallback below started earlier is stopped before its files are replaced.
    if [ -f "$state/agent.pid" ]; then
      pid=$(cat "$state/agent.pid")
      if [ -r "/proc/$pid/exe" ] && [ "$(readlink "/proc/$pid/exe")" = "$app/trust-assistant" ]; then
        kill "$pid" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      fi
      rm -f "$state/agent.pid"
    fi
    install_app "$app" trust-assistant pkcs11.node run.sh README.md NODE-LICENSE \
      trust-assistant.service trust-assistant-url.desktop trust-assistant-autostart.desktop
    write_settings
    link_command "$app"
    if command -v systemctl >/dev/null && systemctl --user show-environment >/dev/null 2>&1; then
      units="$HOME/.config/systemd/user"
      mkdir -p "$units"
      cp "$app/trust-assistant.service" "$units/"
      systemctl --user daemon-reload
      systemctl --user enable trust-assistant.service
      systemctl --user restart trust-assistant.service
      applications="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
      mkdir -p "$applications"
      cp "$app/trust-assistant-url.desktop" "$applications/"
      if command -v update-desktop-database >/dev/null; then update-desktop-database "$applications" || true; fi
      if command -v xdg-mime >/dev/null; then
        xdg-mime default trust-assistant-url.desktop x-scheme-handler/trust-assistant || true
      fi
      echo "The trust assistant runs as the user service trust-assistant (systemctl --user status trust-assistant)."
    else
      # No systemd user manager (a container, another init system): the desktop starts it at sign-in
      # and it starts now, detached from this terminal, logging to $state/agent.log.
      autostart="${XDG_CONFIG_HOME:-$HOME/.config}/autostart"
      mkdir -p "$autostart" "$state"
      sed -e "s|@APP_DIR@|$app|g" "$app/trust-assistant-autostart.desktop" >"$autostart/trust-assistant.desktop"
      nohup "$app/run.sh" </dev/null >>"$state/agent.log" 2>&1 &
      echo $! >"$state/agent.pid"
      echo "The trust assistant runs (pid $!, log $state/agent.log) and starts at every desktop sign-in (no systemd user manager here)."
    fi
    ;;
  Darwin)
    require com.trustconsole.trust-assistant.plist
    app="$HOME/Library/Application Support/Trust Assistant/app"
    install_app "$app" trust-assistant README.md NODE-LICENSE com.trustconsole.trust-assistant.plist
    # The package is not notarised: the executable is signed here, ad hoc, for this Mac (Apple silicon
    # runs nothing unsigned), and the installed copy loses the quarantine of the download. Compare the
    # package's SHA-256 with the console's before running this script (README.md).
    codesign --force --sign - "$app/trust-assistant"
    xattr -d com.apple.quarantine "$app/trust-assistant" 2>/dev/null || true
    xattr -dr com.apple.quarantine "$app/vendor" 2>/dev/null || true
    write_settings
    link_command "$app"
    agents="$HOME/Library/LaunchAgents"
    plist="$agents/com.trustconsole.trust-assistant.plist"
    mkdir -p "$agents" "$HOME/Library/Logs"
    sed -e "s|@APP_DIR@|$app|g" -e "s|@EXECUTABLE@|$app/trust-assistant|g" -e "s|@HOME@|$HOME|g" \
      "$app/com.trustconsole.trust-assistant.plist" >"$plist"
    launchctl bootout "gui/$(id -u)" "$plist" 2>/dev/null || true
    launchctl bootstrap "gui/$(id -u)" "$plist"
    echo "The trust assistant runs as the launchd agent com.trustconsole.trust-assistant (log: ~/Library/Logs/trust-assistant.log)."
    ;;
  *)
    echo "install.sh installs on Linux and macOS; on Windows run install.cmd." >&2
    exit 1
    ;;
esac
