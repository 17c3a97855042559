import { readFile } from 'node:fs/promises';

/** The first ```ts block of a markdown file, for tests that run a doc's example. */
export async function firstTypeScriptBlock(path: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  const match = /```ts\n([\s\S]*?)```/.exec(text);
  if (!match) throw new Error(`no ts block in ${path}`);
  return match[1];
}
