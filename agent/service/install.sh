#!/bin/sh
# Installs the trust assistant for the signed-in user and starts it now and at every sign-in:
# a systemd user service on Linux (with the trust-assistant:// link handler), a launchd agent on macOS.
#
#   ./agent/service/install.sh [--origin https://console.example.com]...
#
# --origin names a console the agent may talk to (repeat it for several); without it the settings of
# an earlier install are kept. Needs Node.js 22.12 or later and npm.
set -eu

package=$(cd "$(dirname "$0")/../.." && pwd)
config_dir="$HOME/.config/trust-assistant"
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

node=$(command -v node) || { echo "Node.js 22.12 or later is needed (https://nodejs.org)." >&2; exit 1; }
"$node" -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)' ||
  { echo "Node.js 22.12 or later is needed; $node is $("$node" --version)." >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is needed to install the agent's dependencies." >&2; exit 1; }

require() {
  [ -f "$package/agent/service/$1" ] || { echo "This package has no $1: download the package for $(uname -s)." >&2; exit 1; }
}

# The new copy is complete, dependencies included, before it replaces the old one.
install_app() {
  target=$1
  mkdir -p "$(dirname "$target")"
  rm -rf "$target.new" "$target.old"
  mkdir "$target.new"
  cp -R "$package/." "$target.new/"
  (cd "$target.new" && npm install --omit=dev --no-audit --no-fund --loglevel=error)
  if [ -d "$target" ]; then mv "$target" "$target.old"; fi
  mv "$target.new" "$target"
  rm -rf "$target.old"
}

write_settings() {
  mkdir -p "$config_dir"
  if [ -n "$origins" ]; then
    printf 'TRUST_AGENT_ALLOWED_ORIGINS=%s\n' "$origins" >"$config_dir/agent.env"
  elif [ ! -f "$config_dir/agent.env" ]; then
    : >"$config_dir/agent.env"
  fi
}

case "$(uname -s)" in
  Linux)
    require trust-assistant.service
    app="$HOME/.local/lib/trust-assistant"
    install_app "$app"
    write_settings
    units="$HOME/.config/systemd/user"
    mkdir -p "$units/trust-assistant.service.d"
    cp "$app/agent/service/trust-assistant.service" "$units/"
    # The user manager's PATH seldom holds a node from a version manager: name the one found here.
    printf '[Service]\nEnvironment=PATH=%s:/usr/local/bin:/usr/bin:/bin\n' "$(dirname "$node")" \
      >"$units/trust-assistant.service.d/node.conf"
    systemctl --user daemon-reload
    systemctl --user enable trust-assistant.service
    systemctl --user restart trust-assistant.service
    applications="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
    mkdir -p "$applications"
    cp "$app/agent/service/trust-assistant-url.desktop" "$applications/"
    if command -v update-desktop-database >/dev/null; then update-desktop-database "$applications" || true; fi
    if command -v xdg-mime >/dev/null; then
      xdg-mime default trust-assistant-url.desktop x-scheme-handler/trust-assistant || true
    fi
    echo "The trust assistant runs as the user service trust-assistant (systemctl --user status trust-assistant)."
    ;;
  Darwin)
    require com.trustconsole.trust-assistant.plist
    app="$HOME/Library/Application Support/Trust Assistant/app"
    install_app "$app"
    write_settings
    agents="$HOME/Library/LaunchAgents"
    plist="$agents/com.trustconsole.trust-assistant.plist"
    mkdir -p "$agents" "$HOME/Library/Logs"
    sed -e "s|@APP_DIR@|$app|g" -e "s|@NODE@|$node|g" -e "s|@HOME@|$HOME|g" \
      "$app/agent/service/com.trustconsole.trust-assistant.plist" >"$plist"
    launchctl bootout "gui/$(id -u)" "$plist" 2>/dev/null || true
    launchctl bootstrap "gui/$(id -u)" "$plist"
    echo "The trust assistant runs as the launchd agent com.trustconsole.trust-assistant (log: ~/Library/Logs/trust-assistant.log)."
    ;;
  *)
    echo "install.sh installs on Linux and macOS; on Windows follow README.md." >&2
    exit 1
    ;;
esac
