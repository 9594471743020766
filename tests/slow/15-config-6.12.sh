#!/bin/bash
# The config stage on the 6.12 tree: tests/e2e/15-config.sh's checks with
# kvers=6.12 (make check runs them on 6.1 only: extracting and configuring
# a second tree is most of that script's cost).
kvers=6.12
. tests/e2e/15-config.sh
