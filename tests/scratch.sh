# tests/scratch.sh: sourced by e2e tests that must change the checkout.
# scratch_checkout DIR: a copy of this working tree (without out/ and .git)
# in DIR, so a test can edit fragments, recipes or patches and run make there
# with out=$KF_OUT, sharing the prepared tree, never touching the real files.
scratch_checkout() {
	mkdir -p "$1"
	tar -C "$top" --exclude=./out --exclude=./.git -cf - . | tar -C "$1" -xf -
}
sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
