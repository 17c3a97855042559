/** The uuid of the live crash writer's hook `i`, which every (i + 1)th step writes. */
export function liveCrashHookUuid(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}
