import { spawn } from "node:child_process";

/**
 * Open `url` in the person's browser where one can be shown: `open` on macOS, `xdg-open` on a
 * Linux desktop (DISPLAY or WAYLAND_DISPLAY set). The caller prints the URL either way, so a
 * machine without a browser (ssh, CI) still gets through. `PSEUDOCLAUDE_NO_BROWSER=1` turns it off.
 */
export function openBrowser(url: URL): void {
  if (process.env.PSEUDOCLAUDE_NO_BROWSER) return;
  const opener =
    process.platform === "darwin"
      ? "open"
      : process.platform === "linux" && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
        ? "xdg-open"
        : undefined;
  if (!opener) return;
  const child = spawn(opener, [url.href], { stdio: "ignore", detached: true });
  child.on("error", () => {});
  child.unref();
}
