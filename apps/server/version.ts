import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The package version, reported by the status route and the webhook user agent. */
export const SERVER_VERSION: string = (require('../../package.json') as { version: string }).version;
