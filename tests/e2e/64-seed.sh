#!/bin/bash
# bisect/seed.sh on a checkout reached through a symbolic link, as CI's
# clone can be: build.mk writes the O= path as given (-fdebug-prefix-map,
# through the link), the kernel's Makefile and tools/ as resolved (no link).
# seed.sh must move both forms to the new O=, or Kbuild rebuilds everything
# from a seeded directory (a bisect step, tests/scratch.sh's partial
# flavours). A made-up O= is enough: seed.sh reads only paths in .cmd and
# .d files. Paths with a '.', '+' and '&' check that none is taken as sed syntax.
. tests/lib.sh
real="$kf_tmp/real.d+x&y"
mkdir -p "$real/out/6.1"
ln -s "$real" "$kf_tmp/link"
from=$kf_tmp/link/out/6.1/a to=$kf_tmp/link/out/6.1/b
phys_from=$real/out/6.1/a phys_to=$real/out/6.1/b
mkdir -p "$from/kernel" "$from/tools/objtool" "$from/boot"
echo 'CONFIG_SMP=y' > "$from/.config"
echo "savedcmd_kernel/fork.o := gcc -fdebug-prefix-map=$from=. -c -o kernel/fork.o ../src/kernel/fork.c" \
	> "$from/kernel/.fork.o.cmd"
echo "savedcmd_vmlinux := ld -o vmlinux $phys_from/vmlinux.a" > "$from/.vmlinux.cmd"
echo "$phys_from/tools/objtool/check.o: /usr/include/stdio.h" > "$from/tools/objtool/.check.o.d"
echo "cmd_$phys_from/tools/objtool/check.o := gcc -c -o $phys_from/tools/objtool/check.o check.c" \
	> "$from/tools/objtool/.check.o.cmd"
echo "deps := ../../../a/tools/objtool/lib/inat-tables.c" > "$from/tools/objtool/.decode.o.cmd"
touch -d @1000000000 "$from/tools/objtool/.check.o.d" "$from/tools/objtool/.check.o.cmd" \
	"$from/tools/objtool/.decode.o.cmd"
touch -d @1000000000.2 "$from/tools/objtool/inat-tables.c"
touch -d @1000000000.7 "$from/tools/objtool/decode.o"
echo log > "$from/boot/qemu64.log"

check "seed.sh through a link to a path with . + &" bisect/seed.sh "$from" "$to"
grep -qF -- "-fdebug-prefix-map=$to=." "$to/kernel/.fork.o.cmd" &&
	ok "the debug map names the new O= through the link" ||
	{ not_ok "the debug map names the new O= through the link"; diag < "$to/kernel/.fork.o.cmd"; }
grep -qF "$phys_to/vmlinux.a" "$to/.vmlinux.cmd" &&
	ok "Kbuild's resolved path moved to the new O=" ||
	{ not_ok "Kbuild's resolved path moved to the new O="; diag < "$to/.vmlinux.cmd"; }
grep -qF "$phys_to/tools/objtool/check.o:" "$to/tools/objtool/.check.o.d" &&
	grep -qF "cmd_$phys_to/tools/objtool/check.o" "$to/tools/objtool/.check.o.cmd" &&
	ok "tools/' .d and .cmd files moved to the new O=" ||
	{ not_ok "tools/' .d and .cmd files moved to the new O="; cat "$to"/tools/objtool/.check.o.* | diag; }
grep -qF "../../../b/tools/objtool/lib/inat-tables.c" "$to/tools/objtool/.decode.o.cmd" &&
	ok "the relative form ccache writes moved to the new O=" ||
	{ not_ok "the relative form ccache writes moved to the new O="; diag < "$to/tools/objtool/.decode.o.cmd"; }
check_eq "tools/' files keep their mtime" \
	"$(stat -c %Y "$to"/tools/objtool/.{check.o.d,check.o.cmd,decode.o.cmd} | sort -u)" 1000000000
check_eq "mtimes to the nanosecond: the object stays newer than its source" \
	"$(for f in inat-tables.c decode.o; do date -r "$to/tools/objtool/$f" +%s.%N; done | tr '\n' ' ')" \
	"1000000000.200000000 1000000000.700000000 "
left=$(grep -rlF -e "$from" -e "$phys_from" -e "../a/" "$to" | sed "s#^$to/##")
check_eq "no file of the new O= names the old one" "$left" ""
[ ! -e "$to/boot" ] && ok "the old O='s boot records are not copied" ||
	not_ok "the old O='s boot records are not copied"
check_fails "a directory with no build is refused" 1 'has no build to copy' \
	bisect/seed.sh "$kf_tmp/link/out/6.1/none" "$kf_tmp/link/out/6.1/c"
[ ! -e "$kf_tmp/link/out/6.1/c" ] && ok "and leaves no O= behind" || not_ok "and leaves no O= behind"
done_testing
