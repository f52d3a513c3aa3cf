import { useEffect, useState } from "preact/hooks";
import { api, post } from "../api.js";
import { notice, refreshTools, tools } from "../state.js";
import type { Diagnostic } from "../types.js";

interface ServerReport {
  name: string;
  transport: string;
  state: string;
  stats: Record<string, number>;
  lastError?: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  stderr?: string[];
  log: Diagnostic[];
}

interface Listing<K extends string> {
  servers: Array<{ server: string; error?: string } & Record<K, Array<Record<string, unknown>>>>;
}

/** MCP servers: state, era, stats, log; their resources and prompts, browsed and read. */
export function McpPage() {
  const [servers, setServers] = useState<ServerReport[]>([]);
  const [resources, setResources] = useState<Listing<"resources">["servers"]>([]);
  const [prompts, setPrompts] = useState<Listing<"prompts">["servers"]>([]);
  const [reading, setReading] = useState<{ title: string; body: unknown } | undefined>(undefined);
  const [reconnects, setReconnects] = useState(0);
  const version = tools.value;
  useEffect(() => {
    void version;
    void reconnects;
    api<{ servers: ServerReport[] }>("/api/mcp/servers")
      .then((answer) => setServers(answer.servers))
      .catch((error: Error) => notice(error.message));
  }, [version, reconnects]);

  const browse = async () => {
    try {
      const [listedResources, listedPrompts] = await Promise.all([
        api<Listing<"resources">>("/api/mcp/resources"),
        api<Listing<"prompts">>("/api/mcp/prompts"),
      ]);
      setResources(listedResources.servers);
      setPrompts(listedPrompts.servers);
    } catch (error) {
      notice((error as Error).message);
    }
  };

  return (
    <div>
      <h2>MCP servers</h2>
      <table class="grid" data-testid="servers">
        <thead>
          <tr>
            <th>server</th>
            <th>state</th>
            <th>protocol</th>
            <th>stats</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <tr key={server.name} data-server={server.name}>
              <td>
                <strong>{server.name}</strong> <span class="muted">{server.transport}</span>
                {server.serverInfo ? (
                  <div class="hint">
                    {server.serverInfo.name} {server.serverInfo.version}
                  </div>
                ) : null}
                {server.lastError ? <div class="field-error">{server.lastError}</div> : null}
                {server.stderr?.length ? (
                  <details data-testid="stderr">
                    <summary>stderr ({server.stderr.length} lines)</summary>
                    <pre class="summary">{server.stderr.join("\n")}</pre>
                  </details>
                ) : null}
                {server.log.length > 0 ? (
                  <details>
                    <summary>log ({server.log.length})</summary>
                    <pre class="summary">
                      {server.log.map((line) => `${line.severity} ${line.message}`).join("\n")}
                    </pre>
                  </details>
                ) : null}
              </td>
              <td>
                <span class={`state ${server.state}`}>{server.state}</span>
              </td>
              <td>{server.protocolVersion ?? "—"}</td>
              <td class="muted">
                {Object.entries(server.stats)
                  .map(([key, value]) => `${key} ${value}`)
                  .join(" · ")}
              </td>
              <td>
                {server.state === "failed" || server.state === "disconnected" ? (
                  <button
                    type="button"
                    class="small"
                    onClick={() =>
                      void post<ServerReport>(
                        `/api/mcp/servers/${encodeURIComponent(server.name)}/reconnect`,
                      )
                        .then((report) => {
                          if (report.state !== "ready")
                            notice(
                              `${server.name}: ${report.state}${report.lastError ? ` (${report.lastError})` : ""}`,
                            );
                          setReconnects((count) => count + 1);
                          return refreshTools();
                        })
                        .catch((error: Error) => notice(error.message))
                    }
                  >
                    Reconnect
                  </button>
                ) : null}
                {server.state === "needs-auth" ? (
                  <button
                    type="button"
                    class="small"
                    onClick={() =>
                      void post(`/api/mcp/servers/${encodeURIComponent(server.name)}/login`).catch(
                        (error: Error) => notice(error.message),
                      )
                    }
                  >
                    Log in
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {servers.length === 0 ? <p class="muted">No MCP servers configured.</p> : null}
      <p>
        <button type="button" onClick={() => void browse()} data-testid="browse">
          Browse resources and prompts
        </button>
      </p>
      <div class="split even">
        <section>
          <h3>Resources</h3>
          {resources.map((entry) => (
            <div key={entry.server} class="group">
              <h4>{entry.server}</h4>
              {entry.error ? <p class="field-error">{entry.error}</p> : null}
              {entry.resources.map((resource) => (
                <button
                  type="button"
                  class="run-row"
                  key={String(resource.uri)}
                  data-resource={String(resource.uri)}
                  onClick={async () => {
                    try {
                      const read = await api(
                        `/api/mcp/resource?server=${encodeURIComponent(entry.server)}&uri=${encodeURIComponent(String(resource.uri))}`,
                      );
                      setReading({ title: String(resource.uri), body: read });
                    } catch (error) {
                      notice((error as Error).message);
                    }
                  }}
                >
                  {String(resource.name ?? resource.uri)}{" "}
                  <span class="muted">{String(resource.mimeType ?? "")}</span>
                </button>
              ))}
            </div>
          ))}
        </section>
        <section>
          <h3>Prompts</h3>
          {prompts.map((entry) => (
            <div key={entry.server} class="group">
              <h4>{entry.server}</h4>
              {entry.prompts.map((prompt) => (
                <button
                  type="button"
                  class="run-row"
                  key={String(prompt.name)}
                  onClick={async () => {
                    const args: Record<string, string> = {};
                    for (const argument of (prompt.arguments as Array<{
                      name: string;
                      required?: boolean;
                    }>) ?? []) {
                      const given = window.prompt(
                        `${prompt.name}: ${argument.name}${argument.required ? " (required)" : ""}`,
                      );
                      if (given) args[argument.name] = given;
                    }
                    try {
                      const got = await post("/api/mcp/prompts/get", {
                        server: entry.server,
                        name: prompt.name,
                        arguments: args,
                      });
                      setReading({ title: String(prompt.name), body: got });
                    } catch (error) {
                      notice((error as Error).message);
                    }
                  }}
                >
                  {String(prompt.name)}{" "}
                  <span class="muted">{String(prompt.description ?? "")}</span>
                </button>
              ))}
            </div>
          ))}
        </section>
      </div>
      {reading ? (
        <div class="reading" data-testid="reading">
          <h3>{reading.title}</h3>
          <pre class="mono">{JSON.stringify(reading.body, null, 2)}</pre>
        </div>
      ) : null}
    </div>
  );
}
