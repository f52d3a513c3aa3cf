/**
 * The environment of a stdio server. By default only variables a program needs to run are
 * inherited (as the MCP SDK does, widened for locale, temp dirs, proxies and npm), so API keys
 * of this process do not leak to third-party servers; `inherit_env: true` passes everything.
 * Configured `env` values win either way.
 */
const SAFE_VARIABLES = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "npm_config_registry",
  "npm_config_cache",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
];

export function childEnvironment(
  configured: Record<string, string>,
  inheritAll = false,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  const names = inheritAll ? Object.keys(parent) : SAFE_VARIABLES;
  for (const name of names) {
    const value = parent[name];
    // Exported shell functions are a known injection vector.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return { ...env, ...configured };
}
