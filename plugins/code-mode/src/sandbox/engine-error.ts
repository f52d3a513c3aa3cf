// Reading an error object the engine made, property by property: the host never `dump`s guest
// values, whose getters and toJSON would run inside a host callback.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { ProgramFailure } from "./guest-failure.js";
import { programLine, syntaxError } from "./program-source.js";

/** A string property of an object, or "" when it is not a string. */
export function stringProp(context: QuickJSContext, object: QuickJSHandle, key: string): string {
  if (context.typeof(object) !== "object") return "";
  const value = context.getProp(object, key);
  const text = context.typeof(value) === "string" ? context.getString(value) : "";
  value.dispose();
  return text;
}

/** `Name: message` of an engine error. */
export function errorText(context: QuickJSContext, error: QuickJSHandle): string {
  const name = stringProp(context, error, "name") || "Error";
  return `${name}: ${stringProp(context, error, "message")}`;
}

/** Why the program did not compile: its syntax (with the line), or its size. */
export function compileFailure(
  context: QuickJSContext,
  error: QuickJSHandle,
  source: string,
): ProgramFailure {
  const name = stringProp(context, error, "name");
  const message = stringProp(context, error, "message");
  if (name === "InternalError" && /out of memory/.test(message))
    return { code: "MEMORY_LIMIT", message: "The program is too large to compile in its memory." };
  const failure = syntaxError(source, message, programLine(stringProp(context, error, "stack")));
  return {
    code: "SYNTAX",
    message: failure.message,
    ...(failure.line ? { line: failure.line } : {}),
  };
}
