import { aiSdkCodeMode } from "./ai-sdk.js";
import { langchainQuickjs } from "./langchain.js";
import { mastraCodeMode } from "./mastra.js";
import {
  pseudoclaudeAgent,
  pseudoclaudeAgentNode22,
  pseudoclaudeSandbox,
  pseudoclaudeSandboxNode22,
} from "./ours.js";
import type { SandboxPeer } from "./sandbox-peer.js";
import { tanstackCodeMode } from "./tanstack.js";

/** Every sandbox the code-mode rows measure, by name; ours first. */
export const SANDBOX_PEERS: Readonly<Record<string, SandboxPeer>> = Object.fromEntries(
  [
    pseudoclaudeSandbox,
    pseudoclaudeAgent,
    pseudoclaudeSandboxNode22,
    pseudoclaudeAgentNode22,
    aiSdkCodeMode,
    mastraCodeMode,
    langchainQuickjs,
    tanstackCodeMode,
  ].map((peer) => [peer.name, peer]),
);
