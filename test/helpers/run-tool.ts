import { spawn, spawnSync } from 'node:child_process';

/** What a run of an outside program left behind: its exit code (null when killed) and its words. */
export interface ToolRun {
  exitCode: number | null;
  /** stdout and stderr in the order the chunks arrived (a Perl/Go program buffers stdout when piped). */
  output: string;
  timedOut: boolean;
}

/** Whether `name` is a command on PATH (Debian's packages may be missing on a developer's machine). */
export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs an outside program once, in the foreground, killing it (and only it) after `timeoutMs`.
 * `secrets` are replaced by `[redacted]` in the output we hand back, so a failing assertion that
 * prints the output never prints a password.
 */
export function runTool(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; secrets?: string[] },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      let output = Buffer.concat(chunks).toString('utf8');
      for (const secret of options.secrets ?? []) {
        if (secret) output = output.split(secret).join('[redacted]');
      }
      resolve({ exitCode: code, output, timedOut });
    });
  });
}
