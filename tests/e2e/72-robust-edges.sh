#!/bin/bash
# Robustness, round two (issue 13): path variables, destructive targets, the
# lock, full disks, shared files, the policy's symbols, failed configs,
# broken recipes, and names. Config-only: nothing here builds a kernel.
. tests/lib.sh
. tests/scratch.sh
o=$KF_OUT
mounts=()
trap 'for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$kf_tmp"' EXIT
root() { [ "$(id -u)" = 0 ]; }

# A tiny "kernel source" tarball: DIR/linux-source-6.1 with what $2 makes.
tiny_tarball() {	# tiny_tarball NAME COMMAND...
	local d=$kf_tmp/tb.$1; shift
	mkdir -p "$d/linux-source-6.1"
	(cd "$d/linux-source-6.1" && "$@")
	tar -C "$d" -cJf "$d.tar.xz" linux-source-6.1
	echo "$d.tar.xz"
}
# tmpfs OUT OPTIONS: OUT/6.1 on a tmpfs of its own (OUT/.lock stays writable).
tmpfs() {
	mkdir -p "$1/6.1"
	mount -t tmpfs -o "$2" kf-test "$1/6.1" && mounts+=("$1/6.1")
}

export KF_NEED_MB=0 KF_NEED_INODES=0
big=$(tiny_tarball big bash -c 'head -c 4M /dev/zero > zeros')
many=$(tiny_tarball many bash -c 'for i in $(seq 60); do echo $i > f$i; done')

### 1. Path variables
check_fails "out= with a space is refused before anything is written" 2 \
	"out='$kf_tmp/sp ace' contains white space" make help out="$kf_tmp/sp ace"
check_eq "and nothing was written" "$(ls -d "$kf_tmp/sp ace" "$kf_tmp/sp" ace 2>/dev/null | wc -l)" 0
check_fails "an empty out= is refused" 2 "out is empty; give it a path" make tree out=
check_fails "a quote in out= is refused, naming the character" 2 \
	"contains characters make cannot carry \(.'.\)" make list out="$kf_tmp/a'b"
check_fails "to= with white space is refused" 2 "to='a b' contains white space" \
	make help out="$o" to='a b'
check_fails "tarball= with a \$ is refused" 2 "tarball=.* contains characters make cannot carry" \
	make tree out="$kf_tmp/t1" tarball='/tmp/a;b'

### 2. Destructive targets only in an out= kflavour made
u=$kf_tmp/user
mkdir -p "$u" && echo precious > "$u/notes.txt"
check_fails "distclean refuses a directory kflavour did not make" 2 \
	"refusing to distclean: out=$u is not a kflavour output directory.*holds 'notes.txt'|no .kflavour mark" \
	make distclean out="$u"
check_eq "and deleted and wrote nothing" "$(ls -A "$u")" notes.txt
check_fails "clean refuses it too" 2 "refusing to clean" make clean out="$u"
n=$kf_tmp/new
check "make list creates a new out=" make list out="$n"
check "which carries kflavour's mark" test -f "$n/.kflavour"
check "distclean removes an out= kflavour made" make distclean out="$n"
check_eq "all of it" "$(ls -d "$n" 2>/dev/null)" ""
l=$kf_tmp/legacy	# an out= of a version before the mark
mkdir -p "$l/tools" "$l/6.1/generic" && : > "$l/.lock.owner"
check "clean accepts an older kflavour out= (its own layout)" make clean out="$l"
check_eq "and removed out/6.1 only" "$(ls -A "$l" | grep -v '^\.lock' | tr '\n' ' ')" ".kflavour tools "

### 3. The lock is never skipped; a busy out= with wait=0 is told apart.
b=$kf_tmp/busy
make list out="$b" > /dev/null
mk/lock "$b" 1 sleep 30 &	# killed below
holder=$!
sleep 1
check_fails "wait=0 on a busy out= prints the busy line (and make exits 2)" 2 \
	"^kflavour: busy: $b is in use by pid" make tree wait=0 out="$b" tarball="$many"
check_fails "mk/lock itself exits 3 when busy with wait=0" 3 "^kflavour: busy:" mk/lock "$b" 0 true
# The lock token (KF_LOCKED, which mk/lock passes to its make) names the out=
# it locks: a make run inside another out='s lock still takes its own, and
# one inside this out='s lock (a recipe's make) runs in it, not behind it.
check_fails "a make inside another out='s lock takes the lock of its own out=" 2 \
	"^kflavour: busy: $b is in use by pid" \
	env KF_LOCKED="$(cd "$kf_tmp" && pwd -P)" make tree wait=0 out="$b" tarball="$many"
check_fails "a make inside this out='s lock runs in it" 2 "^kflavour: .*is missing" \
	env KF_LOCKED="$(cd "$b" && pwd -P)" make tree wait=0 out="$b" tarball=/nonexistent.tar.xz
