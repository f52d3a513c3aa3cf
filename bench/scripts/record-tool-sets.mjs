#!/usr/bin/env node
// Records the real `tools/list` answers of popular public MCP servers published on npm, as the
// JSON fixtures of bench/fixtures/tool-sets/ (a realistic set of servers' tools for the token
// benchmark), and rewrites that folder's README from them.
//
//   node bench/scripts/record-tool-sets.mjs [--out dir] [--only name,name] [--scratch dir]
//                                           [--date YYYY-MM-DD] [--no-netns]
//
// Run by hand only: it installs third-party packages from the npm registry and starts them, so
// neither CI nor `npm test` runs it (nothing imports it; it is not in any package script).
//
// For each server of SERVERS below it:
//   1. installs the pinned version into <scratch>/<server> (default /tmp/toolsets, outside the
//      repository) with `npm i --ignore-scripts`: no postinstall step downloads a browser;
//   2. starts the package's bin over stdio with the official MCP client, in a session of its
//      own (setsid, so that every process it starts can be killed as one group) and in a
//      network namespace of its own (unshare --net, loopback only): dummy API keys never reach
//      a real API, and no telemetry or update check leaves the machine;
//   3. asks tools/list, following nextCursor, and keeps the tool objects exactly as they came
//      over the wire (the SDK's parsed result drops fields its schema does not know);
//   4. asks again after SETTLE_MS, to catch a server whose tools change after start;
//   5. closes the client and kills every process left in the server's session.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

// Tried and left out (the README says so too), firecrawl-mcp and exa-mcp-server in their place:
// - @modelcontextprotocol/server-gitlab 2025.4.25: it does not declare zod, npm now hoists zod 4
//   beside its zod-to-json-schema 3, and every inputSchema comes out as a bare
//   `{ "$schema": ... }` with no `type: "object"`, so the SDK client refuses the whole list.
// - @modelcontextprotocol/server-redis 2025.4.25: connects to Redis before it answers anything,
//   and exits when none is there.
// - @modelcontextprotocol/server-gdrive 2025.1.14: exits at start without an OAuth credentials
//   file ("Please run with 'auth' argument first").
//
// `{work}` in args or env stands for <scratch>/<server>/work, an empty directory made for the
// server (the filesystem server's root, the memory server's file, and so on). Env values are
// dummies: every server here lists its tools without a working key.
const SERVERS = [
  {
    server: "everything",
    package: "@modelcontextprotocol/server-everything",
    version: "2026.8.31",
    args: ["stdio"],
  },
  {
    server: "filesystem",
    package: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    args: ["{work}"],
  },
  {
    server: "memory",
    package: "@modelcontextprotocol/server-memory",
    version: "2026.8.31",
    env: { MEMORY_FILE_PATH: "{work}/memory.jsonl" },
  },
  {
    server: "sequential-thinking",
    package: "@modelcontextprotocol/server-sequential-thinking",
    version: "2026.8.31",
  },
  {
    server: "github",
    package: "@modelcontextprotocol/server-github",
    version: "2025.4.8",
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "dummy" },
  },
  {
    server: "playwright",
    package: "@playwright/mcp",
    version: "0.0.86",
    // No browser is launched before a tool is called; --headless only says how it would be.
    args: ["--headless"],
  },
  {
    server: "context7",
    package: "@upstash/context7-mcp",
    version: "4.1.1",
  },
  {
    server: "chrome-devtools",
    package: "chrome-devtools-mcp",
    version: "1.11.0",
    // Chrome starts on the first tool call only; usage statistics are on by default.
    args: ["--headless", "--isolated", "--no-usage-statistics"],
  },
  {
    server: "notion",
    package: "@notionhq/notion-mcp-server",
    version: "2.5.2",
    env: { NOTION_TOKEN: "dummy" },
  },
  {
    server: "desktop-commander",
    package: "@wonderwhy-er/desktop-commander",
    version: "0.2.52",
  },
  {
    server: "git",
    package: "@cyanheads/git-mcp-server",
    version: "2.15.3",
    env: { MCP_TRANSPORT_TYPE: "stdio" },
  },
  {
    server: "chart",
    package: "@antv/mcp-server-chart",
    version: "0.9.10",
  },
  {
    server: "puppeteer",
    package: "@modelcontextprotocol/server-puppeteer",
    version: "2025.5.12",
  },
  {
    server: "slack",
    package: "@modelcontextprotocol/server-slack",
    version: "2025.4.25",
    env: { SLACK_BOT_TOKEN: "dummy", SLACK_TEAM_ID: "T00000000" },
  },
  {
    server: "postgres",
    package: "@modelcontextprotocol/server-postgres",
    version: "0.6.2",
    // Its connection pool connects on the first query only.
    args: ["postgresql://127.0.0.1:5432/postgres"],
  },
  {
    server: "brave-search",
    package: "@modelcontextprotocol/server-brave-search",
    version: "0.6.2",
    env: { BRAVE_API_KEY: "dummy" },
  },
  {
    server: "google-maps",
    package: "@modelcontextprotocol/server-google-maps",
    version: "0.6.2",
    env: { GOOGLE_MAPS_API_KEY: "dummy" },
  },
  {
    server: "tavily",
    package: "tavily-mcp",
    version: "0.2.22",
    env: { TAVILY_API_KEY: "dummy" },
  },
  {
    server: "firecrawl",
    package: "firecrawl-mcp",
    version: "3.26.0",
    env: { FIRECRAWL_API_KEY: "fc-dummy" },
  },
  {
    server: "exa",
    package: "exa-mcp-server",
    version: "3.4.1",
    env: { EXA_API_KEY: "dummy" },
  },
];

