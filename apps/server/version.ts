import { readFileSync } from 'node:fs';

/**
 * The package's package.json: two folders up from the sources (apps/server/), three from the build
 * (dist/apps/server/). Walking up to the first one named stackhooks finds it from either.
 */
function readPackageJson(): { name: string; version: string } {
  for (let url = new URL('../', import.meta.url); ; url = new URL('../', url)) {
    try {
      const found = JSON.parse(readFileSync(new URL('package.json', url), 'utf8')) as {
        name: string;
        version: string;
      };
      if (found.name === 'stackhooks') return found;
    } catch {
      // no package.json here: look one folder up
    }
    if (url.pathname === '/') throw new Error('stackhooks cannot find its package.json');
  }
}

/** The package version, reported by the status route, the webhook user agent and `--version`. */
export const SERVER_VERSION: string = readPackageJson().version;
