import { ApiError, apiWithKey, type Api } from './api-client.js';
import { el } from './dom.js';
import { hookView } from './hook-page.js';
import { hooksView } from './hooks-page.js';
import { forgetKey, keepKey, signedInKey } from './session.js';
import { systemView } from './system-page.js';
import type { View, ViewContext } from './view.js';

const app = document.getElementById('app') as HTMLElement;
let current: View | undefined;

/** Start: the sign-in form, or the pages when this tab is signed in already. */
function start(): void {
  const key = signedInKey();
  if (key) showPages(apiWithKey(key));
  else showSignIn();
}

function showSignIn(reason?: string): void {
  current?.stop?.();
  current = undefined;
  document.title = 'Sign in · stackhooks';
  const input = el('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'api-key-help',
  });
  const problem = el('p', { id: 'sign-in-problem', class: 'problem', role: 'alert' }, reason ?? '');
  const submit = el('button', { type: 'submit' }, 'Sign in');
  const form = el(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    el('h1', { id: 'sign-in-title' }, 'Sign in to stackhooks'),
    el('label', { for: 'api-key' }, 'API key'),
    input,
    el(
      'p',
      { id: 'api-key-help', class: 'hint' },
      'The key stays in this browser tab only: it is forgotten when you sign out or close the tab.',
    ),
    problem,
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key === '') {
      problem.textContent = 'Enter your API key to sign in.';
      input.focus();
      return;
    }
    submit.disabled = true;
    problem.textContent = '';
    const api = apiWithKey(key);
    api.get('/me', { limit: 1 }).then(
      () => {
        keepKey(key);
        showPages(api);
      },
      (error: unknown) => {
        submit.disabled = false;
        problem.textContent =
          error instanceof ApiError && error.status === 401
            ? 'That API key was refused: it is unknown or has been revoked. Check it and try again.'
            : messageOf(error);
        input.focus();
      },
    );
  });
  app.replaceChildren(el('main', { id: 'main', class: 'narrow' }, form));
  input.focus();
}

function showPages(api: Api): void {
  const notice = el('p', { id: 'notice', class: 'notice', role: 'status', 'aria-live': 'polite' });
  const problem = el('div', { id: 'problem', class: 'problem', role: 'alert' });
  const main = el('main', { id: 'main' });
  const links = [el('a', { href: '#/hooks' }, 'Hooks'), el('a', { href: '#/system' }, 'System')];
  const signOut = el('button', { type: 'button', class: 'secondary' }, 'Sign out');
  signOut.addEventListener('click', () => {
    forgetKey();
    window.removeEventListener('hashchange', route);
    history.replaceState(null, '', location.pathname);
    showSignIn();
    announceSignOut();
  });
  app.replaceChildren(
    el(
      'a',
      {
        class: 'skip',
        href: '#main',
        // The hash names pages here: skip by moving the focus, not the address.
        onclick: (event: Event) => {
          event.preventDefault();
          main.querySelector<HTMLElement>('h1')?.focus();
        },
      },
      'Skip to content',
    ),
    el(
      'header',
      { class: 'bar' },
      el('span', { class: 'brand' }, 'stackhooks'),
      el('nav', { 'aria-label': 'Dashboard' }, links),
      signOut,
    ),
    el('div', { class: 'messages' }, problem, notice),
    main,
  );
  let keepNotice = false;
  const context: ViewContext = {
    api,
    announce(message, keepOnNextPage = false) {
      // Something went well: a failure shown before is over.
      problem.replaceChildren();
      notice.textContent = message;
      keepNotice = keepOnNextPage;
    },
    showError(error) {
      if (error instanceof ApiError && error.status === 401) {
        forgetKey();
        window.removeEventListener('hashchange', route);
        showSignIn(error.message);
        return;
      }
      problem.replaceChildren(el('p', {}, messageOf(error)));
    },
    clearError() {
      problem.replaceChildren();
    },
  };
  const route = () => {
    current?.stop?.();
    context.clearError();
    if (!keepNotice) notice.textContent = '';
    keepNotice = false;
    const path = location.hash.replace(/^#/, '') || '/hooks';
    const hook = /^\/hooks\/([0-9a-fA-F-]{36})$/.exec(path);
    current = hook
      ? hookView(context, hook[1])
      : path === '/system'
        ? systemView(context)
        : hooksView(context);
    for (const link of links) {
      const active = path.startsWith(link.getAttribute('href')!.slice(1));
      if (active) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = `${current.title} · stackhooks`;
    main.replaceChildren(current.element);
    // A screen reader hears the new page's heading, as after a full page load.
    main.querySelector<HTMLElement>('h1')?.focus();
  };
  window.addEventListener('hashchange', route);
  route();
}

function announceSignOut(): void {
  const problem = document.getElementById('sign-in-problem');
  if (problem) problem.textContent = 'You are signed out. The key was forgotten by this tab.';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

start();
