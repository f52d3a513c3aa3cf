/**
 * One error base class with a stable `code` and structured `details`, subclassed by
 * who is at fault. Callers branch on `code` (stable across releases), never on message text.
 */
export type ErrorFault = "config" | "usage" | "model" | "tool" | "plugin" | "system";

/** Base of every error this framework throws on purpose. */
export class PseudoClaudeError extends Error {
  /** Stable, machine-readable identifier, e.g. `config_invalid`. */
  readonly code: string;
  /** Who is at fault: decides exit codes and how the CLI reports it. */
  readonly fault: ErrorFault;
  /** Structured context (file, line, plugin, tool ...). Never holds secrets. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    fault: ErrorFault,
    code: string,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.fault = fault;
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }

  /** True for any PseudoClaudeError, even one from another copy of this module. */
  static is(value: unknown): value is PseudoClaudeError {
    return (
      value instanceof PseudoClaudeError ||
      (value instanceof Error &&
        typeof (value as Partial<PseudoClaudeError>).code === "string" &&
        typeof (value as Partial<PseudoClaudeError>).fault === "string")
    );
  }
}

/** The configuration (files, options passed to createAgent) is wrong. */
export class ConfigError extends PseudoClaudeError {
  constructor(
    code: string,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super("config", code, message, options);
  }
}

/** The caller used an API or command wrongly (bad flag, bad argument). */
export class UsageError extends PseudoClaudeError {
  constructor(
    code: string,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super("usage", code, message, options);
  }
}

/** The model or its provider failed (API error, malformed response, script exhausted). */
export class ModelError extends PseudoClaudeError {
  constructor(
    code: string,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super("model", code, message, options);
  }
}

/** A plugin was declared or registered wrongly, or failed to start. */
export class PluginError extends PseudoClaudeError {
  constructor(
    code: string,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super("plugin", code, message, options);
  }
}

/** Something in the framework itself or its environment failed. */
export class SystemError extends PseudoClaudeError {
  constructor(
    code: string,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super("system", code, message, options);
  }
}

/** Message of any thrown value, without assuming it is an Error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
