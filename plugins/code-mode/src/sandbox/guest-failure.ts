import { programLine } from "./program-source.js";
import type { ProgramErrorCode } from "./program-types.js";

/** Why a program stopped, as the model that wrote it will read it. */
export interface ProgramFailure {
  code: ProgramErrorCode;
  message: string;
  line?: number;
}

/** What the guest bridge reports when the program throws or returns something JSON cannot hold. */
type GuestReport =
  | { kind: "error"; name: string; message: string; stack: string; code?: string }
  | { kind: "value"; type: string; value: string }
  | { kind: "result"; type: string; reason: string };

const MEMORY = /out of memory|string too long|invalid array buffer length|allocation failed/i;

/** Turn the bridge's JSON report of a failure into a code, a message and a line. */
export function classifyGuestFailure(json: string): ProgramFailure {
  let report: GuestReport;
  try {
    report = JSON.parse(json) as GuestReport;
  } catch {
    return { code: "INTERNAL", message: "The program failed and its error could not be read." };
  }
  if (report.kind === "value") {
    const shown = report.type === "undefined" ? "" : `: ${report.value}`;
    return {
      code: "THROWN",
      message: `Program threw a non-Error value (${report.type})${shown}`,
    };
  }
  if (report.kind === "result") {
    const reason = report.reason ? ` (${report.reason})` : "";
    return {
      code: "THROWN",
      message: `The returned value (${report.type}) cannot be converted to JSON${reason}; return plain data: objects, arrays, strings, numbers, booleans or null.`,
    };
  }
  const line = programLine(report.stack);
  const at = line === undefined ? {} : { line };
  const where = line === undefined ? "" : ` (line ${line})`;
  if (report.name === "InternalError" && /stack overflow/i.test(report.message))
    return {
      code: "STACK_OVERFLOW",
      message: `Maximum call stack size exceeded: the program recursed too deeply${where}.`,
      ...at,
    };
  if (
    (report.name === "InternalError" || report.name === "RangeError") &&
    MEMORY.test(report.message)
  )
    return {
      code: "MEMORY_LIMIT",
      message: `The program ran out of memory (${report.name}: ${report.message})${where}.`,
      ...at,
    };
  if (report.name === "ToolError" && report.code !== undefined)
    return {
      code: "THROWN",
      message: `ToolError (${report.code}): ${report.message}${where}`,
      ...at,
    };
  return { code: "THROWN", message: `${report.name}: ${report.message}${where}`, ...at };
}
