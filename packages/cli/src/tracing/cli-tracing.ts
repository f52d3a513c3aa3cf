import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { TracerProvider } from "@opentelemetry/api";
import { CliUsageError } from "../cli-errors.js";
import { type TextSink, writeLine } from "../cli-io.js";
import { isMissingPackage, missingPackage } from "../optional-package.js";
import { cliVersion } from "../version.js";

/** Tracing as a command sets it up: `--trace FILE`, the standard `OTEL_*` variables, or none. */
export interface CliTracing {
  /** The agent's tracer provider (`--trace`); undefined: the global one (an SDK's, or none). */
  readonly tracerProvider: TracerProvider | undefined;
  /** Flush and stop, bounded: an unreachable collector must not hold the command's exit. */
  shutdown(): Promise<void>;
}

export interface CliTracingOptions {
  /** `--trace FILE`, resolved against `cwd`. */
  file: string | undefined;
  cwd: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  stderr: TextSink;
  /** How the OpenTelemetry Node SDK is loaded; tests replace it. */
  loadSdk?: (workspace: string) => Promise<NodeSdkModule>;
}

/** What the CLI uses of `@opentelemetry/sdk-node`, loaded on demand. */
export interface NodeSdkModule {
  NodeSDK: new (config?: {
    serviceName?: string;
  }) => {
    start(): void;
    shutdown(): Promise<void>;
  };
}

/**
 * What `--trace FILE` loads: optional peers of the CLI (about 25 MB with their own
 * dependencies), so an install that never traces does not carry them.
 */
export const TRACE_FILE_PACKAGES = [
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/resources",
  "@opentelemetry/core",
  "@opentelemetry/otlp-transformer",
] as const;

const SHUTDOWN_BOUND_MS = 5_000;
export const NO_TRACING: CliTracing = { tracerProvider: undefined, shutdown: async () => {} };

/**
 * `--trace FILE` writes the run's spans as OTLP JSON lines with no collector and no setup.
 * Otherwise, when the environment asks for an exporter (`OTEL_TRACES_EXPORTER`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and the user installed
 * `@opentelemetry/sdk-node`, that SDK starts and reads every `OTEL_*` variable itself; the CLI
 * ships no exporter of its own to keep its install small. With both, `--trace` gets the spans.
 */
export async function startCliTracing(options: CliTracingOptions): Promise<CliTracing> {
  if (options.file !== undefined) return startFileTracing(path.resolve(options.cwd, options.file));
  const wanted = exporterWanted(options.env);
  if (!wanted) return NO_TRACING;
  let sdkModule: NodeSdkModule;
  try {
    sdkModule = await (options.loadSdk ?? loadNodeSdk)(options.workspace);
  } catch {
    writeLine(
      options.stderr,
      `${wanted} is set, but @opentelemetry/sdk-node is not installed, so no traces are sent (npm install @opentelemetry/sdk-node, or use --trace FILE).`,
    );
    return NO_TRACING;
  }
  const sdk = new sdkModule.NodeSDK(
    options.env.OTEL_SERVICE_NAME ? {} : { serviceName: "pseudoclaude" },
  );
  sdk.start();
  return { tracerProvider: undefined, shutdown: () => bounded(sdk.shutdown()) };
}

function exporterWanted(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === "true") return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter !== undefined && exporter !== "")
    return exporter === "none" ? undefined : "OTEL_TRACES_EXPORTER";
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"])
    if (env[name]) return name;
  return undefined;
}

async function startFileTracing(file: string): Promise<CliTracing> {
  // Loaded only for --trace: a command without it pays nothing for the SDK.
  const [{ BasicTracerProvider, SimpleSpanProcessor }, { resourceFromAttributes }, exporterModule] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/resources"),
      import("./otlp-file-exporter.js"),
    ]).catch((error: unknown) => {
      if (isMissingPackage(error, TRACE_FILE_PACKAGES))
        throw missingPackage(TRACE_FILE_PACKAGES, "--trace FILE", error);
      throw error;
    });
  let exporter: InstanceType<typeof exporterModule.OtlpJsonLinesExporter>;
  try {
    exporter = new exporterModule.OtlpJsonLinesExporter(file);
  } catch (error) {
    throw new CliUsageError(
      "invalid_flag_value",
      `--trace ${file} cannot be written: ${(error as Error).message}`,
      { details: { flag: "trace", value: file } },
    );
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": "pseudoclaude",
      "service.version": cliVersion(),
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { tracerProvider: provider, shutdown: () => bounded(provider.shutdown()) };
}

/** From the CLI's own install first, then the workspace's (a project that added the SDK). */
async function loadNodeSdk(workspace: string): Promise<NodeSdkModule> {
  const name = "@opentelemetry/sdk-node";
  try {
    return (await import(name)) as NodeSdkModule;
  } catch {
    const resolved = createRequire(path.join(workspace, "package.json")).resolve(name);
    return (await import(pathToFileURL(resolved).href)) as NodeSdkModule;
  }
}

async function bounded(done: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    done.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_BOUND_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
