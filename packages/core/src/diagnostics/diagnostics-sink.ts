import { EventEmitter } from "eventemitter3";
import type { Diagnostic } from "../contracts/diagnostic.js";
import { DefaultRedactor, type Redactor } from "./redactor.js";

/** Collects diagnostics for one agent; everything added is redacted first. */
export interface DiagnosticsSink {
  add(diagnostic: Diagnostic): void;
  list(): readonly Diagnostic[];
  readonly redactor: Redactor;
  on(event: "diagnostic", listener: (diagnostic: Diagnostic) => void): this;
  off(event: "diagnostic", listener: (diagnostic: Diagnostic) => void): this;
}

export class DefaultDiagnosticsSink
  extends EventEmitter<{ diagnostic: [Diagnostic] }>
  implements DiagnosticsSink
{
  private readonly items: Diagnostic[] = [];

  constructor(readonly redactor: Redactor = new DefaultRedactor()) {
    super();
  }

  add(diagnostic: Diagnostic): void {
    const safe: Diagnostic = {
      ...diagnostic,
      message: this.redactor.redact(diagnostic.message),
    };
    if (diagnostic.details) safe.details = this.redactor.redactValue(diagnostic.details);
    this.items.push(safe);
    this.emit("diagnostic", safe);
  }

  list(): readonly Diagnostic[] {
    return this.items;
  }
}
