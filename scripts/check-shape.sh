#!/bin/sh
# Check the architecture rules of fixscan on the built objects and the
# sources: no command using another command, no cycle between objects, no
# terminal output from the library, no function over 120 lines.  The rules
# and their reasons are in check-shape.py, which does the work (a graph and
# its cycles read better in Python than in sh).
#
# usage: scripts/check-shape.sh [--src DIR] [--obj DIR]
#   --src DIR  source tree (default: this repository)
#   --obj DIR  object tree (default: DIR/build/obj of the source tree)
#
# Prints one "check-shape: rule N: ..." line per violation, then
# "check-shape: N violations".  Exits 0 when there is none, 1 when there is
# any, 2 when it cannot check (no objects, no nm or ctags).
exec python3 "$(dirname "$0")/check-shape.py" "$@"