check_eq "(no busy line there)" "$(grep -c 'kflavour: busy:' "$kf_tmp/last.out")" 0
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
check_fails "a failure is not the busy line" 2 "^kflavour: .*is missing" \
	make tree wait=0 out="$b" tarball=/nonexistent.tar.xz
check_eq "(no busy line there)" "$(grep -c 'kflavour: busy:' "$kf_tmp/last.out")" 0
# A lock that cannot be opened: mode 000 (run as a non-root user; as root,
# as the test user of 80-nonroot.sh), and a read-only out= (root: tmpfs).
co=$kf_tmp/co; scratch_checkout "$co"
lk=$kf_tmp/lk; make list out="$lk" > /dev/null
chmod 000 "$lk/.lock"
if root; then
	user=kflavour-test
	id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
	chmod 755 "$kf_tmp"; chmod -R a+rX "$co" "$lk"
	as_user() { runuser -u "$user" -- env HOME="/home/$user" "$@"; }
else
	as_user() { "$@"; }
fi
check_fails "a lock that cannot be opened stops the run, naming path and cause" 2 \
	"cannot open the lock $lk/.lock: Permission denied" as_user make -C "$co" tree out="$lk" tarball="$many"
check_eq "and nothing ran unlocked" "$(grep -c 'TREE\|Bad file descriptor' "$kf_tmp/last.out")" 0
if root; then
	rl=$kf_tmp/rolock; mkdir -p "$rl"; mount -t tmpfs -o ro kf-test "$rl" && mounts+=("$rl")
	check_fails "a read-only out= stops at the lock" 2 \
		"cannot open the lock $rl/.lock: Read-only file system" make tree out="$rl" tarball="$many"
else
	skip "a read-only out= stops at the lock" "tmpfs mounts need root"
fi

### 5. Shared files: 'make list' beside a locked 'make config', a few times.
# list runs unlocked while flavours-*.mk is fresh and queues for the lock
# when it is stale; neither may fail, and flavours-*.mk must stay.
cc=$kf_tmp/cc; scratch_checkout "$cc"
make -C "$cc" config flavour=generic out="$o" > /dev/null 2>&1
bad=0
for i in 1 2; do
	# odd: the recipe changes (both remake flavours-*.mk); even: only the
	# config stage's input does (list stays unlocked).
	if [ $((i % 2)) = 1 ]; then touch "$cc/flavours/generic.flavour"; else touch "$cc/fragments/renames"; fi
	make -C "$cc" config flavour=generic out="$o" > "$kf_tmp/cfg.$i" 2>&1 &
	cfg=$!
	while kill -0 "$cfg" 2>/dev/null; do
		make -C "$cc" list out="$o" > "$kf_tmp/list.out" 2>&1 || { bad=1; diag < "$kf_tmp/list.out"; }
	done
	wait "$cfg" || { bad=1; diag < "$kf_tmp/cfg.$i"; }
done
check_eq "2 configs with lists beside them: none failed" "$bad" 0
check_eq "no temporary flavours-*.mk left" "$(ls "$o"/6.1/flavours-*.mk.tmp* 2>/dev/null | wc -l)" 0

### 6. Every fragments/policy symbol exists in the tree's Kconfig.
pc=$kf_tmp/pc; scratch_checkout "$pc"
echo 'MODULESS *=n : a typo that would bind nothing' >> "$pc/fragments/policy"
check_fails "a policy rule on a misspelt symbol fails, naming the nearest real one" 2 \
	"fragments/policy:[0-9]+: CONFIG_MODULESS is not a symbol of the 6.1 tree's Kconfig \(nearest: MODULES\)" \
	make -C "$pc" config flavour=generic out="$o"
rm -f "$o/6.1/flavours-$(printf %s "$pc" | md5sum | cut -c1-8).mk"
echo 'X86_HT *=y gone=6.1 : 2.6 HT, gone from 6.1' > "$kf_tmp/gone.policy"
check "a rule marked gone=6.1 passes the 6.1 symbol check" \
	"$o/tools/config-policy" --symbols "$o/6.1/kconfig.symbols" 6.1 "$kf_tmp/gone.policy"

### 7b. A flavour directory that cannot be written: the failure says so, and
# an old config.log (an earlier, good run's) is never shown as the cause.
if root; then
	rc=$kf_tmp/rlog; mkdir -p "$rc/6.1"
	ln -s "$o/6.1/src" "$rc/6.1/src"
	cp -p "$o/6.1/tree.stamp" "$o/6.1/kconfig.symbols" "$o/6.1/policy.checked" "$rc/6.1/"
	cp -a "$o/6.1/kconfig" "$o/6.1/tools" "$rc/6.1/"
	tmpfs_dir=$rc/6.1/generic; mkdir -p "$tmpfs_dir"
	mount -t tmpfs -o size=1m kf-test "$tmpfs_dir" && mounts+=("$tmpfs_dir")
	echo "OLD LOG of a good run" > "$tmpfs_dir/config.log"
	mount -o remount,ro "$tmpfs_dir"
	# flavour.json (the resolved flavour) is the first file the config
	# stage writes there; config.log the first the merge writes
	check_fails "a read-only flavour dir: the cause, not an old log" 2 \
		"($tmpfs_dir/flavour.json: Read-only file system; is out/ writable\?|cannot write $tmpfs_dir/config.log \(Read-only file system\); the previous .config of generic is unchanged)" \
		make config flavour=generic out="$rc"
	check_eq "the old log is not shown" "$(grep -c 'OLD LOG' "$kf_tmp/last.out")" 0