// Given to every server: no browser download, no update notices or telemetry where a package
// honours these, and HOME in the scratch directory so nothing writes into the real one.
const COMMON_ENV = {
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
  PUPPETEER_SKIP_DOWNLOAD: "1",
  DO_NOT_TRACK: "1",
  NO_UPDATE_NOTIFIER: "1",
  NODE_ENV: "production",
};

const SERVER_DEADLINE_MS = 60_000; // the whole start, list, settle and list again
const SETTLE_MS = 3_000; // a second tools/list this long after the first
const CLOSE_GRACE_MS = 5_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
function option(name, fallback) {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
}
const outDir = path.resolve(option("--out", path.join(here, "..", "fixtures", "tool-sets")));
const scratch = path.resolve(option("--scratch", path.join(os.tmpdir(), "toolsets")));
const recorded = option("--date", new Date().toISOString().slice(0, 10));
const only = option("--only", "")?.split(",").filter(Boolean) ?? [];
const useNetns = !argv.includes("--no-netns");

// The client SDK's version, said in the README: read from the package the import resolved to.
const require = createRequire(import.meta.url);
const sdkDir = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/sdk/client")),
  "..",
  "..",
  "..",
);
const sdkVersion = JSON.parse(readFileSync(path.join(sdkDir, "package.json"), "utf8")).version;

// A server's own network namespace has a loopback only, and that loopback starts down.
if (useNetns && spawnSync("unshare", ["--net", "true"]).status !== 0) {
  console.error(
    "unshare --net failed (needs root or user namespaces). Servers would reach the network " +
      "with dummy keys; pass --no-netns to record all the same.",
  );
  process.exit(1);
}

function fill(value, work) {
  return value.replaceAll("{work}", work);
}

function install(entry, dir) {
  const installed = path.join(dir, "node_modules", entry.package, "package.json");
  if (
    existsSync(installed) &&
    JSON.parse(readFileSync(installed, "utf8")).version === entry.version
  ) {
    return installed;
  }
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so that npm never walks up into another project.
  writeFileSync(path.join(dir, "package.json"), '{ "private": true }\n');
  const result = spawnSync(
    "npm",
    [
      "i",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--save-exact",
      `${entry.package}@${entry.version}`,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`npm i failed: ${result.stderr.slice(-2000)}`);
  return installed;
}

function binOf(packageJsonPath, entry) {
  const pkg = JSON.parse(readFileSync(packageJsonPath, "utf8"));
  const bins = typeof pkg.bin === "string" ? { [pkg.name.split("/").pop()]: pkg.bin } : pkg.bin;
  // npx runs the bin named like the package (without its scope), else the only one.
  const name = entry.bin ?? pkg.name.split("/").pop();
  const file = bins[name] ?? Object.values(bins)[0];
  return { version: pkg.version, file: path.join(path.dirname(packageJsonPath), file) };
}

// Every process in a session: the server was started by setsid, so its pid is the session id,
// and whatever it starts stays in that session unless it calls setsid itself.
function sessionMembers(sid) {
  const members = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command (which may hold spaces) start after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[3]) === sid) members.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

