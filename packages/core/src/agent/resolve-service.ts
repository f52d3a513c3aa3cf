import type { DependencyContainer, InjectionToken } from "tsyringe";
import { ConfigError } from "../errors.js";

/**
 * A service a plugin registered in an agent's container, or a ConfigError that names the
 * token and says which plugin is missing.
 */
export function resolveService<T>(
  container: DependencyContainer,
  token: symbol | string | (abstract new (...args: never[]) => T),
): T {
  const key = token as InjectionToken<T>;
  if (!container.isRegistered(key, true)) {
    const name = typeof token === "function" ? token.name : String(token);
    throw new ConfigError(
      "not_registered",
      `Nothing is registered for ${name} in this agent (is its plugin in the plugin list?).`,
    );
  }
  return container.resolve<T>(key);
}
