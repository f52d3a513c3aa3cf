import { type Diagnostic } from "@pseudoclaude/core";
import {
  expandVariables,
  isSecretName,
  type Redactor,
  type SectionEntry,
} from "@pseudoclaude/core/plugin";
import type { OAuthSettings, RawOAuthSettings } from "../oauth/oauth-settings.js";
import { configDiagnostic } from "./server-diagnostic.js";

/** `${VAR}` in the secrets of `oauth` (client secret, private key), registered with the redactor. */
export function oauthSettings(
  raw: RawOAuthSettings,
  server: string,
  entry: SectionEntry,
  options: { redactor: Redactor; env?: NodeJS.ProcessEnv; expand?: boolean },
  diagnostics: Diagnostic[],
): OAuthSettings {
  const secrets = expandMap(
    {
      ...(raw.client_secret ? { client_secret: raw.client_secret } : {}),
      ...(raw.private_key_pem ? { private_key_pem: raw.private_key_pem } : {}),
      ...(raw.idp?.client_secret ? { idp_client_secret: raw.idp.client_secret } : {}),
      ...(raw.idp ? { idp_id_token: raw.idp.id_token } : {}),
      ...(raw.assertion ? { assertion: raw.assertion } : {}),
    },
    "oauth",
    server,
    entry,
    options,
    diagnostics,
  );
  const settings: OAuthSettings = { grant: raw.grant ?? "authorization_code" };
  if (raw.client_id) settings.clientId = raw.client_id;
  if (secrets.client_secret) settings.clientSecret = secrets.client_secret;
  if (raw.client_metadata_url) settings.clientMetadataUrl = raw.client_metadata_url;
  if (raw.scope) settings.scope = raw.scope;
  if (raw.token_endpoint_auth_method)
    settings.tokenEndpointAuthMethod = raw.token_endpoint_auth_method;
  if (secrets.private_key_pem) settings.privateKeyPem = secrets.private_key_pem;
  if (raw.signing_algorithm) settings.signingAlgorithm = raw.signing_algorithm;
  if (secrets.assertion) settings.assertion = secrets.assertion;
  if (raw.assertion_file) settings.assertionFile = raw.assertion_file;
  if (raw.idp)
    settings.idp = {
      tokenEndpoint: raw.idp.token_endpoint,
      clientId: raw.idp.client_id,
      idToken: secrets.idp_id_token ?? "",
      ...(secrets.idp_client_secret ? { clientSecret: secrets.idp_client_secret } : {}),
    };
  return settings;
}

export function expandMap(
  values: Record<string, string>,
  field: "env" | "headers" | "oauth",
  server: string,
  entry: SectionEntry,
  options: { redactor: Redactor; env?: NodeJS.ProcessEnv; expand?: boolean },
  diagnostics: Diagnostic[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(values)) {
    if (options.expand === false) {
      // Not approved: the user's environment is not read for it at all.
      out[key] = template;
      if (isSecretName(key) && !template.includes("${")) options.redactor.addSecret(template);
      continue;
    }
    const expansion = expandVariables(template, options.env ?? process.env);
    out[key] = expansion.value;
    // Credentials come from the environment or sit under a credential's name: never show
    // them. Other literal values are configuration (`NODE_ENV: production`, `MODE: call`):
    // hiding them would put *** for ordinary words in every result the model reads.
    if (expansion.substituted || field === "oauth" || isSecretName(key))
      options.redactor.addSecret(expansion.value);
    // What a variable expanded to is a secret wherever it lands, whatever it is called.
    for (const secret of expansion.values) options.redactor.addSecret(secret);
    for (const missing of expansion.missing) {
      diagnostics.push({
        ...configDiagnostic(
          entry,
          [server, field, key],
          `${field}.${key} of server "${server}" uses \${${missing}}, which is not set; it expands to an empty string.`,
          server,
        ),
        severity: "warning",
        code: "unset_variable",
      });
    }
  }
  return out;
}
