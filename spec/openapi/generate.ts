/**
 * Writes `spec/openapi.json` from the schema files: `npx tsx spec/openapi/generate.ts`.
 * With `--check` it only reports whether the file is up to date (exit code 1 when it is not).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument } from './document.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
// Formatted as `prettier --check` expects, so regenerating never leaves a lint failure behind.
const text = await format(JSON.stringify(buildOpenApiDocument()), {
  ...(await resolveConfig(target)),
  filepath: target,
});

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (JSON.stringify(JSON.parse(current || 'null')) !== JSON.stringify(JSON.parse(text))) {
    console.error('spec/openapi.json is out of date: run npx tsx spec/openapi/generate.ts');
    process.exit(1);
  }
} else {
  await writeFile(target, text);
  console.log(`wrote ${target}`);
}
