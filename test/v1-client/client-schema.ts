// The official 1.x client's own payload schema, compiled with the client's TypeBox from this folder
// (npm ci --prefix test/v1-client installs it; `npm test` does when it is missing).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { skipBecause } from '../support/skip-because.js';

/** Whether the client is installed in this folder. */
export const CLIENT_INSTALLED = existsSync(
  new URL('./node_modules/@hirosystems/chainhook-client/package.json', import.meta.url),
);

/** Skip the suite (saying how to install the client) when the client is not installed here. */
export function skipUnlessClientInstalled(suite: Mocha.Context): void {
  if (CLIENT_INSTALLED) return;
  skipBecause(suite, 'the 1.x client is not installed here: run npm ci --prefix test/v1-client');
}

/** A compiled TypeBox schema: whether a value passes, and why not. */
export type CompiledSchema = {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<{ path: string; message: string }>;
};

/** The client's `PayloadSchema`, the one `validate_chainhook_payloads` checks each payload with. */
export function clientPayloadSchema(): CompiledSchema {
  const local = createRequire(new URL('./package.json', import.meta.url));
  const { PayloadSchema } = local('@hirosystems/chainhook-client') as { PayloadSchema: object };
  const { TypeCompiler } = local('@sinclair/typebox/compiler') as {
    TypeCompiler: { Compile(schema: object): CompiledSchema };
  };
  return TypeCompiler.Compile(PayloadSchema);
}