function killSession(sid) {
  for (const pid of sessionMembers(sid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

// The command line a person would use for the same server (what the fixture's "command" says):
// the script runs the same bin from the same install, as npx does.
function commandLine(entry, work) {
  const env = Object.entries(entry.env ?? {}).map(([key, value]) => `${key}=${fill(value, work)}`);
  const args = (entry.args ?? []).map((arg) => fill(arg, work));
  return [...env, "npx", "-y", `${entry.package}@${entry.version}`, ...args].join(" ");
}

async function record(entry) {
  const dir = path.join(scratch, entry.server);
  const work = path.join(dir, "work");
  const home = path.join(dir, "home");
  mkdirSync(work, { recursive: true });
  mkdirSync(home, { recursive: true });
  const bin = binOf(install(entry, dir), entry);
  const started = Date.now(); // the install is not part of a server's 60 s

  const serverArgs = [bin.file, ...(entry.args ?? []).map((arg) => fill(arg, work))];
  // setsid: a session of its own (see sessionMembers). unshare --net: no network but a
  // loopback, which `ip` brings up so that 127.0.0.1 answers "connection refused" at once.
  const wrapped = useNetns
    ? [
        "unshare",
        "--net",
        "--",
        "sh",
        "-c",
        'ip link set lo up 2>/dev/null; exec "$@"',
        "sh",
        process.execPath,
        ...serverArgs,
      ]
    : [process.execPath, ...serverArgs];
  const env = { ...COMMON_ENV, HOME: home, TMPDIR: work };
  for (const [key, value] of Object.entries(entry.env ?? {})) env[key] = fill(value, work);

  const transport = new StdioClientTransport({
    command: "setsid",
    args: wrapped,
    env,
    cwd: work,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const client = new Client({ name: "pseudoclaude-tool-set-recorder", version: "1.0.0" });

  // The raw answers, as the server sent them: wrapped around the client's own handler.
  let lastRawTools = null;
  let listChanged = 0;
  const notes = [];
  let pid = null;
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer within 60 s")), SERVER_DEADLINE_MS);
  });

  async function listAll() {
    const tools = [];
    let cursor;
    do {
      lastRawTools = null;
      const result = await client.listTools(cursor ? { cursor } : undefined);
      if (!lastRawTools) throw new Error("tools/list answer not seen on the wire");
      tools.push(...lastRawTools);
      cursor = result.nextCursor;
    } while (cursor);
    return tools;
  }

  // The pid as soon as the process is spawned: the transport forgets it once the process exits,
  // and what that process started may still be running then.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid;
  };

  try {
    const session = (async () => {
      await client.connect(transport);
      const onmessage = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if (Array.isArray(message?.result?.tools)) lastRawTools = message.result.tools;
        if (message?.method === "notifications/tools/list_changed") listChanged++;
        onmessage?.(message, extra);
      };
      const first = await listAll();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const second = await listAll();
      if (JSON.stringify(first) !== JSON.stringify(second)) {
        notes.push(
          `tools changed after start (${first.length} at first, ${second.length} ${SETTLE_MS / 1000} s later; the later kept)`,
        );
      }
      if (listChanged) notes.push(`${listChanged} tools/list_changed notification(s)`);
      return { server: client.getServerVersion(), tools: second };
    })();
    const result = await Promise.race([session, deadline]);
    const ms = Date.now() - started;
    return { ...result, version: bin.version, command: commandLine(entry, work), notes, ms };
  } catch (error) {
    error.stderr = stderr;
    throw error;
  } finally {
    clearTimeout(timer);
    pid ??= transport.pid;
    await Promise.race([
      client.close().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS)),
    ]);
    if (pid) {
      killSession(pid);
      const left = sessionMembers(pid);
      if (left.length) console.error(`  ${entry.server}: processes left: ${left.join(" ")}`);
    }
  }
}

function writeFixture(entry, result) {
  const fixture = {
    server: entry.server,
    package: entry.package,
    version: result.version,
    recorded,
    command: result.command,
    tools: result.tools,
  };
  writeFileSync(path.join(outDir, `${entry.server}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}

// The README's table is made from every fixture in the folder, so that a run with --only keeps
// the others' rows. The prose below it says how they were recorded.
function writeReadme() {
  const rows = readdirSync(outDir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(outDir, name), "utf8")));
  let tools = 0;
  let bytes = 0;
  const lines = rows.map((fixture) => {
    const size = Buffer.byteLength(JSON.stringify(fixture.tools));
    tools += fixture.tools.length;
    bytes += size;
    return `| ${fixture.server} | ${fixture.package}@${fixture.version} | ${fixture.tools.length} | ${size.toLocaleString("en-US")} | \`${fixture.command}\` |`;
  });
  const readme = `${README_HEAD}
| server | package@version | tools | bytes | how started |
| --- | --- | ---: | ---: | --- |
${lines.join("\n")}
| **total** (${rows.length} servers) | | **${tools}** | **${bytes.toLocaleString("en-US")}** | |

${README_TAIL.replaceAll("{sdk}", sdkVersion)}`;
  writeFileSync(path.join(outDir, "README.md"), readme);
  return { servers: rows.length, tools, bytes };
}

