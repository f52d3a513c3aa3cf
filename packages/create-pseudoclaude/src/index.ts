// The scaffold as a library, for hosts that create starter apps themselves (a `pseudoclaude
// init`, an IDE): the same function the `create-pseudoclaude` bin calls.
export { type CreateArguments, parseArguments, USAGE, UsageError } from "./arguments.js";
export { ownVersion, ScaffoldError, type ScaffoldOptions, scaffold } from "./scaffold.js";
export {
  isValidPackageName,
  packageNameFrom,
  type StarterManifest,
  starterManifest,
} from "./starter-manifest.js";
export { STARTER_PACKAGES, STARTER_VERSIONS } from "./versions.js";
