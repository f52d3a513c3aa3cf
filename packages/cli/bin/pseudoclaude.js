#!/usr/bin/env node
// Committed launcher, so `npm ci` can link the `pseudoclaude` command before anything is
// built; the command itself is the bundled dist/bundle/bin.js.
import "../dist/bundle/bin.js";
