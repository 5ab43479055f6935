#!/usr/bin/env bash
# Installs Debian's headless Chromium for ConsolePageBrowserTest (the console page opened in a real
# browser, screenshot under target/). Optional: without a browser that test is skipped with a printed
# reason. Needs root and apt-get; does nothing when a browser is already on the PATH.
set -euo pipefail
for b in chromium-headless-shell chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    echo "install-chromium: $b is already installed"
    exit 0
  fi
done
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != "0" ]; then
  echo "install-chromium: needs root and apt-get; skipping (the browser test will be skipped)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium-headless-shell fonts-dejavu-core >/dev/null
echo "install-chromium: installed $(command -v chromium-headless-shell)"
