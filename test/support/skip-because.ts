/** Skip the running test (or the test a hook runs for), naming why in its title so the report says it. */
export function skipBecause(context: Mocha.Context, reason: string): never {
  const test = context.currentTest ?? context.test;
  if (test) test.title += ` (skipped: ${reason})`;
  context.skip();
}
