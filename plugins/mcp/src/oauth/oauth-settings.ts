import { zodSchema } from "@pseudoclaude/core/plugin";
import type { z } from "zod";

/** The `oauth` key of an `http` or `sse` server: which client this is, and how it gets tokens. */
export const oauthSchema = zodSchema((z) =>
  z
    .object({
      /** A pre-registered client (preferred over the rest). */
      client_id: z.string().min(1).optional(),
      client_secret: z.string().min(1).optional(),
      /** A Client ID Metadata Document URL used as the client id (when the server supports it). */
      client_metadata_url: z.url({ protocol: /^https?$/ }).optional(),
      /** Ask for these scopes instead of what the server's challenge and metadata suggest. */
      scope: z.string().min(1).optional(),
      /** `authorization_code` (a person logs in) or `client_credentials` (machine to machine). */
      grant: z.enum(["authorization_code", "client_credentials", "cross_app_access"]).optional(),
      token_endpoint_auth_method: z
        .enum(["none", "client_secret_basic", "client_secret_post", "private_key_jwt"])
        .optional(),
      /** For private_key_jwt: the PEM key (usually `${VAR}`) and its algorithm. */
      private_key_pem: z.string().min(1).optional(),
      signing_algorithm: z.string().min(1).optional(),
      /**
       * For cross_app_access (enterprise-managed authorization): the identity provider that
       * exchanges the person's ID token for an identity assertion grant (ID-JAG).
       */
      idp: z
        .object({
          token_endpoint: z.url({ protocol: /^https?$/ }),
          client_id: z.string().min(1),
          client_secret: z.string().min(1).optional(),
          id_token: z.string().min(1),
        })
        .strict()
        .optional(),
    })
    .strict(),
);

export type RawOAuthSettings = z.infer<ReturnType<typeof oauthSchema>>;

/** What the plugin runs on, after `${VAR}` expansion. */
export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scope?: string;
  grant: "authorization_code" | "client_credentials" | "cross_app_access";
  tokenEndpointAuthMethod?: RawOAuthSettings["token_endpoint_auth_method"];
  privateKeyPem?: string;
  signingAlgorithm?: string;
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string; idToken: string };
}

/**
 * Someone who can complete an authorization in a browser: given the authorization URL, return
 * the code the redirect carried (or undefined when nobody can). `pseudoclaude mcp login` is
 * one (a loopback listener); a conformance client is another (it follows the redirect itself).
 */
export type Authorizer = (request: {
  server: string;
  url: URL;
  redirectUri: string;
  signal: AbortSignal;
}) => Promise<string | undefined>;
