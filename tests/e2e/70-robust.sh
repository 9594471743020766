#!/bin/bash
# Robustness (issue 7): bad names, the lock on out/, interrupted runs, host
# safety. Bad fragments, patches and tarballs have their own tests (10-tree,
# 20-audit, 25-edit); guest faults are verdicts (40-boot).
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT

# 1. Bad names: exit 2 and the valid names listed.
check_fails "unknown flavour= lists the valid ones" 2 \
	"unknown flavour 'nosuch'; valid: (debian-[a-z0-9-]+ )*generic k8 mpsc" make config flavour=nosuch out="$o"
check_fails "unknown kver= lists the valid ones" 2 \
	'kver=5.4 is not known; valid: 6.1 6.12' make config kver=5.4 out="$o"
check_fails "unknown cpu= lists the valid ones" 2 \
	"unknown cpu 'pentium9'.*nocona" make matrix cpu=pentium9 out="$o"

# 6. Concurrency: a second make waits for the lock; wait=0 says who holds it.
lo=$kf_tmp/lockout
mkdir -p "$lo" "$kf_tmp/t/linux-source-6.1"
echo tiny > "$kf_tmp/t/linux-source-6.1/README"
tar -C "$kf_tmp/t" -cJf "$kf_tmp/tiny.tar.xz" linux-source-6.1
mk/lock "$lo" 1 sleep 4 &
holder=$!
sleep 1
check_fails "wait=0 exits at once naming the holder" 2 \
	"is in use by pid [0-9]+ .*not waiting \(wait=0\)" make tree wait=0 out="$lo" tarball="$kf_tmp/tiny.tar.xz"
start=$SECONDS
make tree out="$lo" tarball="$kf_tmp/tiny.tar.xz" > "$kf_tmp/wait.out" 2>&1
waited=$((SECONDS - start))
if grep -q 'waiting for it to finish' "$kf_tmp/wait.out" && [ "$waited" -ge 2 ]; then
	ok "a second make waits for the first ($waited s)"
else
	not_ok "a second make waits for the first ($waited s)"; diag < "$kf_tmp/wait.out"
fi
wait "$holder"

# 5. Interruptions: SIGINT, then SIGKILL, during extraction; the next run
# completes and nothing half-made is left. A scratch checkout with no
# patches extracts a made-up tarball of 4,000 files (a second, not the
# real tree's 20): what is tested is the stage's temporary tree, not tar.
ct=$kf_tmp/ct io=$kf_tmp/intout big=$kf_tmp/big.tar.xz
scratch_checkout "$ct"
: > "$ct/patches/6.1/series"
mkdir -p "$kf_tmp/big/linux-source-6.1"
for d in {1..40}; do
	mkdir "$kf_tmp/big/linux-source-6.1/d$d"
	for f in {1..100}; do echo "$d $f" > "$kf_tmp/big/linux-source-6.1/d$d/f$f"; done
done
tar -C "$kf_tmp/big" -cJf "$big" linux-source-6.1
rm -rf "$kf_tmp/big"
# A script's background job ignores SIGINT (POSIX), and so would make and
# the tar under it: the job is started with job control on (set -m), which
# puts it in a process group of its own with SIGINT as a terminal's Ctrl-C
# delivers it. The signal goes once GLOB names a file: in the middle of the
# work, whatever the machine's speed; caught says whether it was.
interrupt() {	# interrupt SIGNAL GLOB MAKE-ARGS...
	local sig=$1 glob=$2 pid
	shift 2
	set -m
	make "$@" > "$kf_tmp/int.out" 2>&1 &
	pid=$!
	set +m
	for _ in {1..1200}; do
		compgen -G "$glob" > /dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	caught=$(compgen -G "$glob" > /dev/null && echo yes)
	kill -"$sig" -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
interrupt INT "$io/6.1/.src.tmp.*/d1/f1" -C "$ct" tree out="$io" tarball="$big"
check_eq "SIGINT during extraction: make ends, the tree unmade" \
	"$caught:$(grep -c 'applied .* patch' "$kf_tmp/int.out"):$(ls "$io/6.1/tree.stamp" 2>/dev/null | wc -l)" yes:0:0
check_eq "SIGINT during extraction leaves no temporary tree" \
	"$(ls -d "$io"/6.1/.src.tmp.* 2>/dev/null | wc -l)" 0
interrupt KILL "$io/6.1/.src.tmp.*/d1/f1" -C "$ct" tree out="$io" tarball="$big"
check_eq "SIGKILL during extraction leaves its temporary tree (no trap runs)" \
	"$caught:$(ls -d "$io"/6.1/.src.tmp.* 2>/dev/null | wc -l)" yes:1
check "after SIGINT and SIGKILL, make tree completes" make -C "$ct" tree out="$io" tarball="$big"
check_eq "stamp written, temporaries gone, the tree whole" \
	"$(test -s "$io/6.1/tree.stamp" && ls -d "$io"/6.1/.src.* 2>/dev/null | wc -l):$(find "$io/6.1/src" -type f | wc -l)" 0:4000
rm -rf "$io"

# Interrupting the config stage keeps the previous .config.
check "generic configured" make config flavour=generic out="$o"
before=$(sha "$o/6.1/generic/.config")
co=$kf_tmp/co
scratch_checkout "$co"
touch "$co/flavours/generic.flavour"
interrupt KILL "$o/6.1/generic/.config.kf-new" -C "$co" config flavour=generic out="$o"
check_eq "SIGKILL during the merge (its .config.kf-new there)" "$caught" yes
check_eq "SIGKILL during config leaves .config intact" "$(sha "$o/6.1/generic/.config")" "$before"
check "the next config run completes" make -C "$co" config flavour=generic out="$o"
check_eq "and gives the same .config" "$(sha "$o/6.1/generic/.config")" "$before"
check_eq "no temporary config left" "$(ls "$o"/6.1/generic/.config.kf-new* 2>/dev/null | wc -l)" 0

# 8. Host safety: nothing loads code into this machine's kernel, and QEMU
# never gets a network or a host directory.
code=$(git ls-files 2>/dev/null | grep -vE '^(tests|docs)/|\.md$' || true)
[ -n "$code" ] || code=$(find Makefile mk tree config build boot report bench lib -type f)
if grep -nE '\b(insmod|rmmod|modprobe|kexec|init_module|finit_module|kexec_load)\b' $code > "$kf_tmp/hits"; then
	not_ok "no insmod/modprobe/kexec anywhere in the pipeline"; diag < "$kf_tmp/hits"
else
	ok "no insmod/modprobe/kexec anywhere in the pipeline"
fi
records=$(ls "$o"/*/*/boot/*.json 2>/dev/null)
if [ -z "$records" ]; then
	not_ok "boot records exist to check QEMU's command line"
else
	bad=0
	for r in $records; do
		jq -e '(.command | index("-nic")) as $i | $i != null and .command[$i+1] == "none"' "$r" >/dev/null || bad=1
		jq -e '[.command[] | select(test("virtfs|fsdev|9p|-drive|-hd[a-d]|-accel kvm|enable-kvm"))] | length == 0' "$r" >/dev/null || bad=1
	done
	[ "$bad" = 0 ] && ok "every QEMU run had -nic none, no shared directory, no KVM" ||
		not_ok "every QEMU run had -nic none, no shared directory, no KVM"
fi
check_eq "no QEMU left running" "$(pgrep -c -f 'qemu-system-x86_64.*kflavour' || true)" 0

done_testing
