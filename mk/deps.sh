#!/bin/bash
# deps.sh PACKAGE...: make sure these Debian packages are installed.
missing=()
for p in "$@"; do
	s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)
	[ "${s:0:2}" = ii ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "kflavour: missing Debian packages: ${missing[*]}" >&2
	echo "kflavour: install them as root with:" >&2
	echo "    apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 2
fi
echo "kflavour: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Another apt-get (a second make, unattended-upgrades) holds dpkg's lock:
# wait for it, up to 10 minutes, rather than fail on a busy machine.
apt=(apt-get -qq -o DPkg::Lock::Timeout=600)
if ! { "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; } >/tmp/kflavour-apt.$$.log 2>&1; then
	tail -n 20 /tmp/kflavour-apt.$$.log >&2
	echo "kflavour: apt-get install ${missing[*]} failed (log above)" >&2
	rm -f /tmp/kflavour-apt.$$.log
	exit 2
fi
rm -f /tmp/kflavour-apt.$$.log
