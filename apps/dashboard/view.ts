import type { Api } from './api-client.js';

/** What a page gets from the shell: the API, and ways to tell the user something. */
export type ViewContext = {
  api: Api;
  /** Say something that went well (read out politely by screen readers), clearing a failure shown before; cleared on the next page unless kept. */
  announce(message: string, keepOnNextPage?: boolean): void;
  /** Show a failure in words the user can act on. */
  showError(error: unknown): void;
  /** Clear a failure shown before. */
  clearError(): void;
};

/** A page: its element, and what to stop (polling) when the user leaves it. */
export type View = { element: HTMLElement; title: string; stop?(): void };
