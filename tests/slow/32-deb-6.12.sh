#!/bin/bash
# make deb on the 6.12 tree: tests/e2e/32-deb.sh's checks with kver=6.12
# (make check packages tiny-systemd on 6.1 only: a second tree's cold
# build with its modules is over make check's budget).
kver=6.12
. tests/e2e/32-deb.sh
