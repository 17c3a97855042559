import { RE2JS } from 're2js';

// RE2 matches in time linear in the text, whatever the pattern: a hostile `matches_regex` cannot
// stall the chain as a backtracking engine (JavaScript's own RegExp) can. Its syntax is the one
// 1.x's Rust `regex` crate follows. Long patterns only cost compile time; 1.x had no limit, a
// kilobyte is far beyond any predicate seen.
const MAX_PATTERN = 1024;

/** Why a `matches_regex` pattern is refused (completing "matches_regex …"), or undefined when it compiles. */
export function checkPrintPattern(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN) return `must be at most ${MAX_PATTERN} characters`;
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
}

/** Whether some part of `text` matches a pattern that `checkPrintPattern` accepted; compiled once per pattern. */
export function printPatternFinder(pattern: string): (text: string) => boolean {
  const compiled = RE2JS.compile(pattern);
  return (text) => compiled.matcher(text).find();
}
