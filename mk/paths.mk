# Path variables are checked before anything is written (issue 13): make
# splits words at white space and expands '$', and the recipes quote paths in
# '...', so a path may hold only the characters below. An empty out= (an
# unset shell variable) would put out/ at the root; it is refused too.
path_chars := a b c d e f g h i j k l m n o p q r s t u v w x y z \
	A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
	0 1 2 3 4 5 6 7 8 9 / . _ - + , @
# path_residue TEXT,CHARS: TEXT without any of CHARS.
path_residue = $(if $(2),$(call path_residue,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
# check_path NAME,VALUE,RULE: stop with NAME's rule if VALUE breaks it.
check_path = $(if $(strip $(2)),$(if $(or $(subst $(strip $(2)),,$(2)),$(filter-out 1,$(words $(2)))),$(error \
	$(1)='$(2)' contains white space; make splits paths there: use a path without spaces or tabs ($(3))),$(if \
	$(call path_residue,$(2),$(path_chars)),$(error $(1)='$(2)' contains characters make cannot carry \
	('$(call path_residue,$(2),$(path_chars))'); use only letters, digits and / . _ - + , @ ($(3))))),$(error \
	$(1) is empty; give it a path or leave it out ($(3))))

$(call check_path,the checkout path,$(CURDIR),move the checkout)
$(call check_path,out,$(out),output directory; default ./out)
$(if $(filter-out undefined,$(origin tarball)),$(call check_path,tarball,$(tarball),the kernel source tarball))
$(if $(filter-out undefined,$(origin to)),$(if $(to),$(call check_path,to,$(to),a fragment name or path)))