const README_HEAD = `# Tool sets of public MCP servers

The real \`tools/list\` answers of popular public MCP servers published on npm, one JSON file
a server: \`{ server, package, version, recorded, command, tools }\`, where \`tools\` holds the
tool objects exactly as the server sent them (name, title, description, inputSchema,
outputSchema, annotations, _meta, and whatever else it put there). They are a realistic set of
servers' tools for the token benchmark. "bytes" is the \`tools\` array as compact JSON (UTF-8).
`;

const README_TAIL = `How they were recorded: by \`node bench/scripts/record-tool-sets.mjs\` (run by hand, never by
CI or \`npm test\`), on the date in each file's \`recorded\`, with the official MCP client of
\`@modelcontextprotocol/sdk\` {sdk} (\`Client\` over \`StdioClientTransport\`, declaring no client
capabilities). Each package was installed at the version pinned in the script into a scratch
directory outside the repository with \`npm i --ignore-scripts\`, and its bin was started over
stdio (what the \`npx\` line in "how started" runs), in a session of its own and in a network
namespace with only a loopback (\`unshare --net\`): the keys are dummies, whatever is network-y
points at 127.0.0.1, no browser was downloaded or started, and no request, telemetry or update
check left the machine. The client asked \`tools/list\` (following \`nextCursor\`) and again 3 s
later, kept the answer as it came off the wire (the SDK's parsed result drops fields its schema
does not know), closed the client and killed every process of the server's session. Swapped
from the target set: \`@modelcontextprotocol/server-gitlab\` (it does not declare zod; npm now
hoists zod 4 beside its zod-to-json-schema 3, so every inputSchema is a bare \`{ "$schema" }\`
without \`type: "object"\` and the SDK client refuses the whole list),
\`@modelcontextprotocol/server-redis\` (connects to Redis before it answers, and exits without
one) and \`@modelcontextprotocol/server-gdrive\` (exits at start without an OAuth credentials
file); \`firecrawl-mcp\` and \`exa-mcp-server\` took their places.

Worth knowing: \`server-everything\` registers its capability-gated tools after
\`notifications/initialized\` and sends \`tools/list_changed\`; for a client that declares no
capabilities, only \`simulate-research-query\` of those is listed (already in the first
\`tools/list\`), and a client that declares roots, sampling or elicitation gets more tools. \`desktop-commander\` tries at start to download Chrome (for its PDF
tools) and to fetch remote feature flags, with telemetry on by default: the network namespace
stopped all three, and its tools were the same 3 s later. No server's tools changed between the
two listings. \`@antv/mcp-server-chart\` 0.9.10 names itself 0.8.x in its serverInfo.
\`exa-mcp-server\` lists 2 tools by default (more when enabled by its options).
`;

mkdirSync(outDir, { recursive: true });
const chosen = only.length ? SERVERS.filter((entry) => only.includes(entry.server)) : SERVERS;
let failed = 0;
for (const entry of chosen) {
  try {
    const result = await record(entry);
    writeFixture(entry, result);
    const size = Buffer.byteLength(JSON.stringify(result.tools));
    const info = result.server ? `${result.server.name} ${result.server.version}` : "?";
    console.log(
      `${entry.server}: ${result.tools.length} tools, ${size} bytes (${info}, ${result.ms} ms)${result.notes.length ? `; ${result.notes.join("; ")}` : ""}`,
    );
  } catch (error) {
    failed++;
    console.error(`${entry.server}: FAILED: ${error.message}`);
    if (error.stderr) console.error(error.stderr.trim().split("\n").slice(-15).join("\n"));
  }
}
const total = writeReadme();
console.log(`README: ${total.servers} servers, ${total.tools} tools, ${total.bytes} bytes`);
process.exit(failed ? 1 : 0);
