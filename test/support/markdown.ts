import { readFile } from 'node:fs/promises';

/** The first code block tagged `language` (```js, ```ts, ```sh…) of a markdown file, for tests that run a doc's example. */
export async function firstCodeBlock(path: string, language: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text);
  if (!match) throw new Error(`no ${language} block in ${path}`);
  return match[1];
}
