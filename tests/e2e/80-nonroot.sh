#!/bin/bash
# An ordinary user can run the pipeline once the packages are installed
# (issue 7, item 9): config and boot of generic as a non-root user.
# As root, the test creates the user 'kflavour-test' and hands it a copy of
# the checkout and an out= that reuses this run's prepared tree (read-only,
# through a symlink) and generic's build, so nothing is rebuilt. Run by a
# non-root user, it simply runs as that user.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
user=$(id -un)

if [ ! -s "$o/6.1/generic/arch/x86/boot/bzImage" ]; then
	not_ok "generic is built in $o (needed to boot it as another user)"
	done_testing
fi
co=$kf_tmp/co nr=$kf_tmp/out
scratch_checkout "$co"
mkdir -p "$nr/6.1"
ln -s "$o/6.1/src" "$nr/6.1/src"
cp -p "$o/6.1/tree.stamp" "$nr/6.1/"
cp -a "$o/6.1/kconfig" "$o/6.1/generic" "$nr/6.1/"
rm -rf "$nr/6.1/generic/boot"
[ -e "$o/toolchain.stamp" ] && cp -p "$o/toolchain.stamp" "$nr/"
# A changed recipe makes the config stage really run, as that user.
touch "$co/flavours/generic.flavour"

if [ "$(id -u)" = 0 ]; then
	user=kflavour-test
	id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
	chown -R "$user:" "$kf_tmp"
	chmod 755 "$kf_tmp"
	run() { runuser -u "$user" -- env HOME="/home/$user" "$@"; }
else
	run() { "$@"; }
fi
check_eq "running as a non-root user" "$(run id -u | grep -vc '^0$')" 1
check "make config boot flavour=generic as $user" \
	run make -C "$co" config boot flavour=generic out="$nr" CCACHE=0
check_eq "the config stage ran as $user" "$(stat -c %U "$nr/6.1/generic/config.stamp")" "$user"
rec=$nr/6.1/generic/boot/qemu64.json
check_eq "the boot as $user passed" "$(jq -r .verdict "$rec" 2>/dev/null)" pass
check_eq "its record is owned by $user" "$(stat -c %U "$rec" 2>/dev/null)" "$user"
done_testing
