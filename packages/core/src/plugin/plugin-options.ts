import { didYouMean } from "../config/suggest-key.js";
import type { PluginContext } from "./plugin.js";

/**
 * Report each key of a plugin's options from code that the plugin does not know (`extraRots`
 * for `extraRoots`), with a suggestion, as a blocking diagnostic: `createAgent` throws, so a
 * misspelt option (JavaScript, or options built at run time) is not silently ignored.
 */
export function reportUnknownOptions(
  context: Pick<PluginContext, "report" | "pluginName">,
  options: object | undefined,
  known: readonly string[],
  call = `${context.pluginName}()`,
): void {
  if (options === undefined || options === null) return;
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    context.report({
      stage: "config",
      severity: "error",
      code: "config_invalid",
      layer: "code",
      file: "<code>",
      item: key,
      message: `${call}: unknown option "${key}"${didYouMean(key, known)}; known: ${known.join(", ")}.`,
      blocking: true,
    });
  }
}

/**
 * The keys of a plugin's options type, as a list that compiles only when it names every key
 * (`optionKeys<MyOptions>()(["a", "b"])`): an option added to the type but not to the list
 * that {@link reportUnknownOptions} checks against is a compile error naming it.
 */
export function optionKeys<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K &
      ([Exclude<keyof T & string, K[number]>] extends [never]
        ? unknown
        : { missingKeys: Exclude<keyof T & string, K[number]> }),
  ): K => keys;
}
