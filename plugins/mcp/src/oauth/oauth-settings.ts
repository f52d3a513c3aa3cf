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
      /**
       * `authorization_code` (a person logs in), `client_credentials` (machine to machine),
       * `cross_app_access` (enterprise-managed) or `jwt_bearer` (workload identity: an
       * assertion the workload holds, RFC 7523).
       */
      grant: z
        .enum(["authorization_code", "client_credentials", "cross_app_access", "jwt_bearer"])
        .optional(),
      /** For jwt_bearer: the workload's JWT (usually `${VAR}`), or a file holding it (re-read for each token). */
      assertion: z.string().min(1).optional(),
      assertion_file: z.string().min(1).optional(),
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
    .strict()
    .superRefine((oauth, context) => {
      if (oauth.grant !== "jwt_bearer") return;
      if (!oauth.client_id)
        context.addIssue({
          code: "custom",
          path: ["client_id"],
          message:
            "grant jwt_bearer needs the client_id the authorization server knows the workload by",
        });
      if ((oauth.assertion === undefined) === (oauth.assertion_file === undefined))
        context.addIssue({
          code: "custom",
          path: ["assertion"],
          message: "grant jwt_bearer needs one of assertion (usually ${VAR}) or assertion_file",
        });
    }),
);

export type RawOAuthSettings = z.infer<ReturnType<typeof oauthSchema>>;

/** What the plugin runs on, after `${VAR}` expansion. */
export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scope?: string;
  grant: "authorization_code" | "client_credentials" | "cross_app_access" | "jwt_bearer";
  /** jwt_bearer: the assertion itself, or the file that holds it. */
  assertion?: string;
  assertionFile?: string;
  tokenEndpointAuthMethod?: RawOAuthSettings["token_endpoint_auth_method"];
  privateKeyPem?: string;
  signingAlgorithm?: string;
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string; idToken: string };
}

/**
 * Someone who can complete an authorization in a browser: given the authorization URL, return
 * the query of the redirect that came back (`code`, and `iss` when the authorization server
 * names itself, which is then checked), or undefined when nobody can. A bare code string is
 * still taken, but not from a server that advertises `iss`: whether its redirect named it is
 * then unknown. `pseudoclaude mcp login` is one (a loopback listener); a conformance client is
 * another (it follows the redirect itself).
 */
export type Authorizer = (request: {
  server: string;
  url: URL;
  redirectUri: string;
  signal: AbortSignal;
}) => Promise<URLSearchParams | string | undefined>;
