#!/bin/sh
# Check that CHANGELOG.md has an entry for the version given as the first argument.
version="$1"
if [ -z "$version" ]; then echo "usage: check-changelog VERSION" >&2; exit 2; fi
if [ ! -f CHANGELOG.md ]; then echo "CHANGELOG.md is missing" >&2; exit 1; fi
if grep -q "^## $version " CHANGELOG.md; then
  echo "CHANGELOG.md has an entry for $version:"
  sed -n "/^## $version /,/^## /p" CHANGELOG.md | sed '$d'
else
  echo "CHANGELOG.md has no entry for $version" >&2
  exit 1
fi
