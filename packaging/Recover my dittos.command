#!/bin/sh
# Double-clicked in Finder, this opens Terminal and starts ditto-recover's guided recovery: it finds
# the iPhone backups on this Mac, asks which one, and writes a recovery file to the Desktop.
cd "$(dirname "$0")" || exit 1
exec ./ditto-recover guide
