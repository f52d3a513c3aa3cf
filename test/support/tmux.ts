// Drive the real CLI in a real terminal: tmux on a private socket, one pane per test.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";

/** One tmux server and pane running a command; keys in, screen out, exit status at the end. */
export class TmuxPane {
  private readonly socket = `pc-test-${randomUUID().slice(0, 8)}`;

  /** Start `command` (a shell line) in a terminal of `width`x50 (default 160), with `env` added. */
  constructor(command: string, env: Record<string, string>, cwd: string, width = 160) {
    const exports = Object.entries(env)
      .map(([key, value]) => `export ${key}=${shellQuote(value)};`)
      .join(" ");
    // The shell prints the exit status and keeps the pane (tmux 3.3's pane_dead_status is not
    // always filled in); kill-server ends the pane when the test is done.
    const line = `cd ${shellQuote(cwd)} && ${exports} ${command}; echo "[exited with status $?]"; sleep 600`;
    this.tmux("new-session", "-d", "-s", "chat", "-x", String(width), "-y", "50", "-c", cwd, line);
  }

  /** Type text (as it is, not as key names). */
  type(text: string): void {
    this.tmux("send-keys", "-t", "chat", "-l", text);
  }

  /** Press keys by name: `Enter`, `C-c`, `C-d`. */
  press(...keys: string[]): void {
    this.tmux("send-keys", "-t", "chat", ...keys);
  }

  /** Everything on the screen and in its history, lines joined where they wrapped. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "chat");
  }

  /** Wait until the screen matches, or fail with what it shows. */
  async waitFor(pattern: RegExp, what: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for ${what}. Screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The command's exit status once it ended (the shell prints it), or undefined while it runs. */
  exitStatus(): number | undefined {
    const match = /^\[exited with status (\d+)\]$/m.exec(this.screen());
    return match ? Number(match[1]) : undefined;
  }

  async waitForExit(timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = this.exitStatus();
      if (status !== undefined) return status;
      if (Date.now() > deadline)
        throw new Error(`The command did not exit. Screen:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}
