# tests/scratch.sh: sourced by e2e tests that must change the checkout.
# scratch_checkout DIR: a copy of this working tree (without out/ and .git)
# in DIR, so a test can edit fragments, recipes or patches and run make there
# with out=$KF_OUT, sharing the prepared tree, never touching the real files.
scratch_checkout() {
	mkdir -p "$1"
	tar -C "$top" --exclude=./out --exclude=./.git -cf - . | tar -C "$1" -xf -
}
# partial_flavour CO FROM NAME DIR...: flavour NAME in scratch checkout CO
# has FROM's recipe (so the same .config), and its O= in $KF_OUT/6.1 starts
# as a copy of FROM's finished build (bisect/seed.sh) less the objects under
# DIR... (relative to the O=), so its next build compiles just those: a
# partial rebuild that must end in FROM's bzImage. The objects' .cmd files
# go too: Kbuild writes an object's .cmd after the object, so one cut off
# mid-write has no .cmd and is rebuilt. Prints how many it deleted.
partial_flavour() {
	local co=$1 from=$2 name=$3 o=$KF_OUT/6.1/$3 d dirs=()
	shift 3
	sed "s/^description *=.*/description = $from, rebuilt in part by make check/" \
		"$co/flavours/$from.flavour" > "$co/flavours/$name.flavour" || return 1
	rm -rf "$o"
	bisect/seed.sh "$KF_OUT/6.1/$from" "$o" || return 1
	for d; do dirs+=("$o/$d"); done
	find "${dirs[@]}" -name '.*.o.cmd' | wc -l
	find "${dirs[@]}" \( -name '*.o' -o -name '.*.o.cmd' \) -delete
}
