// The key lives in this tab's session storage only: gone when the tab closes, never in a URL,
// never in local storage shared by every tab and kept on disk.
const KEY_ITEM = 'stackhooks.apiKey';

/** The API key this tab signed in with, if any. */
export function signedInKey(): string | undefined {
  return sessionStorage.getItem(KEY_ITEM) ?? undefined;
}

/** Keep the key for this tab's session. */
export function keepKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

/** Forget the key (sign out). */
export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}
