#!/usr/bin/env node
// Committed launcher, so `npm ci` can link the `pseudoclaude` command before anything is
// built; the command itself is the compiled dist/src/bin.js.
import "../dist/src/bin.js";
