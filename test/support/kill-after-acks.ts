import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Run a writer script (through tsx, from the project root) that prints a line per acknowledged write, SIGKILL it a few
 * milliseconds after its `acks`th line, and return every whole line it printed. A writer that exits
 * on its own fails the test.
 */
export function runUntilKilled(script: string, args: readonly string[], acks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: PROJECT_ROOT });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf-8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!killed && stdout.split('\n').length > acks) {
        killed = true;
        // A few milliseconds' random lag lands the kill at varying points, mid-write among them.
        setTimeout(() => child.kill('SIGKILL'), Math.random() * 10);
      }
    });
    child.stderr.setEncoding('utf-8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`the writer exited on its own: ${stderr}`));
      // A last line without its newline was cut off mid-print; it is no acknowledgement.
      resolve(stdout.split('\n').slice(0, -1));
    });
  });
}
