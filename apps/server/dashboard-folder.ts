import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// In the package the dashboard is built beside the compiled server (dist/apps/dashboard); run from
// source, the server finds the build's output in dist/ of the project.
const CANDIDATES = [
  new URL('../dashboard/', import.meta.url),
  new URL('../../dist/apps/dashboard/', import.meta.url),
];

/** The folder of the built dashboard, or undefined when it was not built. */
export function builtDashboardFolder(): string | undefined {
  const found = CANDIDATES.find((folder) => existsSync(new URL('app.js', folder)));
  return found ? fileURLToPath(found) : undefined;
}
