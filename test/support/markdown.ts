import { readFile } from 'node:fs/promises';

/** Every code block tagged `language` (```js, ```ts, ```sh…) of a markdown file, in order. */
export async function codeBlocks(path: string, language: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const blocks = [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1],
  );
  if (blocks.length === 0) throw new Error(`no ${language} block in ${path}`);
  return blocks;
}

/** The first code block tagged `language` of a markdown file, for tests that run a doc's example. */
export async function firstCodeBlock(path: string, language: string): Promise<string> {
  return (await codeBlocks(path, language))[0];
}