else
	skip "a read-only flavour dir" "tmpfs mounts need root"; skip "the old log is not shown" "root"
fi

### 8. A broken recipe blocks only itself; 9. names.
br=$kf_tmp/br; scratch_checkout "$br"
echo "colour = blue" >> "$br/flavours/k8.flavour"
check "make list works beside a broken recipe" make -C "$br" list out="$o"
out_has() { grep -Eq -- "$2" "$kf_tmp/last.out" && ok "$1" || { not_ok "$1 (no /$2/)"; tail -n 15 "$kf_tmp/last.out" | diag; }; }
out_has "and names it, with file, line and fix" "^k8 +BROKEN +flavours/k8.flavour:[0-9]+: unknown key 'colour'"
check "make help works" make -C "$br" help out="$o"
out_has "and names it too" "broken recipe, flavour k8 left out: flavours/k8.flavour:[0-9]+: unknown key"
check "another flavour configures" make -C "$br" config flavour=generic out="$o"
check_fails "the broken one is refused with its error" 2 \
	"flavour k8 has a broken recipe: flavours/k8.flavour:[0-9]+: unknown key 'colour'" \
	make -C "$br" config flavour=k8 out="$o"
rm -f "$o/6.1/flavours-$(printf %s "$br" | md5sum | cut -c1-8).mk"
bom=$kf_tmp/bom; scratch_checkout "$bom"
printf '\xef\xbb\xbf' | cat - "$bom/fragments/smt.config" > "$kf_tmp/smt" && cp "$kf_tmp/smt" "$bom/fragments/smt.config"
check_fails "a UTF-8 BOM in a fragment is named" 2 \
	"fragments/smt.config:1: byte 1 is a byte order mark \(U\+FEFF, BOM\), an invisible character" \
	make -C "$bom" config flavour=generic out="$o"
rm -f "$o/6.1/flavours-$(printf %s "$bom" | md5sum | cut -c1-8).mk" "$o"/6.1/generic/config{.failed,-failed.json}
check_fails "an empty flavour= is an error" 2 "flavour= is empty; name flavours" \
	make config flavour= out="$o"
check_fails "a misspelt flavour gets the nearest name" 2 \
	"unknown flavour 'mpcs' \(did you mean mpsc\?\); valid: (debian-[a-z0-9-]+ )*generic k8 mpsc" make config flavour=mpcs out="$o"

### 4. Full disks, exhausted inodes, read-only file systems (real tmpfs
# mounts: root only, as CI runs). "corrupt" stays for archives failing xz -t
# (tests/e2e/10-tree.sh).
if root; then
	f=$kf_tmp/full; tmpfs "$f" size=1m
	check_fails "a full disk while extracting is named, with what is free" 2 \
		"disk full in $f/6.1 while extracting linux-source-6.1: [0-9]+ MB free now" \
		make tree out="$f" tarball="$big"
	# (Its fresh out= compiles the tools first: those lines are not the error's.)
	check_eq "in a few lines, not tar's thousands" "$(($(grep -vc '^  HOSTCC  ' "$kf_tmp/last.out") <= 8))" 1
	check_eq "and not called corrupt" "$(grep -c corrupt "$kf_tmp/last.out")" 0
	i=$kf_tmp/inodes; tmpfs "$i" size=8m,nr_inodes=30
	check_fails "exhausted inodes while extracting are named" 2 \
		"inodes exhausted in $i/6.1 while extracting linux-source-6.1: 0 free now" \
		make tree out="$i" tarball="$many"
	check_fails "too few inodes are caught before extracting" 2 \
		"not enough inodes in $i/6.1 to extract linux-source-6.1: need 1000, [0-9]+ free" \
		make tree out="$i" tarball="$many" KF_NEED_INODES=1000
	# Read-only once flavours-*.mk is there, so that the extraction meets it.
	r=$kf_tmp/ro; tmpfs "$r" size=1m
	make list out="$r" > /dev/null && mount -o remount,ro "$r/6.1"
	check_fails "a read-only file system is named" 2 \
		"$r/6.1 is on a read-only file system; cannot extract" make tree out="$r" tarball="$many"
else
	for t in "a full disk" "few lines" "not corrupt" "inodes" "inodes before" "read-only"; do
		skip "$t while extracting" "tmpfs mounts need root"; done
fi

done_testing
